#!/bin/sh
# jump-pae: the jump scenario on the PAE kernel (config pae in the .host).
exec sh /scenarios/jump.sh
