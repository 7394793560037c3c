#!/bin/sh
# hib-bad-input: kexec --snapshot / --hibernate / --warm-up with bad input
# fails before the jump, with one "kexec: " line that says why and a
# non-zero exit, and leaves everything as it was: the crash slot, no
# request pending in the
# jump parameter page, the disk's first MiB, no file left behind.
#
# The disk (300 MiB) holds an ext2 file system (refused without
# --overwrite) and is too small for the worst case of this machine's
# RAM.  On it, files memory must never go into: another user's, one
# reached through a symbolic link, one holding other data.  The cases run with nothing loaded,
# with a crash kernel whose initramfs has no image writer, and with one
# that has it.
#: timeout 150
#: disk 300
#: append crashkernel=64M
#: debian skip kexec --snapshot is ours
. /lib/kjump/common.sh

DISK=/dev/vda

# (synced first: what the kernel still had to write of a mounted file
# system's metadata must not land between two looks and pass for the
# tool's; what the tool itself dirtied is written and seen all the same)
kj_table_state() {
	sync
	echo "crash=$(cat /sys/kernel/kexec_crash_loaded) request-len=$(kj_request_len) disk=$(dd if=$DISK bs=64k count=16 2>/dev/null | md5sum | cut -c1-12) left=$(ls /tmp/hib* /mnt/fs/hib* 2>/dev/null | wc -l)"
}

kj_need_kexec
[ -b $DISK ] || { kj_fail disk "no $DISK"; exit 1; }
mke2fs -q $DISK >/tmp/mkfs.out 2>&1 || { kj_say_lines "mkfs: " /tmp/mkfs.out; kj_fail mkfs "mke2fs failed"; exit 1; }
B=$(kj_b_append)

kj_table <<'TABLE'
nothing-loaded | "$KEXEC" --snapshot=$DISK                 | !0 | ^kexec: --snapshot: nothing loaded
warm-nothing   | "$KEXEC" --warm-up                        | !0 | ^kexec: --warm-up: nothing loaded \(load the image-writing kernel with kexec -p first\)$
warm-with-p    | "$KEXEC" -p --warm-up                     | !0 | ^kexec: options: -p and --warm-up cannot be combined$
both-modes     | "$KEXEC" --snapshot=$DISK --hibernate=$DISK | !0 | ^kexec: options: --snapshot and --hibernate cannot be combined$
with-p         | "$KEXEC" -p --hibernate=$DISK             | !0 | ^kexec: options: -p and --hibernate cannot be combined$
bad-compress   | "$KEXEC" --snapshot=$DISK --compress=lzma | !0 | ^kexec: --compress=lzma: not lz4, zstd or none$
stray-compress | "$KEXEC" -j --compress=zstd               | !0 | ^kexec: --compress: only with --hibernate or --snapshot$
no-image       | "$KEXEC" --image-info=$DISK               | !0 | ^kexec: image-info: /dev/vda: 
TABLE

kj_run_ok load-plain "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio --append="$B" || exit 1
kj_table <<'TABLE'
no-helper      | "$KEXEC" --snapshot=$DISK                 | !0 | ^kexec: --snapshot: the loaded crash kernel has no image writer in its initramfs
warm-no-helper | "$KEXEC" --warm-up                        | !0 | ^kexec: --warm-up: the loaded crash kernel has no image writer in its initramfs
TABLE

kj_load_writer_b load-hib "$B" || exit 1
kj_table <<'TABLE'
missing-dir    | "$KEXEC" --snapshot=/nowhere/at/all/hib.img | !0 | ^kexec: /nowhere/at/all/hib.img: no such directory$
tmpfs-file     | "$KEXEC" --snapshot=/tmp/hib.img          | !0 | ^kexec: /tmp/hib.img: on tmpfs: not on a disk$
char-device    | "$KEXEC" --hibernate=/dev/null            | !0 | ^kexec: /dev/null: a character device
fs-on-disk     | "$KEXEC" --snapshot=$DISK                 | !0 | ^kexec: /dev/vda: holds an ext2/3/4 file system: not overwritten \(--overwrite to use it anyway\)$
too-small      | "$KEXEC" --snapshot=$DISK --overwrite     | !0 | ^kexec: /dev/vda: too small: the image needs [0-9]+ bytes for the worst case, the device has 314572800$
stray-overwrite | "$KEXEC" -j --overwrite                  | !0 | ^kexec: --overwrite: only with --hibernate or --snapshot$
no-room-resume | "$KEXEC" --hibernate=$DISK --resume-reserve=1048576 | !0 | ^kexec: --hibernate: this system uses [0-9]+ MiB, and a resume would have room for 0 MiB \([0-9]+ MiB of RAM less --resume-reserve=1048576\): free memory or hibernate with --drop-caches$
stray-reserve  | "$KEXEC" -j --resume-reserve=64          | !0 | ^kexec: --resume-reserve: only with --hibernate or --snapshot$
stray-plaintext | "$KEXEC" -j --allow-plaintext           | !0 | ^kexec: --allow-plaintext: only with --hibernate or --snapshot$
TABLE

