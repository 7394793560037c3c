// SPDX-License-Identifier: GPL-2.0-only
/*
 * crash_prepare() (kexec -p) against fixture roots: the backup and ELF
 * core header segments, the new kernel's memory map, the command-line
 * words, jump buffer discovery and the ELF class.
 *
 * Roots: tests/unit/fixtures/qemu-i386-512m (512 MiB, 64 MiB crash
 * region), tests/unit/fixtures/crash-6g (RAM above 4 GiB, ACPI ranges,
 * low RAM not KiB aligned, sparse CPU notes) and temporary roots that
 * link to those and replace one file.
 */
#include <elf.h>
#include <sys/stat.h>

#include "arch.h"
#include "crash-sources.h"
#include "hand-over.h"
#include "file-io.h"
#include "image.h"
#include "kexec-syscall.h"
#include "memmap-read.h"
#include "memory-map.h"
#include "x86-arch.h"
#include "unit.h"

#define KIB		1024ull
#define MIB		(1024ull * KIB)
#define PAGE_OFFSET	0xc0000000ull
#define LOWMEM		0x38000000ull

/* Everything one crash_prepare() run needs, freed when the test ends. */
struct run {
	struct kj_load_spec opts;
	struct arch_opts aopts;
	struct mem_map fw;
	struct load_request req;
	struct kexec_image img;
	struct arch_hand_over cs;
	int ret;
	const char *err;	/* captured stderr */
};

static void run_free(void *arg)
{
	struct run *r = arg;

	hand_over_free(&r->cs);
	image_free(&r->img);
	memmap_free(&r->fw);
}

static struct run *new_run(struct unit_ctx *ctx, const char *root)
{
	struct run *r = unit_alloc(ctx, sizeof(*r));
	int ret;

	memmap_init(&r->fw);
	image_init(&r->img, unit_kj_default(), 0, UINT64_MAX);
	hand_over_init(&r->cs);
	unit_defer(ctx, run_free, r);
	unit_capture_start(ctx);
	ret = memmap_read_system(unit_kj(ctx, root), &r->fw);
	r->err = unit_capture_stop(ctx);
	if (ret)
		FAILF("memmap_read_system(%s): %d: %s", root, ret, r->err);
	/* as load_kernel() does: all RAM, until crash_prepare() narrows it */
	CHECK_EQ_INT(image_set_usable(&r->img, &r->fw), 0);
	kj_load_spec_init(&r->opts);
	r->opts.mode = KJ_LOAD_CRASH;
	r->req = (struct load_request){ .ctx = unit_kj(ctx, root),
					.spec = &r->opts, .aopts = &r->aopts,
					.cmdline = "", .memmap = &r->fw,
					.e820 = &r->fw };
	return r;
}

static void prepare(struct unit_ctx *ctx, struct run *r)
{
	unit_capture_start(ctx);
	r->ret = crash_prepare(&r->req, &r->img, &r->cs);
	r->err = unit_capture_stop(ctx);
}

/* crash_prepare() succeeds silently. */
static void prepare_ok(struct unit_ctx *ctx, struct run *r)
{
	prepare(ctx, r);
	if (r->ret)
		FAILF("crash_prepare: %d: %s", r->ret, r->err);
	CHECK_NO_OUTPUT(r->err);
}

/* ------------------------------------------------------------ roots */

static void link_to(struct unit_ctx *ctx, const char *target,
		    const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (symlink(target, path))
		FAILF("symlink %s: %s", path, strerror(errno));
}

static void make_dir(struct unit_ctx *ctx, const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (mkdir(path, 0755))
		FAILF("mkdir %s: %s", path, strerror(errno));
}

static char *cat_path(struct unit_ctx *ctx, const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, "%s/%s", a, b) < 0)
		FAILF("out of memory");
	unit_defer(ctx, free, s);
	return s;
}

/*
 * A temporary root like fixture base, sharing its files through links,
 * with a sys/kernel directory of its own (vmcoreinfo copied) and, when
 * iomem is given, that text as proc/iomem.
 */
static const char *tmp_root(struct unit_ctx *ctx, const char *base,
			    const char *iomem)
{
	const char *fix = unit_fixture(ctx, base);
	const char *root = unit_tmpdir(ctx);
	char *text;
	size_t len;
	int ret;

	make_dir(ctx, root, "sys");
	make_dir(ctx, root, "sys/kernel");
	link_to(ctx, cat_path(ctx, fix, "sys/devices"), root, "sys/devices");
	link_to(ctx, cat_path(ctx, fix, "sys/firmware"), root, "sys/firmware");
	ret = read_file(cat_path(ctx, fix, "sys/kernel/vmcoreinfo"), 4096,
			&text, &len);
	if (ret)
		FAILF("%s: vmcoreinfo: %s", base, strerror(-ret));
	unit_defer(ctx, free, text);
	unit_write_file(ctx, root, "sys/kernel/vmcoreinfo", text, len);
	if (iomem) {
		make_dir(ctx, root, "proc");
		unit_write_file(ctx, root, "proc/iomem", iomem, (size_t)-1);
	} else {
		link_to(ctx, cat_path(ctx, fix, "proc"), root, "proc");
	}
	return root;
}

