#!/bin/sh
# x86_64-file-load: kexec_file_load (-s, -a) on Debian's amd64 kernel.
# A: -s -l with --initrd and --append sets kexec_loaded (0 -> 1); -s -u
#    clears it; -a -l loads again (the kernel's file loader takes the
#    image, so -a uses it); then kexec -e.  B boots (its banner and start
#    line with this run's marker) and checks that it is an x86_64 kernel
#    whose command line carries the marker and kjump.stage=B.
#: arch x86_64
#: debian skip -a and the lines judged are ours
#: timeout 240
#: mark A.start 90
#: mark B.start 120
#: mark B.end 30
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	kj_eq machine "$(uname -m)" x86_64
	kj_loaded 0
	kj_run_ok load-s "$KEXEC" -s -l /boot/bzImage \
		--initrd=/boot/initrd-b.cpio --append="$(kj_b_append)" || exit 1
	kj_loaded 1
	kj_run_ok unload-s "$KEXEC" -s -u || exit 1
	kj_loaded 0
	kj_run_ok load-a "$KEXEC" -a -l /boot/bzImage \
		--initrd=/boot/initrd-b.cpio --append="$(kj_b_append)" || exit 1
	kj_loaded 1
	kj_exec_into B
	;;
B)
	kj_eq machine "$(uname -m)" x86_64
	kj_check_b_cmdline
	;;
esac
