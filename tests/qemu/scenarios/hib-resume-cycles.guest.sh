#!/bin/sh
# hib-resume-cycles: three hibernate -> power-off -> resume cycles in a row
# on a raw partition, then three on an image file, in one life of A.
#
# A (boot 1): a partition table on /dev/vda (one partition, /dev/vda1);
#    the ext4 file system on /dev/vdb mounted; memfill's pattern and a
#    counter loop.  Before cycle 4, one --snapshot makes the image file
#    (B jumps back), so that its device and offset are known.  Then six
#    times: load B with the image writer (cycle 4 first discards the B
#    the snapshot left parked: kexec -p -u --discard),
#    kexec --hibernate (cycles 1-3: /dev/vda1; 4-6: /mnt/fs/hib.img), and,
#    once resumed, check: exit status 0 and "resumed", the same shell, the
#    counter advanced, every pattern page, a line appended to a file of
#    the file system and read back, no kernel errors (on x86_64 also:
#    A's RAM below 1 MiB as before the cycle, CPU 1 off and on again).
#    The boot number
#    A is in afterwards is its count of power-offs plus one.
# B: asks for another boot; the writer commits and powers off.
# A' (boots 2-7): kexec --resume of the partition, or of the file through
#    its device and offset, which A wrote at byte 512 of /dev/vda (as an
#    admin puts resume_offset= in the boot configuration).
# Host: e2fsck -fn of the ext4 disk clean.
#: timeout 900
#: disk 640
#: fs-disk 640 ext4
#: append crashkernel=64M no_console_suspend
#: debian skip kexec --resume is ours
#: mark A.start
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: mark B.start 120
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: mark A.end 180
. /lib/kjump/common.sh

DISK=/dev/vda
PART=/dev/vda1
FS=/dev/vdb
FILE=/mnt/fs/hib.img
PCT=40
tag=$KJ_MARKER$KJ_MARKER

# where A' finds the file image: "DEVICE OFFSET" at byte 512 of the disk
put_location() {
	printf '%-64s' "$1 $2" >/tmp/location
	dd if=/tmp/location of=$DISK bs=64 seek=8 count=1 conv=notrunc,fsync 2>/dev/null
}

cycle() {                  # cycle N TARGET
	# after the snapshot, B is parked (its writer ran --once), and a
	# parked crash kernel is only replaced when asked (patch 0024); after
	# a resume, A has unloaded it itself
	if [ "$(cat /sys/kernel/kexec_jump_parked)" = 1 ]; then
		kj_run_ok "discard $1" "$KEXEC" -p -u --discard || exit 1
	fi
	kj_load_writer_b "load $1" || exit 1
	prev=$(cat /tmp/counter)
	[ "$(uname -m)" = x86_64 ] && low0=$(kj_low_ram_md5)
	kj_handover B "hibernate $1"
	kj_run "hibernate $1" "$KEXEC" --hibernate="$2"
	rc=$?
	KJ_BOOT=$((KJ_BOOT + 1))
	export KJ_BOOT
	kj_eq "hibernate $1" "rc=$rc stderr-lines=$(wc -l </tmp/kj.err)" "rc=0 stderr-lines=0"
	kj_match "resumed $1" "$(tail -n 1 /tmp/kj.out)" "^$2: resumed after a power-off"
	cw=$(kj_counter_wait "$prev")
	kj_eq "back in A $1" "shell=$$/$(starttime $$) counter ${cw#* } ($(kj_memfill_verify))" \
		"shell=$$/$st0 counter advanced (memfill: verify $PAGES pages: OK)"
	echo "cycle $1 $KJ_MARKER" >>/mnt/fs/log && sync
	kj_eq "file $1" "$(tail -n 1 /mnt/fs/log)" "cycle $1 $KJ_MARKER"
	if [ "$(uname -m)" = x86_64 ]; then
		# A's own low RAM back, CPU 1 up through its trampoline
		kj_eq "low-ram $1" "$(kj_low_ram_md5)" "$low0"
		kj_cpu_cycle 1 1
	fi
	kj_eq "dmesg-errors $1" "$(kj_dmesg_errors)" 0
}

case $KJ_STAGE in
A)
	if [ "$KJ_BOOT" != 1 ]; then
		# A': resume what the location slot or the partition names
		set -- $(dd if=$DISK bs=64 skip=8 count=1 2>/dev/null | tr -d '\0')
		kj_drop_boot_files
		kj_handover A "resume"
		if [ $# = 2 ]; then
			"$KEXEC" --resume="$1" --resume-offset="$2" >/tmp/r.out 2>/tmp/r.err
		else
			"$KEXEC" --resume=$PART >/tmp/r.out 2>/tmp/r.err
		fi
		rc=$?
		kj_say_lines "" /tmp/r.out
		kj_say_lines "stderr: " /tmp/r.err
		kj_fail resume "kexec --resume returned (rc=$rc) instead of resuming"
		exit 1
	fi
	kj_need_kexec
	[ -b $DISK ] && [ -b $FS ] || { kj_fail disks "no $DISK or $FS"; exit 1; }
	# one Linux partition from sector 2048 to the end of the disk
	kj_mbr $DISK 2048 $(($(cat /sys/block/vda/size) - 2048)) 203
	kj_true partition "no $PART after writing the partition table ($(tr '\n' ' ' </tmp/pt.err); $(grep vda /proc/partitions | tr '\n' ' '))" test -b $PART
	mkdir -p /mnt/fs
	mount -t ext4 $FS /mnt/fs || { kj_fail mount "cannot mount $FS"; exit 1; }
	kj_memfill_pct $PCT "$tag" || exit 1
	kj_counter_start
	st0=$(starttime $$)
	for n in 1 2 3; do
		cycle $n $PART
	done
	# the file: made once by a snapshot (fully allocated), then its
	# device and offset for A'
	kj_load_writer_b "load for the file" || exit 1
	kj_handover B "snapshot"
	kj_run_ok "file image" "$KEXEC" --snapshot=$FILE --compress=none || exit 1
	# as in hib-snapshot-file: the file's pages cached in A predate B's writes
	sync
	echo 3 >/proc/sys/vm/drop_caches
	kj_run_ok "file info" "$KEXEC" --image-info=$FILE || exit 1
	dev=$(sed -n 's/^device: \([0-9]*:[0-9]*\),.*/\1/p' /tmp/kj.out)
	off=$(sed -n 's/^extents: .*block 0 at byte \([0-9]*\) .*/\1/p' /tmp/kj.out)
	kj_eq "file location" "$dev $((off % 4096))" "$(cat /sys/block/vdb/dev) 0"
	put_location $FS "$off"
	for n in 4 5 6; do
		cycle $n $FILE
	done
	kill $cpid $mfpid
	kj_true umount "cannot unmount /mnt/fs" umount /mnt/fs
	;;
B)
	kj_ok "B entered for the save"
	if grep -aq '^mode=snapshot$' /sys/kernel/kexec_jump_request; then
		kj_handover A "image written"
		kjump-save --once </dev/null 2>/dev/console
		kj_fail kjump-save "returned with status $? instead of jumping back"
		exit 1
	fi
	kj_say "reboot-host boot=$KJ_BOOT rc=0 checks=$(kj_count ok) failed=$(kj_count fail) marker=$KJ_MARKER"
	kjump-save --once </dev/null 2>/dev/console
	kj_fail kjump-save "returned with status $? instead of powering off"
	;;
esac
