/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the running kernel tells user space for a crash load: per-CPU note
 * buffers, the vmcoreinfo note, and (with the kexec-jump companion) the
 * jump buffer.  All paths are read below a root prefix so tests can use
 * fixture trees.
 */
#ifndef KJUMP_CRASH_SOURCES_H
#define KJUMP_CRASH_SOURCES_H

#include <stddef.h>
#include <stdint.h>

#include "ctx.h"
#include "elf-core.h"

/* One note per possible CPU with crash_notes; returns count or -errno. */
int read_cpu_crash_notes(const struct kj_ctx *ctx, struct elfcore_note *notes,
			 size_t max);

/* /sys/kernel/vmcoreinfo; -ENOENT when absent. */
int read_vmcoreinfo(const struct kj_ctx *ctx, struct elfcore_note *note);

/*
 * /sys/kernel/kexec_jump_buf_pfn: 0 with *pfn set, -ENOENT when the file
 * does not exist (stock kernel), -EINVAL when it holds no valid pfn.
 */
int read_jump_buf_pfn(const struct kj_ctx *ctx, uint64_t *pfn);

#endif
