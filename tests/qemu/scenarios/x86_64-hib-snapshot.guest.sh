#!/bin/sh
# x86_64-hib-snapshot: hib-snapshot on the x86_64 companion kernel (config
# x86_64, as x86_64-hib-resume): kexec --snapshot to a raw disk with 80% of
# MemTotal in use and no swap; A carries on; every check of hib-snapshot,
# with A's RAM below 1 MiB A's again after the jump (B's differs) and CPU 1
# cycled.
#: extended
#: arch x86_64
#: config x86_64
#: cpu max
#: timeout 420
#: disk 640
#: append crashkernel=64M pti=on
#: differ lowram
#: debian skip kexec --snapshot is ours
#: mark A.start 120
#: mark B.start 180
#: mark A.end 240
exec sh /scenarios/hib-snapshot.sh
