#!/bin/sh
# A: load B with the host's marker in --append, check it is loaded, exec it.
# B: report its command line; the host checks the marker is there.
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	kj_loaded
	kj_run load "$KEXEC" -l /boot/bzImage --initrd=/boot/initrd-b.cpio.gz \
		--append="$(kj_b_append)" || exit 1
	kj_loaded
	kj_say "exec"
	kj_run exec "$KEXEC" -e
	exit 1                     # kexec -e returned: that is a failure
	;;
B)
	kj_say "cmdline: $(cat /proc/cmdline)"
	;;
esac
