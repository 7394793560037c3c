#!/bin/sh
# x86_64-lockdown: kexec_file_load (-s) under lockdown, on Debian's amd64
# kernel.  A loads a crash kernel with -s -p, then raises lockdown to
# integrity at run time (/sys/kernel/security/lockdown).  Then:
#  - a copy of the kernel whose PE certificate table is cleared is refused
#    before the call as a crash kernel, and the crash slot keeps its
#    kernel (the kernel would have dropped it first); as a normal load
#    it goes to the kernel, which refuses it;
#  - the Debian-signed kernel reaches the kernel, which cannot verify it
#    without UEFI (Debian's signing key comes from shim, not the kernel's
#    own keyrings): EPERM, said as a signature that did not verify under
#    lockdown; the normal slot stays empty;
#  - the same as a crash load: the kernel drops the crash kernel before it
#    refuses, and the error says that the crash slot is empty now.
#: arch x86_64
#: debian skip the checks before kexec_file_load and their lines are ours
#: timeout 240
#: append crashkernel=192M
# (640 MiB: Debian's kernel puts itself anywhere in RAM (KASLR); in 512
# MiB, with a 51 MiB initramfs at the top, a 192 MiB crash region found
# no room now and then.)
#: memory 640
#: mark A.start 90
#: mark A.end 120
. /lib/kjump/common.sh

kj_need_kexec
mkdir -p /run
RD=/boot/initrd-b.cpio
mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
kj_eq lockdown-off "$(cat /sys/kernel/security/lockdown 2>&1)" \
	"[none] integrity confidentiality" || exit 1
kj_run_ok crash "$KEXEC" -s -p /boot/bzImage --initrd=$RD \
	--append="$(kj_b_append)" || exit 1
kj_slot kexec_crash_loaded 1

echo integrity >/sys/kernel/security/lockdown
kj_eq lockdown-on "$(cat /sys/kernel/security/lockdown 2>&1)" \
	"none [integrity] confidentiality" || exit 1
kj_run_fails crash-unsigned \
	'^kexec: /boot/bzImage-unsigned: refused before loading: the kernel is locked down \(integrity\) and the image carries no signature; it would drop the loaded crash kernel before refusing it \(unload that with -p -u to try anyway\)$' \
	"$KEXEC" -s -p /boot/bzImage-unsigned --initrd=$RD
kj_slot kexec_crash_loaded 1
kj_run_fails load-unsigned \
	"^kexec: kexec_file_load: refused: the kernel is locked down, and the image's signature did not verify against its keyrings \(dmesg says more\)\$" \
	"$KEXEC" -s -l /boot/bzImage-unsigned --initrd=$RD
kj_slot kexec_loaded 0
kj_run_fails load-signed \
	"^kexec: kexec_file_load: refused: the kernel is locked down, and the image's signature did not verify against its keyrings \(dmesg says more\)\$" \
	"$KEXEC" -s -l /boot/bzImage --initrd=$RD
kj_slot kexec_loaded 0
kj_run_fails crash-signed \
	"^kexec: kexec_file_load: refused: the kernel is locked down, and the image's signature did not verify against its keyrings \(dmesg says more\) \(the kernel dropped the loaded crash kernel first; the crash slot is empty\)\$" \
	"$KEXEC" -s -p /boot/bzImage --initrd=$RD
kj_slot kexec_crash_loaded 0
