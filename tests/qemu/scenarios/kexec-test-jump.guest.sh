#!/bin/sh
# kexec-test-jump: the i386 counterpart of the kernel's test_kexec_jump.
# A fills memory with memfill, loads kexec_test with
# --load-preserve-context, then runs kexec -e TRIPS times.  The first time
# kexec_test checks its entry, says PASS and returns to A; every later
# kexec -e resumes it ("kexec_test: resumed n=N") and it returns again.
# After each trip A reports: kexec -e's exit status, that this is still
# the same shell (PID and start time), memfill's re-verification of every
# page and the number of Oops/WARNING/BUG lines in dmesg.
#
# KT_ARGS picks the ELF argument style: linux (default; through purgatory,
# which puts kexec_jump_back_entry= on the command line) or none (no
# purgatory: kexec_test takes the way back from 0(%esp)); see
# kexec-test-jump-none.
. /lib/kjump/common.sh

ARGS=${KT_ARGS:-linux}
TRIPS=3
MIB=32
tag=$KJ_MARKER$KJ_MARKER

say_lines() {              # say_lines PREFIX FILE
	while IFS= read -r _l || [ -n "$_l" ]; do
		kj_say "$1$_l"
	done <"$2"
}

case $KJ_STAGE in
A)
	kj_need_kexec
	if [ ! -f /boot/kexec_test ]; then
		kj_say "no /boot/kexec_test (build kexec_test/, set KEXEC_TEST)"
		exit 1
	fi
	kj_memfill_start $MIB "$tag" || exit 1
	st0=$(starttime $$)
	kj_say "shell pid=$$ start=$st0 memfill=$mfpid args=$ARGS trips=$TRIPS"

	set -- -l --load-preserve-context --mem-max=0x3ffffff \
		-t elf-x86 --args-$ARGS
	[ "$ARGS" = linux ] && set -- "$@" --append="kjump.marker=$KJ_MARKER"
	kj_run load "$KEXEC" "$@" /boot/kexec_test || exit 1
	kj_loaded

	k=1
	while [ $k -le $TRIPS ]; do
		kj_say "trip $k exec"
		"$KEXEC" -e 2>/tmp/exec.err
		rc=$?
		say_lines "trip $k stderr: " /tmp/exec.err
		vline=$(kj_memfill_verify)
		nerr=$(kj_dmesg_errors)
		kj_say "trip $k rc=$rc shell=$$/$(starttime $$) was=$$/$st0 ($vline) dmesg-errors=$nerr"
		k=$((k + 1))
	done
	kill $mfpid
	;;
esac
