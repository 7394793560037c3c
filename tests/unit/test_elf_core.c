// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF core header builder: the bytes it writes, parsed back with the
 * <elf.h> structures, for ELF32 and ELF64.
 */
#include <elf.h>

#include "elf-core.h"
#include "unit.h"

#define PAGE_OFFSET	0xc0000000ull
#define LOWMEM		0x38000000ull	/* 896 MiB */

/* A program header of either class, widened. */
struct ph {
	uint32_t type, flags;
	uint64_t offset, vaddr, paddr, filesz, memsz;
};

struct parsed {
	int cls;
	size_t len;
	unsigned int phnum;
	struct ph ph[64];
};

static const struct elfcore_note two_cpus[] = {
	{ 0x1ec1b0c8, 364 },
	{ 0x1ec2d0c8, 364 },
	{ 0x01ee7000, 0x1000 },		/* vmcoreinfo */
};

/* The qemu-512m dump: backed-up low memory, RAM below and above the region */
static const struct elfcore_load qemu_loads[] = {
	{ 0x1000, 0x9ec00, 0x1dfff000 },
	{ 0x100000, 0x19f00000, 0x100000 },
	{ 0x1e000000, 0x1fe0000, 0x1e000000 },
};

static struct elfcore_spec spec_for(int cls, const struct elfcore_note *n,
				    size_t nn, const struct elfcore_load *l,
				    size_t nl)
{
	return (struct elfcore_spec){
		.elf_class = cls, .machine = EM_386,
		.page_offset = PAGE_OFFSET, .lowmem_limit = LOWMEM,
		.notes = n, .nr_notes = nn, .loads = l, .nr_loads = nl,
	};
}

/*
 * Build into a buffer with guard bytes after elfcore_size(), check the
 * ELF header fields and return the program headers.
 */
static void build_parse(struct unit_ctx *ctx, const struct elfcore_spec *s,
			struct parsed *out)
{
	size_t size = elfcore_size(s), i;
	uint8_t *buf = unit_alloc(ctx, size + 64);
	size_t ehsz = s->elf_class == 64 ? sizeof(Elf64_Ehdr) :
					   sizeof(Elf32_Ehdr);
	size_t phsz = s->elf_class == 64 ? sizeof(Elf64_Phdr) :
					   sizeof(Elf32_Phdr);

	memset(buf, 0xa5, size + 64);
	out->len = elfcore_build(s, buf);
	out->cls = s->elf_class;
	CHECK(out->len <= size);
	for (i = size; i < size + 64; i++)
		if (buf[i] != 0xa5)
			FAILF("byte %zu written beyond elfcore_size() %zu", i,
			      size);

	CHECK(buf[EI_MAG0] == ELFMAG0 && buf[EI_MAG1] == ELFMAG1 &&
	      buf[EI_MAG2] == ELFMAG2 && buf[EI_MAG3] == ELFMAG3);
	CHECK_EQ_INT(buf[EI_CLASS],
		     s->elf_class == 64 ? ELFCLASS64 : ELFCLASS32);
	CHECK_EQ_INT(buf[EI_DATA], ELFDATA2LSB);
	CHECK_EQ_INT(buf[EI_VERSION], EV_CURRENT);
	CHECK_EQ_INT(buf[EI_OSABI], ELFOSABI_NONE);
	for (i = EI_PAD; i < EI_NIDENT; i++)
		CHECK_EQ_INT(buf[i], 0);

	if (s->elf_class == 64) {
		Elf64_Ehdr e;

		memcpy(&e, buf, sizeof(e));
		CHECK_EQ_INT(e.e_type, ET_CORE);
		CHECK_EQ_INT(e.e_machine, EM_386);
		CHECK_EQ_INT(e.e_version, EV_CURRENT);
		CHECK_EQ_U64(e.e_entry, 0);
		CHECK_EQ_U64(e.e_phoff, sizeof(Elf64_Ehdr));
		CHECK_EQ_U64(e.e_shoff, 0);
		CHECK_EQ_INT(e.e_ehsize, sizeof(Elf64_Ehdr));
		CHECK_EQ_INT(e.e_phentsize, sizeof(Elf64_Phdr));
		CHECK_EQ_INT(e.e_shnum, 0);
		out->phnum = e.e_phnum;
	} else {
		Elf32_Ehdr e;

		memcpy(&e, buf, sizeof(e));
		CHECK_EQ_INT(e.e_type, ET_CORE);
		CHECK_EQ_INT(e.e_machine, EM_386);
		CHECK_EQ_INT(e.e_version, EV_CURRENT);
		CHECK_EQ_U64(e.e_entry, 0);
		CHECK_EQ_U64(e.e_phoff, sizeof(Elf32_Ehdr));
		CHECK_EQ_U64(e.e_shoff, 0);
		CHECK_EQ_INT(e.e_ehsize, sizeof(Elf32_Ehdr));
		CHECK_EQ_INT(e.e_phentsize, sizeof(Elf32_Phdr));
		CHECK_EQ_INT(e.e_shnum, 0);
		out->phnum = e.e_phnum;
	}
	CHECK_EQ_U64(out->len, ehsz + out->phnum * phsz);
	CHECK(out->phnum <= sizeof(out->ph) / sizeof(out->ph[0]));

