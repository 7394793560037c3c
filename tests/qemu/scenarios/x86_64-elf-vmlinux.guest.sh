#!/bin/sh
# x86_64-elf-vmlinux: the ELF loader on Debian's amd64 kernel.  A holds
# the kernel's own ELF file, /boot/vmlinux (taken out of the bzImage's xz
# payload on the host: "config vmlinux").  A: kexec -l probes it as
# elf-x86_64 (-t elf-x86, the i386 name, is unknown here), with --initrd
# and --append, then kexec -e: purgatory enters startup_64 at the file's
# physical entry in 64-bit mode.  B: an x86_64 kernel whose command line
# carries the marker, entered with the ELF loader's made-up zero page
# (protocol 2.06, loader type 0xff).
#: arch x86_64
#: config vmlinux
#: debian skip the loader names and the zero page judged are ours
#: timeout 240
#: mark A.start 120
#: mark B.start 120
#: mark B.end 30
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	mkdir -p /run
	kj_run_fails type-i386 \
		'^kexec: -t elf-x86: unknown image type \(known: bzImage, elf-x86_64\)$' \
		"$KEXEC" -l -t elf-x86 /boot/vmlinux
	kj_run_fails not-elf64 \
		'^kexec: /boot/bzImage-no64: not a kernel image this kexec can load: not bzImage \(no x86_64 entry \(a 32-bit kernel\)\), not elf-x86_64 \(no ELF magic\)$' \
		"$KEXEC" -l /boot/bzImage-no64
	kj_loaded 0
	kj_run_ok load "$KEXEC" -l /boot/vmlinux --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append)" || exit 1
	kj_loaded 1
	kj_exec_into B
	;;
B)
	kj_eq machine "$(uname -m)" x86_64
	kj_check_b_cmdline
	bp=/sys/kernel/boot_params
	v="version=$(cat $bp/version) loader=$(od -An -tx1 -j528 -N1 $bp/data | tr -d ' ')"
	kj_say "boot_params $v"
	kj_eq boot_params "$v" "version=0x0206 loader=ff"
	;;
esac
