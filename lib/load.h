/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers of the generic load (load.c) the rest of the library shares;
 * the load itself is kj_load() in kjump.h.
 */
#ifndef KJUMP_LOAD_H
#define KJUMP_LOAD_H

#include "cmdline.h"
#include "ctx.h"
#include "kjump/kjump.h"

/* /proc/cmdline below the context's root, malloc'd.  Reports errors. */
int read_proc_cmdline(const struct kj_ctx *ctx, char **text);

/* The command line spec asks for (--reuse-cmdline, --append).  Reports. */
int load_build_cmdline(const struct kj_ctx *ctx, const struct kj_load_spec *s,
		       struct cmdline *cl);

/*
 * Read a kernel or initrd of at most max bytes, from fd if it is one,
 * else from path.  Reports errors.
 */
int load_read_input(const struct kj_ctx *ctx, const char *what,
		    const char *path, int fd, size_t max, char **buf,
		    size_t *len);

#define LOAD_MAX_KERNEL_SIZE	(256u << 20)
#define LOAD_MAX_INITRD_SIZE	(1024u << 20)

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
