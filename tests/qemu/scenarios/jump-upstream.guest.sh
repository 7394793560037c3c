#!/bin/sh
# jump-upstream / jump-fallback: our kexec's upstream-style kexec jump
# (KEXEC_PRESERVE_CONTEXT), N round trips A -> B -> A in one boot.
#
#   kjump.way=exec  jump-upstream, companion kernel: A runs kexec -e; B
#                   loads the way back with --load-jump-back-helper (no
#                   --entry: it reads kexec_jump_back_entry= itself) and
#                   runs kexec -e
#   kjump.way=jump  jump-fallback and x86_64-jump-fallback, a kernel
#                   without KJUMP: kexec -j on both sides, which must find
#                   the upstream path itself
#
# A: 32 MiB of memfill pattern, a counter loop, 16 bytes planted at
#    PLANT_ADDR (low memory; see kdump.guest.sh for why it is free), then
#    kexec -l --load-preserve-context --mem-max=WINDOW_TOP.  After every
#    trip ("check trip K back"): kexec exited 0 with nothing on stderr
#    (upstream prints a bogus error), same shell, counter advanced, the
#    pattern and the planted bytes intact although B overwrote the latter
#    (low memory is swapped even though nothing was loaded there), no
#    Oops/WARNING/BUG.
# B: purgatory put the way back at the end of its command line; its RAM
#    must lie in low memory and the window (upstream hands B the whole
#    e820), and it has no /proc/vmcore; B overwrites PLANT_ADDR every time
#    and jumps back, and each return (A resumed B) must say 0 with nothing
#    on stderr.  The hand-overs prove every trip went through B.
#: timeout 240
#: append kjump.trips=3 kjump.way=exec
#: debian skip our --load-preserve-context fixes and -j are under test; see jump-debian-baseline
#: mark A.start
#: mark B.start 120
#: mark A.end
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
case $KJ_SCENARIO in
*jump-fallback) want_kjump=no ;;   # config nokjump, x86_64-nokjump
*) want_kjump=yes ;;
esac

case $KJ_STAGE in
A)
	kj_memfill_start $MIB "$tag" || exit 1
	kj_counter_start
	if [ -e /sys/kernel/kexec_jump_buf_pfn ]; then kjump=yes; else kjump=no; fi
	kj_eq kernel-has-kjump $kjump $want_kjump || exit 1
	st0=$(starttime $$)
	kj_say "shell pid=$$ start=$st0 trips=$TRIPS way=$WAY kjump=$kjump"
	kj_eq plant "$(physmem write $PLANT_ADDR "$plant" 2>&1)" "$plant" || exit 1

	kj_run_ok load "$KEXEC" -l --load-preserve-context --mem-max=$WINDOW_TOP \
		/boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) kjump.trips=$TRIPS kjump.way=$WAY" ||
		exit 1
	kj_loaded 1

	k=1
	while [ $k -le "$TRIPS" ]; do
		prev=$(cat /tmp/counter 2>/dev/null)
		kj_say "trip $k $WAY counter=$prev"
		kj_handover B
		m0=$(monotime)
		"$KEXEC" -$(echo "$WAY" | cut -c1) 2>/tmp/run.err
		rc=$?
		m1=$(monotime)
		# the counter loop runs again once it is thawed
		cw=$(kj_counter_wait "$prev")
		now=${cw% *} adv=${cw#* }
		vline=$(kj_memfill_verify)
		nerr=$(kj_dmesg_errors)
		kj_say "trip $k rc=$rc ms=$(((m1 - m0) / 1000)) counter=$prev>$now"
		kj_say_lines "trip $k stderr: " /tmp/run.err
		kj_eq "trip $k back" \
			"rc=$rc stderr-lines=$(wc -l </tmp/run.err) shell=$$/$(starttime $$) counter $adv ($vline) plant=$(physmem read $PLANT_ADDR 16 2>&1) dmesg-errors=$nerr" \
			"rc=0 stderr-lines=0 shell=$$/$st0 counter advanced (memfill: verify $((MIB * 256)) pages: OK) plant=$plant dmesg-errors=0"
		k=$((k + 1))
	done
	kill $cpid $mfpid
	;;
B)
	cl=$(cat /proc/cmdline)
	kj_say "cmdline: $cl"
	# purgatory appended the way back at the end of the line
	kj_match cmdline "$cl" "(^| )kjump\\.marker=$KJ_MARKER .*kexec_jump_back_entry=0x[0-9a-f]{8}\$"
	# B's RAM ends inside the window (upstream gives B the whole e820)
	kj_match entry-ram-vmcore \
		"entry=$(cmdline_word kexec_jump_back_entry) ram-top=0x$(ram_top) vmcore=$([ -e /proc/vmcore ] && echo yes || echo no)" \
		'^entry=0x[0-9a-f]{8} ram-top=0x0[0-5][0-9a-f]{6} vmcore=no$'
	if [ "$WAY" = exec ]; then
		kj_run_ok helper "$KEXEC" --load-jump-back-helper || exit 1
		kj_loaded 1
	fi
	n=0
	while :; do
		kj_eq "n=$n overwrite" "$(physmem write $PLANT_ADDR $b_bytes 2>&1)" $b_bytes
		kj_handover A "jump back n=$n"
		"$KEXEC" -$(echo "$WAY" | cut -c1) 2>/tmp/run.err
		rc=$?
		n=$((n + 1))
		kj_eq "resumed n=$n" "rc=$rc stderr-lines=$(wc -l </tmp/run.err)" "rc=0 stderr-lines=0"
	done
	;;
esac
