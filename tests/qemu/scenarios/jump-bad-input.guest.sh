#!/bin/sh
# jump-bad-input: kexec -j refusals, each a single "kexec: " line, and
# the kernel that refused keeps running.
#
# A: (a) kexec -j with no crash kernel loaded;
#    load B with an explicit kexec_jump_buf_pfn= that points into the
#    crash region (B's own memory; our kexec keeps an explicit one);
#    (b) kexec -j as uid 1000 (tools/runas), with B loaded;
#    (c) kexec -j as root: into B.  A is never resumed.
# B: kexec -j back must be refused (the kernel finds the pfn in its own
#    memory and returns -EINVAL); B reports dmesg and carries on to power
#    off.
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	# (a)
	kj_say "kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
	kj_run empty "$KEXEC" -j
	kj_say "alive after empty: kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"

	crash=$(sed -n 's/^ *\([0-9a-f]*\)-\([0-9a-f]*\) : Crash kernel$/\1 \2/p' /proc/iomem)
	if [ -z "$crash" ]; then
		kj_say "no Crash kernel range in /proc/iomem"
		exit 1
	fi
	set -- $crash
	cs=$((0x$1)) ce=$((0x$2))
	pfn=$(((cs + 0x1000000) / 4096))      # 16 MiB into the region
	kj_say "$(printf 'crash 0x%x-0x%x bad pfn=0x%x at 0x%x' $cs $ce $pfn $((pfn * 4096)))"
	kj_run load "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio.gz \
		--append="$(kj_b_append) $(printf 'kexec_jump_buf_pfn=0x%x' $pfn)" || exit 1
	kj_say "kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"

	# (b)
	kj_run nonroot runas 1000 "$KEXEC" -j
	kj_say "alive after nonroot: kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"

	# (c)
	kj_say "jump"
	"$KEXEC" -j
	kj_say "jump returned rc=$?"
	exit 1
	;;
B)
	kj_say "cmdline: $(cat /proc/cmdline)"
	kj_run back "$KEXEC" -j
	dmesg | grep -E 'kexec_jump_buf_pfn=0x[0-9a-f]+: ' >/tmp/dmesg.out
	while IFS= read -r l; do
		kj_say "dmesg: ${l#\[*\] }"
	done </tmp/dmesg.out
	kj_say "alive after back: uptime=$(cut -d' ' -f1 /proc/uptime)"
	;;
esac
