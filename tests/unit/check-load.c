// SPDX-License-Identifier: GPL-2.0-only
/*
 * check-load: judge a kexec_load call recorded by fake-kexec.so.
 *
 *   check-load --dump OUT/load-N --root FAKE_ROOT --kernel BZIMAGE
 *              [--initrd FILE] [--append TEXT]... [--cmdline TEXT]
 *              [--absent TEXT]...
 *              [--no-verify] [--crash-region START-END [--crash-jump]]
 *              [--preserve-window START-END]
 *              [--entry ADDR] [--elf [--args-none]]
 *
 * Checks what the next kernel and purgatory would rely on:
 *  - flags: KEXEC_ARCH_386, normal slot, no stray bits (0x10 above all)
 *  - segments page aligned, bufsz <= memsz, no overlap, each inside one
 *    RAM range of FAKE_ROOT's memory map
 *  - the entry is the purgatory segment (found by its header); its
 *    params block has regs.esi = the boot params segment, regs.eip = the
 *    kernel segment (the bzImage payload, byte for byte; --entry: that
 *    address instead), regs.esp
 *    inside purgatory, and a sha256 over the listed regions equal to the
 *    recorded bytes zero-padded to memsz, the regions being exactly the
 *    other segments; PGF_VERIFY unless --no-verify
 *  - boot params: HdrS, loader type 0xD0, cmd_line_ptr = segment + 0x1000
 *    holding the expected text (--cmdline: all of it, --append: part of
 *    it, --absent: never part of it), ramdisk fields = the --initrd
 *    segment (or zero), the e820 table = FAKE_ROOT's memory map
 *  - with --crash-region (inclusive hex bounds, as in /proc/iomem): a -p
 *    load, KEXEC_ON_CRASH set and every segment inside the region; the
 *    e820 table and the segment count are then the crash loader's; with
 *    --crash-jump too, KEXEC_PRESERVE_CONTEXT set as well (a crash image
 *    the kernel may jump into), else clear
 *  - with --preserve-window: a --load-preserve-context load,
 *    KEXEC_PRESERVE_CONTEXT set, every segment in low memory (below
 *    640K) or the window, every RAM range of the e820 table there too
 *    and each of its pages covered by a segment (so the kernel swaps it),
 *    and purgatory told to append kexec_jump_back_entry= at the command
 *    line's NUL with room for it
 *
 *  - with --elf, KERNEL is an i386 ELF executable (the elf-x86 loader):
 *    every PT_LOAD's bytes are in a segment starting at its p_paddr
 *    rounded down to a page, zeros before it, and memsz covers the load;
 *    purgatory's eip (or, with --args-none, where there is neither
 *    purgatory nor boot params, the kexec entry) is --entry or e_entry;
 *    the zero page carries a synthesised protocol 2.06 header (loader
 *    type 0xff, cmdline_size 2048, initrd_addr_max 0x37ffffff) and
 *    purgatory's cmdline_end/cmdline_room point at the NUL and the 65
 *    bytes from it
 *
 * Prints one "check-load: ..." line per problem and exits 1, or prints
 * nothing and exits 0.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file-io.h"
#include "memmap-read.h"
#include "memory-map.h"
#include "purgatory-params.h"
#include "sha256.h"

static void root_log(void *data, enum kj_log_level level, const char *msg)
{
	(void)data;
	if (level != KJ_LOG_DEBUG)
		fprintf(stderr, "check-load: %s\n", msg);
}

/* The library's view of the fake root (leaked: one per run). */
static struct kj_ctx *root_ctx(const char *root)
{
	struct kj_ctx *kj = kj_ctx_new(root);

	if (kj)
		kj_ctx_set_log(kj, root_log, NULL);
	return kj;
}

#define MAX_SEGS	16
#define PAGE		0x1000u
#define ARCH_386	(3ul << 16)

struct seg {
	uint64_t mem, memsz, bufsz;
	char *buf;
};

