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
#    line, then loop on kexec -e; each return means A resumed B.  The
#    hand-overs prove each trip went through B.
# B's /proc/vmcore: kexec-tools writes a preserve-context ELF core header
# with no PT_NOTE, and vmcore_init() then WARNs on vmalloc_user(0) and gives
# up (a stock 6.1 behaviour, not this project's): the run tolerates that one
# WARNING, and B checks its dmesg says so.
#: timeout 210
#: append kjump.trips=6
#: allow-warning at mm/vmalloc.c:[0-9]+ __vmalloc_node_range
#: debian skip it always runs Debian's kexec; the run without KEXEC_IMPL=debian covers it
#: mark A.start
#: mark B.start 120
#: mark A.end
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
	kj_match tsc-khz "$khz" '^[1-9][0-9]+$' || exit 1
	st0=$(starttime $$)
	kj_say "shell pid=$$ start=$st0 trips=$TRIPS"

	m0=$(monotime)
	kj_run load $DK -l --load-preserve-context --mem-max=0x5ffffff \
		--pass-memmap-cmdline /boot/bzImage --initrd=/boot/initrd-b-debian.cpio \
		--append="$(kj_b_append) nokaslr kjump.trips=$TRIPS"
	rc=$?
	m1=$(monotime)
	kj_say "load ms=$(((m1 - m0) / 1000))"
	kj_eq load "rc=$rc" "rc=0" || exit 1
	kj_loaded 1

	: >/tmp/ms
	k=1
	while [ $k -le $TRIPS ]; do
		prev=$(cat /tmp/counter 2>/dev/null)
		kj_say "trip $k exec counter=$prev"
		kj_handover B
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
		kj_say "trip $k back exec-rc=$rc exec-stderr=\"$(head -n 1 /tmp/exec.err)\" ms=$ms a-ms=$ams counter=$prev>$now"
		kj_eq "trip $k back" \
			"shell=$$/$(starttime $$) counter $adv ($vline) dmesg-errors=$nerr" \
			"shell=$$/$st0 counter advanced (memfill: verify $((MIB * 256)) pages: OK) dmesg-errors=0"
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
	cl=$(cat /proc/cmdline)
	kj_say "cmdline: $cl"
	kj_match cmdline-marker "$cl" "(^| )kjump\\.marker=$KJ_MARKER( |\$)"
	# the stock 6.1 vmcore_init() on kexec-tools' PT_NOTE-less header
	dmesg >/tmp/dmesg.boot
	kj_true vmcore-no-notes "dmesg lacks 'Warning: Zero PT_NOTE entries found'" \
		grep -q 'Warning: Zero PT_NOTE entries found' /tmp/dmesg.boot
	kj_true vmcore-not-initialized "dmesg lacks 'Kdump: vmcore not initialized'" \
		grep -q 'Kdump: vmcore not initialized' /tmp/dmesg.boot
	E=$(cmdline_word kexec_jump_back_entry)
	kj_match entry "$E" '^0x[0-9a-f]+$'
	kj_run helper $DK --load-jump-back-helper --entry="$E"
	kj_eq helper "rc=$kj_rc" "rc=0" || exit 1
	kj_loaded 1
	n=0
	while :; do
		kj_handover A "jump back n=$n"
		$DK -e 2>/tmp/exec.err
		rc=$?
		n=$((n + 1))
		kj_say "resumed n=$n exec-rc=$rc"
	done
	;;
esac
