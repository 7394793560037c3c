// SPDX-License-Identifier: GPL-2.0-only
/*
 * make-seeds DIR: write small valid binary inputs for the fuzzers into
 * DIR/bzimage (synthetic bzImages, see tests/unit/synth-bzimage.h) and
 * DIR/elf (i386 ELF executables built field by field from the System V
 * ABI) and DIR/image (a small complete hibernation image, built field by
 * field from include/kjump/hib/image-format.h, laid out as fuzz_image.c
 * reads it).  The text seeds come from tests/unit/fixtures
 * (make-corpus.sh).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kjump/hib/crc32c.h"
#include "kjump/hib/image-format.h"
#include "synth-bzimage.h"

static int put_file(const char *dir, const char *name, const void *buf,
		    size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "make-seeds: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int bzimage_seed(const char *dir, const char *name,
			void (*tweak)(struct synth_bzimage *))
{
	struct synth_bzimage s;
	uint8_t *b;
	size_t len;
	int ret;

	synth_defaults(&s);
	s.payload_len = 256;
	s.init_size = 0x1000;
	if (tweak)
		tweak(&s);
	b = synth_build(&s, &len);
	if (!b)
		return -1;
	ret = put_file(dir, name, b, len);
	free(b);
	return ret;
}

static void old_protocol(struct synth_bzimage *s)
{
	s->version = 0x0204;		/* no alignment, cmdline_size */
	s->relocatable = 0;
	s->setup_sects = 0;		/* means 4 */
	s->header_jump = 0x2a;
}

static void proto_2_00(struct synth_bzimage *s)
{
	s->version = 0x0200;
	s->setup_sects = 1;
	s->payload_len = 16;
	s->header_jump = 0x20;
}

/* A 64-bit kernel with a signed PE/COFF stub (arch_file_check). */
static void signed_64(struct synth_bzimage *s)
{
	s->xloadflags = 3;
	s->pe_signed = 1;
}

struct phdr {
	uint32_t type, offset, paddr, filesz, memsz;
};

/* Where the fields the seeds set lie, per class (System V ABI). */
struct elf_layout {
	uint8_t class;			/* ELFCLASS32 or ELFCLASS64 */
	int word;			/* bytes of an address or offset */
	size_t e_phoff, e_ehsize;	/* e_phentsize, e_phnum follow */
	size_t ehsize, phentsize;
	size_t p_flags, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz,
	       p_align;
	uint64_t vbase;			/* p_vaddr = p_paddr | vbase */
};

static const struct elf_layout elf32 = {
	1, 4, 28, 40, 52, 32, 24, 4, 8, 12, 16, 20, 28, 0xc0000000u,
};
static const struct elf_layout elf64 = {
	2, 8, 32, 52, 64, 56, 4, 8, 16, 24, 32, 40, 48, 0xffffffff00000000ull,
};

/* An ELF header, nph program headers right after it, then data. */
static int elf_seed(const char *dir, const char *name,
		    const struct elf_layout *l, uint16_t machine,
		    uint32_t entry, const struct phdr *ph, unsigned int nph,
		    size_t len)
{
	uint8_t *b = calloc(1, len);
	unsigned int i;
	int ret;

	if (!b)
		return -1;
	memcpy(b, "\177ELF", 4);
	b[4] = l->class;
	b[5] = 1;			/* ELFDATA2LSB */
	b[6] = 1;			/* EV_CURRENT */
	synth_le(b, 16, 2, 2);		/* ET_EXEC */
	synth_le(b, 18, machine, 2);
	synth_le(b, 20, 1, 4);		/* e_version */
	synth_le(b, 24, entry, l->word);
	synth_le(b, l->e_phoff, l->ehsize, l->word);
	synth_le(b, l->e_ehsize, l->ehsize, 2);
	synth_le(b, l->e_ehsize + 2, l->phentsize, 2);
	synth_le(b, l->e_ehsize + 4, nph, 2);
	for (i = 0; i < nph; i++) {
		uint8_t *o = b + l->ehsize + l->phentsize * i;

		synth_le(o, 0, ph[i].type, 4);
		synth_le(o, l->p_flags, 7, 4);			/* RWX */
		synth_le(o, l->p_offset, ph[i].offset, l->word);
		synth_le(o, l->p_vaddr, ph[i].paddr | l->vbase, l->word);
		synth_le(o, l->p_paddr, ph[i].paddr, l->word);
		synth_le(o, l->p_filesz, ph[i].filesz, l->word);
		synth_le(o, l->p_memsz, ph[i].memsz, l->word);
		synth_le(o, l->p_align, 16, l->word);
	}
	for (i = l->ehsize + l->phentsize * nph; i < len; i++)
		b[i] = (uint8_t)(i * 7);
	ret = put_file(dir, name, b, len);
	free(b);
	return ret;
}

