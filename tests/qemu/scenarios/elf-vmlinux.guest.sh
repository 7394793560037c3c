#!/bin/sh
# A: load the companion kernel's (stripped) vmlinux with the ELF loader,
# --args-linux, --initrd and --append; try two loads the ELF loader must
# refuse (ours only) and check the first load survived them; exec.
# B: report its command line and boot protocol; the host checks the marker
# is there and that B was entered with the ELF loader's zero page.
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	if [ ! -r /boot/vmlinux ]; then
		kj_say "no /boot/vmlinux in the initramfs"
		exit 1
	fi
	kj_loaded
	kj_run load "$KEXEC" -l -t elf-x86 --args-linux /boot/vmlinux \
		--initrd=/boot/initrd-b.cpio.gz --append="$(kj_b_append)" || exit 1
	kj_loaded
	if [ "$KJ_IMPL" = ours ]; then
		kj_run args-elf "$KEXEC" -l -t elf-x86 --args-elf /boot/vmlinux \
			--append="$(kj_b_append) kjump.wrong=args-elf"
		kj_loaded
		kj_run args-none-initrd "$KEXEC" -l -t elf-x86 --args-none \
			--initrd=/boot/initrd-b.cpio.gz /boot/vmlinux
		kj_loaded
	fi
	kj_say "exec"
	kj_run exec "$KEXEC" -e
	exit 1                     # kexec -e returned: that is a failure
	;;
B)
	kj_say "cmdline: $(cat /proc/cmdline)"
	# The zero page B was entered with: the ELF loader's made-up header
	# (protocol 2.06, loader type 0xff), not a bzImage's.
	bp=/sys/kernel/boot_params
	kj_say "boot_params version=$(cat $bp/version) loader=$(od -An -tx1 -j528 -N1 $bp/data | tr -d ' ')"
	;;
esac
