// SPDX-License-Identifier: GPL-2.0-only
/*
 * vmcore-check: look inside an ELF core (default /proc/vmcore).
 *
 *   vmcore-check [OPTS]                  describe the core: one line for the
 *                                        ELF header, one per PT_LOAD
 *   vmcore-check [OPTS] --ranges         the PT_LOAD physical ranges, sorted,
 *                                        touching ones merged, inclusive ends:
 *                                        0x1000-0x9fbff,0x100000-0x1fffffff
 *   vmcore-check [OPTS] --find TAG PAGES scan every PT_LOAD for memfill pages
 *                                        with TAG (pattern.h), check each one
 *                                        byte for byte, and count the distinct
 *                                        valid page indexes out of PAGES
 *   vmcore-check [OPTS] --read PADDR LEN the LEN bytes (<= 4096) at physical
 *                                        address PADDR, as the core shows
 *                                        them, in hex
 * OPTS:
 *   --core FILE    the core file (default /proc/vmcore)
 *   --image FILE   with --find: scan the pages of a committed hibernation
 *                  image (a file or a device holding one at offset 0)
 *                  instead of a core, through the image reader of lib/hib,
 *                  every chunk's checksums included; also prints
 *                  "image pages=N data=D zero=Z"
 *   --hdr-at ADDR  the ELF header sits at offset ADDR of FILE rather than at
 *                  0, and p_offset values are absolute offsets in FILE: use
 *                  with --core /dev/mem to read the old kernel's own ELF
 *                  core header at the elfcorehdr= address.  A character
 *                  device is read with mmap, a page at a time: read() on
 *                  /dev/mem stops at the end of the running kernel's low
 *                  memory, and the capture kernel's map ends just below
 *                  the ELF header and the backup
 *
 * ELF32 and ELF64 (little endian) cores are both handled: the reading is
 * libkjump's (kj_vmcore_*), the same code a hibernation writer in B
 * uses; this tool only adds the checks.  Exit status:
 * 0 success, 1 the check failed (--find did not find every page, --read
 * found no PT_LOAD for the address), 2 usage or I/O error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <unistd.h>

#include "kjump/kjump.h"
#include "kjump/kjump-hib.h"
#include "pattern.h"

#define CHUNK		(1u << 20)

struct core {
	struct kj_ctx *kj;
	struct kj_vmcore *vc;
	struct kj_vmcore_info in;
	const char *path;
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "vmcore-check: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* The library's messages, as this tool's. */
static void say(void *data, enum kj_log_level level, const char *msg)
{
	(void)data;
	if (level != KJ_LOG_DEBUG)
		fprintf(stderr, "vmcore-check: %s\n", msg);
}

static uint64_t number(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		die("not a number: '%s'", s);
	return v;
}

static void open_core(struct core *c, uint64_t hdr_at)
{
	c->kj = kj_ctx_new("");
	if (!c->kj)
		die("out of memory");
	kj_ctx_set_log(c->kj, say, NULL);
	if (kj_vmcore_open_at(c->kj, c->path, hdr_at, &c->vc))
		exit(2);
	kj_vmcore_info(c->vc, &c->in);
}

/* Read at a file offset; the library has said why when it fails. */
static void read_at(struct core *c, uint64_t off, void *buf, size_t len)
{
	if (kj_vmcore_read_at(c->vc, off, buf, len))
		exit(2);
}

