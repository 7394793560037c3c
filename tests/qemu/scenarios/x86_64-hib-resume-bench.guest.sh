#!/bin/sh
# x86_64-hib-resume-bench: hib-resume-bench on the x86_64 companion kernel
# (config x86_64, as x86_64-hib-resume): ours against swsusp in the same
# guest and kernel, at 40% and 80% of MemTotal, B booted in the hibernate
# and warmed up (make bench; doc/benchmarks.md).
#: extended
#: arch x86_64
#: config x86_64
#: cpu max
#: timeout 1350
#: disk 1600
#: append crashkernel=64M resume=/dev/vda2 no_console_suspend pti=on
#: debian skip kexec --hibernate is ours
#: mark A.start 120
#: console 300 KJ A: bench ours-40 hibernate
#: mark B.start 180
#: mark B.reboot 180
#: mark A.start 120
#: console 120 KJ A: bench ours-40 resumed
#: console 120 KJ A: bench ours-40 verified
#: console 300 KJ A: bench ours-80 hibernate
#: mark B.start 180
#: mark B.reboot 180
#: mark A.start 120
#: console 120 KJ A: bench ours-80 resumed
#: console 120 KJ A: bench ours-80 verified
#: console 300 KJ A: bench ours-40-warm warm-up
#: mark B.start 180
#: console 120 KJ A: bench ours-40-warm warmed
#: console 120 KJ A: bench ours-40-warm hibernate
#: mark A.reboot 120
#: mark A.start 120
#: console 120 KJ A: bench ours-40-warm resumed
#: console 120 KJ A: bench ours-40-warm verified
#: console 300 KJ A: bench ours-80-warm warm-up
#: mark B.start 180
#: console 120 KJ A: bench ours-80-warm warmed
#: console 120 KJ A: bench ours-80-warm hibernate
#: mark A.reboot 120
#: mark A.start 120
#: console 120 KJ A: bench ours-80-warm resumed
#: console 120 KJ A: bench ours-80-warm verified
#: console 300 KJ A: bench ours-80-none warm-up
#: mark B.start 180
#: console 120 KJ A: bench ours-80-none warmed
#: console 120 KJ A: bench ours-80-none hibernate
#: mark A.reboot 120
#: mark A.start 120
#: console 120 KJ A: bench ours-80-none resumed
#: console 120 KJ A: bench ours-80-none verified
#: console 300 KJ A: bench swsusp-40 hibernate
#: mark A.reboot 120
#: console 120 KJ A: bench swsusp-40 resumed
#: console 120 KJ A: bench swsusp-40 verified
#: console 300 KJ A: bench swsusp-80 hibernate
#: mark A.reboot 120
#: console 120 KJ A: bench swsusp-80 resumed
#: console 120 KJ A: bench swsusp-80 verified
#: console 300 KJ A: bench swsusp-80-noswap failed
#: mark A.end 240
exec sh /scenarios/hib-resume-bench.sh
