#!/bin/sh
# jump-freeze-panic-b: B gen 1 panics in a driver's freeze callback on its
# way back (from CPU 1), B gen 2 in a restore callback when A enters it
# again: each goes back to A, whose kexec -j exits 1 with "the crash
# kernel panicked", A intact; B gen 3 jumps back (patch 0031).  Same guest
# script.
#: timeout 300
#: append crashkernel=64M no_console_suspend kjump.case=b
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: allow-panic-after ^KJ (B: handover to A \(freeze panic on CPU 1\)|A: trip 4 \(restore panic in B\))$
#: mark A.start
#: mark B.start 120
#: console 90 Kernel panic - not syncing: kjump_test_panic: freeze of kjump_test_panic\.1 on CPU 1$
#: console 30 kexec jump: panic on CPU 1: going back to the previous kernel from CPU 0$
#: mark B.start 120
#: console 90 Kernel panic - not syncing: kjump_test_panic: restore of kjump_test_panic\.[01] on CPU [01]$
#: console 30 kexec jump: (panic on CPU 1: )?going back to the previous kernel( from CPU 0)?$
#: mark B.start 120
#: mark A.end
exec sh /scenarios/jump-freeze-panic.sh
