#!/bin/sh
# jump-debian-baseline: the upstream kexec jump (KEXEC_PRESERVE_CONTEXT)
# with Debian's kexec-tools 2.0.25, always /opt/debian/sbin/kexec, on the
# companion kernel: the peer baseline for the jump scenario's timings.
# Recipe: /work/shared/reference/qemu-baseline.md section 3.
#
# A: 64 MiB of memfill pattern and a counter loop, as in jump; load B with
#    kexec -l --load-preserve-context --mem-max=0x5ffffff
#    --pass-memmap-cmdline (timed), then N times kexec -e.  kexec-tools
#    reports a bogus error when B jumps back ("kexec failed: Bad file
#    descriptor", exit 255), so its exit status is reported, not judged;
#    being back is proven by the same checks as in jump (shell process,
#    counter, memfill verify).  Times as in jump (TSC wall ms=, A's
#    CLOCK_MONOTONIC a-ms=).
# B: load the jump-back helper at kexec_jump_back_entry= from the command
#    line, then loop on kexec -e; each return means A resumed B.
. /lib/kjump/common.sh

DK=/opt/debian/sbin/kexec
MIB=64
tag=$KJ_MARKER$KJ_MARKER



TRIPS=$(cmdline_word kjump.trips)
[ "$TRIPS" = none ] && TRIPS=5

case $KJ_STAGE in
A)
	kj_memfill_start $MIB "$tag" || exit 1
	kj_counter_start
	khz=$(monotime --tsc-khz)
	kj_say "tsc khz=$khz"
	st0=$(starttime $$)
	kj_say "shell pid=$$ start=$st0 trips=$TRIPS"

	m0=$(monotime)
	kj_run load $DK -l --load-preserve-context --mem-max=0x5ffffff \
		--pass-memmap-cmdline /boot/bzImage --initrd=/boot/initrd-b-debian.cpio.gz \
		--append="$(kj_b_append) nokaslr kjump.trips=$TRIPS"
	rc=$?
	m1=$(monotime)
	kj_say "load ms=$(((m1 - m0) / 1000))"
	[ $rc = 0 ] || exit 1
	kj_say "kexec_loaded=$(cat /sys/kernel/kexec_loaded)"

	: >/tmp/ms
	k=1
	while [ $k -le $TRIPS ]; do
		prev=$(cat /tmp/counter 2>/dev/null)
		kj_say "trip $k exec counter=$prev"
		m0=$(monotime)
		t0=$(monotime --tsc $khz)
		$DK -e 2>/tmp/exec.err
		rc=$?
		t1=$(monotime --tsc $khz)
		m1=$(monotime)
		ms=$(((t1 - t0) / 1000))
		ams=$(((m1 - m0) / 1000))
		echo $ms >>/tmp/ms
		# the counter loop runs again once it is thawed
		cw=$(kj_counter_wait "$prev")
		now=${cw% *} adv=${cw#* }
		vline=$(kj_memfill_verify)
		nerr=$(kj_dmesg_errors)
		kj_say "trip $k back exec-rc=$rc exec-stderr=\"$(head -n 1 /tmp/exec.err)\" ms=$ms a-ms=$ams shell=$$/$(starttime $$) was=$$/$st0 counter=$prev>$now $adv ($vline) dmesg-errors=$nerr"
		k=$((k + 1))
	done
	kj_say "trip ms: $(tr '\n' ' ' </tmp/ms)"
	if [ $TRIPS -ge 2 ]; then
		tail -n +2 /tmp/ms | sort -n >/tmp/warm
		n=$(wc -l </tmp/warm)
		m=$(sed -n "$(((n + 1) / 2))p" /tmp/warm)
		if [ $((n % 2)) = 0 ]; then
			m2=$(sed -n "$((n / 2 + 1))p" /tmp/warm)
			m=$(((m + m2) / 2))
		fi
		kj_say "warm round trip median ms=$m (trips 2..$TRIPS) min=$(head -n 1 /tmp/warm) max=$(tail -n 1 /tmp/warm)"
	fi
	kill $cpid $mfpid
	;;
B)
	kj_say "cmdline: $(cat /proc/cmdline)"
	E=$(cmdline_word kexec_jump_back_entry)
	kj_say "entry=$E"
	kj_run helper $DK --load-jump-back-helper --entry="$E" || exit 1
	kj_say "kexec_loaded=$(cat /sys/kernel/kexec_loaded)"
	n=0
	while :; do
		kj_say "jump back n=$n"
		$DK -e 2>/tmp/exec.err
		rc=$?
		n=$((n + 1))
		kj_say "resumed n=$n exec-rc=$rc"
	done
	;;
esac
