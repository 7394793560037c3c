// SPDX-License-Identifier: GPL-2.0-only
/*
 * The swsusp stream of an image (swsusp-stream.h).
 *
 * struct swsusp_info on x86 (CONFIG_ARCH_HIBERNATION_HEADER): the first
 * 390 + 4 bytes hold the arch header in place of the utsname and version
 * code, then come num_physpages (long), cpus (int), image_pages, pages and
 * size (longs), each long aligned to its size.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hib/mono-clock.h"
#include "hib/swsusp-stream.h"

#define SWSUSP_UTS_AND_VERSION	(6u * 65u + 4u)

static int why_set(int err, char *why, size_t why_size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_size, fmt, ap);
	va_end(ap);
	return err;
}

static uint64_t word_at(const uint8_t *p, uint32_t w)
{
	uint64_t v = 0;
	uint32_t i;

	for (i = 0; i < w; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static size_t align_to(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

int kjh_swsusp_counts(const uint8_t *info, uint32_t kernel_word,
		      struct kjh_swsusp_counts *c)
{
	size_t off;

	if (kernel_word != 4 && kernel_word != 8)
		return -EINVAL;
	off = align_to(SWSUSP_UTS_AND_VERSION, kernel_word);	/* num_physpages */
	off = align_to(off + kernel_word + 4, kernel_word);	/* image_pages */
	c->image_pages = word_at(info + off, kernel_word);
	c->pages = word_at(info + off + kernel_word, kernel_word);
	return 0;
}

uint64_t kjh_swsusp_meta_pages(uint64_t n, uint32_t kernel_word)
{
	uint64_t per_page = KJH_PAGE / kernel_word;

	return (n + per_page - 1) / per_page;
}

int kjh_swsusp_check(const struct kjh_image *img, char *why, size_t why_size)
{
	const struct kjh_header *h = &img->hdr;
	struct kjh_swsusp_counts c;
	uint64_t meta;

	if (kjh_swsusp_counts(img->swsusp, h->kernel_word, &c))
		return why_set(-EBADMSG, why, why_size,
			       "kernel word of %u bytes", h->kernel_word);
	meta = kjh_swsusp_meta_pages(h->pages, h->kernel_word);
	if (c.image_pages != h->pages || c.pages != h->pages + meta + 1)
		return why_set(-EBADMSG, why, why_size,
			       "the swsusp header counts %" PRIu64 " pages (%" PRIu64
			       " in all), the image holds %" PRIu64,
			       c.image_pages, c.pages, h->pages);
	return 0;
}

static int write_page(int fd, const void *page, char *why, size_t why_size)
{
	const uint8_t *p = page;
	size_t done = 0;
	ssize_t n;

	while (done < KJH_PAGE) {
		n = write(fd, p + done, KJH_PAGE - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return why_set(n < 0 ? -errno : -EIO, why, why_size,
				       "the restoring kernel took no more: %s",
				       n < 0 ? strerror(errno) : "short write");
		done += (size_t)n;
	}
	return 0;
}

/* The frame list: pfns in run order, ~0 after the last when there is room. */
static int write_meta(const struct kjh_image *img, int fd, char *why,
		      size_t why_size)
{
	const struct kjh_header *h = &img->hdr;
	uint32_t w = h->kernel_word, per = KJH_PAGE / w, slot = 0;
	uint8_t page[KJH_PAGE];
	uint64_t i, j, v;
	int r;

	memset(page, 0, sizeof(page));
	for (i = 0; i < h->run_count; i++) {
		for (j = 0; j < img->runs[i].count; j++) {
			v = img->runs[i].pfn + j;
			memcpy(page + (size_t)slot * w, &v, w);	/* little-endian */
			if (++slot < per)
				continue;
			r = write_page(fd, page, why, why_size);
			if (r)
				return r;
			memset(page, 0, sizeof(page));
			slot = 0;
		}
	}
	if (!slot)
		return 0;
	memset(page + (size_t)slot * w, 0xff, w);
	return write_page(fd, page, why, why_size);
}

/*
 * Chunks are decoded (read, checked, decompressed) by a pool of threads,
 * each into a slot of a ring, while the caller's thread writes pages in
 * order: a chunk's pages are written once all its checks passed.
 */
#define RING_MAX		16u

struct slot {
	uint64_t k;			/* the chunk it holds, when ready */
	bool ready;
	int err;
	char why[200];
	uint8_t *raw;
};

struct pool {
	const struct kjh_image *img;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	uint64_t next;			/* next chunk a decoder takes */
	uint64_t done;			/* chunks the writer is finished with */
	bool stop;
	uint64_t wait_us;		/* the writer, in pool_get */
	unsigned int nr_slots, nr_threads;
	struct slot slot[RING_MAX];
	pthread_t thread[RING_MAX / 2];
};

static void *decoder(void *arg)
{
	struct pool *p = arg;
	const struct kjh_header *h = &p->img->hdr;
	void *stored = kjh_chunk_buf_alloc(p->img);
	struct slot *sl;
	uint32_t pages;
	uint64_t k;
	int err;

	for (;;) {
		pthread_mutex_lock(&p->lock);
		while (!p->stop && p->next < h->chunk_count &&
		       p->next >= p->done + p->nr_slots)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stop || p->next >= h->chunk_count) {
			pthread_mutex_unlock(&p->lock);
			break;
		}
		k = p->next++;
		sl = &p->slot[k % p->nr_slots];
		pthread_mutex_unlock(&p->lock);

		err = stored ? kjh_image_read_chunk_into(p->img, k, sl->raw, stored,
							 KJH_READ_PAGES_CRC,
							 &pages, sl->why,
							 sizeof(sl->why)) : -ENOMEM;
		if (!stored)
			snprintf(sl->why, sizeof(sl->why), "out of memory");

		pthread_mutex_lock(&p->lock);
		sl->k = k;
		sl->err = err;
		sl->ready = true;
		pthread_cond_broadcast(&p->cond);
		pthread_mutex_unlock(&p->lock);
	}
	free(stored);
	return NULL;
}