static int elf_seeds(const char *dir)
{
	/* text, data + bss, a note, a bss-only load */
	static const struct phdr vmlinux[] = {
		{ 1, 0x100, 0x1000000, 0x100, 0x100 },
		{ 1, 0x200, 0x1001000, 0x40, 0x1000 },
		{ 4, 0x240, 0, 0x20, 0x20 },
		{ 1, 0, 0x1003000, 0, 0x2000 },
	};
	/* the same shape as ELF64, its data after the larger headers */
	static const struct phdr vmlinux64[] = {
		{ 1, 0x200, 0x1000000, 0x100, 0x100 },
		{ 1, 0x300, 0x1001000, 0x20, 0x1000 },
		{ 4, 0x300, 0, 0x20, 0x20 },
		{ 1, 0, 0x1003000, 0, 0x2000 },
	};
	static const struct phdr one[] = {
		{ 1, 0x80, 0x100000, 0x10, 0x10 },
	};

	return elf_seed(dir, "vmlinux-like", &elf32, 3, 0x1000000, vmlinux, 4,
			0x240 + 0x20) ||
	       elf_seed(dir, "em486-one-load", &elf32, 6, 0x100008, one, 1,
			0x90) ||
	       elf_seed(dir, "vmlinux64-like", &elf64, 62, 0x1000000,
			vmlinux64, 4, 0x300 + 0x20);
}