mkdir -p /mnt/fs
mount -t ext2 $DISK /mnt/fs || { kj_fail mount "cannot mount $DISK"; exit 1; }
kj_run_fails mounted '^kexec: /dev/vda: in use: vda \(254:0\) is mounted on /mnt/fs$|^kexec: /dev/vda: (in use|busy)' \
	"$KEXEC" --snapshot=$DISK
kj_run_fails no-space '^kexec: /mnt/fs/hib.img: not enough free space' \
	"$KEXEC" --snapshot=/mnt/fs/hib.img
kj_eq no-file-left "$(ls /mnt/fs/hib.img 2>&1 | grep -c 'No such file')" 1
# files memory must never be written into: another user's (who could
# read it), one through a symbolic link, one holding other data
: >/mnt/fs/other.img && chown 1000:1000 /mnt/fs/other.img && chmod 666 /mnt/fs/other.img
: >/mnt/fs/mine.img && ln -s /mnt/fs/mine.img /mnt/fs/link.img
echo "a thesis" >/mnt/fs/thesis.odt
# (reading them must not write the disk the table checks: no atime)
mount -o remount,noatime /mnt/fs && sync
sums=$(md5sum /mnt/fs/other.img /mnt/fs/mine.img /mnt/fs/thesis.odt | cut -c1-12 | tr '\n' ' ')
kj_table <<'TABLE'
other-owner    | "$KEXEC" --snapshot=/mnt/fs/other.img     | !0 | ^kexec: /mnt/fs/other.img: owned by uid 1000, not by this user: memory is never written into another's file$
symlink        | "$KEXEC" --snapshot=/mnt/fs/link.img      | !0 | ^kexec: /mnt/fs/link.img: a symbolic link to a file: name the file itself$
not-an-image   | "$KEXEC" --hibernate=/mnt/fs/thesis.odt   | !0 | ^kexec: /mnt/fs/thesis.odt: holds data that is not a kexec hibernation image: not overwritten \(--overwrite to use it anyway\)$
TABLE
kj_eq files-untouched "$(md5sum /mnt/fs/other.img /mnt/fs/mine.img /mnt/fs/thesis.odt | cut -c1-12 | tr '\n' ' ')" "$sums"
kj_eq other-mode "$(stat -c '%a %u' /mnt/fs/other.img)" "666 1000"
umount /mnt/fs

# a file on vfat: Linux cannot list its blocks (no FIEMAP); refused
# before the file is made
mkdosfs $DISK >/tmp/mkfs.out 2>&1 && mount -t vfat -o umask=077 $DISK /mnt/fs ||
	{ kj_say_lines "mkdosfs: " /tmp/mkfs.out; kj_fail vfat "cannot make and mount vfat on $DISK"; exit 1; }
kj_run_fails vfat-file '^kexec: /mnt/fs/hib.img: on vfat: Linux.s vfat cannot list a file.s blocks \(no FIEMAP\): use a partition, or a file on ext2/3/4 or xfs$' \
	"$KEXEC" --snapshot=/mnt/fs/hib.img
kj_eq vfat-no-file "$(ls /mnt/fs | wc -l)" 0
umount /mnt/fs

# 60% of RAM in use, no swap, and a resuming kernel that needs 200 MiB
# of its own: it could not hold the image, refused before anything is
# written (with the default 48 MiB the same check refuses at about 90%
# in use; 60% and a larger reserve test it with room to spare)
kj_memfill_pct 60 "$KJ_MARKER$KJ_MARKER" || exit 1
before=$(kj_table_state)
kj_run_fails no-room '^kexec: --hibernate: this system uses [0-9]+ MiB, and a resume would have room for [0-9]+ MiB \([0-9]+ MiB of RAM less --resume-reserve=200\): free memory or hibernate with --drop-caches$' \
	"$KEXEC" --hibernate=$DISK --overwrite --resume-reserve=200
kj_eq no-room-unchanged "$(kj_table_state)" "$before"
kill $mfpid
kj_slot kexec_crash_loaded 1
