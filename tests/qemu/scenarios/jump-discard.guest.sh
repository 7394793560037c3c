#!/bin/sh
# jump-discard: a crash kernel parked in a kexec jump is dropped only when
# asked (patch 0024): kexec -p -u --discard unloads it, and the next crash
# kernel loaded boots afresh on the next jump.
#
# A: load B (kjump.gen=1), one round trip; /sys/kernel/kexec_jump_parked
#    reads 0 before it and 1 after.  kexec -p -u --discard: exit 0, the
#    crash slot empty, parked 0, the kernel says so once, and kexec -j has
#    nothing to jump into.  Load B again (kjump.gen=2) and jump: a second
#    B boots (a fresh start, after a kernel banner) and jumps back; parked
#    reads 1 again.
# B: check its generation against the jump that entered it; jump back once
#    (A never enters it again).
#: timeout 240
#: append crashkernel=64M
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: mark A.start
#: mark B.start 120
#: mark B.start 120
#: mark A.end
. /lib/kjump/common.sh

load_b() {                 # load_b GEN
	kj_run_ok "load gen=$1" "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) kjump.gen=$1"
}

jump() {                   # jump GEN: one round trip into B of that generation
	kj_say "jump gen=$1"
	kj_handover B "gen $1"
	"$KEXEC" -j 2>/tmp/jump.err
	rc=$?
	kj_say_lines "jump stderr: " /tmp/jump.err
	kj_eq "jump gen=$1" "rc=$rc stderr-lines=$(wc -l </tmp/jump.err)" "rc=0 stderr-lines=0"
}

case $KJ_STAGE in
A)
	kj_need_kexec
	load_b 1 || exit 1
	kj_slot kexec_jump_parked 0
	jump 1 || exit 1
	kj_slot kexec_jump_parked 1
	kj_run_ok discard "$KEXEC" -p -u --discard || exit 1
	kj_table <<'TABLE'
nothing-to-jump-into | "$KEXEC" -j | 1 | ^kexec: jump: nothing loaded
TABLE
	kj_slot kexec_crash_loaded 0
	kj_slot kexec_jump_parked 0
	kj_eq kernel-said "$(dmesg | grep -c 'kexec: discarding the crash kernel parked in a kexec jump')" 1
	load_b 2 || exit 1
	kj_slot kexec_jump_parked 0
	jump 2 || exit 1
	kj_slot kexec_jump_parked 1
	;;
B)
	kj_check_b_cmdline
	gen=$(cmdline_word kjump.gen)
	kj_match gen "$gen" '^[12]$'
	kj_handover A "jump back gen=$gen"
	"$KEXEC" -j 2>/tmp/jump.err
	kj_say_lines "jump back stderr: " /tmp/jump.err
	kj_fail "gen=$gen" "entered again (kexec -j exit status $?)"
	exit 1
	;;
esac
