#!/bin/sh
# x86_64-hib-resume-refuse: hib-resume-refuse on the x86_64 companion
# kernel (config x86_64, as x86_64-hib-resume): every image a resume must
# not restore (another RAM map, another kernel build: x86_64-nokjump,
# another crash region, too little free memory, a corrupt chunk, flipped
# table bytes, no commit record, the file system mounted now or changed
# since) is refused with its reason and left whole; the boot hook keeps
# it or makes it never resumable.
#: arch x86_64
#: config x86_64
#: cpu max
#: timeout 720
#: disk 640
#: fs-disk 64 ext4
#: append crashkernel=64M pti=on
#: boot 2 memory 640
#: boot 3 config x86_64-nokjump
#: boot 4 append crashkernel=32M kjump.keep_image
#: debian skip kexec --resume is ours
#: mark A.start 120
#: mark B.start 180
#: mark B.reboot 180
#: mark A.start 120
#: mark A.reboot 90
#: mark A.start 120
#: mark A.reboot 90
#: mark A.start 120
#: mark A.reboot 90
#: mark A.start 120
#: mark A.end 180
exec sh /scenarios/hib-resume-refuse.sh