struct load {
	uint64_t entry;
	unsigned long flags;
	unsigned int nr;
	struct seg s[MAX_SEGS];
};

struct args {
	const char *dump, *root, *kernel, *initrd, *cmdline;
	const char *append[16];
	unsigned int nr_append;
	const char *absent[16];
	unsigned int nr_absent;
	bool no_verify;
	bool elf, args_none, has_entry;
	uint64_t entry;
	bool crash, crash_jump;
	uint64_t crash_start, crash_end;	/* end exclusive */
	bool preserve;
	uint64_t win_start, win_end;		/* end exclusive */
};

#define LOW_END		0xa0000ull

static int problems;

__attribute__((format(printf, 1, 2)))
static void bad(const char *fmt, ...)
{
	va_list ap;

	fputs("check-load: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	problems++;
}

static uint64_t le(const void *p, size_t off, int bytes)
{
	const uint8_t *b = p;
	uint64_t v = 0;
	int i;

	for (i = bytes - 1; i >= 0; i--)
		v = v << 8 | b[off + i];
	return v;
}

static char *slurp(const char *path, size_t *len)
{
	char *buf;
	int ret = read_file(path, 1u << 30, &buf, len);

	if (ret) {
		bad("%s: %s", path, strerror(-ret));
		return NULL;
	}
	return buf;
}

static int read_info(const char *dump, struct load *l)
{
	char path[4096], *text, *line;
	unsigned int i;
	size_t len;

	memset(l, 0, sizeof(*l));
	snprintf(path, sizeof(path), "%s/info", dump);
	text = slurp(path, &len);
	if (!text)
		return -1;
	for (line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long a, b, c;

		if (sscanf(line, "entry %llx", &a) == 1)
			l->entry = a;
		else if (sscanf(line, "flags %llx", &a) == 1)
			l->flags = (unsigned long)a;
		else if (sscanf(line, "nr_segments %u", &i) == 1)
			l->nr = i;
		else if (sscanf(line, "segment %u %llx %llx %llx", &i, &a, &b,
				&c) == 4 && i < MAX_SEGS)
			l->s[i] = (struct seg){ a, b, c, NULL };
	}
	free(text);
	if (!l->nr || l->nr > MAX_SEGS) {
		bad("%s: %u segments", path, l->nr);
		return -1;
	}
	for (i = 0; i < l->nr; i++) {
		snprintf(path, sizeof(path), "%s/segment-%u.bin", dump, i);
		l->s[i].buf = slurp(path, &len);
		if (!l->s[i].buf)
			return -1;
		if (len != l->s[i].bufsz) {
			bad("segment %u: %zu bytes recorded, bufsz 0x%" PRIx64,
			    i, len, l->s[i].bufsz);
			return -1;
		}
	}
	return 0;
}

static bool in_ram(const struct mem_map *map, uint64_t start, uint64_t end)
{
	size_t i;

	for (i = 0; i < map->n; i++)
		if (map->r[i].type == MEM_RAM && start >= map->r[i].start &&
		    end <= map->r[i].end)
			return true;
	return false;
}

static void check_segments(const struct load *l, const struct mem_map *map,
			   const struct args *a)
{
	unsigned long slot = a->crash_jump ? 0x3ul : a->crash ? 0x1ul :
			     a->preserve ? 0x2ul : 0;
	unsigned int i, j;

	if (l->flags & 0x10)
		bad("flags 0x%lx carry 0x10 (KEXEC_DEBUG is no kexec_load flag)",
		    l->flags);
	if ((l->flags & 0xffff0000ul) != ARCH_386)
		bad("flags 0x%lx: not KEXEC_ARCH_386", l->flags);
	if ((l->flags & 0xfffful) != slot)
		bad("flags 0x%lx: want 0x%lx in the low bits", l->flags, slot);
	for (i = 0; i < l->nr; i++) {
		const struct seg *s = &l->s[i];

		if (s->mem % PAGE || s->memsz % PAGE || !s->memsz)
			bad("segment %u: 0x%" PRIx64 "+0x%" PRIx64
			    " is not page aligned", i, s->mem, s->memsz);
		if (s->bufsz > s->memsz)
			bad("segment %u: bufsz 0x%" PRIx64 " > memsz 0x%" PRIx64,
			    i, s->bufsz, s->memsz);
		if (!in_ram(map, s->mem, s->mem + s->memsz))
			bad("segment %u: 0x%" PRIx64 "-0x%" PRIx64
			    " is not inside one RAM range", i, s->mem,
			    s->mem + s->memsz - 1);
		if (a->crash && (s->mem < a->crash_start ||
				 s->mem + s->memsz > a->crash_end))
			bad("segment %u: 0x%" PRIx64 "-0x%" PRIx64
			    " is outside the crash region", i, s->mem,
			    s->mem + s->memsz - 1);
		if (a->preserve && s->mem + s->memsz > LOW_END &&
		    (s->mem < a->win_start || s->mem + s->memsz > a->win_end))
			bad("segment %u: 0x%" PRIx64 "-0x%" PRIx64
			    " is outside low memory and the window", i, s->mem,
			    s->mem + s->memsz - 1);
		for (j = 0; j < i; j++)
			if (s->mem < l->s[j].mem + l->s[j].memsz &&
			    l->s[j].mem < s->mem + s->memsz)
				bad("segments %u and %u overlap", j, i);
	}
}

static bool covered(const struct load *l, uint64_t page)
{
	unsigned int i;

	for (i = 0; i < l->nr; i++)
		if (page >= l->s[i].mem && page < l->s[i].mem + l->s[i].memsz)
			return true;
	return false;
}

/* Every whole RAM page of B's e820 is a segment: the kernel swaps it. */
static void check_preserve_cover(const struct load *l, const struct seg *bp)
{
	size_t i, n = ((const uint8_t *)bp->buf)[0x1e8];

	for (i = 0; i < n; i++) {
		size_t off = 0x2d0 + 20 * i;
		uint64_t s = le(bp->buf, off, 8);
		uint64_t e = s + le(bp->buf, off + 8, 8);
		uint64_t pg = (s + PAGE - 1) / PAGE * PAGE;

		if (le(bp->buf, off + 16, 4) != 1)
			continue;
		for (; pg + PAGE <= e; pg += PAGE) {
			if (!covered(l, pg)) {
				bad("page 0x%" PRIx64 " is B's but no segment covers it",
				    pg);
				return;
			}
		}
	}
}

static void check_preserve_e820(const struct seg *bp, const struct args *a)
{
	size_t i, n = ((const uint8_t *)bp->buf)[0x1e8];

	for (i = 0; i < n; i++) {
		size_t off = 0x2d0 + 20 * i;
		uint64_t s = le(bp->buf, off, 8);
		uint64_t e = s + le(bp->buf, off + 8, 8);

		if (le(bp->buf, off + 16, 4) == 1 && e > LOW_END &&
		    (s < a->win_start || e > a->win_end))
			bad("e820 RAM 0x%" PRIx64 "-0x%" PRIx64
			    " is outside low memory and the window", s, e - 1);
	}
}

static void check_preserve_params(const struct purgatory_params *p,
				  const struct seg *bp)
{
	const char *text = (const char *)bp->buf + 0x1000;

	if (!(p->flags & PGF_JUMP_BACK_ENTRY) || (p->flags & PGF_BACKUP))
		bad("params: flags 0x%" PRIx32 ", want JUMP_BACK_ENTRY, no BACKUP",
		    p->flags);
	if (p->cmdline_end != bp->mem + 0x1000 + strlen(text))
		bad("params: cmdline_end 0x%" PRIx32 ", the NUL is at 0x%" PRIx64,
		    p->cmdline_end, bp->mem + 0x1000 + strlen(text));
	if (p->cmdline_room < 34 ||
	    p->cmdline_end + p->cmdline_room > bp->mem + bp->bufsz)
		bad("params: cmdline_room %" PRIu32 " (need 34, inside the segment)",
		    p->cmdline_room);
}

/* The one segment satisfying match, or NULL (said why). */
static const struct seg *find(const struct load *l, const char *what,
			      bool (*match)(const struct seg *, const void *),
			      const void *arg)
{
	const struct seg *found = NULL;
	unsigned int i, n = 0;

	for (i = 0; i < l->nr; i++) {
		if (match(&l->s[i], arg)) {
			found = &l->s[i];
			n++;
		}
	}
	if (n != 1) {
		bad("%u segments look like %s, want 1", n, what);
		return NULL;
	}
	return found;
}

static bool is_purgatory(const struct seg *s, const void *arg)
{
	(void)arg;
	return s->bufsz >= sizeof(struct purgatory_header) &&
	       le(s->buf, 16, 4) == PURGATORY_MAGIC;
}

static bool is_boot_params(const struct seg *s, const void *arg)
{
	(void)arg;
	return s->bufsz > 0x1000 && le(s->buf, 0x202, 4) == 0x53726448 &&
	       le(s->buf, 0x1fe, 2) == 0xaa55;
}

struct blob {
	const char *buf;
	size_t len;
};

static bool is_blob(const struct seg *s, const void *arg)
{
	const struct blob *b = arg;

	return s->bufsz == b->len && !memcmp(s->buf, b->buf, b->len);
}

static void check_hash(const struct load *l, const struct seg *pg,
		       const struct purgatory_params *p)
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	struct sha256_ctx ctx;
	unsigned int i, j;

	unsigned int loaded = 0;

	/* One region per other segment with bytes loaded from user space. */
	for (j = 0; j < l->nr; j++)
		if (&l->s[j] != pg && l->s[j].bufsz)
			loaded++;
	if (p->nr_regions != loaded) {
		bad("params: %" PRIu32 " regions for %u loaded segments",
		    p->nr_regions, loaded);
		return;
	}
	sha256_init(&ctx);
	for (i = 0; i < p->nr_regions; i++) {
		const struct purgatory_region *r = &p->regions[i];
		const struct seg *s = NULL;

		for (j = 0; j < l->nr; j++)
			if (l->s[j].mem == r->start && &l->s[j] != pg)
				s = &l->s[j];
		if (!s || s->bufsz != r->len) {
			bad("params: region %u (0x%" PRIx64 "+0x%" PRIx64
			    ") is not a segment", i, r->start, r->len);
			return;
		}
		for (j = 0; j < i; j++)
			if (p->regions[j].start == r->start)
				bad("params: region %u listed twice", i);
		sha256_update(&ctx, s->buf, s->bufsz);
	}
	sha256_final(&ctx, digest);
	/* -i: nothing is verified, so the tool need not hash at all. */
	if (!(p->flags & PGF_VERIFY))
		return;
	if (memcmp(digest, p->sha256, sizeof(digest)))
		bad("params: sha256 does not match the loaded bytes");
}

