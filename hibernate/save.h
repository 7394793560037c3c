/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIBERNATE_SAVE_H
#define KJUMP_HIBERNATE_SAVE_H

/*
 * The image writer's engine (kjump-save runs it in kernel B): A's pages
 * out of /proc/vmcore into the target A prepared, as image-format.h says.
 */
#include <stdbool.h>
#include <stdint.h>

#include "kjump/kjump.h"
#include "kjump/kjump-hib.h"

struct kjs_progress {
	uint64_t done_pages, total_pages;	/* of the map */
	uint64_t data_pages, zero_pages;
	uint64_t stored_bytes;			/* chunk records written */
	uint64_t elapsed_ms;
	bool final;
};

struct kjs_job {
	struct kj_ctx *ctx;
	const struct kj_jump_param *param;
	const struct kjh_request *req;
	const char *vmcore;		/* /proc/vmcore */
	const char *dev;		/* the device node of req->dev */
	/* Both optional; called from the thread that called kjs_save(). */
	void (*progress)(void *data, const struct kjs_progress *p);
	bool (*cancelled)(void *data);
	void *data;
	/* read() the core even where it could be mapped (tests) */
	bool no_mmap;
	/* prefixes /sys for A's file systems' devices ("": none) */
	const char *root;
};

/*
 * Save.  0: committed, st says ok with the numbers.  Otherwise -errno
 * and st has result error (or cancelled, -ECANCELED) and a one-line
 * reason; the header is INVALID if anything had been written.
 */
int kjs_save(const struct kjs_job *job, struct kjh_status *st);

/*
 * A hibernation's image that kjs_save() committed, made INVALID
 * (KJH_INVALID_CAME_BACK) and synced, before B goes back to A instead
 * of powering off: A runs on, so the image must never be resumed.
 * 0 (also when block 0 no longer holds that committed image), or -errno
 * with st's result and reason set.
 */
int kjs_invalidate(const struct kjs_job *job, struct kjh_status *st);

#endif
