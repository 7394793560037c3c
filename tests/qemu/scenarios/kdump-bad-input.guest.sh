#!/bin/sh
# kdump-bad-input: kexec -p with bad input must fail cleanly, first with
# the crash slot empty, then with a good capture kernel already loaded:
# every failure leaves /sys/kernel/kexec_crash_loaded as it was (the
# kernel frees the loaded crash image as soon as kexec_load is called, so
# the tool must reject bad input before it makes the call).
. /lib/kjump/common.sh

kj_need_kexec

dd if=/dev/urandom of=/tmp/big.img bs=1M count=70 2>/dev/null
kj_say "crash region bytes=$(cat /sys/kernel/kexec_crash_size)"
kj_say "big initrd bytes=$(stat -c %s /tmp/big.img)"
pad=kjump.pad=$(head -c 2100 /dev/zero | tr '\0' x)
kj_say "long append bytes=$((${#pad} + 1 + $(kj_b_append | wc -c) - 1))"

# bad STATE: the three bad loads, each followed by the crash slot's state
bad() {
	kj_run "$1/big-initrd" "$KEXEC" -p /boot/bzImage \
		--initrd=/tmp/big.img --append="$(kj_b_append)"
	kj_say "$1/big-initrd kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
	kj_run "$1/long-cmdline" "$KEXEC" -p /boot/bzImage \
		--initrd=/boot/initrd-b.cpio.gz --append="$(kj_b_append) $pad"
	kj_say "$1/long-cmdline kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
	kj_run "$1/not-bzimage" "$KEXEC" -p /bin/busybox \
		--initrd=/boot/initrd-b.cpio.gz --append="$(kj_b_append)"
	kj_say "$1/not-bzimage kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
}

kj_say "kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
bad empty
kj_run good "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio.gz \
	--append="$(kj_b_append)" || exit 1
kj_say "good kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
bad loaded
kj_run unload "$KEXEC" -p -u
kj_say "unload kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
