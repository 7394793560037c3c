#!/bin/sh
# jump-fallback: three round trips on a kernel WITHOUT KJUMP (patches
# 0001-0005 only, config nokjump): kexec -j on both sides must take the
# upstream preserve-context path by itself.  A checks the kernel has no
# KJUMP.  See jump-upstream.guest.sh (kjump.way=jump).
#: config nokjump
#: timeout 240
#: append kjump.trips=3 kjump.way=jump
#: debian skip our --load-preserve-context fixes and -j are under test; see jump-debian-baseline
#: mark A.start
#: mark B.start 120
#: mark A.end
. /scenarios/jump-upstream.sh
