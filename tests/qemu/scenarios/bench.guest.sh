#!/bin/sh
# bench: our kexec (/sbin/kexec) against Debian's kexec-tools 2.0.25
# (/opt/debian/sbin/kexec) in one guest, on one kernel, with the same
# images.  The guest only prints raw numbers; tests/qemu/bench.sh turns
# them into a table.  Knobs on A's command line (from the .host file):
# kjump.runs=N (default 7) and kjump.trips=T (default 6).
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
#   back it says "KJ B: bench back impl=IMPL n=K" (K trips done), so the
#   order of B's and A's lines proves every trip went through B.
. /lib/kjump/common.sh

DK=/opt/debian/sbin/kexec
IMG=/boot/bzImage
RD=/boot/initrd-b-debian.cpio.gz


say_lines() {              # say_lines PREFIX FILE
	while IFS= read -r _l || [ -n "$_l" ]; do
		kj_say "$1$_l"
	done <"$2"
}

kexec_of() {               # kexec_of IMPL: its binary
	case $1 in
	ours) echo "$KEXEC" ;;
	debian) echo "$DK" ;;
	esac
}

b_append() {               # b_append IMPL: B's command line
	echo "console=ttyS0,115200 panic=-1 nokaslr kjump.stage=B kjump.scenario=$KJ_SCENARIO kjump.impl=$1 kjump.marker=$KJ_MARKER"
}

# timed CMD...: run CMD (output to /tmp/out, /tmp/err); sets rc and us.
timed() {
	_t0=$(monotime)
	"$@" >/tmp/out 2>/tmp/err
	rc=$?
	_t1=$(monotime)
	us=$((_t1 - _t0))
}

# order I: the two implementations, ours first on odd runs.
order() {
	if [ $(($1 % 2)) = 1 ]; then echo "ours debian"; else echo "debian ours"; fi
}

# sample METRIC I IMPL: one timed sample and its report line.
sample() {
	_k=$(kexec_of "$3")
	case $1 in
	start-up)
		timed "$_k" -v
		kj_say "bench $1 run=$2 impl=$3 rc=$rc us=$us" ;;
	load-l | load-p)
		if [ $1 = load-l ]; then
			_f=/sys/kernel/kexec_loaded _a=-l _p=
		else
			_f=/sys/kernel/kexec_crash_loaded _a=-p _p=-p
		fi
		timed "$_k" $_a "$IMG" --initrd="$RD" --append="$APPEND"
		_ld=$(cat $_f)
		say_lines "$1 run=$2 impl=$3 stderr: " /tmp/err
		"$_k" $_p -u 2>/tmp/uerr
		_urc=$?
		say_lines "$1 run=$2 impl=$3 unload stderr: " /tmp/uerr
		kj_say "bench $1 run=$2 impl=$3 rc=$rc us=$us loaded=$_ld unload-rc=$_urc after=$(cat $_f)" ;;
	esac
}

RUNS=$(cmdline_word kjump.runs 7)
TRIPS=$(cmdline_word kjump.trips 6)

case $KJ_STAGE in
A)
	kj_need_kexec
	[ -x $DK ] || { kj_say "no $DK"; exit 1; }
	khz=$(monotime --tsc-khz)
	kj_say "bench runs=$RUNS trips=$TRIPS tsc-khz=$khz"
	# The same command line for both loads: B's, as for the jumps.
	APPEND=$(b_append ours)

	for m in start-up load-l load-p; do
		i=1
		while [ $i -le $RUNS ]; do
			for impl in $(order $i); do
				sample $m $i $impl
			done
			i=$((i + 1))
		done
	done

	# ours: B is the crash kernel, kexec -j both ways
	kj_run jump-load-ours "$KEXEC" -p "$IMG" --initrd="$RD" \
		--append="$(b_append ours)" || exit 1
	kj_say "bench jump impl=ours load rc=0 crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
	k=1
	while [ $k -le $TRIPS ]; do
		t0=$(monotime --tsc $khz)
		"$KEXEC" -j 2>/tmp/err
		rc=$?
		t1=$(monotime --tsc $khz)
		say_lines "jump run=$k impl=ours stderr: " /tmp/err
		kj_say "bench jump run=$k impl=ours rc=$rc us=$((t1 - t0))"
		[ $rc = 0 ] || exit 1
		k=$((k + 1))
	done
	"$KEXEC" -p -u 2>/tmp/err
	rc=$?
	say_lines "jump unload stderr: " /tmp/err
	kj_say "bench jump impl=ours unload rc=$rc crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
	[ $rc = 0 ] || exit 1

	# ours again, through the upstream interface: a preserve-context
	# image in the normal slot; kexec -j finds that path on both sides
	kj_run jump-pc-load-ours "$KEXEC" -l --load-preserve-context \
		--mem-max=0x5ffffff "$IMG" --initrd="$RD" \
		--append="$(b_append ours)" || exit 1
	kj_say "bench jump-pc impl=ours load rc=0 loaded=$(cat /sys/kernel/kexec_loaded)"
	k=1
	while [ $k -le $TRIPS ]; do
		t0=$(monotime --tsc $khz)
		"$KEXEC" -j 2>/tmp/err
		rc=$?
		t1=$(monotime --tsc $khz)
		say_lines "jump-pc run=$k impl=ours stderr: " /tmp/err
		kj_say "bench jump-pc run=$k impl=ours rc=$rc us=$((t1 - t0))"
		[ $rc = 0 ] || exit 1
		k=$((k + 1))
	done
	"$KEXEC" -u 2>/tmp/err
	rc=$?
	say_lines "jump-pc unload stderr: " /tmp/err
	kj_say "bench jump-pc impl=ours unload rc=$rc loaded=$(cat /sys/kernel/kexec_loaded)"
	[ $rc = 0 ] || exit 1

	# Debian's: upstream preserve-context kexec jump.  kexec -e reports
	# a bogus error (exit 255) each time it comes back: reported as
	# exec-rc=, not judged (B's line before A's proves the trip).
	kj_run jump-load-debian $DK -l --load-preserve-context \
		--mem-max=0x5ffffff --pass-memmap-cmdline "$IMG" \
		--initrd="$RD" --append="$(b_append debian)" || exit 1
	kj_say "bench jump impl=debian load rc=0 loaded=$(cat /sys/kernel/kexec_loaded)"
	k=1
	while [ $k -le $TRIPS ]; do
		t0=$(monotime --tsc $khz)
		$DK -e 2>/dev/null
		rc=$?
		t1=$(monotime --tsc $khz)
		kj_say "bench jump run=$k impl=debian exec-rc=$rc us=$((t1 - t0))"
		k=$((k + 1))
	done
	kj_say "bench done"
	;;
B)
	kj_say "cmdline: $(cat /proc/cmdline)"
	n=0
	case $KJ_IMPL in
	ours)
		while :; do
			kj_say "bench back impl=ours n=$n"
			"$KEXEC" -j 2>/tmp/err
			rc=$?
			if [ $rc != 0 ]; then
				say_lines "jump back stderr: " /tmp/err
				kj_say "bench jump back rc=$rc"
				exit 1
			fi
			n=$((n + 1))
		done ;;
	debian)
		e=$(cmdline_word kexec_jump_back_entry none)
		# (its stderr has the same bogus ifdown error as kexec -e)
		$DK --load-jump-back-helper --entry="$e" >/dev/null 2>&1
		rc=$?
		kj_say "helper rc=$rc"
		[ $rc = 0 ] || exit 1
		while :; do
			kj_say "bench back impl=debian n=$n"
			$DK -e 2>/dev/null
			n=$((n + 1))
		done ;;
	esac
	;;
esac
