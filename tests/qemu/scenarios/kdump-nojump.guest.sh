#!/bin/sh
# kdump-nojump: kdump with kexec -p --no-jump on the companion kernel.  The
# crash image is loaded without KEXEC_PRESERVE_CONTEXT, so the kernel keeps
# its control page in the crash region, as upstream does, and B gets no
# kexec_jump_buf_pfn=.  kexec -j is refused with ENOEXEC's line and leaves
# B loaded; a real crash then ends in B with A's memory intact in
# /proc/vmcore.  Same guest script and checks as kdump.
#: debian skip kdump@debian runs Debian's kdump
#: timeout 150
#: append crashkernel=64M
#: allow-panic-after ^KJ A: handover to B$
#: mark A.start
#: console 60 Kernel panic - not syncing: sysrq triggered crash
#: mark B.start 90
#: mark B.end 120
KJ_KDUMP_HOW="-p --no-jump"
. /scenarios/kdump.sh
