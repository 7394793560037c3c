#!/bin/sh
# jump-panic-cpu0: the jump-panic scenario with the crash on CPU 0, the
# CPU every jump leaves from: A enters the parked B directly, without the
# hand-over by NMI; same guest script.
#: timeout 300
#: append crashkernel=64M kjump.trips=2 kjump.crashcpu=0
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: allow-panic-after ^KJ A: handover to B \(crash\)$
#: mark A.start
#: mark B.start 120
#: console 90 Kernel panic - not syncing: sysrq triggered crash
#: reject kexec jump: crash on CPU
#: mark B.end 120
exec sh /scenarios/jump-panic.sh
