/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ELF core header a crash (or jump) kernel reads at elfcorehdr=: no
 * data, only program headers that tell /proc/vmcore where the old
 * kernel's notes and memory are.
 */
#ifndef KJUMP_ELF_CORE_H
#define KJUMP_ELF_CORE_H

#include <stddef.h>
#include <stdint.h>

#define ELFCORE_MAX_NOTES	64

struct elfcore_note {
	uint64_t addr;		/* physical */
	uint64_t size;
};

struct elfcore_load {
	uint64_t paddr;		/* where the memory was in the old kernel */
	uint64_t size;
	uint64_t offset;	/* where its bytes are now (backup copy) */
};

struct elfcore_spec {
	int elf_class;			/* 32 or 64 */
	uint16_t machine;		/* e_machine, from the architecture */
	uint64_t page_offset;		/* kernel virtual = paddr + this */
	uint64_t lowmem_limit;		/* above: no linear address */
	const struct elfcore_note *notes;
	size_t nr_notes;
	const struct elfcore_load *loads;
	size_t nr_loads;
};

/* Worst-case size of the header for spec (loads may be split in two). */
size_t elfcore_size(const struct elfcore_spec *spec);

/* Write the header into buf (elfcore_size() bytes).  Returns its length. */
size_t elfcore_build(const struct elfcore_spec *spec, uint8_t *buf);

#endif
