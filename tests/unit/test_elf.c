// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF loader: elf_exec_parse() on synthetic images (every rejection,
 * truncations and random corruption), the elf-x86 loader's segments,
 * entry, zero page and purgatory parameters for --args-linux and
 * --args-none, its refusals, and a real vmlinux when KJUMP_VMLINUX names
 * one.
 */
#include "arch.h"
#include "elf-exec.h"
#include "file-io.h"
#include "purgatory-params.h"
#include "synth-elf.h"
#include "unit.h"
#include "x86-arch.h"

#define MIB	0x100000ull

static const char *build(struct unit_ctx *ctx, const struct synth_elf *s,
			 size_t *len)
{
	uint8_t *b = synth_elf_build(s, len);

	if (!b)
		FAILF("out of memory");
	unit_defer(ctx, free, b);
	return (const char *)b;
}

static void parse_ok(struct unit_ctx *ctx, const struct synth_elf *s,
		     struct elf_exec_info *ei, const char **buf, size_t *len)
{
	char why[160] = "";

	*buf = build(ctx, s, len);
	if (elf_exec_parse(*buf, *len, &elf_exec_i386, ei, why, sizeof(why)))
		FAILF("rejected: %s", why);
}

/* Parse and expect a rejection whose reason contains want. */
static void reject_buf(struct unit_ctx *ctx, const char *buf, size_t len,
		       const char *want)
{
	struct elf_exec_info ei;
	char why[160] = "";

	unit_capture_start(ctx);
	CHECK_EQ_INT(elf_exec_parse(buf, len, &elf_exec_i386, &ei, why, sizeof(why)), -1);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK_CONTAINS(why, want);
}

static void reject(struct unit_ctx *ctx, const struct synth_elf *s,
		   const char *want)
{
	size_t len;
	const char *buf = build(ctx, s, &len);

	reject_buf(ctx, buf, len, want);
}

/* ------------------------------------------------------------ parse */

TEST(valid)
{
	struct synth_elf s;
	struct elf_exec_info ei;
	const char *buf;
	size_t len;

	synth_elf_defaults(&s);
	parse_ok(ctx, &s, &ei, &buf, &len);
	CHECK_EQ_U64(len, 0x7a34);
	CHECK_EQ_U64(ei.entry, 0x1000000);
	CHECK_EQ_U64(ei.machine, 3);
	CHECK_EQ_U64(ei.nr_loads, 2);		/* the PT_NOTE is no load */
	CHECK_EQ_U64(ei.load[0].paddr, 0x1000000);
	CHECK_EQ_U64(ei.load[0].memsz, 0x5000);
	CHECK(ei.load[0].data == buf + 0x1000);
	CHECK_EQ_U64(ei.load[0].filesz, 0x5000);
	CHECK_EQ_U64(ei.load[1].paddr, 0x1006234);
	CHECK_EQ_U64(ei.load[1].memsz, 0x4000);
	CHECK(ei.load[1].data == buf + 0x6234);
	CHECK_EQ_U64(ei.load[1].filesz, 0x1800);
}

