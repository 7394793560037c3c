#!/bin/sh
# jump-freeze-panic-first: A panics in a driver's freeze callback on its
# first jump into B; B boots as a plain crash kernel, says once that no
# way back is recorded, and finds A's pattern in /proc/vmcore (patch
# 0031).  Same guest script.
#: timeout 300
#: append crashkernel=64M no_console_suspend kjump.case=a-first
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: allow-panic-after ^KJ A: handover to B \(freeze panic\)$
#: mark A.start
#: console 90 Kernel panic - not syncing: kjump_test_panic: freeze of kjump_test_panic\.1 on CPU 1$
#: mark B.start 120
#: mark B.end 120
exec sh /scenarios/jump-freeze-panic.sh
