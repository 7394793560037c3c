#!/bin/sh
# jump-panic: a real crash in A after kexec jump round trips still ends in
# a dump (patch 0023).  After a jump B owns the crash region, so purgatory
# cannot boot it again; a crash enters B where it stopped instead, and B
# stays as A's crash kernel.  Also: the jump record names a way back only
# while B runs (patch 0022).
#
# A: load B with kexec -p, then kjump.trips=N round trips (kexec -j exits
#    0, the same shell, the counter advanced); after each one the record
#    at KEXEC_JUMP_RECORD_OFFSET in A's jump buffer reads all zero
#    (/dev/mem).  Then unloading or reloading B is refused while it is
#    parked (patch 0024).  Then fill
#    32 MiB with memfill's pattern, which no earlier jump saw, and
#    crash (sysrq-c, on CPU kjump.crashcpu=, default 1: B can only be
#    entered from CPU 0, so a crash on CPU 1 hands over to it by NMI).
# B: on every entry, A's record holds the magic (B reads it through
#    /proc/vmcore); jump back.  After N trips the pending kexec -j fails with
#    kexec's "the previous kernel crashed" line, the kernel said so once,
#    the record is cleared, both CPUs are online, every page of A's
#    crash-time pattern is in /proc/vmcore, and a second kexec -j is
#    refused the same way.
#: timeout 300
#: append crashkernel=64M kjump.trips=3 kjump.crashcpu=1
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: allow-panic-after ^KJ A: handover to B \(crash\)$
#: mark A.start
#: mark B.start 120
#: console 90 Kernel panic - not syncing: sysrq triggered crash
#: console 30 kexec jump: crash on CPU 1: entering the parked crash kernel from CPU 0$
#: mark B.end 120
. /lib/kjump/common.sh

MIB=32
PAGES=$((MIB * 256))
tag=$KJ_MARKER$KJ_MARKER
CRASHED="kexec: jump: the previous kernel crashed while this one was parked; this kernel is its crash kernel now, and /proc/vmcore shows it at the crash"

TRIPS=$(cmdline_word kjump.trips)
[ "$TRIPS" = none ] && TRIPS=3
CRASHCPU=$(cmdline_word kjump.crashcpu)
[ "$CRASHCPU" = none ] && CRASHCPU=1

# the record's offset in the jump buffer (include/linux/kexec.h, asm/kexec.h):
# above the copy of relocate_kernel, which 6.1's x86_64 puts in the second
# control page, after the page table root
rec_off=$((0x900))
case $(uname -m)/$(uname -r) in
x86_64/6.1.*) rec_off=$((0x1900)) ;;
esac

# record_bytes PFN: the first 8 bytes of the record (magic, version); A
# reads its own memory, B reads A's through /proc/vmcore
record_bytes() {
	if [ "$KJ_STAGE" = A ]; then
		physmem read $(($1 * 4096 + rec_off)) 8 2>&1
	else
		vmcore-check --read $(($1 * 4096 + rec_off)) 8 2>&1
	fi
}

case $KJ_STAGE in
A)
	kj_need_kexec
	pfn=$(cat /sys/kernel/kexec_jump_buf_pfn)
	kj_match jump-buf-pfn "$pfn" '^0x[0-9a-f]+$' || exit 1
	kj_eq record-before "$(record_bytes "$pfn")" 0000000000000000
	kj_counter_start
	st0=$(starttime $$)
	kj_run_ok load "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) kjump.trips=$TRIPS" || exit 1
	k=1
	while [ $k -le "$TRIPS" ]; do
		kj_jump_trip "trip $k"
		kj_eq "trip $k back" \
			"rc=$kj_rc stderr-lines=$(wc -l </tmp/jump.err) shell=$$/$(starttime $$) counter ${kj_cw#* } record=$(record_bytes "$pfn")" \
			"rc=0 stderr-lines=0 shell=$$/$st0 counter advanced record=0000000000000000" || exit 1
		k=$((k + 1))
	done
	kill $cpid
	# B is parked: unloading or replacing it is refused (patch 0024),
	# and the crash below shows it survived
	kj_slot kexec_jump_parked 1
	kj_table <<'TABLE'
unload-parked | "$KEXEC" -p -u | 1 | ^kexec: unload: the crash kernel is parked in a kexec jump \(kexec -j returns into it\); kexec -p -u --discard unloads it, and its state with it$
reload-parked | "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio --append=x | 1 | ^kexec: kexec_load: the crash kernel is parked in a kexec jump
TABLE
	kj_slot kexec_crash_loaded 1
	# a pattern that exists only from now on: B must see A at the crash
	kj_memfill_start $MIB "$tag" || exit 1
	kj_eq memfill "$(kj_memfill_verify)" "memfill: verify $PAGES pages: OK" || exit 1
	kj_slot kexec_crash_loaded 1
	# B resumes as the CPU it left from, CPU 0: a crash on CPU 1 hands
	# over to CPU 0 (patch 0027)
	kj_handover B crash
	taskset -c "$CRASHCPU" sh -c 'echo c >/proc/sysrq-trigger'
	kj_fail crash "still running after sysrq-c"
	exit 1
	;;
B)
	kj_check_b_cmdline
	pfn=$(cmdline_word kexec_jump_buf_pfn)
	kj_match jump-buf-pfn "$pfn" '^0x[0-9a-f]+$' || exit 1
	n=0
	while :; do
		# "KJMP" and version 2, little-endian
		kj_eq "n=$n record" "$(record_bytes "$pfn")" 4b4a4d5002000000
		kj_jump_back "jump back n=$n"
		rc=$kj_rc
		[ $rc != 0 ] && break
		n=$((n + 1))
		kj_eq "resumed n=$n" "stderr-lines=$(wc -l </tmp/jump.err)" "stderr-lines=0"
	done
	kj_eq crashed "rc=$rc n=$n stderr=$(cat /tmp/jump.err)" "rc=1 n=$((TRIPS - 1)) stderr=$CRASHED"
	kj_eq kernel-said "$(dmesg | grep -c 'kexec jump: the previous kernel crashed')" 1
	kj_eq record-cleared "$(record_bytes "$pfn")" 0000000000000000
	# entered on the right processor, B brings its other CPU back
	kj_eq cpus-online "$(cat /sys/devices/system/cpu/online)" 0-1
	kj_vmcore_find "$tag" $PAGES
	"$KEXEC" -j 2>/tmp/jump.err
	kj_eq again "rc=$? stderr=$(cat /tmp/jump.err)" "rc=1 stderr=$CRASHED"
	;;
esac