	for (i = 0; i < out->phnum; i++) {
		const uint8_t *at = buf + ehsz + i * phsz;
		struct ph *p = &out->ph[i];

		if (s->elf_class == 64) {
			Elf64_Phdr h;

			memcpy(&h, at, sizeof(h));
			*p = (struct ph){ h.p_type, h.p_flags, h.p_offset,
					  h.p_vaddr, h.p_paddr, h.p_filesz,
					  h.p_memsz };
			CHECK_EQ_U64(h.p_align, 0);
		} else {
			Elf32_Phdr h;

			memcpy(&h, at, sizeof(h));
			*p = (struct ph){ h.p_type, h.p_flags, h.p_offset,
					  h.p_vaddr, h.p_paddr, h.p_filesz,
					  h.p_memsz };
			CHECK_EQ_U64(h.p_align, 0);
		}
	}
}

#define CHECK_NOTE(p, addr, size) check_note(ctx, __LINE__, p, addr, size)

static void check_note(struct unit_ctx *ctx, int line, const struct ph *p,
		       uint64_t addr, uint64_t size)
{
	if (p->type != PT_NOTE || p->offset != addr || p->paddr != addr ||
	    p->vaddr != 0 || p->filesz != size || p->memsz != size ||
	    p->flags != 0)
		FAILF("line %d: note type %" PRIu32 " offset 0x%" PRIx64
		      " paddr 0x%" PRIx64 " vaddr 0x%" PRIx64 " filesz 0x%"
		      PRIx64 " memsz 0x%" PRIx64 " flags %" PRIu32
		      ", want PT_NOTE at 0x%" PRIx64 " size 0x%" PRIx64,
		      line, p->type, p->offset, p->paddr, p->vaddr,
		      p->filesz, p->memsz, p->flags, addr, size);
}

#define CHECK_LOAD(p, paddr, size, offset, vaddr)			\
	check_load(ctx, __LINE__, p, paddr, size, offset, vaddr)

static void check_load(struct unit_ctx *ctx, int line, const struct ph *p,
		       uint64_t paddr, uint64_t size, uint64_t offset,
		       uint64_t vaddr)
{
	if (p->type != PT_LOAD || p->paddr != paddr || p->filesz != size ||
	    p->memsz != size || p->offset != offset || p->vaddr != vaddr ||
	    p->flags != (PF_R | PF_W | PF_X))
		FAILF("line %d: load type %" PRIu32 " paddr 0x%" PRIx64
		      " size 0x%" PRIx64 "/0x%" PRIx64 " offset 0x%" PRIx64
		      " vaddr 0x%" PRIx64 " flags %" PRIu32 ", want paddr 0x%"
		      PRIx64 " size 0x%" PRIx64 " offset 0x%" PRIx64
		      " vaddr 0x%" PRIx64, line, p->type, p->paddr,
		      p->filesz, p->memsz, p->offset, p->vaddr, p->flags,
		      paddr, size, offset, vaddr);
}

static void check_qemu(struct unit_ctx *ctx, int cls)
{
	struct elfcore_spec s = spec_for(cls, two_cpus, 3, qemu_loads, 3);
	struct parsed *p = unit_alloc(ctx, sizeof(*p));

	build_parse(ctx, &s, p);
	CHECK_EQ_INT(p->phnum, 6);
	/* notes first, in order */
	CHECK_NOTE(&p->ph[0], 0x1ec1b0c8, 364);
	CHECK_NOTE(&p->ph[1], 0x1ec2d0c8, 364);
	CHECK_NOTE(&p->ph[2], 0x01ee7000, 0x1000);
	/* low memory: its bytes are in the backup copy */
	CHECK_LOAD(&p->ph[3], 0x1000, 0x9ec00, 0x1dfff000,
		   PAGE_OFFSET + 0x1000);
	CHECK_LOAD(&p->ph[4], 0x100000, 0x19f00000, 0x100000,
		   PAGE_OFFSET + 0x100000);
	CHECK_LOAD(&p->ph[5], 0x1e000000, 0x1fe0000, 0x1e000000,
		   PAGE_OFFSET + 0x1e000000);
}

TEST(elf32_qemu)
{
	check_qemu(ctx, 32);
}

TEST(elf64_qemu)
{
	check_qemu(ctx, 64);
}

/* Above 896 MiB: no linear address, vaddr -1 of the class's width. */
static void check_high(struct unit_ctx *ctx, int cls)
{
	static const struct elfcore_load loads[] = {
		{ LOWMEM, 0x8000000, LOWMEM },
		{ 0x40000000, 0x1000, 0x40000000 },
	};
	struct elfcore_spec s = spec_for(cls, NULL, 0, loads, 2);
	struct parsed *p = unit_alloc(ctx, sizeof(*p));
	uint64_t none = cls == 64 ? UINT64_MAX : UINT32_MAX;

	build_parse(ctx, &s, p);
	CHECK_EQ_INT(p->phnum, 2);
	CHECK_LOAD(&p->ph[0], LOWMEM, 0x8000000, LOWMEM, none);
	CHECK_LOAD(&p->ph[1], 0x40000000, 0x1000, 0x40000000, none);
}

