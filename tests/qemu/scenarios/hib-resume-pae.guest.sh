#!/bin/sh
# hib-resume-pae: hib-resume (scenarios/hib-resume.guest.sh) on the PAE
# kernel build (config pae, HIGHMEM64G: NX in the page tables, so the
# restore must have EFER.NXE set before A's page tables are live): 80% of
# MemTotal in use, hibernate, power-off, resume, A carries on.
#: timeout 420
#: config pae
#: cpu qemu32,+nx
#: disk 640
#: fs-disk 64 ext4
#: append crashkernel=64M no_console_suspend
#: debian skip kexec --hibernate is ours
#: mark A.start
#: mark B.start 120
#: mark B.reboot 120
#: mark A.start
#: mark A.end 180
exec sh /scenarios/hib-resume.sh