/* EM_486, a wider table stride, bss-only and empty loads. */
TEST(valid_variants)
{
	struct synth_elf s;
	struct elf_exec_info ei;
	const char *buf;
	size_t len;

	synth_elf_defaults(&s);
	s.machine = 6;
	s.phentsize = 40;
	s.nr_ph = s.phnum = 5;
	/* bss only: no file bytes, any offset */
	s.ph[3] = (struct synth_phdr){ SYNTH_PT_LOAD, 0xfffffff0, 0, 0x2000000,
		0, 0x3000, 6, 0x1000 };
	/* memsz 0: not a load at all, even with a wild paddr */
	s.ph[4] = (struct synth_phdr){ SYNTH_PT_LOAD, 0, 0, 0xfffff000, 0, 0,
		6, 0x1000 };
	parse_ok(ctx, &s, &ei, &buf, &len);
	CHECK_EQ_U64(ei.machine, 6);
	CHECK_EQ_U64(ei.nr_loads, 3);
	CHECK_EQ_U64(ei.load[2].paddr, 0x2000000);
	CHECK_EQ_U64(ei.load[2].memsz, 0x3000);
	CHECK(ei.load[2].data == NULL);
	CHECK_EQ_U64(ei.load[2].filesz, 0);
	/* entry at the last byte of a load is inside */
	s.entry = 0x1004fff;
	parse_ok(ctx, &s, &ei, &buf, &len);
	/* exactly 16 loads, and a load ending at 4 GiB */
	synth_elf_defaults(&s);
	s.nr_ph = s.phnum = 16;
	for (unsigned int i = 2; i < 16; i++)
		s.ph[i] = (struct synth_phdr){ SYNTH_PT_LOAD, 0, 0,
			0x2000000 + i * 0x1000, 0, 0x1000, 6, 0x1000 };
	s.ph[15].paddr = 0xfffff000;
	parse_ok(ctx, &s, &ei, &buf, &len);
	CHECK_EQ_U64(ei.nr_loads, 16);
	CHECK_EQ_U64(ei.load[15].paddr + ei.load[15].memsz, 0x100000000ull);
}

TEST(reject_header)
{
	struct synth_elf s;
	size_t len;
	const char *buf;

	synth_elf_defaults(&s);
	buf = build(ctx, &s, &len);
	reject_buf(ctx, buf, 0, "no ELF magic");
	reject_buf(ctx, buf, 3, "no ELF magic");
	reject_buf(ctx, buf, 51, "truncated");
	reject_buf(ctx, NULL, 0, "no data");
	memcpy(s.magic, "\177ELG", 4);
	reject(ctx, &s, "no ELF magic");
	synth_elf_defaults(&s);
	s.class = 2;
	reject(ctx, &s, "not ELF32");
	synth_elf_defaults(&s);
	s.data = 2;
	reject(ctx, &s, "little-endian");
	synth_elf_defaults(&s);
	s.idversion = 0;
	reject(ctx, &s, "version");
	synth_elf_defaults(&s);
	s.version = 2;
	reject(ctx, &s, "version");
	synth_elf_defaults(&s);
	s.type = 3;				/* ET_DYN */
	reject(ctx, &s, "not an executable");
	synth_elf_defaults(&s);
	s.type = 4;				/* ET_CORE */
	reject(ctx, &s, "not an executable");
	synth_elf_defaults(&s);
	s.machine = 62;				/* EM_X86_64 */
	reject(ctx, &s, "not an i386 image");
}

TEST(reject_phdr_table)
{
	struct synth_elf s;

	synth_elf_defaults(&s);
	s.phnum = 0;
	reject(ctx, &s, "no program headers");
	synth_elf_defaults(&s);
	s.phnum = 0xffff;
	reject(ctx, &s, "extended");
	synth_elf_defaults(&s);
	s.phentsize = 16;
	reject(ctx, &s, "program header size 16");
	/* the table claims more entries than the file holds */
	synth_elf_defaults(&s);
	s.phnum = 0x400;
	reject(ctx, &s, "outside the file");
	synth_elf_defaults(&s);
	s.phoff = 0xfffffff0;
	s.nr_ph = 0;
	s.len = 0x7a34;
	reject(ctx, &s, "outside the file");
	/* table ends one byte past the end of the file */
	synth_elf_defaults(&s);
	s.nr_ph = 0;
	s.phoff = 0x7a34 - 3 * 32 + 1;
	s.len = 0x7a34;
	reject(ctx, &s, "outside the file");
}

