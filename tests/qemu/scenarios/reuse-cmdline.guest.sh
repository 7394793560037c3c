#!/bin/sh
# reuse-cmdline: B's command line is A's, minus BOOT_IMAGE=, plus --append.
# A's command line (set by the host) holds the marker and BOOT_IMAGE=/foo:
# B must show the former and not the latter.
#: timeout 180
# words added to A's kernel command line (before the kjump.* words)
#: append BOOT_IMAGE=/foo
#: mark A.start
#: mark B.start 90
#: mark B.end 30
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	cl=$(cat /proc/cmdline)
	kj_say "cmdline: $cl"
	# the BOOT_IMAGE= check in B is only meaningful if A really had it
	kj_match a-has-boot-image "$cl" '(^| )BOOT_IMAGE=/foo( |$)'
	kj_run_ok load "$KEXEC" -l /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--reuse-cmdline --append="kjump.stage=B" || exit 1
	kj_loaded 1
	kj_exec_into B
	;;
B)
	cl=$(cat /proc/cmdline)
	kj_say "cmdline: $cl"
	kj_match cmdline-reused "$cl" "^ ?console=ttyS0,115200 (.* )?kjump\\.marker=$KJ_MARKER (.* )?kjump\\.stage=B\$"
	case " $cl " in
	*' BOOT_IMAGE='*) kj_fail no-boot-image "BOOT_IMAGE= was passed on: $cl" ;;
	*) kj_ok no-boot-image ;;
	esac
	;;
esac
