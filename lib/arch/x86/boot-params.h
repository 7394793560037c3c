/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The zero page (struct boot_params) and command line the next kernel
 * finds at %esi: one buffer, the command line right after the page.
 */
#ifndef KJUMP_BOOT_PARAMS_H
#define KJUMP_BOOT_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "bzimage.h"
#include "bzimage-header.h"
#include "ctx.h"
#include "memory-map.h"

/*
 * Room left after the command line's NUL for purgatory's
 * " kexec_jump_back_entry=0x%08x" (34 bytes with its NUL).
 */
#define BOOT_PARAMS_JUMP_SPARE	64
#define JUMP_BACK_WORD_LEN	33	/* what the append adds to strlen() */

/*
 * The setup header written when there is no bzImage to copy it from (a
 * vmlinux loaded by the ELF loader): what a kernel entered at its 32-bit
 * entry reads, and what tools reading /sys/kernel/boot_params expect.
 */
#define SYNTH_HDR_VERSION		0x0206u
#define SYNTH_HDR_CMDLINE_SIZE		2048u
#define SYNTH_HDR_INITRD_ADDR_MAX	BOOT_INITRD_ADDR_MAX_DEFAULT
#define SYNTH_HDR_LOADER_TYPE		0xffu	/* boot.rst: undefined */

struct boot_params_spec {
	/*
	 * The bzImage file and its parsed header, copied into the zero
	 * page; kernel NULL: no bzImage, synthesise a header (bi unused).
	 */
	const char *kernel;
	const struct bzimage_info *bi;
	const struct mem_map *e820;	/* the map the next kernel gets */
	const char *cmdline;
	uint64_t addr;			/* physical address of the buffer */
	uint64_t initrd_addr;		/* 0 with initrd_len 0: none */
	uint64_t initrd_len;
	const uint8_t *old_bp;		/* running kernel's boot_params or NULL */
	size_t old_bp_len;
	size_t spare;			/* bytes kept free after the NUL */
};

/*
 * A memory map of more than the zero page's 128 ranges: the rest go in a
 * struct setup_data of type SETUP_E820_EXT (boot protocol 2.09+), 8-byte
 * aligned after the command line's spare room, in the same buffer.
 */
#define SETUP_E820_EXT		1u
#define SETUP_DATA_HDR_LEN	16	/* u64 next, u32 type, u32 len */

/*
 * Bytes needed for the zero page, the command line, spare room and the
 * ranges of e820_n beyond 128.
 */
size_t boot_params_size(size_t cmdline_len, size_t spare, size_t e820_n);

/*
 * The running kernel's boot_params from /sys/kernel/boot_params/data
 * below ctx's root (readable by root only), malloc'd, or NULL.
 */
uint8_t *boot_params_read_old(const struct kj_ctx *ctx, size_t *len);

/* Fill buf (boot_params_size() bytes, zeroed).  Reports its errors. */
int boot_params_build(const struct kj_ctx *ctx,
		      const struct boot_params_spec *spec, uint8_t *buf);

/*
 * boot_params_build() with spec->old_bp taken from the running kernel
 * (video and ACPI facts), when it exports its boot_params.
 */
int boot_params_build_here(const struct kj_ctx *ctx,
			   struct boot_params_spec *spec, uint8_t *buf);

#endif