static const struct purgatory_params *check_purgatory(const struct load *l,
						      const struct seg *pg,
						      const struct args *a)
{
	const struct purgatory_params *p;
	uint32_t off;

	if (l->entry != pg->mem)
		bad("entry 0x%" PRIx64 " is not purgatory at 0x%" PRIx64,
		    l->entry, pg->mem);
	off = (uint32_t)le(pg->buf, 24, 4);
	if (le(pg->buf, 20, 4) != PURGATORY_VERSION ||
	    off + sizeof(*p) > pg->bufsz) {
		bad("purgatory header: version %u, params at 0x%x",
		    (unsigned int)le(pg->buf, 20, 4), off);
		return NULL;
	}
	p = (const struct purgatory_params *)(pg->buf + off);
	if (p->magic != PURGATORY_MAGIC) {
		bad("params: magic 0x%08" PRIx32, p->magic);
		return NULL;
	}
	if (p->regs.esp <= pg->mem || p->regs.esp > pg->mem + pg->memsz)
		bad("params: esp 0x%" PRIx32 " outside purgatory", p->regs.esp);
	if (!(p->flags & PGF_VERIFY) != a->no_verify)
		bad("params: PGF_VERIFY is %s", a->no_verify ? "on" : "off");
	check_hash(l, pg, p);
	return p;
}

