#!/bin/sh
# x86_64-hib-cancel: hib-cancel on the x86_64 companion kernel (config
# x86_64, as x86_64-hib-resume): refused while /dev/snapshot is open; a
# SIGTERM to the writer in B cancels the save; A carries on intact.
#: extended
#: arch x86_64
#: config x86_64
#: cpu max
#: timeout 450
#: disk 640
#: append crashkernel=64M pti=on
#: debian skip kexec --snapshot is ours
#: mark A.start 120
#: mark B.start 180
#: mark A.end 240
exec sh /scenarios/hib-cancel.sh