static int by_paddr(const void *a, const void *b)
{
	const struct kj_vmcore_load *x = a, *y = b;

	return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

static int cmd_list(const struct core *c)
{
	unsigned int i;

	printf("core %s class=ELF%d phdrs=%u notes=%u loads=%u\n", c->path,
	       c->in.elf_class, c->in.nr_phdrs, c->in.nr_notes,
	       c->in.nr_loads);
	for (i = 0; i < c->in.nr_loads; i++) {
		const struct kj_vmcore_load *l = &c->in.loads[i];

		printf("load paddr=0x%" PRIx64 "-0x%" PRIx64 " filesz=0x%" PRIx64
		       " memsz=0x%" PRIx64 " offset=0x%" PRIx64 "\n",
		       l->paddr, l->paddr + l->memsz - 1, l->filesz, l->memsz,
		       l->offset);
	}
	return 0;
}

static int cmd_ranges(const struct core *c)
{
	struct kj_vmcore_load *loads;
	uint64_t s = 0, e = 0;
	const char *sep = "";
	unsigned int i, n = c->in.nr_loads;
	int open = 0;

	loads = malloc((n ? n : 1) * sizeof(*loads));
	if (!loads)
		die("out of memory");
	memcpy(loads, c->in.loads, n * sizeof(*loads));
	qsort(loads, n, sizeof(*loads), by_paddr);
	for (i = 0; i < n; i++) {
		const struct kj_vmcore_load *l = &loads[i];

		if (!l->memsz)
			continue;
		if (open && l->paddr <= e) {
			if (l->paddr + l->memsz > e)
				e = l->paddr + l->memsz;
			continue;
		}
		if (open) {
			printf("%s0x%" PRIx64 "-0x%" PRIx64, sep, s, e - 1);
			sep = ",";
		}
		s = l->paddr;
		e = l->paddr + l->memsz;
		open = 1;
	}
	if (open)
		printf("%s0x%" PRIx64 "-0x%" PRIx64, sep, s, e - 1);
	printf("\n");
	free(loads);
	return 0;
}

static int cmd_read(struct core *c, uint64_t paddr, uint64_t len)
{
	uint8_t buf[4096];
	unsigned int k;

	if (!len || len > sizeof(buf))
		die("--read: LEN must be 1..4096, not %" PRIu64, len);
	if (kj_vmcore_read(c->vc, paddr, buf, (size_t)len))
		return 1;
	for (k = 0; k < len; k++)
		printf("%02x", buf[k]);
	printf("\n");
	return 0;
}

struct find {
	uint8_t tag[PAT_TAG_LEN];
	uint32_t pages;
	uint8_t *seen;			/* one byte per page index */
	uint64_t *sums;
	uint32_t found, dup, bad, below_1m;
	uint64_t lo, hi, scanned;
	uint8_t expect[PAT_PAYLOAD_LEN];
};

static void check_page(struct find *f, const uint8_t *page, uint64_t paddr)
{
	struct pat_hdr h;
	int ok;

	memcpy(&h, page, sizeof(h));
	if (h.magic != PAT_MAGIC || memcmp(h.tag, f->tag, PAT_TAG_LEN))
		return;
	ok = h.total == f->pages && h.index < f->pages && !h.reserved &&
	     pat_sum(page + PAT_PAYLOAD_OFF, PAT_PAYLOAD_LEN) == h.sum;
	if (ok) {
		pat_payload(f->tag, h.index, f->expect);
		ok = !memcmp(page + PAT_PAYLOAD_OFF, f->expect, PAT_PAYLOAD_LEN);
	}
	if (!ok) {
		if (f->bad++ < 5)
			fprintf(stderr, "vmcore-check: bad page at 0x%" PRIx64
				" (index %" PRIu32 ", total %" PRIu32 ")\n",
				paddr, h.index, h.total);
		return;
	}
	if (f->seen[h.index]) {
		f->dup++;
		return;
	}
	f->seen[h.index] = 1;
	f->sums[h.index] = h.sum;
	f->found++;
	if (paddr < 0x100000)
		f->below_1m++;
	if (f->found == 1 || paddr < f->lo)
		f->lo = paddr;
	if (paddr > f->hi)
		f->hi = paddr;
}

static void find_init(struct find *f, const char *tag, uint64_t pages)
{
	memset(f, 0, sizeof(*f));
	if (pat_parse_tag(tag, f->tag))
		die("--find: TAG must be 32 hex digits, not '%s'", tag);
	if (!pages || pages > (1u << 24))
		die("--find: PAGES must be 1..%u", 1u << 24);
	f->pages = (uint32_t)pages;
	f->seen = calloc(f->pages, 1);
	f->sums = calloc(f->pages, sizeof(*f->sums));
	if (!f->seen || !f->sums)
		die("out of memory");
}

static int find_report(struct find *f, const char *tag)
{
	printf("find tag=%s pages=%" PRIu32 " found=%" PRIu32 " dup=%" PRIu32
	       " bad=%" PRIu32, tag, f->pages, f->found, f->dup, f->bad);
	if (f->found == f->pages) {
		uint64_t fold = PAT_FOLD_INIT;
		uint32_t k;

		for (k = 0; k < f->pages; k++)
			fold = pat_fold(fold, f->sums[k]);
		printf(" sum=%016" PRIx64, fold);
	} else {
		printf(" sum=-");
	}
	if (f->found)
		printf(" lowest=0x%" PRIx64 " highest=0x%" PRIx64, f->lo, f->hi);
	printf(" below1m=%" PRIu32 " scanned=%" PRIu64 "MiB result=%s\n",
	       f->below_1m, f->scanned >> 20,
	       f->found == f->pages && !f->bad ? "ok" : "FAIL");
	free(f->seen);
	free(f->sums);
	return f->found == f->pages && !f->bad ? 0 : 1;
}

static int cmd_find(struct core *c, const char *tag, uint64_t pages)
{
	struct find f;
	uint8_t *buf = malloc(CHUNK);
	unsigned i;

	find_init(&f, tag, pages);
	if (!buf)
		die("out of memory");
	for (i = 0; i < c->in.nr_loads; i++) {
		const struct kj_vmcore_load *l = &c->in.loads[i];
		uint64_t pa = (l->paddr + PAT_PAGE - 1) & ~(uint64_t)(PAT_PAGE - 1);
		uint64_t end = (l->paddr + l->filesz) & ~(uint64_t)(PAT_PAGE - 1);

		while (pa < end) {
			size_t n = end - pa < CHUNK ? (size_t)(end - pa) : CHUNK;
			size_t o;

			read_at(c, l->offset + (pa - l->paddr), buf, n);
			for (o = 0; o < n; o += PAT_PAGE)
				check_page(&f, buf + o, pa + o);
			f.scanned += n;
			pa += n;
		}
	}
	free(buf);
	return find_report(&f, tag);
}

struct image_scan {
	struct find *f;
	uint64_t pages, zero;
};

static int image_page(void *data, uint64_t pfn, const void *page)
{
	struct image_scan *s = data;

	s->pages++;
	if (!page) {
		s->zero++;
		return 0;
	}
	check_page(s->f, page, pfn * PAT_PAGE);
	s->f->scanned += PAT_PAGE;
	return 0;
}

static int cmd_find_image(const char *path, const char *tag, uint64_t pages)
{
	struct image_scan scan = { 0 };
	struct kjh_image img;
	struct kjh_dev dev;
	struct find f;
	char why[256];
	int fd, ret;

	find_init(&f, tag, pages);
	scan.f = &f;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	ret = kjh_dev_init_plain(&dev, fd, UINT64_MAX / 2);
	if (ret)
		die("%s: %s", path, strerror(-ret));
	ret = kjh_image_open(&img, &dev, why, sizeof(why));
	if (ret)
		die("%s: %s", path, why);
	ret = kjh_image_for_each_page(&img, image_page, &scan, why,
				      sizeof(why));
	if (ret)
		die("%s: %s", path, why);
	printf("image pages=%" PRIu64 " data=%" PRIu64 " zero=%" PRIu64 "\n",
	       scan.pages, scan.pages - scan.zero, scan.zero);
	kjh_image_close(&img);
	kjh_dev_fini(&dev);
	close(fd);
	return find_report(&f, tag);
}

static void usage(void) __attribute__((noreturn));

static void usage(void)
{
	fprintf(stderr,
		"usage: vmcore-check [--core FILE] [--hdr-at ADDR] "
		"[--ranges | --find TAG PAGES | --read PADDR LEN]\n"
		"       vmcore-check --image FILE --find TAG PAGES\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct core c = { .path = "/proc/vmcore" };
	const char *image = NULL;
	uint64_t hdr_at = 0;
	int i = 1;

	for (; i < argc; i += 2) {
		if (!strcmp(argv[i], "--image") && i + 1 < argc)
			image = argv[i + 1];
		else if (!strcmp(argv[i], "--core") && i + 1 < argc)
			c.path = argv[i + 1];
		else if (!strcmp(argv[i], "--hdr-at") && i + 1 < argc)
			hdr_at = number(argv[i + 1]);
		else
			break;
	}
	if (image && i + 3 == argc && !strcmp(argv[i], "--find"))
		return cmd_find_image(image, argv[i + 1], number(argv[i + 2]));
	if (image)
		usage();
	if (i == argc) {
		open_core(&c, hdr_at);
		return cmd_list(&c);
	}
	if (!strcmp(argv[i], "--ranges") && i + 1 == argc) {
		open_core(&c, hdr_at);
		return cmd_ranges(&c);
	}
	if (!strcmp(argv[i], "--find") && i + 3 == argc) {
		uint64_t pages = number(argv[i + 2]);

		open_core(&c, hdr_at);
		return cmd_find(&c, argv[i + 1], pages);
	}
	if (!strcmp(argv[i], "--read") && i + 3 == argc) {
		uint64_t paddr = number(argv[i + 1]), len = number(argv[i + 2]);

		open_core(&c, hdr_at);
		return cmd_read(&c, paddr, len);
	}
	usage();
}