static void check_cmdline(const struct seg *bp, const struct args *a)
{
	const char *text = bp->buf + 0x1000;
	size_t room = bp->bufsz - 0x1000;
	unsigned int i;

	if (le(bp->buf, 0x228, 4) != bp->mem + 0x1000)
		bad("cmd_line_ptr 0x%" PRIx64 ", want 0x%" PRIx64,
		    le(bp->buf, 0x228, 4), bp->mem + 0x1000);
	if (!memchr(text, '\0', room)) {
		bad("command line not terminated inside its segment");
		return;
	}
	if (a->cmdline && strcmp(text, a->cmdline))
		bad("command line \"%s\", want \"%s\"", text, a->cmdline);
	for (i = 0; i < a->nr_append; i++)
		if (!strstr(text, a->append[i]))
			bad("command line \"%s\" lacks \"%s\"", text,
			    a->append[i]);
	for (i = 0; i < a->nr_absent; i++)
		if (strstr(text, a->absent[i]))
			bad("command line \"%s\" contains \"%s\"", text,
			    a->absent[i]);
}

static void check_e820(const struct seg *bp, const struct mem_map *map)
{
	size_t i, n = ((const uint8_t *)bp->buf)[0x1e8];

	if (n != map->n) {
		bad("e820: %zu entries, the map has %zu", n, map->n);
		return;
	}
	for (i = 0; i < n; i++) {
		size_t off = 0x2d0 + 20 * i;

		if (le(bp->buf, off, 8) != map->r[i].start ||
		    le(bp->buf, off + 8, 8) != map->r[i].end - map->r[i].start ||
		    le(bp->buf, off + 16, 4) != map->r[i].type)
			bad("e820 entry %zu differs from the map", i);
	}
}

