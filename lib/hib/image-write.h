/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_IMAGE_WRITE_H
#define KJUMP_HIB_IMAGE_WRITE_H

/*
 * Writing B's part of an image, in the order of image-format.h: header
 * (WRITING), sections, chunks (batched into large aligned writes), the
 * index, the commit record, the header (COMMITTED).  Every write is whole
 * blocks from KJH_BLOCK-aligned memory, so the device may be O_DIRECT.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compress.h"
#include "image-read.h"

#define KJH_CHUNK_PAGES		64u	/* 256 KiB (doc/image-format.md) */

static inline uint64_t kjh_round_up(uint64_t v)
{
	return (v + KJH_BLOCK - 1) & ~(uint64_t)(KJH_BLOCK - 1);
}

/* The record of a chunk of pages pages: header, payload, padding. */
static inline size_t kjh_chunk_rec_max(uint32_t pages)
{
	return (size_t)kjh_round_up(sizeof(struct kjh_chunk) +
				    (uint64_t)pages * KJH_PAGE);
}

/*
 * Compress pages pages of raw into rec (kjh_chunk_rec_max() bytes,
 * padding zeroed): header with crcs, payload.  *rec_len: block multiple.
 */
int kjh_chunk_build(struct kjh_codec *codec, uint32_t seq,
		    uint64_t first_page, const void *raw, uint32_t pages,
		    void *rec, size_t *rec_len);

struct kjh_writer {
	const struct kjh_dev *dev;
	struct kjh_header *hdr;
	uint8_t *batch;			/* aligned */
	size_t batch_size, batch_len;
	uint64_t batch_off;		/* logical offset of batch[0] */
	uint64_t pos;			/* next chunk's offset */
	struct kjh_chunk_ref *index;
	uint64_t index_cap;
	uint64_t written;		/* bytes written, for "too small" */
};

/* len bytes of data at off, padded to blocks through an aligned copy. */
int kjh_write_at(const struct kjh_dev *dev, uint64_t off, const void *data,
		 size_t len);
/* Seal and write block 0. */
int kjh_write_header(const struct kjh_dev *dev, struct kjh_header *hdr);

/*
 * hdr has every offset up to chunk_off set; state becomes WRITING and the
 * header is written.  batch: bytes per large write (a block multiple).
 */
int kjh_writer_begin(struct kjh_writer *w, const struct kjh_dev *dev,
		     struct kjh_header *hdr, size_t batch);
/* rec from kjh_chunk_build(), in seq order. */
int kjh_writer_add(struct kjh_writer *w, const void *rec, size_t rec_len);
/*
 * The rest: batch, index, fdatasync, commit, fdatasync, header COMMITTED
 * (flags |= extra_flags, saved = now), fdatasync.
 */
int kjh_writer_commit(struct kjh_writer *w, uint32_t extra_flags);
void kjh_writer_free(struct kjh_writer *w);
/* Best effort: the header again, state INVALID. */
int kjh_write_invalid(const struct kjh_dev *dev, struct kjh_header *hdr);

#endif
