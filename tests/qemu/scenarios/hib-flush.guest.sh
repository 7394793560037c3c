#!/bin/sh
# hib-flush: a saving jump leaves no write of A's in a disk's volatile
# cache: the crash kernel, not A, powers the machine off, so A must flush
# every disk itself (patch 0036).  /dev/vdb sits behind QEMU's
# blklogwrites, which logs every write and cache flush the guest issues.
# A writes its first 256 KiB with O_DIRECT (completed: in the disk's
# cache as far as A knows; nothing A runs flushes it), takes a
# --snapshot to /dev/vda (B never touches /dev/vdb), then writes 64 KiB
# at 8 MiB.  The host finds a flush between the two in the log: the one
# the saving jump issued.
#: timeout 200
#: disk 640
#: log-disk 16 16384
#: append crashkernel=64M
#: debian skip kexec --snapshot is ours
#: mark A.start
#: mark B.start 120
#: mark A.end 60
. /lib/kjump/common.sh

DISK=/dev/vda
LOGGED=/dev/vdb

# put WHAT SEEK COUNT: COUNT 64 KiB blocks of the marker at block SEEK
put() {
	yes "$KJ_MARKER" | head -c $(($3 * 65536)) >/tmp/block
	dd if=/tmp/block of=$LOGGED bs=64k seek="$2" oflag=direct 2>/tmp/dd.err
	kj_eq "$1" "rc=$? $(tail -n 1 /tmp/dd.err)" "rc=0 $3+0 records out"
}

case $KJ_STAGE in
A)
	kj_need_kexec
	kj_load_writer_b || exit 1
	put before-jump 0 4
	kj_handover B "snapshot"
	kj_run_ok snapshot "$KEXEC" --snapshot=$DISK || exit 1
	put after-jump 128 1
	;;
B)
	kj_handover A "saved"
	kjump-save --once </dev/null 2>/dev/console
	kj_fail b-end "entered again"
	;;
esac