static const char *pfn_root(struct unit_ctx *ctx, const char *pfn_text)
{
	const char *root = tmp_root(ctx, "qemu-i386-512m", NULL);

	unit_write_file(ctx, root, "sys/kernel/kexec_jump_buf_pfn", pfn_text,
			(size_t)-1);
	return root;
}

/* ------------------------------------------------------------ checks */

static const struct image_segment *seg(struct unit_ctx *ctx,
				       struct run *r, const char *name)
{
	const struct image_segment *s = image_find_segment(&r->img, name);

	if (!s)
		FAILF("no %s segment", name);
	return s;
}

static void check_in_region(struct unit_ctx *ctx, const struct run *r)
{
	unsigned int i;

	CHECK(r->img.nr_seg >= 2);
	for (i = 0; i < r->img.nr_seg; i++) {
		const struct image_segment *s = &r->img.seg[i];

		if (s->mem < r->cs.region.start ||
		    s->mem + s->memsz > r->cs.region.end)
			FAILF("%s 0x%" PRIx64 "+0x%" PRIx64
			      " outside the region 0x%" PRIx64 "-0x%" PRIx64,
			      s->name, s->mem, s->memsz, r->cs.region.start,
			      r->cs.region.end);
	}
}

/*
 * backup at the very top of the region, sized to low RAM (page
 * rounded), elfcorehdr the page(s) right below it.
 */
static void check_segments(struct unit_ctx *ctx, struct run *r,
			   uint64_t low_start, uint64_t low_end)
{
	const struct image_segment *b = seg(ctx, r, "backup");
	const struct image_segment *h = seg(ctx, r, "elfcorehdr");

	CHECK_EQ_INT(r->img.nr_seg, 2);
	check_in_region(ctx, r);
	CHECK_EQ_U64(r->cs.backup_src, low_start);
	CHECK_EQ_U64(r->cs.backup_len, low_end - low_start);
	CHECK_EQ_U64(b->memsz, align_up(low_end - low_start, 4096));
	CHECK_EQ_U64(b->mem, r->cs.region.end - b->memsz);
	CHECK_EQ_U64(r->cs.backup_dst, b->mem);
	CHECK_EQ_U64(b->bufsz, 0);	/* purgatory fills it */
	CHECK_EQ_U64(h->mem % 4096, 0);
	CHECK_EQ_U64(h->memsz, align_up(h->bufsz, 4096));
	CHECK_EQ_U64(h->mem + h->memsz, b->mem);
	CHECK_EQ_U64(r->cs.elfcorehdr, h->mem);
}

struct want {
	uint64_t start, end;
	uint32_t type;
};

#define CHECK_MAP(map, w)						\
	check_map(ctx, __LINE__, map, w, sizeof(w) / sizeof((w)[0]))

static void check_map(struct unit_ctx *ctx, int line,
		      const struct mem_map *map, const struct want *w, size_t n)
{
	size_t i;

	if (map->n != n) {
		char buf[256];
		size_t off = 0;

		for (i = 0; i < map->n && off < sizeof(buf) - 48; i++)
			off += (size_t)snprintf(buf + off, sizeof(buf) - off,
				"%" PRIx64 "-%" PRIx64 "/%" PRIu32 " ",
				map->r[i].start, map->r[i].end, map->r[i].type);
		buf[off] = '\0';
		FAILF("line %d: %zu ranges, want %zu: %s", line, map->n, n,
		      buf);
	}
	for (i = 0; i < n; i++) {
		const struct mem_range *r = &map->r[i];

		if (r->start != w[i].start || r->end != w[i].end ||
		    r->type != w[i].type)
			FAILF("line %d: range %zu is 0x%" PRIx64 "-0x%" PRIx64
			      " type %" PRIu32 ", want 0x%" PRIx64 "-0x%" PRIx64
			      " type %" PRIu32, line, i, r->start, r->end,
			      r->type, w[i].start, w[i].end, w[i].type);
	}
}

