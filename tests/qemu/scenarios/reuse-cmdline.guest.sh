#!/bin/sh
# A: load B with --reuse-cmdline --append="kjump.stage=B", exec it.
# B: report its command line.  A's command line (set by the host) holds the
# marker and BOOT_IMAGE=/foo: B must show the former and not the latter.
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	kj_say "cmdline: $(cat /proc/cmdline)"
	kj_run load "$KEXEC" -l /boot/bzImage --initrd=/boot/initrd-b.cpio.gz \
		--reuse-cmdline --append="kjump.stage=B" || exit 1
	kj_loaded
	kj_say "exec"
	kj_run exec "$KEXEC" -e
	exit 1
	;;
B)
	kj_say "cmdline: $(cat /proc/cmdline)"
	;;
esac
