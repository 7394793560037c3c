#!/bin/sh
# x86_64-bench: our x86_64 kexec against Debian's amd64 kexec-tools 2.0.25
# in one boot of Debian's amd64 kernel, the same bzImage and initrd: start-up
# (kexec -v), -l (kexec_load: each builds its own image), -s -l and -s -p
# (kexec_file_load: the kernel builds it), each sample loaded and unloaded
# by the same kexec, the two interleaved (ours first on odd runs).  The
# guest checks every sample was taken and prints the raw numbers, which
# tests/qemu/bench.sh turns into a table; it does not judge speed.
# kjump.runs=N on A's command line (default 7; the header's 3 keeps
# make check short, make bench asks for more).
#: arch x86_64
#: timeout 420
#: append crashkernel=192M kjump.runs=3
# (640 MiB: Debian's kernel puts itself anywhere in RAM (KASLR); in 512
# MiB, with a 51 MiB initramfs at the top, a 192 MiB crash region found
# no room now and then.)
#: memory 640
#: debian skip it always runs both kexecs; the run without KEXEC_IMPL=debian covers it
#: mark A.start 90
#: mark A.end 300
. /lib/kjump/common.sh

kj_need_kexec
[ -x /opt/debian/sbin/kexec ] || { kj_fail debian-kexec "no /opt/debian/sbin/kexec"; exit 1; }
mkdir -p /run
RUNS=$(cmdline_word kjump.runs 7)
kj_say "bench runs=$RUNS"
APPEND=$(kj_b_append)
for m in start-up load-l load-sl load-sp; do
	kj_bench_metric $m "$RUNS" /boot/bzImage /boot/initrd-b.cpio "$APPEND"
done
kj_say "bench done"
