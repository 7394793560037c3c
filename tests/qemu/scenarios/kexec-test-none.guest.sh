#!/bin/sh
# kexec-test-none: kexec_test entered straight from relocate_kernel
# (-t elf-x86 --args-none, no purgatory): every register but esp is 0,
# 0(%esp) is 0 (no way back), paging and interrupts off.  kexec_test judges
# and reports on the serial port only (see kexec-test.guest.sh).
#: timeout 120
#: no-poweroff
#: mark A.start
#: console 60 ^kexec_test: start mode=none image=0x00100000-0x001[0-9a-f]{5}$
#: console 5 ^kexec_test: regs eax=0x00000000 ebx=0x00000000 ecx=0x00000000 edx=0x00000000 esi=0x00000000 edi=0x00000000 ebp=0x00000000 esp=0x[0-9a-f]{8} eflags=0x[0-9a-f]{8} 0\(%esp\)=0x00000000$
#: console 5 ^kexec_test: cpu cr0=0x[0-9a-f]{8} cs=0x[0-9a-f]{8} ds=0x[0-9a-f]{8} es=0x[0-9a-f]{8} ss=0x[0-9a-f]{8} fs=0x[0-9a-f]{8} gs=0x[0-9a-f]{8} gdtr=0x[0-9a-f]{8}/0x[0-9a-f]{8} idtr=0x[0-9a-f]{8}/0x[0-9a-f]{8}$
#: console 5 ^kexec_test: check regs: ok
#: console 5 ^kexec_test: check cr0: ok
#: console 5 ^kexec_test: check eflags: ok
#: console 5 ^kexec_test: PASS$
#: reject ^kexec_test: jump back
. /lib/kjump/common.sh

case $KJ_STAGE in
A)
	kj_need_kexec
	if [ ! -f /boot/kexec_test ]; then
		kj_fail kexec_test "no /boot/kexec_test (build kexec_test/, set KEXEC_TEST)"
		exit 1
	fi
	kj_run_ok load "$KEXEC" -l -t elf-x86 --args-none /boot/kexec_test || exit 1
	kj_loaded 1
	kj_exec_into kexec_test
	;;
esac
