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
#include "memory-map.h"

struct boot_params_spec {
	const char *kernel;		/* the bzImage file: header source */
	const struct bzimage_info *bi;
	const struct mem_map *e820;	/* the map the next kernel gets */
	const char *cmdline;
	uint64_t addr;			/* physical address of the buffer */
	uint64_t initrd_addr;		/* 0 with initrd_len 0: none */
	uint64_t initrd_len;
	const uint8_t *old_bp;		/* running kernel's boot_params or NULL */
	size_t old_bp_len;
};

/*
 * Room after the command line for purgatory's " kexec_jump_back_entry=0x%08x"
 * (34 bytes with the NUL) in a preserve-context load.
 */
#define BOOT_PARAMS_JUMP_SPARE	64
#define JUMP_BACK_WORD_LEN	33	/* what the append adds to strlen() */

/* Bytes needed for the zero page, the command line and spare room. */
size_t boot_params_size(size_t cmdline_len, size_t spare);

/* Fill buf (boot_params_size() bytes, zeroed).  Prints its own errors. */
int boot_params_build(const struct boot_params_spec *spec, uint8_t *buf);

#endif
