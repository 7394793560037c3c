#!/bin/sh
# bench: our kexec (/sbin/kexec) against Debian's kexec-tools 2.0.25
# (/opt/debian/sbin/kexec) in one guest, on one kernel, with the same
# images.  The guest prints raw numbers, which tests/qemu/bench.sh turns
# into a table, and checks that every sample was taken (rc=0, nothing on
# stderr, loaded then unloaded) and every round trip came back; it does
# not judge who is faster.  Knobs on A's command line (from the header,
# or from bench.sh's KJUMP_HOST_FILE): kjump.runs=N (default 7) and
# kjump.trips=T (default 6).
#
# A, one line per sample, "KJ A: bench METRIC run=I impl=IMPL rc=.. us=..":
#   start-up  kexec -v (process start, no kexec work), CLOCK_MONOTONIC
#   load-l    kexec -l bzImage --initrd= --append=, then -u; CLOCK_MONOTONIC
#   load-p    kexec -p (same arguments), then -p -u; CLOCK_MONOTONIC
#   Runs 1..N each, the two implementations interleaved: odd runs ours
#   first, even runs Debian's first.  Each unloads with its own kexec, and
#   the line also reports the kexec_(crash_)loaded flag after the load and
#   after the unload.
#   jump      round trips A -> B -> A, wall time from the TSC (CLOCK_MONOTONIC
#             stops while A is frozen): first ours (kexec -p, T x kexec -j,
#             then kexec -p -u), ours again through the upstream interface
#             ("jump-pc": kexec -l --load-preserve-context --mem-max=0x5ffffff,
#             T x kexec -j, kexec -u), then Debian's (kexec -l
#             --load-preserve-context --mem-max=0x5ffffff
#             --pass-memmap-cmdline, T x kexec -e).  Trip 1 boots B.
# B (the same initramfs for both, initrd-b-debian: it has both kexecs)
#   knows from kjump.impl= on its command line which way back to use:
#   ours: kexec -j; debian: kexec --load-jump-back-helper
#   --entry=<kexec_jump_back_entry=>, then kexec -e.  Before each jump
#   back it says "KJ B: handover to A (bench back impl=IMPL n=K)" (K trips
#   done), and A hands over to B before each trip: the host checks the
#   two alternate, so every trip went through B.
#: timeout 390
#: append crashkernel=64M kjump.runs=3 kjump.trips=3
# Debian's B (preserve context): vmcore_init() WARNs on the PT_NOTE-less
# ELF core header kexec-tools writes (stock 6.1; see jump-debian-baseline).
#: allow-warning at mm/vmalloc.c:[0-9]+ __vmalloc_node_range
#: debian skip it always runs both kexecs; the run without KEXEC_IMPL=debian covers it
#: mark A.start
#: mark B.start 180
#: mark B.start 180
#: mark B.start 180
#: mark A.end 120
. /lib/kjump/common.sh

DK=/opt/debian/sbin/kexec
IMG=/boot/bzImage
RD=/boot/initrd-b-debian.cpio

say_lines() { kj_say_lines "$@"; }

kexec_of() {               # kexec_of IMPL: its binary
	case $1 in
	ours) echo "$KEXEC" ;;
	debian) echo "$DK" ;;
	esac
}

b_append() {               # b_append IMPL: B's command line
	echo "console=ttyS0,115200 panic=-1 nokaslr kjump.stage=B kjump.scenario=$KJ_SCENARIO kjump.impl=$1 kjump.boot=$KJ_BOOT kjump.marker=$KJ_MARKER"
}

RUNS=$(cmdline_word kjump.runs 7)
TRIPS=$(cmdline_word kjump.trips 6)

