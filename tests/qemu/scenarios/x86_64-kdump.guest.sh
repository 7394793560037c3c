#!/bin/sh
# x86_64-kdump: kexec -p on Debian's amd64 kernel, a real crash (sysrq-c),
# and A's memory checked byte for byte through /proc/vmcore in B.
# Ours loads B by kexec_load with our ELF64 core header; with
# KEXEC_IMPL=debian, Debian's kexec-tools loads it its default way
# (kexec_load too, its own header): the peer's dump, whose size the log
# gives next to ours ("vmcore bytes=").  x86_64-kdump-file runs this
# script with kexec -s -p (the kernel writes the header).
# A: fill 32 MiB with memfill's pattern, report A's RAM and crash region,
#    load B (timed), crash.
# B: elfcorehdr= is on its command line, the core is ELF64, every memfill
#    page is found intact; ours by kexec_load: no kexec_backup= (x86_64
#    keeps the first MiB reserved) and the PT_LOADs are exactly A's RAM
#    from 1 MiB on minus the crash region.
#: arch x86_64
#: timeout 300
#: append crashkernel=192M
# (640 MiB: Debian's kernel puts itself anywhere in RAM (KASLR); in 512
# MiB, with a 51 MiB initramfs at the top, a 192 MiB crash region found
# no room now and then.)
#: memory 640
#: allow-panic-after ^KJ A: handover to B$
#: mark A.start 90
#: console 60 Kernel panic - not syncing: sysrq triggered crash
#: mark B.start 150
#: mark B.end 120
. /lib/kjump/common.sh

MIB=32
PAGES=$((MIB * 256))
tag=$KJ_MARKER$KJ_MARKER
how=${KJ_KDUMP_HOW:--p}
case $how in *--no-jump*) nojump=1 ;; *) nojump= ;; esac

case $KJ_STAGE in
A)
	kj_need_kexec
	kj_memfill_start $MIB "$tag" || exit 1
	asum=${kj_memfill_line##* sum=}
	asum=${asum%% *}
	ram=$(sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\1 \2/p' /proc/iomem)
	crash=$(sed -n 's/^ *\([0-9a-f]*\)-\([0-9a-f]*\) : Crash kernel$/\1 \2/p' /proc/iomem)
	kj_say "ram $(kj_hexlist "$ram")"
	kj_match crash-region "$crash" '^[0-9a-f]+ [0-9a-f]+$' || exit 1
	set -- $crash
	# the first MiB stays out of the dump: A's RAM from 1 MiB on, minus
	# the crash region
	above=$(kj_ranges_minus "$ram" 0 $((0xfffff)) | tr ',-' '  ' | sed 's/0x//g')
	expected=$(kj_ranges_minus "$above" $((0x$1)) $((0x$2)))
	kj_say "expected loads $expected"
	kj_slot kexec_crash_loaded 0
	t0=$(monotime)
	kj_run_ok load "$KEXEC" $how /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) nr_cpus=1 irqpoll reset_devices kjump.asum=$asum kjump.loads=$expected" ||
		exit 1
	kj_say "load ms=$((($(monotime) - t0) / 1000))"
	kj_slot kexec_crash_loaded 1
	[ -z "$nojump" ] || kj_no_jump_refused
	kj_handover B
	echo c >/proc/sysrq-trigger
	kj_fail sysrq "echo c >/proc/sysrq-trigger returned"
	exit 1
	;;
B)
	cl=$(cat /proc/cmdline)
	kj_say "cmdline: $cl"
	kj_match cmdline-marker "$cl" "(^| )kjump\.marker=$KJ_MARKER( |\$)"
	kj_match elfcorehdr "$(cmdline_word elfcorehdr)" '^(0x[0-9a-f]+|[0-9]+K)$'
	[ -z "$nojump" ] ||
		kj_eq no-jump-buf "$(cmdline_word kexec_jump_buf_pfn)" none
	if [ ! -r /proc/vmcore ]; then
		kj_fail vmcore "no /proc/vmcore"
		exit 1
	fi
	kj_say "vmcore bytes=$(stat -c %s /proc/vmcore)"
	vmcore-check >/tmp/vc.out 2>&1
	kj_say_lines "vmcore: " /tmp/vc.out
	kj_match vmcore-class "$(head -n 1 /tmp/vc.out)" ' class=ELF64 '
	if [ "$KJ_IMPL" = ours ] && [ "$how" = -p ]; then
		kj_eq kexec_backup "$(cmdline_word kexec_backup)" none
		kj_eq loads "$(vmcore-check --ranges 2>&1)" "$(cmdline_word kjump.loads)"
	fi
	kj_vmcore_find "$tag" $PAGES 'sum=[0-9a-f]{16}'
	bsum=$(sed -n 's/.* sum=\([0-9a-f-]*\) .*/\1/p' /tmp/find.out)
	kj_eq sums "$bsum" "$(cmdline_word kjump.asum)"
	;;
esac
