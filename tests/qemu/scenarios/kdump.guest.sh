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

# say_lines LABEL FILE: one kj_say per line of FILE
say_lines() {
	while IFS= read -r _l || [ -n "$_l" ]; do
		kj_say "$1$_l"
	done <"$2"
}

# cmdline_word NAME: the value of NAME= on /proc/cmdline, or "none"

# hexlist "S E S E ...": "0xS-0xE,0xS-0xE"
hexlist() {
	_out=
	set -- $1
	while [ $# -ge 2 ]; do
		_out="$_out${_out:+,}0x$1-0x$2"
		shift 2
	done
	echo "$_out"
}

# ranges_minus "S E S E ..." CS CE: the hex ranges (inclusive ends) minus
# [CS, CE], touching ones merged, as "0xS-0xE,0xS-0xE"
ranges_minus() {
	_out='' _cs=$2 _ce=$3 _ps='' _pe=''
	set -- $1
	while [ $# -ge 2 ]; do
		_s=$((0x$1)) _e=$((0x$2))
		shift 2
		if [ $_e -lt $_cs ] || [ $_s -gt $_ce ]; then
			_add "$_s" "$_e"
		else
			[ $_s -lt $_cs ] && _add "$_s" $((_cs - 1))
			[ $_e -gt $_ce ] && _add $((_ce + 1)) "$_e"
		fi
	done
	[ -n "$_ps" ] && _out="$_out${_out:+,}$(printf '0x%x-0x%x' "$_ps" "$_pe")"
	echo "$_out"
}
_add() {
	if [ -n "$_ps" ] && [ $((_pe + 1)) -eq "$1" ]; then
		_pe=$2
		return
	fi
	[ -n "$_ps" ] && _out="$_out${_out:+,}$(printf '0x%x-0x%x' "$_ps" "$_pe")"
	_ps=$1 _pe=$2
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
	asum=${line##* sum=}
	asum=${asum%% *}

	# 2. the planted bytes in low memory
	kj_say "plant $PLANT_ADDR before: $(physmem read $PLANT_ADDR 16 2>&1)"
	kj_say "plant $PLANT_ADDR $(physmem write $PLANT_ADDR "$plant" 2>&1)"

	# 3. A's memory as the dump must describe it
	ram=$(sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\1 \2/p' /proc/iomem)
	crash=$(sed -n 's/^ *\([0-9a-f]*\)-\([0-9a-f]*\) : Crash kernel$/\1 \2/p' /proc/iomem)
	kj_say "ram $(hexlist "$ram")"
	if [ -z "$crash" ]; then
		kj_say "no Crash kernel range in /proc/iomem"
		exit 1
	fi
	set -- $crash
	cs=$((0x$1)) ce=$((0x$2))
	kj_say "crash $(printf '0x%x-0x%x size=0x%x' $cs $ce $((ce - cs + 1)))"
	expected=$(ranges_minus "$ram" $cs $ce)
	kj_say "expected loads $expected"

	# 4. load the capture kernel, timed
	kj_say "kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
	kj_run load timed "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio.gz \
		--append="$(kj_b_append) nr_cpus=1 irqpoll reset_devices kjump.loads=$expected kjump.asum=$asum"
	rc=$?
	kj_say "load ms=$(cat /tmp/kj.ms)"
	[ $rc = 0 ] || exit 1
	kj_say "kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"

	# 5. crash
	kj_say "plant $PLANT_ADDR readback $(physmem read $PLANT_ADDR 16 2>&1)"
	kj_say "sysrq"
	echo c >/proc/sysrq-trigger
	kj_say "sysrq returned"
	exit 1
	;;
B)
	kj_say "cmdline: $(cat /proc/cmdline)"
	kj_say "elfcorehdr=$(cmdline_word elfcorehdr)"
	kj_say "kexec_backup=$(cmdline_word kexec_backup)"
	if [ ! -r /proc/vmcore ]; then
		kj_say "no /proc/vmcore"
		exit 1
	fi
	kj_say "vmcore size=$(stat -c %s /proc/vmcore)"
	vmcore-check >/tmp/vc.out 2>&1
	say_lines "vmcore: " /tmp/vc.out

	# PT_LOADs == A's System RAM minus the crash region
	kj_say "loads a=$(cmdline_word kjump.loads) vmcore=$(vmcore-check --ranges 2>&1)"

	# every memfill page, byte for byte
	timed vmcore-check --find "$tag" $PAGES >/tmp/find.out 2>/tmp/find.err
	kj_say "find rc=$?"
	say_lines "" /tmp/find.out
	say_lines "find stderr: " /tmp/find.err
	kj_say "find ms=$(cat /tmp/kj.ms)"
	bsum=$(sed -n 's/.* sum=\([0-9a-f-]*\) .*/\1/p' /tmp/find.out)
	kj_say "sums a=$(cmdline_word kjump.asum) vmcore=$bsum"

	# the low-memory PT_LOAD reads the backup, not B's live memory
	kj_say "live $PLANT_ADDR before: $(physmem read $PLANT_ADDR 16 2>&1)"
	kj_say "live $PLANT_ADDR after write: $(physmem write $PLANT_ADDR $b_bytes 2>&1)"
	kj_say "vmcore $PLANT_ADDR: $(vmcore-check --read $PLANT_ADDR 16 2>&1)"

	# the old kernel's own ELF core header, as kexec wrote it: the
	# low-memory PT_LOAD's p_offset is where the backup copy lives
	hdr=$(cmdline_word elfcorehdr)
	case $hdr in
	*K) hdr=$((${hdr%K} * 1024)) ;;
	none) hdr= ;;
	esac
	if [ -n "$hdr" ]; then
		vmcore-check --core /dev/mem --hdr-at "$hdr" >/tmp/hdr.out 2>&1
		say_lines "elfcorehdr: " /tmp/hdr.out
		low=$(sed -n 's/^load paddr=0x\([0-9a-f]*\)-.* offset=\(0x[0-9a-f]*\)$/\1 \2/p' /tmp/hdr.out |
			while read -r p o; do [ $((0x$p)) -lt $((0xa0000)) ] && echo "$o"; done)
		bk=$(cmdline_word kexec_backup)
		kj_say "low-load offset=${low:-none} kexec_backup-dst=${bk##*:}"
		# the same bytes read straight from that p_offset
		kj_say "elfcorehdr view $PLANT_ADDR: $(vmcore-check --core /dev/mem \
			--hdr-at "$hdr" --read $PLANT_ADDR 16 2>&1)"
	fi
	;;
esac
