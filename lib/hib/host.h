/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_HOST_H
#define KJUMP_HIB_HOST_H

/*
 * The running kernel's facts an image records about A and a resume
 * compares (resume-check.h): uname, the kernel's GNU build id
 * (/sys/kernel/notes), its word size, System RAM and the crash region
 * (/proc/iomem).  Errors are reported once through ctx.
 */
#include <stddef.h>
#include <stdint.h>

#include "resume-check.h"

struct kj_ctx;

/* The build id of a notes blob (ELF notes): its length, 0 when none. */
unsigned int kjh_notes_build_id(const void *notes, size_t len, uint8_t *id,
				size_t id_size);

int kjh_host_read(struct kj_ctx *ctx, const char *what, struct kjh_host *h);

#define KJH_MEMINFO_PATH	"/proc/meminfo"

/*
 * MemTotal and MemFree of KJH_MEMINFO_PATH, in pages: 0, or -EIO (not
 * reported: the caller says what it needed them for).
 */
int kjh_host_meminfo(struct kj_ctx *ctx, uint64_t *total, uint64_t *avail);

#endif
