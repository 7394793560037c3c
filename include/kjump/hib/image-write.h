/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_IMAGE_WRITE_H
#define KJUMP_HIB_IMAGE_WRITE_H

/*
 * Writing B's part of an image, in the order of image-format.h: header
 * (WRITING), sections, chunks (gathered into large aligned writes), the
 * index, the commit record, the header (COMMITTED).  Every write is whole
 * blocks from KJH_BLOCK-aligned memory, so the device may be O_DIRECT.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "kjump/hib/compress.h"
#include "kjump/hib/image-read.h"

#define KJH_CHUNK_PAGES		64u	/* 256 KiB (doc/image-format.md) */

/*
 * The record of the pages pages already at rec + sizeof(struct kjh_chunk)
 * (rec: kjh_chunk_rec_max(pages) bytes, aligned; crc: their crc32c,
 * the caller's, who may have had it on copying them): compressed into zrec
 * (as big; NULL: none) when that makes it smaller, else stored where the
 * pages are.  *out: rec or zrec, the record with the crcs; *rec_len its
 * bytes, a block multiple, the padding zeroed.
 */
int kjh_chunk_build(struct kjh_codec *codec, uint32_t seq,
		    uint64_t first_page, uint32_t pages, uint32_t crc,
		    void *rec, void *zrec, void **out, size_t *rec_len);

/*
 * Chunk records are gathered, not copied: kjh_writer_add() queues one
 * (its memory must stay as it is until the next kjh_writer_flush()),
 * kjh_writer_flush() writes the queue in one vectored write.
 */
struct kjh_writer {
	const struct kjh_dev *dev;
	struct kjh_header *hdr;
	struct iovec iov[KJH_DEV_IOV_MAX];
	int nr_iov;
	size_t batch_size, batch_len;
	uint64_t batch_off;		/* logical offset of the queue */
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
/*
 * rec from kjh_chunk_build(), in seq order, queued.  -E2BIG: the queue is
 * full (kjh_writer_full()), flush it first; -ENOSPC: past the capacity.
 */
int kjh_writer_add(struct kjh_writer *w, const void *rec, size_t rec_len);
/* Whether a record of rec_len bytes would not fit in the queue. */
bool kjh_writer_full(const struct kjh_writer *w, size_t rec_len);
/* The queue to the device; the queued records may be reused after. */
int kjh_writer_flush(struct kjh_writer *w);
/*
 * The rest: the queue, index, fdatasync, commit, fdatasync, header COMMITTED
 * (SNAPSHOT with KJH_F_SNAPSHOT in extra_flags; flags |= extra_flags,
 * saved = now), fdatasync.  The caller set runs_crc and swsusp_crc.
 */
int kjh_writer_commit(struct kjh_writer *w, uint32_t extra_flags);
void kjh_writer_free(struct kjh_writer *w);
/* The header again, state INVALID for why, fdatasync'd. */
int kjh_write_invalid(const struct kjh_dev *dev, struct kjh_header *hdr,
		      enum kjh_invalid_why why);

#endif
