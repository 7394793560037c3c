#!/bin/sh
# x86_64-kdump-file: x86_64-kdump with kexec -s -p: kexec_file_load, the
# kernel writes the ELF64 core header and adds elfcorehdr= itself; the
# same checks in B but the PT_LOAD list (the kernel's header also maps
# the kernel text).
#: arch x86_64
#: debian skip x86_64-kdump@debian runs Debian's kdump
#: timeout 300
#: append crashkernel=192M
# (640 MiB: Debian's kernel puts itself anywhere in RAM (KASLR); in 512
# MiB, with a 51 MiB initramfs at the top, a 192 MiB crash region found
# no room now and then.)
#: memory 640
#: allow-panic-after ^KJ A: handover to B$
#: mark A.start 90
#: console 60 Kernel panic - not syncing: sysrq triggered crash
#: mark B.start 150
#: mark B.end 120
KJ_KDUMP_HOW="-s -p"
. /scenarios/x86_64-kdump.sh
