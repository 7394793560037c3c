// SPDX-License-Identifier: GPL-2.0-only
/*
 * The image writer's pipeline (pipeline.h): the workers build the chunk
 * records, the writer thread writes them in order, gathered into large
 * writes, while the caller fills the next slots.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "kjump/kjump-hib.h"
#include "pipeline.h"

void *block_alloc(size_t len)
{
	return aligned_alloc(KJH_BLOCK, (size_t)kjh_round_up(len ? len : 1));
}

uint8_t *slot_pages(const struct slot *sl)
{
	return sl->buf + sizeof(struct kjh_chunk);
}

/* The chunk's pages into its record, if mapped; their crc32c. */
static uint32_t gather(struct slot *sl)
{
	uint8_t *dst = slot_pages(sl);
	uint32_t crc = 0, i;

	for (i = 0; i < sl->pages; i++, dst += KJH_PAGE)
		crc = sl->src[i] ?
		      kjh_crc32c_copy(crc, dst, sl->src[i], KJH_PAGE) :
		      kjh_crc32c(crc, dst, KJH_PAGE);
	return crc;
}

static void *worker(void *arg)
{
	struct pipe *p = arg;
	struct kjh_codec *codec = NULL;
	struct slot *sl;
	uint64_t seq;
	int err;

	err = kjh_codec_new(p->method, p->level, &codec);
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stop && p->next_work == p->head)
			pthread_cond_wait(&p->work, &p->lock);
		if (p->next_work == p->head)
			break;
		seq = p->next_work++;
		sl = &p->slots[seq % p->nr_slots];
		pthread_mutex_unlock(&p->lock);
		if (!err)
			err = kjh_chunk_build(codec, (uint32_t)seq,
					      sl->first_page, sl->pages,
					      gather(sl), sl->buf, sl->zbuf,
					      &sl->rec, &sl->rec_len);
		pthread_mutex_lock(&p->lock);
		sl->err = err;
		sl->done = true;
		pthread_cond_broadcast(&p->done);
	}
	pthread_mutex_unlock(&p->lock);
	kjh_codec_free(codec);
	return NULL;
}

/* Under the lock: the chunks from tail that are built, as one write. */
static uint64_t ready_end(struct pipe *p)
{
	uint64_t end = p->tail;
	size_t bytes = 0;
	struct slot *sl;

	while (end < p->head) {
		sl = &p->slots[end % p->nr_slots];
		if (!sl->done || (end > p->tail &&
				  (bytes + sl->rec_len > p->w->batch_size ||
				   end - p->tail == KJH_DEV_IOV_MAX)))
			break;
		bytes += sl->rec_len;
		end++;
		if (sl->err)
			break;
	}
	return end;
}

/* Chunks [tail, end) to the device: 0, or why the writer stops. */
static enum wfail write_chunks(struct pipe *p, uint64_t end, int *err,
			       uint64_t *seq)
{
	struct slot *sl;
	uint64_t i;

	for (i = p->tail; i < end; i++) {
		sl = &p->slots[i % p->nr_slots];
		*seq = i;
		*err = sl->err;
		if (*err)
			return WFAIL_CHUNK;
		*err = kjh_writer_add(p->w, sl->rec, sl->rec_len);
		if (*err)
			return WFAIL_WRITE;
	}
	*err = kjh_writer_flush(p->w);
	return *err ? WFAIL_WRITE : WFAIL_NONE;
}

/* Writes the chunks in order as they are built, until stopped or failed. */
static void *writer(void *arg)
{
	struct pipe *p = arg;
	enum wfail why;
	uint64_t end = 0, seq = 0, i;
	int err = 0;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stop && (end = ready_end(p)) == p->tail)
			pthread_cond_wait(&p->done, &p->lock);
		if (p->stop)
			break;
		pthread_mutex_unlock(&p->lock);
		why = write_chunks(p, end, &err, &seq);
		pthread_mutex_lock(&p->lock);
		if (why != WFAIL_NONE) {
			p->wfail = why;
			p->werr = err;
			p->wseq = seq;
			pthread_cond_broadcast(&p->freed);
			break;
		}
		for (i = p->tail; i < end; i++)
			p->slots[i % p->nr_slots].done = false;
		p->tail = end;
		p->written = p->w->written;
		pthread_cond_broadcast(&p->freed);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

