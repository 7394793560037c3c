#!/bin/sh
# x86_64-jump-fallback: jump-fallback on an x86_64 kernel WITHOUT KJUMP
# (patches 0001-0007 only, config x86_64-nokjump: the fixes that make the
# upstream 64-bit preserve-context jump work at all): kexec -j on both
# sides must take the upstream path by itself, 3 round trips, with the
# 64-bit purgatory forwarding the way back.  Same guest script.
#: arch x86_64
#: config x86_64-nokjump
#: timeout 240
#: append kjump.trips=3 kjump.way=jump
#: debian skip our --load-preserve-context fixes and -j are under test; see x86_64-jump-debian-baseline
#: mark A.start
#: mark B.start 120
#: mark A.end
exec sh /scenarios/jump-upstream.sh
