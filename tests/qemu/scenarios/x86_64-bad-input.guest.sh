#!/bin/sh
# x86_64-bad-input: bad kexec commands on Debian's amd64 kernel, with good
# images in both slots (the normal one by kexec_load, the crash one by
# kexec_file_load, -s): each exits non-zero
# with exactly one "kexec: WHAT: WHY" line (matched in full) and leaves
# kexec_loaded and kexec_crash_loaded as they were.  The images the
# kernel's file loader would refuse (a 32-bit kernel, a truncated or
# empty one, busybox) and the command line it would refuse are caught
# before the call: for a crash load the kernel drops the loaded crash
# kernel before it refuses.  Setting kernel.kexec_load_disabled is
# one-way: it comes last.
#: arch x86_64
#: debian skip the one-line "kexec: " errors are ours
#: timeout 300
#: append crashkernel=192M
# (640 MiB: Debian's kernel puts itself anywhere in RAM (KASLR); in 512
# MiB, with a 51 MiB initramfs at the top, a 192 MiB crash region found
# no room now and then.)
#: memory 640
#: mark A.start 90
#: mark A.end 180
. /lib/kjump/common.sh

kj_need_kexec
mkdir -p /run

kj_table_state() {
	echo "slots=$(cat /sys/kernel/kexec_loaded)/$(cat /sys/kernel/kexec_crash_loaded)"
}

B=$(kj_b_append)
RD=/boot/initrd-b.cpio
head -c 1000000 /boot/bzImage >/tmp/truncated
: >/tmp/empty
# 2047 (cmdline_size) - 30 (elfcorehdr=) - 1 (NUL) = 2016 characters load
size=$(od -An -tu4 -j 568 -N 4 /boot/bzImage | tr -d ' ')
long=$(head -c 2017 /dev/zero | tr '\0' x)
kj_eq cmdline-size "$size" 2047

kj_run_ok load "$KEXEC" -l /boot/bzImage --initrd=$RD --append="$B" || exit 1
kj_run_ok crash "$KEXEC" -s -p /boot/bzImage --initrd=$RD --append="$B" || exit 1
kj_eq slots "$(kj_table_state)" slots=1/1

kj_table <<'TABLE'
c-preserve  | "$KEXEC" -c -l --load-preserve-context --mem-max=0x1fffffff /boot/bzImage | 1 | ^kexec: --mem-max: the window holds [0-9]+ MiB, more than half of RAM \([0-9]+ MiB\), which the kernel refuses$
c-no64      | "$KEXEC" -c -l /boot/bzImage-no64 | 1 | ^kexec: /boot/bzImage-no64: not a kernel image this kexec can load: not bzImage \(no x86_64 entry \(a 32-bit kernel\)\), not elf-x86_64 \(no ELF magic\)$
c-elf       | "$KEXEC" -c -l -t elf-x86 /boot/bzImage | 1 | ^kexec: -t elf-x86: unknown image type \(known: bzImage, elf-x86_64\)$
c-elf64     | "$KEXEC" -c -l -t elf-x86_64 /boot/bzImage | 1 | ^kexec: /boot/bzImage: not an elf-x86_64: no ELF magic$
c-truncated | "$KEXEC" -c -l /tmp/truncated | 1 | ^kexec: /tmp/truncated: not a kernel image this kexec can load: not bzImage \(truncated \(1000000 bytes, the header says [0-9]+\)\), not elf-x86_64 \(no ELF magic\)$
no64        | "$KEXEC" -s -p /boot/bzImage-no64 --initrd=$RD | 1 | ^kexec: /boot/bzImage-no64: kexec_file_load cannot load it: no 64-bit entry \(a 32-bit kernel\); the kernel's file loader takes 64-bit bzImages only$
truncated   | "$KEXEC" -s -p /tmp/truncated | 1 | ^kexec: /tmp/truncated: kexec_file_load cannot load it: truncated \(1000000 bytes, the header says [0-9]+\)$
empty       | "$KEXEC" -s -p /tmp/empty | 1 | ^kexec: /tmp/empty: kexec_file_load cannot load it: too short for a kernel \(0 bytes, a boot header needs 616\)$
busybox     | "$KEXEC" -s -p /bin/busybox | 1 | ^kexec: /bin/busybox: kexec_file_load cannot load it: no "HdrS" boot header$
missing     | "$KEXEC" -s -p /nonexistent | 1 | ^kexec: kernel /nonexistent: No such file or directory$
no-initrd   | "$KEXEC" -s -p /boot/bzImage --initrd=/nonexistent | 1 | ^kexec: initrd /nonexistent: No such file or directory$
cmdline     | "$KEXEC" -s -p /boot/bzImage --append="$long" | 1 | ^kexec: command line: 2017 bytes; through kexec_file_load this kernel takes 2016 at most \(its limit, 2047, less 31 kept for elfcorehdr= and the NUL\)$
mem-max     | "$KEXEC" -s -l /boot/bzImage --mem-max=0x10000000 | 1 | ^kexec: --mem-max: only with kexec_load \(-c\); kexec_file_load \(-s\) has the kernel place the image$
preserve    | "$KEXEC" -s -l --load-preserve-context --mem-max=0x10000000 /boot/bzImage | 1 | ^kexec: --load-preserve-context: only with kexec_load \(-c\); kexec_file_load \(-s\) has the kernel place the image$
type        | "$KEXEC" -s -l -t bzImage /boot/bzImage | 1 | ^kexec: -t: only with kexec_load \(-c\); kexec_file_load \(-s\) has the kernel place the image$
s-and-c     | "$KEXEC" -s -c -l /boot/bzImage | 1 | ^kexec: options: -s and -c cannot be combined$
s-exec      | "$KEXEC" -s -e | 1 | ^kexec: -s: only with a load \(-l, -p, -f\) or an unload \(-u\), not with -e$
uid-1000    | runas 1000 "$KEXEC" -s -p /boot/bzImage --initrd=$RD | 1 | ^kexec: kexec_file_load: not permitted: this process lacks CAP_SYS_BOOT \(run kexec as root\)$
TABLE

# The sysctl is one-way: last.
echo 1 >/proc/sys/kernel/kexec_load_disabled
kj_table <<'TABLE'
disabled    | "$KEXEC" -s -p /boot/bzImage --initrd=$RD | 1 | ^kexec: kexec_file_load: disabled by sysctl kernel.kexec_load_disabled=1 \(it stays set until reboot\)$
TABLE
