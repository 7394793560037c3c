// SPDX-License-Identifier: GPL-2.0-only
/*
 * The image writer's engine.  Before anything is written it proves the
 * target is the one A prepared (header PREPARED with the request's nonce,
 * the extent list of the request's device, starting at its offset) and
 * that every page of A's map is in /proc/vmcore.  Then: header WRITING,
 * the swsusp block, the pages, the runs, the index, the commit record and
 * the header COMMITTED.
 *
 * The pages go through the pipeline (pipeline.h): this thread finds the
 * zero pages and fills its slots (with /proc/vmcore mapped, only the
 * addresses of the data pages; else read() straight into the slot), the
 * workers (threads=, 0: one per CPU) build the chunk records, and one
 * writer thread writes them in order while the next ones are built.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kjump/kjump-hib.h"
#include "fs-record.h"
#include "pipeline.h"
#include "vmcore-map.h"
#include "save.h"

#define REPORT_PAGES	256u		/* progress and cancel: per MiB */
#define MAX_THREADS	16u
/* the jump record in A's buffer: 0x900, or 0x1900 (6.1 on x86_64) */
static const uint32_t jump_rec_offs[] = { 0x900u, 0x1900u };
#define JUMP_REC_MAGIC	0x504d4a4bu

struct map_run {
	uint64_t pfn, count;
};

struct save {
	const struct kjs_job *job;
	struct kjh_status *st;
	int fd;
	struct kjh_dev dev;
	bool have_dev, written;
	struct kjh_header hdr;
	struct kj_vmcore *vc;
	struct map_run *map;
	size_t nr_map;
	uint64_t total;
	struct kjh_run *runs;
	uint64_t nr_runs, runs_cap, runs_max;
	struct kjh_writer w;
	struct pipe pipe;
	struct vmap vmap;		/* fd -1: read(), not mapped */
	struct timespec t0;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct save *s, int err, const char *fmt, ...)
{
	va_list ap;

	if (!s->st->reason[0]) {
		va_start(ap, fmt);
		vsnprintf(s->st->reason, sizeof(s->st->reason), fmt, ap);
		va_end(ap);
	}
	if (s->st->result == KJH_RESULT_OK)
		s->st->result = err == -ECANCELED ? KJH_RESULT_CANCELLED :
						    KJH_RESULT_ERROR;
	return err;
}

static uint64_t elapsed_ms(const struct save *s)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)(t.tv_sec - s->t0.tv_sec) * 1000 +
	       (uint64_t)((t.tv_nsec - s->t0.tv_nsec) / 1000000);
}

/* ------------------------------------------------------------ target */

static int open_dev(struct save *s)
{
	const struct kjh_request *req = s->job->req;
	uint64_t size = 0;
	struct stat sb;

	s->fd = open(s->job->dev, O_RDWR | O_DIRECT | O_CLOEXEC);
	if (s->fd < 0 && errno == EINVAL)
		s->fd = open(s->job->dev, O_RDWR | O_CLOEXEC);
	if (s->fd < 0)
		return fail(s, -errno, "%s: %s", s->job->dev, strerror(errno));
	if (fstat(s->fd, &sb))
		return fail(s, -errno, "%s: %s", s->job->dev, strerror(errno));
	if (S_ISBLK(sb.st_mode)) {
		if (ioctl(s->fd, BLKGETSIZE64, &size))
			return fail(s, -errno, "%s: size: %s", s->job->dev,
				    strerror(errno));
	} else {
		size = (uint64_t)sb.st_size;
	}
	if (size != req->dev_size)
		return fail(s, -ENODEV, "%s is %" PRIu64 " bytes, A saw %"
			    PRIu64 " (dev %u:%u)", s->job->dev, size,
			    req->dev_size, req->dev_major, req->dev_minor);
	if (req->offset % KJH_BLOCK || req->offset >= size)
		return fail(s, -EINVAL, "offset %" PRIu64 " is not a block in %s",
			    req->offset, s->job->dev);
	return 0;
}

