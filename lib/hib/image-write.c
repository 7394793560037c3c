// SPDX-License-Identifier: GPL-2.0-only
/*
 * The image writer: chunk records, large gathered writes, the index, the
 * commit record and the header, each step synced before the next.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kjump/hib/crc32c.h"
#include "kjump/hib/image-write.h"

int kjh_chunk_build(struct kjh_codec *codec, uint32_t seq,
		    uint64_t first_page, uint32_t pages, uint32_t crc,
		    void *rec, void *zrec, void **out, size_t *rec_len)
{
	struct kjh_chunk *ch = rec;
	const uint8_t *raw = (const uint8_t *)(ch + 1);
	size_t raw_len = (size_t)pages * KJH_PAGE, stored = 0, len;

	if (zrec)
		stored = kjh_compress_to(codec, raw, raw_len,
					 (struct kjh_chunk *)zrec + 1);
	memset(ch, 0, sizeof(*ch));
	ch->magic = KJH_CHUNK_MAGIC;
	ch->seq = seq;
	ch->first_page = first_page;
	ch->page_count = pages;
	ch->raw_len = (uint32_t)raw_len;
	ch->raw_crc = crc;
	if (stored) {
		memcpy(zrec, ch, sizeof(*ch));
		ch = zrec;
		ch->method = kjh_codec_method(codec);
		ch->stored_crc = kjh_crc32c(0, ch + 1, stored);
	} else {
		/* a stored chunk is its pages: one pass is enough */
		stored = raw_len;
		ch->method = KJH_COMPRESS_NONE;
		ch->stored_crc = crc;
	}
	ch->stored_len = (uint32_t)stored;
	kjh_chunk_seal(ch);
	len = (size_t)kjh_round_up(sizeof(*ch) + stored);
	memset((uint8_t *)ch + sizeof(*ch) + stored, 0,
	       len - sizeof(*ch) - stored);
	*out = ch;
	*rec_len = len;
	return 0;
}

int kjh_write_at(const struct kjh_dev *dev, uint64_t off, const void *data,
		 size_t len)
{
	size_t padded = (size_t)kjh_round_up(len);
	void *buf;
	int r;

	if (!padded)
		return 0;
	buf = aligned_alloc(KJH_BLOCK, padded);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, data, len);
	memset((uint8_t *)buf + len, 0, padded - len);
	r = kjh_dev_pwrite(dev, buf, padded, off);
	free(buf);
	return r;
}

int kjh_write_header(const struct kjh_dev *dev, struct kjh_header *hdr)
{
	kjh_header_seal(hdr);
	return kjh_write_at(dev, 0, hdr, sizeof(*hdr));
}

int kjh_write_invalid(const struct kjh_dev *dev, struct kjh_header *hdr,
		      enum kjh_invalid_why why)
{
	int r;

	hdr->state = KJH_STATE_INVALID;
	hdr->invalid_why = why;
	r = kjh_write_header(dev, hdr);
	if (!r && fdatasync(dev->fd))
		r = -errno;
	return r;
}

static int sync_dev(const struct kjh_dev *dev)
{
	return fdatasync(dev->fd) ? -errno : 0;
}

int kjh_writer_begin(struct kjh_writer *w, const struct kjh_dev *dev,
		     struct kjh_header *hdr, size_t batch)
{
	memset(w, 0, sizeof(*w));
	w->dev = dev;
	w->hdr = hdr;
	w->batch_size = (size_t)kjh_round_up(batch);
	w->pos = w->batch_off = hdr->chunk_off;
	hdr->state = KJH_STATE_WRITING;
	hdr->chunk_count = 0;
	hdr->stored_bytes = 0;
	return kjh_write_header(dev, hdr);
}

int kjh_writer_flush(struct kjh_writer *w)
{
	int r;

	if (!w->nr_iov)
		return 0;
	r = kjh_dev_pwritev(w->dev, w->iov, w->nr_iov, w->batch_off);
	if (r)
		return r;
	w->written += w->batch_len;
	w->batch_off += w->batch_len;
	w->batch_len = 0;
	w->nr_iov = 0;
	return 0;
}