/* "elfcorehdr=...K kexec_backup=..." from the segments themselves. */
static const char *base_words(struct unit_ctx *ctx, struct run *r)
{
	char *s;

	if (asprintf(&s, "elfcorehdr=%" PRIu64 "K kexec_backup=0x%" PRIx32
		     "@0x%" PRIx32 ":0x%" PRIx64,
		     seg(ctx, r, "elfcorehdr")->mem >> 10, r->cs.backup_len,
		     r->cs.backup_src, seg(ctx, r, "backup")->mem) < 0)
		FAILF("out of memory");
	unit_defer(ctx, free, s);
	return s;
}

/* The elfcorehdr segment's bytes, parsed back. */
struct core {
	int cls;
	unsigned int nr_notes, nr_loads;
	struct { uint64_t addr, size; } note[16];
	struct { uint64_t offset, vaddr, paddr, size; } load[16];
};

static void parse_core(struct unit_ctx *ctx, struct run *r, struct core *c)
{
	const struct image_segment *h = seg(ctx, r, "elfcorehdr");
	const uint8_t *buf = h->buf;
	unsigned int i, phnum;
	size_t ehsz, phsz;

	CHECK(h->bufsz >= EI_NIDENT);
	CHECK_MEM(buf, ELFMAG, SELFMAG);
	memset(c, 0, sizeof(*c));
	c->cls = buf[EI_CLASS] == ELFCLASS64 ? 64 :
		 buf[EI_CLASS] == ELFCLASS32 ? 32 : 0;
	CHECK(c->cls);
	if (c->cls == 64) {
		Elf64_Ehdr e;

		CHECK(h->bufsz >= sizeof(e));
		memcpy(&e, buf, sizeof(e));
		CHECK_EQ_INT(e.e_type, ET_CORE);
		CHECK_EQ_INT(e.e_machine, EM_386);
		phnum = e.e_phnum;
		ehsz = e.e_phoff;
		phsz = e.e_phentsize;
		CHECK_EQ_U64(phsz, sizeof(Elf64_Phdr));
	} else {
		Elf32_Ehdr e;

		CHECK(h->bufsz >= sizeof(e));
		memcpy(&e, buf, sizeof(e));
		CHECK_EQ_INT(e.e_type, ET_CORE);
		CHECK_EQ_INT(e.e_machine, EM_386);
		phnum = e.e_phnum;
		ehsz = e.e_phoff;
		phsz = e.e_phentsize;
		CHECK_EQ_U64(phsz, sizeof(Elf32_Phdr));
	}
	CHECK_EQ_U64(h->bufsz, ehsz + phnum * phsz);
	for (i = 0; i < phnum; i++) {
		uint64_t type, off, va, pa, sz;

		if (c->cls == 64) {
			Elf64_Phdr p;

			memcpy(&p, buf + ehsz + i * phsz, sizeof(p));
			type = p.p_type; off = p.p_offset; va = p.p_vaddr;
			pa = p.p_paddr; sz = p.p_filesz;
		} else {
			Elf32_Phdr p;

			memcpy(&p, buf + ehsz + i * phsz, sizeof(p));
			type = p.p_type; off = p.p_offset; va = p.p_vaddr;
			pa = p.p_paddr; sz = p.p_filesz;
		}
		if (type == PT_NOTE) {
			CHECK(c->nr_notes < 16 && !c->nr_loads);
			c->note[c->nr_notes].addr = pa;
			c->note[c->nr_notes++].size = sz;
			CHECK_EQ_U64(off, pa);
		} else {
			CHECK_EQ_U64(type, PT_LOAD);
			CHECK(c->nr_loads < 16);
			c->load[c->nr_loads].offset = off;
			c->load[c->nr_loads].vaddr = va;
			c->load[c->nr_loads].paddr = pa;
			c->load[c->nr_loads++].size = sz;
		}
	}
}

/* ------------------------------------------------------------ tests */

TEST(qemu_segments)
{
	struct run *r = new_run(ctx, unit_fixture(ctx, "qemu-i386-512m"));

	prepare_ok(ctx, r);
	CHECK_EQ_U64(r->cs.region.start, 0x1a000000);
	CHECK_EQ_U64(r->cs.region.end, 0x1e000000);
	check_segments(ctx, r, 0x1000, 0x9fc00);
	CHECK_EQ_U64(seg(ctx, r, "backup")->mem, 0x1df61000);
	CHECK_EQ_U64(seg(ctx, r, "elfcorehdr")->mem, 0x1df60000);
}

/* Low RAM, the region minus backup and header, firmware non-RAM. */
TEST(qemu_map)
{
	static const struct want w[] = {
		{ 0x1000, 0x9fc00, MEM_RAM },
		{ 0x9fc00, 0xa0000, MEM_RESERVED },
		{ 0xf0000, 0x100000, MEM_RESERVED },
		{ 0x1a000000, 0x1df60000, MEM_RAM },
		{ 0x1ffe0000, 0x20000000, MEM_RESERVED },
		{ 0xfffc0000, 0x100000000ull, MEM_RESERVED },
	};
	struct run *r = new_run(ctx, unit_fixture(ctx, "qemu-i386-512m"));

	prepare_ok(ctx, r);
	CHECK_MAP(&r->cs.map, w);
}

