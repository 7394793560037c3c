#!/bin/sh
# x86_64-jump-upstream: jump-upstream on the x86_64 companion kernel
# (config x86_64): our kexec's upstream-style jump (KEXEC_PRESERVE_CONTEXT)
# with the 64-bit purgatory forwarding the way back, 3 round trips.
# Patches 0006 (GDT on the way back) and 0007 (B maps the helper's entry)
# make the stock path work on 6.1.  Same guest script.
#: arch x86_64
#: config x86_64
#: timeout 240
#: append kjump.trips=3 kjump.way=exec
#: debian skip our --load-preserve-context fixes and -j are under test; see x86_64-jump-debian-baseline
#: mark A.start
#: mark B.start 120
#: mark A.end
exec sh /scenarios/jump-upstream.sh
