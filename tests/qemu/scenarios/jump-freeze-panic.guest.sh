#!/bin/sh
# jump-freeze-panic: a panic while a jump freezes or thaws a kernel still
# ends in a dump or, in B, back in A (patch 0031: the jump lends its kexec
# lock to a crash there).  The base test kernel has a test driver built
# in, kjump_test_panic (tests/qemu/kernel/), which panics in a device's freeze
# or restore callback on request (panic_at=), or refuses to freeze
# (fail_at=), and counts the callbacks.  kjump.case= picks the case; the
# other scenarios run this script with theirs:
#   a-freeze   (this one) after a round trip, A panics in its freeze on
#              CPU 1: the crash hands over to CPU 0 and enters the parked
#              B, whose pending kexec -j fails with "the previous kernel
#              crashed"; B finds A's pattern pages in /proc/vmcore
#   a-restore  (jump-freeze-panic-restore) after a round trip, A panics in
#              its restore when B jumps back: the same end
#   a-first    (jump-freeze-panic-first) A panics in its freeze on the first
#              jump: B boots as a plain crash kernel, says once that no way
#              back is recorded, and finds the pages
#   b          (jump-freeze-panic-b) B gen 1 panics in its freeze on the
#              way back (CPU 1), B gen 2 in its restore when A enters it
#              again: each time A's kexec -j exits 1 with "the crash kernel
#              panicked", the same shell, the counter advanced, every
#              pattern page intact, no kernel error; B gen 3 jumps back
#   a-fail     (jump-freeze-fail) A's device 0 refuses to freeze: kexec -j
#              exits 1 naming a device, device 1 was thawed with
#              PMSG_RECOVER (frozen=0 thaws=1 restores=0: patches 0001,
#              0002), B is still loaded and not parked, A intact; the next
#              trip works (restores=2)
#: timeout 300
#: append crashkernel=64M no_console_suspend kjump.case=a-freeze
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: allow-panic-after ^KJ A: handover to B \(freeze panic\)$
#: mark A.start
#: mark B.start 120
#: console 90 Kernel panic - not syncing: kjump_test_panic: freeze of kjump_test_panic\.1 on CPU 1$
#: console 30 kexec jump: crash on CPU 1: entering the parked crash kernel from CPU 0$
#: mark B.end 120
. /lib/kjump/common.sh

MIB=32
PAGES=$((MIB * 256))
tag=$KJ_MARKER$KJ_MARKER
PARAMS=/sys/module/kjump_test_panic/parameters
CRASHED="kexec: jump: the previous kernel crashed while this one was parked; this kernel is its crash kernel now, and /proc/vmcore shows it at the crash"
B_CRASHED="kexec: jump: the crash kernel panicked during the jump and came back here; the kernel unloaded it (load it again with kexec -p)"
REFUSED="kexec: jump: another kexec operation or a hibernation (/dev/snapshot open) is in progress, or a task or a device refused to freeze (see dmesg)"

CASE=$(cmdline_word kjump.case)

# counts: what the test driver's callbacks saw
counts() {
	echo "frozen=$(cat $PARAMS/frozen) thaws=$(cat $PARAMS/thaws) restores=$(cat $PARAMS/restores)"
}

load_b() {                 # load_b GEN
	kj_run_ok "load gen=$1" "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) no_console_suspend kjump.case=$CASE kjump.gen=$1"
}

# trip LABEL WANT_RC WANT_STDERR [SAY]: a round trip from A, then A intact
trip() {
	kj_jump_trip "$1" "${4:-1}"
	kj_eq "$1 back" \
		"rc=$kj_rc stderr=$(cat /tmp/jump.err) shell=$$/$(starttime $$) counter ${kj_cw#* } ($(kj_memfill_verify)) dmesg-errors=$(kj_dmesg_errors)" \
		"rc=$2 stderr=$3 shell=$$/$st0 counter advanced (memfill: verify $PAGES pages: OK) dmesg-errors=0"
}

# panic_in_freeze: A panics in its freeze, on CPU 1, on this jump
panic_in_freeze() {
	echo freeze >$PARAMS/panic_at
	kj_handover B "freeze panic"
	taskset -c 1 "$KEXEC" -j
	kj_fail "freeze panic" "kexec -j returned (exit status $?)"
	exit 1
}