TEST(qemu_words)
{
	struct run *r = new_run(ctx, unit_fixture(ctx, "qemu-i386-512m"));

	prepare_ok(ctx, r);
	CHECK_STR(cmdline_str(&r->cs.extra),
		  "elfcorehdr=490880K kexec_backup=0x9ec00@0x1000:0x1df61000");
	CHECK_STR(cmdline_str(&r->cs.extra), base_words(ctx, r));
}

/* The header in the segment: two CPUs + vmcoreinfo, the old RAM. */
TEST(qemu_elf32_header)
{
	struct run *r = new_run(ctx, unit_fixture(ctx, "qemu-i386-512m"));
	struct core *c = unit_alloc(ctx, sizeof(*c));

	prepare_ok(ctx, r);
	parse_core(ctx, r, c);
	CHECK_EQ_INT(c->cls, 32);
	CHECK_EQ_INT(c->nr_notes, 3);
	CHECK_EQ_U64(c->note[0].addr, 0x1ec1b0c8);
	CHECK_EQ_U64(c->note[0].size, 364);
	CHECK_EQ_U64(c->note[1].addr, 0x1ec2d0c8);
	CHECK_EQ_U64(c->note[2].addr, 0x01ee7000);
	CHECK_EQ_U64(c->note[2].size, 0x1000);
	CHECK_EQ_INT(c->nr_loads, 3);
	/* low memory: read from the backup */
	CHECK_EQ_U64(c->load[0].paddr, 0x1000);
	CHECK_EQ_U64(c->load[0].size, 0x9ec00);
	CHECK_EQ_U64(c->load[0].offset, r->cs.backup_dst);
	CHECK_EQ_U64(c->load[0].vaddr, PAGE_OFFSET + 0x1000);
	/* RAM below and above the region, not the region itself */
	CHECK_EQ_U64(c->load[1].paddr, 0x100000);
	CHECK_EQ_U64(c->load[1].size, 0x1a000000 - 0x100000);
	CHECK_EQ_U64(c->load[1].offset, 0x100000);
	CHECK_EQ_U64(c->load[2].paddr, 0x1e000000);
	CHECK_EQ_U64(c->load[2].size, 0x1ffe0000 - 0x1e000000);
	CHECK_EQ_U64(c->load[2].offset, 0x1e000000);
}

TEST(forced_elf64)
{
	struct run *r = new_run(ctx, unit_fixture(ctx, "qemu-i386-512m"));
	struct core *c = unit_alloc(ctx, sizeof(*c));

	r->aopts.elf_class = 64;
	prepare_ok(ctx, r);
	parse_core(ctx, r, c);
	CHECK_EQ_INT(c->cls, 64);
	CHECK_EQ_INT(c->nr_notes, 3);
	CHECK_EQ_INT(c->nr_loads, 3);
	check_segments(ctx, r, 0x1000, 0x9fc00);
}

/* RAM above 4 GiB: ELF64 by itself, and the rest of that machine. */
TEST(big_elf64_auto)
{
	struct run *r = new_run(ctx, unit_fixture(ctx, "crash-6g"));
	struct core *c = unit_alloc(ctx, sizeof(*c));

	prepare_ok(ctx, r);
	parse_core(ctx, r, c);
	CHECK_EQ_INT(c->cls, 64);
	/* cpu0 and cpu2 of 0-3 have notes, then vmcoreinfo */
	CHECK_EQ_INT(c->nr_notes, 3);
	CHECK_EQ_U64(c->note[0].addr, 0x3ff1a000);
	CHECK_EQ_U64(c->note[1].addr, 0x3ff2a000);
	CHECK_EQ_U64(c->note[2].addr, 0x03000000);
	/* low, 1M..region, region..ACPI split at 896M, top 1M, above 4G */
	CHECK_EQ_INT(c->nr_loads, 6);
	CHECK_EQ_U64(c->load[0].paddr, 0x1000);
	CHECK_EQ_U64(c->load[0].size, 0x9ea00);
	CHECK_EQ_U64(c->load[0].offset, r->cs.backup_dst);
	CHECK_EQ_U64(c->load[1].paddr, 0x100000);
	CHECK_EQ_U64(c->load[1].size, 0x2a000000 - 0x100000);
	CHECK_EQ_U64(c->load[2].paddr, 0x32000000);
	CHECK_EQ_U64(c->load[2].size, LOWMEM - 0x32000000);
	CHECK_EQ_U64(c->load[2].vaddr, PAGE_OFFSET + 0x32000000);
	CHECK_EQ_U64(c->load[3].paddr, LOWMEM);
	CHECK_EQ_U64(c->load[3].size, 0xbfee0000 - LOWMEM);
	CHECK_EQ_U64(c->load[3].offset, LOWMEM);
	CHECK_EQ_U64(c->load[3].vaddr, UINT64_MAX);
	CHECK_EQ_U64(c->load[4].paddr, 0xbff00000);
	CHECK_EQ_U64(c->load[4].size, 0x100000);
	CHECK_EQ_U64(c->load[4].vaddr, UINT64_MAX);
	CHECK_EQ_U64(c->load[5].paddr, 0x100000000ull);
	CHECK_EQ_U64(c->load[5].size, 0xc0000000ull);
	CHECK_EQ_U64(c->load[5].vaddr, UINT64_MAX);
}

