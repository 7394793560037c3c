#!/bin/sh
# jump-freeze-panic-restore: after a round trip, A panics in a driver's
# restore callback when B jumps back; the crash enters the parked B, which
# finds A's pattern in /proc/vmcore (patch 0031).  Same guest script.
#: timeout 300
#: append crashkernel=64M no_console_suspend kjump.case=a-restore
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: allow-panic-after ^KJ B: jump back n=1 \(restore panic\)$
#: mark A.start
#: mark B.start 120
#: console 90 Kernel panic - not syncing: kjump_test_panic: restore of kjump_test_panic\.[01] on CPU [01]$
#: mark B.end 120
exec sh /scenarios/jump-freeze-panic.sh