static unsigned int nr_decoders(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	return n > (long)(RING_MAX / 2) ? RING_MAX / 2 : (unsigned int)n;
}

static void pool_stop(struct pool *p)
{
	unsigned int i;

	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	for (i = 0; i < p->nr_threads; i++)
		pthread_join(p->thread[i], NULL);
	for (i = 0; i < p->nr_slots; i++)
		free(p->slot[i].raw);
	pthread_cond_destroy(&p->cond);
	pthread_mutex_destroy(&p->lock);
}

static int pool_start(struct pool *p, const struct kjh_image *img)
{
	size_t raw = (size_t)img->hdr.chunk_pages * img->hdr.page_size;
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->img = img;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	p->nr_threads = nr_decoders();
	p->nr_slots = 2 * p->nr_threads;
	for (i = 0; i < p->nr_slots; i++) {
		p->slot[i].raw = malloc(raw);
		if (!p->slot[i].raw)
			goto fail;
	}
	for (i = 0; i < p->nr_threads; i++) {
		if (pthread_create(&p->thread[i], NULL, decoder, p))
			break;
	}
	p->nr_threads = i;
	if (i)
		return 0;
fail:
	pool_stop(p);
	return -ENOMEM;
}

/* Chunk k, decoded: its slot, or NULL with why. */
static struct slot *pool_get(struct pool *p, uint64_t k, int *err, char *why,
			     size_t why_size)
{
	struct slot *sl = &p->slot[k % p->nr_slots];
	uint64_t t0 = kjh_mono_us();

	pthread_mutex_lock(&p->lock);
	while (!(sl->ready && sl->k == k))
		pthread_cond_wait(&p->cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	p->wait_us += kjh_mono_us() - t0;
	*err = sl->err;
	if (!sl->err)
		return sl;
	snprintf(why, why_size, "%s chunk %" PRIu64 ": %s",
		 sl->err == -EBADMSG ? "corrupt:" : "reading", k, sl->why);
	return NULL;
}

/* The writer is done with chunk k: its slot takes another. */
static void pool_put(struct pool *p, struct slot *sl)
{
	pthread_mutex_lock(&p->lock);
	sl->ready = false;
	p->done++;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
}

static int write_data(struct kjh_image *img, struct pool *p, int fd,
		      char *why, size_t why_size)
{
	const struct kjh_header *h = &img->hdr;
	static const uint8_t zero[KJH_PAGE];
	struct slot *sl = NULL;
	uint64_t i, j, data = 0;
	int r = 0;

	for (i = 0; i < h->run_count && !r; i++) {
		const struct kjh_run *run = &img->runs[i];

		for (j = 0; j < run->count && !r; j++) {
			const uint8_t *page = zero;
			bool last = false;

			if (!(run->flags & KJH_RUN_ZERO)) {
				uint32_t in = (uint32_t)(data % h->chunk_pages);

				if (!sl)
					sl = pool_get(p, data / h->chunk_pages,
						      &r, why, why_size);
				if (!sl)
					break;
				page = sl->raw + (size_t)in * h->page_size;
				last = ++data == h->data_pages ||
				       in + 1 == h->chunk_pages;
			}
			r = write_page(fd, page, why, why_size);
			if (last) {
				pool_put(p, sl);
				sl = NULL;
			}
		}
	}
	if (sl)
		pool_put(p, sl);
	return r;
}

int kjh_swsusp_write(struct kjh_image *img, int fd,
		     struct kjh_stream_stats *stats, char *why,
		     size_t why_size)
{
	uint64_t t0 = kjh_mono_us();
	struct pool *p;
	int r;

	r = kjh_swsusp_check(img, why, why_size);
	if (!r)
		r = write_page(fd, img->swsusp, why, why_size);
	if (!r)
		r = write_meta(img, fd, why, why_size);
	if (r)
		return r;
	p = malloc(sizeof(*p));
	if (!p || pool_start(p, img)) {
		free(p);
		return why_set(-ENOMEM, why, why_size, "out of memory");
	}
	r = write_data(img, p, fd, why, why_size);
	if (stats) {
		stats->total_ms = (kjh_mono_us() - t0) / 1000;
		stats->wait_ms = p->wait_us / 1000;
		stats->decoders = p->nr_threads;
	}
	pool_stop(p);
	free(p);
	return r;
}
