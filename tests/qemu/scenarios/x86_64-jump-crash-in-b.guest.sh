#!/bin/sh
# x86_64-jump-crash-in-b: the jump-crash-in-b scenario on the x86_64
# companion kernel (config x86_64); same guest script.
#: arch x86_64
#: config x86_64
#: timeout 300
#: append crashkernel=64M
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: allow-panic-after ^KJ B: handover to A \(crash on CPU [01]\)$
#: mark A.start
#: mark B.start 120
#: console 90 Kernel panic - not syncing: sysrq triggered crash
#: console 30 kexec jump: panic on CPU 1: going back to the previous kernel from CPU 0$
#: mark B.start 120
#: console 90 Kernel panic - not syncing: sysrq triggered crash
#: console 30 kexec jump: going back to the previous kernel$
#: mark B.start 120
#: mark A.end
exec sh /scenarios/jump-crash-in-b.sh
