#!/bin/sh
# A: loading the first 100000 bytes of a bzImage must fail cleanly.
. /lib/kjump/common.sh

kj_need_kexec
head -c 100000 /boot/bzImage >/tmp/t
kj_say "truncated size=$(wc -c </tmp/t)"
kj_run load "$KEXEC" -l /tmp/t --initrd=/boot/initrd-b.cpio.gz \
	--append="$(kj_b_append)"
kj_loaded
