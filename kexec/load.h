/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_LOAD_H
#define KJUMP_LOAD_H

#include "options.h"

/*
 * The data path of -l/-p/-f: read the files, pick a loader, build the
 * image description and hand it to kexec_load.  Nothing reaches the
 * kernel unless every step succeeded, so a failed load leaves whatever
 * was loaded before in place.  Returns 0 or -1 (error already printed).
 */
int load_kernel(const struct kexec_opts *opts);

/*
 * --load-jump-back-helper: in a kernel entered by an upstream kexec jump,
 * load the way back to the kernel that jumped (--entry, or
 * kexec_jump_back_entry= from /proc/cmdline).
 */
int load_jump_back_helper(const struct kexec_opts *o);

/* -u: unload the normal (or, with -p, the crash) slot. */
int unload_kernel(const struct kexec_opts *opts);

#endif
