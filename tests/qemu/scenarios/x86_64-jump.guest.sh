#!/bin/sh
# x86_64-jump: the jump scenario on the x86_64 companion kernel (config
# x86_64, patches 0006, 0018, 0019): kexec -p, then 20 kexec -j round trips with
# 2 vCPUs and the same checks as on i386 (same guest script).
#: arch x86_64
#: config x86_64
#: timeout 300
#: disk 16
#: append crashkernel=64M kjump.trips=20
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: mark A.start
#: mark B.start 120
#: mark A.end
exec sh /scenarios/jump.sh
