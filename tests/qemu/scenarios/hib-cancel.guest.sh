#!/bin/sh
# hib-cancel: first, with /dev/snapshot held open in A, kexec --snapshot is
# refused by the kernel (one "kexec: jump: ..." line, no request left).
# Then a cancel in B (SIGTERM to the image writer while it writes)
# stops the save; the writer marks the image invalid and jumps back.  In
# A, kexec --snapshot exits non-zero with one "kexec: ... cancelled" line,
# A carries on with its memory intact, and the image is refused.
#
# B starts kjump-save in the background and sends the signal once the
# writer's first progress line is in its log (polled, with a deadline of
# monotime, not a sleep).  zstd, the slowest compressor, keeps the save
# going for several seconds, well past the first progress line (2 s).
#: timeout 300
#: disk 640
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
	# while /dev/snapshot is open (uswsusp), the kernel refuses the jump
	# that would save, as it refuses hibernate(); nothing is left pending
	exec 7</dev/snapshot || { kj_fail snapshot-dev "cannot open /dev/snapshot"; exit 1; }
	kj_run_fails snapshot-dev-busy '^kexec: jump: .*/dev/snapshot open' "$KEXEC" --snapshot=$DISK
	exec 7<&-
	kj_eq snapshot-dev-no-request "$(kj_request_len)" 0
	st0=$(starttime $$)
	kj_handover B "snapshot"
	kj_run snap "$KEXEC" --snapshot=$DISK --compress=zstd
	kj_judge snap-cancelled '!0' '^kexec: --snapshot: cancelled: '
	kj_eq "back in A" "shell=$$/$(starttime $$) ($(kj_memfill_verify)) crash=$(cat /sys/kernel/kexec_crash_loaded)" \
		"shell=$$/$st0 (memfill: verify $PAGES pages: OK) crash=1"
	kj_run_fails image-invalid '^kexec: image-info: /dev/vda: .*(invalid|not committed)' \
		"$KEXEC" --image-info=$DISK
	kill $mfpid
	;;
B)
	kjump-save --once </dev/null 2>/tmp/save.err &
	pid=$!
	deadline=$(($(monotime) + 60000000))
	while ! grep -q '^kjump-save: [0-9]*%' /tmp/save.err && [ "$(monotime)" -lt $deadline ]; do
		kill -0 $pid 2>/dev/null || break
	done
	kj_say_lines "writer: " /tmp/save.err
	if grep -q '^kjump-save: [0-9]*%' /tmp/save.err; then
		kj_handover A "cancel"
		kill -TERM $pid
		wait $pid
		kj_fail cancel "the writer ended with status $? instead of jumping back"
	else
		kj_fail progress "no progress line from the writer in 60 s"
	fi
	;;
esac
