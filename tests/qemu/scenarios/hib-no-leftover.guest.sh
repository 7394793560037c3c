#!/bin/sh
# hib-no-leftover: a hibernation that fails, or whose crash kernel comes
# back instead of powering off, and a snapshot, leave nothing that a later
# jump or boot could resume or write through.
#
# Boot 1, A (256 MiB; /dev/vda raw, /dev/vdb an ext4 of 4 KiB blocks):
#  0. B loaded with the writer but --no-jump: a request of another user of
#     the page (kexec -j keeps it), and kexec -j fails (ENOEXEC): the
#     kernel has dropped the request.
#  1. --hibernate to a new file on
#     the ext4 fails in the jump (ENOEXEC): one line, exit 1, no request
#     left in the jump parameter page, no file left.
#  2. The same to /dev/vda: block 0 is prepared, then made invalid ("the
#     hibernation failed before the jump").
#  3. B loaded for a jump, a request planted in the page by hand; kexec -j
#     withdraws it (one warning) and B finds no request; /dev/vda is as
#     step 2 left it.
#  4. --hibernate=/dev/vda, B's writer with --no-power-off: it commits,
#     then makes the image invalid and jumps back: A exits 1 ("came back"),
#     the image reads invalid, "its kernel came back ... and ran on".
#  5. --snapshot=/dev/vda: state snapshot, "resumable: no"; a file written
#     on the ext4 after it; the host boots again.
# Boot 2, A': --resume=/dev/vda refuses the snapshot; --invalidate says it
#  was not resumable already; --resume of a file refuses a file (only the
#  raw device, with the file system unmounted, is safe); the host's
#  e2fsck -fn finds the ext4 clean.
#: timeout 600
#: disk 320
#: fs-disk 640 ext4
#: memory 256
#: append crashkernel=64M
#: debian skip kexec --hibernate is ours
#: mark A.start
#: mark B.start 120
#: mark A.reboot 180
#: mark A.start
#: mark A.end 60
. /lib/kjump/common.sh

DISK=/dev/vda
FS=/dev/vdb
B_LINE=

disk_sum() {
	dd if=$DISK bs=64k count=16 2>/dev/null | md5sum | cut -c1-12
}

# one_line WHAT RC ERE: kj_run's last command exited RC with one stderr
# line matching ERE
one_line() {
	kj_match "$1" "rc=$kj_rc lines=$kj_nerr $(head -n 1 /tmp/kj.err)" \
		"^rc=$2 lines=1 $3"
}

info_state() {
	"$KEXEC" --image-info=$DISK 2>&1 | head -n 2 | tr '\n' ' '
}

