#!/bin/sh
# bad-input: one bad kexec at a time in A, never a kexec into B.  After
# each one the guest reports "LABEL slots=N/C" (kexec_loaded /
# kexec_crash_loaded); the host wants one "kexec: " line on stderr, a
# non-zero exit, and the slots as they were.
#
# Order: crash slot only (-e has nothing to run), normal slot only (-j has
# nothing to jump to; the normal load's command line is exactly
# cmdline_size bytes), then both slots for the rest.  Setting
# kernel.kexec_load_disabled is one-way: it comes last.
. /lib/kjump/common.sh

kj_need_kexec

slots() {
	kj_say "$1 slots=$(cat /sys/kernel/kexec_loaded)/$(cat /sys/kernel/kexec_crash_loaded)"
}

# bad LABEL CMD...: run it (kj_run reports rc and stderr), then the slots
bad() {
	_bad=$1
	shift
	kj_run "$_bad" "$@"
	slots "$_bad"
}

B=$(kj_b_append)
RD=/boot/initrd-b.cpio.gz
# The guests' init has no /run; a real system has one, and kexec's lock
# file lives there (without it kexec runs unlocked).
mkdir -p /run

# cmdline_size, from the setup header at 0x238
size=$(od -An -tu4 -j 568 -N 4 /boot/bzImage | tr -d ' ')
pad=$((size - ${#B} - 11))
at=$(printf '%s kjump.pad=%s' "$B" "$(head -c "$pad" /dev/zero | tr '\0' x)")
over="${at}x"
kj_say "at-limit bytes=${#at} cmdline_size=$size over bytes=${#over}"

# --- the crash slot only
kj_run crash "$KEXEC" -p /boot/bzImage --initrd=$RD --append="$B" || exit 1
slots crash
bad exec-nothing "$KEXEC" -e

# --- the normal slot only, with a command line exactly at the limit
kj_run crash-unload "$KEXEC" -p -u || exit 1
kj_run at-limit "$KEXEC" -l /boot/bzImage --initrd=$RD --append="$at" || exit 1
slots at-limit
bad jump-nothing "$KEXEC" -j

# --- both slots
kj_run crash2 "$KEXEC" -p /boot/bzImage --initrd=$RD --append="$B" || exit 1
slots crash2

bad over-limit "$KEXEC" -l /boot/bzImage --initrd=$RD --append="$over"

cp /boot/bzImage /tmp/corrupt
printf '\000\000' | dd of=/tmp/corrupt bs=1 seek=510 conv=notrunc 2>/dev/null
bad corrupt "$KEXEC" -l /tmp/corrupt --initrd=$RD --append="$B"
head -c 100000 /boot/bzImage >/tmp/truncated
bad truncated "$KEXEC" -p /tmp/truncated --initrd=$RD --append="$B"
: >/tmp/empty
bad empty "$KEXEC" -l /tmp/empty --append="$B"
bad not-kernel "$KEXEC" -l /bin/busybox --append="$B"
bad missing-kernel "$KEXEC" -l /tmp/nothing --append="$B"
bad missing-initrd "$KEXEC" -l /boot/bzImage --initrd=/tmp/no-initrd \
	--append="$B"

bad mem-min-above-max "$KEXEC" -l /boot/bzImage --mem-min=0x2000000 \
	--mem-max=0x1ffffff
bad mem-max-too-low "$KEXEC" -l /boot/bzImage --mem-max=0xfffff
bad mem-min-beyond-ram "$KEXEC" -l /boot/bzImage --mem-min=0x20000000
bad window-too-small "$KEXEC" -l /boot/bzImage --mem-min=0x1000000 \
	--mem-max=0x10fffff

bad unknown-short "$KEXEC" -q -l /boot/bzImage
bad unknown-long "$KEXEC" --bogus -u
bad missing-argument "$KEXEC" -l /boot/bzImage --initrd

# garbage where the companion kernel publishes the jump buffer's pfn
echo zzz >/tmp/pfn
mount -o bind /tmp/pfn /sys/kernel/kexec_jump_buf_pfn
kj_say "pfn bind rc=$? reads=$(cat /sys/kernel/kexec_jump_buf_pfn)"
bad pfn-garbage "$KEXEC" -p /boot/bzImage --initrd=$RD --append="$B"
umount /sys/kernel/kexec_jump_buf_pfn
kj_say "pfn unbind rc=$?"

# a second kexec while one waits for its kernel on a FIFO (it holds the
# lock from before it opens the FIFO, so once our open for writing returns
# the lock is held)
mkfifo /tmp/kfifo
"$KEXEC" -l /tmp/kfifo --initrd=$RD --append="$B kjump.first=1" \
	>/tmp/first.out 2>/tmp/first.err &
holder=$!
exec 3>/tmp/kfifo
kj_say "holder pid=$holder lock=$(cat /run/kexec-tools-kjump.lock)"
bad second-load "$KEXEC" -l /boot/bzImage --initrd=$RD --append="$B"
kj_say "second-load names holder=$(grep -c "(pid $holder)\$" /tmp/kj.err)"
bad second-unload "$KEXEC" -p -u
kj_say "second-unload names holder=$(grep -c "(pid $holder)\$" /tmp/kj.err)"
cat /boot/bzImage >&3
exec 3>&-
wait $holder
kj_say "holder rc=$? stderr-bytes=$(wc -c </tmp/first.err)"
slots holder

# not root: uid 1000 cannot read /sys/firmware/memmap, and /proc/iomem
# shows it zeros, so loads stop there; an unload reaches kexec_load
bad nonroot-load runas 1000 "$KEXEC" -l /boot/bzImage --initrd=$RD \
	--append="$B"
bad nonroot-unload runas 1000 "$KEXEC" -u
bad nonroot-panic runas 1000 "$KEXEC" -p /boot/bzImage --initrd=$RD \
	--append="$B"

# last: kernel.kexec_load_disabled=1 cannot be undone
echo 1 >/proc/sys/kernel/kexec_load_disabled
kj_say "kexec_load_disabled=$(cat /proc/sys/kernel/kexec_load_disabled)"
bad disabled-load "$KEXEC" -l /boot/bzImage --initrd=$RD --append="$B"
bad disabled-panic "$KEXEC" -p /boot/bzImage --initrd=$RD --append="$B"
bad disabled-unload "$KEXEC" -p -u
