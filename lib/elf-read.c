// SPDX-License-Identifier: GPL-2.0-only
/*
 * ELF32/ELF64 little-endian headers (System V ABI, "ELF Header" and
 * "Program Header").  Every read is bounds-checked; sums are done in
 * 64 bits against file sizes, so 64-bit fields cannot wrap them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "elf-read.h"

#define EI_CLASS	4
#define EI_DATA		5
#define EI_VERSION	6
#define ELFCLASS32	1
#define ELFCLASS64	2
#define ELFDATA2LSB	1
#define EV_CURRENT	1
#define PN_XNUM		0xffff

/* Field offsets: [0] for ELF32, [1] for ELF64. */
static const struct {
	size_t type, machine, version, entry, phoff, phentsize, phnum, size;
} eh_off[2] = {
	{ 16, 18, 20, 24, 28, 42, 44, 52 },
	{ 16, 18, 20, 24, 32, 54, 56, 64 },
};

static const struct {
	size_t type, offset, vaddr, paddr, filesz, memsz, size;
} ph_off[2] = {
	{ 0, 4, 8, 12, 16, 20, 32 },
	{ 0, 8, 16, 24, 32, 40, 56 },
};

static uint64_t rd(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/* A word of the class: 4 bytes in ELF32, 8 in ELF64. */
static uint64_t rd_word(const unsigned char *p, int is64)
{
	return rd(p, is64 ? 8 : 4);
}

int elf_reject(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int elf_read_ehdr(const void *buf, size_t len, struct elf_hdr *eh,
		  char *why, size_t whylen)
{
	const unsigned char *b = buf;
	int is64;

	memset(eh, 0, sizeof(*eh));
	if (!b)
		return elf_reject(why, whylen, "no data");
	if (len < 4 || memcmp(b, "\177ELF", 4))
		return elf_reject(why, whylen, "no ELF magic");
	if (len <= EI_CLASS || (b[EI_CLASS] != ELFCLASS32 &&
				b[EI_CLASS] != ELFCLASS64))
		return elf_reject(why, whylen, "not ELF32 or ELF64 (class %u)",
				  len > EI_CLASS ? b[EI_CLASS] : 0);
	is64 = b[EI_CLASS] == ELFCLASS64;
	if (len < eh_off[is64].size)
		return elf_reject(why, whylen, "truncated: %zu bytes, the ELF header needs %zu",
				  len, eh_off[is64].size);
	if (b[EI_DATA] != ELFDATA2LSB)
		return elf_reject(why, whylen, "not little-endian (data %u)",
				  b[EI_DATA]);
	if (b[EI_VERSION] != EV_CURRENT ||
	    rd(b + eh_off[is64].version, 4) != EV_CURRENT)
		return elf_reject(why, whylen, "unknown ELF version");
	eh->elf_class = is64 ? 64 : 32;
	eh->type = (uint16_t)rd(b + eh_off[is64].type, 2);
	eh->machine = (uint16_t)rd(b + eh_off[is64].machine, 2);
	eh->entry = rd_word(b + eh_off[is64].entry, is64);
	eh->phoff = rd_word(b + eh_off[is64].phoff, is64);
	eh->phentsize = (uint16_t)rd(b + eh_off[is64].phentsize, 2);
	eh->phnum = (uint16_t)rd(b + eh_off[is64].phnum, 2);
	return 0;
}

int elf_check_phdrs(const struct elf_hdr *eh, uint64_t file_len, char *why,
		    size_t whylen)
{
	size_t want = ph_off[eh->elf_class == 64].size;

	if (!eh->phnum)
		return elf_reject(why, whylen, "no program headers");
	if (eh->phnum == PN_XNUM)
		return elf_reject(why, whylen, "extended program header numbering is not supported");
	if (eh->phentsize < want)
		return elf_reject(why, whylen, "program header size %u, want %zu",
				  eh->phentsize, want);
	if (eh->phoff > file_len ||
	    (uint64_t)eh->phnum * eh->phentsize > file_len - eh->phoff)
		return elf_reject(why, whylen, "program headers (%u at 0x%llx) lie outside the file",
				  eh->phnum, (unsigned long long)eh->phoff);
	return 0;
}

size_t elf_phdrs_size(const struct elf_hdr *eh)
{
	return (size_t)eh->phnum * eh->phentsize;
}

void elf_read_phdr(const struct elf_hdr *eh, const void *table,
		   unsigned int i, struct elf_phdr *ph)
{
	int is64 = eh->elf_class == 64;
	const unsigned char *p = (const unsigned char *)table +
				 (size_t)i * eh->phentsize;

	ph->type = (uint32_t)rd(p + ph_off[is64].type, 4);
	ph->offset = rd_word(p + ph_off[is64].offset, is64);
	ph->vaddr = rd_word(p + ph_off[is64].vaddr, is64);
	ph->paddr = rd_word(p + ph_off[is64].paddr, is64);
	ph->filesz = rd_word(p + ph_off[is64].filesz, is64);
	ph->memsz = rd_word(p + ph_off[is64].memsz, is64);
}
