#!/bin/sh
# kexec-test: load our bare test image kexec_test as an ELF with
# --args-linux (entered through purgatory, as a Linux kernel would be) and
# kexec -e into it.  kexec_test judges its own entry state, one line per
# check, then PASS or FAIL, and halts (no-poweroff: the host stops QEMU).
# It has only the serial port, so the host reads its lines ("console"
# marks): the checks, and the facts it reports but does not judge (the
# boot protocol's selectors CS=0x10, DS=ES=SS=0x18, the image's place, the
# marker on its command line, and no way back).
#: timeout 120
#: no-poweroff
#: debian xfail upstream kexec-tools' --args-linux zero page has no boot_flag 0xaa55 at 0x1fe
#: mark A.start
#: console 60 ^kexec_test: start mode=linux image=0x00100000-0x001[0-9a-f]{5}$
#: console 5 ^kexec_test: regs eax=0x[0-9a-f]{8} ebx=0x00000000 ecx=0x[0-9a-f]{8} edx=0x[0-9a-f]{8} esi=0x[0-9a-f]{8} edi=0x00000000 ebp=0x00000000 esp=0x[0-9a-f]{8} eflags=0x[0-9a-f]{8} 0\(%esp\)=0x[0-9a-f]{8}$
#: console 5 ^kexec_test: cpu cr0=0x[0-9a-f]{8} cs=0x00000010 ds=0x00000018 es=0x00000018 ss=0x00000018 fs=0x[0-9a-f]{8} gs=0x[0-9a-f]{8} gdtr=0x[0-9a-f]{8}/0x[0-9a-f]{8} idtr=0x[0-9a-f]{8}/0x[0-9a-f]{8}$
#: console 5 ^kexec_test: check cr0: ok
#: console 5 ^kexec_test: check eflags: ok
#: console 5 ^kexec_test: check cs: ok
#: console 5 ^kexec_test: check ds: ok
#: console 5 ^kexec_test: check es-ss: ok
#: console 5 ^kexec_test: check regs: ok
#: console 5 ^kexec_test: check boot_flag: ok
#: console 5 ^kexec_test: check header: ok
#: console 5 ^kexec_test: check e820-entries: ok
#: console 5 ^kexec_test: check e820-image: ok
#: console 5 ^kexec_test: check cmdline: ok
#: console 5 ^kexec_test: cmdline: (.* )?kjump\.marker=@MARKER@( |$)
#: console 5 ^kexec_test: PASS$
#: reject kexec_jump_back_entry=
#: reject ^kexec_test: jump back
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	if [ ! -f /boot/kexec_test ]; then
		kj_fail kexec_test "no /boot/kexec_test (build kexec_test/, set KEXEC_TEST)"
		exit 1
	fi
	kj_run_ok load "$KEXEC" -l -t elf-x86 --args-linux /boot/kexec_test \
		--append="kjump.marker=$KJ_MARKER" || exit 1
	kj_loaded 1
	kj_exec_into kexec_test
	;;
esac
