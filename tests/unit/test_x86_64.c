// SPDX-License-Identifier: GPL-2.0-only
/*
 * The x86_64 word size (libkjump64.a): the bzImage loader takes a kernel
 * with the 64-bit entry only, enters it at startup_64 (0x200 into the
 * protected-mode kernel) through the 64-bit purgatory with %rsi = boot
 * params, keeps every segment below 4 GiB, asks for KEXEC_ARCH_X86_64,
 * refuses preserve-context loads by kexec_load, and refuses a 32-bit
 * running kernel.  Crash loads: test_crashdump64.
 */
#include <sys/stat.h>

#include <elf.h>

#include "arch.h"
#include "elf-exec.h"
#include "elf-read.h"
#include "image.h"
#include "memory-map.h"
#include "purgatory-params.h"
#include "synth-bzimage.h"
#include "unit.h"
#include "x86-arch.h"

extern const struct arch_loader bzimage_loader;

struct run {
	struct kj_load_spec spec;
	struct arch_opts aopts;
	struct mem_map map;
	struct load_request req;
	struct kexec_image img;
	struct arch_hand_over *ho;	/* hand_over()'s results */
	const struct mem_map *e820;
	const char *words;
	int ret;
	const char *err;
};

static void run_free(void *arg)
{
	struct run *r = arg;

	arch_hand_over_free(r->ho);
	image_free(&r->img);
	memmap_free(&r->map);
}

/* A 512 MiB machine, the synthetic bzImage s. */
static struct run *new_run(struct unit_ctx *ctx, const struct synth_bzimage *s)
{
	struct run *r = unit_alloc(ctx, sizeof(*r));
	size_t len;
	uint8_t *b = synth_build(s, &len);

