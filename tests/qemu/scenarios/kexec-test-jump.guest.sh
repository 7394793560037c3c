#!/bin/sh
# kexec-test-jump: the i386 counterpart of the kernel's test_kexec_jump.
# A fills memory with memfill, loads kexec_test with
# --load-preserve-context, then runs kexec -e TRIPS (3) times.  The first
# time kexec_test checks its entry, says PASS and returns to A; every later
# kexec -e resumes it ("kexec_test: resumed n=N") and it returns again.
# After each trip A checks: kexec -e exited 0 with nothing on stderr, the
# same shell (PID and start time), memfill re-verifies every page, no
# Oops/WARNING/BUG in dmesg ("check trip K back").
#
# kexec_test has only the serial port: the host reads its lines ("console"
# marks); A's hand-over before each kexec -e makes the host check that
# kexec_test's line comes next.
#
# KT_ARGS picks the ELF argument style: linux (default; through purgatory,
# which puts kexec_jump_back_entry= on the command line) or none (no
# purgatory: kexec_test takes the way back from 0(%esp)); see
# kexec-test-jump-none, which has its own header.
#: timeout 240
#: debian xfail kexec-tools' ELF loader puts no kexec_jump_back_entry= on the command line, and kexec -e exits 255 after a round trip
#: mark A.start
#: console 30 ^kexec_test: start mode=linux image=0x00100000-0x001[0-9a-f]{5}$
#: console 5 ^kexec_test: check cr0: ok
#: console 5 ^kexec_test: check eflags: ok
#: console 5 ^kexec_test: check cs: ok
#: console 5 ^kexec_test: check ds: ok
#: console 5 ^kexec_test: check es-ss: ok
#: console 5 ^kexec_test: check regs: ok
#: console 5 ^kexec_test: check boot_flag: ok
#: console 5 ^kexec_test: check header: ok
#: console 5 ^kexec_test: check e820-entries: ok
#: console 5 ^kexec_test: check e820-image: ok
#: console 5 ^kexec_test: check cmdline: ok
#: console 5 ^kexec_test: cmdline: (.* )?kjump\.marker=@MARKER@ (.* )?kexec_jump_back_entry=0x[0-9a-f]{8}$
#: console 5 ^kexec_test: jump back to 0x[0-9a-f]{8} \(kexec_jump_back_entry\)$
#: console 5 ^kexec_test: PASS$
#: console 5 ^kexec_test: jump back with CS=0x10 DS=0x18$
#: console 30 ^kexec_test: resumed n=1$
#: console 30 ^kexec_test: resumed n=2$
#: mark A.end 60
#: reject ^kexec_test: resumed n=([03-9]|[1-9][0-9])
. /lib/kjump/common.sh

ARGS=${KT_ARGS:-linux}
TRIPS=3
MIB=32
tag=$KJ_MARKER$KJ_MARKER

case $KJ_STAGE in
A)
	kj_need_kexec
	if [ ! -f /boot/kexec_test ]; then
		kj_fail kexec_test "no /boot/kexec_test (build kexec_test/, set KEXEC_TEST)"
		exit 1
	fi
	kj_memfill_start $MIB "$tag" || exit 1
	st0=$(starttime $$)
	kj_say "shell pid=$$ start=$st0 memfill=$mfpid args=$ARGS trips=$TRIPS"

	set -- -l --load-preserve-context --mem-max=0x3ffffff \
		-t elf-x86 --args-$ARGS
	[ "$ARGS" = linux ] && set -- "$@" --append="kjump.marker=$KJ_MARKER"
	kj_run_ok load "$KEXEC" "$@" /boot/kexec_test || exit 1
	kj_loaded 1

	k=1
	while [ $k -le $TRIPS ]; do
		kj_say "trip $k exec"
		kj_handover kexec_test
		"$KEXEC" -e 2>/tmp/exec.err
		rc=$?
		kj_say_lines "trip $k stderr: " /tmp/exec.err
		vline=$(kj_memfill_verify)
		nerr=$(kj_dmesg_errors)
		kj_eq "trip $k back" \
			"rc=$rc stderr-lines=$(wc -l </tmp/exec.err) shell=$$/$(starttime $$) ($vline) dmesg-errors=$nerr" \
			"rc=0 stderr-lines=0 shell=$$/$st0 (memfill: verify 8192 pages: OK) dmesg-errors=0"
		k=$((k + 1))
	done
	kill $mfpid
	;;
esac