static void check_initrd(const struct load *l, const struct seg *bp,
			 const struct args *a, unsigned int base_segs)
{
	const struct seg *rd;
	struct blob b;
	size_t len;
	char *buf;

	if (!a->initrd) {
		if (le(bp->buf, 0x218, 4) || le(bp->buf, 0x21c, 4))
			bad("ramdisk fields set without an initrd");
		if (l->nr != base_segs && !a->crash && !a->preserve)
			bad("%u segments, want %u (kernel, boot params, purgatory)",
			    l->nr, base_segs);
		return;
	}
	buf = slurp(a->initrd, &len);
	if (!buf)
		return;
	b = (struct blob){ buf, len };
	rd = find(l, "the initrd", is_blob, &b);
	if (rd && (le(bp->buf, 0x218, 4) != rd->mem ||
		   le(bp->buf, 0x21c, 4) != len))
		bad("ramdisk 0x%" PRIx64 "+0x%" PRIx64 ", initrd is at 0x%"
		    PRIx64 "+0x%zx", le(bp->buf, 0x218, 4),
		    le(bp->buf, 0x21c, 4), rd->mem, len);
	free(buf);
}

static void check_kernel(const struct load *l, const struct args *a,
			 const struct purgatory_params *p, const struct seg *bp)
{
	const struct seg *k;
	size_t len, setup;
	struct blob b;
	char *buf;

	buf = slurp(a->kernel, &len);
	if (!buf)
		return;
	setup = ((uint8_t)buf[0x1f1] ? (uint8_t)buf[0x1f1] : 4) * 512u + 512;
	if (len <= setup) {
		bad("%s: not a bzImage", a->kernel);
		free(buf);
		return;
	}
	b = (struct blob){ buf + setup, len - setup };
	k = find(l, "the kernel payload", is_blob, &b);
	if (k && p && p->regs.eip != (a->has_entry ? a->entry : k->mem))
		bad("params: eip 0x%" PRIx32 ", kernel at 0x%" PRIx64
		    "%s", p->regs.eip, k->mem, a->has_entry ?
		    " (and not the --entry given)" : "");
	if (k && buf[0x234] && k->mem % le(buf, 0x230, 4))
		bad("kernel at 0x%" PRIx64 " is not aligned to 0x%" PRIx64,
		    k->mem, le(buf, 0x230, 4));
	if (k && k->memsz < le(buf, 0x260, 4))
		bad("kernel segment 0x%" PRIx64 " bytes, init_size 0x%" PRIx64,
		    k->memsz, le(buf, 0x260, 4));
	if (bp && memcmp(bp->buf + 0x1f1, buf + 0x1f1, 0x10))
		bad("boot params do not carry the kernel's setup header");
	free(buf);
}

