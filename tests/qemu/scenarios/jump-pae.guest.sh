#!/bin/sh
# jump-pae: the jump scenario on the PAE kernel (config pae) with NX on
# (cpu qemu32,+nx: NX bits in the page tables); same guest
# script, which also checks the kernel is the PAE build.
#: timeout 300
#: config pae
#: cpu qemu32,+nx
#: disk 16
#: append crashkernel=64M kjump.trips=20
#: debian skip kexec -j (LINUX_REBOOT_CMD_KJUMP) is ours; see jump-debian-baseline
#: mark A.start
#: mark B.start 120
#: mark A.end
exec sh /scenarios/jump.sh
