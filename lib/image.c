// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "image.h"
#include "ctx.h"

void image_init(struct kexec_image *img, const struct kj_ctx *ctx,
		uint64_t mem_min, uint64_t mem_max)
{
	memset(img, 0, sizeof(*img));
	img->ctx = ctx;
	memmap_init(&img->usable);
	img->mem_min = mem_min;
	img->mem_max = mem_max;
	img->no_room_hint = "check --mem-min/--mem-max";
}

void image_free(struct kexec_image *img)
{
	unsigned int i;

	for (i = 0; i < img->nr_owned; i++)
		free(img->owned[i]);
	memmap_free(&img->usable);
	memset(img, 0, sizeof(*img));
}

int image_own(struct kexec_image *img, void *buf)
{
	if (img->nr_owned == KEXEC_MAX_SEGMENTS)
		return -ENOSPC;
	img->owned[img->nr_owned++] = buf;
	return 0;
}

int image_set_usable(struct kexec_image *img, const struct mem_map *map)
{
	size_t i;
	int ret;

	memmap_free(&img->usable);
	for (i = 0; i < map->n; i++) {
		if (map->r[i].type != MEM_RAM)
			continue;
		ret = memmap_add(&img->usable, map->r[i].start, map->r[i].end,
				 MEM_RAM);
		if (ret)
			return ret;
	}
	memmap_normalize(&img->usable);
	return img->usable.n ? 0 : -ENOENT;
}

static bool in_usable(const struct kexec_image *img, uint64_t start,
		      uint64_t end)
{
	size_t i;

	for (i = 0; i < img->usable.n; i++)
		if (start >= img->usable.r[i].start &&
		    end <= img->usable.r[i].end)
			return true;
	return false;
}

static const struct image_segment *overlapping(const struct kexec_image *img,
					       uint64_t start, uint64_t end)
{
	unsigned int i;

	for (i = 0; i < img->nr_seg; i++) {
		const struct image_segment *s = &img->seg[i];

		if (start < s->mem + s->memsz && s->mem < end)
			return s;
	}
	return NULL;
}

int image_add_segment(struct kexec_image *img, const char *name,
		      const void *buf, size_t bufsz, uint64_t mem,
		      uint64_t memsz)
{
	const struct image_segment *other;
	uint64_t end;

	memsz = align_up(memsz > bufsz ? memsz : bufsz, PAGE_SIZE_4K);
	end = mem + memsz;
	if (img->nr_seg == KEXEC_MAX_SEGMENTS) {
		kj_err(img->ctx, "%s: too many segments (the kernel takes %d)", name,
		       KEXEC_MAX_SEGMENTS);
		return -E2BIG;
	}
	if (mem & (PAGE_SIZE_4K - 1)) {
		kj_err(img->ctx, "%s: address 0x%" PRIx64 " is not page aligned", name,
		       mem);
		return -EINVAL;
	}
	if (!memsz || end < mem) {
		kj_err(img->ctx, "%s: empty or wrapping segment at 0x%" PRIx64, name, mem);
		return -EINVAL;
	}
	if (mem < img->mem_min || end - 1 > img->mem_max) {
		kj_err(img->ctx, "%s: 0x%" PRIx64 "-0x%" PRIx64
		       " is outside --mem-min/--mem-max 0x%" PRIx64 "-0x%" PRIx64,
		       name, mem, end - 1, img->mem_min, img->mem_max);
		return -ERANGE;
	}
	if (!in_usable(img, mem, end)) {
		kj_err(img->ctx, "%s: 0x%" PRIx64 "-0x%" PRIx64
		       " is not inside usable RAM", name, mem, end - 1);
		return -ERANGE;
	}
	other = overlapping(img, mem, end);
	if (other) {
		kj_err(img->ctx, "%s: 0x%" PRIx64 "-0x%" PRIx64 " overlaps %s", name, mem,
		       end - 1, other->name);
		return -EBUSY;
	}
	img->seg[img->nr_seg++] = (struct image_segment){
		.name = name, .buf = buf, .bufsz = bufsz,
		.mem = mem, .memsz = memsz,
	};
	return 0;
}

/* Try to fit [*addr, *addr + size) into [lo, hi), stepping past segments. */
static bool fit_in(const struct kexec_image *img, uint64_t lo, uint64_t hi,
		   uint64_t size, uint64_t align, bool highest, uint64_t *addr)
{
	const struct image_segment *s;
	uint64_t a;

	if (hi - lo < size)
		return false;
	if (!highest) {
		for (a = align_up(lo, align); a >= lo && a <= hi - size;) {
			s = overlapping(img, a, a + size);
			if (!s) {
				*addr = a;
				return true;
			}
			a = align_up(s->mem + s->memsz, align);
		}
		return false;
	}
	for (a = align_down(hi - size, align); a >= lo && a + size <= hi;) {
		s = overlapping(img, a, a + size);
		if (!s) {
			*addr = a;
			return true;
		}
		if (s->mem < size)
			return false;
		a = align_down(s->mem - size, align);
	}
	return false;
}

