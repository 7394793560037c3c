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

/* Selectors required by the Linux 32-bit boot protocol. */
#define BOOT_CS			0x10
#define BOOT_DS			0x18

#define PURGATORY_STACK_SIZE	4096

/* struct purgatory_header */
#define PH_MAGIC		16
#define PH_VERSION		20
#define PH_PARAMS_OFFSET	24
#define PH_MEMSZ		28
#define PH_STACK_TOP		32
#define PH_SIZE			48

/* struct purgatory_params */
#define PP_REGS			8
#define PP_JUMP_BACK_ENTRY	360
#define PP_SIZE			364

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
