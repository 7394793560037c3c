#!/bin/sh
# kdump-writer: a crash kernel with the image writer's real initramfs
# (hibernate/kjump-mkinitramfs, its own /init: /boot/kjump-b.img) never
# leaves the machine sitting at a shell after a real crash of A.  A loads
# it with kexec -p and crashes (sysrq-c); B boots, kjump-save finds no
# jump behind it ("entered by a crash", exit 4), and /init reboots after
# kjump.reboot_delay=1 second.
#: timeout 150
#: append crashkernel=64M
#: no-poweroff
#: debian skip kjump-save and its initramfs are ours
#: allow-panic-after ^KJ A: crashing now$
#: mark A.start
#: console 60 Kernel panic - not syncing: sysrq triggered crash
#: console 90 kjump-save: entered by a crash of the other kernel: nothing to serve
#: console 30 kjump: entered by a crash of the hibernating kernel
#: console 30 kjump: rebooting in 1 s
#: console 30 reboot: Restarting system
. /lib/kjump/common.sh

kj_need_kexec
[ -r /boot/kjump-b.img ] || { kj_fail image "no /boot/kjump-b.img"; exit 1; }
kj_run_ok load "$KEXEC" -p /boot/bzImage --initrd=/boot/kjump-b.img \
	--append="console=ttyS0,115200 panic=-1 kjump.reboot_delay=1" || exit 1
kj_say "crashing now"
echo c >/proc/sysrq-trigger