/* The ELF file's PT_LOADs, read here independently of the tool. */
struct elf_file {
	char *buf;
	size_t len;
	uint64_t entry;
	unsigned int nr;
	struct { uint64_t off, paddr, filesz, memsz; } ld[32];
};

static int read_elf(const char *path, struct elf_file *e)
{
	uint64_t phoff, entsize, num, i;

	memset(e, 0, sizeof(*e));
	e->buf = slurp(path, &e->len);
	if (!e->buf)
		return -1;
	if (e->len < 52 || memcmp(e->buf, "\177ELF", 4) || e->buf[4] != 1) {
		bad("%s: not an ELF32 file", path);
		return -1;
	}
	e->entry = le(e->buf, 24, 4);
	phoff = le(e->buf, 28, 4);
	entsize = le(e->buf, 42, 2);
	num = le(e->buf, 44, 2);
	if (entsize < 32 || phoff + num * entsize > e->len) {
		bad("%s: bad program header table", path);
		return -1;
	}
	for (i = 0; i < num && e->nr < 32; i++) {
		const char *ph = e->buf + phoff + i * entsize;

		if (le(ph, 0, 4) != 1 || !le(ph, 20, 4))
			continue;
		e->ld[e->nr].off = le(ph, 4, 4);
		e->ld[e->nr].paddr = le(ph, 12, 4);
		e->ld[e->nr].filesz = le(ph, 16, 4);
		e->ld[e->nr].memsz = le(ph, 20, 4);
		if (e->ld[e->nr].off + e->ld[e->nr].filesz > e->len) {
			bad("%s: PT_LOAD outside the file", path);
			return -1;
		}
		e->nr++;
	}
	return 0;
}

static void check_elf_loads(const struct load *l, const struct elf_file *e)
{
	unsigned int i, j;

	for (i = 0; i < e->nr; i++) {
		uint64_t start = e->ld[i].paddr & ~(uint64_t)(PAGE - 1);
		uint64_t lead = e->ld[i].paddr - start;
		const struct seg *s = NULL;

		for (j = 0; j < l->nr; j++)
			if (l->s[j].mem == start)
				s = &l->s[j];
		if (!s) {
			bad("PT_LOAD at 0x%" PRIx64 ": no segment at 0x%" PRIx64,
			    e->ld[i].paddr, start);
			continue;
		}
		if (s->mem + s->memsz < e->ld[i].paddr + e->ld[i].memsz)
			bad("PT_LOAD at 0x%" PRIx64 ": segment ends at 0x%" PRIx64
			    ", the load at 0x%" PRIx64, e->ld[i].paddr,
			    s->mem + s->memsz, e->ld[i].paddr + e->ld[i].memsz);
		if (s->bufsz != (e->ld[i].filesz ? lead + e->ld[i].filesz : 0)) {
			bad("PT_LOAD at 0x%" PRIx64 ": bufsz 0x%" PRIx64,
			    e->ld[i].paddr, s->bufsz);
			continue;
		}
		for (j = 0; j < s->bufsz && j < lead; j++)
			if (s->buf[j])
				break;
		if (j < s->bufsz && j < lead)
			bad("PT_LOAD at 0x%" PRIx64 ": bytes before it not zero",
			    e->ld[i].paddr);
		if (e->ld[i].filesz &&
		    memcmp(s->buf + lead, e->buf + e->ld[i].off,
			   e->ld[i].filesz))
			bad("PT_LOAD at 0x%" PRIx64 ": bytes differ from the file",
			    e->ld[i].paddr);
	}
}

