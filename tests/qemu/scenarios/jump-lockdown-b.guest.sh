#!/bin/sh
# jump-lockdown-b: the jump-lockdown scenario in the other direction: B,
# entered a second time, locks itself down (integrity) and its kexec -j
# back is refused; the run ends in B (patch 0017).  Same guest script.
#: timeout 240
#: append crashkernel=64M kjump.lockdown=b
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: mark A.start
#: mark B.start 120
#: mark B.end 60
exec sh /scenarios/jump-lockdown.sh