TEST(elf32_high_no_vaddr)
{
	check_high(ctx, 32);
}

TEST(elf64_high_no_vaddr)
{
	check_high(ctx, 64);
}

/* Just below the limit still gets a linear address. */
TEST(below_limit_vaddr)
{
	static const struct elfcore_load loads[] = {
		{ LOWMEM - 0x1000, 0x1000, LOWMEM - 0x1000 },
	};
	struct elfcore_spec s = spec_for(32, NULL, 0, loads, 1);
	struct parsed *p = unit_alloc(ctx, sizeof(*p));

	build_parse(ctx, &s, p);
	CHECK_EQ_INT(p->phnum, 1);
	CHECK_LOAD(&p->ph[0], LOWMEM - 0x1000, 0x1000, LOWMEM - 0x1000,
		   PAGE_OFFSET + LOWMEM - 0x1000);
}

/* A load across 896 MiB becomes two, offsets following the paddrs. */
static void check_split(struct unit_ctx *ctx, int cls)
{
	static const struct elfcore_load loads[] = {
		{ 0x100000, 0x3ff00000, 0x100000 },	/* 1 MiB .. 1 GiB */
		{ 0x30000000, 0x10000000, 0x50000000 },	/* moved copy */
	};
	static const struct elfcore_note note = { 0x2000000, 0x200 };
	struct elfcore_spec s = spec_for(cls, &note, 1, loads, 2);
	struct parsed *p = unit_alloc(ctx, sizeof(*p));
	uint64_t none = cls == 64 ? UINT64_MAX : UINT32_MAX;

	build_parse(ctx, &s, p);
	CHECK_EQ_U64(p->len, elfcore_size(&s));	/* worst case reached */
	CHECK_EQ_INT(p->phnum, 5);
	CHECK_NOTE(&p->ph[0], 0x2000000, 0x200);
	CHECK_LOAD(&p->ph[1], 0x100000, LOWMEM - 0x100000, 0x100000,
		   PAGE_OFFSET + 0x100000);
	CHECK_LOAD(&p->ph[2], LOWMEM, 0x40000000 - LOWMEM, LOWMEM, none);
	CHECK_LOAD(&p->ph[3], 0x30000000, LOWMEM - 0x30000000, 0x50000000,
		   PAGE_OFFSET + 0x30000000);
	CHECK_LOAD(&p->ph[4], LOWMEM, 0x40000000 - LOWMEM,
		   0x50000000 + (LOWMEM - 0x30000000), none);
}

TEST(elf32_split_896m)
{
	check_split(ctx, 32);
}

TEST(elf64_split_896m)
{
	check_split(ctx, 64);
}

/* ELF64 carries addresses above 4 GiB whole. */
TEST(elf64_above_4g)
{
	static const struct elfcore_load loads[] = {
		{ 0x100000000ull, 0x40000000, 0x100000000ull },
	};
	static const struct elfcore_note note = { 0x123456000ull, 0x400 };
	struct elfcore_spec s = spec_for(64, &note, 1, loads, 1);
	struct parsed *p = unit_alloc(ctx, sizeof(*p));

	build_parse(ctx, &s, p);
	CHECK_EQ_INT(p->phnum, 2);
	CHECK_NOTE(&p->ph[0], 0x123456000ull, 0x400);
	CHECK_LOAD(&p->ph[1], 0x100000000ull, 0x40000000, 0x100000000ull,
		   UINT64_MAX);
}

TEST(size_formula)
{
	struct elfcore_spec s = spec_for(32, two_cpus, 3, qemu_loads, 3);
	struct parsed *p = unit_alloc(ctx, sizeof(*p));

	CHECK_EQ_U64(elfcore_size(&s),
		     sizeof(Elf32_Ehdr) + (3 + 2 * 3) * sizeof(Elf32_Phdr));
	s.elf_class = 64;
	CHECK_EQ_U64(elfcore_size(&s),
		     sizeof(Elf64_Ehdr) + (3 + 2 * 3) * sizeof(Elf64_Phdr));
	/* nothing to describe: a bare header */
	s = spec_for(32, NULL, 0, NULL, 0);
	CHECK_EQ_U64(elfcore_size(&s), sizeof(Elf32_Ehdr));
	build_parse(ctx, &s, p);
	CHECK_EQ_INT(p->phnum, 0);
	CHECK_EQ_U64(p->len, sizeof(Elf32_Ehdr));
}

UNIT_MAIN("elf-core",
	  RUN(elf32_qemu),
	  RUN(elf64_qemu),
	  RUN(elf32_high_no_vaddr),
	  RUN(elf64_high_no_vaddr),
	  RUN(below_limit_vaddr),
	  RUN(elf32_split_896m),
	  RUN(elf64_split_896m),
	  RUN(elf64_above_4g),
	  RUN(size_formula))