/* The made-up setup header and purgatory's room for the jump back entry. */
static void check_elf_params(const struct args *a, const struct seg *bp,
			     const struct purgatory_params *p)
{
	size_t len;

	if (le(bp->buf, 0x206, 2) != 0x0206 || le(bp->buf, 0x210, 1) != 0xff ||
	    le(bp->buf, 0x238, 4) != 2048 || le(bp->buf, 0x22c, 4) != 0x37ffffff)
		bad("zero page: version 0x%" PRIx64 ", loader 0x%" PRIx64
		    ", cmdline_size %" PRIu64 ", initrd_addr_max 0x%" PRIx64
		    ": not the synthesised header", le(bp->buf, 0x206, 2),
		    le(bp->buf, 0x210, 1), le(bp->buf, 0x238, 4),
		    le(bp->buf, 0x22c, 4));
	if (!p || bp->bufsz <= 0x1000)
		return;
	len = strnlen(bp->buf + 0x1000, bp->bufsz - 0x1000);
	if (p->cmdline_end != bp->mem + 0x1000 + len)
		bad("params: cmdline_end 0x%" PRIx32 ", the NUL is at 0x%" PRIx64,
		    p->cmdline_end, bp->mem + 0x1000 + len);
	if (p->cmdline_room != 65 ||
	    p->cmdline_end + p->cmdline_room > bp->mem + bp->bufsz)
		bad("params: cmdline_room %" PRIu32 ", want 65 inside the segment",
		    p->cmdline_room);
	if ((p->flags & PGF_JUMP_BACK_ENTRY) && !a->preserve)
		bad("params: PGF_JUMP_BACK_ENTRY without --load-preserve-context");
}

