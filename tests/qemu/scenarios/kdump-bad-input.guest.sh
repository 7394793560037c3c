#!/bin/sh
# kdump-bad-input: kexec -p with bad input must fail cleanly, first with
# the crash slot empty, then with a good capture kernel already loaded:
# every failure prints one "kexec: " line naming what is wrong (the initrd,
# the command line, the file that is not a bzImage) and leaves
# /sys/kernel/kexec_crash_loaded as it was (the kernel frees the loaded
# crash image as soon as kexec_load is called, so the tool must reject bad
# input before it makes the call).  The cases are one table, run in both
# states.
#: timeout 120
#: append crashkernel=64M
#: debian skip the one-line "kexec: " error format is ours; see kdump for Debian's kexec -p
. /lib/kjump/common.sh

kj_need_kexec

kj_table_state() {
	echo "kexec_crash_loaded=$(cat /sys/kernel/kexec_crash_loaded)"
}

B=$(kj_b_append)
dd if=/dev/urandom of=/tmp/big.img bs=1M count=70 2>/dev/null
kj_eq crash-region-bytes "$(cat /sys/kernel/kexec_crash_size)" 67108864
kj_eq big-initrd-bytes "$(stat -c %s /tmp/big.img)" 73400320
pad=kjump.pad=$(head -c 2100 /dev/zero | tr '\0' x)
kj_match long-append-bytes "$((${#pad} + 1 + ${#B}))" '^2[0-9]{3}$'

# bad STATE: the three bad loads, NAME prefixed with STATE
bad() {
	sed "s|^|$1/|" <<'TABLE' | kj_table
big-initrd   | "$KEXEC" -p /boot/bzImage --initrd=/tmp/big.img --append="$B"                | !0 | ^kexec: .*initrd
long-cmdline | "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio --append="$B $pad" | !0 | ^kexec: .*command line
not-bzimage  | "$KEXEC" -p /bin/busybox --initrd=/boot/initrd-b.cpio --append="$B"       | !0 | ^kexec: /bin/busybox: [^ ]
TABLE
}

kj_eq empty "$(kj_table_state)" kexec_crash_loaded=0
bad empty
kj_run_ok good "$KEXEC" -p /boot/bzImage --initrd=/boot/initrd-b.cpio \
	--append="$B" || exit 1
kj_eq good "$(kj_table_state)" kexec_crash_loaded=1
bad loaded
kj_run_ok unload "$KEXEC" -p -u
kj_eq unload "$(kj_table_state)" kexec_crash_loaded=0
