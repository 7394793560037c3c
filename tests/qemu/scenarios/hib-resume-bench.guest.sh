#!/bin/sh
# hib-resume-bench: kexec hibernation against swsusp, in one run of one
# guest and kernel (make bench prints the table, tests/qemu/bench.sh;
# make check runs it too, so the numbers are always there to read).
#
# /dev/vda gets two partitions: vda1 for our image, vda2 (768 MiB) swap
# for swsusp, which every boot's resume=/dev/vda2 points at.  In one life
# of A, with memfill's pattern (not locked, so that swsusp may swap it)
# filling PCT% of MemTotal:
#   ours-40, ours-80     kexec --hibernate=/dev/vda1, power-off, and in the
#                        next boot kexec --resume=/dev/vda1 from A'
#   ours-40-warm, ours-80-warm  the same after kexec --warm-up (B booted
#                        beforehand: the hibernate does not wait for it)
#   ours-80-none         ours-80-warm with --compress=none (a resume
#                        without decompression)
#   swsusp-40, swsusp-80 swapon /dev/vda2, echo disk > /sys/power/state
#                        (/sys/power/disk = shutdown), and the next boot's
#                        kernel restores it itself (resume=)
#   swsusp-80-noswap     the same with swap off: swsusp must fail (ENOMEM)
# After each resume: "KJ A: bench NAME resumed ..." at once (A's shell
# answers), then memfill verifies every page, "KJ A: bench NAME verified".
# The host clock comes from the steps file: command (the console mark
# before it) to QEMU's exit; QEMU start to "resumed"; to "verified".
#: timeout 900
#: disk 1600
#: append crashkernel=64M resume=/dev/vda2 no_console_suspend
#: debian skip kexec --hibernate is ours
#: mark A.start
#: console 300 KJ A: bench ours-40 hibernate
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: console 120 KJ A: bench ours-40 resumed
#: console 120 KJ A: bench ours-40 verified
#: console 300 KJ A: bench ours-80 hibernate
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: console 120 KJ A: bench ours-80 resumed
#: console 120 KJ A: bench ours-80 verified
#: console 300 KJ A: bench ours-40-warm warm-up
#: mark B.start 120
#: console 120 KJ A: bench ours-40-warm warmed
#: console 120 KJ A: bench ours-40-warm hibernate
#: mark A.reboot 120
#: mark A.start
#: console 120 KJ A: bench ours-40-warm resumed
#: console 120 KJ A: bench ours-40-warm verified
#: console 300 KJ A: bench ours-80-warm warm-up
#: mark B.start 120
#: console 120 KJ A: bench ours-80-warm warmed
#: console 120 KJ A: bench ours-80-warm hibernate
#: mark A.reboot 120
#: mark A.start
#: console 120 KJ A: bench ours-80-warm resumed
#: console 120 KJ A: bench ours-80-warm verified
#: console 300 KJ A: bench ours-80-none warm-up
#: mark B.start 120
#: console 120 KJ A: bench ours-80-none warmed
#: console 120 KJ A: bench ours-80-none hibernate
#: mark A.reboot 120
#: mark A.start
#: console 120 KJ A: bench ours-80-none resumed
#: console 120 KJ A: bench ours-80-none verified
#: console 300 KJ A: bench swsusp-40 hibernate
#: mark A.reboot 120
#: console 120 KJ A: bench swsusp-40 resumed
#: console 120 KJ A: bench swsusp-40 verified
#: console 300 KJ A: bench swsusp-80 hibernate
#: mark A.reboot 120
#: console 120 KJ A: bench swsusp-80 resumed
#: console 120 KJ A: bench swsusp-80 verified
#: console 300 KJ A: bench swsusp-80-noswap failed
#: mark A.end 120
. /lib/kjump/common.sh

DISK=/dev/vda
PART=/dev/vda1
SWAP=/dev/vda2
tag=$KJ_MARKER$KJ_MARKER
export MEMFILL_NOLOCK=1

# fill PCT% of MemTotal in all (a fresh pattern)
fill() {
	[ -n "${mfpid:-}" ] && kill $mfpid && wait $mfpid 2>/dev/null
	kj_memfill_pct $1 "$tag" || exit 1
}

swapped() {                # MiB of swap in use
	echo $((($(kj_meminfo SwapTotal) - $(kj_meminfo SwapFree)) / 1024))
}

# after a resume: A's shell answers, then every page is checked
after() {                  # after NAME
	kj_say "bench $1 resumed swapped=$(swapped)MiB"
	kj_eq "$1 verify" "$(kj_memfill_verify)" "memfill: verify $PAGES pages: OK"
	kj_say "bench $1 verified swapped=$(swapped)MiB"
	kj_eq "$1 dmesg-errors" "$(kj_dmesg_errors)" 0
}

