#!/bin/sh
# hib-hibernate: kexec --hibernate saves A's image from B, and the machine
# powers off by itself; a second boot finds the image committed and whole.
#
# Boot 1, A: 96 MiB of memfill pattern (from the marker), B loaded with the
#    image writer's initramfs, then kexec --hibernate=/dev/vda, which must
#    not return.
# Boot 1, B: asks the host for another boot, then runs the image writer,
#    which commits the image and powers off (reboot(RB_POWER_OFF) of its
#    own: QEMU exits).
# Boot 2, A: kexec --image-info --verify says committed, mode hibernate,
#    every chunk good; every memfill page of boot 1 is in the image with its
#    content (vmcore-check --image).
# Host, after the run: its own kexec --image-info --verify of the disk.
#: timeout 300
#: disk 640
#: image-verify
#: append crashkernel=64M
#: debian skip kexec --hibernate is ours
#: mark A.start
#: mark B.start 120
#: mark B.reboot 60
#: mark A.start
#: mark A.end 120
. /lib/kjump/common.sh

DISK=/dev/vda
MIB=96
PAGES=$((MIB * 256))
tag=$KJ_MARKER$KJ_MARKER

case $KJ_STAGE.$KJ_BOOT in
A.1)
	kj_need_kexec
	[ -b $DISK ] || { kj_fail disk "no $DISK"; exit 1; }
	kj_load_writer_b || exit 1
	kj_memfill_start $MIB "$tag" || exit 1
	kj_handover B "hibernate"
	kj_run hibernate "$KEXEC" --hibernate=$DISK
	kj_fail hibernate "kexec --hibernate returned (rc=$?) instead of powering off"
	;;
B.1)
	kj_b_save_and_power_off
	;;
A.2)
	kj_run info "$KEXEC" --image-info=$DISK --verify
	kj_eq info-rc "rc=$? stderr-lines=$(wc -l </tmp/kj.err)" "rc=0 stderr-lines=0"
	kj_match info-state "$(grep '^state' /tmp/kj.out)" '^state: committed$'
	kj_match info-mode "$(grep '^mode' /tmp/kj.out)" '^mode: hibernate$'
	kj_match info-verify "$(grep '^verify' /tmp/kj.out)" '^verify: ok'
	kj_true other-boot "the image names this boot" \
		sh -c "! grep -q \"^boot id: $(cat /proc/sys/kernel/random/boot_id)\$\" /tmp/kj.out"
	vmcore-check --image $DISK --find "$tag" $PAGES >/tmp/find.out 2>/tmp/find.err
	rc=$?
	kj_say_lines "" /tmp/find.out
	kj_say_lines "find stderr: " /tmp/find.err
	kj_match image-pattern "rc=$rc $(tail -n 1 /tmp/find.out)" \
		"^rc=0 find tag=$tag pages=$PAGES found=$PAGES dup=0 bad=0 .* result=ok\$"
	;;
*)
	kj_fail stage "stage $KJ_STAGE boot $KJ_BOOT: not in this scenario"
	;;
esac
