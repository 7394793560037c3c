#!/bin/sh
# kexec-test: load our bare test image kexec_test as an ELF with
# --args-linux (entered through purgatory, as a Linux kernel would be) and
# kexec -e into it.  kexec_test judges its own entry state and reports on
# ttyS0; the host reads those lines.  The marker goes on its command line.
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	if [ ! -f /boot/kexec_test ]; then
		kj_say "no /boot/kexec_test (build kexec_test/, set KEXEC_TEST)"
		exit 1
	fi
	kj_run load "$KEXEC" -l -t elf-x86 --args-linux /boot/kexec_test \
		--append="kjump.marker=$KJ_MARKER" || exit 1
	kj_loaded
	kj_say "exec"
	kj_run exec "$KEXEC" -e
	exit 1                     # kexec -e returned: that is a failure
	;;
esac
