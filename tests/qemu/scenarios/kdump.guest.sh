#!/bin/sh
# kdump: kexec -p, a real crash (sysrq-c), and A's memory checked byte for
# byte through /proc/vmcore in the capture kernel B.
#
# A: fill 32 MiB with memfill's pattern (tag derived from the marker), plant
#    16 bytes at PLANT_ADDR in low memory, report the RAM and crash ranges,
#    load B with kexec -p (timed), then crash.
# B: find every memfill page in /proc/vmcore; compare the PT_LOAD ranges
#    with A's RAM minus the crash region (passed on B's command line);
#    overwrite PLANT_ADDR in B's live memory and read it back through the
#    dump: it must still show A's bytes, because the low-memory PT_LOAD
#    points at the backup copy purgatory made, not at B's memory.
#
# The crash is the point: A's "Kernel panic" and "Call Trace" after its
# hand-over are tolerated; B's console stays fully checked.  The panic
# message itself is A's last word, which only the host sees (a console
# mark).
#: timeout 150
#: append crashkernel=64M
#: allow-panic-after ^KJ A: handover to B$
#: mark A.start
#: console 60 Kernel panic - not syncing: sysrq triggered crash
#: mark B.start 90
#: mark B.end 120
#
# Why PLANT_ADDR (0x80000) is safe to scribble on in A: since Linux 5.13
# x86 reserves all of the first MiB at boot (memblock; "x86/setup: Always
# reserve the first 1M of RAM"), so the page allocator never hands it out
# and memfill's pages cannot be there.  The few things that do live below
# 1 MiB are elsewhere: the BIOS data and EBDA (0x0-0xfff, 0x9fc00-), QEMU's
# real-mode setup and command line (0x10000-0x2ffff), and the real-mode
# trampoline the kernel allocates top-down just under 640K.  A reads the
# bytes back right before the crash to show nothing overwrote them.
. /lib/kjump/common.sh

PLANT_ADDR=0x80000
MIB=32
PAGES=$((MIB * 256))
tag=$KJ_MARKER$KJ_MARKER                       # memfill's 128-bit tag
how=${KJ_KDUMP_HOW:--p}                        # kdump-nojump: -p --no-jump
case $how in *--no-jump*) nojump=1 ;; *) nojump= ;; esac
plant=$KJ_MARKER$KJ_MARKER                     # the 16 bytes A plants
b_bytes=4b4a2d422d6f7665727772697474656e       # "KJ-B-overwritten"

# timed CMD...: run CMD, leave its wall time in ms in /tmp/kj.ms
timed() {
	_t0=$(monotime)
	"$@"
	_rc=$?
	_t1=$(monotime)
	echo $(((_t1 - _t0) / 1000)) >/tmp/kj.ms
	return $_rc
}