/* --elf32-core-headers wins even there (the dump is then the user's problem). */
TEST(big_forced_elf32)
{
	struct run *r = new_run(ctx, unit_fixture(ctx, "crash-6g"));
	struct core *c = unit_alloc(ctx, sizeof(*c));

	r->aopts.elf_class = 32;
	prepare_ok(ctx, r);
	parse_core(ctx, r, c);
	CHECK_EQ_INT(c->cls, 32);
}

/* Low RAM ending at 638.5K: backup page rounded, map with ACPI kept. */
TEST(big_segments_map)
{
	static const struct want w[] = {
		{ 0x1000, 0x9fa00, MEM_RAM },
		{ 0x9fa00, 0xa0000, MEM_RESERVED },
		{ 0xf0000, 0x100000, MEM_RESERVED },
		{ 0x2a000000, 0x31f60000, MEM_RAM },
		{ 0xbfee0000, 0xbfeff000, MEM_ACPI },
		{ 0xbfeff000, 0xbff00000, MEM_NVS },
		{ 0xfec00000, 0xfec01000, MEM_RESERVED },
		{ 0xfffc0000, 0x100000000ull, MEM_RESERVED },
	};
	struct run *r = new_run(ctx, unit_fixture(ctx, "crash-6g"));

	prepare_ok(ctx, r);
	check_segments(ctx, r, 0x1000, 0x9fa00);
	CHECK_EQ_U64(seg(ctx, r, "backup")->memsz, 0x9f000);
	CHECK_EQ_U64(seg(ctx, r, "backup")->mem, 0x31f61000);
	CHECK_MAP(&r->cs.map, w);
	CHECK_STR(cmdline_str(&r->cs.extra),
		  "elfcorehdr=818560K kexec_backup=0x9ea00@0x1000:0x31f61000");
}

/* memmap= words: RAM rounded inwards to KiB, '#' ACPI/NVS, '$' reserved. */
TEST(pass_memmap_cmdline)
{
	struct run *r = new_run(ctx, unit_fixture(ctx, "crash-6g"));
	char *want;

	r->aopts.pass_memmap_cmdline = true;
	prepare_ok(ctx, r);
	if (asprintf(&want, "%s memmap=exactmap memmap=634K@4K "
		     "memmap=2K$638K memmap=64K$960K memmap=130432K@688128K "
		     "memmap=124K#3144576K memmap=4K#3144700K "
		     "memmap=4K$4173824K memmap=256K$4194048K",
		     base_words(ctx, r)) < 0)
		FAILF("out of memory");
	unit_defer(ctx, free, want);
	CHECK_STR(cmdline_str(&r->cs.extra), want);
	/* the map itself is unchanged */
	CHECK_EQ_U64(r->cs.map.n, 8);
}

TEST(pass_memmap_cmdline_qemu)
{
	struct run *r = new_run(ctx, unit_fixture(ctx, "qemu-i386-512m"));

	r->aopts.pass_memmap_cmdline = true;
	prepare_ok(ctx, r);
	CHECK_STR(cmdline_str(&r->cs.extra),
		  "elfcorehdr=490880K kexec_backup=0x9ec00@0x1000:0x1df61000 "
		  "memmap=exactmap memmap=635K@4K memmap=1K$639K "
		  "memmap=64K$960K memmap=64896K@425984K "
		  "memmap=128K$524160K memmap=256K$4194048K");
}

/* The region is all a loader may use afterwards. */
TEST(later_segments_in_region)
{
	struct run *r = new_run(ctx, unit_fixture(ctx, "qemu-i386-512m"));
	uint64_t addr;
	int ret;

	prepare_ok(ctx, r);
	CHECK_EQ_INT(image_add_buffer(&r->img, "kernel", NULL, 0, 16 * MIB,
				      MIB, 0, UINT64_MAX, false, &addr), 0);
	CHECK_EQ_INT(image_add_buffer(&r->img, "low", NULL, 0, 4096, 4096,
				      0, UINT64_MAX, false, &addr), 0);
	check_in_region(ctx, r);
	unit_capture_start(ctx);
	ret = image_add_buffer(&r->img, "huge", NULL, 0, 64 * MIB, 4096, 0,
			       UINT64_MAX, false, &addr);
	CHECK(ret != 0);
	CHECK_ERR_LINE(unit_capture_stop(ctx), "crashkernel=");
}

