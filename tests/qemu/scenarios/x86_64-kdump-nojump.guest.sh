#!/bin/sh
# x86_64-kdump-nojump: x86_64-kdump-companion with kexec -p --no-jump.  The
# crash image is loaded without KEXEC_PRESERVE_CONTEXT, so its control
# pages stay in the crash region, the layout kexec_mark_crashkres()
# protects as upstream, and B gets no kexec_jump_buf_pfn=.  kexec -j is
# refused with ENOEXEC's line and leaves B loaded; a real crash then ends
# in B with A's memory intact in /proc/vmcore.  Same guest script.
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
KJ_KDUMP_HOW="-p --no-jump"
. /scenarios/x86_64-kdump.sh
