/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synthetic i386 ELF executables for tests: an Elf32_Ehdr, a program
 * header table and file bytes that are a function of their offset.
 * Written with explicit offsets from the System V ABI (not the tool's
 * own parser constants) so a wrong offset in the tool shows up as a
 * failing test.
 */
#ifndef KJUMP_SYNTH_ELF_H
#define KJUMP_SYNTH_ELF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SYNTH_ELF_MAX_PH	24
#define SYNTH_PT_LOAD		1
#define SYNTH_PT_NOTE		4

struct synth_phdr {
	uint32_t type, offset, vaddr, paddr, filesz, memsz, flags, align;
};

struct synth_elf {
	uint8_t magic[4];
	uint8_t class, data, idversion;
	uint16_t type, machine;
	uint32_t version, entry, phoff;
	uint16_t phentsize;		/* table stride; >= 32 */
	uint16_t phnum;			/* what the header claims */
	unsigned int nr_ph;		/* entries written */
	struct synth_phdr ph[SYNTH_ELF_MAX_PH];
	size_t len;			/* file size; 0: just enough */
	uint8_t seed;
};

/* The byte at file offset off. */
static inline uint8_t synth_elf_byte(const struct synth_elf *s, size_t off)
{
	return (uint8_t)((off * 131u + (off >> 8) * 7u + s->seed) ^ 0x5a);
}

/*
 * A vmlinux-like default: text at 16 MiB (page aligned), data + bss
 * after it starting mid-page, a PT_NOTE, entry at the start of text.
 */
static inline void synth_elf_defaults(struct synth_elf *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->magic, "\177ELF", 4);
	s->class = 1;			/* ELFCLASS32 */
	s->data = 1;			/* ELFDATA2LSB */
	s->idversion = 1;
	s->type = 2;			/* ET_EXEC */
	s->machine = 3;			/* EM_386 */
	s->version = 1;
	s->entry = 0x1000000;
	s->phoff = 52;
	s->phentsize = 32;
	s->nr_ph = 3;
	s->phnum = 3;
	s->ph[0] = (struct synth_phdr){ SYNTH_PT_LOAD, 0x1000, 0xc1000000,
		0x1000000, 0x5000, 0x5000, 5, 0x1000 };
	s->ph[1] = (struct synth_phdr){ SYNTH_PT_LOAD, 0x6234, 0xc1006234,
		0x1006234, 0x1800, 0x4000, 6, 0x1000 };
	s->ph[2] = (struct synth_phdr){ SYNTH_PT_NOTE, 0x5f00, 0xc1004f00,
		0x1004f00, 0x30, 0x30, 4, 4 };
	s->seed = 1;
}

static inline void synth_put16(uint8_t *b, size_t off, uint16_t v)
{
	b[off] = (uint8_t)v;
	b[off + 1] = (uint8_t)(v >> 8);
}

static inline void synth_put32(uint8_t *b, size_t off, uint32_t v)
{
	synth_put16(b, off, (uint16_t)v);
	synth_put16(b, off + 2, (uint16_t)(v >> 16));
}

/* The file size covering the header, the table and every PT_LOAD's bytes. */
static inline size_t synth_elf_len(const struct synth_elf *s)
{
	size_t len = (size_t)s->phoff + (size_t)s->nr_ph * s->phentsize;
	unsigned int i;

	if (len < 52)
		len = 52;
	for (i = 0; i < s->nr_ph; i++) {
		size_t end = (size_t)s->ph[i].offset + s->ph[i].filesz;

		if (s->ph[i].type == SYNTH_PT_LOAD && s->ph[i].filesz &&
		    end > len && end < (256u << 20))
			len = end;
	}
	return len;
}

/* malloc'd image, *len bytes; NULL on allocation failure. */
static inline uint8_t *synth_elf_build(const struct synth_elf *s, size_t *len)
{
	size_t n = s->len ? s->len : synth_elf_len(s), i;
	uint8_t *b = malloc(n ? n : 1);
	unsigned int k;

	if (!b)
		return NULL;
	for (i = 0; i < n; i++)
		b[i] = synth_elf_byte(s, i);
	if (n >= 52) {
		memset(b, 0, 52);
		memcpy(b, s->magic, 4);
		b[4] = s->class;
		b[5] = s->data;
		b[6] = s->idversion;
		synth_put16(b, 16, s->type);
		synth_put16(b, 18, s->machine);
		synth_put32(b, 20, s->version);
		synth_put32(b, 24, s->entry);
		synth_put32(b, 28, s->phoff);
		synth_put16(b, 40, 52);		/* e_ehsize */
		synth_put16(b, 42, s->phentsize);
		synth_put16(b, 44, s->phnum);
	}
	for (k = 0; k < s->nr_ph; k++) {
		size_t off = (size_t)s->phoff + (size_t)k * s->phentsize;
		const struct synth_phdr *p = &s->ph[k];

		if (off + 32 > n)
			break;
		synth_put32(b, off, p->type);
		synth_put32(b, off + 4, p->offset);
		synth_put32(b, off + 8, p->vaddr);
		synth_put32(b, off + 12, p->paddr);
		synth_put32(b, off + 16, p->filesz);
		synth_put32(b, off + 20, p->memsz);
		synth_put32(b, off + 24, p->flags);
		synth_put32(b, off + 28, p->align);
	}
	*len = n;
	return b;
}

#endif