int image_find_hole(const struct kexec_image *img, uint64_t size,
		    uint64_t align, uint64_t lo, uint64_t hi, bool highest,
		    uint64_t *addr)
{
	size_t i, n = img->usable.n;
	uint64_t hend;

	if (align < PAGE_SIZE_4K)
		align = PAGE_SIZE_4K;
	size = align_up(size, PAGE_SIZE_4K);
	if (lo < img->mem_min)
		lo = img->mem_min;
	if (hi > img->mem_max)
		hi = img->mem_max;
	if (!size || hi < lo)
		return -ENOSPC;
	/* Exclusive from here on; the top byte of 2^64 is no loss. */
	hend = hi == UINT64_MAX ? hi : hi + 1;
	for (i = 0; i < n; i++) {
		const struct mem_range *r =
			&img->usable.r[highest ? n - 1 - i : i];
		uint64_t rlo = r->start > lo ? r->start : lo;
		uint64_t rhi = r->end < hend ? r->end : hend;

		if (rlo >= rhi)
			continue;
		if (fit_in(img, rlo, rhi, size, align, highest, addr))
			return 0;
	}
	return -ENOSPC;
}

/*
 * Say why nothing fits, in one line: the loader's range [lo, hi] and the
 * user's --mem-min/--mem-max do not meet, or they meet where there is no
 * usable memory, or the memory there is too small or taken.
 */
static void no_room(const struct kexec_image *img, const char *name,
		    uint64_t size, uint64_t lo, uint64_t hi)
{
	uint64_t first = img->usable.n ? img->usable.r[0].start : 0;
	uint64_t last = img->usable.n ?
			img->usable.r[img->usable.n - 1].end - 1 : 0;
	uint64_t wlo = lo > img->mem_min ? lo : img->mem_min;
	uint64_t whi = hi < img->mem_max ? hi : img->mem_max;

	if (wlo > whi)
		kj_err(img->ctx, "%s: no room for 0x%" PRIx64 " bytes: it must go in 0x%"
		       PRIx64 "-0x%" PRIx64 ", outside --mem-min/--mem-max 0x%"
		       PRIx64 "-0x%" PRIx64, name, size, lo, hi, img->mem_min,
		       img->mem_max);
	else if (!img->usable.n || wlo > last || whi < first)
		kj_err(img->ctx, "%s: no room for 0x%" PRIx64 " bytes: no usable memory in 0x%"
		       PRIx64 "-0x%" PRIx64 " (usable: 0x%" PRIx64 "-0x%" PRIx64
		       "; %s)", name, size, wlo, whi, first, last,
		       img->no_room_hint);
	else
		kj_err(img->ctx, "%s: no room for 0x%" PRIx64 " bytes in 0x%" PRIx64
		       "-0x%" PRIx64 " (%s)", name, size, wlo > first ? wlo : first,
		       whi < last ? whi : last, img->no_room_hint);
}

int image_add_buffer(struct kexec_image *img, const char *name,
		     const void *buf, size_t bufsz, uint64_t memsz,
		     uint64_t align, uint64_t lo, uint64_t hi, bool highest,
		     uint64_t *addr)
{
	uint64_t size = memsz > bufsz ? memsz : bufsz;
	int ret;

	ret = image_find_hole(img, size, align, lo, hi, highest, addr);
	if (ret) {
		no_room(img, name, size, lo, hi);
		return ret;
	}
	return image_add_segment(img, name, buf, bufsz, *addr, size);
}

static int add_fill(struct kexec_image *img, uint64_t start, uint64_t end)
{
	if (img->nr_seg == KEXEC_MAX_SEGMENTS) {
		kj_err(img->ctx, "fill: too many segments to cover 0x%" PRIx64 "-0x%"
		       PRIx64 " (the kernel takes %d; lower --mem-max or use fewer files)",
		       start, end - 1, KEXEC_MAX_SEGMENTS);
		return -E2BIG;
	}
	img->seg[img->nr_seg++] = (struct image_segment){
		.name = "fill", .mem = start, .memsz = end - start,
	};
	return 0;
}

int image_fill_range(struct kexec_image *img, uint64_t start, uint64_t end)
{
	const struct image_segment *s;

	start = align_up(start, PAGE_SIZE_4K);
	end = align_down(end, PAGE_SIZE_4K);
	while (start < end) {
		uint64_t next = end;
		unsigned int i;

		/* The first segment at or above start bounds this piece. */
		for (i = 0; i < img->nr_seg; i++) {
			s = &img->seg[i];
			if (s->mem + s->memsz > start && s->mem < next)
				next = s->mem > start ? s->mem : start;
		}
		if (next > start) {
			int ret = add_fill(img, start, next);

			if (ret)
				return ret;
			start = next;
			continue;
		}
		s = overlapping(img, start, start + PAGE_SIZE_4K);
		start = s->mem + s->memsz;
	}
	return 0;
}

struct image_segment *image_find_segment(struct kexec_image *img,
					 const char *name)
{
	unsigned int i;

	for (i = 0; i < img->nr_seg; i++)
		if (!strcmp(img->seg[i].name, name))
			return &img->seg[i];
	return NULL;
}

void image_dump(const struct kexec_image *img)
{
	unsigned int i;

	kj_dbg(img->ctx, "entry 0x%" PRIx64 ", flags 0x%lx, %u segments\n", img->entry,
	       img->flags, img->nr_seg);
	for (i = 0; i < img->nr_seg; i++) {
		const struct image_segment *s = &img->seg[i];

		kj_dbg(img->ctx, "  %-10s mem 0x%08" PRIx64 "-0x%08" PRIx64
		       " memsz 0x%" PRIx64 " bufsz 0x%zx\n", s->name, s->mem,
		       s->mem + s->memsz - 1, s->memsz, s->bufsz);
	}
}