TEST(jump_buf_absent)
{
	struct run *r = new_run(ctx, tmp_root(ctx, "qemu-i386-512m", NULL));

	prepare_ok(ctx, r);
	CHECK_STR(cmdline_str(&r->cs.extra), base_words(ctx, r));
	CHECK(!strstr(cmdline_str(&r->cs.extra), "kexec_jump_buf_pfn"));
	CHECK(!r->cs.jump);
	CHECK(!(r->img.flags & KEXEC_PRESERVE_CONTEXT));
}

/* --no-jump: an ordinary crash kernel, though this kernel could jump. */
TEST(jump_buf_no_jump)
{
	struct run *r = new_run(ctx, pfn_root(ctx, "0x1a8\n"));

	r->opts.no_jump = true;
	prepare_ok(ctx, r);
	CHECK_STR(cmdline_str(&r->cs.extra), base_words(ctx, r));
	CHECK(!r->cs.jump);
	CHECK(!(r->img.flags & KEXEC_PRESERVE_CONTEXT));
	CHECK(r->img.flags & KEXEC_ON_CRASH);
}

TEST(jump_buf_pfn)
{
	struct run *r = new_run(ctx, pfn_root(ctx, "0x1a8\n"));
	char *want;

	prepare_ok(ctx, r);
	if (asprintf(&want, "%s kexec_jump_buf_pfn=0x1a8",
		     base_words(ctx, r)) < 0)
		FAILF("out of memory");
	unit_defer(ctx, free, want);
	CHECK_STR(cmdline_str(&r->cs.extra), want);
	/* the kernel's opt-in: a crash image it may jump into */
	CHECK(r->cs.jump);
	CHECK_EQ_INT((int)(r->img.flags & (KEXEC_ON_CRASH |
					   KEXEC_PRESERVE_CONTEXT)),
		     (int)(KEXEC_ON_CRASH | KEXEC_PRESERVE_CONTEXT));
}

/* Decimal as the kernel might print it: the same pfn, written in hex. */
TEST(jump_buf_pfn_decimal)
{
	struct run *r = new_run(ctx, pfn_root(ctx, "424\n"));

	prepare_ok(ctx, r);
	CHECK_CONTAINS(cmdline_str(&r->cs.extra), " kexec_jump_buf_pfn=0x1a8");
}

/* Run again on the same root: a fresh image and crash setup. */
static void rerun(struct unit_ctx *ctx, struct run *r)
{
	hand_over_free(&r->cs);
	image_free(&r->img);
	image_init(&r->img, unit_kj_default(), 0, UINT64_MAX);
	hand_over_init(&r->cs);
	CHECK_EQ_INT(image_set_usable(&r->img, &r->fw), 0);
	prepare(ctx, r);
}

TEST(jump_buf_garbage)
{
	static const char *const bad[] = { "xyz\n", "", "\n", "0\n", "-1\n",
					   "0x\n", "12abc\n",
					   "0x10000000000000\n" };
	const char *root = pfn_root(ctx, "0x1a8\n");
	struct run *r = new_run(ctx, root);
	size_t i;

	prepare_ok(ctx, r);	/* the root itself is fine */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unit_write_file(ctx, root, "sys/kernel/kexec_jump_buf_pfn",
				bad[i], (size_t)-1);
		rerun(ctx, r);
		if (!r->ret)
			FAILF("pfn file \"%s\" accepted: %s", bad[i],
			      cmdline_str(&r->cs.extra));
		CHECK_ERR_LINE(r->err, "kexec: /sys/kernel/kexec_jump_buf_pfn: ");
	}
}

/* A pfn file that cannot be read is an error too, never a silent skip. */
TEST(jump_buf_unreadable)
{
	const char *root = tmp_root(ctx, "qemu-i386-512m", NULL);
	struct run *r;

	/* a directory: open() works, read() fails with EISDIR */
	make_dir(ctx, root, "sys/kernel/kexec_jump_buf_pfn");
	r = new_run(ctx, root);
	prepare(ctx, r);
	CHECK(r->ret != 0);
	CHECK_ERR_LINE(r->err, "kexec: /sys/kernel/kexec_jump_buf_pfn: ");
}

