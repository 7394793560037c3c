#!/bin/sh
# hib-resume: hibernate A to a raw disk, power off, boot again and resume:
# A carries on as if nothing had happened.  Shared by hib-resume-pae (the
# PAE kernel build, NX on) and x86_64-hib-resume (its x86_64 checks are
# below the list).
#
# Boot 1, A: an ext4 file system on /dev/vdb mounted with a file written;
#    memfill's pattern (kjump.resume_pct of MemTotal in use, default 80), a
#    counter loop; B loaded with the image writer; kexec --hibernate to
#    /dev/vda.
# Boot 1, B: asks the host for another boot, then runs the image writer,
#    which commits the image and powers off.
# Boot 2, A': a fresh boot of the same kernel; before mounting anything,
#    kexec --resume=/dev/vda, which must not return.
# Boot 1's A again, in boot 2's QEMU: kexec --hibernate returned 0 and
#    said it resumed; the same shell, the counter advanced, memfill
#    re-verifies every page, the file reads and takes a write, the crash
#    kernel is unloaded, the image is consumed and, in the background,
#    zeroed after its extent list (--image-info says "wiped"), no kernel
#    errors; then A unmounts the file system (the host's e2fsck -fn must
#    find it clean).
# On x86_64, also: A's RAM below 1 MiB has the md5 after the resume that it
#    had before, and B's and A''s differ from it (the trampolines: patch
#    0038 put A's back); A runs at its own KASLR address, A' elsewhere; CPU
#    1 is online and goes off and on 3 times; ftrace_enabled is 1 (0039).
#: timeout 420
#: disk 640
#: fs-disk 64 ext4
#: append crashkernel=64M no_console_suspend
#: debian skip kexec --hibernate is ours
#: mark A.start
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: mark A.end 180
. /lib/kjump/common.sh

DISK=/dev/vda
FS=/dev/vdb
PCT=$(cmdline_word kjump.resume_pct 80)
tag=$KJ_MARKER$KJ_MARKER


starttime() {              # field 22 of /proc/PID/stat: start in jiffies
	sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20
}

