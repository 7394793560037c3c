#!/bin/sh
# x86_64-load-exec: kexec_load on Debian's amd64 kernel: our kexec builds
# the image (the kernel at its 64-bit entry, boot params, initrd and the
# 64-bit purgatory, which checks the SHA-256 of every segment and reports
# its progress on the serial port with -d), then kexec -e.
# A: -c -l with --initrd and --append sets kexec_loaded (0 -> 1); -u
#    clears it; -p loads the crash slot and -p -u empties it (the crash
#    itself: x86_64-kdump); -d -l loads again; then kexec -e.
# B: an x86_64 kernel whose command line carries the marker.
#: arch x86_64
#: debian skip our image and purgatory's serial lines are the subject
#: timeout 240
#: append crashkernel=192M
# (640 MiB: Debian's kernel puts itself anywhere in RAM (KASLR); in 512
# MiB, with a 51 MiB initramfs at the top, a 192 MiB crash region found
# no room now and then.)
#: memory 640
#: mark A.start 90
#: console 60 ^purgatory: sha256 ok \([0-9]+ regions\)
#: mark B.start 120
#: mark B.end 30
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	mkdir -p /run
	kj_loaded 0
	kj_run_ok load "$KEXEC" -c -l /boot/bzImage \
		--initrd=/boot/initrd-b.cpio --append="$(kj_b_append)" || exit 1
	kj_loaded 1
	kj_run_ok unload "$KEXEC" -u || exit 1
	kj_loaded 0
	kj_run_ok crash "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append)" || exit 1
	kj_slot kexec_crash_loaded 1
	kj_run_ok crash-unload "$KEXEC" -p -u || exit 1
	kj_slot kexec_crash_loaded 0
	"$KEXEC" -d -l /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append)" >/tmp/load.out 2>/tmp/load.err
	kj_eq load-d "rc=$?" rc=0 || exit 1
	kj_say_lines "load -d: " /tmp/load.err
	kj_loaded 1
	kj_exec_into B
	;;
B)
	kj_eq machine "$(uname -m)" x86_64
	kj_check_b_cmdline
	;;
esac