	if (!b)
		FAILF("out of memory");
	unit_defer(ctx, free, b);
	memset(r, 0, sizeof(*r));
	kj_load_spec_init(&r->spec);
	r->spec.kernel = "bzImage";
	memmap_init(&r->map);
	image_init(&r->img, unit_kj_default(), 0, UINT64_MAX);
	unit_defer(ctx, run_free, r);
	CHECK_EQ_INT(memmap_add(&r->map, 0x0, 0x9fc00, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(&r->map, 0x100000, 0x1ffe0000, MEM_RAM), 0);
	CHECK_EQ_INT(image_set_usable(&r->img, &r->map), 0);
	r->req = (struct load_request){
		.ctx = unit_kj(ctx, "/nonexistent-root"), .spec = &r->spec,
		.aopts = &r->aopts, .kernel = (const char *)b,
		.kernel_len = len, .cmdline = "console=ttyS0",
		.memmap = &r->map, .e820 = &r->map,
	};
	return r;
}

static void load(struct unit_ctx *ctx, struct run *r)
{
	unit_capture_start(ctx);
	r->ret = bzimage_loader.check(&r->req);
	if (!r->ret)
		r->ret = bzimage_loader.load(&r->req, &r->img);
	r->err = unit_capture_stop(ctx);
}

/* arch_hand_over_prepare() for r's mode, quietly: r->ret, r->err. */
static void hand_over(struct unit_ctx *ctx, struct run *r)
{
	unit_capture_start(ctx);
	r->ret = arch_hand_over_prepare(&r->req, &r->img, &r->ho, &r->words,
					&r->e820);
	r->err = unit_capture_stop(ctx);
}

static const struct image_segment *segment(const struct run *r,
					   const char *name)
{
	unsigned int i;

	for (i = 0; i < r->img.nr_seg; i++)
		if (!strcmp(r->img.seg[i].name, name))
			return &r->img.seg[i];
	return NULL;
}

static void synth_64(struct synth_bzimage *s)
{
	synth_defaults(s);
	s->xloadflags = 3;
}

TEST(entry_64)
{
	struct synth_bzimage s;
	const struct image_segment *k, *bp, *pg;
	const struct purgatory_params *p;
	const struct purgatory_header *h;
	struct run *r;
	unsigned int i;

	synth_64(&s);
	r = new_run(ctx, &s);
	load(ctx, r);
	if (r->ret)
		FAILF("load failed (%d): %s", r->ret, r->err);
	k = segment(r, "kernel");
	bp = segment(r, "bootparams");
	pg = segment(r, "purgatory");
	CHECK(k && bp && pg);
	CHECK_EQ_U64(r->img.entry, pg->mem);
	h = pg->buf;
	p = (const void *)((const uint8_t *)pg->buf + h->params_offset);
	CHECK_EQ_U64(p->magic, PURGATORY_MAGIC);
	CHECK_EQ_U64(p->regs.rip, k->mem + 0x200);
	CHECK_EQ_U64(p->regs.rsi, bp->mem);
	CHECK_EQ_U64(p->regs.rsp, pg->mem + h->stack_top_offset);
	CHECK_EQ_U64(k->mem % s.kernel_alignment, 0);
	for (i = 0; i < r->img.nr_seg; i++)
		CHECK(r->img.seg[i].mem + r->img.seg[i].memsz <= 0x100000000ull);
	CHECK_EQ_U64(arch_kexec_flags(), 62ul << 16);
}

TEST(refuses_32_bit_kernel)
{
	struct synth_bzimage s;
	char why[256] = "";
	size_t len;
	uint8_t *b;
	struct run *r;

	synth_defaults(&s);		/* xloadflags 0: a 32-bit kernel */
	r = new_run(ctx, &s);
	load(ctx, r);
	CHECK_EQ_INT(r->ret, -EINVAL);
	CHECK_CONTAINS(r->err, "bzImage: not a bzImage: no x86_64 entry (a 32-bit kernel)");
	b = synth_build(&s, &len);
	if (!b)
		FAILF("out of memory");
	unit_defer(ctx, free, b);
	CHECK_EQ_INT(bzimage_loader.probe((const char *)b, len, why,
					  sizeof(why)), -1);
	CHECK_CONTAINS(why, "no x86_64 entry");
}

/*
 * A preserve-context load (the upstream kexec jump; qemu-i386-512m's
 * /proc/iomem): B's map is the RAM below 640K and the window from 1 MiB
 * to --mem-max, told by e820, and nothing of a crash load (no ELF core
 * header, no elfcorehdr=, no kexec_backup=).
 */
TEST(preserve_by_kexec_load)
{
	struct synth_bzimage s;
	struct run *r;

	synth_64(&s);
	r = new_run(ctx, &s);
	r->spec.mode = KJ_LOAD_PRESERVE;
	r->spec.mem_max = 0x5ffffff;
	r->req.ctx = unit_kj(ctx, unit_fixture(ctx, "qemu-i386-512m"));
	hand_over(ctx, r);
	if (r->ret)
		FAILF("prepare failed (%d): %s", r->ret, r->err);
	CHECK(!image_find_segment(&r->img, "elfcorehdr"));
	CHECK(!strstr(r->words, "elfcorehdr="));
	CHECK(!strstr(r->words, "kexec_backup="));
	CHECK_EQ_INT(r->e820->n >= 2, 1);
	CHECK_EQ_U64(r->e820->r[0].start, 0x1000);
	CHECK_EQ_U64(r->e820->r[0].end, 0x9fc00);
	CHECK_EQ_U64(r->e820->r[0].type, MEM_RAM);
	CHECK_EQ_U64(r->e820->r[1].start, 0x100000);
	CHECK_EQ_U64(r->e820->r[1].end, 0x6000000);
	CHECK_EQ_U64(r->e820->r[1].type, MEM_RAM);
}

/*
 * A crash load (qemu-i386-512m's /proc/iomem: RAM 0x1000-0x9fbff and
 * 0x100000-0x1ffdffff, crash region 0x1a000000-0x1dffffff): no backup,
 * no kexec_backup=, B gets the old RAM below 1 MiB and the region, and
 * the ELF64 header leaves the first MiB out.
 */
TEST(crash_no_backup)
{
	struct synth_bzimage s;
	const struct image_segment *h;
	struct elf_hdr eh;
	struct elf_phdr ph;
	char why[64];
	unsigned int i, loads = 0;
	struct run *r;

	synth_64(&s);
	r = new_run(ctx, &s);
	r->spec.mode = KJ_LOAD_CRASH;
	r->req.ctx = unit_kj(ctx, unit_fixture(ctx, "qemu-i386-512m"));
	hand_over(ctx, r);
	if (r->ret)
		FAILF("prepare failed (%d): %s", r->ret, r->err);
	CHECK(!image_find_segment(&r->img, "backup"));
	CHECK(strstr(r->words, "elfcorehdr=") != NULL);
	CHECK(!strstr(r->words, "kexec_backup="));
	CHECK(r->e820->n >= 2);
	CHECK_EQ_U64(r->e820->r[0].start, 0x1000);
	CHECK_EQ_U64(r->e820->r[0].end, 0x9fc00);
	CHECK_EQ_U64(r->e820->r[0].type, MEM_RAM);
	h = image_find_segment(&r->img, "elfcorehdr");
	CHECK(h != NULL);
	CHECK_EQ_INT(elf_read_ehdr(h->buf, h->bufsz, &eh, why, sizeof(why)), 0);
	CHECK_EQ_INT(eh.elf_class, 64);
	CHECK_EQ_U64(eh.machine, EM_X86_64);
	for (i = 0; i < eh.phnum; i++) {
		elf_read_phdr(&eh, (const uint8_t *)h->buf + eh.phoff, i, &ph);
		if (ph.type != PT_LOAD)
			continue;
		loads++;
		CHECK(ph.paddr >= 0x100000);
		CHECK(ph.paddr + ph.memsz <= 0x1a000000 ||
		      ph.paddr >= 0x1e000000);
	}
	CHECK_EQ_INT(loads, 2);	/* 1M-crash region, crash region-end */
}

TEST(crash_no_elf32)
{
	struct synth_bzimage s;
	struct run *r;

	synth_64(&s);
	r = new_run(ctx, &s);
	r->spec.mode = KJ_LOAD_CRASH;
	r->aopts.elf_class = 32;
	r->req.ctx = unit_kj(ctx, unit_fixture(ctx, "qemu-i386-512m"));
	hand_over(ctx, r);
	CHECK_EQ_INT(r->ret, -EINVAL);
	CHECK_CONTAINS(r->err, "--elf32-core-headers: an x86_64 kernel's dump needs ELF64 headers");
}

/*
 * An ELF64 vmlinux whose one PT_LOAD claims memsz 2^64 - 4 KiB: the
 * 64-bit sum paddr + memsz wraps, and must not pass as below 4 GiB (the
 * ELF fuzzer's find with its ELF64 seed).
 */
TEST(elf64_wrapping_load)
{
	uint8_t b[0x200] = { 0 };
	struct elf_exec_info ei;
	char why[128] = "";

	memcpy(b, "\177ELF", 4);
	b[4] = 2;
	b[5] = 1;
	b[6] = 1;
	synth_le(b, 16, 2, 2);			/* ET_EXEC */
	synth_le(b, 18, EM_X86_64, 2);
	synth_le(b, 20, 1, 4);
	synth_le(b, 24, 0x1000, 8);		/* e_entry */
	synth_le(b, 32, 64, 8);			/* e_phoff */
	synth_le(b, 52, 64, 2);
	synth_le(b, 54, 56, 2);
	synth_le(b, 56, 1, 2);			/* one PT_LOAD */
	synth_le(b, 64, PT_LOAD, 4);
	synth_le(b, 64 + 8, 0x100, 8);		/* p_offset */
	synth_le(b, 64 + 24, 0x1000, 8);		/* p_paddr */
	synth_le(b, 64 + 32, 0x10, 8);		/* p_filesz */
	synth_le(b, 64 + 40, 0xfffffffffffff000ull, 8);
	CHECK_EQ_INT(elf_exec_parse((const char *)b, sizeof(b),
				    &elf_exec_x86_64, &ei, why, sizeof(why)),
		     -1);
	CHECK_CONTAINS(why, "runs past 4 GiB");
	synth_le(b, 64 + 40, 0x2000, 8);		/* a sane memsz loads */
	CHECK_EQ_INT(elf_exec_parse((const char *)b, sizeof(b),
				    &elf_exec_x86_64, &ei, why, sizeof(why)),
		     0);
	CHECK_EQ_INT(elf_exec_parse((const char *)b, sizeof(b),
				    &elf_exec_i386, &ei, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "not ELF32 (class 2)");
}

TEST(running_kernel)
{
	const char *root = unit_tmpdir(ctx), *err;
	struct kj_ctx *kj = unit_kj(ctx, root);
	char dir[4096];

	CHECK_EQ_INT(arch_check_running(kj), 0);	/* cannot tell: go on */
	snprintf(dir, sizeof(dir), "%s/proc", root);
	CHECK_EQ_INT(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/proc/sys", root);
	CHECK_EQ_INT(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/proc/sys/kernel", root);
	CHECK_EQ_INT(mkdir(dir, 0755), 0);
	unit_write_file(ctx, dir, "arch", "x86_64\n", (size_t)-1);
	CHECK_EQ_INT(arch_check_running(kj), 0);
	unit_write_file(ctx, dir, "arch", "i686\n", (size_t)-1);
	unit_capture_start(ctx);
	CHECK_EQ_INT(arch_check_running(kj), -ENOEXEC);
	err = unit_capture_stop(ctx);
	CHECK_CONTAINS(err, "kexec_load: this kexec builds images for x86_64 kernels, and the running kernel is i686");
}

UNIT_MAIN("x86_64",
	RUN(entry_64), RUN(refuses_32_bit_kernel), RUN(preserve_by_kexec_load),
	RUN(crash_no_backup), RUN(crash_no_elf32), RUN(elf64_wrapping_load),
	RUN(running_kernel))
