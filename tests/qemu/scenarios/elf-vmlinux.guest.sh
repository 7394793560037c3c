#!/bin/sh
# elf-vmlinux: kexec -l -t elf-x86 --args-linux of the companion kernel's
# vmlinux (stripped, /boot/vmlinux) with --initrd and --append, then
# kexec -e.  B must boot its initramfs and carry the marker in
# /proc/cmdline.  Ours only: --args-elf and --args-none --initrd each exit
# non-zero with one "kexec: " line and leave the first load in place (B
# must be the first load: no kjump.wrong= on its command line), and B's
# boot_params are the synthesised ones (protocol 2.06, loader type 0xff:
# no bzImage header), so B really came from the vmlinux.
#: timeout 240
#: mark A.start
#: mark B.start 90
#: mark B.end 30
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	if [ ! -r /boot/vmlinux ]; then
		kj_fail vmlinux "no /boot/vmlinux in the initramfs"
		exit 1
	fi
	kj_loaded 0
	kj_run load "$KEXEC" -l -t elf-x86 --args-linux /boot/vmlinux \
		--initrd=/boot/initrd-b.cpio --append="$(kj_b_append)"
	kj_eq load "rc=$kj_rc stderr-lines=$kj_nerr" "rc=0 stderr-lines=0" || exit 1
	kj_loaded 1
	if [ "$KJ_IMPL" = ours ]; then
		kj_run_fails args-elf '^kexec: --args-elf: .*not supported' \
			"$KEXEC" -l -t elf-x86 --args-elf /boot/vmlinux \
			--append="$(kj_b_append) kjump.wrong=args-elf"
		kj_loaded 1
		kj_run_fails args-none-initrd '^kexec: --args-none: --initrd' \
			"$KEXEC" -l -t elf-x86 --args-none \
			--initrd=/boot/initrd-b.cpio /boot/vmlinux
		kj_loaded 1
	fi
	kj_exec_into B
	;;
B)
	cl=$(cat /proc/cmdline)
	kj_say "cmdline: $cl"
	kj_match cmdline-marker "$cl" "(^| )kjump\\.marker=$KJ_MARKER( |\$)"
	case " $cl " in
	*' kjump.wrong='*) kj_fail first-load "B is a refused load: $cl" ;;
	*) kj_ok first-load ;;
	esac
	# The zero page B was entered with: the ELF loader's made-up header
	# (protocol 2.06, loader type 0xff), not a bzImage's.
	bp=/sys/kernel/boot_params
	v="version=$(cat $bp/version) loader=$(od -An -tx1 -j528 -N1 $bp/data | tr -d ' ')"
	kj_say "boot_params $v"
	if [ "$KJ_IMPL" = ours ]; then
		kj_eq boot_params "$v" "version=0x0206 loader=ff"
	fi
	;;
esac
