/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Crash loading (-p) on x86: the kernel goes into the "Crash kernel"
 * region; purgatory saves the old kernel's low memory (0-640K, which the
 * new kernel needs for itself) into a backup segment; an ELF core header
 * describes the old kernel's memory; the new kernel's memory map is cut
 * down to low memory plus the region.
 */
#ifndef KJUMP_CRASHDUMP_H
#define KJUMP_CRASHDUMP_H

#include <stdint.h>

#include "arch.h"
#include "cmdline.h"
#include "image.h"
#include "memory-map.h"

struct crash_setup {
	struct mem_range region;	/* the reserved crash region */
	struct mem_map map;		/* the memory map the new kernel gets */
	struct cmdline extra;		/* words for its command line */
	uint32_t backup_src;		/* old low memory ... */
	uint32_t backup_len;
	uint32_t backup_dst;		/* ... saved here by purgatory */
	uint64_t elfcorehdr;
};

void crash_setup_init(struct crash_setup *cs);
void crash_setup_free(struct crash_setup *cs);

/*
 * Restrict img to the crash region, add the backup and ELF core header
 * segments and work out the new kernel's map and command-line additions.
 * Prints its own errors.
 */
int crash_prepare(const struct load_request *req, struct kexec_image *img,
		  struct crash_setup *cs);

#endif
