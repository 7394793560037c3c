#!/bin/sh
# x86_64-kdump-companion: x86_64-kdump on the x86_64 companion kernel
# (config x86_64): with the whole series applied, a real crash still ends
# in B with A's memory intact in /proc/vmcore.  The series puts the crash
# image's control pages in the kexec jump buffer, outside the crash region,
# where kexec_mark_crashkres() assumed them inside and write-protected
# live memory (fixed by patch 0019).  Same guest script and checks.
#: arch x86_64
#: config x86_64
#: debian skip x86_64-kdump@debian runs Debian's kdump
#: timeout 300
#: append crashkernel=192M
#: allow-panic-after ^KJ A: handover to B$
#: mark A.start 90
#: console 60 Kernel panic - not syncing: sysrq triggered crash
#: mark B.start 150
#: mark B.end 120
. /scenarios/x86_64-kdump.sh
