#!/bin/sh
# jump-bad-input: kexec -j refusals, each a single "kexec: " line, and
# the kernel that refused keeps running.  Ours only.
#
# A: (a) kexec -j with no crash kernel loaded;
#    load B with an explicit kexec_jump_buf_pfn= that points into the
#    crash region (B's own memory; our kexec keeps an explicit one and
#    adds no second one);
#    (b) kexec -j as uid 1000 (tools/runas), with B loaded;
#    (c) kexec -j as root: into B.  A is never resumed.
# B: exactly one kexec_jump_buf_pfn= on its command line, the one from
#    --append; kexec -j back must be refused (the kernel finds the pfn in
#    its own memory and returns -EINVAL, and says so in dmesg); B carries
#    on; with kernel.kexec_load_disabled=1 the jump back is refused with
#    EPERM (patch 0017); B ends the run.
#: timeout 150
#: append crashkernel=64M
#: debian skip kexec -j is ours
#: mark A.start
#: mark B.start 90
#: mark B.end 60
. /lib/kjump/common.sh

kj_table_state() {
	echo "kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
}

case $KJ_STAGE in
A)
	kj_need_kexec
	# (a)
	kj_eq empty "$(kj_table_state)" kexec_crash_loaded=0
	kj_table <<'TABLE'
empty | "$KEXEC" -j | 1 | ^kexec: jump: nothing loaded
TABLE

	crash=$(sed -n 's/^ *\([0-9a-f]*\)-\([0-9a-f]*\) : Crash kernel$/\1 \2/p' /proc/iomem)
	if [ -z "$crash" ]; then
		kj_fail crash-region "no Crash kernel range in /proc/iomem"
		exit 1
	fi
	set -- $crash
	cs=$((0x$1)) ce=$((0x$2))
	pfn=$(((cs + 0x1000000) / 4096))      # 16 MiB into the region
	kj_say "$(printf 'crash 0x%x-0x%x bad pfn=0x%x at 0x%x' $cs $ce $pfn $((pfn * 4096)))"
	kj_run_ok load "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) $(printf 'kexec_jump_buf_pfn=0x%x' $pfn)" || exit 1
	kj_eq load "$(kj_table_state)" kexec_crash_loaded=1

	# (b)
	kj_table <<'TABLE'
nonroot | runas 1000 "$KEXEC" -j | 1 | ^kexec: jump: not permitted
TABLE

	# (c)
	kj_handover B
	"$KEXEC" -j
	kj_fail jump "kexec -j returned (exit status $?)"
	exit 1
	;;
B)
	cl=$(cat /proc/cmdline)
	kj_say "cmdline: $cl"
	# exactly one kexec_jump_buf_pfn=, the one from --append
	kj_match cmdline "$cl" "(^| )kjump\\.marker=$KJ_MARKER kexec_jump_buf_pfn=(0x[0-9a-f]+) (.* )?elfcorehdr=[^ ]+ (.* )?kexec_backup=[^ ]+( |\$)"
	kj_eq jump-buf-words "$(echo "$cl" | tr ' ' '\n' | grep -c '^kexec_jump_buf_pfn=')" 1
	kj_table <<'TABLE'
back | "$KEXEC" -j | 1 | ^kexec: jump: the kernel refused to jump back
TABLE
	kj_true dmesg-names-pfn "dmesg lacks 'kexec_jump_buf_pfn=0x...: in this kernel's own memory'" \
		sh -c "dmesg | grep -Eq \"kexec_jump_buf_pfn=0x[0-9a-f]+: in this kernel's own memory\\\$\""
	kj_match alive-after-back "$(cut -d' ' -f1 /proc/uptime)" '^[0-9.]+$'
	# back is refused where a load would be (patch 0017), before the pfn
	# is looked at; last: the sysctl stays set until reboot
	kj_true sysctl "cannot set kernel.kexec_load_disabled" \
		sh -c 'echo 1 >/proc/sys/kernel/kexec_load_disabled'
	kj_table <<'TABLE'
back-disabled | "$KEXEC" -j | 1 | ^kexec: jump: refused: sysctl kernel\.kexec_load_disabled=1 forbids jumps as it does loads \(it stays set until reboot\)$
TABLE
	;;
esac
