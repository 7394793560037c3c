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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

struct data_walk {
	int fd;
	uint8_t zero[KJH_PAGE];
	uint64_t done, total;
	kjh_stream_progress progress;
	void *progress_data;
	char *why;
	size_t why_size;
};

static int put_page(void *data, uint64_t pfn, const void *page)
{
	struct data_walk *w = data;
	int r;

	(void)pfn;
	r = write_page(w->fd, page ? page : w->zero, w->why, w->why_size);
	if (r)
		return r;
	w->done++;
	if (w->progress)
		w->progress(w->progress_data, w->done, w->total);
	return 0;
}

int kjh_swsusp_write(struct kjh_image *img, int fd, kjh_stream_progress progress,
		     void *progress_data, char *why, size_t why_size)
{
	struct data_walk *w;
	int r;

	r = kjh_swsusp_check(img, why, why_size);
	if (!r)
		r = write_page(fd, img->swsusp, why, why_size);
	if (!r)
		r = write_meta(img, fd, why, why_size);
	if (r)
		return r;
	w = calloc(1, sizeof(*w));
	if (!w)
		return why_set(-ENOMEM, why, why_size, "out of memory");
	w->fd = fd;
	w->total = img->hdr.pages;
	w->progress = progress;
	w->progress_data = progress_data;
	w->why = why;
	w->why_size = why_size;
	r = kjh_image_for_each_page(img, put_page, w, why, why_size);
	free(w);
	return r;
}
