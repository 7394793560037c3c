#!/bin/sh
# bad-input: bad kexec commands in A, one at a time, with good images
# loaded: each exits non-zero with exactly one "kexec: WHAT: WHY" line
# (matched in full) and leaves /sys/kernel/kexec_loaded and
# kexec_crash_loaded as they were.  Never a kexec into B.  See
# doc/bad-input.md.  Ours only.
#
# Order: crash slot only (-e has nothing to run), normal slot only (-j has
# nothing to jump to; the normal load's command line is exactly
# cmdline_size bytes), then both slots for the rest.  Setting
# kernel.kexec_load_disabled is one-way: it comes last.
#
# Each table row is one case, "NAME | COMMAND | EXIT | STDERR-ERE"
# (kj_table in guest/common.sh); kj_table_state below is what no case may
# change.
#: timeout 300
#: append crashkernel=64M
#: debian skip the one-line "kexec: " errors and the lock are ours
. /lib/kjump/common.sh

kj_need_kexec

kj_table_state() {
	echo "slots=$(cat /sys/kernel/kexec_loaded)/$(cat /sys/kernel/kexec_crash_loaded)"
}

B=$(kj_b_append)
RD=/boot/initrd-b.cpio
# The guests' init has no /run; a real system has one, and kexec's lock
# file lives there (without it kexec runs unlocked).
mkdir -p /run