case $KJ_STAGE in
A)
	kj_need_kexec
	[ -x $DK ] || { kj_fail debian-kexec "no $DK"; exit 1; }
	khz=$(monotime --tsc-khz)
	kj_say "bench runs=$RUNS trips=$TRIPS tsc-khz=$khz"
	kj_match tsc-khz "$khz" '^[1-9][0-9]+$' || exit 1
	# The same command line for both loads: B's, as for the jumps.
	APPEND=$(b_append ours)

	for m in start-up load-l load-p; do
		kj_bench_metric $m "$RUNS" "$IMG" "$RD" "$APPEND"
	done

	# ours: B is the crash kernel, kexec -j both ways
	kj_run_ok jump-load-ours "$KEXEC" -p "$IMG" --initrd="$RD" \
		--append="$(b_append ours)" || exit 1
	kj_slot kexec_crash_loaded 1
	k=1
	while [ $k -le $TRIPS ]; do
		kj_handover B
		t0=$(monotime --tsc $khz)
		"$KEXEC" -j 2>/tmp/err
		rc=$?
		t1=$(monotime --tsc $khz)
		say_lines "jump run=$k impl=ours stderr: " /tmp/err
		kj_say "bench jump run=$k impl=ours rc=$rc us=$((t1 - t0))"
		kj_eq "jump run=$k impl=ours" "rc=$rc stderr-bytes=$(wc -c </tmp/err)" "rc=0 stderr-bytes=0" || exit 1
		k=$((k + 1))
	done
	"$KEXEC" -p -u --discard 2>/tmp/err
	rc=$?
	say_lines "jump unload stderr: " /tmp/err
	kj_eq "jump impl=ours unload" "rc=$rc crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)" "rc=0 crash_loaded=0" || exit 1

	# ours again, through the upstream interface: a preserve-context
	# image in the normal slot; kexec -j finds that path on both sides
	kj_run_ok jump-pc-load-ours "$KEXEC" -l --load-preserve-context \
		--mem-max=0x5ffffff "$IMG" --initrd="$RD" \
		--append="$(b_append ours)" || exit 1
	kj_slot kexec_loaded 1
	k=1
	while [ $k -le $TRIPS ]; do
		kj_handover B
		t0=$(monotime --tsc $khz)
		"$KEXEC" -j 2>/tmp/err
		rc=$?
		t1=$(monotime --tsc $khz)
		say_lines "jump-pc run=$k impl=ours stderr: " /tmp/err
		kj_say "bench jump-pc run=$k impl=ours rc=$rc us=$((t1 - t0))"
		kj_eq "jump-pc run=$k impl=ours" "rc=$rc stderr-bytes=$(wc -c </tmp/err)" "rc=0 stderr-bytes=0" || exit 1
		k=$((k + 1))
	done
	"$KEXEC" -u 2>/tmp/err
	rc=$?
	say_lines "jump-pc unload stderr: " /tmp/err
	kj_eq "jump-pc impl=ours unload" "rc=$rc loaded=$(cat /sys/kernel/kexec_loaded)" "rc=0 loaded=0" || exit 1

	# Debian's: upstream preserve-context kexec jump.  kexec -e reports
	# a bogus error (exit 255) each time it comes back: reported as
	# exec-rc=, not judged (B's line before A's proves the trip).
	kj_run_ok jump-load-debian $DK -l --load-preserve-context \
		--mem-max=0x5ffffff --pass-memmap-cmdline "$IMG" \
		--initrd="$RD" --append="$(b_append debian)" || exit 1
	kj_slot kexec_loaded 1
	k=1
	while [ $k -le $TRIPS ]; do
		kj_handover B
		t0=$(monotime --tsc $khz)
		$DK -e 2>/dev/null
		rc=$?
		t1=$(monotime --tsc $khz)
		kj_say "bench jump run=$k impl=debian exec-rc=$rc us=$((t1 - t0))"
		kj_match "jump run=$k impl=debian" "$rc" '^[0-9]+$'
		k=$((k + 1))
	done
	kj_say "bench done"
	;;
B)
	cl=$(cat /proc/cmdline)
	kj_say "cmdline: $cl"
	kj_match cmdline-marker "$cl" "(^| )kjump\\.marker=$KJ_MARKER( |\$)"
	n=0
	case $KJ_IMPL in
	ours)
		while :; do
			kj_handover A "bench back impl=ours n=$n"
			"$KEXEC" -j 2>/tmp/err
			rc=$?
			if [ $rc != 0 ]; then
				say_lines "jump back stderr: " /tmp/err
				kj_fail "jump back n=$n" "kexec -j exit status $rc"
				exit 1
			fi
			n=$((n + 1))
		done ;;
	debian)
		e=$(cmdline_word kexec_jump_back_entry none)
		# (its stderr has the same bogus ifdown error as kexec -e)
		$DK --load-jump-back-helper --entry="$e" >/dev/null 2>&1
		rc=$?
		kj_eq helper "rc=$rc" "rc=0" || exit 1
		while :; do
			kj_handover A "bench back impl=debian n=$n"
			$DK -e 2>/dev/null
			n=$((n + 1))
		done ;;
	esac
	;;
esac
