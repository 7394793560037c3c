#!/bin/sh
# jump-backup-bad: B checks everything its command line tells it about
# the way back (patch 0025), one bad value per boot, by hand on B's command
# line (an explicit kexec_backup= or kexec_jump_buf_pfn= in --append wins
# over kexec's own).  Purgatory still saves A's low memory where kexec put
# it; only B's view is wrong.
#
# A: load B with kjump.case=N's bad word and jump; A is never resumed.
# B: the boot log has the kernel's reason once; kexec -j back is refused
#    with kexec's one line (the kernel says "not valid here" in dmesg for
#    a kexec_backup= it refused), and B carries on; it asks for the next
#    boot, or ends after the last case.
#    1 source-not-ram  kexec_backup=0x1000@0xa0000:0xb0000 (the VGA hole)
#    2 overlap         kexec_backup=0x2000@0x1000:0x2000
#    3 jump-buffer     kexec_backup=0x1000@0x1000:<A's jump buffer>
#    4 own-memory      kexec_backup=0x1000@0x1000:<16 MiB into the crash region>
#    5 elsewhere       kexec_backup=0x1000@0x1000:0xa0000 (not the copy)
#    6 width           kexec_backup=0x1000@0x100000000:0x2000 (no PAE)
#    7 pfn-width       kexec_jump_buf_pfn=0x100000 (no PAE: 4 GiB)
#: timeout 400
#: append crashkernel=64M
#: debian skip kexec -j is ours
#: mark A.start
#: mark B.start 90
#: mark B.reboot 60
#: mark A.start
#: mark B.start 90
#: mark B.reboot 60
#: mark A.start
#: mark B.start 90
#: mark B.reboot 60
#: mark A.start
#: mark B.start 90
#: mark B.reboot 60
#: mark A.start
#: mark B.start 90
#: mark B.reboot 60
#: mark A.start
#: mark B.start 90
#: mark B.reboot 60
#: mark A.start
#: mark B.start 90
#: mark B.end 60
. /lib/kjump/common.sh

LAST=7
REFUSED='^kexec: jump: the kernel refused to jump back \(kexec_jump_buf_pfn= or kexec_backup= is not valid here; see dmesg\)$'

case $KJ_STAGE in
A)
	kj_need_kexec
	pfn=$(cat /sys/kernel/kexec_jump_buf_pfn)
	crash=$(sed -n 's/^ *\([0-9a-f]*\)-[0-9a-f]* : Crash kernel$/\1/p' /proc/iomem)
	kj_match crash-region "$crash" '^[0-9a-f]+$' || exit 1
	case $KJ_BOOT in
	1) word="kexec_backup=0x1000@0xa0000:0xb0000" ;;
	2) word="kexec_backup=0x2000@0x1000:0x2000" ;;
	3) word=$(printf 'kexec_backup=0x1000@0x1000:0x%x' $((pfn * 4096))) ;;
	4) word=$(printf 'kexec_backup=0x1000@0x1000:0x%x' $((0x$crash + 0x1000000))) ;;
	5) word="kexec_backup=0x1000@0x1000:0xa0000" ;;
	6) word="kexec_backup=0x1000@0x100000000:0x2000" ;;
	7) word="kexec_jump_buf_pfn=0x100000" ;;
	esac
	kj_run_ok load "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append) kjump.case=$KJ_BOOT $word" || exit 1
	kj_handover B "case $KJ_BOOT: $word"
	"$KEXEC" -j
	kj_fail jump "kexec -j returned (exit status $?)"
	exit 1
	;;
B)
	kj_check_b_cmdline
	n=$(cmdline_word kjump.case)
	backup=$(cmdline_word kexec_backup)
	pfn=$(cmdline_word kexec_jump_buf_pfn)
	kj_say "case $n: kexec_backup=$backup kexec_jump_buf_pfn=$pfn"
	case $n in
	1) why="kexec_backup=0x1000@0x000a0000:0x000b0000: the source is not RAM of the previous kernel" ;;
	2) why="kexec_backup=0x2000@0x00001000:0x00002000: the two ranges overlap" ;;
	3) why="kexec_backup=0x1000@0x00001000:0x[0-9a-f]{8}: a range overlaps the jump buffer" ;;
	4) why="kexec_backup=0x1000@0x00001000:0x[0-9a-f]{8}: the destination is this kernel's own memory" ;;
	5) why="kexec_backup=0x1000@0x00001000:0x000a0000: the previous kernel's ELF core header has its copy elsewhere" ;;
	6) why="kexec_backup=0x1000@0x100000000:0x2000: above this kernel's physical address width" ;;
	7) why="kexec_jump_buf_pfn=0x100000: above this kernel's physical address width" ;;
	*) kj_fail case "no kjump.case= on the command line"; exit 1 ;;
	esac
	kj_eq "case $n boot-log" "$(dmesg | grep -cE "$why\$")" 1
	kj_table <<TABLE
case-$n-refused | "\$KEXEC" -j | 1 | $REFUSED
TABLE
	case $n in
	[1-5]) kj_eq "case $n said" "$(dmesg | grep -c 'kexec_backup=: not valid here (see the boot log)')" 1 ;;
	esac
	if [ "$n" -lt $LAST ]; then
		kj_reboot_host
	fi
	;;
esac
