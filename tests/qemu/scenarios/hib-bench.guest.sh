#!/bin/sh
# hib-bench: the numbers of kexec hibernation, in one boot (make bench
# prints them as a table, tests/qemu/bench.sh; make check runs it as a
# scenario too, so the numbers are always there to read).
#
# A: memfill of 60% of MemTotal (odd pages compressible), B loaded with the
#    image writer; then kexec --snapshot=/dev/vda with --compress=lz4,
#    zstd and none, each one line "hib-bench compress=C ...": A's wall time
#    of the command, the writer's counts and time; then a plain kexec -j,
#    for which B writes as many bytes as the lz4 image took with dd
#    straight to the same disk, O_DIRECT as the writer
#    ("hib-bench raw-dd ..."); last kexec
#    --hibernate=/dev/vda: the host's steps file has the time from the
#    handover line to QEMU's exit.
# B: serves each request with kjump-save --once; when entered with no
#    request it runs the raw dd and jumps back; it asks the host for no
#    more boots before the last save, which powers off.
#: timeout 600
#: disk 640
#: append crashkernel=64M
#: debian skip kexec --snapshot is ours
#: mark A.start
#: mark B.start 120
#: console 300 KJ A: handover to B \(hibernate\)
#: mark B.reboot 120
#: mark A.start
#: mark A.end 60
. /lib/kjump/common.sh

DISK=/dev/vda
tag=$KJ_MARKER$KJ_MARKER


case $KJ_STAGE.$KJ_BOOT in
A.1)
	kj_need_kexec
	kj_load_writer_b || exit 1
	kj_memfill_pct 60 "$tag" || exit 1
	# wall time across a jump: the TSC (A's own clocks stand still)
	khz=$(monotime --tsc-khz)
	for c in lz4 zstd none; do
		kj_handover B "snapshot $c"
		t0=$(monotime --tsc $khz)
		"$KEXEC" --snapshot=$DISK --compress=$c >/tmp/snap.out 2>/tmp/snap.err
		rc=$?
		t1=$(monotime --tsc $khz)
		kj_eq "snapshot $c" "rc=$rc stderr=$(wc -l </tmp/snap.err)" "rc=0 stderr=0" || exit 1
		l=$(cat /tmp/snap.out)
		kj_say "hib-bench compress=$c wall-ms=$(((t1 - t0) / 1000)) $(echo "$l" |
			sed -E 's/^[^:]*: saved ([0-9]+) pages \(([0-9]+) data, ([0-9]+) zero; ([0-9]+) used before\) in ([0-9]+) bytes, ratio ([0-9.]+), ([0-9.]+) MiB\/s, ([0-9]+) ms$/pages=\1 data=\2 zero=\3 used=\4 image-bytes=\5 ratio=\6 mibs=\7 write-ms=\8/')"
		[ $c = lz4 ] && lz4_bytes=$(echo "$l" | sed -E 's/.* in ([0-9]+) bytes.*/\1/')
	done
	# a plain jump: B measures the raw disk
	echo "$lz4_bytes" >/tmp/lz4.bytes
	kj_handover B "raw dd"
	"$KEXEC" -j 2>/tmp/jump.err
	kj_eq raw-jump "rc=$? stderr=$(wc -l </tmp/jump.err)" "rc=0 stderr=0"
	kj_handover B "hibernate"
	"$KEXEC" --hibernate=$DISK
	kj_fail hibernate "kexec --hibernate returned (rc=$?)"
	;;
B.1)
	n=0
	while :; do
		n=$((n + 1))
		if [ "$(kj_request_len)" = 0 ]; then
			# the raw rate: as many bytes as the lz4 image, dd, fsync
			mib=$(( $("$KEXEC" --image-info=$DISK 2>/dev/null | sed -n 's/^image bytes: //p') / 1048576 ))
			[ "$mib" -gt 0 ] || mib=200
			t0=$(monotime)
			dd if=/dev/zero of=$DISK bs=4M count=$((mib / 4)) oflag=direct conv=fsync 2>/tmp/dd.err
			rc=$?
			t1=$(monotime)
			kj_say "hib-bench raw-dd rc=$rc bytes=$((mib / 4 * 4194304)) ms=$(((t1 - t0) / 1000))"
			# and how fast /proc/vmcore reads, the writer's source
			t0=$(monotime)
			dd if=/proc/vmcore of=/dev/null bs=4M count=$((mib / 4)) 2>/tmp/dd.err
			rc=$?
			t1=$(monotime)
			kj_say "hib-bench vmcore-read rc=$rc bytes=$((mib / 4 * 4194304)) ms=$(((t1 - t0) / 1000))"
			kj_handover A "raw dd done"
			"$KEXEC" -j
			continue
		fi
		if [ $n = 5 ]; then
			kj_ok "B entered for the hibernation"
			kj_say "reboot-host boot=$KJ_BOOT rc=0 checks=$(kj_count ok) failed=$(kj_count fail) marker=$KJ_MARKER"
		else
			kj_handover A "saved $n"
		fi
		kjump-save --once </dev/null 2>/dev/null
		rc=$?
		# back here when A jumps in again
		[ $rc = 0 ] || { kj_fail kjump-save "exit status $rc"; exit 1; }
	done
	;;
A.2)
	kj_run info "$KEXEC" --image-info=$DISK --verify
	kj_eq info "rc=$? $(grep '^state' /tmp/kj.out)" "rc=0 state: committed"
	;;
esac
