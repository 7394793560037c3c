#!/bin/sh
# jump-freeze-fail: a device refuses to freeze on a jump: kexec -j exits 1
# naming devices, the device frozen before it is thawed again with
# PMSG_RECOVER (patches 0001, 0002: upstream's error path left it frozen
# and resumed with PMSG_RESTORE), B stays loaded and unparked, A carries
# on; the next trip works.  Same guest script.
#: timeout 240
#: append crashkernel=64M no_console_suspend kjump.case=a-fail
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours
#: mark A.start
#: mark B.start 120
#: mark A.end
exec sh /scenarios/jump-freeze-panic.sh
