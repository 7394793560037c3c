#!/bin/sh
# unload: kexec -l sets kexec_loaded, kexec -u clears it.
#: timeout 120
. /lib/kjump/common.sh

kj_need_kexec
kj_loaded 0
kj_run_ok load "$KEXEC" -l /boot/bzImage --initrd=/boot/initrd-b.cpio \
	--append="$(kj_b_append)"
kj_loaded 1
kj_run_ok unload "$KEXEC" -u
kj_loaded 0