static unsigned int batch_slots(void)
{
	size_t rec = kjh_chunk_rec_max(KJH_CHUNK_PAGES);

	return (unsigned int)(PIPE_BATCH_BYTES / rec) + 1;
}

int pipe_start(struct pipe *p, struct kjh_writer *w, enum kjh_compress method,
	       int level, unsigned int threads)
{
	size_t rec = kjh_chunk_rec_max(KJH_CHUNK_PAGES);
	unsigned int i;

	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->work, NULL);
	pthread_cond_init(&p->done, NULL);
	pthread_cond_init(&p->freed, NULL);
	p->w = w;
	p->method = method;
	p->level = level;
	/* one batch being written, one being built, one per worker */
	p->nr_slots = 2 * batch_slots() + threads + 1;
	p->slots = calloc(p->nr_slots, sizeof(*p->slots));
	p->threads = calloc(threads, sizeof(*p->threads));
	if (!p->slots || !p->threads)
		return -ENOMEM;
	for (i = 0; i < p->nr_slots; i++) {
		p->slots[i].buf = block_alloc(rec);
		if (p->method != KJH_COMPRESS_NONE)
			p->slots[i].zbuf = block_alloc(rec);
		if (!p->slots[i].buf ||
		    (p->method != KJH_COMPRESS_NONE && !p->slots[i].zbuf))
			return -ENOMEM;
	}
	for (i = 0; i < threads; i++) {
		if (pthread_create(&p->threads[i], NULL, worker, p))
			return -EAGAIN;
		p->nr_threads++;
	}
	if (pthread_create(&p->writer, NULL, writer, p))
		return -EAGAIN;
	p->have_writer = true;
	return 0;
}

/* Stops and joins the threads; what is queued is dropped.  Idempotent. */
void pipe_join(struct pipe *p)
{
	unsigned int i;

	if (!p->nr_threads && !p->have_writer)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	p->head = p->next_work;		/* drop what is queued */
	pthread_cond_broadcast(&p->work);
	pthread_cond_broadcast(&p->done);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->nr_threads; i++)
		pthread_join(p->threads[i], NULL);
	p->nr_threads = 0;
	if (p->have_writer)
		pthread_join(p->writer, NULL);
	p->have_writer = false;
}

void pipe_stop(struct pipe *p)
{
	unsigned int i;

	pipe_join(p);
	if (p->nr_slots) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->work);
		pthread_cond_destroy(&p->done);
		pthread_cond_destroy(&p->freed);
	}
	for (i = 0; p->slots && i < p->nr_slots; i++) {
		free(p->slots[i].buf);
		free(p->slots[i].zbuf);
	}
	free(p->slots);
	free(p->threads);
	p->slots = NULL;
	p->threads = NULL;
	p->nr_slots = 0;
}

struct slot *pipe_fill_slot(struct pipe *p)
{
	return &p->slots[p->head % p->nr_slots];
}

enum wfail pipe_submit(struct pipe *p, bool all)
{
	uint64_t keep = all ? 0 : p->nr_slots - 1;
	enum wfail why;

	pthread_mutex_lock(&p->lock);
	if (pipe_fill_slot(p)->pages) {
		p->head++;
		pthread_cond_signal(&p->work);
	}
	while (p->wfail == WFAIL_NONE && p->head - p->tail > keep)
		pthread_cond_wait(&p->freed, &p->lock);
	why = p->wfail;
	pthread_mutex_unlock(&p->lock);
	if (why == WFAIL_NONE)
		pipe_fill_slot(p)->pages = 0;
	return why;
}

enum wfail pipe_wait_written(struct pipe *p, uint64_t seq)
{
	enum wfail why;

	pthread_mutex_lock(&p->lock);
	while (p->wfail == WFAIL_NONE && p->tail < seq)
		pthread_cond_wait(&p->freed, &p->lock);
	why = p->wfail;
	pthread_mutex_unlock(&p->lock);
	return why;
}

uint64_t pipe_written(struct pipe *p)
{
	uint64_t n;

	pthread_mutex_lock(&p->lock);
	n = p->written;
	pthread_mutex_unlock(&p->lock);
	return n;
}