case $KJ_STAGE.$KJ_BOOT in
A.1)
	kj_need_kexec
	if [ "$KJ_SCENARIO" = hib-resume-pae ]; then
		# the PAE build (a non-PAE one says so at boot), with NX on
		dmesg >/tmp/dmesg.boot
		kj_true pae-kernel "the kernel says 'L1TF: Kernel not compiled for PAE'" \
			sh -c '! grep -q "L1TF: Kernel not compiled for PAE" /tmp/dmesg.boot'
		kj_true nx-active "no 'NX (Execute Disable) protection: active' at boot" \
			grep -q 'NX (Execute Disable) protection: active' /tmp/dmesg.boot
	fi
	[ -b $DISK ] && [ -b $FS ] || { kj_fail disks "no $DISK or $FS"; exit 1; }
	mkdir -p /mnt/fs
	mount -t ext4 $FS /mnt/fs || { kj_fail mount "cannot mount $FS"; exit 1; }
	echo "before $KJ_MARKER" >/mnt/fs/hello
	sync
	kj_load_writer_b || exit 1
	kj_memfill_pct $PCT "$tag" || exit 1
	kj_counter_start
	st0=$(starttime $$)
	kj_say "MemTotal=${total}kB memfill=${mib}MiB pid=$$"
	if [ "$(uname -m)" = x86_64 ]; then
		# B's trampoline takes A's RAM below 1 MiB while it runs: the
		# host wants A's, B's and A''s md5 of it, and A's and A''s
		# kernel address, all different (differ lowram, differ kaslr)
		low0=$(kj_low_ram_md5)
		aslr0=$(kj_kaslr)
		kj_say "lowram $low0"
		kj_say "kaslr $aslr0"
	fi
	prev=$(cat /tmp/counter)
	kj_handover B "hibernate"
	clock0=$(date +%s)
	kj_run hibernate "$KEXEC" --hibernate=$DISK
	rc=$?
	clock1=$(date +%s)
	# from here on: boot 2's QEMU, after the resume
	kj_eq hibernate "rc=$rc stderr-lines=$(wc -l </tmp/kj.err)" "rc=0 stderr-lines=0"
	kj_match resumed "$(tail -n 1 /tmp/kj.out)" "^$DISK: resumed after a power-off"
	cw=$(kj_counter_wait "$prev")
	kj_eq "back in A" "shell=$$/$(starttime $$) counter ${cw#* } ($(kj_memfill_verify))" \
		"shell=$$/$st0 counter advanced (memfill: verify $PAGES pages: OK)"
	# the clock comes from the RTC: it counts the power-off and A's boot
	kj_true clock "the clock moved $((clock1 - clock0)) s across the power-off" \
		test $((clock1 - clock0)) -ge 3
	kj_eq file-read "$(cat /mnt/fs/hello)" "before $KJ_MARKER"
	echo "after $KJ_MARKER" >>/mnt/fs/hello && sync
	kj_eq file-write "$(tail -n 1 /mnt/fs/hello)" "after $KJ_MARKER"
	kj_eq crash-unloaded "$(cat /sys/kernel/kexec_crash_loaded)" 0
	if [ "$(uname -m)" = x86_64 ]; then
		# A's own low RAM is back (patch 0038): CPU 1 came up through
		# its trampoline in the resume, and does again; ftrace is on
		# again and no "scheduling while atomic" (0039: dmesg-errors)
		kj_eq low-ram-restored "$(kj_low_ram_md5)" "$low0"
		kj_eq kaslr-kept "$(kj_kaslr)" "$aslr0"
		kj_eq cpu1-online "$(cat /sys/devices/system/cpu/cpu1/online)" 1
		kj_cpu_cycle 1 3
		kj_eq ftrace-enabled "$(cat /proc/sys/kernel/ftrace_enabled)" 1
	fi
	# the image's data zeroed behind the resume, its header flagged
	kj_eq image-wiped "$(kj_wait_wiped $DISK)" wiped
	# (its first and last 8 MiB and 8 MiB in the middle: cmp of all of
	# it takes 16 s here)
	bytes=$("$KEXEC" --image-info=$DISK | sed -n 's/^image bytes: \([0-9]*\) (zeroed)$/\1/p')
	mid=$(((69632 + ${bytes:-0}) / 2))
	for at in 69632 $mid $((${bytes:-0} - 8388608)); do
		kj_true "image-zeroed at $at" "8 MiB at byte $at of $DISK (image bytes ${bytes:-?}) not all zero" \
			cmp -s -n 8388608 $DISK /dev/zero $at 0
	done
	# a second resume of the same image is refused, and changes nothing
	kj_run again "$KEXEC" --resume=$DISK
	kj_match resume-twice "rc=$? $(cat /tmp/kj.err)" \
		"^rc=1 kexec: resume: $DISK: already resumed once \\(consumed at [0-9]+\\)\$"
	kj_eq dmesg-errors "$(kj_dmesg_errors)" 0
	kill $cpid $mfpid
	kj_true umount "cannot unmount /mnt/fs" umount /mnt/fs
	;;
B.1)
	[ "$(uname -m)" = x86_64 ] && kj_say "lowram $(kj_low_ram_md5)"
	kj_b_save_and_power_off
	;;
A.2)
	kj_ok "A' booted"
	kj_say "A' MemTotal=$(kj_meminfo MemTotal)kB MemFree=$(kj_meminfo MemFree)kB"
	if [ "$(uname -m)" = x86_64 ]; then
		kj_say "lowram $(kj_low_ram_md5)"
		kj_say "kaslr $(kj_kaslr)"
	fi
	kj_drop_boot_files
	kj_handover A "resume"
	# its progress line to the kernel log: it never returns to be printed
	"$KEXEC" --resume=$DISK >/dev/kmsg 2>/tmp/resume.err
	rc=$?
	kj_say_lines "stderr: " /tmp/resume.err
	kj_fail resume "kexec --resume returned (rc=$rc) instead of resuming"
	;;
*)
	kj_fail stage "stage $KJ_STAGE boot $KJ_BOOT: not in this scenario"
	;;
esac
