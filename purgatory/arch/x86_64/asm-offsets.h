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

#define PURGATORY_STACK_SIZE	8192

/* struct purgatory_params */
#define PP_REGS			8
#define PP_JUMP_BACK_ENTRY	460
#define PP_JUMP_BACK_ENTRY_HI	464
#define PP_SIZE			468

/* struct purgatory_regs */
#define REG_RAX			0
#define REG_RBX			8
#define REG_RCX			16
#define REG_RDX			24
#define REG_RSI			32
#define REG_RDI			40
#define REG_RSP			48
#define REG_RBP			56
#define REG_R8			64
#define REG_R9			72
#define REG_R10			80
#define REG_R11			88
#define REG_R12			96
#define REG_R13			104
#define REG_R14			112
#define REG_R15			120
#define REG_RIP			128

#ifndef __ASSEMBLER__

ASM_CHECK(PP_REGS, offsetof(struct purgatory_params, regs));
ASM_CHECK(PP_JUMP_BACK_ENTRY, offsetof(struct purgatory_params, jump_back_entry));
ASM_CHECK(PP_JUMP_BACK_ENTRY_HI, offsetof(struct purgatory_params, jump_back_entry_hi));
ASM_CHECK(PP_SIZE, sizeof(struct purgatory_params));

ASM_CHECK(REG_RAX, offsetof(struct purgatory_regs, rax));
ASM_CHECK(REG_RBX, offsetof(struct purgatory_regs, rbx));
ASM_CHECK(REG_RCX, offsetof(struct purgatory_regs, rcx));
ASM_CHECK(REG_RDX, offsetof(struct purgatory_regs, rdx));
ASM_CHECK(REG_RSI, offsetof(struct purgatory_regs, rsi));
ASM_CHECK(REG_RDI, offsetof(struct purgatory_regs, rdi));
ASM_CHECK(REG_RSP, offsetof(struct purgatory_regs, rsp));
ASM_CHECK(REG_RBP, offsetof(struct purgatory_regs, rbp));
ASM_CHECK(REG_R8, offsetof(struct purgatory_regs, r8));
ASM_CHECK(REG_R15, offsetof(struct purgatory_regs, r15));
ASM_CHECK(REG_RIP, offsetof(struct purgatory_regs, rip));
#endif

#endif