# ours NAME PCT [warm [COMPRESS]]: B boots in the hibernate (it asks for
# the next boot), or with warm it boots before, in kexec --warm-up, and
# waits in kjump-save; the hibernate enters it again, so A asks itself.
ours() {
	fill $2
	_b=$(kj_b_append)
	[ "${3:-}" = warm ] && _b="$_b kjump.warm=1"
	kj_load_writer_b "load $1" "$_b" || exit 1
	if [ "${3:-}" = warm ]; then
		kj_say "bench $1 warm-up"
		kj_handover B "warm-up $1"
		kj_run_ok "warm-up $1" "$KEXEC" --warm-up || exit 1
		kj_match "$1 warmed" "$(cat /tmp/kj.out)" \
			'^warm-up: the image writer is ready; --hibernate and --snapshot start at once now$'
		kj_say "bench $1 warmed"
		kj_say "bench $1 hibernate pages=$PAGES"
		kj_say "reboot-host boot=$KJ_BOOT rc=0 checks=$(kj_count ok) failed=$(kj_count fail) marker=$KJ_MARKER"
	else
		kj_say "bench $1 hibernate pages=$PAGES"
		kj_handover B "hibernate $1"
	fi
	kj_run "hibernate $1" "$KEXEC" --hibernate=$PART --compress=${4:-lz4}
	rc=$?
	KJ_BOOT=$((KJ_BOOT + 1))
	export KJ_BOOT
	after $1
	kj_say "bench $1 image $(head -n 1 /tmp/kj.out)"
	kj_eq "$1 rc" "rc=$rc $(tail -n 1 /tmp/kj.out | cut -d';' -f1)" \
		"rc=0 $PART: resumed after a power-off"
}

swsusp() {                 # swsusp NAME PCT
	fill $2
	kj_say "bench $1 hibernate pages=$PAGES"
	# init cannot say it: the machine powers off in the echo
	kj_say "reboot-host boot=$KJ_BOOT rc=0 checks=$(kj_count ok) failed=$(kj_count fail) marker=$KJ_MARKER"
	echo disk >/sys/power/state
	rc=$?
	KJ_BOOT=$((KJ_BOOT + 1))
	export KJ_BOOT
	after $1
	kj_eq "$1 rc" "rc=$rc" "rc=0"
}

case $KJ_STAGE in
A)
	if [ "$KJ_BOOT" != 1 ]; then
		kj_drop_boot_files
		kj_handover A "resume"
		"$KEXEC" --resume=$PART >/dev/kmsg 2>/tmp/r.err
		rc=$?
		kj_say_lines "stderr: " /tmp/r.err
		kj_fail resume "kexec --resume returned (rc=$rc) instead of resuming"
		exit 1
	fi
	kj_need_kexec
	# vda1: 640 MiB from sector 2048; vda2: 768 MiB of swap after it
	kj_mbr $DISK 2048 $((640 * 2048)) 203 $((2048 + 640 * 2048)) $((768 * 2048)) 202
	kj_true partitions "no $PART or $SWAP ($(tr '\n' ' ' </tmp/pt.err))" test -b $PART -a -b $SWAP
	kj_true mkswap "mkswap $SWAP failed" mkswap $SWAP
	# the kernel looked for resume=/dev/vda2 at boot, before it existed
	kj_true resume-dev "cannot set /sys/power/resume" \
		sh -c "echo $(cat /sys/class/block/vda2/dev) >/sys/power/resume"
	echo shutdown >/sys/power/disk
	ours ours-40 40
	ours ours-80 80
	ours ours-40-warm 40 warm
	ours ours-80-warm 80 warm
	ours ours-80-none 80 warm none
	kj_true swapon "swapon $SWAP failed" swapon $SWAP
	swsusp swsusp-40 40
	swsusp swsusp-80 80
	# memfill first: swapoff need not read its pages back in
	kill $mfpid && wait $mfpid 2>/dev/null
	mfpid=
	kj_true swapoff "swapoff $SWAP failed" swapoff $SWAP
	fill 80
	echo disk >/sys/power/state 2>/tmp/noswap.err
	rc=$?
	kj_say "bench swsusp-80-noswap failed rc=$rc $(cat /tmp/noswap.err)"
	kj_eq "swsusp without swap refused" "rc=$rc" "rc=1"
	kj_eq "still here" "$(kj_memfill_verify)" "memfill: verify $PAGES pages: OK"
	kill $mfpid
	;;
B)
	if [ "$(cmdline_word kjump.warm 0)" = 1 ]; then
		kj_ok "B entered for a warm-up"
		# answers the warm-up, jumps back, saves when entered again
		kjump-save </dev/null 2>/dev/console
		kj_fail kjump-save "returned with status $? instead of powering off"
		exit 1
	fi
	kj_b_save_and_power_off
	;;
esac
