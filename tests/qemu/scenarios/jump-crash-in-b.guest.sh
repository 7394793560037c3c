#!/bin/sh
# jump-crash-in-b: a panic in B during a jump does not kill A: B goes back
# to A, whose kexec -j fails with kexec's "the crash kernel panicked" line,
# and A carries on with its memory intact.  Once from B's CPU 1, which
# hands the way back over to CPU 0 (A resumes as the CPU it jumped from),
# once from CPU 0.  Shared by x86_64-jump-crash-in-b.
#
# A: 32 MiB of memfill pattern, a counter loop; load B (kjump.gen=1): one
#    round trip, then a second jump, in which B panics on CPU 1.  Back in
#    A: exit status 1 with that line, the same shell, the counter advanced,
#    every memfill page verified, no Oops/WARNING/BUG in A's dmesg, the
#    kernel said it unloaded the crash kernel, the crash slot is empty and
#    nothing is parked, kexec -j has nothing to jump into.  Then B gen 2,
#    which panics on CPU 0 as soon as it has booted: the same checks.  Then
#    B gen 3 boots in the crash region and jumps back.
#: timeout 300
#: append crashkernel=64M
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: allow-panic-after ^KJ B: handover to A \(crash on CPU [01]\)$
#: mark A.start
#: mark B.start 120
#: console 90 Kernel panic - not syncing: sysrq triggered crash
#: console 30 kexec jump: panic on CPU 1: going back to the previous kernel from CPU 0$
#: mark B.start 120
#: console 90 Kernel panic - not syncing: sysrq triggered crash
#: console 30 kexec jump: going back to the previous kernel$
#: mark B.start 120
#: mark A.end
. /lib/kjump/common.sh

MIB=32
PAGES=$((MIB * 256))
tag=$KJ_MARKER$KJ_MARKER
CRASHED="kexec: jump: the crash kernel panicked during the jump and came back here; the kernel unloaded it (load it again with kexec -p)"

load_b() {                 # load_b GEN
	kj_run_ok "load gen=$1" "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) kjump.gen=$1"
}

# jump TRIP WANT_RC WANT_STDERR: jump into B and check A afterwards
jump() {
	kj_jump_trip "trip $1"
	vline=$(kj_memfill_verify)
	kj_eq "trip $1 back" \
		"rc=$kj_rc stderr=$(cat /tmp/jump.err) shell=$$/$(starttime $$) counter ${kj_cw#* } ($vline) dmesg-errors=$(kj_dmesg_errors)" \
		"rc=$2 stderr=$3 shell=$$/$st0 counter advanced (memfill: verify $PAGES pages: OK) dmesg-errors=0"
}

# after_crash N: A after the Nth crash of a B
after_crash() {
	kj_eq kernel-said "$(dmesg | grep -c 'kexec: crash kernel unloaded: it panicked during the jump and came back')" "$1"
	kj_slot kexec_crash_loaded 0
	kj_slot kexec_jump_parked 0
	kj_table <<'TABLE'
nothing-to-jump-into | "$KEXEC" -j | 1 | ^kexec: jump: nothing loaded
TABLE
}

# crash_on CPU: panic this kernel from a writer pinned to CPU
crash_on() {
	kj_handover A "crash on CPU $1"
	taskset -c "$1" sh -c 'echo c >/proc/sysrq-trigger'
	kj_fail "crash on CPU $1" "still running"
	exit 1
}

# jump_back GEN: the jump back must succeed
jump_back() {
	kj_jump_back "jump back gen=$1"
	kj_eq "gen=$1 resumed" "rc=$kj_rc" "rc=0" || exit 1
}

case $KJ_STAGE in
A)
	kj_need_kexec
	kj_memfill_start $MIB "$tag" || exit 1
	kj_counter_start
	st0=$(starttime $$)
	load_b 1 || exit 1
	jump 1 0 "" || exit 1
	jump 2 1 "$CRASHED" || exit 1
	after_crash 1 || exit 1
	# the crash region serves a fresh crash kernel, which crashes at once
	load_b 2 || exit 1
	jump 3 1 "$CRASHED" || exit 1
	after_crash 2 || exit 1
	# and the next one is a working one
	load_b 3 || exit 1
	jump 4 0 "" || exit 1
	kill $cpid $mfpid
	;;
B)
	kj_check_b_cmdline
	gen=$(cmdline_word kjump.gen)
	kj_match gen "$gen" '^[123]$' || exit 1
	case $gen in
	1)
		jump_back 1
		crash_on 1
		;;
	2)
		crash_on 0
		;;
	3)
		jump_back 3
		kj_fail "gen=3" "entered again"
		exit 1
		;;
	esac
	;;
esac