static int subdir(char *out, size_t size, const char *dir, const char *name)
{
	snprintf(out, size, "%s/%s", dir, name);
	if (mkdir(out, 0755) && errno != EEXIST) {
		fprintf(stderr, "make-seeds: %s: %s\n", out, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * A complete image of two pages (one stored, one zero), as fuzz_image.c
 * reads its input: block 0, then the image from KJH_DATA_OFF on.
 */
#define IMG_BLOCKS	7u		/* after block 0: sections ... commit */

static uint64_t img_off(unsigned int block)
{
	return KJH_DATA_OFF + (uint64_t)block * KJH_BLOCK;
}

static int image_seed(const char *dir)
{
	static uint8_t buf[KJH_BLOCK * (1 + IMG_BLOCKS)];
	uint8_t *rest = buf + KJH_BLOCK;
	struct kjh_header *h = (struct kjh_header *)buf;
	struct kjh_ram_range *ram = (struct kjh_ram_range *)rest;
	struct kjh_run *runs = (struct kjh_run *)(rest + 2 * KJH_BLOCK);
	struct kjh_chunk *ch = (struct kjh_chunk *)(rest + 3 * KJH_BLOCK);
	uint8_t *page = (uint8_t *)(ch + 1);
	struct kjh_chunk_ref *ref;
	struct kjh_commit *cm;
	unsigned int i;

	memset(buf, 0, sizeof(buf));
	ram[0] = (struct kjh_ram_range){ 0x100000, 0x1fffffff };
	for (i = 0; i < KJH_PAGE; i++)
		page[i] = (uint8_t)(i * 7);
	runs[0] = (struct kjh_run){ 0x100, 1, 0 };
	runs[1] = (struct kjh_run){ 0x101, 1, KJH_RUN_ZERO };
	ch->magic = KJH_CHUNK_MAGIC;
	ch->page_count = 1;
	ch->raw_len = ch->stored_len = KJH_PAGE;
	ch->raw_crc = ch->stored_crc = kjh_crc32c(0, page, KJH_PAGE);
	ch->header_crc = kjh_crc32c(0, ch, sizeof(*ch));
	ref = (struct kjh_chunk_ref *)(rest + 5 * KJH_BLOCK);
	*ref = (struct kjh_chunk_ref){ img_off(3), KJH_PAGE, ch->raw_crc };

	memcpy(h->magic, KJH_MAGIC, 8);
	h->version = KJH_VERSION;
	h->header_size = KJH_BLOCK;
	h->state = KJH_STATE_COMMITTED;
	snprintf(h->id.release, sizeof(h->id.release), "6.1.0-kjump");
	snprintf(h->id.version, sizeof(h->id.version), "#1 SMP");
	snprintf(h->id.machine, sizeof(h->id.machine), "i686");
	h->page_size = KJH_PAGE;
	h->kernel_word = 4;
	h->capacity = img_off(IMG_BLOCKS);
	h->ram_off = img_off(0);
	h->ram_count = 1;
	h->fs_off = img_off(1);
	h->crash_start = 0x10000000;
	h->crash_end = 0x13ffffff;
	h->swsusp_off = img_off(1);
	h->run_off = img_off(2);
	h->run_count = 2;
	h->pages = 2;
	h->data_pages = 1;
	h->zero_pages = 1;
	h->map_pages = 2;
	h->chunk_pages = 64;
	h->chunk_off = img_off(3);
	h->chunk_count = 1;
	h->index_off = img_off(5);
	h->index_crc = kjh_crc32c(0, ref, sizeof(*ref));
	h->runs_crc = kjh_crc32c(0, runs, 2 * sizeof(*runs));
	h->swsusp_crc = kjh_crc32c(0, rest + KJH_BLOCK, KJH_BLOCK);
	h->sections_crc = kjh_crc32c(0, ram, sizeof(*ram));
	h->raw_bytes = h->stored_bytes = KJH_PAGE;
	h->commit_off = img_off(6);
	h->image_bytes = img_off(IMG_BLOCKS);
	cm = (struct kjh_commit *)(rest + 6 * KJH_BLOCK);
	memcpy(cm->magic, KJH_COMMIT_MAGIC, 8);
	cm->chunk_count = 1;
	cm->image_bytes = h->image_bytes;
	cm->data_pages = 1;
	cm->index_crc = h->index_crc;
	cm->runs_crc = h->runs_crc;
	cm->swsusp_crc = h->swsusp_crc;
	cm->sections_crc = h->sections_crc;
	cm->crc = kjh_crc32c(0, cm, sizeof(*cm));
	h->header_crc = kjh_crc32c(0, h, KJH_HEADER_SEALED);
	if (put_file(dir, "committed", buf, sizeof(buf)))
		return -1;
	/* 1 << 28 runs: 16 bytes each wrapped a 32-bit size to 0 once */
	h->run_count = 1u << 28;
	h->header_crc = 0;
	h->header_crc = kjh_crc32c(0, h, KJH_HEADER_SEALED);
	return put_file(dir, "runs-wrap-32", buf, sizeof(buf));
}

int main(int argc, char **argv)
{
	char dir[4096];

	if (argc != 2) {
		fprintf(stderr, "usage: make-seeds DIR\n");
		return 2;
	}
	if (subdir(dir, sizeof(dir), argv[1], "bzimage") ||
	    bzimage_seed(dir, "proto-2.15", NULL) ||
	    bzimage_seed(dir, "proto-2.04", old_protocol) ||
	    bzimage_seed(dir, "proto-2.00", proto_2_00) ||
	    bzimage_seed(dir, "signed-64", signed_64))
		return 1;
	if (subdir(dir, sizeof(dir), argv[1], "elf") || elf_seeds(dir))
		return 1;
	if (subdir(dir, sizeof(dir), argv[1], "image") || image_seed(dir))
		return 1;
	return 0;
}