TEST(jump_buf_explicit_in_cmdline)
{
	static const char *const lines[] = {
		"kexec_jump_buf_pfn=0x77",
		"console=ttyS0 kexec_jump_buf_pfn=0x77 quiet",
	};
	size_t i;

	for (i = 0; i < 2; i++) {
		/* garbage in the file: it is not even read */
		struct run *r = new_run(ctx, pfn_root(ctx, "xyz\n"));

		r->req.cmdline = lines[i];
		prepare_ok(ctx, r);
		CHECK_STR(cmdline_str(&r->cs.extra), base_words(ctx, r));
		CHECK(r->img.flags & KEXEC_PRESERVE_CONTEXT);
	}
}

/* So does an explicit kexec_backup= (a kernel test): the copy is still made. */
TEST(backup_explicit_in_cmdline)
{
	struct run *r = new_run(ctx, pfn_root(ctx, "0x1a8\n"));
	char *want;

	r->req.cmdline = "console=ttyS0 kexec_backup=0x1000@0xa0000:0x1000";
	prepare_ok(ctx, r);
	CHECK(r->cs.backup_len != 0);
	CHECK(seg(ctx, r, "backup") != NULL);
	if (asprintf(&want, "elfcorehdr=%" PRIu64 "K kexec_jump_buf_pfn=0x1a8",
		     seg(ctx, r, "elfcorehdr")->mem >> 10) < 0)
		FAILF("out of memory");
	unit_defer(ctx, free, want);
	CHECK_STR(cmdline_str(&r->cs.extra), want);
}

/* Only a whole word counts as explicit. */
TEST(jump_buf_not_a_word)
{
	struct run *r = new_run(ctx, pfn_root(ctx, "0x1a8\n"));

	r->req.cmdline = "my_kexec_jump_buf_pfn=0x77";
	prepare_ok(ctx, r);
	CHECK_CONTAINS(cmdline_str(&r->cs.extra), " kexec_jump_buf_pfn=0x1a8");
}

static char *qemu_iomem_without_crash(struct unit_ctx *ctx)
{
	char *text, *p;
	size_t len;
	int ret;

	ret = read_file(cat_path(ctx, unit_fixture(ctx, "qemu-i386-512m"),
				 "proc/iomem"), 1 << 20, &text, &len);
	if (ret)
		FAILF("iomem: %s", strerror(-ret));
	unit_defer(ctx, free, text);
	p = strstr(text, "  1a000000-1dffffff : Crash kernel\n");
	CHECK(p);
	memmove(p, p + 35, strlen(p + 35) + 1);
	CHECK(!strstr(text, "Crash"));
	return text;
}

TEST(no_crash_region)
{
	char *text = qemu_iomem_without_crash(ctx);
	struct run *r = new_run(ctx, tmp_root(ctx, "qemu-i386-512m", text));

	prepare(ctx, r);
	CHECK(r->ret != 0);
	CHECK_ERR_LINE(r->err, "crashkernel=");
	CHECK_EQ_INT(r->img.nr_seg, 0);
}

TEST(malformed_iomem)
{
	struct run *r = new_run(ctx, tmp_root(ctx, "qemu-i386-512m",
		"00001000-0009fbff : System RAM\n"
		"00100000-1ffdffff : System RAM\n"
		"  1a000000-1dffffff : Crash kernel\n"
		"what is this\n"));

	prepare(ctx, r);
	CHECK(r->ret != 0);
	CHECK_ERR_LINE(r->err, "/proc/iomem is malformed");
	CHECK_EQ_INT(r->img.nr_seg, 0);
}

/* A user's view of /proc/iomem (all zeros): say so, not crashkernel=. */
TEST(nonroot_iomem)
{
	const char *path = unit_fixture(ctx, "iomem-nonroot.txt");
	struct run *r;
	char *text;
	size_t len;
	int ret;

	ret = read_file(path, 1 << 20, &text, &len);
	if (ret)
		FAILF("%s: %s", path, strerror(-ret));
	unit_defer(ctx, free, text);
	r = new_run(ctx, tmp_root(ctx, "qemu-i386-512m", text));
	prepare(ctx, r);
	CHECK(r->ret != 0);
	CHECK_ERR_LINE(r->err, "not root?");
	CHECK(!strstr(r->err, "crashkernel="));
	CHECK_EQ_INT(r->img.nr_seg, 0);
}

/* A region too small for the backup: the crashkernel= hint. */
TEST(region_too_small)
{
	struct run *r = new_run(ctx, tmp_root(ctx, "qemu-i386-512m",
		"00001000-0009fbff : System RAM\n"
		"00100000-1ffdffff : System RAM\n"
		"  1a000000-1a07ffff : Crash kernel\n"));

	prepare(ctx, r);
	CHECK(r->ret != 0);
	CHECK_ERR_LINE(r->err, "crashkernel=");
}

