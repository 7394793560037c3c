// SPDX-License-Identifier: GPL-2.0-only
/*
 * i386: the x86 loaders for a 32-bit kernel.  Everything in a 32-bit
 * kernel's reach lies in its lowmem, below 896 MiB, where the direct map
 * ends; purgatory enters it by the 32-bit boot protocol.
 */
#include <elf.h>

#include "arch.h"
#include "x86-arch.h"

#define KEXEC_ARCH_386		(3ul << 16)	/* uapi/linux/kexec.h */
#define I386_PAGE_OFFSET	0xc0000000ull	/* the 3G/1G split */
#define I386_LOWMEM_END		0x38000000ull	/* 896 MiB */

extern const struct arch_loader bzimage_loader;
extern const struct arch_loader elf_x86_loader;

/* Probed in this order: a bzImage first. */
const struct arch_loader *const arch_loaders[] = {
	&bzimage_loader,
	&elf_x86_loader,
	NULL,
};

unsigned long arch_kexec_flags(void)
{
	return KEXEC_ARCH_386;
}

/* The 32-bit boot protocol: %esi = boot params, the rest 0. */
static void set_regs(struct purgatory_params *p, uint64_t boot_params,
		     uint64_t entry, uint64_t stack)
{
	p->regs = (struct purgatory_regs){
		.esi = (uint32_t)boot_params, .eip = (uint32_t)entry,
		.esp = (uint32_t)stack,
	};
}

const struct x86_arch_desc x86_arch = {
	.name = "i386",
	.elf_machine = EM_386,
	.elf_want = &elf_exec_i386,
	.kernels = "32-bit (i386)",
	.other_kernel_hint = " (use a kexec built for x86_64, or -s with a 64-bit build)",
	.page_offset = I386_PAGE_OFFSET,
	.lowmem_end = I386_LOWMEM_END,
	.place_max = I386_LOWMEM_END - 1,
	.entry_max = UINT32_MAX,
	.bzimage_entry_offset = 0,
	.bzimage_xloadflags = 0,
	.low_backup = true,
	.find_page_offset = NULL,
	.set_regs = set_regs,
};
