#!/bin/sh
# x86_64-jump-debian-baseline: jump-debian-baseline on the x86_64 companion
# kernel (config x86_64): the upstream kexec jump (KEXEC_PRESERVE_CONTEXT)
# with Debian's amd64 kexec-tools 2.0.25, the peer baseline for
# x86_64-jump's timings.  Same guest script.
#: arch x86_64
#: config x86_64
#: timeout 210
#: append kjump.trips=6
#: allow-warning at mm/vmalloc.c:[0-9]+ __vmalloc_node_range
#: debian skip it always runs Debian's kexec; the run without KEXEC_IMPL=debian covers it
#: mark A.start
#: mark B.start 120
#: mark A.end
exec sh /scenarios/jump-debian-baseline.sh