static int check_prepared(struct save *s, const struct kjh_header *h)
{
	const struct kjh_request *req = s->job->req;
	char why[160];

	if (kjh_header_check(h, why, sizeof(why)))
		return fail(s, -EBADMSG, "%s at %" PRIu64 ": %s", s->job->dev,
			    req->offset, why);
	if (h->state != KJH_STATE_PREPARED)
		return fail(s, -EBADMSG, "%s at %" PRIu64
			    ": the image is %s, not prepared", s->job->dev,
			    req->offset, kjh_state_name(h->state));
	if (memcmp(h->nonce, req->nonce, KJH_NONCE_LEN))
		return fail(s, -EBADMSG, "%s at %" PRIu64
			    ": another image than A prepared (nonce)",
			    s->job->dev, req->offset);
	if (h->capacity != req->capacity || h->capacity % KJH_BLOCK)
		return fail(s, -EBADMSG, "the image's capacity %" PRIu64
			    " is not the request's %" PRIu64, h->capacity,
			    req->capacity);
	return 0;
}

/*
 * The list through the library's reader; the device it names must be the
 * request's.
 */
static int read_extents(struct save *s, uint8_t *blk)
{
	const struct kjh_request *req = s->job->req;
	struct kjh_extents *x = (struct kjh_extents *)blk;
	struct kjh_extent *e = (struct kjh_extent *)(x + 1);
	char why[200];
	int r;

	r = kjh_extents_read(&s->dev, req->nonce, req->offset, req->dev_size,
			     req->capacity, blk, why, sizeof(why));
	if (r == -EBADMSG)
		return fail(s, r, "%s", why);
	if (r)
		return fail(s, r, "%s: %s", s->job->dev, why);
	if (x->dev_major != req->dev_major || x->dev_minor != req->dev_minor ||
	    x->dev_size != req->dev_size)
		return fail(s, -EBADMSG, "the extent list is for device %u:%u, not %u:%u",
			    x->dev_major, x->dev_minor, req->dev_major,
			    req->dev_minor);
	kjh_dev_fini(&s->dev);
	if (kjh_dev_init(&s->dev, s->fd, e, x->count, req->capacity))
		return fail(s, -ENOMEM, "out of memory");
	return 0;
}

static int open_target(struct save *s)
{
	const struct kjh_request *req = s->job->req;
	struct kjh_extent one;
	uint8_t *blk;
	int r;

	r = open_dev(s);
	if (r)
		return r;
	one.logical = 0;
	one.physical = req->offset;
	one.length = (req->dev_size - req->offset) & ~(uint64_t)(KJH_BLOCK - 1);
	if (one.length < KJH_DATA_OFF ||
	    kjh_dev_init(&s->dev, s->fd, &one, 1, one.length))
		return fail(s, -ENOSPC, "%s: no room for an image at %" PRIu64,
			    s->job->dev, req->offset);
	s->have_dev = true;
	blk = block_alloc(KJH_EXTENTS_BLOCKS * KJH_BLOCK);
	if (!blk)
		return fail(s, -ENOMEM, "out of memory");
	r = kjh_dev_pread(&s->dev, blk, KJH_BLOCK, 0);
	if (r) {
		fail(s, r, "%s: reading the header: %s", s->job->dev,
		     strerror(-r));
		goto out;
	}
	memcpy(&s->hdr, blk, sizeof(s->hdr));
	r = check_prepared(s, &s->hdr);
	if (!r)
		r = read_extents(s, blk);
out:
	free(blk);
	return r;
}

/* --------------------------------------------------------------- map */

static bool in_vmcore(const struct kj_vmcore_info *in, uint64_t paddr,
		      uint64_t *covered_to)
{
	unsigned int i;

	for (i = 0; i < in->nr_loads; i++) {
		const struct kj_vmcore_load *l = &in->loads[i];

		if (paddr >= l->paddr && paddr - l->paddr < l->filesz) {
			*covered_to = l->paddr + l->filesz;
			return true;
		}
	}
	return false;
}

/* The first pfn of [pfn, pfn + count) in no PT_LOAD, or UINT64_MAX. */
static uint64_t first_missing(const struct kj_vmcore_info *in, uint64_t pfn,
			      uint64_t count)
{
	uint64_t addr = pfn * KJH_PAGE, end = (pfn + count) * KJH_PAGE, to;

	while (addr < end) {
		if (!in_vmcore(in, addr, &to) || to < addr + KJH_PAGE)
			return addr / KJH_PAGE;
		addr = to & ~(uint64_t)(KJH_PAGE - 1);
	}
	return UINT64_MAX;
}

