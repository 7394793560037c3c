#!/bin/sh
# x86_64-hib-resume-cycles: hib-resume-cycles on the x86_64 companion
# kernel (config x86_64, as x86_64-hib-resume): six hibernate, power-off,
# resume cycles in one life of A, three to a raw partition and three to a
# file through --resume-offset; after each, A's RAM below 1 MiB as before
# and CPU 1 off and on again.
#: extended
#: arch x86_64
#: config x86_64
#: cpu max
#: timeout 1500
#: disk 640
#: fs-disk 640 ext4
#: append crashkernel=64M no_console_suspend pti=on
#: debian skip kexec --resume is ours
#: mark A.start 120
#: mark B.start 180
#: mark B.reboot 180
#: mark A.start 120
#: mark B.start 180
#: mark B.reboot 180
#: mark A.start 120
#: mark B.start 180
#: mark B.reboot 180
#: mark A.start 120
#: mark B.start 180
#: mark B.start 180
#: mark B.reboot 180
#: mark A.start 120
#: mark B.start 180
#: mark B.reboot 180
#: mark A.start 120
#: mark B.start 180
#: mark B.reboot 180
#: mark A.start 120
#: mark A.end 240
exec sh /scenarios/hib-resume-cycles.sh
