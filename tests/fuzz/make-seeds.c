// SPDX-License-Identifier: GPL-2.0-only
/*
 * make-seeds DIR: write small valid binary inputs for the fuzzers into
 * DIR/bzimage (synthetic bzImages, see tests/unit/synth-bzimage.h) and
 * DIR/elf (i386 ELF executables built field by field from the System V
 * ABI).  The text seeds come from tests/unit/fixtures (make-corpus.sh).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* ELF32 little-endian: put a value of 'bytes' bytes at off. */
static void le(uint8_t *p, size_t off, uint32_t v, int bytes)
{
	int i;

	for (i = 0; i < bytes; i++)
		p[off + i] = (uint8_t)(v >> (8 * i));
}

struct phdr {
	uint32_t type, offset, paddr, filesz, memsz;
};

/* An ELF32 header, nph program headers right after it, then data. */
static int elf_seed(const char *dir, const char *name, uint16_t machine,
		    uint32_t entry, const struct phdr *ph, unsigned int nph,
		    size_t len)
{
	uint8_t *b = calloc(1, len);
	unsigned int i;
	int ret;

	if (!b)
		return -1;
	memcpy(b, "\177ELF", 4);
	b[4] = 1;			/* ELFCLASS32 */
	b[5] = 1;			/* ELFDATA2LSB */
	b[6] = 1;			/* EV_CURRENT */
	le(b, 16, 2, 2);		/* ET_EXEC */
	le(b, 18, machine, 2);
	le(b, 20, 1, 4);		/* e_version */
	le(b, 24, entry, 4);
	le(b, 28, 52, 4);		/* e_phoff */
	le(b, 40, 52, 2);		/* e_ehsize */
	le(b, 42, 32, 2);		/* e_phentsize */
	le(b, 44, nph, 2);
	for (i = 0; i < nph; i++) {
		size_t o = 52 + 32 * i;

		le(b, o, ph[i].type, 4);
		le(b, o + 4, ph[i].offset, 4);
		le(b, o + 8, ph[i].paddr | 0xc0000000u, 4);	/* vaddr */
		le(b, o + 12, ph[i].paddr, 4);
		le(b, o + 16, ph[i].filesz, 4);
		le(b, o + 20, ph[i].memsz, 4);
		le(b, o + 24, 7, 4);				/* RWX */
		le(b, o + 28, 16, 4);
	}
	for (i = 52 + 32 * nph; i < len; i++)
		b[i] = (uint8_t)(i * 7);
	ret = put_file(dir, name, b, len);
	free(b);
	return ret;
}

/* The same as ELF64 (EM_X86_64): a 64-byte header, 56-byte entries. */
static int elf64_seed(const char *dir, const char *name, uint64_t entry,
		      const struct phdr *ph, unsigned int nph, size_t len)
{
	uint8_t *b = calloc(1, len);
	unsigned int i;
	int ret;

	if (!b)
		return -1;
	memcpy(b, "\177ELF", 4);
	b[4] = 2;			/* ELFCLASS64 */
	b[5] = 1;			/* ELFDATA2LSB */
	b[6] = 1;			/* EV_CURRENT */
	le(b, 16, 2, 2);		/* ET_EXEC */
	le(b, 18, 62, 2);		/* EM_X86_64 */
	le(b, 20, 1, 4);		/* e_version */
	le(b, 24, (uint32_t)entry, 4);
	le(b, 32, 64, 4);		/* e_phoff */
	le(b, 52, 64, 2);		/* e_ehsize */
	le(b, 54, 56, 2);		/* e_phentsize */
	le(b, 56, nph, 2);
	for (i = 0; i < nph; i++) {
		size_t o = 64 + 56 * i;

		le(b, o, ph[i].type, 4);
		le(b, o + 4, 7, 4);				/* RWX */
		le(b, o + 8, ph[i].offset, 4);
		le(b, o + 16, ph[i].paddr, 4);			/* vaddr */
		le(b, o + 20, 0xffffffffu, 4);
		le(b, o + 24, ph[i].paddr, 4);
		le(b, o + 32, ph[i].filesz, 4);
		le(b, o + 40, ph[i].memsz, 4);
		le(b, o + 48, 16, 4);
	}
	for (i = 64 + 56 * nph; i < len; i++)
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

	return elf_seed(dir, "vmlinux-like", 3, 0x1000000, vmlinux, 4,
			0x240 + 0x20) ||
	       elf_seed(dir, "em486-one-load", 6, 0x100008, one, 1, 0x90) ||
	       elf64_seed(dir, "vmlinux64-like", 0x1000000, vmlinux64, 4,
			  0x300 + 0x20);
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
	return 0;
}
