#!/bin/sh
# kexec-test-jump-none: kexec-test-jump with --args-none: no purgatory,
# relocate_kernel calls kexec_test directly and the way back is the return
# address it left at 0(%esp).
#: timeout 240
#: debian xfail kexec-tools' kexec -e exits 255 after a round trip
#: mark A.start
#: console 30 ^kexec_test: start mode=none image=0x00100000-0x001[0-9a-f]{5}$
# relocate_kernel calls the image: 0(%esp) is its return address
#: console 5 ^kexec_test: regs .* 0\(%esp\)=0x0*[1-9a-f][0-9a-f]*$
#: console 5 ^kexec_test: check cr0: ok
#: console 5 ^kexec_test: check eflags: ok
#: console 5 ^kexec_test: jump back to 0x[0-9a-f]{8} \(0\(%esp\) at entry\)$
#: console 5 ^kexec_test: PASS$
#: console 5 ^kexec_test: jump back with CS=0x10 DS=0x18$
#: console 30 ^kexec_test: resumed n=1$
#: console 30 ^kexec_test: resumed n=2$
#: mark A.end 60
#: reject ^kexec_test: resumed n=([03-9]|[1-9][0-9])
KT_ARGS=none
. /scenarios/kexec-test-jump.sh
