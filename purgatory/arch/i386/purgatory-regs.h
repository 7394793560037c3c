/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * i386 part of the tool <-> purgatory contract (include/purgatory-params.h
 * includes it; both sides find it through -I purgatory/arch/i386): the
 * registers entry.S loads right before jumping to eip, as the Linux 32-bit
 * boot protocol wants them.  Fixed-width types only, so that 32- and
 * 64-bit builds of the tool agree on the layout (asm-offsets.h pins it).
 */
#ifndef KJUMP_PURGATORY_REGS_H
#define KJUMP_PURGATORY_REGS_H

#include <stdint.h>

struct purgatory_regs {
	uint32_t eax, ebx, ecx, edx, esi, edi, esp, ebp, eip;
} __attribute__((packed));

#endif
