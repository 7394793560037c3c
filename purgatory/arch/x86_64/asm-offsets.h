/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Offsets into struct purgatory_header / struct purgatory_params for
 * entry.S, which cannot include the C header.  Every number here is
 * checked against the real structures by the _Static_asserts below,
 * which are compiled as part of purgatory.c.
 */
#ifndef PURGATORY_ASM_OFFSETS_H
#define PURGATORY_ASM_OFFSETS_H

#define ASM_PURGATORY_MAGIC	0x4b4a5047
#define ASM_PURGATORY_VERSION	1

/* Selectors required by the Linux 64-bit boot protocol (__BOOT_CS/DS). */
#define BOOT_CS			0x10
#define BOOT_DS			0x18

#define PURGATORY_STACK_SIZE	8192

/* struct purgatory_header */
#define PH_MAGIC		16
#define PH_VERSION		20
#define PH_PARAMS_OFFSET	24
#define PH_MEMSZ		28
#define PH_STACK_TOP		32
#define PH_SIZE			48

/* struct purgatory_params */
#define PP_REGS			8
#define PP_JUMP_BACK_ENTRY	460
#define PP_SIZE			464

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
#include <stddef.h>
#include "purgatory-params.h"

#define ASM_CHECK(a, b)	_Static_assert((a) == (b), #a " != " #b)

ASM_CHECK(ASM_PURGATORY_MAGIC, PURGATORY_MAGIC);
ASM_CHECK(ASM_PURGATORY_VERSION, PURGATORY_VERSION);

ASM_CHECK(PH_MAGIC, offsetof(struct purgatory_header, magic));
ASM_CHECK(PH_VERSION, offsetof(struct purgatory_header, version));
ASM_CHECK(PH_PARAMS_OFFSET, offsetof(struct purgatory_header, params_offset));
ASM_CHECK(PH_MEMSZ, offsetof(struct purgatory_header, memsz));
ASM_CHECK(PH_STACK_TOP, offsetof(struct purgatory_header, stack_top_offset));
ASM_CHECK(PH_SIZE, sizeof(struct purgatory_header));

ASM_CHECK(PP_REGS, offsetof(struct purgatory_params, regs));
ASM_CHECK(PP_JUMP_BACK_ENTRY, offsetof(struct purgatory_params, jump_back_entry));
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
