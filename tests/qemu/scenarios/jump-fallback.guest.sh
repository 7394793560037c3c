#!/bin/sh
# jump-fallback: see jump-upstream.guest.sh (kjump.way=jump).
. /scenarios/jump-upstream.sh