/* No vmcoreinfo: notes for the CPUs only, no message. */
TEST(no_vmcoreinfo)
{
	const char *root = tmp_root(ctx, "qemu-i386-512m", NULL);
	struct run *r;
	struct core *c = unit_alloc(ctx, sizeof(*c));

	CHECK(!unlink(cat_path(ctx, root, "sys/kernel/vmcoreinfo")));
	r = new_run(ctx, root);
	prepare_ok(ctx, r);
	parse_core(ctx, r, c);
	CHECK_EQ_INT(c->nr_notes, 2);
}

/* A garbled vmcoreinfo: a warning, the load goes on without it. */
TEST(bad_vmcoreinfo)
{
	const char *root = tmp_root(ctx, "qemu-i386-512m", NULL);
	struct run *r;
	struct core *c = unit_alloc(ctx, sizeof(*c));

	unit_write_file(ctx, root, "sys/kernel/vmcoreinfo", "nonsense\n",
			(size_t)-1);
	r = new_run(ctx, root);
	prepare(ctx, r);
	CHECK_EQ_INT(r->ret, 0);
	CHECK_WARN_LINE(r->err, "vmcoreinfo");
	parse_core(ctx, r, c);
	CHECK_EQ_INT(c->nr_notes, 2);
}

/* The crash sources on their own. */
TEST(sources_qemu)
{
	const char *root = unit_fixture(ctx, "qemu-i386-512m");
	struct elfcore_note notes[4], vi;
	uint64_t pfn = 0;

	CHECK_EQ_INT(read_cpu_crash_notes(unit_kj(ctx, root), notes, 4), 2);
	CHECK_EQ_U64(notes[0].addr, 0x1ec1b0c8);
	CHECK_EQ_U64(notes[0].size, 364);
	CHECK_EQ_U64(notes[1].addr, 0x1ec2d0c8);
	CHECK_EQ_INT(read_cpu_crash_notes(unit_kj(ctx, root), notes, 1), -E2BIG);
	CHECK_EQ_INT(read_vmcoreinfo(unit_kj(ctx, root), &vi), 0);
	CHECK_EQ_U64(vi.addr, 0x01ee7000);
	CHECK_EQ_U64(vi.size, 0x1000);
	CHECK_EQ_INT(read_jump_buf_pfn(unit_kj(ctx, root), &pfn), -ENOENT);
	CHECK_EQ_INT(read_cpu_crash_notes(unit_kj(ctx, "/nonexistent-kjump"), notes, 4),
		     -ENOENT);
	CHECK_EQ_INT(read_vmcoreinfo(unit_kj(ctx, "/nonexistent-kjump"), &vi), -ENOENT);
}

TEST(sources_jump_buf)
{
	static const char *const bad[] = { "xyz", "", "0", "-1" };
	const char *root = pfn_root(ctx, "0x1a8\n");
	uint64_t pfn = 0;
	size_t i;

	CHECK_EQ_INT(read_jump_buf_pfn(unit_kj(ctx, root), &pfn), 0);
	CHECK_EQ_U64(pfn, 0x1a8);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		unit_write_file(ctx, root, "sys/kernel/kexec_jump_buf_pfn",
				bad[i], (size_t)-1);
		if (read_jump_buf_pfn(unit_kj(ctx, root), &pfn) != -EINVAL)
			FAILF("\"%s\": not -EINVAL", bad[i]);
	}
	CHECK_EQ_U64(pfn, 0x1a8);	/* untouched on failure */
}

UNIT_MAIN("crashdump",
	  RUN(qemu_segments),
	  RUN(qemu_map),
	  RUN(qemu_words),
	  RUN(qemu_elf32_header),
	  RUN(forced_elf64),
	  RUN(big_elf64_auto),
	  RUN(big_forced_elf32),
	  RUN(big_segments_map),
	  RUN(pass_memmap_cmdline),
	  RUN(pass_memmap_cmdline_qemu),
	  RUN(later_segments_in_region),
	  RUN(jump_buf_absent),
	  RUN(jump_buf_no_jump),
	  RUN(jump_buf_pfn),
	  RUN(jump_buf_pfn_decimal),
	  RUN(jump_buf_garbage),
	  RUN(jump_buf_unreadable),
	  RUN(jump_buf_explicit_in_cmdline),
	  RUN(backup_explicit_in_cmdline),
	  RUN(jump_buf_not_a_word),
	  RUN(no_crash_region),
	  RUN(malformed_iomem),
	  RUN(nonroot_iomem),
	  RUN(region_too_small),
	  RUN(no_vmcoreinfo),
	  RUN(bad_vmcoreinfo),
	  RUN(sources_qemu),
	  RUN(sources_jump_buf))
