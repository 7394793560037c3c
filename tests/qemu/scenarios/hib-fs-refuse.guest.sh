#!/bin/sh
# hib-fs-refuse: every file system A had open for writing is in the image,
# whatever its type and whichever mount namespace held it, with a
# fingerprint B read from its device once A was frozen; a resume refuses
# the image once any of them changed, read-only mounts included.
#
# Boot 1, A: ext4 on /dev/vdb and xfs on /dev/vdc mounted read-write, a
#    file written on each; vfat on /dev/vdd mounted read-write only in a
#    mount namespace of its own, held by a process, so that A's own
#    mountinfo does not show it.  Swap in use (a swap file on the ext4):
#    --hibernate refused at once, nothing written; swapoff; --hibernate.
# Boot 1, B: asks for another boot; the writer commits and powers off.
# Boot 2, A': --image-info lists the three file systems with their
#    fingerprints (the vfat one by its device's name: only A's kernel
#    knew of it).  Then, each time refused with one line naming the file
#    system, the image still committed:
#    - the vfat mounted read-write and a file written;
#    - the xfs mounted read-write and unmounted (its log moves);
#    - the ext4 mounted read-only and unmounted: the mount replays the
#      journal A left, and nothing else about it changes.
#    (The table lists them in the order A mounted them, and a resume names
#    the first that changed: so they change in the reverse order.)
# The host's e2fsck -fn, xfs_repair -n and fsck.vfat -n find them clean.
#: timeout 600
#: disk 640
#: fs-disk 64 ext4
#: fs-disk 300 xfs
#: fs-disk 64 vfat
#: append crashkernel=64M
#: debian skip kexec --hibernate is ours
#: mark A.start
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: mark A.end 180
. /lib/kjump/common.sh

DISK=/dev/vda
EXT=/dev/vdb
XFS=/dev/vdc
VFAT=/dev/vdd

# refused WHAT ERE: kj_resume_refused of the image disk
refused() {
	kj_resume_refused $DISK "$@"
}

# mount_in_own_namespace: the vfat disk mounted read-write in a mount
# namespace held by a sleeping process; its line once it is mounted
# comes through a FIFO (no sleep as synchronisation).
mount_in_own_namespace() {
	rm -f /tmp/ns.fifo
	mkfifo /tmp/ns.fifo || return 1
	exec 4<>/tmp/ns.fifo
	unshare -m sh -c "mount -t vfat $VFAT /mnt/vfat && echo A >/mnt/vfat/hello && sync && echo mounted || echo failed; exec sleep 1000000" \
		>&4 2>/tmp/ns.err &
	IFS= read -r _ns <&4
	kj_eq ns-mounted "$_ns $(cat /tmp/ns.err)" "mounted "
	kj_eq ns-invisible "$(grep -c ' /mnt/vfat ' /proc/self/mountinfo)" 0
}

case $KJ_STAGE.$KJ_BOOT in
A.1)
	kj_need_kexec
	mkdir -p /mnt/ext /mnt/xfs /mnt/vfat
	mount -t ext4 $EXT /mnt/ext && mount -t xfs $XFS /mnt/xfs ||
		{ kj_fail mount "cannot mount $EXT and $XFS"; exit 1; }
	mount_in_own_namespace || exit 1

	# swap in use: refused before anything is written or frozen
	dd if=/dev/zero of=/mnt/ext/swap bs=1M count=8 2>/dev/null
	chmod 600 /mnt/ext/swap
	mkswap /mnt/ext/swap >/dev/null && swapon /mnt/ext/swap ||
		kj_fail swapon "cannot use a swap file"
	kj_load_writer_b || exit 1
	kj_run_fails swap-used '^kexec: swap /mnt/ext/swap is in use: a boot before the resume could use it and overwrite what A swapped out: swapoff it first$' \
		"$KEXEC" --hibernate=$DISK
	kj_eq swap-nothing-written "$(dd if=$DISK bs=4096 count=1 2>/dev/null | tr -d '\0' | wc -c)" 0
	swapoff /mnt/ext/swap && rm /mnt/ext/swap

	# files written right before: the ext4 journal is A's, not replayed
	echo "ext4 $KJ_MARKER" >/mnt/ext/hello
	echo "xfs $KJ_MARKER" >/mnt/xfs/hello
	sync
	kj_handover B "hibernate"
	kj_run hibernate "$KEXEC" --hibernate=$DISK
	kj_fail hibernate "kexec --hibernate returned (rc=$?) instead of powering off"
	;;
B.1)
	kj_b_save_and_power_off
	;;
A.2)
	"$KEXEC" --image-info=$DISK >/tmp/i.out 2>&1
	kj_say_lines "info: " /tmp/i.out
	kj_match fs-count "$(grep '^file systems:' /tmp/i.out)" '^file systems: 3$'
	kj_match fs-ext4 "$(grep '^fs: .* ext4 ' /tmp/i.out)" \
		'^fs: 254:16 ext4 /mnt/ext uuid [0-9a-f]{32} sb [0-9a-f]{8} log [0-9a-f]{8} at 0x[0-9a-f]+$'
	kj_match fs-xfs "$(grep '^fs: .* xfs ' /tmp/i.out)" \
		'^fs: 254:32 xfs /mnt/xfs uuid [0-9a-f]{32} sb [0-9a-f]{8} log [0-9a-f]{8} at 0x[0-9a-f]+$'
	kj_match fs-vfat-other-namespace "$(grep '^fs: .* vfat ' /tmp/i.out)" \
		'^fs: 254:48 vfat vdd uuid [0-9a-f]{8}0{24} sb [0-9a-f]{8} log [0-9a-f]{8} at 0x[0-9a-f]+$'

	# the vfat one, mounted and written in between
	mkdir -p /mnt/ext /mnt/xfs /mnt/vfat
	mount -t vfat $VFAT /mnt/vfat && echo B >/mnt/vfat/other && umount /mnt/vfat
	kj_ok "mounted and wrote $VFAT"
	refused vfat-changed 'vdd \(vfat\): changed since the hibernation: its (boot sector|FAT, FSInfo or root directory) differs: it was mounted or written in between$'

	# the xfs one, only mounted and unmounted
	mount -t xfs $XFS /mnt/xfs && umount /mnt/xfs
	kj_ok "mounted $XFS"
	refused xfs-changed '/mnt/xfs \(xfs\): changed since the hibernation: its (superblock|log) differs: it was mounted or written in between$'

	# the ext4 one, mounted read-only: the journal A left is replayed
	mount -t ext4 -o ro $EXT /mnt/ext && umount /mnt/ext
	kj_ok "mounted $EXT read-only"
	refused ext4-ro-mount '/mnt/ext \(ext4\): changed since the hibernation: its (superblock|journal) differs: it was mounted or written in between$'
	;;
*)
	kj_fail stage "stage $KJ_STAGE boot $KJ_BOOT: not in this scenario"
	;;
esac
