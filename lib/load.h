/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the generic load (load.c) the rest of the library shares;
 * the load itself is kj_load() in kjump.h.
 */
#ifndef KJUMP_LOAD_H
#define KJUMP_LOAD_H

#include "ctx.h"

/* /proc/cmdline below the context's root, malloc'd.  Reports errors. */
int read_proc_cmdline(const struct kj_ctx *ctx, char **text);

#endif
