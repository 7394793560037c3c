/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The contract between the kexec tool and purgatory.
 *
 * Purgatory is a flat, position-independent blob.  Its first bytes are
 * a struct purgatory_header; the tool copies the blob into a segment, fills
 * the struct purgatory_params found at header.params_offset, and makes the
 * blob's first byte the kexec entry point.  Purgatory needs no relocation
 * and reads nothing but this block.  All addresses are physical.
 *
 * The register block is the one arch-specific part: struct purgatory_regs
 * comes from purgatory/arch/<arch>/purgatory-regs.h, found through the
 * include path (-I purgatory/arch/$(PURGATORY_ARCH)), together with how
 * that arch enters purgatory and leaves it.
 *
 * Shared by 32- and 64-bit builds of the tool: fixed-width types only.
 */
#ifndef KJUMP_PURGATORY_PARAMS_H
#define KJUMP_PURGATORY_PARAMS_H

#include <stdint.h>

#include "purgatory-regs.h"

#define PURGATORY_MAGIC		0x4b4a5047u	/* "GPJK" */
#define PURGATORY_VERSION	1u
#define PURGATORY_MAX_REGIONS	16

/* purgatory_params.flags */
#define PGF_VERIFY		(1u << 0)	/* check sha256 of regions */
#define PGF_BACKUP		(1u << 1)	/* copy backup_src -> backup_dst */
#define PGF_JUMP_BACK_ENTRY	(1u << 2)	/* append kexec_jump_back_entry= */
#define PGF_SERIAL		(1u << 3)	/* progress messages on serial */

struct purgatory_header {
	uint8_t  jump[16];		/* entry: a jump over this header */
	uint32_t magic;			/* PURGATORY_MAGIC */
	uint32_t version;		/* PURGATORY_VERSION */
	uint32_t params_offset;		/* struct purgatory_params */
	uint32_t memsz;			/* bytes needed incl. bss and stack */
	uint32_t stack_top_offset;	/* default esp for the next image */
	uint32_t reserved[3];
} __attribute__((packed));

struct purgatory_region {
	uint64_t start;
	uint64_t len;
} __attribute__((packed));

struct purgatory_params {
	uint32_t magic;			/* PURGATORY_MAGIC, checked by tool */
	uint32_t flags;			/* PGF_* */
	struct purgatory_regs regs;	/* arch: purgatory-regs.h */
	uint32_t nr_regions;
	struct purgatory_region regions[PURGATORY_MAX_REGIONS];
	uint8_t  sha256[32];		/* digest over all regions in order */
	uint32_t backup_src;		/* PGF_BACKUP: source, usually 0 */
	uint32_t backup_dst;		/* PGF_BACKUP: inside the crash region */
	uint32_t backup_len;
	uint32_t cmdline_end;		/* PGF_JUMP_BACK_ENTRY: address of NUL */
	uint32_t cmdline_room;		/* bytes free after cmdline_end */
	uint16_t serial_port;		/* 0: no output at all */
	uint16_t reserved0;
	uint32_t jump_back_entry;	/* written by purgatory: 0(%esp) at entry */
	uint32_t jump_back_entry_hi;	/* its high half (x86_64 purgatory) */
} __attribute__((packed));

#endif
