/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The hand-over of a crash or preserve-context load on x86 (arch.h steps
 * 3 and 5).  Crash loading (-p): the kernel goes into the "Crash kernel"
 * region; on i386 purgatory saves the old kernel's low memory (0-640K,
 * which the new kernel needs for itself) into a backup segment, while on
 * x86_64 that memory stays out of the dump (Linux keeps the first MiB
 * reserved); an ELF core header describes the old kernel's memory; the
 * new kernel's memory map is cut down to low memory plus the region.
 *
 * A preserve-context load (the upstream kexec jump) works the same way
 * with a window given by --mem-min/--mem-max instead of the region, with
 * the kernel's page swapping instead of a backup copy, and without the ELF
 * core header.
 */
#ifndef KJUMP_HAND_OVER_H
#define KJUMP_HAND_OVER_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"
#include "cmdline.h"
#include "image.h"
#include "memory-map.h"

/* The x86 hand-over (arch.h): everything B is told, and the map it gets. */
struct arch_hand_over {
	bool preserve;			/* --load-preserve-context, not -p */
	bool jump;			/* -p for a kexec jump: the kernel
					 * has one and --no-jump not given */
	struct mem_range region;	/* crash region, or the preserve window */
	struct mem_map map;		/* the memory map the new kernel gets */
	struct cmdline extra;		/* words for its command line */
	uint32_t backup_src;		/* old low memory ... */
	uint32_t backup_len;		/* (0: no backup, x86_64) ... */
	uint32_t backup_dst;		/* ... saved here by purgatory */
	struct mem_map low;		/* without a backup: the old RAM below
					 * 1 MiB, which the new kernel gets */
	uint64_t elfcorehdr;
};

void hand_over_init(struct arch_hand_over *cs);
void hand_over_free(struct arch_hand_over *cs);

/*
 * Restrict img to the crash region, add the backup and ELF core header
 * segments, set KEXEC_ON_CRASH and work out the new kernel's map and
 * command-line additions (arch_hand_over_prepare() hands them on).
 * Reports its errors.
 */
int crash_prepare(const struct load_request *req, struct kexec_image *img,
		  struct arch_hand_over *cs);

/*
 * --load-preserve-context: the new kernel may use low memory and the RAM
 * in [max(--mem-min, 1 MiB), --mem-max] (the window), and gets that as its
 * map.  Restricts img to the window and sets KEXEC_PRESERVE_CONTEXT.
 * Reports its errors.
 */
int preserve_prepare(const struct load_request *req, struct kexec_image *img,
		     struct arch_hand_over *cs);

/*
 * Once every other segment is placed: cover the rest of low memory and of
 * the window with zero-length segments, so the kernel swaps this
 * kernel's pages there out and back instead of letting the new one
 * overwrite them.
 */
int preserve_fill(struct kexec_image *img, const struct arch_hand_over *cs);

#endif
