/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A mark: a small file in /run (below the context's root) that records a
 * fact the kernel does not keep about a loaded slot, for this boot only.
 * It holds a text followed by this boot's id, so that a mark an earlier
 * boot left behind (a /run that is no tmpfs) counts for nothing.  The
 * marks themselves are preserve-mark.h's and hib/helper-mark.h's.
 */
#ifndef KJUMP_MARK_H
#define KJUMP_MARK_H

#include <stdbool.h>

#include "ctx.h"

/*
 * Write TEXT and the boot id to PATH.  On failure, warn "PATH: why
 * (CONSEQUENCE)" and leave no mark.
 */
void mark_write(const struct kj_ctx *ctx, const char *path, const char *text,
		const char *consequence);

/* Remove PATH; warn if it is there and cannot go. */
void mark_remove(const struct kj_ctx *ctx, const char *path);

/* Does PATH hold TEXT and this boot's id? */
bool mark_holds(const struct kj_ctx *ctx, const char *path, const char *text);

#endif