TEST(reject_loads)
{
	struct synth_elf s;

	/* file bytes past the end of the file */
	synth_elf_defaults(&s);
	s.len = 0x7a33;
	reject(ctx, &s, "PT_LOAD 1: bytes 0x6234+0x1800 lie outside the file");
	synth_elf_defaults(&s);
	s.len = 0x7a34;
	s.ph[0].offset = 0x8000;
	reject(ctx, &s, "PT_LOAD 0: bytes");
	/* offset + filesz wraps in 32 bits */
	synth_elf_defaults(&s);
	s.len = 0x7a34;
	s.ph[1].offset = 0xffffffff;
	s.ph[1].filesz = 2;
	reject(ctx, &s, "outside the file");
	synth_elf_defaults(&s);
	s.ph[1].filesz = 0x4001;
	reject(ctx, &s, "PT_LOAD 1: filesz 0x4001 > memsz 0x4000");
	/* filesz > memsz also for an empty load */
	synth_elf_defaults(&s);
	s.ph[1].memsz = 0;
	reject(ctx, &s, "filesz 0x1800 > memsz 0x0");
	/* paddr + memsz past 4 GiB */
	synth_elf_defaults(&s);
	s.ph[1].paddr = 0xfffff000;
	reject(ctx, &s, "past 4 GiB");
	synth_elf_defaults(&s);
	s.ph[1].paddr = 0xffffffff;
	s.ph[1].memsz = 0xffffffff;
	s.ph[1].filesz = 0;
	reject(ctx, &s, "past 4 GiB");
	/* overlapping loads, by one byte, and one inside the other */
	synth_elf_defaults(&s);
	s.ph[1].paddr = 0x1004fff;
	reject(ctx, &s, "overlap");
	synth_elf_defaults(&s);
	s.ph[1].paddr = 0x1001000;
	s.ph[1].memsz = 0x1800;
	reject(ctx, &s, "overlap");
	synth_elf_defaults(&s);
	s.ph[0].paddr = 0x1006000;
	s.ph[0].memsz = 0x10000;
	s.ph[0].filesz = 0;
	s.entry = 0x1006234;
	reject(ctx, &s, "PT_LOADs at 0x1006000 and 0x1006234 overlap");
	/* no loads at all */
	synth_elf_defaults(&s);
	s.ph[0].type = s.ph[1].type = SYNTH_PT_NOTE;
	reject(ctx, &s, "no PT_LOAD");
}

TEST(reject_entry_and_count)
{
	struct synth_elf s;

	synth_elf_defaults(&s);
	s.entry = 0xc1000000;			/* virtual, not physical */
	reject(ctx, &s, "entry point 0xc1000000 is outside every PT_LOAD");
	synth_elf_defaults(&s);
	s.entry = 0x1005000;			/* one past load 0 */
	reject(ctx, &s, "outside every PT_LOAD");
	synth_elf_defaults(&s);
	s.entry = 0xfff;
	reject(ctx, &s, "outside every PT_LOAD");
	/* 17 loads */
	synth_elf_defaults(&s);
	s.nr_ph = s.phnum = 17;
	for (unsigned int i = 2; i < 17; i++)
		s.ph[i] = (struct synth_phdr){ SYNTH_PT_LOAD, 0, 0,
			0x2000000 + i * 0x1000, 0, 0x1000, 6, 0x1000 };
	reject(ctx, &s, "more than 16 PT_LOAD");
}

/* A user-space program is no kernel, whatever its loads look like. */
TEST(reject_user_space)
{
	static const struct { uint32_t type; const char *name; } kinds[] = {
		{ 2, "PT_DYNAMIC" }, { 3, "PT_INTERP" }, { 7, "PT_TLS" },
		{ 0x6474e552, "PT_GNU_RELRO" },
	};
	struct synth_elf s;

	for (unsigned int i = 0; i < 4; i++) {
		synth_elf_defaults(&s);
		s.ph[2].type = kinds[i].type;
		reject(ctx, &s, "a user-space program");
		reject(ctx, &s, kinds[i].name);
	}
	synth_elf_defaults(&s);
	s.ph[2].type = 0x6474e551;		/* PT_GNU_STACK: kernels have it */
	{
		struct elf_exec_info ei;
		const char *buf;
		size_t len;

		parse_ok(ctx, &s, &ei, &buf, &len);
	}
}

