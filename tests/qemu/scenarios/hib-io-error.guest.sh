#!/bin/sh
# hib-io-error: a write error in B (QEMU fails every write that covers
# sector 307200 of the disk, at 150 MiB) stops the image writer; it marks
# the image invalid and jumps back with the reason.  In A, kexec --snapshot
# exits non-zero with one "kexec: " line naming the I/O error; A carries on
# (same shell, memfill re-verifies, counter runs), the request is gone, the
# crash kernel is still loaded, and the image on the disk is not
# committed: kexec --image-info refuses it.
#: timeout 300
#: disk 640
#: disk-fault 307200
#: append crashkernel=64M
#: debian skip kexec --snapshot is ours
#: mark A.start
#: mark B.start 120
#: mark A.end
. /lib/kjump/common.sh

DISK=/dev/vda
MIB=300
PAGES=$((MIB * 256))
tag=$KJ_MARKER$KJ_MARKER

case $KJ_STAGE in
A)
	kj_need_kexec
	kj_load_writer_b || exit 1
	kj_memfill_start $MIB "$tag" || exit 1
	kj_counter_start
	st0=$(starttime $$)
	prev=$(cat /tmp/counter)
	kj_handover B "snapshot"
	kj_run snap "$KEXEC" --snapshot=$DISK
	kj_judge snap-fails '!0' '^kexec: --snapshot: the image writer failed: .*(I/O error|Input/output error)'
	cw=$(kj_counter_wait "$prev")
	kj_eq "back in A" "shell=$$/$(starttime $$) counter ${cw#* } ($(kj_memfill_verify)) crash=$(cat /sys/kernel/kexec_crash_loaded)" \
		"shell=$$/$st0 counter advanced (memfill: verify $PAGES pages: OK) crash=1"
	kj_eq request-cleared "$(kj_request_len)" 0
	kj_run_fails image-invalid '^kexec: image-info: /dev/vda: .*(invalid|not committed)' \
		"$KEXEC" --image-info=$DISK
	kill $cpid $mfpid
	;;
B)
	kj_handover A "write failed"
	kjump-save --once </dev/null 2>/dev/console
	kj_fail kjump-save "returned with status $? instead of jumping back"
	;;
esac
