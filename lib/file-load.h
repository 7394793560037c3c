/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_FILE_LOAD_H
#define KJUMP_FILE_LOAD_H

#include <stdbool.h>

#include "ctx.h"
#include "kjump/kjump.h"

/*
 * kj_load() by kexec_file_load (file-load.c).  With fallback (-a) it
 * returns -ENOEXEC, having reported nothing, when the request should go
 * to kexec_load instead: an option only kexec_load has, an image the
 * kernel's file loader does not take, a kernel or program without the
 * file call.
 */
int file_load(struct kj_ctx *ctx, const struct kj_load_spec *s,
	      bool fallback);

#endif
