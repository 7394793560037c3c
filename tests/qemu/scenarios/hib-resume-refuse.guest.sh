#!/bin/sh
# hib-resume-refuse: every image a resume must not restore is refused with
# its reason, the boot continues to a shell, and nothing else changes.
#
# Boot 1, A: an ext4 file system on /dev/vdb mounted with a file, a small
#    memfill pattern; B loaded with the image writer; kexec --hibernate.
# Boot 1, B: asks for another boot; the writer commits and powers off.
# Boot 2, A' with 640 MiB instead of 512: "another RAM map".
# Boot 3, A' on another kernel build (the PAE one; x86_64-nokjump for
#    x86_64-hib-resume-refuse): "another kernel".
# Boot 4, A' with crashkernel=32M: "another crash region".
# Boot 5, A':
#    all but 24 MiB of the free memory taken: "the restore needs N MiB of
#    free memory"; then
#    a byte of the first chunk's data flipped: "corrupt: chunk 0", then put
#    back; a byte of the runs, the swsusp header block and A's RAM map
#    each flipped: refused by its checksum, then put back; the commit record zeroed (a cut image): "no commit record",
#    then put back; the ext4 file system mounted, a file touched,
#    unmounted: "changed since the hibernation" (and, mounted read-only while --resume
#    runs: "mounted or in use in this boot"); then the boot hook
#    (kjump-resume) refuses it the same way and makes it never resumable,
#    as a boot that goes on must: "invalid: invalidated by kexec
#    --invalidate", and a second --invalidate finds nothing to do.
# Boot 4 also runs the boot hook with kjump.keep_image on the command
#    line: the image is kept (exit status 2).
# After each refusal: exit status 1, one "kexec: resume: /dev/vda:" line,
# the image still committed and whole (--image-info --verify), the file
# system untouched by the tool; the host's e2fsck -fn finds the ext4 disk
# clean after the run.
#: timeout 600
#: disk 640
#: fs-disk 64 ext4
#: append crashkernel=64M
#: boot 2 memory 640
#: boot 3 config pae
#: boot 4 append crashkernel=32M kjump.keep_image
#: debian skip kexec --resume is ours
#: mark A.start
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: mark A.reboot 60
#: mark A.start
#: mark A.reboot 60
#: mark A.start
#: mark A.reboot 60
#: mark A.start
#: mark A.end 120
. /lib/kjump/common.sh

DISK=/dev/vda
FS=/dev/vdb
MIB=32

info() {                   # info KEY: the value of --image-info's KEY line
	"$KEXEC" --image-info=$DISK 2>/dev/null | sed -n "s/^$1: //p"
}

# refused WHAT ERE: kj_resume_refused of the image disk
refused() {
	kj_resume_refused $DISK "$@"
}

# byte_at OFF / put_byte OFF BYTE (octal value): one byte of the disk
byte_at() {
	dd if=$DISK bs=1 skip="$1" count=1 2>/dev/null | od -An -to1 | tr -d ' '
}
put_byte() {
	printf "\\$2" | dd of=$DISK bs=1 seek="$1" conv=notrunc,fsync 2>/dev/null
}

# flip_table WHAT TABLE WHY: one byte of TABLE (as --image-info's
# "tables:" line names it) flipped: --resume refuses with WHY; put back
flip_table() {
	_off=$(info tables | sed -n "s/.*$2 at byte \([0-9]*\).*/\1/p")
	_off=$((_off + 1))
	_old=$(byte_at $_off)
	put_byte $_off "$(printf '%03o' $((0$_old ^ 01)))"
	"$KEXEC" --resume=$DISK >/tmp/r.out 2>/tmp/r.err
	kj_eq "flipped-$1" "rc=$? $(cat /tmp/r.err)" "rc=1 kexec: resume: $DISK: $3"
	put_byte $_off "$_old"
}

case $KJ_STAGE.$KJ_BOOT in
A.1)
	kj_need_kexec
	[ -b $DISK ] && [ -b $FS ] || { kj_fail disks "no $DISK or $FS"; exit 1; }
	mkdir -p /mnt/fs
	mount -t ext4 $FS /mnt/fs || { kj_fail mount "cannot mount $FS"; exit 1; }
	echo "before $KJ_MARKER" >/mnt/fs/hello
	sync
	kj_load_writer_b || exit 1
	kj_memfill_start $MIB "$KJ_MARKER$KJ_MARKER" || exit 1
	kj_handover B "hibernate"
	kj_run hibernate "$KEXEC" --hibernate=$DISK
	kj_fail hibernate "kexec --hibernate returned (rc=$?) instead of powering off"
	;;
B.1)
	kj_b_save_and_power_off
	;;
A.2)
	kj_eq memory "$(($(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo) > 524288))" 1
	refused ram-map 'another RAM map: image [0-9]+ ranges, [0-9]+ MiB, running [0-9]+ ranges, [0-9]+ MiB'
	kj_reboot_host
	;;
A.3)
	refused kernel-build 'another kernel( build)?: '
	kj_reboot_host
	;;
