#!/bin/sh
# x86_64-hib-bad-input: hib-bad-input on the x86_64 companion kernel
# (config x86_64, as x86_64-hib-resume): --snapshot, --hibernate and
# --warm-up with bad input fail before the jump with one kexec: line and
# leave everything as it was.
#: extended
#: arch x86_64
#: config x86_64
#: cpu max
#: timeout 225
#: disk 300
#: append crashkernel=64M pti=on
#: debian skip kexec --snapshot is ours
exec sh /scenarios/hib-bad-input.sh