static void check_elf(const struct load *l, const struct args *a,
		      const struct elf_file *e,
		      const struct purgatory_params *p, const struct seg *bp)
{
	uint64_t want = a->has_entry ? a->entry : e->entry;

	check_elf_loads(l, e);
	if (a->args_none) {
		if (l->entry != want)
			bad("entry 0x%" PRIx64 ", want 0x%" PRIx64, l->entry,
			    want);
		if (l->nr != e->nr)
			bad("%u segments for %u PT_LOADs with --args-none",
			    l->nr, e->nr);
		return;
	}
	if (p && p->regs.eip != want)
		bad("params: eip 0x%" PRIx32 ", want 0x%" PRIx64, p->regs.eip,
		    want);
	if (bp)
		check_elf_params(a, bp, p);
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "dump", required_argument, NULL, 'D' },
		{ "root", required_argument, NULL, 'r' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "initrd", required_argument, NULL, 'i' },
		{ "append", required_argument, NULL, 'a' },
		{ "cmdline", required_argument, NULL, 'c' },
		{ "absent", required_argument, NULL, 'x' },
		{ "no-verify", no_argument, NULL, 'n' },
		{ "crash-region", required_argument, NULL, 'p' },
		{ "crash-jump", no_argument, NULL, 'J' },
		{ "preserve-window", required_argument, NULL, 'w' },
		{ "elf", no_argument, NULL, 'e' },
		{ "args-none", no_argument, NULL, 'N' },
		{ "entry", required_argument, NULL, 'E' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long lo, hi;
	int c, n;

	memset(a, 0, sizeof(*a));
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'D': a->dump = optarg; break;
		case 'r': a->root = optarg; break;
		case 'k': a->kernel = optarg; break;
		case 'i': a->initrd = optarg; break;
		case 'c': a->cmdline = optarg; break;
		case 'n': a->no_verify = true; break;
		case 'e': a->elf = true; break;
		case 'N': a->args_none = true; break;
		case 'J': a->crash_jump = true; break;
		case 'E':
			n = 0;
			if (sscanf(optarg, "%llx%n", &lo, &n) != 1 || optarg[n])
				return -1;
			a->has_entry = true;
			a->entry = lo;
			break;
		case 'p':
		case 'w':
			n = 0;
			if (sscanf(optarg, "%llx-%llx%n", &lo, &hi, &n) != 2 ||
			    optarg[n] || hi < lo)
				return -1;
			if (c == 'p') {
				a->crash = true;
				a->crash_start = lo;
				a->crash_end = hi + 1;
			} else {
				a->preserve = true;
				a->win_start = lo;
				a->win_end = hi + 1;
			}
			break;
		case 'a':
			if (a->nr_append < 16)
				a->append[a->nr_append++] = optarg;
			break;
		case 'x':
			if (a->nr_absent < 16)
				a->absent[a->nr_absent++] = optarg;
			break;
		default:
			return -1;
		}
	}
	if (!a->dump || !a->root || !a->kernel || optind != argc ||
	    (a->crash_jump && !a->crash)) {
		fprintf(stderr, "usage: check-load --dump DIR --root DIR --kernel FILE [--initrd FILE] [--append TEXT]... [--cmdline TEXT] [--absent TEXT]... [--no-verify] [--crash-region START-END [--crash-jump]] [--preserve-window START-END] [--entry ADDR] [--elf [--args-none]]\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct purgatory_params *p = NULL;
	const struct seg *pg, *bp;
	struct elf_file e = { 0 };
	struct mem_map map;
	struct load l;
	struct args a;
	unsigned int i;

	if (parse_args(argc, argv, &a))
		return 2;
	memmap_init(&map);
	if (memmap_read_system(root_ctx(a.root), &map)) {
		bad("%s: no memory map", a.root);
		return 1;
	}
	if (read_info(a.dump, &l))
		goto out;
	check_segments(&l, &map, &a);
	if (a.elf && read_elf(a.kernel, &e))
		goto out;
	if (a.elf && a.args_none) {
		check_elf(&l, &a, &e, NULL, NULL);
		goto out;
	}
	pg = find(&l, "purgatory", is_purgatory, NULL);
	bp = find(&l, "boot params", is_boot_params, NULL);
	if (pg)
		p = check_purgatory(&l, pg, &a);
	if (bp) {
		if (p && p->regs.esi != bp->mem)
			bad("params: esi 0x%" PRIx32 ", boot params at 0x%"
			    PRIx64, p->regs.esi, bp->mem);
		if (!a.elf && ((const uint8_t *)bp->buf)[0x210] != 0xd0)
			bad("type_of_loader 0x%x, want 0xd0",
			    ((const uint8_t *)bp->buf)[0x210]);
		check_cmdline(bp, &a);
		if (a.preserve)
			check_preserve_e820(bp, &a);
		if (a.preserve)
			check_preserve_cover(&l, bp);
		else if (!a.crash)
			check_e820(bp, &map);
		if (a.preserve && p)
			check_preserve_params(p, bp);
		check_initrd(&l, bp, &a, a.elf ? e.nr + 2 : 3);
	}
	if (a.elf)
		check_elf(&l, &a, &e, p, bp);
	else
		check_kernel(&l, &a, p, bp);
out:
	free(e.buf);
	for (i = 0; i < MAX_SEGS; i++)
		free(l.s[i].buf);
	memmap_free(&map);
	return problems ? 1 : 0;
}