static int map_add(struct save *s, uint64_t pfn, size_t *cap)
{
	struct map_run *m;

	if (s->nr_map && s->map[s->nr_map - 1].pfn +
	    s->map[s->nr_map - 1].count == pfn) {
		s->map[s->nr_map - 1].count++;
		return 0;
	}
	if (s->nr_map == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		m = realloc(s->map, *cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		s->map = m;
	}
	s->map[s->nr_map++] = (struct map_run){ pfn, 1 };
	return 0;
}

static int scan_bitmap(struct save *s, const uint8_t *bits, uint64_t base,
		       uint64_t end, size_t *cap)
{
	uint64_t i;

	for (i = 0; i < KJ_JUMP_MAP_BITS && base + i < end; i++) {
		if (!(i % 8) && !bits[i / 8]) {
			i += 7;
			continue;
		}
		if (bits[i / 8] & (1u << (i % 8))) {
			if (map_add(s, base + i, cap))
				return fail(s, -ENOMEM, "out of memory");
			s->total++;
		}
	}
	return 0;
}

static int read_map(struct save *s)
{
	const struct kj_jump_param *p = s->job->param;
	uint64_t nr = (p->map_pfn_end + KJ_JUMP_MAP_BITS - 1) / KJ_JUMP_MAP_BITS;
	uint64_t *dir = NULL;
	uint8_t *bits = NULL;
	size_t cap = 0, i;
	int r = -ENOMEM;

	if (!(p->flags & KJ_JUMP_PARAM_HAS_MAP))
		return fail(s, -EINVAL, "A's kernel gave no page map");
	if (nr > KJH_PAGE / sizeof(uint64_t))
		return fail(s, -EINVAL, "A's page map covers %" PRIu64
			    " pfns: too many", p->map_pfn_end);
	dir = malloc(KJH_PAGE);
	bits = malloc(KJH_PAGE);
	if (!dir || !bits) {
		fail(s, r, "out of memory");
		goto out;
	}
	r = kj_vmcore_read(s->vc, p->map_dir, dir, KJH_PAGE);
	for (i = 0; !r && i < nr; i++) {
		r = kj_vmcore_read(s->vc, dir[i] * KJH_PAGE, bits, KJH_PAGE);
		if (!r)
			r = scan_bitmap(s, bits, i * KJ_JUMP_MAP_BITS,
					p->map_pfn_end, &cap);
	}
	if (r)
		fail(s, r, "reading A's page map from %s: %s", s->job->vmcore,
		     strerror(-r));
out:
	free(dir);
	free(bits);
	return r;
}

static int check_map(struct save *s)
{
	struct kj_vmcore_info in;
	uint64_t pfn;
	size_t i;

	kj_vmcore_info(s->vc, &in);
	for (i = 0; i < s->nr_map; i++) {
		pfn = first_missing(&in, s->map[i].pfn, s->map[i].count);
		if (pfn != UINT64_MAX)
			return fail(s, -ERANGE, "A's page pfn 0x%" PRIx64
				    " is not in %s", pfn, s->job->vmcore);
	}
	if (!s->total)
		return fail(s, -EINVAL, "A's page map is empty");
	if (s->job->req->max_pages &&
	    kjh_restore_need(s->total) > s->job->req->max_pages)
		return fail(s, -ENOMEM, "A has %" PRIu64 " MiB to save, and a resume would have room for %" PRIu64
			    " MiB: free memory in A, or hibernate with --drop-caches",
			    kjh_restore_need(s->total) >> 8,
			    s->job->req->max_pages >> 8);
	return 0;
}

/* ---------------------------------------------------------- identity */

/* vmcoreinfo's OSRELEASE= line, when A's request said nothing. */
static void release_from(struct kjh_identity *id, const char *text,
			 size_t len)
{
	const char *p = text, *end = text + len, *nl;
	size_t n;

	if (id->release[0])
		return;
	while (p < end && (size_t)(end - p) > 10 && memcmp(p, "OSRELEASE=", 10)) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return;
		p++;
	}
	if ((size_t)(end - p) <= 10)
		return;
	p += 10;
	nl = memchr(p, '\n', (size_t)(end - p));
	n = (size_t)((nl ? nl : end) - p);
	if (n >= sizeof(id->release))
		n = sizeof(id->release) - 1;
	memcpy(id->release, p, n);
	id->release[n] = '\0';
}

