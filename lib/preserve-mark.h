/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel does not say whether the image in the normal slot was loaded
 * with KEXEC_PRESERVE_CONTEXT, yet -e must not take the network down for
 * a jump that comes back, and -j must not reboot into an image that does
 * not.  So a preserve-context load leaves a mark in /run, tied to this
 * boot; any other load or unload of the normal slot removes it.
 */
#ifndef KJUMP_PRESERVE_MARK_H
#define KJUMP_PRESERVE_MARK_H

#include <stdbool.h>

#include "ctx.h"

#define PRESERVE_MARK_PATH	"/run/kexec-preserve-context"

/* Record that the normal slot now holds a preserve-context image. */
void preserve_mark_set(const struct kj_ctx *ctx);

/* The normal slot was emptied or holds an ordinary image now. */
void preserve_mark_clear(const struct kj_ctx *ctx);

/* True if the mark is from this boot and the normal slot is loaded. */
bool preserve_mark_valid(const struct kj_ctx *ctx);

#endif
