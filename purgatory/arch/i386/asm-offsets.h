/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Offsets into struct purgatory_params and struct purgatory_regs for
 * entry.S, which cannot include the C header (the header's are in
 * purgatory/arch/x86/asm-header.h).  Every number here is
 * checked against the real structures by the _Static_asserts below,
 * which are compiled as part of purgatory.c.
 */
#ifndef PURGATORY_ASM_OFFSETS_H
#define PURGATORY_ASM_OFFSETS_H

#include "asm-header.h"	/* selectors, header offsets, the header macro */

#define PURGATORY_STACK_SIZE	4096

/* struct purgatory_params */
#define PP_REGS			8
#define PP_JUMP_BACK_ENTRY	360
#define PP_SIZE			368

/* struct purgatory_regs */
#define REG_EAX			0
#define REG_EBX			4
#define REG_ECX			8
#define REG_EDX			12
#define REG_ESI			16
#define REG_EDI			20
#define REG_ESP			24
#define REG_EBP			28
#define REG_EIP			32

#ifndef __ASSEMBLER__

ASM_CHECK(PP_REGS, offsetof(struct purgatory_params, regs));
ASM_CHECK(PP_JUMP_BACK_ENTRY, offsetof(struct purgatory_params, jump_back_entry));
ASM_CHECK(PP_SIZE, sizeof(struct purgatory_params));

ASM_CHECK(REG_EAX, offsetof(struct purgatory_regs, eax));
ASM_CHECK(REG_EBX, offsetof(struct purgatory_regs, ebx));
ASM_CHECK(REG_ECX, offsetof(struct purgatory_regs, ecx));
ASM_CHECK(REG_EDX, offsetof(struct purgatory_regs, edx));
ASM_CHECK(REG_ESI, offsetof(struct purgatory_regs, esi));
ASM_CHECK(REG_EDI, offsetof(struct purgatory_regs, edi));
ASM_CHECK(REG_ESP, offsetof(struct purgatory_regs, esp));
ASM_CHECK(REG_EBP, offsetof(struct purgatory_regs, ebp));
ASM_CHECK(REG_EIP, offsetof(struct purgatory_regs, eip));
#endif

#endif
