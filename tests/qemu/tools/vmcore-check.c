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
 *   --hdr-at ADDR  the ELF header sits at offset ADDR of FILE rather than at
 *                  0, and p_offset values are absolute offsets in FILE: use
 *                  with --core /dev/mem to read the old kernel's own ELF
 *                  core header at the elfcorehdr= address.  A character
 *                  device is read with mmap, a page at a time: read() on
 *                  /dev/mem stops at the end of the running kernel's low
 *                  memory, and the capture kernel's map ends just below
 *                  the ELF header and the backup
 *
 * ELF32 and ELF64 (little endian) cores are both handled.  Exit status:
 * 0 success, 1 the check failed (--find did not find every page, --read
 * found no PT_LOAD for the address), 2 usage or I/O error.
 */
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pattern.h"

#define MAX_PHDRS	4096
#define CHUNK		(1u << 20)

struct load {
	uint64_t off, paddr, filesz, memsz;
};

static const char *core = "/proc/vmcore";
static int fd = -1;
static int is_dev;			/* read with mmap */
static uint64_t hdr_at;
static int elf_class;
static unsigned nr_phdrs, nr_notes, nr_loads;
static struct load loads[MAX_PHDRS];

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

static void mmap_at(uint64_t off, uint8_t *p, size_t len)
{
	while (len) {
		uint64_t page = off & ~(uint64_t)(PAT_PAGE - 1);
		size_t in = (size_t)(off - page);
		size_t n = PAT_PAGE - in < len ? PAT_PAGE - in : len;
		void *m = mmap(NULL, PAT_PAGE, PROT_READ, MAP_SHARED, fd,
			       (off_t)page);

		if (m == MAP_FAILED)
			die("%s: mmap at 0x%" PRIx64 ": %s", core, page,
			    strerror(errno));
		memcpy(p, (uint8_t *)m + in, n);
		munmap(m, PAT_PAGE);
		p += n;
		off += n;
		len -= n;
	}
}