static int index_add(struct kjh_writer *w, const struct kjh_chunk *ch)
{
	struct kjh_chunk_ref *ref;

	if (w->hdr->chunk_count == w->index_cap) {
		uint64_t cap = w->index_cap ? 2 * w->index_cap : 256;

		ref = realloc(w->index, (size_t)cap * sizeof(*ref));
		if (!ref)
			return -ENOMEM;
		w->index = ref;
		w->index_cap = cap;
	}
	ref = &w->index[w->hdr->chunk_count++];
	ref->off = w->pos;
	ref->stored_len = ch->stored_len;
	ref->raw_crc = ch->raw_crc;
	return 0;
}

bool kjh_writer_full(const struct kjh_writer *w, size_t rec_len)
{
	return w->nr_iov == KJH_DEV_IOV_MAX ||
	       (w->nr_iov && w->batch_len + rec_len > w->batch_size);
}

int kjh_writer_add(struct kjh_writer *w, const void *rec, size_t rec_len)
{
	const struct kjh_chunk *ch = rec;
	int r;

	if (ch->seq != w->hdr->chunk_count || rec_len % KJH_BLOCK ||
	    (uintptr_t)rec % KJH_BLOCK)
		return -EINVAL;
	if (kjh_writer_full(w, rec_len))
		return -E2BIG;
	if (w->pos + rec_len > w->dev->capacity)
		return -ENOSPC;
	r = index_add(w, ch);
	if (r)
		return r;
	w->iov[w->nr_iov++] = (struct iovec){ (void *)rec, rec_len };
	w->batch_len += rec_len;
	w->pos += rec_len;
	w->hdr->stored_bytes += ch->stored_len;
	return 0;
}

static int write_commit(struct kjh_writer *w)
{
	struct kjh_header *h = w->hdr;
	struct kjh_commit cm;

	memset(&cm, 0, sizeof(cm));
	memcpy(cm.magic, KJH_COMMIT_MAGIC, 8);
	memcpy(cm.nonce, h->nonce, KJH_NONCE_LEN);
	cm.chunk_count = h->chunk_count;
	cm.image_bytes = h->image_bytes;
	cm.data_pages = h->data_pages;
	cm.index_crc = h->index_crc;
	cm.runs_crc = h->runs_crc;
	cm.swsusp_crc = h->swsusp_crc;
	cm.sections_crc = h->sections_crc;
	kjh_commit_seal(&cm);
	return kjh_write_at(w->dev, h->commit_off, &cm, sizeof(cm));
}

int kjh_writer_commit(struct kjh_writer *w, uint32_t extra_flags)
{
	struct kjh_header *h = w->hdr;
	size_t index_len = (size_t)h->chunk_count * sizeof(*w->index);
	int r;

	r = kjh_writer_flush(w);
	if (r)
		return r;
	h->index_off = w->pos;
	h->index_crc = kjh_crc32c(0, w->index, index_len);
	h->commit_off = h->index_off + kjh_round_up(index_len);
	h->image_bytes = h->commit_off + KJH_BLOCK;
	if (h->image_bytes > w->dev->capacity)
		return -ENOSPC;
	r = kjh_write_at(w->dev, h->index_off, w->index, index_len);
	if (!r)
		r = sync_dev(w->dev);
	if (!r)
		r = write_commit(w);
	if (!r)
		r = sync_dev(w->dev);
	if (r)
		return r;
	/* a snapshot's kernel runs on: its image must never be resumed */
	h->state = extra_flags & KJH_F_SNAPSHOT ? KJH_STATE_SNAPSHOT :
		   KJH_STATE_COMMITTED;
	h->flags |= extra_flags;
	h->saved = (uint64_t)time(NULL);
	r = kjh_write_header(w->dev, h);
	return r ? r : sync_dev(w->dev);
}

void kjh_writer_free(struct kjh_writer *w)
{
	free(w->index);
	w->index = NULL;
	w->nr_iov = 0;
}