static void build_id_from(struct kjh_identity *id, const char *text,
			  size_t len)
{
	const char *p = text, *end = text + len;
	uint8_t n = 0;
	int hi, lo;

	while (p < end && (size_t)(end - p) > 9 && memcmp(p, "BUILD-ID=", 9)) {
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return;
		p++;
	}
	if ((size_t)(end - p) <= 9)
		return;
	for (p += 9; p + 1 < end && n < sizeof(id->build_id); p += 2) {
		hi = kjh_hex_digit(p[0]);
		lo = kjh_hex_digit(p[1]);
		if (hi < 0 || lo < 0)
			break;
		id->build_id[n++] = (uint8_t)(hi << 4 | lo);
	}
	id->build_id_len = n;
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* One PT_NOTE segment: its VMCOREINFO note's BUILD-ID= line. */
static void scan_notes(struct kjh_identity *id, const uint8_t *b, size_t len)
{
	size_t at = 0, namesz, descsz, name_at, desc_at;

	while (at + 12 <= len) {
		namesz = (size_t)get_le(b + at, 4);
		descsz = (size_t)get_le(b + at + 4, 4);
		name_at = at + 12;
		desc_at = name_at + ((namesz + 3) & ~(size_t)3);
		if (namesz > len || descsz > len || desc_at + descsz > len)
			return;
		if (namesz >= 10 && !memcmp(b + name_at, "VMCOREINFO", 10)) {
			build_id_from(id, (const char *)b + desc_at, descsz);
			release_from(id, (const char *)b + desc_at, descsz);
			return;
		}
		at = desc_at + ((descsz + 3) & ~(size_t)3);
	}
}

/* The ELF program headers of the core, read again for the notes. */
static void read_build_id(struct save *s)
{
	uint8_t eh[64], ph[56], *notes;
	uint64_t phoff, off, size;
	unsigned int i, nr, phsz;
	bool is64;

	if (kj_vmcore_read_at(s->vc, 0, eh, sizeof(eh)))
		return;
	is64 = eh[4] == 2;
	phoff = is64 ? get_le(eh + 32, 8) : get_le(eh + 28, 4);
	phsz = is64 ? 56 : 32;
	nr = (unsigned int)get_le(eh + (is64 ? 56 : 44), 2);
	for (i = 0; i < nr && i < 1024; i++) {
		if (kj_vmcore_read_at(s->vc, phoff + (uint64_t)i * phsz, ph,
				      phsz) || get_le(ph, 4) != 4)
			continue;
		off = is64 ? get_le(ph + 8, 8) : get_le(ph + 4, 4);
		size = is64 ? get_le(ph + 32, 8) : get_le(ph + 16, 4);
		if (!size || size > (1u << 20))
			continue;
		notes = malloc((size_t)size);
		if (notes && !kj_vmcore_read_at(s->vc, off, notes, (size_t)size))
			scan_notes(&s->hdr.id, notes, (size_t)size);
		free(notes);
		if (s->hdr.id.build_id_len)
			return;
	}
}

static int read_identity(struct save *s, uint8_t *swsusp)
{
	const struct kj_jump_param *p = s->job->param;
	uint8_t rec[16];
	size_t i;
	int r;

	r = kj_vmcore_read(s->vc, p->snapshot_header, swsusp, KJH_PAGE);
	if (r)
		return fail(s, r, "reading A's swsusp header at 0x%" PRIx64
			    ": %s", p->snapshot_header, strerror(-r));
	/*
	 * A wrote its uname into the prepared header: with the x86 arch
	 * header, swsusp's page holds no utsname.  The build id and, if A
	 * gave none, the release come from vmcoreinfo.
	 */
	read_build_id(s);
	s->hdr.jump_entry = 0;
	for (i = 0; i < sizeof(jump_rec_offs) / sizeof(jump_rec_offs[0]); i++)
		if (!kj_vmcore_read(s->vc, s->hdr.jump_buf_pfn * KJH_PAGE +
				    jump_rec_offs[i], rec, sizeof(rec)) &&
		    get_le(rec, 4) == JUMP_REC_MAGIC) {
			s->hdr.jump_entry = get_le(rec + 8, 8);
			break;
		}
	return 0;
}

/* ------------------------------------------------------------ layout */

static int layout(struct save *s)
{
	struct kjh_header *h = &s->hdr;
	uint64_t start = KJH_DATA_OFF, end;

	if (h->ram_count) {
		end = kjh_round_up(h->ram_off + (uint64_t)h->ram_count *
				   sizeof(struct kjh_ram_range));
		start = end > start ? end : start;
	}
	end = kjh_round_up(h->fs_off + (uint64_t)KJH_FS_SLOTS *
			   sizeof(struct kjh_fs));
	start = end > start ? end : start;
	h->kernel_word = s->job->param->kernel_word;
	h->map_pages = s->job->param->map_pages;
	h->free_pages = s->job->param->free_pages;
	h->compress = s->job->req->compress;
	h->chunk_pages = KJH_CHUNK_PAGES;
	h->swsusp_off = start;
	h->run_off = start + KJH_BLOCK;
	/* room for the worst case: every page a run of its own */
	s->runs_max = s->total;
	h->chunk_off = h->run_off + kjh_round_up(s->runs_max *
						 sizeof(struct kjh_run));
	end = h->chunk_off + 2 * KJH_BLOCK;
	if (end > h->capacity)
		return fail(s, -ENOSPC, "target too small: the image needs %"
			    PRIu64 " bytes, the target has %" PRIu64,
			    end + s->total * KJH_PAGE / 2, h->capacity);
	return 0;
}

static struct slot *fill_slot(struct save *s)
{
	return pipe_fill_slot(&s->pipe);
}

static uint64_t need_estimate(const struct save *s)
{
	uint64_t done = s->hdr.data_pages ? s->hdr.data_pages : 1;
	uint64_t chunks = (s->total + KJH_CHUNK_PAGES - 1) / KJH_CHUNK_PAGES;

	return s->hdr.chunk_off + (s->w.pos - s->hdr.chunk_off) *
	       s->total / done + kjh_round_up(chunks *
	       sizeof(struct kjh_chunk_ref)) + KJH_BLOCK;
}

static int too_small(struct save *s)
{
	return fail(s, -ENOSPC, "target too small: the image needs %" PRIu64
		    " bytes, the target has %" PRIu64, need_estimate(s),
		    s->hdr.capacity);
}

/* The writer thread stopped (it no longer touches s->w): say why. */
static int writer_failed(struct save *s)
{
	struct pipe *p = &s->pipe;

	if (p->wfail == WFAIL_CHUNK)
		return fail(s, p->werr, "compressing chunk %" PRIu64 ": %s",
			    p->wseq, strerror(-p->werr));
	if (p->werr == -ENOSPC)
		return too_small(s);
	return fail(s, p->werr, "%s: writing the image: %s", s->job->dev,
		    strerror(-p->werr));
}

/*
 * Hands the slot being filled to the workers; returns when the next one
 * is free (all: every chunk is written) or the writer failed.
 */
static int submit(struct save *s, bool all)
{
	if (pipe_submit(&s->pipe, all) != WFAIL_NONE)
		return writer_failed(s);
	return 0;
}

/* ---------------------------------------------------------- the pages */

static bool page_is_zero(const uint8_t *page)
{
	const uint64_t *w = (const uint64_t *)page;
	uint64_t acc;
	size_t i, k;

	if (w[0])
		return false;		/* most data pages: one load */
	for (i = 0; i < KJH_PAGE / sizeof(*w); i += 8) {
		acc = 0;
		for (k = 0; k < 8; k++)
			acc |= w[i + k];
		if (acc)
			return false;
	}
	return true;
}

static int run_add(struct save *s, uint64_t pfn, bool zero)
{
	struct kjh_run *r = s->nr_runs ? &s->runs[s->nr_runs - 1] : NULL;
	uint32_t flags = zero ? KJH_RUN_ZERO : 0;

	if (r && r->flags == flags && r->pfn + r->count == pfn &&
	    r->count < UINT32_MAX) {
		r->count++;
		return 0;
	}
	if (s->nr_runs == s->runs_cap) {
		uint64_t cap = s->runs_cap ? 2 * s->runs_cap : 256;

		r = realloc(s->runs, (size_t)cap * sizeof(*r));
		if (!r)
			return fail(s, -ENOMEM, "out of memory");
		s->runs = r;
		s->runs_cap = cap;
	}
	s->runs[s->nr_runs++] = (struct kjh_run){ pfn, 1, flags };
	return 0;
}

/*
 * n pages of pfn on read into the slot after its pages: the zero pages
 * are left out (the pages after them moved down), the slot handed on
 * when full.
 */
static int take_pages(struct save *s, uint64_t pfn, uint32_t n)
{
	struct slot *sl = fill_slot(s);
	uint8_t *pages = slot_pages(sl), *page;
	uint32_t i, keep = sl->pages;
	int r;

	bool zero;

	for (i = 0; i < n; i++) {
		page = pages + (size_t)(sl->pages + i) * KJH_PAGE;
		zero = page_is_zero(page);
		r = run_add(s, pfn + i, zero);
		if (r)
			return r;
		if (zero) {
			s->hdr.zero_pages++;
			continue;
		}
		if (keep != sl->pages + i)
			memcpy(pages + (size_t)keep * KJH_PAGE, page, KJH_PAGE);
		keep++;
	}
	s->hdr.data_pages += keep - sl->pages;
	sl->pages = keep;
	return keep == KJH_CHUNK_PAGES ? submit(s, false) : 0;
}

/* The bytes on the device so far (the writer thread may be running). */
static uint64_t written(struct save *s)
{
	return s->pipe.nr_slots ? pipe_written(&s->pipe) : s->w.written;
}

static void report(struct save *s, bool final)
{
	struct kjs_progress pr = {
		s->hdr.data_pages + s->hdr.zero_pages, s->total,
		s->hdr.data_pages, s->hdr.zero_pages, written(s),
		elapsed_ms(s), final,
	};

	if (s->job->progress)
		s->job->progress(s->job->data, &pr);
}

static bool cancelled(struct save *s)
{
	return s->job->cancelled && s->job->cancelled(s->job->data);
}

/* Every REPORT_PAGES pages (and before the first): progress, cancel. */
static int checkpoint(struct save *s, uint64_t *since)
{
	if (*since < REPORT_PAGES)
		return 0;
	if (s->hdr.data_pages + s->hdr.zero_pages)
		report(s, false);
	if (cancelled(s))
		return fail(s, -ECANCELED,
			    "cancelled by the user in the image writer");
	*since = 0;
	return 0;
}

/* A's pages, read straight into the slots, a chunk's room at a time. */
static int save_run(struct save *s, const struct map_run *m,
		    uint64_t *since)
{
	uint64_t at = 0, n;
	struct slot *sl;
	int r;

	while (at < m->count) {
		r = checkpoint(s, since);
		if (r)
			return r;
		sl = fill_slot(s);
		if (!sl->pages)
			sl->first_page = s->hdr.data_pages;
		n = KJH_CHUNK_PAGES - sl->pages;
		if (n > m->count - at)
			n = m->count - at;
		r = kj_vmcore_read(s->vc, (m->pfn + at) * KJH_PAGE,
				   slot_pages(sl) + (size_t)sl->pages * KJH_PAGE,
				   (size_t)n * KJH_PAGE);
		if (r)
			return fail(s, r, "reading pfn 0x%" PRIx64 " from %s: %s",
				    m->pfn + at, s->job->vmcore, strerror(-r));
		r = take_pages(s, m->pfn + at, (uint32_t)n);
		if (r)
			return r;
		at += n;
		*since += n;
	}
	return 0;
}

/* ------------------------------------------------- the mapped vmcore */

/* Until chunks before seq target are written (or the writer failed). */
static int wait_tail(struct save *s, uint64_t target)
{
	if (pipe_wait_written(&s->pipe, target) != WFAIL_NONE)
		return writer_failed(s);
	return 0;
}

/*
 * Before vmap unmaps window w: no chunk may still need its pages.  The
 * slot being filled takes a copy of those it has in w; the chunks before
 * must be written.
 */
static int win_release(void *data, struct win *w)
{
	struct save *s = data;
	struct slot *sl = fill_slot(s);
	uint64_t target = w->last_seq + 1;
	uint32_t i;

	if (w->last_seq == s->pipe.head) {
		for (i = 0; i < sl->pages; i++) {
			if (!sl->src[i] || sl->src[i] < w->ptr ||
			    sl->src[i] >= w->ptr + w->len)
				continue;
			memcpy(slot_pages(sl) + (size_t)i * KJH_PAGE,
			       sl->src[i], KJH_PAGE);
			sl->src[i] = NULL;
		}
		target = s->pipe.head;
	}
	return w->last_seq == UINT64_MAX ? 0 : wait_tail(s, target);
}

/*
 * The page pfn, mapped.  A failed win_release() has given its reason
 * already; else the failure is mmap()'s.
 */
static int win_page(struct save *s, uint64_t pfn, const uint8_t **page)
{
	int r = vmap_page(&s->vmap, pfn, page, win_release, s);

	if (!r || s->st->result != KJH_RESULT_OK)
		return r;
	return fail(s, r, "mapping %s at %" PRIu64 ": %s", s->job->vmcore,
		    s->vmap.tried, strerror(-r));
}

/* One page of A, mapped: a zero page or one more page of the slot. */
static int take_mapped(struct save *s, uint64_t pfn)
{
	const uint8_t *page = NULL;
	struct slot *sl;
	bool zero;
	int r;

	r = win_page(s, pfn, &page);
	if (r)
		return r;
	zero = page_is_zero(page);
	r = run_add(s, pfn, zero);
	if (r)
		return r;
	if (zero) {
		s->hdr.zero_pages++;
		return 0;
	}
	sl = fill_slot(s);
	if (!sl->pages)
		sl->first_page = s->hdr.data_pages;
	sl->src[sl->pages++] = page;
	vmap_current(&s->vmap)->last_seq = s->pipe.head;
	s->hdr.data_pages++;
	return sl->pages == KJH_CHUNK_PAGES ? submit(s, false) : 0;
}

static int save_run_mapped(struct save *s, const struct map_run *m,
			   uint64_t *since)
{
	uint64_t i;
	int r;

	for (i = 0; i < m->count; i++) {
		r = checkpoint(s, since);
		if (!r)
			r = take_mapped(s, m->pfn + i);
		if (r)
			return r;
		(*since)++;
	}
	return 0;
}

static unsigned int nr_threads(const struct kjh_request *req)
{
	long n = req->threads ? (long)req->threads :
		 sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	return n > (long)MAX_THREADS ? MAX_THREADS : (unsigned int)n;
}

static int save_pages(struct save *s)
{
	uint64_t since = REPORT_PAGES;	/* cancelled before the first read? */
	size_t i;
	int r = 0;

	if (pipe_start(&s->pipe, &s->w, s->job->req->compress,
		       s->job->req->level, nr_threads(s->job->req)))
		return fail(s, -ENOMEM, "out of memory for the writer threads");
	vmap_open(&s->vmap, s->vc, s->job->vmcore,
		  s->job->no_mmap ? UINT64_MAX : s->map[0].pfn);
	for (i = 0; !r && i < s->nr_map; i++)
		r = s->vmap.fd >= 0 ? save_run_mapped(s, &s->map[i], &since) :
		     save_run(s, &s->map[i], &since);
	if (!r)
		r = submit(s, true);
	if (!r)
		pipe_join(&s->pipe);
	return r;
}

/* ------------------------------------------------------------ finish */

static int finish(struct save *s)
{
	struct kjh_header *h = &s->hdr;
	bool snap = s->job->req->mode == KJH_MODE_SNAPSHOT;
	int r;

	h->run_count = s->nr_runs;
	h->pages = h->data_pages + h->zero_pages;
	h->raw_bytes = h->data_pages * KJH_PAGE;
	h->runs_crc = kjh_crc32c(0, s->runs,
				 (size_t)s->nr_runs * sizeof(*s->runs));
	r = kjh_write_at(&s->dev, h->run_off, s->runs,
			 (size_t)s->nr_runs * sizeof(*s->runs));
	if (!r)
		r = kjh_writer_commit(&s->w, snap ? KJH_F_SNAPSHOT : 0);
	if (r == -ENOSPC)
		return too_small(s);
	if (r)
		return fail(s, r, "%s: writing the image: %s", s->job->dev,
			    strerror(-r));
	return 0;
}

static void fill_status(struct save *s)
{
	struct kjh_status *st = s->st;

	st->image_bytes = s->hdr.image_bytes;
	st->pages = s->hdr.data_pages + s->hdr.zero_pages;
	st->data_pages = s->hdr.data_pages;
	st->zero_pages = s->hdr.zero_pages;
	st->raw_bytes = s->hdr.data_pages * KJH_PAGE;
	st->stored_bytes = s->hdr.stored_bytes;
	st->write_ms = elapsed_ms(s);
}

/* A's file systems, fingerprinted now that A is frozen. */
static int record_fs(struct save *s)
{
	char why[sizeof(s->st->reason)];
	int r;

	r = kjs_record_filesystems(s->job, s->vc, &s->dev, &s->hdr, why,
				   sizeof(why));
	return r ? fail(s, r, "%s", why) : 0;
}

static int run(struct save *s)
{
	uint8_t *swsusp = block_alloc(KJH_BLOCK);
	int r;

	if (!swsusp)
		return fail(s, -ENOMEM, "out of memory");
	r = open_target(s);
	if (!r && (r = kj_vmcore_open(s->job->ctx, s->job->vmcore, &s->vc)))
		fail(s, r, "%s: %s", s->job->vmcore, strerror(-r));
	if (!r)
		r = read_map(s);
	if (!r)
		r = check_map(s);
	if (!r)
		r = read_identity(s, swsusp);
	if (!r)
		r = layout(s);
	if (r)
		goto out;
	s->written = true;
	r = record_fs(s);
	if (r)
		goto out;
	s->hdr.swsusp_crc = kjh_crc32c(0, swsusp, KJH_BLOCK);
	r = kjh_writer_begin(&s->w, &s->dev, &s->hdr, PIPE_BATCH_BYTES);
	if (!r)
		r = kjh_write_at(&s->dev, s->hdr.swsusp_off, swsusp, KJH_BLOCK);
	if (r) {
		fail(s, r, "%s: writing the image: %s", s->job->dev,
		     strerror(-r));
		goto out;
	}
	r = save_pages(s);
	if (!r)
		r = finish(s);
out:
	free(swsusp);
	return r;
}

int kjs_save(const struct kjs_job *job, struct kjh_status *st)
{
	struct save s;
	int r;

	memset(&s, 0, sizeof(s));
	memset(st, 0, sizeof(*st));
	s.job = job;
	s.st = st;
	s.fd = -1;
	s.vmap.fd = -1;
	clock_gettime(CLOCK_MONOTONIC, &s.t0);
	r = run(&s);
	pipe_stop(&s.pipe);
	vmap_close(&s.vmap);
	if (r && s.written)
		kjh_write_invalid(&s.dev, &s.hdr, KJH_INVALID_WRITER);
	fill_status(&s);
	if (!r)
		report(&s, true);
	kjh_writer_free(&s.w);
	if (s.vc)
		kj_vmcore_close(s.vc);
	if (s.have_dev)
		kjh_dev_fini(&s.dev);
	if (s.fd >= 0)
		close(s.fd);
	free(s.map);
	free(s.runs);
	return r;
}

/* Block 0 of the committed image, made INVALID for A running on. */
static int invalidate(struct save *s)
{
	const struct kjh_request *req = s->job->req;
	struct kjh_extent one = { 0, req->offset, KJH_BLOCK };
	struct kjh_header *h = block_alloc(KJH_BLOCK);
	int r;

	if (!h)
		return fail(s, -ENOMEM, "out of memory");
	r = open_dev(s);
	if (!r && kjh_dev_init(&s->dev, s->fd, &one, 1, KJH_BLOCK))
		r = fail(s, -ENOMEM, "out of memory");
	if (r)
		goto out;
	s->have_dev = true;
	r = kjh_dev_pread(&s->dev, h, KJH_BLOCK, 0);
	if (r) {
		fail(s, r, "%s: reading the header: %s", s->job->dev,
		     strerror(-r));
		goto out;
	}
	if (kjh_header_check(h, NULL, 0) || h->state != KJH_STATE_COMMITTED ||
	    memcmp(h->nonce, req->nonce, KJH_NONCE_LEN))
		goto out;	/* not the committed image: nothing to undo */
	r = kjh_write_invalid(&s->dev, h, KJH_INVALID_CAME_BACK);
	if (r)
		fail(s, r, "%s: making the image invalid: %s", s->job->dev,
		     strerror(-r));
out:
	free(h);
	return r;
}

int kjs_invalidate(const struct kjs_job *job, struct kjh_status *st)
{
	struct save s;
	int r;

	memset(&s, 0, sizeof(s));
	s.job = job;
	s.st = st;
	s.fd = -1;
	r = invalidate(&s);
	if (s.have_dev)
		kjh_dev_fini(&s.dev);
	if (s.fd >= 0)
		close(s.fd);
	return r;
}