case $KJ_STAGE in
A)
	kj_need_kexec

	# 1. the pattern, kept resident by a memfill that never exits
	mkfifo /tmp/memfill.fifo || exit 1
	memfill $MIB "$tag" >/tmp/memfill.fifo 2>/tmp/memfill.err &
	IFS= read -r line </tmp/memfill.fifo
	if [ -z "$line" ]; then
		kj_say "memfill failed: $(cat /tmp/memfill.err)"
		exit 1
	fi
	kj_say "$line"
	kj_match memfill "$line" "^memfill tag=$tag pages=$PAGES sum=[0-9a-f]{16} locked=1\$" || exit 1
	asum=${line##* sum=}
	asum=${asum%% *}

	# 2. the planted bytes in low memory
	kj_say "plant $PLANT_ADDR before: $(physmem read $PLANT_ADDR 16 2>&1)"
	kj_eq plant "$(physmem write $PLANT_ADDR "$plant" 2>&1)" "$plant" || exit 1

	# 3. A's memory as the dump must describe it
	ram=$(sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\1 \2/p' /proc/iomem)
	crash=$(sed -n 's/^ *\([0-9a-f]*\)-\([0-9a-f]*\) : Crash kernel$/\1 \2/p' /proc/iomem)
	kj_say "ram $(kj_hexlist "$ram")"
	kj_match ram "$(kj_hexlist "$ram")" '^0x[0-9a-f]+-0x[0-9a-f]+'
	if [ -z "$crash" ]; then
		kj_fail crash-region "no Crash kernel range in /proc/iomem"
		exit 1
	fi
	set -- $crash
	cs=$((0x$1)) ce=$((0x$2))
	kj_say "crash $(printf '0x%x-0x%x size=0x%x' $cs $ce $((ce - cs + 1)))"
	kj_eq crash-size "$(printf '0x%x' $((ce - cs + 1)))" 0x4000000
	expected=$(kj_ranges_minus "$ram" $cs $ce)
	kj_say "expected loads $expected"
	kj_match expected-loads "$expected" '^0x[0-9a-f]+-0x[0-9a-f]+(,0x[0-9a-f]+-0x[0-9a-f]+)+$'

	# 4. load the capture kernel, timed
	kj_slot kexec_crash_loaded 0
	kj_run_ok load timed "$KEXEC" $how /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) nr_cpus=1 irqpoll reset_devices kjump.loads=$expected kjump.asum=$asum"
	rc=$?
	kj_say "load ms=$(cat /tmp/kj.ms)"
	[ $rc = 0 ] || exit 1
	kj_slot kexec_crash_loaded 1
	[ -z "$nojump" ] || kj_no_jump_refused

	# 5. crash; nothing in A overwrote the planted bytes before it
	kj_eq plant-readback "$(physmem read $PLANT_ADDR 16 2>&1)" "$plant"
	kj_handover B
	echo c >/proc/sysrq-trigger
	kj_fail sysrq "echo c >/proc/sysrq-trigger returned"
	exit 1
	;;
B)
	cl=$(cat /proc/cmdline)
	kj_say "cmdline: $cl"
	kj_match cmdline-marker "$cl" "(^| )kjump\.marker=$KJ_MARKER( |\$)"
	kj_match elfcorehdr "$(cmdline_word elfcorehdr)" '^[0-9]+K$'
	# our kexec tells B where the low-memory backup went; Debian's does not
	if [ "$KJ_IMPL" = ours ]; then
		kj_match kexec_backup "$(cmdline_word kexec_backup)" '^0x9ec00@0x1000:0x[0-9a-f]+$'
		# a companion A names its jump buffer; with no jump before the
		# crash, B says once that this is an ordinary boot (patch 0026)
		pfn=$(cmdline_word kexec_jump_buf_pfn)
		[ -z "$nojump" ] || kj_eq no-jump-buf "$pfn" none
		if [ "$pfn" != none ]; then
			kj_eq ordinary-boot "$(dmesg | sed "s/^\[[ 0-9.]*\] //" | grep 'kexec_core: ' | grep -i 'jump\|backup')" \
				"kexec_core: kexec jump: kexec_jump_buf_pfn=$pfn: no way back recorded there: an ordinary boot"
		fi
	else
		kj_eq kexec_backup "$(cmdline_word kexec_backup)" none
	fi
	if [ ! -r /proc/vmcore ]; then
		kj_fail vmcore "no /proc/vmcore"
		exit 1
	fi
	kj_match vmcore-size "$(stat -c %s /proc/vmcore)" '^[1-9][0-9]+$'
	vmcore-check >/tmp/vc.out 2>&1
	kj_say_lines "vmcore: " /tmp/vc.out

	# PT_LOADs == A's System RAM minus the crash region
	kj_eq loads "$(vmcore-check --ranges 2>&1)" "$(cmdline_word kjump.loads)"

	# every memfill page, byte for byte
	timed vmcore-check --find "$tag" $PAGES >/tmp/find.out 2>/tmp/find.err
	rc=$?
	kj_say_lines "" /tmp/find.out
	kj_say_lines "find stderr: " /tmp/find.err
	kj_say "find ms=$(cat /tmp/kj.ms)"
	kj_eq find-status "rc=$rc stderr-bytes=$(wc -c </tmp/find.err)" "rc=0 stderr-bytes=0"
	kj_match find-pages "$(cat /tmp/find.out)" \
		"^find tag=$tag pages=$PAGES found=$PAGES dup=[0-9]+ bad=0 sum=[0-9a-f]{16} .* result=ok\$"
	bsum=$(sed -n 's/.* sum=\([0-9a-f-]*\) .*/\1/p' /tmp/find.out)
	kj_eq sums "$bsum" "$(cmdline_word kjump.asum)"

	# the low-memory PT_LOAD reads the backup, not B's live memory
	kj_say "live $PLANT_ADDR before: $(physmem read $PLANT_ADDR 16 2>&1)"
	kj_eq live-after-write "$(physmem write $PLANT_ADDR $b_bytes 2>&1)" $b_bytes
	kj_eq vmcore-plant "$(vmcore-check --read $PLANT_ADDR 16 2>&1)" "$plant"

	# the old kernel's own ELF core header, as kexec wrote it: the
	# low-memory PT_LOAD's p_offset is where the backup copy lives
	hdr=$(cmdline_word elfcorehdr)
	case $hdr in
	*K) hdr=$((${hdr%K} * 1024)) ;;
	none) hdr= ;;
	esac
	if [ -z "$hdr" ]; then
		kj_fail elfcorehdr "no elfcorehdr= on the command line"
	else
		vmcore-check --core /dev/mem --hdr-at "$hdr" >/tmp/hdr.out 2>&1
		kj_say_lines "elfcorehdr: " /tmp/hdr.out
		low=$(sed -n 's/^load paddr=0x\([0-9a-f]*\)-.* offset=\(0x[0-9a-f]*\)$/\1 \2/p' /tmp/hdr.out |
			while read -r p o; do [ $((0x$p)) -lt $((0xa0000)) ] && echo "$o"; done)
		bk=$(cmdline_word kexec_backup)
		kj_say "low-load offset=${low:-none} kexec_backup-dst=${bk##*:}"
		if [ "$KJ_IMPL" = ours ]; then
			kj_match low-load-offset "$low" '^0x[0-9a-f]+$'
			kj_eq low-load-is-backup "$low" "${bk##*:}"
		else
			kj_match low-load-offset "$low" '^0x[0-9a-f]+$'
			kj_eq kexec_backup-dst "${bk##*:}" none
		fi
		# the same bytes read straight from that p_offset
		kj_eq elfcorehdr-view "$(vmcore-check --core /dev/mem \
			--hdr-at "$hdr" --read $PLANT_ADDR 16 2>&1)" "$plant"
	fi
	;;
esac
