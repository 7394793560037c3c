#!/bin/sh
# kdump-no-region: A has no crashkernel=, so kexec -p has nowhere to go: it
# fails and says crashkernel= is what is missing.
#: timeout 120
. /lib/kjump/common.sh

kj_need_kexec
cl=$(cat /proc/cmdline)
kj_say "cmdline: $cl"
case " $cl " in
*' crashkernel='*) kj_fail no-crashkernel "A's command line has crashkernel=: $cl" ;;
*) kj_ok no-crashkernel ;;
esac
kj_eq iomem-crash-ranges "$(grep -c 'Crash kernel' /proc/iomem)" 0
kj_eq kexec_crash_size "$(cat /sys/kernel/kexec_crash_size)" 0
if [ "$KJ_IMPL" = ours ]; then
	# exactly one line on stderr, "kexec: ...crashkernel=..."
	kj_run_fails load '^kexec: .*crashkernel=' "$KEXEC" -p /boot/bzImage \
		--initrd=/boot/initrd-b.cpio --append="$(kj_b_append)"
else
	# kexec-tools 2.0.25 prints its hint on stdout
	kj_run load "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
		--append="$(kj_b_append)"
	kj_true load-fails "exit status $kj_rc, want non-zero" [ $kj_rc != 0 ]
	kj_true load-names-crashkernel "no crashkernel= in its output" \
		grep -q 'crashkernel=' /tmp/kj.out /tmp/kj.err
fi
kj_slot kexec_crash_loaded 0
