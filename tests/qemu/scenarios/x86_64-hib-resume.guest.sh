#!/bin/sh
# x86_64-hib-resume: hib-resume on the x86_64 companion kernel (config
# x86_64: configured as a distribution's, with lockdep and atomic-sleep
# checks, ftrace, page-table isolation and KASLR; patches 0038 and 0039),
# -cpu max (PCID, INVPCID) and pti=on: hibernate to a raw disk, power off,
# resume from a fresh boot, and every check of hib-resume, with its x86_64
# ones: A's low RAM restored (B's and A''s differ), CPU 1 back and cycled,
# ftrace on, A and A' at different KASLR addresses.
#: arch x86_64
#: config x86_64
#: cpu max
#: timeout 600
#: disk 640
#: fs-disk 64 ext4
#: append crashkernel=64M no_console_suspend pti=on
#: differ lowram
#: differ kaslr
#: debian skip kexec --hibernate is ours
#: mark A.start 120
#: mark B.start 180
#: mark B.reboot 180
#: mark A.start 120
#: mark A.end 240
exec sh /scenarios/hib-resume.sh
