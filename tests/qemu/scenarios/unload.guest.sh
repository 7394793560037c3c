#!/bin/sh
# A: load, check loaded, kexec -u, check unloaded.
. /lib/kjump/common.sh

kj_need_kexec
kj_loaded
kj_run load "$KEXEC" -l /boot/bzImage --initrd=/boot/initrd-b.cpio.gz \
	--append="$(kj_b_append)"
kj_loaded
kj_run unload "$KEXEC" -u
kj_loaded
