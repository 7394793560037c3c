// SPDX-License-Identifier: GPL-2.0-only
/*
 * The extent device, the header checks, and the reader and verifier of
 * committed images.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "kjump/hib/compress.h"
#include "kjump/hib/crc32c.h"
#include "kjump/hib/image-read.h"
#include "kjump/hib/request.h"

__attribute__((format(printf, 4, 5)))
static int why_set(int err, char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (why && size) {
		va_start(ap, fmt);
		vsnprintf(why, size, fmt, ap);
		va_end(ap);
	}
	return err;
}

/* ------------------------------------------------------------ extents */

uint32_t kjh_extents_crc(const struct kjh_extent *ext, uint32_t n)
{
	return kjh_crc32c(0, ext, (size_t)n * sizeof(*ext));
}

int kjh_extents_check(const struct kjh_extent *ext, uint32_t n, uint64_t need,
		      char *why, size_t why_size)
{
	uint64_t next = 0;
	uint32_t i;

	if (!n || n > KJH_EXTENTS_MAX)
		return why_set(-EINVAL, why, why_size, "%u extents", n);
	for (i = 0; i < n; i++) {
		if (ext[i].logical != next)
			return why_set(-EINVAL, why, why_size,
				       "extent %u starts at %llu, not %llu", i,
				       (unsigned long long)ext[i].logical,
				       (unsigned long long)next);
		if (!ext[i].length || ext[i].length % KJH_BLOCK ||
		    ext[i].physical % 512 ||
		    ext[i].physical + ext[i].length < ext[i].physical)
			return why_set(-EINVAL, why, why_size,
				       "extent %u is not whole blocks", i);
		next += ext[i].length;
	}
	if (next < need)
		return why_set(-EINVAL, why, why_size,
			       "the extents hold %llu bytes, not %llu",
			       (unsigned long long)next,
			       (unsigned long long)need);
	return 0;
}

int kjh_dev_init(struct kjh_dev *dev, int fd, const struct kjh_extent *ext,
		 uint32_t n, uint64_t capacity)
{
	if (kjh_extents_check(ext, n, capacity, NULL, 0))
		return -EINVAL;
	dev->ext = malloc((size_t)n * sizeof(*ext));
	if (!dev->ext)
		return -ENOMEM;
	memcpy(dev->ext, ext, (size_t)n * sizeof(*ext));
	dev->nr_ext = n;
	dev->fd = fd;
	dev->capacity = capacity;
	return 0;
}

int kjh_dev_init_plain(struct kjh_dev *dev, int fd, uint64_t capacity)
{
	struct kjh_extent one = { 0, 0, capacity & ~(uint64_t)(KJH_BLOCK - 1) };

	if (!one.length)
		return -ENOSPC;
	return kjh_dev_init(dev, fd, &one, 1, one.length);
}

void kjh_dev_fini(struct kjh_dev *dev)
{
	free(dev->ext);
	dev->ext = NULL;
	dev->nr_ext = 0;
}

/* The extent holding logical offset off (binary search). */
static const struct kjh_extent *dev_find(const struct kjh_dev *dev,
					 uint64_t off)
{
	uint32_t lo = 0, hi = dev->nr_ext;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct kjh_extent *e = &dev->ext[mid];

		if (off < e->logical)
			hi = mid;
		else if (off >= e->logical + e->length)
			lo = mid + 1;
		else
			return e;
	}
	return NULL;
}

static int io_once(const struct kjh_dev *dev, bool wr, const struct iovec *v,
		   int cnt, uint64_t phys)
{
	ssize_t n;
	int fl;

	for (;;) {
		n = wr ? pwritev(dev->fd, v, cnt, (off_t)phys) :
			 preadv(dev->fd, v, cnt, (off_t)phys);
		if (n > 0)
			return (int)(n > 0x40000000 ? 0x40000000 : n);
		if (!n)
			return wr ? -EIO : -ENODATA;
		if (errno == EINTR)
			continue;
		fl = fcntl(dev->fd, F_GETFL);
		if (errno == EINVAL && fl >= 0 && (fl & O_DIRECT) &&
		    !fcntl(dev->fd, F_SETFL, fl & ~O_DIRECT))
			continue;	/* buffered, then fdatasync */
		return -errno;
	}
}