case $KJ_STAGE.$KJ_BOOT in
A.1)
	kj_need_kexec
	mkdir -p /mnt/fs
	mount -t ext4 $FS /mnt/fs || { kj_fail mount "cannot mount $FS"; exit 1; }
	B_LINE=$(kj_b_append)

	# 1, 2: the jump fails after the target was prepared
	kj_run_ok load-no-jump "$KEXEC" -p /boot/bzImage --no-jump \
		--initrd=/boot/initrd-b-hib.cpio --append="$B_LINE" || exit 1
	# the kernel drops a request whose jump fails (patch 0035): one of
	# another user of the page, which kexec -j leaves alone
	printf 'kjump-test-request 1\n' >/sys/kernel/kexec_jump_request
	kj_run jump-fails "$KEXEC" -j
	one_line jump-fails 1 'kexec: jump: the crash kernel was not loaded for a jump'
	kj_eq jump-fails-no-request "$(kj_request_len)" 0
	kj_run file-fails "$KEXEC" --hibernate=/mnt/fs/new.img
	one_line file-fails 1 'kexec: jump: the crash kernel was not loaded for a jump'
	kj_eq file-no-request "$(kj_request_len)" 0
	kj_eq file-gone "$(ls /mnt/fs | grep -c new.img)" 0
	kj_run dev-fails "$KEXEC" --hibernate=$DISK
	one_line dev-fails 1 'kexec: jump: the crash kernel was not loaded for a jump'
	kj_eq dev-no-request "$(kj_request_len)" 0
	kj_match dev-invalid "$(info_state)" \
		"^kexec: image-info: $DISK: not committed \\(state invalid\\): the hibernation failed before the jump"
	before=$(disk_sum)

	# 3: a plain jump with a request left behind
	kj_run_ok unload "$KEXEC" -p -u || exit 1
	kj_load_writer_b load "$B_LINE" || exit 1
	# what a --hibernate killed before its jump leaves (nonce and all)
	printf 'kjump-hibernate-request 1\nmode=hibernate\ndev=254:0\ndev-size=335544320\noffset=0\ncapacity=335544320\nnonce=000102030405060708090a0b0c0d0e0f\ncompress=lz4\nlevel=0\nthreads=0\ncreated=1\n' \
		>/sys/kernel/kexec_jump_request
	kj_eq planted "$(($(kj_request_len) > 0))" 1
	kj_handover B "plain jump"
	kj_run plain-jump "$KEXEC" -j
	one_line plain-jump 0 'kexec: warning: jump: withdrew a hibernation request'
	kj_eq plain-no-request "$(kj_request_len)" 0
	kj_eq plain-disk "$(disk_sum)" "$before"

	# 4: the writer comes back instead of powering off
	kj_handover B "hibernate, no power-off"
	kj_run came-back "$KEXEC" --hibernate=$DISK
	one_line came-back 1 'kexec: --hibernate: the image writer failed: --no-power-off; the image is made invalid'
	kj_match came-back-invalid "$(info_state)" \
		"^kexec: image-info: $DISK: not committed \\(state invalid\\): its kernel came back from the crash kernel and ran on"

	# 5: a snapshot, then the disks go on without it
	kj_handover B "snapshot"
	kj_run_ok snapshot "$KEXEC" --snapshot=$DISK || exit 1
	kj_match snapshot-state "$(info_state)" \
		'^state: snapshot resumable: no \(a snapshot'
	echo "after the snapshot $KJ_MARKER" >/mnt/fs/later
	sync
	umount /mnt/fs
	kj_reboot_host
	;;
B.1)
	kjump-save --once </dev/null 2>/tmp/s.err
	kj_eq b-no-request "rc=$? $(cat /tmp/s.err)" "rc=3 kjump-save: no hibernation request"
	kj_handover A "nothing to save"
	"$KEXEC" -j
	# entered again: the hibernation; kjump-save returns at the next entry
	kj_handover A "saved, invalidated, not powered off"
	kjump-save --once --no-power-off </dev/null 2>/dev/console
	kj_handover A "snapshot saved"
	kjump-save --once </dev/null 2>/dev/console
	kj_fail b-end "entered once more than the scenario jumps"
	;;
A.2)
	kj_run resume-snapshot "$KEXEC" --resume=$DISK
	one_line resume-snapshot 1 \
		"kexec: resume: $DISK: a snapshot: its kernel ran on after the save, so it is never resumed"
	kj_run invalidate-snapshot "$KEXEC" --invalidate=$DISK
	kj_match invalidate-snapshot \
		"rc=$kj_rc err=$kj_nerr $(cat /tmp/kj.out)" \
		"^rc=0 err=0 invalidate: $DISK: not resumable already\$"
	kj_match still-snapshot "$(info_state)" '^state: snapshot '
	mkdir -p /mnt/fs
	mount -t ext4 -o ro $FS /mnt/fs || { kj_fail mount "cannot mount $FS"; exit 1; }
	kj_eq fs-later "$(cat /mnt/fs/later)" "after the snapshot $KJ_MARKER"
	kj_run resume-file "$KEXEC" --resume=/mnt/fs/later
	one_line resume-file 1 \
		'kexec: resume: /mnt/fs/later: a file: give the block device that holds it and --resume-offset'
	umount /mnt/fs
	;;
*)
	kj_fail stage "stage $KJ_STAGE boot $KJ_BOOT: not in this scenario"
	;;
esac
