/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shared x86 layer (zero page, setup header, e820, crash map,
 * initrd and boot_params placement) and what it asks of the word-size
 * architecture beside it (lib/arch/i386/ or lib/arch/x86_64/): the
 * limits of the next kernel's address space, its ELF machine, and how
 * purgatory enters it.
 */
#ifndef KJUMP_X86_ARCH_H
#define KJUMP_X86_ARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "ctx.h"
#include "elf-exec.h"
#include "purgatory-params.h"

#define X86_MIB			0x100000ull
#define X86_LOW_MEMORY_END	0xa0000ull	/* 640K: BIOS area above */

struct x86_arch_desc {
	const char *name;		/* "i386": for messages */
	uint16_t elf_machine;		/* of the ELF core header */
	const struct elf_exec_want *elf_want;	/* what the ELF loader takes */
	/* For arch_check_running(): "x86_64" or "32-bit (i386)", and what
	 * to do instead on a kernel of the other word size. */
	const char *kernels;
	const char *other_kernel_hint;
	uint64_t page_offset;		/* kernel virtual = physical + this */
	uint64_t lowmem_end;		/* the direct map ends here */
	uint64_t place_max;		/* highest byte a segment may use */
	uint64_t entry_max;		/* highest entry purgatory can reach
					 * (arch_check_entry()) */
	/* A bzImage's entry: the protected-mode kernel's start plus this
	 * (i386: 0, the 32-bit entry; x86_64: 0x200, startup_64). */
	uint32_t bzimage_entry_offset;
	uint16_t bzimage_xloadflags;	/* the XLF_* bits a bzImage needs */
	/*
	 * i386: the crash kernel runs in the first 640K too, so purgatory
	 * saves it first (kexec_backup=) and the dump shows the copy.
	 * x86_64: Linux keeps the first MiB reserved (5.13 and later), so
	 * the crash kernel gets the RAM below 1 MiB and the dump leaves it
	 * out, as the kernel's own file loader does.
	 */
	bool low_backup;
	/* The direct map's base now (KASLR moves it); NULL: page_offset. */
	uint64_t (*find_page_offset)(const struct kj_ctx *ctx);
	/* The next kernel's registers: boot params, entry, stack. */
	void (*set_regs)(struct purgatory_params *p, uint64_t boot_params,
			 uint64_t entry, uint64_t stack);
};

/* Defined by the word-size architecture. */
extern const struct x86_arch_desc x86_arch;

/* How the ELF loader (-t elf-x86) starts the image. */
enum elf_args {
	ELF_ARGS_LINUX,		/* boot_params at %esi, through purgatory */
	ELF_ARGS_NONE,		/* straight to e_entry, no purgatory */
	ELF_ARGS_ELF,		/* ELF boot notes: refused, see kexec(8) */
};

/* The x86 options of kj_load_spec.arch_opts, parsed. */
struct arch_opts {
	enum elf_args elf_args;		/* --args-linux, --args-none, ... */
	bool pass_memmap_cmdline;	/* crash map as memmap= words */
	int elf_class;			/* 0: auto; 32 or 64: forced */
};

#endif
