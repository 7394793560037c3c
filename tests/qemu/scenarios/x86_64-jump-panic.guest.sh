#!/bin/sh
# x86_64-jump-panic: the jump-panic scenario on the x86_64 companion
# kernel (config x86_64): 3 kexec -j round trips, then a crash in A that
# enters B where it stopped; same guest script (the record sits at 0x1900
# of the jump buffer there).
#: arch x86_64
#: config x86_64
#: timeout 300
#: append crashkernel=64M kjump.trips=3 kjump.crashcpu=1
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: allow-panic-after ^KJ A: handover to B \(crash\)$
#: mark A.start
#: mark B.start 120
#: console 90 Kernel panic - not syncing: sysrq triggered crash
#: console 30 kexec jump: crash on CPU 1: entering the parked crash kernel from CPU 0$
#: mark B.end 120
exec sh /scenarios/jump-panic.sh