/* The entries of v[0..cnt) that hold want bytes, the last one cut. */
static int iov_take(struct iovec *v, int cnt, size_t want, size_t *cut)
{
	size_t got = 0;
	int k = 0;

	while (k < cnt && got + v[k].iov_len <= want)
		got += v[k++].iov_len;
	*cut = 0;
	if (k < cnt && got < want) {
		*cut = v[k].iov_len;
		v[k++].iov_len = want - got;
	}
	return k;
}

/* v[0..*cnt) past its first n bytes. */
static struct iovec *iov_skip(struct iovec *v, int *cnt, size_t n)
{
	while (*cnt && n >= v->iov_len) {
		n -= v->iov_len;
		v++;
		(*cnt)--;
	}
	if (*cnt) {
		v->iov_base = (uint8_t *)v->iov_base + n;
		v->iov_len -= n;
	}
	return v;
}

/* v (changed on the way) is len bytes, at logical offset off. */
static int dev_io(const struct kjh_dev *dev, bool wr, struct iovec *v,
		  int cnt, size_t len, uint64_t off)
{
	if (off > dev->capacity || len > dev->capacity - off)
		return -ENOSPC;
	while (len) {
		const struct kjh_extent *e = dev_find(dev, off);
		uint64_t in, room;
		size_t n, cut;
		int k, r;

		if (!e)
			return -ENOSPC;
		in = off - e->logical;
		room = e->length - in;
		n = room < len ? (size_t)room : len;
		k = iov_take(v, cnt, n, &cut);
		r = io_once(dev, wr, v, k, e->physical + in);
		if (cut)
			v[k - 1].iov_len = cut;
		if (r < 0)
			return r;
		v = iov_skip(v, &cnt, (size_t)r);
		off += (uint64_t)r;
		len -= (size_t)r;
	}
	return 0;
}

int kjh_dev_pread(const struct kjh_dev *dev, void *buf, size_t len,
		  uint64_t off)
{
	struct iovec v = { buf, len };

	return dev_io(dev, false, &v, 1, len, off);
}

int kjh_dev_pwrite(const struct kjh_dev *dev, const void *buf, size_t len,
		   uint64_t off)
{
	struct iovec v = { (void *)buf, len };

	return dev_io(dev, true, &v, 1, len, off);
}

int kjh_dev_pwritev(const struct kjh_dev *dev, const struct iovec *iov,
		    int cnt, uint64_t off)
{
	struct iovec v[KJH_DEV_IOV_MAX];
	size_t len = 0;
	int i;

	if (cnt < 0 || cnt > KJH_DEV_IOV_MAX)
		return -EINVAL;
	for (i = 0; i < cnt; i++) {
		v[i] = iov[i];
		len += v[i].iov_len;
	}
	return dev_io(dev, true, v, cnt, len, off);
}

/* ------------------------------------------------------------- header */

const char *kjh_state_name(uint32_t state)
{
	static const char *const names[] = {
		[KJH_STATE_PREPARED] = "prepared",
		[KJH_STATE_WRITING] = "writing",
		[KJH_STATE_COMMITTED] = "committed",
		[KJH_STATE_INVALID] = "invalid",
		[KJH_STATE_CONSUMED] = "consumed",
		[KJH_STATE_SNAPSHOT] = "snapshot",
	};

	if (state && state < sizeof(names) / sizeof(names[0]))
		return names[state];
	return "unknown";
}

bool kjh_header_resumable(const struct kjh_header *hdr)
{
	return hdr->state == KJH_STATE_COMMITTED &&
	       !(hdr->flags & KJH_F_SNAPSHOT);
}

const char *kjh_invalid_why_text(uint32_t why)
{
	static const char *const texts[] = {
		[KJH_INVALID_WRITER] = "the writer gave up on it",
		[KJH_INVALID_CAME_BACK] = "its kernel came back from the crash kernel and ran on",
		[KJH_INVALID_BY_REQUEST] = "invalidated by kexec --invalidate (a boot that did not resume)",
		[KJH_INVALID_ABANDONED] = "the hibernation failed before the jump",
	};

	if (why < sizeof(texts) / sizeof(texts[0]))
		return texts[why];
	return "for an unknown reason";
}

