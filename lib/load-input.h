/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What both ways of a load (load.c by kexec_load, file-load.c by
 * kexec_file_load) take in and leave behind: the kernel and initrd files,
 * the command line, and the marks of the slot they filled.
 */
#ifndef KJUMP_LOAD_INPUT_H
#define KJUMP_LOAD_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "cmdline.h"
#include "ctx.h"
#include "kjump/kjump.h"

#define LOAD_MAX_KERNEL_SIZE	(256u << 20)
#define LOAD_MAX_INITRD_SIZE	(1024u << 20)

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

/*
 * After a load or an unload of a slot: set or remove its mark
 * (preserve-mark.h for the normal slot, whose image comes back when
 * loaded with KEXEC_PRESERVE_CONTEXT; hib/helper-mark.h for the crash
 * slot, whose initramfs can save a hibernation image).
 */
void load_update_mark(const struct kj_ctx *ctx, bool crash, bool mark);

#endif
