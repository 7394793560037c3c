#!/bin/sh
# kexec-test-none: load kexec_test as an ELF with --args-none (no
# purgatory: relocate_kernel enters it directly) and kexec -e into it.
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	if [ ! -f /boot/kexec_test ]; then
		kj_say "no /boot/kexec_test (build kexec_test/, set KEXEC_TEST)"
		exit 1
	fi
	kj_run load "$KEXEC" -l -t elf-x86 --args-none /boot/kexec_test || exit 1
	kj_loaded
	kj_say "exec"
	kj_run exec "$KEXEC" -e
	exit 1                     # kexec -e returned: that is a failure
	;;
esac
