#!/bin/sh
# jump: kexec -p, then kexec -j round trips between A and its crash kernel
# B, in one boot.  Shared by jump-pae (scenarios/jump-pae.guest.sh) and
# x86_64-jump (the x86_64 companion kernel, where B's command line has no
# kexec_backup=: the kernel swaps the first MiB around a jump itself; a
# request, which would make the jump save A, is taken and withdrawn).
#
# kjump.trips=N on A's command line (from the header) sets the number of
# round trips; A hands it on to B.
#
# A: an ext2 file system on the first 4 MiB of /dev/vda (mounted), 64 MiB
#    of memfill pattern (kept by a memfill in verify mode), a counter loop
#    in the background; load B with kexec -p, then N times:
#      write "A-was-here MARKER k" raw at A_BLK, kexec -j, timed with
#      the TSC (ms=, wall time) and CLOCK_MONOTONIC (a-ms=, A's own time:
#      it stands still while A is frozen);
#      when it returns, "check trip k back": kexec -j exited 0 with
#      nothing on stderr, the same shell process (PID and start time),
#      the counter advanced, memfill re-verifies every page, B's latest
#      raw block read from the disk (page cache dropped first) is the one
#      B wrote in this trip (so B ran in between), a file written and read
#      back on the ext2 file system, no Oops/WARNING/BUG in dmesg.
#    At the end: the median of the warm trips (2..N).
# B: first entry is a fresh boot: check the command line, find every
#    memfill page of A in /proc/vmcore, check A's raw block of this trip,
#    write its own, then kexec -j back; each time that returns 0, A has
#    resumed B: "KJ B: resumed n=k", A's block is checked again, B's written
#    again, and B jumps back again.  B never ends: A ends the run.
#: timeout 300
#: disk 16
#: append crashkernel=64M kjump.trips=20
#: reject kexec_trylock\(\) failed
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours; see jump-debian-baseline
#: mark A.start
#: mark B.start 120
#: mark A.end
. /lib/kjump/common.sh

MIB=64
PAGES=$((MIB * 256))
tag=$KJ_MARKER$KJ_MARKER
DISK=/dev/vda
FS_KB=4096                 # ext2 on the first 4 MiB
A_BLK=18432                # 512-byte sectors: A's raw block at 9 MiB
B_BLK=16384                # B's raw block at 8 MiB


disk_write() {             # disk_write SECTOR TEXT (one sector, synced)
	printf '%-511s\n' "$2" |
		dd of=$DISK bs=512 seek="$1" count=1 conv=notrunc,fsync 2>/tmp/dd.err
}

disk_read() {              # disk_read SECTOR: the text, read from the device
	sync
	echo 3 >/proc/sys/vm/drop_caches
	dd if=$DISK bs=512 skip="$1" count=1 2>/dev/null | tr -d '\000' |
		head -n 1 | sed 's/ *$//'
}

TRIPS=$(cmdline_word kjump.trips)
[ "$TRIPS" = none ] && TRIPS=20