/* The reason is cut to whylen, and no buffer at all is fine too. */
TEST(why_buffer)
{
	struct synth_elf s;
	struct elf_exec_info ei;
	char why[8];
	size_t len;
	const char *buf;

	synth_elf_defaults(&s);
	s.machine = 62;
	buf = build(ctx, &s, &len);
	memset(why, 'x', sizeof(why));
	CHECK_EQ_INT(elf_exec_parse(buf, len, &elf_exec_i386, &ei, why, sizeof(why)), -1);
	CHECK_STR(why, "not an ");
	CHECK_EQ_INT(elf_exec_parse(buf, len, &elf_exec_i386, &ei, NULL, 0), -1);
	why[0] = 'x';
	CHECK_EQ_INT(elf_exec_parse(buf, len, &elf_exec_i386, &ei, why, 0), -1);
	CHECK(why[0] == 'x');
}

/* Whatever parse accepts, it describes honestly. */
static void check_sane(struct unit_ctx *ctx, const char *buf, size_t len,
		       const struct elf_exec_info *ei)
{
	bool entry_in = false;
	unsigned int i, j;

	CHECK(ei->nr_loads >= 1 && ei->nr_loads <= ELF_EXEC_MAX_LOADS);
	for (i = 0; i < ei->nr_loads; i++) {
		const struct elf_exec_load *l = &ei->load[i];

		CHECK(l->memsz > 0 && l->filesz <= l->memsz);
		CHECK(l->paddr + l->memsz <= 0x100000000ull);
		if (l->filesz)
			CHECK(l->data >= buf &&
			      l->filesz <= len - (size_t)(l->data - buf));
		if (ei->entry >= l->paddr && ei->entry < l->paddr + l->memsz)
			entry_in = true;
		for (j = 0; j < i; j++)
			CHECK(l->paddr >= ei->load[j].paddr + ei->load[j].memsz ||
			      ei->load[j].paddr >= l->paddr + l->memsz);
	}
	CHECK(entry_in);
}

/* Every prefix of a good image: accepted only once all loads are in. */
TEST(truncations)
{
	struct synth_elf s;
	struct elf_exec_info ei;
	size_t len, n;
	const char *buf;
	char why[160];

	synth_elf_defaults(&s);
	buf = build(ctx, &s, &len);
	for (n = 0; n <= len; n++) {
		char *copy = malloc(n ? n : 1);
		int ret;

		CHECK(copy != NULL);
		memcpy(copy, buf, n);
		ret = elf_exec_parse(copy, n, &elf_exec_i386, &ei, why, sizeof(why));
		if (ret)
			CHECK(n < len);
		else
			check_sane(ctx, copy, n, &ei);
		free(copy);
		if (!ret)
			CHECK_EQ_U64(n, len);
	}
}

/* Random corruption of header and table bytes: never out of bounds. */
TEST(corruption)
{
	struct synth_elf s;
	struct elf_exec_info ei;
	uint32_t rng = 12345;
	unsigned int round, k, accepted = 0;
	size_t len;
	const char *good;
	char why[160];

	synth_elf_defaults(&s);
	good = build(ctx, &s, &len);
	for (round = 0; round < 20000; round++) {
		char *copy = malloc(len);
		size_t n = len;

		CHECK(copy != NULL);
		memcpy(copy, good, len);
		for (k = 0; k < 1 + round % 6; k++) {
			rng = rng * 1103515245u + 12345u;
			/* mostly the header and program headers */
			copy[(rng >> 8) % (52 + 3 * 32)] = (char)(rng >> 24);
		}
		rng = rng * 1103515245u + 12345u;
		if (round % 4 == 0)
			n = (rng >> 4) % (len + 1);
		if (!elf_exec_parse(copy, n, &elf_exec_i386, &ei, why, sizeof(why))) {
			check_sane(ctx, copy, n, &ei);
			accepted++;
		}
		free(copy);
	}
	CHECK(accepted > 0);		/* some corruption is harmless */
}

/* ------------------------------------------------------------- load */

