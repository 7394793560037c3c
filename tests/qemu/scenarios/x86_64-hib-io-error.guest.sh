#!/bin/sh
# x86_64-hib-io-error: hib-io-error on the x86_64 companion kernel (config
# x86_64, as x86_64-hib-resume): a write error in B stops the writer, which
# marks the image invalid and jumps back; A carries on, one kexec: line.
#: extended
#: arch x86_64
#: config x86_64
#: cpu max
#: timeout 450
#: disk 640
#: disk-fault 307200
#: append crashkernel=64M pti=on
#: debian skip kexec --snapshot is ours
#: mark A.start 120
#: mark B.start 180
#: mark A.end 240
exec sh /scenarios/hib-io-error.sh
