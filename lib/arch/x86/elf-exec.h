/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An i386 ELF executable (vmlinux) as the ELF loader sees it: its physical
 * loads and entry point.  The parser only reads the caller's bytes; it
 * allocates nothing and prints nothing, so it is safe on any input.
 */
#ifndef KJUMP_ELF_EXEC_H
#define KJUMP_ELF_EXEC_H

#include <stddef.h>
#include <stdint.h>

#define ELF_EXEC_MAX_LOADS	16

/* One PT_LOAD with p_memsz > 0: filesz bytes of data, then zeros. */
struct elf_exec_load {
	uint64_t paddr;
	uint64_t memsz;
	const char *data;	/* inside the parsed buffer; NULL if !filesz */
	size_t filesz;		/* <= memsz */
};

struct elf_exec_info {
	uint64_t entry;		/* e_entry, inside one of the loads */
	uint16_t machine;	/* EM_386 or EM_486 */
	unsigned int nr_loads;	/* in program header order */
	struct elf_exec_load load[ELF_EXEC_MAX_LOADS];
};

/*
 * 0 if buf is an i386 ELF executable we can load (ELF32, EM_386/EM_486,
 * ET_EXEC); else -1 and a short reason in why.  Must be safe on arbitrary
 * bytes (bounds-checked, no UB, no allocation).
 */
int elf_exec_parse(const char *buf, size_t len, struct elf_exec_info *info,
		   char *why, size_t whylen);

#endif
