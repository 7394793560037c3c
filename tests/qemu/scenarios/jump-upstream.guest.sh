#!/bin/sh
# jump-upstream / jump-fallback: our kexec's upstream-style kexec jump
# (KEXEC_PRESERVE_CONTEXT), N round trips A -> B -> A in one boot.
#
#   kjump.way=exec  jump-upstream, companion kernel: A runs kexec -e; B
#                   loads the way back with --load-jump-back-helper (no
#                   --entry: it reads kexec_jump_back_entry= itself) and
#                   runs kexec -e
#   kjump.way=jump  jump-fallback, a kernel without KJUMP: kexec -j on
#                   both sides, which must find the upstream path itself
#
# A: 32 MiB of memfill pattern, a counter loop, 16 bytes planted at
#    PLANT_ADDR (low memory; see kdump.guest.sh for why it is free), then
#    kexec -l --load-preserve-context --mem-max=WINDOW_TOP.  After every
#    trip: kexec exited 0 with nothing on stderr (upstream prints a bogus
#    error), same shell, counter advanced, the pattern and the planted
#    bytes intact although B overwrote the latter (low memory is swapped
#    even though nothing was loaded there), no Oops/WARNING/BUG.
# B: its RAM must lie in low memory and the window (upstream hands B the
X
. /lib/kjump/common.sh

PLANT_ADDR=0x80000
WINDOW_TOP=0x5ffffff
MIB=32
tag=$KJ_MARKER$KJ_MARKER
plant=$KJ_MARKER$KJ_MARKER
b_bytes=4b4a2d422d6f7665727772697474656e       # "KJ-B-overwritten"



# The highest end of B's System RAM, from /proc/iomem (top level only).
ram_top() {
	sed -n 's/^\([0-9a-f]*\)-\([0-9a-f]*\) : System RAM$/\2/p' /proc/iomem |
		sort | tail -n 1
}

TRIPS=$(cmdline_word kjump.trips)
[ "$TRIPS" = none ] && TRIPS=3
WAY=$(cmdline_word kjump.way)

case $KJ_STAGE in
A)
	kj_memfill_start $MIB "$tag" || exit 1
	kj_counter_start
	if [ -e /sys/kernel/kexec_jump_buf_pfn ]; then kjump=yes; else kjump=no; fi
	st0=$(starttime $$)
	kj_say "shell pid=$$ start=$st0 trips=$TRIPS way=$WAY kjump=$kjump"
	kj_say "plant $PLANT_ADDR $(physmem write $PLANT_ADDR "$plant" 2>&1)"

	kj_run load "$KEXEC" -l --load-preserve-context --mem-max=$WINDOW_TOP \
		/boot/bzImage --initrd=/boot/initrd-b.cpio.gz \
		--append="$(kj_b_append) kjump.trips=$TRIPS kjump.way=$WAY" ||
		exit 1
	kj_loaded

	k=1
	while [ $k -le "$TRIPS" ]; do
		prev=$(cat /tmp/counter 2>/dev/null)
		kj_say "trip $k $WAY counter=$prev"
		m0=$(monotime)
		"$KEXEC" -$(echo "$WAY" | cut -c1) 2>/tmp/run.err
		rc=$?
		m1=$(monotime)
		# the counter loop runs again once it is thawed
		cw=$(kj_counter_wait "$prev")
		now=${cw% *} adv=${cw#* }
		vline=$(kj_memfill_verify)
		nerr=$(kj_dmesg_errors)
		kj_say "trip $k rc=$rc stderr-lines=$(wc -l </tmp/run.err) ms=$(((m1 - m0) / 1000)) shell=$$/$(starttime $$) was=$$/$st0 counter=$prev>$now $adv ($vline) plant=$(physmem read $PLANT_ADDR 16 2>&1) dmesg-errors=$nerr"
		[ -s /tmp/run.err ] && kj_say "stderr: $(head -n 1 /tmp/run.err)"
		k=$((k + 1))
	done
	kill $cpid $mfpid
	;;
B)
	kj_say "cmdline: $(cat /proc/cmdline)"
	kj_say "entry=$(cmdline_word kexec_jump_back_entry) ram-top=0x$(ram_top) vmcore=$([ -e /proc/vmcore ] && echo yes || echo no)"
	if [ "$WAY" = exec ]; then
		kj_run helper "$KEXEC" --load-jump-back-helper || exit 1
		kj_loaded
	fi
	n=0
	while :; do
		kj_say "n=$n overwrite $(physmem write $PLANT_ADDR $b_bytes 2>&1)"
		kj_say "jump back n=$n"
		"$KEXEC" -$(echo "$WAY" | cut -c1) 2>/tmp/run.err
		rc=$?
		n=$((n + 1))
		kj_say "resumed n=$n rc=$rc stderr-lines=$(wc -l </tmp/run.err)"
	done
	;;
esac
