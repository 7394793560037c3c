/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_SWSUSP_STREAM_H
#define KJUMP_HIB_SWSUSP_STREAM_H

/*
 * The swsusp image stream of a committed image, as /dev/snapshot takes it
 * for a restore (doc/image-format.md, "The swsusp stream"): the header
 * page A's kernel published, the frame numbers of every page in the
 * kernel's word size, then every page's content.  Every chunk is checked
 * (its header against the index, decompression, the pages' checksum)
 * before any of its pages is written.
 */
#include <stddef.h>
#include <stdint.h>

#include "kjump/hib/image-read.h"

/* Where the counts are in a struct swsusp_info page, by kernel word. */
struct kjh_swsusp_counts {
	uint64_t image_pages;		/* pages of data */
	uint64_t pages;			/* image_pages + meta pages + 1 */
};

int kjh_swsusp_counts(const uint8_t *info, uint32_t kernel_word,
		      struct kjh_swsusp_counts *c);

/* Meta pages the frame list of n pages takes. */
uint64_t kjh_swsusp_meta_pages(uint64_t n, uint32_t kernel_word);

/*
 * That the image's swsusp header describes exactly the image's pages:
 * 0, or -EBADMSG with why.
 */
int kjh_swsusp_check(const struct kjh_image *img, char *why, size_t why_size);

/* Where a write's time went (milliseconds of CLOCK_MONOTONIC). */
struct kjh_stream_stats {
	uint64_t total_ms;		/* the whole stream */
	uint64_t wait_ms;		/* the writer waiting for decoded chunks */
	unsigned int decoders;		/* decoder threads */
};

/*
 * Write the stream to fd, one page per write(2) call at most (as
 * /dev/snapshot takes it).  stats, when not NULL, is filled in.
 */
int kjh_swsusp_write(struct kjh_image *img, int fd,
		     struct kjh_stream_stats *stats, char *why,
		     size_t why_size);

#endif