static void read_at(uint64_t off, void *buf, size_t len)
{
	uint8_t *p = buf;

	if (is_dev) {
		mmap_at(off, p, len);
		return;
	}
	while (len) {
		ssize_t n = pread(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(stderr, "vmcore-check: %s: read at 0x%" PRIx64
				": %s\n", core, off,
				n < 0 ? strerror(errno) : "end of file");
			exit(2);
		}
		p += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
}

static void add_phdr(uint32_t type, uint64_t off, uint64_t paddr,
		     uint64_t filesz, uint64_t memsz)
{
	if (type == PT_NOTE)
		nr_notes++;
	if (type != PT_LOAD)
		return;
	loads[nr_loads++] = (struct load){ off, paddr, filesz, memsz };
}

static void open_core(void)
{
	unsigned char ident[EI_NIDENT];
	struct stat st;
	unsigned i;

	fd = open(core, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die("%s: %s", core, strerror(errno));
	is_dev = S_ISCHR(st.st_mode);
	read_at(hdr_at, ident, sizeof(ident));
	if (memcmp(ident, ELFMAG, SELFMAG))
		die("%s: not an ELF file", core);
	if (ident[EI_DATA] != ELFDATA2LSB)
		die("%s: not little endian", core);
	if (ident[EI_CLASS] == ELFCLASS32) {
		Elf32_Ehdr eh;

		elf_class = 32;
		read_at(hdr_at, &eh, sizeof(eh));
		if (eh.e_type != ET_CORE || eh.e_phentsize != sizeof(Elf32_Phdr) ||
		    eh.e_phnum > MAX_PHDRS)
			die("%s: not an ELF32 core with sane program headers", core);
		nr_phdrs = eh.e_phnum;
		for (i = 0; i < nr_phdrs; i++) {
			Elf32_Phdr ph;

			read_at(hdr_at + eh.e_phoff + (uint64_t)i * sizeof(ph),
				&ph, sizeof(ph));
			add_phdr(ph.p_type, ph.p_offset, ph.p_paddr,
				 ph.p_filesz, ph.p_memsz);
		}
	} else if (ident[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr eh;

		elf_class = 64;
		read_at(hdr_at, &eh, sizeof(eh));
		if (eh.e_type != ET_CORE || eh.e_phentsize != sizeof(Elf64_Phdr) ||
		    eh.e_phnum > MAX_PHDRS)
			die("%s: not an ELF64 core with sane program headers", core);
		nr_phdrs = eh.e_phnum;
		for (i = 0; i < nr_phdrs; i++) {
			Elf64_Phdr ph;

			read_at(hdr_at + eh.e_phoff + (uint64_t)i * sizeof(ph),
				&ph, sizeof(ph));
			add_phdr(ph.p_type, ph.p_offset, ph.p_paddr,
				 ph.p_filesz, ph.p_memsz);
		}
	} else {
		die("%s: unknown ELF class", core);
	}
}

static int by_paddr(const void *a, const void *b)
{
	const struct load *x = a, *y = b;

	return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

static int cmd_list(void)
{
	unsigned i;

	printf("core %s class=ELF%d phdrs=%u notes=%u loads=%u\n", core,
	       elf_class, nr_phdrs, nr_notes, nr_loads);
	for (i = 0; i < nr_loads; i++)
		printf("load paddr=0x%" PRIx64 "-0x%" PRIx64 " filesz=0x%" PRIx64
		       " memsz=0x%" PRIx64 " offset=0x%" PRIx64 "\n",
		       loads[i].paddr, loads[i].paddr + loads[i].memsz - 1,
		       loads[i].filesz, loads[i].memsz, loads[i].off);
	return 0;
}

static int cmd_ranges(void)
{
	uint64_t s = 0, e = 0;
	const char *sep = "";
	unsigned i;
	int open = 0;

	qsort(loads, nr_loads, sizeof(loads[0]), by_paddr);
	for (i = 0; i < nr_loads; i++) {
		const struct load *l = &loads[i];

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
	return 0;
}

static int cmd_read(uint64_t paddr, uint64_t len)
{
	uint8_t buf[4096];
	unsigned i, k;

	if (!len || len > sizeof(buf))
		die("--read: LEN must be 1..4096, not %" PRIu64, len);
	for (i = 0; i < nr_loads; i++) {
		const struct load *l = &loads[i];

		if (paddr < l->paddr || paddr + len > l->paddr + l->filesz)
			continue;
		read_at(l->off + (paddr - l->paddr), buf, (size_t)len);
		for (k = 0; k < len; k++)
			printf("%02x", buf[k]);
		printf("\n");
		return 0;
	}
	fprintf(stderr, "vmcore-check: no PT_LOAD covers 0x%" PRIx64 "+%" PRIu64
		"\n", paddr, len);
	return 1;
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

static int cmd_find(const char *tag, uint64_t pages)
{
	struct find f;
	uint8_t *buf = malloc(CHUNK);
	unsigned i;

	memset(&f, 0, sizeof(f));
	if (pat_parse_tag(tag, f.tag))
		die("--find: TAG must be 32 hex digits, not '%s'", tag);
	if (!pages || pages > (1u << 24))
		die("--find: PAGES must be 1..%u", 1u << 24);
	f.pages = (uint32_t)pages;
	f.seen = calloc(f.pages, 1);
	f.sums = calloc(f.pages, sizeof(*f.sums));
	if (!buf || !f.seen || !f.sums)
		die("out of memory");
	for (i = 0; i < nr_loads; i++) {
		const struct load *l = &loads[i];
		uint64_t pa = (l->paddr + PAT_PAGE - 1) & ~(uint64_t)(PAT_PAGE - 1);
		uint64_t end = (l->paddr + l->filesz) & ~(uint64_t)(PAT_PAGE - 1);

		while (pa < end) {
			size_t n = end - pa < CHUNK ? (size_t)(end - pa) : CHUNK;
			size_t o;

			read_at(l->off + (pa - l->paddr), buf, n);
			for (o = 0; o < n; o += PAT_PAGE)
				check_page(&f, buf + o, pa + o);
			f.scanned += n;
			pa += n;
		}
	}
	printf("find tag=%s pages=%" PRIu32 " found=%" PRIu32 " dup=%" PRIu32
	       " bad=%" PRIu32, tag, f.pages, f.found, f.dup, f.bad);
	if (f.found == f.pages) {
		uint64_t fold = PAT_FOLD_INIT;
		uint32_t k;

		for (k = 0; k < f.pages; k++)
			fold = pat_fold(fold, f.sums[k]);
		printf(" sum=%016" PRIx64, fold);
	} else {
		printf(" sum=-");
	}
	if (f.found)
		printf(" lowest=0x%" PRIx64 " highest=0x%" PRIx64, f.lo, f.hi);
	printf(" below1m=%" PRIu32 " scanned=%" PRIu64 "MiB result=%s\n",
	       f.below_1m, f.scanned >> 20,
	       f.found == f.pages && !f.bad ? "ok" : "FAIL");
	return f.found == f.pages && !f.bad ? 0 : 1;
}

static void usage(void) __attribute__((noreturn));

static void usage(void)
{
	fprintf(stderr,
		"usage: vmcore-check [--core FILE] [--hdr-at ADDR] "
		"[--ranges | --find TAG PAGES | --read PADDR LEN]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	int i = 1;

	for (; i < argc; i += 2) {
		if (!strcmp(argv[i], "--core") && i + 1 < argc)
			core = argv[i + 1];
		else if (!strcmp(argv[i], "--hdr-at") && i + 1 < argc)
			hdr_at = number(argv[i + 1]);
		else
			break;
	}
	if (i == argc) {
		open_core();
		return cmd_list();
	}
	if (!strcmp(argv[i], "--ranges") && i + 1 == argc) {
		open_core();
		return cmd_ranges();
	}
	if (!strcmp(argv[i], "--find") && i + 3 == argc) {
		uint64_t pages = number(argv[i + 2]);

		open_core();
		return cmd_find(argv[i + 1], pages);
	}
	if (!strcmp(argv[i], "--read") && i + 3 == argc) {
		uint64_t paddr = number(argv[i + 1]), len = number(argv[i + 2]);

		open_core();
		return cmd_read(paddr, len);
	}
	usage();
}