case $KJ_STAGE in
A)
	kj_need_kexec
	if [ "$KJ_SCENARIO" = jump-pae ]; then
		# a non-PAE kernel says so at boot: prove this one is the PAE build
		dmesg >/tmp/dmesg.boot
		kj_true boot-log-kept "dmesg has lost the kernel banner" \
			grep -q 'Linux version [0-9]' /tmp/dmesg.boot
		kj_true pae-kernel "the kernel says 'L1TF: Kernel not compiled for PAE'" \
			sh -c '! grep -q "L1TF: Kernel not compiled for PAE" /tmp/dmesg.boot'
	fi
	if [ ! -b $DISK ]; then
		kj_fail disk "no $DISK"
		exit 1
	fi
	mke2fs -q $DISK $FS_KB >/tmp/mkfs.out 2>&1 || { kj_say_lines "mkfs: " /tmp/mkfs.out; kj_fail mkfs "mke2fs failed"; exit 1; }
	mkdir -p /mnt/a
	mount -t ext2 $DISK /mnt/a || { kj_fail mount "cannot mount $DISK"; exit 1; }
	echo "A-fs $KJ_MARKER" >/mnt/a/hello
	kj_eq fs "$(cat /mnt/a/hello)" "A-fs $KJ_MARKER"

	kj_memfill_start $MIB "$tag" || exit 1
	kj_eq memfill-before "$(kj_memfill_verify)" "memfill: verify $PAGES pages: OK" || exit 1

	kj_counter_start

	# wall time across a jump: the TSC (see tools/monotime.c)
	khz=$(monotime --tsc-khz)
	kj_match tsc-khz "$khz" '^[1-9][0-9]+$' || exit 1

	st0=$(starttime $$)
	kj_say "shell pid=$$ start=$st0 memfill=$mfpid counter-loop=$cpid trips=$TRIPS"

	kj_run_ok load "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) kjump.trips=$TRIPS" || exit 1
	kj_slot kexec_crash_loaded 1

	: >/tmp/ms
	k=1
	while [ $k -le $TRIPS ]; do
		disk_write $A_BLK "A-was-here $KJ_MARKER $k" || { kj_say_lines "dd: " /tmp/dd.err; kj_fail "trip $k" "cannot write the disk"; exit 1; }
		prev=$(cat /tmp/counter 2>/dev/null)
		kj_say "trip $k jump counter=$prev"
		kj_handover B
		m0=$(monotime)
		t0=$(monotime --tsc $khz)
		"$KEXEC" -j 2>/tmp/jump.err
		rc=$?
		t1=$(monotime --tsc $khz)
		m1=$(monotime)
		ms=$(((t1 - t0) / 1000))
		ams=$(((m1 - m0) / 1000))
		kj_say_lines "trip $k stderr: " /tmp/jump.err
		if [ $rc != 0 ]; then
			kj_fail "trip $k" "kexec -j exit status $rc"
			exit 1
		fi
		echo $ms >>/tmp/ms

		# the counter loop runs again once it is thawed
		cw=$(kj_counter_wait "$prev")
		now=${cw% *} adv=${cw#* }
		vline=$(kj_memfill_verify)
		b=$(disk_read $B_BLK)
		echo "A-fs $KJ_MARKER trip $k" >/mnt/a/trip$k
		sync
		echo 3 >/proc/sys/vm/drop_caches
		fs=$(cat /mnt/a/trip$k 2>&1)
		nerr=$(kj_dmesg_errors)
		kj_say "trip $k rc=$rc ms=$ms a-ms=$ams counter=$prev>$now"
		kj_eq "trip $k back" \
			"stderr-lines=$(wc -l </tmp/jump.err) shell=$$/$(starttime $$) counter $adv ($vline) disk=\"$b\" fs=\"$fs\" dmesg-errors=$nerr" \
			"stderr-lines=0 shell=$$/$st0 counter advanced (memfill: verify $PAGES pages: OK) disk=\"B-was-here $KJ_MARKER $((k - 1))\" fs=\"A-fs $KJ_MARKER trip $k\" dmesg-errors=0"
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
	if [ "$(uname -m)" = x86_64 ]; then
		# a jump can save A on x86_64 too (patch 0038; 0021 refused it):
		# a request is taken, and one NUL byte withdraws it
		printf 'kjump-test-request save\n' >/tmp/req
		dd if=/tmp/req of=/sys/kernel/kexec_jump_request bs=4096 2>/tmp/dd.err
		kj_eq request-taken "rc=$? len=$(kj_request_len)" "rc=0 len=24"
		printf '\000' >/sys/kernel/kexec_jump_request
		kj_eq request-withdrawn "len=$(kj_request_len)" "len=0"
		kj_slot kexec_crash_loaded 1
	fi
	# refused where a load would be (patch 0017); last: the sysctl stays
	# set until reboot
	kj_true sysctl "cannot set kernel.kexec_load_disabled" \
		sh -c 'echo 1 >/proc/sys/kernel/kexec_load_disabled'
	kj_table <<'TABLE'
disabled | "$KEXEC" -j | 1 | ^kexec: jump: refused: sysctl kernel\.kexec_load_disabled=1 forbids jumps as it does loads \(it stays set until reboot\)$
TABLE
	kj_slot kexec_crash_loaded 1
	kill $cpid $mfpid
	kj_true umount "cannot unmount /mnt/a" umount /mnt/a
	;;
B)
	cl=$(cat /proc/cmdline)
	kj_say "cmdline: $cl"
	kj_match cmdline-marker "$cl" "(^| )kjump\.marker=$KJ_MARKER( |\$)"
	backup_re='0x[0-9a-f]+@0x[0-9a-f]+:0x[0-9a-f]+'
	[ "$(uname -m)" = x86_64 ] && backup_re=none
	kj_match jump-words \
		"kexec_jump_buf_pfn=$(cmdline_word kexec_jump_buf_pfn) kexec_backup=$(cmdline_word kexec_backup)" \
		"^kexec_jump_buf_pfn=0x[0-9a-f]+ kexec_backup=$backup_re\$"
	kj_vmcore_find "$tag" $PAGES
	n=0
	while :; do
		kj_eq "n=$n disk-a" "$(disk_read $A_BLK)" "A-was-here $KJ_MARKER $((n + 1))"
		disk_write $B_BLK "B-was-here $KJ_MARKER $n" || { kj_say_lines "dd: " /tmp/dd.err; kj_fail "n=$n disk-b" "cannot write the disk"; exit 1; }
		kj_handover A "jump back n=$n"
		"$KEXEC" -j 2>/tmp/jump.err
		rc=$?
		kj_say_lines "jump back stderr: " /tmp/jump.err
		if [ $rc != 0 ]; then
			kj_fail "jump back n=$n" "kexec -j exit status $rc"
			exit 1
		fi
		n=$((n + 1))
		kj_eq "resumed n=$n" "stderr-lines=$(wc -l </tmp/jump.err)" "stderr-lines=0"
	done
	;;
esac