a_stage() {
	kj_need_kexec
	kj_memfill_start $MIB "$tag" || exit 1
	kj_counter_start
	st0=$(starttime $$)
	load_b 1 || exit 1
	case $CASE in
	a-first)
		panic_in_freeze ;;
	a-freeze)
		trip "trip 1" 0 "" || exit 1
		panic_in_freeze ;;
	a-restore)
		trip "trip 1" 0 "" || exit 1
		echo restore >$PARAMS/panic_at
		# B jumps back, and this kernel panics before it can report
		kj_jump_trip "trip 2 (restore panic)" 0
		kj_fail "restore panic" "kexec -j returned (exit status $kj_rc)"
		exit 1 ;;
	a-fail)
		echo freeze >$PARAMS/fail_at
		trip "trip 1 (refused)" 1 "$REFUSED" 0 || exit 1
		# device 1 froze before device 0 refused: thawed again, as
		# after a failed freeze (PMSG_RECOVER), not restored
		kj_eq thawed "$(counts)" "frozen=0 thaws=1 restores=0"
		kj_slot kexec_crash_loaded 1
		kj_slot kexec_jump_parked 0
		echo none >$PARAMS/fail_at
		trip "trip 2" 0 "" || exit 1
		kj_eq restored "$(counts)" "frozen=0 thaws=1 restores=2" ;;
	b)
		trip "trip 1" 0 "" || exit 1
		# gen 1 panics in its freeze on the way back
		trip "trip 2" 1 "$B_CRASHED" || exit 1
		kj_slot kexec_crash_loaded 0
		load_b 2 || exit 1
		trip "trip 3" 0 "" || exit 1
		# gen 2 panics in its restore as soon as it is entered again,
		# before it can report
		trip "trip 4 (restore panic in B)" 1 "$B_CRASHED" 0 || exit 1
		kj_slot kexec_crash_loaded 0
		kj_eq kernel-said "$(dmesg | grep -c 'kexec: crash kernel unloaded: it panicked during the jump and came back')" 2
		load_b 3 || exit 1
		trip "trip 5" 0 "" || exit 1 ;;
	*)
		kj_fail case "kjump.case=$CASE: unknown"
		exit 1 ;;
	esac
	kill $cpid $mfpid
}

# B where A is to crash into it: jump back until the pending kexec -j
# says A crashed (after WANT_N returns), then read A's pattern
b_until_a_crashed() {
	n=0
	while :; do
		if [ "$CASE" = a-restore ] && [ $n = 1 ]; then
			kj_jump_back "jump back n=$n (restore panic)" 0
		else
			kj_jump_back "jump back n=$n"
		fi
		[ $kj_rc != 0 ] && break
		n=$((n + 1))
	done
	kj_eq crashed "rc=$kj_rc n=$n stderr=$(cat /tmp/jump.err)" "rc=1 n=$1 stderr=$CRASHED"
	kj_vmcore_find "$tag" $PAGES
}

b_stage() {
	kj_check_b_cmdline
	gen=$(cmdline_word kjump.gen)
	case $CASE/$gen in
	a-freeze/1)
		b_until_a_crashed 0 ;;
	a-restore/1)
		b_until_a_crashed 1 ;;
	a-first/1)
		kj_eq said-once "$(dmesg | grep -c 'kexec jump: kexec_jump_buf_pfn=.*: no way back recorded there: an ordinary boot')" 1
		kj_vmcore_find "$tag" $PAGES ;;
	a-fail/1 | b/3)
		kj_jump_back "jump back gen=$gen"
		kj_fail "gen=$gen" "entered again (exit status $kj_rc)"
		exit 1 ;;
	b/1)
		kj_jump_back "jump back gen=1"
		kj_eq "gen=1 resumed" "rc=$kj_rc" "rc=0" || exit 1
		echo freeze >$PARAMS/panic_at
		kj_handover A "freeze panic on CPU 1"
		taskset -c 1 "$KEXEC" -j
		kj_fail "freeze panic" "kexec -j returned (exit status $?)"
		exit 1 ;;
	b/2)
		echo restore >$PARAMS/panic_at
		kj_jump_back "jump back gen=2"
		kj_fail "gen=2" "resumed without a panic (exit status $kj_rc)"
		exit 1 ;;
	*)
		kj_fail case "kjump.case=$CASE gen=$gen: unknown"
		exit 1 ;;
	esac
}

case $KJ_STAGE in
A) a_stage ;;
B) b_stage ;;
esac
