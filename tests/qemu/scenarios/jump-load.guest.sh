#!/bin/sh
# jump-load: 50 kexec -j round trips while A is busy: a CPU hog pinned to
# each vCPU and a writer that writes files on an ext2 file system with
# fsync, one after another, across the jumps.
#
# A: ext2 on /dev/vda, the two hogs, the writer (file w.N holds a pattern
#    made of N and the marker; N goes to /tmp/written only once its fsync
#    returned), a counter loop; load B, then kjump.trips=N times: kexec -j
#    exits 0 with nothing on stderr, the counter advanced and never went
#    back (its value before each jump is at least the one after the last),
#    the writer and the hogs still run, no Oops/WARNING/BUG in dmesg.  At
#    the end: stop the writer, unmount and mount again (every read comes
#    from the disk) and every file the writer finished has its pattern;
#    the writer wrote during most of the trips (files finished between
#    jumps).
# B: jumps back on every entry.
#: timeout 600
#: disk 64
#: append crashkernel=64M kjump.trips=50
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: mark A.start
#: mark B.start 120
#: mark A.end 500
. /lib/kjump/common.sh

DISK=/dev/vda
TRIPS=$(cmdline_word kjump.trips)
[ "$TRIPS" = none ] && TRIPS=50

pattern() {                # pattern N: the 16 KiB w.N should hold
	yes "w $1 $KJ_MARKER" | head -c 16384
}

writer() {                 # writes w.1, w.2, ... with fsync, logs each done
	n=0
	while [ $n -lt 2000 ] && [ ! -e /tmp/stop ]; do
		n=$((n + 1))
		pattern $n | dd of=/mnt/a/w.$n bs=4096 conv=fsync 2>/dev/null || exit 1
		echo $n >>/tmp/written
	done
}

case $KJ_STAGE in
A)
	kj_need_kexec
	mke2fs -q $DISK >/tmp/mkfs.out 2>&1 || { kj_say_lines "mkfs: " /tmp/mkfs.out; kj_fail mkfs "mke2fs failed"; exit 1; }
	mkdir -p /mnt/a
	mount -t ext2 $DISK /mnt/a || { kj_fail mount "cannot mount $DISK"; exit 1; }
	taskset -c 0 sh -c 'while :; do :; done' &
	hog0=$!
	taskset -c 1 sh -c 'while :; do :; done' &
	hog1=$!
	: >/tmp/written
	writer &
	wpid=$!
	kj_counter_start
	kj_run_ok load "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append)" || exit 1
	last=0 back=0 busy=0 w_prev=0
	k=1
	while [ $k -le $TRIPS ]; do
		before=$(kj_counter_read)
		if [ "$before" -lt "$last" ]; then
			kj_fail "trip $k counter" "went back from $last to $before"
			exit 1
		fi
		kj_handover B "trip $k"
		"$KEXEC" -j 2>/tmp/jump.err
		rc=$?
		cw=$(kj_counter_wait "$before")
		last=${cw% *}
		w_now=$(wc -l </tmp/written)
		[ "$w_now" -gt "$w_prev" ] && busy=$((busy + 1))
		w_prev=$w_now
		alive=yes
		for p in $hog0 $hog1 $wpid $cpid; do
			kill -0 $p 2>/dev/null || alive="no ($p)"
		done
		if [ $rc != 0 ] || [ -s /tmp/jump.err ] || [ "${cw#* }" != advanced ] ||
			[ "$alive" != yes ] || [ "$(kj_dmesg_errors)" != 0 ]; then
			kj_say_lines "trip $k stderr: " /tmp/jump.err
			kj_fail "trip $k" "rc=$rc counter $cw alive=$alive dmesg-errors=$(kj_dmesg_errors)"
			exit 1
		fi
		back=$((back + 1))
		k=$((k + 1))
	done
	kj_eq trips "$back" "$TRIPS"
	kill $hog0 $hog1 $cpid
	: >/tmp/stop
	wait $wpid
	umount /mnt/a && mount -t ext2 $DISK /mnt/a ||
		{ kj_fail remount "cannot remount $DISK"; exit 1; }
	files=$(wc -l </tmp/written) bad=0
	for n in $(cat /tmp/written); do
		pattern $n | cmp -s - /mnt/a/w.$n || { bad=$((bad + 1)); kj_say "w.$n differs"; }
	done
	kj_say "writer: $files files finished, written between jumps in $busy of $TRIPS trips"
	kj_eq files-intact "bad=$bad" "bad=0"
	kj_true files-written "the writer finished no file" [ "$files" -gt 0 ]
	kj_true writer-busy "the writer finished files in only $busy of $TRIPS trips" \
		[ $busy -ge $((TRIPS / 2)) ]
	kj_eq dmesg-errors "$(kj_dmesg_errors)" 0
	;;
B)
	kj_check_b_cmdline
	n=0
	while :; do
		kj_handover A "jump back n=$n"
		"$KEXEC" -j 2>/tmp/jump.err
		rc=$?
		if [ $rc != 0 ]; then
			kj_say_lines "jump back stderr: " /tmp/jump.err
			kj_fail "jump back n=$n" "exit status $rc"
			exit 1
		fi
		n=$((n + 1))
	done
	;;
esac