# cmdline_size, from the setup header at 0x238; the real kernel's limit: a
# command line of cmdline_size bytes loads (x86: COMMAND_LINE_SIZE 2048
# less the NUL)
size=$(od -An -tu4 -j 568 -N 4 /boot/bzImage | tr -d ' ')
pad=$((size - ${#B} - 11))
at=$(printf '%s kjump.pad=%s' "$B" "$(head -c "$pad" /dev/zero | tr '\0' x)")
over="${at}x"
kj_eq limits "at-limit bytes=${#at} cmdline_size=$size over bytes=${#over}" \
	"at-limit bytes=2047 cmdline_size=2047 over bytes=2048"

# --- the crash slot only
kj_run_ok crash "$KEXEC" -p /boot/bzImage --initrd=$RD --append="$B" || exit 1
kj_eq crash "$(kj_table_state)" slots=0/1
kj_table <<'TABLE'
exec-nothing | "$KEXEC" -e | !0 | ^kexec: exec: nothing loaded \(load a kernel with kexec -l first\)$
TABLE

# --- the normal slot only, with a command line exactly at the limit
kj_run_ok crash-unload "$KEXEC" -p -u || exit 1
kj_run_ok at-limit "$KEXEC" -l /boot/bzImage --initrd=$RD --append="$at" || exit 1
kj_eq at-limit "$(kj_table_state)" slots=1/0
kj_table <<'TABLE'
jump-nothing | "$KEXEC" -j | !0 | ^kexec: jump: nothing loaded \(load a kernel with kexec -p first\)$
TABLE

# --- both slots
kj_run_ok crash2 "$KEXEC" -p /boot/bzImage --initrd=$RD --append="$B" || exit 1
kj_eq crash2 "$(kj_table_state)" slots=1/1

cp /boot/bzImage /tmp/corrupt
printf '\000\000' | dd of=/tmp/corrupt bs=1 seek=510 conv=notrunc 2>/dev/null
head -c 100000 /boot/bzImage >/tmp/truncated
: >/tmp/empty
kj_table <<'TABLE'
over-limit         | "$KEXEC" -l /boot/bzImage --initrd=$RD --append="$over" | !0 | ^kexec: command line: 2048 bytes, this kernel takes at most 2047$
corrupt            | "$KEXEC" -l /tmp/corrupt --initrd=$RD --append="$B"    | !0 | ^kexec: /tmp/corrupt: not a kernel image this kexec can load: not bzImage \(boot flag is 0x0, not 0xaa55\), not elf-x86 \(no ELF magic\)$
truncated          | "$KEXEC" -p /tmp/truncated --initrd=$RD --append="$B"  | !0 | ^kexec: /tmp/truncated: not a kernel image this kexec can load: not bzImage \(truncated \(100000 bytes, the header says [0-9]+\)\), not elf-x86 \(no ELF magic\)$
empty              | "$KEXEC" -l /tmp/empty --append="$B"                   | !0 | ^kexec: /tmp/empty: kernel image is empty$
not-kernel         | "$KEXEC" -l /bin/busybox --append="$B"                 | !0 | ^kexec: /bin/busybox: not a kernel image this kexec can load: not bzImage \(no "HdrS" boot header\), not elf-x86 \(a user-space program \(has PT_[A-Z_]+\), not a kernel\)$
missing-kernel     | "$KEXEC" -l /tmp/nothing --append="$B"                 | !0 | ^kexec: kernel /tmp/nothing: No such file or directory$
missing-initrd     | "$KEXEC" -l /boot/bzImage --initrd=/tmp/no-initrd --append="$B" | !0 | ^kexec: initrd /tmp/no-initrd: No such file or directory$
mem-min-above-max  | "$KEXEC" -l /boot/bzImage --mem-min=0x2000000 --mem-max=0x1ffffff | !0 | ^kexec: --mem-min: 0x2000000 is above --mem-max 0x1ffffff$
mem-max-too-low    | "$KEXEC" -l /boot/bzImage --mem-max=0xfffff            | !0 | ^kexec: kernel: no room for 0x[0-9a-f]+ bytes: it must go in 0x[0-9a-f]+-0x37ffffff, outside --mem-min/--mem-max 0x0-0xfffff$
mem-min-beyond-ram | "$KEXEC" -l /boot/bzImage --mem-min=0x20000000          | !0 | ^kexec: kernel: no room for 0x[0-9a-f]+ bytes: no usable memory in 0x20000000-0x37ffffff \(usable: 0x[0-9a-f]+-0x1ffdffff; check --mem-min/--mem-max\)$
window-too-small   | "$KEXEC" -l /boot/bzImage --mem-min=0x1000000 --mem-max=0x10fffff | !0 | ^kexec: kernel: no room for 0x[0-9a-f]+ bytes in 0x1000000-0x10fffff \(check --mem-min/--mem-max\)$
unknown-short      | "$KEXEC" -q -l /boot/bzImage                           | !0 | ^kexec: -q: unknown option \(try 'kexec --help'\)$
unknown-long       | "$KEXEC" --bogus -u                                    | !0 | ^kexec: --bogus: unknown option \(try 'kexec --help'\)$
missing-argument   | "$KEXEC" -l /boot/bzImage --initrd                     | !0 | ^kexec: --initrd: needs an argument$
TABLE

# garbage where the companion kernel publishes the jump buffer's pfn (a
# file bound over it)
echo zzz >/tmp/pfn
mount -o bind /tmp/pfn /sys/kernel/kexec_jump_buf_pfn
kj_eq pfn-bind "rc=$? reads=$(cat /sys/kernel/kexec_jump_buf_pfn)" "rc=0 reads=zzz"
kj_table <<'TABLE'
pfn-garbage | "$KEXEC" -p /boot/bzImage --initrd=$RD --append="$B" | !0 | ^kexec: /sys/kernel/kexec_jump_buf_pfn: not a valid page frame number$
TABLE
umount /sys/kernel/kexec_jump_buf_pfn
kj_eq pfn-unbind "rc=$?" "rc=0"

# a second kexec while one waits for its kernel on a FIFO (it holds the
# lock from before it opens the FIFO, so once our open for writing returns
# the lock is held); each refusal names the holder
mkfifo /tmp/kfifo
"$KEXEC" -l /tmp/kfifo --initrd=$RD --append="$B kjump.first=1" \
	>/tmp/first.out 2>/tmp/first.err &
holder=$!
exec 3>/tmp/kfifo
kj_eq holder-lock "$(cat /run/kexec-tools-kjump.lock)" "$holder"
kj_table <<'TABLE'
second-load   | "$KEXEC" -l /boot/bzImage --initrd=$RD --append="$B" | !0 | ^kexec: load: another kexec is running \(pid [0-9]+\)$
TABLE
kj_eq second-load-names-holder "$(grep -c "(pid $holder)\$" /tmp/kj.err)" 1
kj_table <<'TABLE'
second-unload | "$KEXEC" -p -u                                       | !0 | ^kexec: unload: another kexec is running \(pid [0-9]+\)$
TABLE
kj_eq second-unload-names-holder "$(grep -c "(pid $holder)\$" /tmp/kj.err)" 1
# the first one then loads what it read from the FIFO
cat /boot/bzImage >&3
exec 3>&-
wait $holder
kj_eq holder "rc=$? stderr-bytes=$(wc -c </tmp/first.err)" "rc=0 stderr-bytes=0"
kj_eq holder "$(kj_table_state)" slots=1/1

# not root (tools/runas): uid 1000 cannot read /sys/firmware/memmap, and
# /proc/iomem shows it zeros, so loads stop there; an unload reaches
# kexec_load
kj_table <<'TABLE'
nonroot-load   | runas 1000 "$KEXEC" -l /boot/bzImage --initrd=$RD --append="$B" | !0 | ^kexec: /proc/iomem: no usable memory map \(no System RAM lines; run as root\)$
nonroot-unload | runas 1000 "$KEXEC" -u                                          | !0 | ^kexec: unload: not permitted: this process lacks CAP_SYS_BOOT \(run kexec as root\)$
nonroot-panic  | runas 1000 "$KEXEC" -p /boot/bzImage --initrd=$RD --append="$B" | !0 | ^kexec: /proc/iomem: no usable memory map \(no System RAM lines; run as root\)$
TABLE

# last: kernel.kexec_load_disabled=1 cannot be undone
echo 1 >/proc/sys/kernel/kexec_load_disabled
kj_eq kexec_load_disabled "$(cat /proc/sys/kernel/kexec_load_disabled)" 1
kj_table <<'TABLE'
disabled-load   | "$KEXEC" -l /boot/bzImage --initrd=$RD --append="$B" | !0 | ^kexec: kexec_load: disabled by sysctl kernel\.kexec_load_disabled=1 \(it stays set until reboot\)$
disabled-panic  | "$KEXEC" -p /boot/bzImage --initrd=$RD --append="$B" | !0 | ^kexec: kexec_load: disabled by sysctl kernel\.kexec_load_disabled=1 \(it stays set until reboot\)$
disabled-unload | "$KEXEC" -p -u                                       | !0 | ^kexec: unload: disabled by sysctl kernel\.kexec_load_disabled=1 \(it stays set until reboot\)$
TABLE