struct run {
	struct kj_load_spec opts;
	struct arch_opts aopts;
	struct mem_map map;
	struct load_request req;
	struct kexec_image img;
	const char *kernel;
	size_t kernel_len;
	int ret;
	const char *err;
};

static void run_free(void *arg)
{
	struct run *r = arg;

	image_free(&r->img);
	memmap_free(&r->map);
}

extern const struct arch_loader elf_x86_loader;

/* The QEMU -m 512 map, the default synthetic ELF, nothing else. */
static struct run *new_run(struct unit_ctx *ctx, const struct synth_elf *s)
{
	struct run *r = unit_alloc(ctx, sizeof(*r));

	memset(r, 0, sizeof(*r));
	kj_load_spec_init(&r->opts);
	r->opts.kernel = "vmlinux";
	r->kernel = build(ctx, s, &r->kernel_len);
	memmap_init(&r->map);
	image_init(&r->img, unit_kj_default(), 0, UINT64_MAX);
	unit_defer(ctx, run_free, r);
	CHECK_EQ_INT(memmap_add(&r->map, 0x0, 0x9fc00, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(&r->map, 0x9fc00, 0xa0000, MEM_RESERVED), 0);
	CHECK_EQ_INT(memmap_add(&r->map, 0xf0000, 0x100000, MEM_RESERVED), 0);
	CHECK_EQ_INT(memmap_add(&r->map, 0x100000, 0x1ffe0000, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(&r->map, 0x1ffe0000, 0x20000000, MEM_RESERVED),
		     0);
	CHECK_EQ_INT(image_set_usable(&r->img, &r->map), 0);
	r->req = (struct load_request){
		.ctx = unit_kj(ctx, "/nonexistent-root"), .spec = &r->opts,
		.aopts = &r->aopts, .kernel = r->kernel,
		.kernel_len = r->kernel_len, .cmdline = "",
		.memmap = &r->map, .e820 = &r->map,
	};
	return r;
}

static void load(struct unit_ctx *ctx, struct run *r)
{
	/* as kj_load() does: --entry, the loader's check, its load */
	unit_capture_start(ctx);
	r->ret = r->opts.has_entry ?
		 arch_check_entry(r->req.ctx, r->opts.entry) : 0;
	if (!r->ret)
		r->ret = elf_x86_loader.check(&r->req);
	if (!r->ret)
		r->ret = elf_x86_loader.load(&r->req, &r->img);
	r->err = unit_capture_stop(ctx);
}

static void load_ok(struct unit_ctx *ctx, struct run *r)
{
	load(ctx, r);
	if (r->ret)
		FAILF("load failed (%d): %s", r->ret, r->err);
	CHECK_NO_OUTPUT(r->err);
}

static void load_refused(struct unit_ctx *ctx, struct run *r,
			 const char *want)
{
	load(ctx, r);
	CHECK(r->ret != 0);
	CHECK_ERR_LINE(r->err, want);
}

static const struct image_segment *seg_at(struct unit_ctx *ctx,
					  const struct run *r, uint64_t mem)
{
	unsigned int i;

	for (i = 0; i < r->img.nr_seg; i++)
		if (r->img.seg[i].mem == mem)
			return &r->img.seg[i];
	FAILF("no segment at 0x%" PRIx64, mem);
}

/* The two default loads, byte for byte at their physical addresses. */
static void check_loads(struct unit_ctx *ctx, const struct run *r)
{
	const struct image_segment *a = seg_at(ctx, r, 0x1000000);
	const struct image_segment *b = seg_at(ctx, r, 0x1006000);
	const uint8_t *bb;
	size_t i;

	CHECK_EQ_U64(a->memsz, 0x5000);
	CHECK_EQ_U64(a->bufsz, 0x5000);
	CHECK(a->buf == r->kernel + 0x1000);	/* page aligned: used in place */
	/* mid-page start: a copy with the page's first 0x234 bytes zero */
	CHECK_EQ_U64(b->memsz, 0x5000);		/* 0x1006000..0x100b000 */
	CHECK_EQ_U64(b->bufsz, 0x234 + 0x1800);
	bb = b->buf;
	for (i = 0; i < 0x234; i++)
		CHECK_EQ_U64(bb[i], 0);
	CHECK_MEM(bb + 0x234, r->kernel + 0x6234, 0x1800);
}

static const struct purgatory_params *params_of(struct unit_ctx *ctx,
						const struct run *r)
{
	const struct image_segment *pg = seg_at(ctx, r, r->img.entry);
	const uint8_t *b = pg->buf;
	uint32_t off = (uint32_t)b[24] | (uint32_t)b[25] << 8 |
		       (uint32_t)b[26] << 16 | (uint32_t)b[27] << 24;
	const struct purgatory_params *p;

	CHECK(!strcmp(pg->name, "purgatory"));
	CHECK(off + sizeof(*p) <= pg->bufsz);
	p = (const struct purgatory_params *)(b + off);
	CHECK_EQ_U64(p->magic, PURGATORY_MAGIC);
	return p;
}

static uint64_t le(const void *buf, size_t off, int bytes)
{
	const uint8_t *b = buf;
	uint64_t v = 0;
	int i;

	for (i = bytes - 1; i >= 0; i--)
		v = v << 8 | b[off + i];
	return v;
}

TEST(load_args_linux)
{
	static const char initrd[] = "initrd bytes";
	struct synth_elf s;
	struct run *r;
	const struct purgatory_params *p;
	const struct image_segment *bp, *rd;
	size_t len = strlen("console=ttyS0 quiet");

	synth_elf_defaults(&s);
	r = new_run(ctx, &s);
	r->req.cmdline = "console=ttyS0 quiet";
	r->req.initrd = initrd;
	r->req.initrd_len = sizeof(initrd);
	r->opts.initrd = "initrd";
	load_ok(ctx, r);
	CHECK_EQ_U64(r->img.nr_seg, 5);
	check_loads(ctx, r);
	p = params_of(ctx, r);
	CHECK_EQ_U64(p->regs.eip, 0x1000000);
	bp = seg_at(ctx, r, p->regs.esi);
	CHECK(!strcmp(bp->name, "bootparams"));
	CHECK_EQ_U64(bp->bufsz, 0x1000 + len + 1 + 64);
	CHECK_EQ_U64(le(bp->buf, 0x202, 4), 0x53726448);
	CHECK(le(bp->buf, 0x206, 2) >= 0x0206);
	CHECK_EQ_U64(le(bp->buf, 0x1fe, 2), 0xaa55);
	CHECK_EQ_U64(le(bp->buf, 0x210, 1), 0xff);
	CHECK_EQ_U64(le(bp->buf, 0x22c, 4), 0x37ffffff);
	CHECK_EQ_U64(le(bp->buf, 0x238, 4), 2048);
	CHECK_EQ_U64(le(bp->buf, 0x228, 4), bp->mem + 0x1000);
	CHECK_STR((const char *)bp->buf + 0x1000, "console=ttyS0 quiet");
	CHECK_EQ_U64(le(bp->buf, 0x1e8, 1), 5);	/* e820 entries */
	rd = seg_at(ctx, r, le(bp->buf, 0x218, 4));
	CHECK(!strcmp(rd->name, "initrd"));
	CHECK_EQ_U64(le(bp->buf, 0x21c, 4), sizeof(initrd));
	CHECK(rd->mem + rd->memsz <= 0x37ffffffull + 1);
	/* purgatory may append kexec_jump_back_entry= after the NUL */
	CHECK_EQ_U64(p->cmdline_end, bp->mem + 0x1000 + len);
	CHECK_EQ_U64(p->cmdline_room, 65);
	CHECK(p->cmdline_end + p->cmdline_room <= bp->mem + bp->bufsz);
	CHECK(!(p->flags & PGF_JUMP_BACK_ENTRY));
	CHECK(p->flags & PGF_VERIFY);
	CHECK_EQ_U64(p->nr_regions, 4);
	CHECK(p->regs.esp > r->img.entry);
}

TEST(load_default_style_and_entry)
{
	struct synth_elf s;
	struct run *r;
	const struct purgatory_params *p;

	synth_elf_defaults(&s);
	r = new_run(ctx, &s);
	r->aopts.elf_args = ELF_ARGS_LINUX;
	r->opts.has_entry = true;
	r->opts.entry = 0x1000abc;
	r->opts.no_checks = true;
	load_ok(ctx, r);
	CHECK_EQ_U64(r->img.nr_seg, 4);		/* no initrd */
	p = params_of(ctx, r);
	CHECK_EQ_U64(p->regs.eip, 0x1000abc);
	/* only a preserve-context load (e2e: elf-preserve) asks for it */
	CHECK(!(p->flags & PGF_JUMP_BACK_ENTRY));
	CHECK(!(p->flags & PGF_VERIFY));
	CHECK_EQ_U64(le(seg_at(ctx, r, p->regs.esi)->buf, 0x218, 4), 0);
}

TEST(load_args_none)
{
	struct synth_elf s;
	struct run *r;

	synth_elf_defaults(&s);
	r = new_run(ctx, &s);
	r->aopts.elf_args = ELF_ARGS_NONE;
	load_ok(ctx, r);
	CHECK_EQ_U64(r->img.nr_seg, 2);
	CHECK_EQ_U64(r->img.entry, 0x1000000);
	check_loads(ctx, r);
	/* --entry, anywhere below 4 GiB */
	r = new_run(ctx, &s);
	r->aopts.elf_args = ELF_ARGS_NONE;
	r->opts.has_entry = true;
	r->opts.entry = 0x7000;
	load_ok(ctx, r);
	CHECK_EQ_U64(r->img.entry, 0x7000);
}

TEST(load_refusals)
{
	struct synth_elf s;
	struct run *r;

	synth_elf_defaults(&s);
	r = new_run(ctx, &s);
	r->aopts.elf_args = ELF_ARGS_ELF;
	load_refused(ctx, r, "--args-elf: ELF boot notes are not supported");
	r = new_run(ctx, &s);
	r->aopts.elf_args = ELF_ARGS_NONE;
	r->opts.initrd = "x";
	load_refused(ctx, r, "--args-none: --initrd cannot be used");
	r = new_run(ctx, &s);
	r->aopts.elf_args = ELF_ARGS_NONE;
	r->opts.nr_append = 1;
	r->opts.append[0] = "quiet";
	load_refused(ctx, r, "--args-none: --append/--command-line");
	r = new_run(ctx, &s);
	r->aopts.elf_args = ELF_ARGS_NONE;
	r->opts.reuse_cmdline = true;
	load_refused(ctx, r, "--args-none: --reuse-cmdline");
	r = new_run(ctx, &s);
	r->opts.mode = KJ_LOAD_CRASH;
	load_refused(ctx, r, "-p needs a bzImage");
	r = new_run(ctx, &s);
	r->opts.has_entry = true;
	r->opts.entry = 0x100000000ull;
	load_refused(ctx, r, "--entry=0x100000000: above 4 GiB");
	CHECK_EQ_U64(r->img.nr_seg, 0);
	/* not an ELF file */
	s.machine = 62;
	r = new_run(ctx, &s);
	load_refused(ctx, r, "vmlinux: not an i386 ELF executable: not an i386 image");
}

TEST(load_cmdline_limit)
{
	static char line[2049];
	struct synth_elf s;
	struct run *r;

	memset(line, 'a', 2047);
	synth_elf_defaults(&s);
	r = new_run(ctx, &s);
	r->req.cmdline = line;
	load_ok(ctx, r);
	line[2047] = 'b';
	r = new_run(ctx, &s);
	r->req.cmdline = line;
	load_refused(ctx, r, "command line: 2048 bytes, a vmlinux takes at most 2047");
}

/* Loads that cannot be segments: shared page, outside RAM, too many. */
TEST(load_placement_errors)
{
	struct synth_elf s;
	struct run *r;

	synth_elf_defaults(&s);
	s.ph[0].memsz = 0x5400;			/* load 0 ends at 0x1005400 */
	s.ph[1].paddr = 0x1005800;
	s.ph[1].memsz = 0x1800;
	r = new_run(ctx, &s);
	load_refused(ctx, r, "PT_LOADs at 0x1000000 and 0x1005800 share a page");
	synth_elf_defaults(&s);
	s.ph[1].paddr = 0x1fff0000;		/* reserved in the map */
	r = new_run(ctx, &s);
	load_refused(ctx, r, "load 1: 0x1fff0000-0x1fff3fff is not inside usable RAM");
	/* 15 loads + bootparams + purgatory: one segment too many */
	synth_elf_defaults(&s);
	s.nr_ph = s.phnum = 15;
	for (unsigned int i = 2; i < 15; i++)
		s.ph[i] = (struct synth_phdr){ SYNTH_PT_LOAD, 0, 0,
			0x2000000 + i * 0x1000, 0, 0x1000, 6, 0x1000 };
	r = new_run(ctx, &s);
	load_refused(ctx, r, "too many segments");
	r = new_run(ctx, &s);
	r->aopts.elf_args = ELF_ARGS_NONE;
	load_ok(ctx, r);
	CHECK_EQ_U64(r->img.nr_seg, 15);
}

TEST(probe_order)
{
	struct synth_elf s;
	const struct arch_loader *const *l;
	char why[160];
	size_t len;
	const char *buf;

	CHECK(arch_loaders[0] && !strcmp(arch_loaders[0]->name, "bzImage"));
	CHECK(arch_loaders[1] == &elf_x86_loader);
	CHECK(!strcmp(elf_x86_loader.name, "elf-x86"));
	synth_elf_defaults(&s);
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(arch_loaders[0]->probe(buf, len, why, sizeof(why)), -1);
	CHECK_EQ_INT(elf_x86_loader.probe(buf, len, why, sizeof(why)), 0);
	for (l = arch_loaders; *l; l++)
		CHECK((*l)->name && (*l)->probe && (*l)->load);
}

/* ------------------------------------------------------- real kernel */

TEST(real_vmlinux)
{
	const char *path = getenv("KJUMP_VMLINUX");
	struct elf_exec_info ei;
	char why[160] = "", *buf;
	size_t len;
	unsigned int i;
	int ret;

	if (!path || !*path)
		SKIP("KJUMP_VMLINUX not set");
	ret = read_file(path, 256u << 20, &buf, &len);
	if (ret)
		FAILF("%s: %s", path, strerror(-ret));
	unit_defer(ctx, free, buf);
	if (elf_exec_parse(buf, len, &elf_exec_i386, &ei, why, sizeof(why)))
		FAILF("%s: %s", path, why);
	check_sane(ctx, buf, len, &ei);
	CHECK_EQ_U64(ei.machine, 3);
	/* i386 links at CONFIG_PHYSICAL_START and enters at startup_32 */
	CHECK(ei.load[0].paddr >= MIB);
	CHECK_EQ_U64(ei.entry, ei.load[0].paddr);
	for (i = 0; i < ei.nr_loads; i++)
		CHECK(ei.load[i].paddr < 0x37ffffff);
	CHECK(ei.load[0].filesz > 0x100000);
}

UNIT_MAIN("elf",
	RUN(valid), RUN(valid_variants), RUN(reject_header),
	RUN(reject_phdr_table), RUN(reject_loads), RUN(reject_entry_and_count),
	RUN(reject_user_space),
	RUN(why_buffer), RUN(truncations), RUN(corruption),
	RUN(load_args_linux), RUN(load_default_style_and_entry),
	RUN(load_args_none), RUN(load_refusals), RUN(load_cmdline_limit),
	RUN(load_placement_errors), RUN(probe_order), RUN(real_vmlinux))
