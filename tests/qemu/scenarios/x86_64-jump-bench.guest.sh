#!/bin/sh
# x86_64-jump-bench: the bench scenario on the x86_64 companion kernel
# (config x86_64): ours against Debian's amd64 kexec-tools 2.0.25 in one
# boot: kexec -v, -l and -p loads, then round trips by our kexec -p + -j,
# by our preserve-context load, and by Debian's preserve-context load.
# make bench runs it with more samples (bench.sh) and prints the table.
#: arch x86_64
#: config x86_64
#: timeout 390
#: append crashkernel=64M kjump.runs=3 kjump.trips=3
#: allow-warning at mm/vmalloc.c:[0-9]+ __vmalloc_node_range
#: debian skip it always runs both kexecs; the run without KEXEC_IMPL=debian covers it
#: mark A.start
#: mark B.start 180
#: mark B.start 180
#: mark B.start 180
#: mark A.end 120
exec sh /scenarios/bench.sh
