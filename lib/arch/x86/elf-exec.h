/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An x86 ELF executable (vmlinux) as the ELF loader sees it: its physical
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

/* What a word size takes: its ELF class and machines. */
struct elf_exec_want {
	const char *name;	/* "i386": for messages */
	int elf_class;		/* 32 or 64 */
	uint16_t machine;	/* EM_386 (EM_486 too) or EM_X86_64 */
};

extern const struct elf_exec_want elf_exec_i386;
extern const struct elf_exec_want elf_exec_x86_64;

struct elf_exec_info {
	uint64_t entry;		/* e_entry, inside one of the loads */
	uint16_t machine;	/* EM_386, EM_486 or EM_X86_64 */
	unsigned int nr_loads;	/* in program header order */
	struct elf_exec_load load[ELF_EXEC_MAX_LOADS];
};

/*
 * 0 if buf is an ELF executable of the class and machine want names that
 * we can load (ET_EXEC, loads below 4 GiB, a physical entry inside one);
 * else -1 and a short reason in why.  Must be safe on arbitrary bytes
 * (bounds-checked, no UB, no allocation).
 */
int elf_exec_parse(const char *buf, size_t len,
		   const struct elf_exec_want *want,
		   struct elf_exec_info *info, char *why, size_t whylen);

#endif
