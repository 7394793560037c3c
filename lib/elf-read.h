/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one ELF reader: the file header and program headers of a little
 * endian ELF32 or ELF64 file, from the System V ABI, as fixed-width
 * values whatever the class.  It reads only the caller's bytes, allocates
 * nothing and prints nothing, so it is safe on any input (a fuzz target
 * through elf_exec_parse()).  The executable loader (-t elf-x86) and the
 * /proc/vmcore reader build on it.
 */
#ifndef KJUMP_ELF_READ_H
#define KJUMP_ELF_READ_H

#include <stddef.h>
#include <stdint.h>

#define ELF_READ_EHDR_MAX	64	/* bytes of an ELF64 header */

struct elf_hdr {
	int elf_class;			/* 32 or 64 */
	uint16_t type;			/* ET_EXEC, ET_CORE, ... */
	uint16_t machine;
	uint64_t entry;
	uint64_t phoff;
	uint16_t phentsize;
	uint16_t phnum;
};

struct elf_phdr {
	uint32_t type;
	uint64_t offset;
	uint64_t vaddr;
	uint64_t paddr;
	uint64_t filesz;
	uint64_t memsz;
};

/*
 * The header at the start of buf (len bytes, at least the whole header):
 * magic, class, byte order and version checked.  Returns 0, or -1 with a
 * short reason in why ("no ELF magic", "truncated: ...", ...).
 */
int elf_read_ehdr(const void *buf, size_t len, struct elf_hdr *eh,
		  char *why, size_t whylen);

/*
 * The program header table is usable and lies within file_len bytes:
 * at least one entry, entries at least as large as the class's, no
 * extended numbering.  Returns 0 or -1 with why.
 */
int elf_check_phdrs(const struct elf_hdr *eh, uint64_t file_len, char *why,
		    size_t whylen);

/* Bytes of the program header table (elf_check_phdrs() passed). */
size_t elf_phdrs_size(const struct elf_hdr *eh);

/* Entry i of the table whose bytes start at table. */
void elf_read_phdr(const struct elf_hdr *eh, const void *table,
		   unsigned int i, struct elf_phdr *ph);

/* printf into why when there is room; returns -1 (a reject helper). */
int elf_reject(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
