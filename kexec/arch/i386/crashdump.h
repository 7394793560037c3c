/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Crash loading (-p) on x86: the kernel goes into the "Crash kernel"
 * region; purgatory saves the old kernel's low memory (0-640K, which the
 * new kernel needs for itself) into a backup segment; an ELF core header
 * describes the old kernel's memory; the new kernel's memory map is cut
 * down to low memory plus the region.
 *
 * A preserve-context load (the upstream kexec jump) works the same way
 * with a window given by --mem-min/--mem-max instead of the region, with
 * the kernel's page swapping instead of a backup copy, and without the ELF
 * core header.
 */
#ifndef KJUMP_CRASHDUMP_H
#define KJUMP_CRASHDUMP_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"
#include "cmdline.h"
#include "image.h"
#include "memory-map.h"

struct crash_setup {
	bool preserve;			/* --load-preserve-context, not -p */
	struct mem_range region;	/* crash region, or the preserve window */
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
 * segments, set KEXEC_ON_CRASH and work out the new kernel's map and
 * command-line additions (crash_hand_over() applies them).  Prints its
 * own errors.
 */
int crash_prepare(const struct load_request *req, struct kexec_image *img,
		  struct crash_setup *cs);

/*
 * --load-preserve-context: the new kernel may use low memory and the RAM
 * in [max(--mem-min, 1 MiB), --mem-max] (the window), and gets that as its
 * map.  Restricts img to the window and sets KEXEC_PRESERVE_CONTEXT.
 * Prints its own errors.
 */
int preserve_prepare(const struct load_request *req, struct kexec_image *img,
		     struct crash_setup *cs);

/*
 * After crash_prepare() or preserve_prepare(): append the new kernel's
 * extra words to cl and point *e820 at its cut-down map, unless
 * --pass-memmap-cmdline carries the map as memmap= words (the kernel then
 * ignores e820 anyway).
 */
int crash_hand_over(const struct load_request *req,
		    const struct crash_setup *cs, struct cmdline *cl,
		    const struct mem_map **e820);

/*
 * Once every other segment is placed: cover the rest of low memory and of
 * the window with zero-length segments, so the kernel swaps this
 * kernel's pages there out and back instead of letting the new one
 * overwrite them.
 */
int preserve_fill(struct kexec_image *img, const struct crash_setup *cs);

#endif
