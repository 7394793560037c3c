/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The image description handed to kexec_load: segments (user buffer ->
 * physical destination), the entry point and the load flags.  Loaders
 * build it; placement rules (page alignment, inside usable RAM, inside
 * --mem-min/--mem-max, no overlap) are enforced here and nowhere else.
 */
#ifndef KJUMP_IMAGE_H
#define KJUMP_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctx.h"
#include "memory-map.h"

#define KEXEC_MAX_SEGMENTS	16	/* KEXEC_SEGMENT_MAX in the kernel */
#define PAGE_SIZE_4K		4096u

struct image_segment {
	const char *name;	/* for messages: "kernel", "initrd", ... */
	const void *buf;
	size_t bufsz;
	uint64_t mem;		/* physical, page aligned */
	uint64_t memsz;		/* page multiple, >= bufsz */
};

struct kexec_image {
	const struct kj_ctx *ctx;	/* where its errors are reported */
	struct image_segment seg[KEXEC_MAX_SEGMENTS];
	unsigned int nr_seg;
	uint64_t entry;
	unsigned long flags;	/* KEXEC_ON_CRASH, ... (arch bits added late) */
	struct mem_map usable;	/* where segments may go (RAM only) */
	uint64_t mem_min;	/* inclusive */
	uint64_t mem_max;	/* inclusive */
	const char *no_room_hint;	/* what to tell the user when full */
	void *owned[KEXEC_MAX_SEGMENTS];	/* buffers freed with the image */
	unsigned int nr_owned;
};

void image_init(struct kexec_image *img, const struct kj_ctx *ctx,
		uint64_t mem_min, uint64_t mem_max);
void image_free(struct kexec_image *img);

/* Take ownership of a malloc'd buffer: freed by image_free(). */
int image_own(struct kexec_image *img, void *buf);

/* Copy the RAM ranges of map into img->usable. */
int image_set_usable(struct kexec_image *img, const struct mem_map *map);

/* Add a segment at a fixed address.  Reports its errors. */
int image_add_segment(struct kexec_image *img, const char *name,
		      const void *buf, size_t bufsz, uint64_t mem,
		      uint64_t memsz);

/*
 * Find room for size bytes aligned to align within [lo, hi] (inclusive),
 * clipped to usable RAM, --mem-min/--mem-max and free of segments.  The
 * lowest fit, or the highest with highest=true.  Returns 0 or -ENOSPC.
 */
int image_find_hole(const struct kexec_image *img, uint64_t size,
		    uint64_t align, uint64_t lo, uint64_t hi, bool highest,
		    uint64_t *addr);

/* find_hole + add_segment; *addr receives the address. */
int image_add_buffer(struct kexec_image *img, const char *name,
		     const void *buf, size_t bufsz, uint64_t memsz,
		     uint64_t align, uint64_t lo, uint64_t hi, bool highest,
		     uint64_t *addr);

/*
 * Claim [start, end) for a preserve-context image without loading bytes
 * there: zero-length segments over every part not already taken.  The
 * kernel then swaps those pages out and back instead of overwriting
 * them.  Page-rounds inwards.  Reports its errors.
 */
int image_fill_range(struct kexec_image *img, uint64_t start, uint64_t end);

struct image_segment *image_find_segment(struct kexec_image *img,
					 const char *name);

void image_dump(const struct kexec_image *img);

static inline uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static inline uint64_t align_down(uint64_t v, uint64_t a)
{
	return v & ~(a - 1);
}

#endif
