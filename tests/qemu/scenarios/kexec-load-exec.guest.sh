#!/bin/sh
# kexec-load-exec: kexec -l with --initrd and --append, then kexec -e.
# A: the load succeeds and sets kexec_loaded (0 -> 1), then kexec -e, which
#    must not come back.  B boots (the host sees its banner and its start
#    line with this run's marker, which B's /init read from its
#    /proc/cmdline) and checks its command line carries the marker and kjump.stage=B.
#: timeout 180
#: mark A.start
#: mark B.start 90
#: mark B.end 30
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	kj_loaded 0
	kj_run_ok load "$KEXEC" -l /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append)" || exit 1
	kj_loaded 1
	kj_exec_into B
	;;
B)
	kj_check_b_cmdline
	;;
esac
