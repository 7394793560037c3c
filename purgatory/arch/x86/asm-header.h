/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What both x86 entry.S files share: the boot protocol's selectors, the
 * offsets of struct purgatory_header, and (in assembler) the macro that
 * emits the header as the blob's first bytes.  The offsets are checked
 * against the C structure by the _Static_asserts below, compiled as part
 * of purgatory.c through the arch's asm-offsets.h.
 */
#ifndef PURGATORY_ASM_HEADER_H
#define PURGATORY_ASM_HEADER_H

#define ASM_PURGATORY_MAGIC	0x4b4a5047
#define ASM_PURGATORY_VERSION	1

/* Selectors required by the Linux boot protocols (__BOOT_CS, __BOOT_DS). */
#define BOOT_CS			0x10
#define BOOT_DS			0x18

/* struct purgatory_header */
#define PH_MAGIC		16
#define PH_VERSION		20
#define PH_PARAMS_OFFSET	24
#define PH_MEMSZ		28
#define PH_STACK_TOP		32
#define PH_SIZE			48

#ifdef __ASSEMBLER__
/*
 * struct purgatory_header at purgatory_start.  The 16-byte jump area: a
 * short jump to \\entry (EB rel8), spelled as bytes so that its size
 * cannot be relaxed, padded with int3.  Offsets are link-time
 * differences, hence position independent.
 */
.macro PURGATORY_HEADER entry
	.byte	0xeb, \entry - (purgatory_start + 2)
	.org	purgatory_start + PH_MAGIC, 0xcc
	.long	ASM_PURGATORY_MAGIC
	.long	ASM_PURGATORY_VERSION
	.long	purgatory_params - purgatory_start
	.long	__purgatory_end - purgatory_start
	.long	purgatory_stack_top - purgatory_start
	.long	0, 0, 0
	.org	purgatory_start + PH_SIZE	/* header size check */
.endm
#else
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
#endif

#endif
