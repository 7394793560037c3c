#!/bin/sh
# jump-lockdown: LINUX_REBOOT_CMD_KJUMP is refused where a load is, under
# lockdown (patch 0017), and the jump buffer's address is hidden at the
# confidentiality level (patch 0029).  The base test kernel has the
# lockdown LSM, off until raised at run time.  Shared by jump-lockdown-b
# (kjump.lockdown=b).
#
# A: load B, one round trip with lockdown off.  Without kjump.lockdown=b:
#    raise lockdown to integrity: the pfn still reads, kexec -j exits 1
#    with kexec's lockdown line and B stays parked; raise it to
#    confidentiality: reading the pfn fails with EPERM, kexec -j is still
#    refused, and kexec -p is refused by kexec_load (the tool no longer
#    stops at the unreadable pfn).  With kjump.lockdown=b: jump again.
# B: jumps back on its first entry.  Entered again (kjump.lockdown=b), it
#    raises its own lockdown to integrity: kexec -j back exits 1 with the
#    same line, and B ends there (A is lost by design: B cannot go back).
#: timeout 240
#: append crashkernel=64M
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: mark A.start
#: mark B.start 120
#: mark A.end
. /lib/kjump/common.sh

REFUSED="kexec: jump: refused: the kernel is locked down, which forbids jumps as it does loads"

lockdown() {               # lockdown LEVEL: raise it, check it took
	echo "$1" >/sys/kernel/security/lockdown
	kj_match "lockdown-$1" "$(cat /sys/kernel/security/lockdown)" "\\[$1\\]"
}

jump_refused() {           # jump_refused NAME
	"$KEXEC" -j 2>/tmp/jump.err
	kj_eq "$1" "rc=$? stderr=$(cat /tmp/jump.err)" "rc=1 stderr=$REFUSED"
}

mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
case $KJ_STAGE in
A)
	kj_need_kexec
	kj_eq lockdown-off "$(cat /sys/kernel/security/lockdown)" \
		"[none] integrity confidentiality" || exit 1
	kj_run_ok load "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) $(cmdline_word kjump.lockdown | sed -n 's/^b$/kjump.lockdown=b/p')" || exit 1
	kj_handover B "trip 1"
	"$KEXEC" -j 2>/tmp/jump.err
	kj_eq "trip 1" "rc=$? stderr-lines=$(wc -l </tmp/jump.err)" "rc=0 stderr-lines=0" || exit 1
	if [ "$(cmdline_word kjump.lockdown)" = b ]; then
		kj_handover B "trip 2"
		"$KEXEC" -j
		kj_fail "trip 2" "B came back (exit status $?)"
		exit 1
	fi
	lockdown integrity
	kj_match pfn-integrity "$(cat /sys/kernel/kexec_jump_buf_pfn 2>&1)" '^0x[0-9a-f]+$'
	jump_refused refused-integrity
	kj_slot kexec_jump_parked 1
	kj_eq dmesg-errors "$(kj_dmesg_errors)" 0
	lockdown confidentiality
	kj_eq pfn-confidentiality "$(cat /sys/kernel/kexec_jump_buf_pfn 2>&1)" \
		"cat: read error: Operation not permitted"
	jump_refused refused-confidentiality
	kj_table <<'TABLE'
reload | "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio --append=x | 1 | ^kexec: kexec_load: not permitted \(kernel lockdown or a security module forbids kexec_load\)$
TABLE
	kj_slot kexec_jump_parked 1
	;;
B)
	kj_check_b_cmdline
	kj_handover A "jump back"
	"$KEXEC" -j 2>/tmp/jump.err
	kj_eq "resumed" "rc=$? stderr-lines=$(wc -l </tmp/jump.err)" "rc=0 stderr-lines=0" || exit 1
	# entered again: only with kjump.lockdown=b
	kj_eq lockdown-b "$(cmdline_word kjump.lockdown)" b || exit 1
	lockdown integrity
	jump_refused refused-back
	;;
esac
