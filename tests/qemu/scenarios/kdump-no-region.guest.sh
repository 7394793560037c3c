#!/bin/sh
# kdump-no-region: A has no crashkernel=, so kexec -p has nowhere to go.
. /lib/kjump/common.sh

kj_need_kexec
kj_say "cmdline: $(cat /proc/cmdline)"
kj_say "iomem crash ranges=$(grep -c 'Crash kernel' /proc/iomem)"
kj_say "kexec_crash_size=$(cat /sys/kernel/kexec_crash_size)"
kj_run load "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio.gz \
	--append="$(kj_b_append)"
kj_say "kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