A.4)
	kj_match crashkernel "$(cat /proc/cmdline)" 'crashkernel=32M'
	refused crash-region 'another crash region: image 64 MiB, running 32 MiB'
	# the boot hook, told to keep the image (kjump.keep_image): kept
	env KEXEC="$KEXEC" kjump-resume $DISK >/tmp/h.out 2>/tmp/h.err
	kj_eq hook-keep "rc=$? $(tail -n 1 /tmp/h.err)" \
		"rc=2 kjump-resume: $DISK: kept (kjump.keep_image): mount nothing of the saved system read-write in this boot"
	kj_match hook-keep-kept "$(info state)" '^committed$'
	kj_reboot_host
	;;
A.5)
	# too little free memory in this boot for the restore (all but 24
	# MiB held by memfill; the image holds more): refused before the
	# kernel would run out half-way
	kj_memfill_start $(($(kj_meminfo MemFree) / 1024 - 24)) "$KJ_MARKER$KJ_MARKER" || exit 1
	refused no-room 'the restore needs [0-9]+ MiB of free memory, and this boot has [0-9]+ MiB free \(keep less in this initramfs, or hibernate with a larger --resume-reserve\)'
	kill $mfpid
	wait $mfpid 2>/dev/null

	# a corrupt chunk: one byte of chunk 0's stored data
	off=$(($(info chunks | sed 's/.*at byte //') + 48 + 100))
	old=$(byte_at $off)
	put_byte $off "$(printf '%03o' $((0$old ^ 0100)))"
	"$KEXEC" --resume=$DISK >/tmp/r.out 2>/tmp/r.err
	kj_match corrupt "rc=$? $(cat /tmp/r.err)" \
		"^rc=1 kexec: resume: $DISK: corrupt: chunk 0: "
	put_byte $off "$old"
	kj_eq corrupt-byte-back "$(byte_at $off)" "$old"
	"$KEXEC" --image-info=$DISK --verify >/tmp/v.out 2>&1
	kj_match corrupt-kept "$(grep -E '^(state|verify):' /tmp/v.out | tr '\n' ' ')" \
		'^state: committed verify: ok'

	# a flipped byte in each table the pages' placement depends on:
	# refused by its checksum, then put back
	flip_table runs 'runs' "the runs' checksum is wrong"
	flip_table swsusp 'swsusp header' "the swsusp header's checksum is wrong"
	flip_table sections 'RAM map' "the checksum of A's RAM map and file systems is wrong"

	# a cut image: its commit record, the last block, gone
	commit=$(($(info 'image bytes') - 4096))
	dd if=$DISK of=/tmp/commit bs=4096 skip=$((commit / 4096)) count=1 2>/dev/null
	dd if=/dev/zero of=$DISK bs=4096 seek=$((commit / 4096)) count=1 conv=notrunc,fsync 2>/dev/null
	"$KEXEC" --resume=$DISK >/tmp/r.out 2>/tmp/r.err
	kj_match torn "rc=$? $(cat /tmp/r.err)" \
		"^rc=1 kexec: resume: $DISK: no commit record"
	dd if=/tmp/commit of=$DISK bs=4096 seek=$((commit / 4096)) count=1 conv=notrunc,fsync 2>/dev/null
	"$KEXEC" --image-info=$DISK --verify >/tmp/v.out 2>&1
	kj_match torn-kept "$(grep -E '^(state|verify):' /tmp/v.out | tr '\n' ' ')" \
		'^state: committed verify: ok'

	# the file system A had mounted, mounted in this boot (read-only):
	# refused while it is, whatever a superblock says (A' holds A's
	# devices O_EXCL until the restore)
	mkdir -p /mnt/fs
	mount -t ext4 -o ro,noload $FS /mnt/fs
	refused mounted-now '/mnt/fs \([0-9]+:[0-9]+, ext4\): mounted or in use in this boot: resume before anything mounts it'
	umount /mnt/fs

	# the file system A had mounted, mounted and touched in between
	mount -t ext4 $FS /mnt/fs && touch /mnt/fs/touched && umount /mnt/fs
	kj_ok "mounted and touched $FS"
	refused fs-changed '/mnt/fs \(ext4\): changed since the hibernation: its (superblock|journal) differs: it was mounted or written in between$'

	# the boot hook: the refusal, then never resumable again
	kj_run hook env KEXEC="$KEXEC" kjump-resume $DISK
	kj_match hook "rc=$kj_rc err=$kj_nerr $(head -n 1 /tmp/kj.err) $(cat /tmp/kj.out)" \
		"^rc=0 err=1 kexec: resume: $DISK: /mnt/fs \\(ext4\\): changed since the hibernation: .* invalidate: $DISK: invalidated: it will never be resumed\$"
	"$KEXEC" --resume=$DISK >/tmp/r.out 2>/tmp/r.err
	kj_match invalidated "rc=$? $(cat /tmp/r.err)" \
		"^rc=1 kexec: resume: $DISK: invalid: invalidated by kexec --invalidate"
	kj_run invalidate-again "$KEXEC" --invalidate=$DISK
	kj_match invalidate-again "rc=$kj_rc $(cat /tmp/kj.out)" \
		"^rc=0 invalidate: $DISK: not resumable already\$"
	;;
*)
	kj_fail stage "stage $KJ_STAGE boot $KJ_BOOT: not in this scenario"
	;;
esac