void kjh_header_seal(struct kjh_header *hdr)
{
	hdr->header_crc = 0;
	memset(hdr->reserved, 0, sizeof(hdr->reserved));
	hdr->header_crc = kjh_crc32c(0, hdr, KJH_HEADER_SEALED);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

int kjh_header_check(const struct kjh_header *hdr, char *why,
		     size_t why_size)
{
	struct kjh_header copy;

	if (memcmp(hdr->magic, KJH_MAGIC, 8))
		return why_set(-EBADMSG, why, why_size,
			       "no kexec hibernation image (bad magic)");
	if (hdr->version != KJH_VERSION || hdr->header_size != KJH_BLOCK)
		return why_set(-EBADMSG, why, why_size,
			       "image version %u, this kexec reads %u",
			       hdr->version, KJH_VERSION);
	copy = *hdr;
	kjh_header_seal(&copy);
	if (copy.header_crc != hdr->header_crc ||
	    !all_zero(hdr->reserved, sizeof(hdr->reserved)))
		return why_set(-EBADMSG, why, why_size,
			       "the header's checksum is wrong");
	if (hdr->page_size != KJH_PAGE)
		return why_set(-EBADMSG, why, why_size, "page size %u",
			       hdr->page_size);
	return 0;
}

void kjh_chunk_seal(struct kjh_chunk *ch)
{
	ch->header_crc = 0;
	ch->header_crc = kjh_crc32c(0, ch, sizeof(*ch));
}

void kjh_commit_seal(struct kjh_commit *cm)
{
	cm->crc = 0;
	cm->crc = kjh_crc32c(0, cm, sizeof(*cm));
}

/* -------------------------------------------------------------- reader */

int kjh_image_read_header(const struct kjh_dev *dev, struct kjh_header *hdr,
			  char *why, size_t why_size)
{
	int r = kjh_dev_pread(dev, hdr, sizeof(*hdr), 0);

	if (r)
		return why_set(r, why, why_size, "reading the header: %s",
			       strerror(-r));
	return kjh_header_check(hdr, why, why_size);
}

static int check_commit(const struct kjh_image *img, char *why,
			size_t why_size)
{
	const struct kjh_header *h = &img->hdr;
	struct kjh_commit cm, copy;
	int r;

	if (h->commit_off % KJH_BLOCK || h->commit_off + KJH_BLOCK !=
	    h->image_bytes)
		return why_set(-EBADMSG, why, why_size, "no commit record");
	r = kjh_dev_pread(img->dev, &cm, sizeof(cm), h->commit_off);
	if (r)
		return why_set(r == -ENOSPC ? -EBADMSG : r, why, why_size,
			       "no commit record (%s)", strerror(-r));
	copy = cm;
	kjh_commit_seal(&copy);
	if (memcmp(cm.magic, KJH_COMMIT_MAGIC, 8) || copy.crc != cm.crc)
		return why_set(-EBADMSG, why, why_size,
			       "no commit record: the image is torn");
	if (memcmp(cm.nonce, h->nonce, KJH_NONCE_LEN) ||
	    cm.chunk_count != h->chunk_count ||
	    cm.image_bytes != h->image_bytes ||
	    cm.data_pages != h->data_pages || cm.index_crc != h->index_crc ||
	    cm.runs_crc != h->runs_crc || cm.swsusp_crc != h->swsusp_crc ||
	    cm.sections_crc != h->sections_crc)
		return why_set(-EBADMSG, why, why_size,
			       "the commit record does not match the header: the image is torn");
	return 0;
}

static int check_layout(const struct kjh_image *img, char *why,
			size_t why_size)
{
	const struct kjh_header *h = &img->hdr;
	uint64_t chunks, cap = img->dev->capacity;

	if (!h->chunk_pages || h->chunk_pages > 4096 ||
	    h->data_pages + h->zero_pages != h->pages ||
	    h->pages > (1ull << 40) || h->pages > h->map_pages ||
	    h->run_count > h->pages ||
	    h->run_count > cap / sizeof(struct kjh_run) ||
	    h->ram_count > KJH_RAM_RANGES_MAX || h->fs_count > KJH_FS_SLOTS)
		return why_set(-EBADMSG, why, why_size,
			       "the header's counts do not add up");
	chunks = (h->data_pages + h->chunk_pages - 1) / h->chunk_pages;
	if (chunks != h->chunk_count ||
	    chunks > cap / sizeof(struct kjh_chunk_ref))
		return why_set(-EBADMSG, why, why_size,
			       "%llu chunks for %llu data pages",
			       (unsigned long long)h->chunk_count,
			       (unsigned long long)h->data_pages);
	return 0;
}

uint32_t kjh_sections_crc(const struct kjh_ram_range *ram, uint32_t ram_count,
			  const struct kjh_fs *fs, uint32_t fs_count)
{
	uint32_t crc = kjh_crc32c(0, ram, (size_t)ram_count * sizeof(*ram));

	return kjh_crc32c(crc, fs, (size_t)fs_count * sizeof(*fs));
}

/*
 * The pages [pfn, pfn + count) lie in A's RAM: in pages any byte of which
 * is in a RAM range (the kernel saves a page a range ends inside of).
 */
static bool in_ram(const struct kjh_image *img, uint64_t pfn, uint32_t count)
{
	uint64_t p = pfn, end = pfn + count;
	uint32_t i;

	while (p < end) {
		for (i = 0; i < img->hdr.ram_count; i++)
			if (img->ram[i].start / KJH_PAGE <= p &&
			    p <= img->ram[i].end / KJH_PAGE)
				break;
		if (i == img->hdr.ram_count)
			return false;
		p = img->ram[i].end / KJH_PAGE + 1;
	}
	return true;
}

static bool in_crash_region(const struct kjh_header *h, uint64_t pfn,
			    uint32_t count)
{
	return h->crash_end && pfn * KJH_PAGE <= h->crash_end &&
	       (pfn + count) * KJH_PAGE > h->crash_start;
}

/*
 * The kernel gives the pages to the pfns in ascending order: runs must
 * ascend, not overlap, and lie in A's RAM outside its crash region.
 */
static int check_runs(const struct kjh_image *img, char *why, size_t why_size)
{
	const struct kjh_header *h = &img->hdr;
	uint64_t sum = 0, data = 0, next = 0, i;

	for (i = 0; i < h->run_count; i++) {
		const struct kjh_run *r = &img->runs[i];

		if (!r->count || r->pfn < next || r->pfn >= (1ull << 52) ||
		    !in_ram(img, r->pfn, r->count) ||
		    in_crash_region(h, r->pfn, r->count))
			return why_set(-EBADMSG, why, why_size,
				       "run %llu (pfn 0x%llx, %u pages) is out of order or outside A's RAM",
				       (unsigned long long)i,
				       (unsigned long long)r->pfn, r->count);
		next = r->pfn + r->count;
		sum += r->count;
		if (!(r->flags & KJH_RUN_ZERO))
			data += r->count;
	}
	if (sum != h->pages || data != h->data_pages)
		return why_set(-EBADMSG, why, why_size,
			       "the runs hold %llu pages, the header says %llu",
			       (unsigned long long)sum,
			       (unsigned long long)h->pages);
	return 0;
}

static int read_sections(struct kjh_image *img, char *why, size_t why_size)
{
	const struct kjh_header *h = &img->hdr;
	size_t ram = (size_t)h->ram_count * sizeof(*img->ram);
	size_t fs = (size_t)h->fs_count * sizeof(*img->fs);
	int r;

	img->ram = malloc(ram ? ram : 1);
	img->fs = malloc(fs ? fs : 1);
	if (!img->ram || !img->fs)
		return why_set(-ENOMEM, why, why_size, "out of memory");
	r = kjh_dev_pread(img->dev, img->ram, ram, h->ram_off);
	if (!r)
		r = kjh_dev_pread(img->dev, img->fs, fs, h->fs_off);
	if (r)
		return why_set(r, why, why_size, "reading A's sections: %s",
			       strerror(-r));
	if (kjh_sections_crc(img->ram, h->ram_count, img->fs, h->fs_count) !=
	    h->sections_crc)
		return why_set(-EBADMSG, why, why_size,
			       "the checksum of A's RAM map and file systems is wrong");
	return 0;
}

static int read_tables(struct kjh_image *img, char *why, size_t why_size)
{
	const struct kjh_header *h = &img->hdr;
	size_t runs = (size_t)h->run_count * sizeof(struct kjh_run);
	size_t refs = (size_t)h->chunk_count * sizeof(struct kjh_chunk_ref);
	int r;

	img->runs = malloc(runs ? runs : 1);
	img->index = malloc(refs ? refs : 1);
	img->stored_size = kjh_chunk_rec_max(h->chunk_pages);
	img->stored = kjh_chunk_buf_alloc(img);
	if (!img->runs || !img->index || !img->stored)
		return why_set(-ENOMEM, why, why_size, "out of memory");
	r = kjh_dev_pread(img->dev, img->swsusp, KJH_BLOCK, h->swsusp_off);
	if (!r)
		r = kjh_dev_pread(img->dev, img->runs, runs, h->run_off);
	if (!r)
		r = kjh_dev_pread(img->dev, img->index, refs, h->index_off);
	if (r)
		return why_set(r, why, why_size, "reading the tables: %s",
			       strerror(-r));
	if (kjh_crc32c(0, img->index, refs) != h->index_crc)
		return why_set(-EBADMSG, why, why_size,
			       "the chunk index's checksum is wrong");
	if (kjh_crc32c(0, img->runs, runs) != h->runs_crc)
		return why_set(-EBADMSG, why, why_size,
			       "the runs' checksum is wrong");
	if (kjh_crc32c(0, img->swsusp, KJH_BLOCK) != h->swsusp_crc)
		return why_set(-EBADMSG, why, why_size,
			       "the swsusp header's checksum is wrong");
	return check_runs(img, why, why_size);
}

int kjh_image_open(struct kjh_image *img, const struct kjh_dev *dev,
		   char *why, size_t why_size)
{
	int r;

	memset(img, 0, sizeof(*img));
	img->dev = dev;
	r = kjh_image_read_header(dev, &img->hdr, why, why_size);
	if (r)
		return r;
	if (img->hdr.state != KJH_STATE_COMMITTED &&
	    img->hdr.state != KJH_STATE_SNAPSHOT) {
		const char *what = img->hdr.state == KJH_STATE_WRITING ?
			"the save did not finish" :
			img->hdr.state == KJH_STATE_PREPARED ?
			"nothing was saved" :
			img->hdr.state == KJH_STATE_CONSUMED ?
			"it was resumed already" :
			kjh_invalid_why_text(img->hdr.invalid_why);

		return why_set(-EBADMSG, why, why_size,
			       "not committed (state %s): %s",
			       kjh_state_name(img->hdr.state), what);
	}
	r = check_commit(img, why, why_size);
	if (!r)
		r = check_layout(img, why, why_size);
	if (!r)
		r = read_sections(img, why, why_size);
	if (!r)
		r = read_tables(img, why, why_size);
	if (r)
		kjh_image_close(img);
	return r;
}

void kjh_image_close(struct kjh_image *img)
{
	free(img->ram);
	free(img->fs);
	free(img->runs);
	free(img->index);
	free(img->stored);
	img->ram = NULL;
	img->fs = NULL;
	img->runs = NULL;
	img->index = NULL;
	img->stored = NULL;
}

bool kjh_fd_direct(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && !fcntl(fd, F_SETFL, fl | O_DIRECT);
}

void *kjh_chunk_buf_alloc(const struct kjh_image *img)
{
	void *p;

	return posix_memalign(&p, KJH_BLOCK, img->stored_size) ? NULL : p;
}

int kjh_image_read_chunk(struct kjh_image *img, uint64_t k, void *raw,
			 uint32_t *pages, char *why, size_t why_size)
{
	return kjh_image_read_chunk_into(img, k, raw, img->stored, 0, pages,
					 why, why_size);
}

int kjh_image_read_chunk_into(const struct kjh_image *img, uint64_t k,
			      void *raw, void *stored, unsigned int flags,
			      uint32_t *pages, char *why, size_t why_size)
{
	const struct kjh_header *h = &img->hdr;
	const struct kjh_chunk_ref *ref = &img->index[k];
	struct kjh_chunk *ch = stored, copy;
	uint64_t first = k * h->chunk_pages;
	uint32_t want = (uint32_t)(h->data_pages - first < h->chunk_pages ?
				   h->data_pages - first : h->chunk_pages);
	int r;

	if (ref->stored_len > want * h->page_size)
		return why_set(-EBADMSG, why, why_size,
			       "stored length %u in the index", ref->stored_len);
	/* whole blocks (a chunk is padded to one), for O_DIRECT */
	r = kjh_dev_pread(img->dev, ch,
			  (size_t)kjh_round_up(sizeof(*ch) + ref->stored_len),
			  ref->off);
	if (r)
		return why_set(r, why, why_size, "%s", strerror(-r));
	copy = *ch;
	kjh_chunk_seal(&copy);
	if (ch->magic != KJH_CHUNK_MAGIC || copy.header_crc != ch->header_crc)
		return why_set(-EBADMSG, why, why_size,
			       "the chunk header is damaged");
	if (ch->seq != k || ch->first_page != first ||
	    ch->page_count != want || ch->raw_len != want * h->page_size ||
	    ch->stored_len != ref->stored_len || ch->raw_crc != ref->raw_crc)
		return why_set(-EBADMSG, why, why_size,
			       "the chunk header does not match the index");
	if (!(flags & KJH_READ_PAGES_CRC) &&
	    kjh_crc32c(0, ch + 1, ch->stored_len) != ch->stored_crc)
		return why_set(-EBADMSG, why, why_size,
			       "the stored data's checksum is wrong");
	r = kjh_chunk_decompress(ch->method, ch + 1, ch->stored_len, raw,
				 ch->raw_len);
	if (r)
		return why_set(-EBADMSG, why, why_size,
			       "%s data does not decompress",
			       kjh_compress_name((enum kjh_compress)ch->method));
	if (kjh_crc32c(0, raw, ch->raw_len) != ch->raw_crc)
		return why_set(-EBADMSG, why, why_size,
			       "the pages' checksum is wrong");
	*pages = want;
	return 0;
}

int kjh_image_verify(struct kjh_image *img, uint64_t *bad, char *why,
		     size_t why_size)
{
	void *raw = malloc((size_t)img->hdr.chunk_pages * img->hdr.page_size);
	uint32_t pages;
	uint64_t k;
	int r = 0;

	if (!raw)
		return why_set(-ENOMEM, why, why_size, "out of memory");
	for (k = 0; k < img->hdr.chunk_count; k++) {
		r = kjh_image_read_chunk(img, k, raw, &pages, why, why_size);
		if (r) {
			*bad = k;
			break;
		}
	}
	free(raw);
	return r;
}

/* Walks the pages; at pfn == want (if want_one) stops with 1. */
struct walk {
	struct kjh_image *img;
	uint8_t *raw;
	uint64_t chunk;			/* in raw; UINT64_MAX: none */
	uint64_t data_index;
};

static int walk_data(struct walk *w, const void **page, char *why,
		     size_t why_size)
{
	uint64_t k = w->data_index / w->img->hdr.chunk_pages;
	uint32_t pages;
	int r;

	if (k != w->chunk) {
		char err[200];

		r = kjh_image_read_chunk(w->img, k, w->raw, &pages, err,
					 sizeof(err));
		if (r)
			return why_set(r, why, why_size, "%s chunk %llu: %s",
				       r == -EBADMSG ? "corrupt:" : "reading",
				       (unsigned long long)k, err);
		w->chunk = k;
	}
	*page = w->raw + (size_t)(w->data_index % w->img->hdr.chunk_pages) *
			 w->img->hdr.page_size;
	w->data_index++;
	return 0;
}

int kjh_image_for_each_page(struct kjh_image *img, kjh_page_fn fn,
			    void *data, char *why, size_t why_size)
{
	struct walk w = { img, NULL, UINT64_MAX, 0 };
	const void *page;
	uint64_t i, j;
	int r = 0;

	w.raw = malloc((size_t)img->hdr.chunk_pages * img->hdr.page_size);
	if (!w.raw)
		return why_set(-ENOMEM, why, why_size, "out of memory");
	for (i = 0; i < img->hdr.run_count && !r; i++) {
		const struct kjh_run *run = &img->runs[i];

		for (j = 0; j < run->count && !r; j++) {
			page = NULL;
			if (!(run->flags & KJH_RUN_ZERO))
				r = walk_data(&w, &page, why, why_size);
			if (!r)
				r = fn(data, run->pfn + j, page);
		}
	}
	free(w.raw);
	return r;
}

int kjh_image_find_page(struct kjh_image *img, uint64_t pfn, void *page,
			char *why, size_t why_size)
{
	const struct kjh_header *h = &img->hdr;
	uint64_t data = 0, i, k;
	uint32_t pages;
	void *raw;
	int r;

	for (i = 0; i < h->run_count; i++) {
		const struct kjh_run *run = &img->runs[i];
		bool zero = run->flags & KJH_RUN_ZERO;

		if (pfn < run->pfn || pfn - run->pfn >= run->count) {
			data += zero ? 0 : run->count;
			continue;
		}
		if (zero) {
			memset(page, 0, h->page_size);
			return 1;
		}
		data += pfn - run->pfn;
		raw = malloc((size_t)h->chunk_pages * h->page_size);
		if (!raw)
			return why_set(-ENOMEM, why, why_size, "out of memory");
		k = data / h->chunk_pages;
		r = kjh_image_read_chunk(img, k, raw, &pages, why, why_size);
		if (!r)
			memcpy(page, (uint8_t *)raw + (size_t)(data % h->chunk_pages) *
			       h->page_size, h->page_size);
		free(raw);
		return r ? r : 1;
	}
	return 0;
}

static int extents_head(const struct kjh_extents *x, const uint8_t *nonce,
			char *why, size_t why_size)
{
	if (memcmp(x->magic, KJH_EXTENTS_MAGIC, 8) ||
	    memcmp(x->nonce, nonce, KJH_NONCE_LEN))
		return why_set(-EBADMSG, why, why_size,
			       "no extent list of this image after its header");
	if (!x->count || x->count > KJH_EXTENTS_MAX)
		return why_set(-EBADMSG, why, why_size, "%u extents in the list",
			       x->count);
	return 0;
}

int kjh_extents_read(const struct kjh_dev *dev0, const uint8_t *nonce,
		     uint64_t offset, uint64_t dev_size, uint64_t capacity,
		     uint8_t *blk, char *why, size_t why_size)
{
	struct kjh_extents *x = (struct kjh_extents *)blk;
	struct kjh_extent *e = (struct kjh_extent *)(x + 1);
	uint32_t first = (KJH_BLOCK - sizeof(*x)) / sizeof(*e), i;
	char rule[160];
	struct kjh_dev pre;
	int r;

	r = kjh_dev_pread(dev0, blk, KJH_BLOCK, KJH_EXTENTS_OFF);
	if (r)
		return why_set(r, why, why_size, "reading the extent list: %s",
			       strerror(-r));
	r = extents_head(x, nonce, why, why_size);
	if (r)
		return r;
	if (first > x->count)
		first = x->count;
	if (e[0].logical || e[0].physical != offset ||
	    e[0].length < 2 * KJH_BLOCK)
		return why_set(-EBADMSG, why, why_size,
			       "the extent list does not start at offset %" PRIu64,
			       offset);
	if (kjh_dev_init(&pre, dev0->fd, e, first,
			 e[first - 1].logical + e[first - 1].length))
		return why_set(-EBADMSG, why, why_size,
			       "the extent list is not in order");
	r = kjh_dev_pread(&pre, blk, KJH_EXTENTS_BLOCKS * KJH_BLOCK,
			  KJH_EXTENTS_OFF);
	kjh_dev_fini(&pre);
	if (r)
		return why_set(r, why, why_size, "reading the extent list: %s",
			       strerror(-r));
	if (extents_head(x, nonce, why, why_size) ||
	    kjh_extents_crc(e, x->count) != x->crc)
		return why_set(-EBADMSG, why, why_size,
			       "the extent list's checksum is wrong");
	if (kjh_extents_check(e, x->count, capacity, rule, sizeof(rule)))
		return why_set(-EBADMSG, why, why_size, "extent list: %s", rule);
	for (i = 0; i < x->count; i++)
		if (e[i].physical + e[i].length > dev_size)
			return why_set(-EBADMSG, why, why_size,
				       "extent %u is past the end of the device", i);
	return 0;
}
