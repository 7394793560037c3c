// SPDX-License-Identifier: GPL-2.0-only
/*
 * Segment placement: image_add_segment()'s rules and image_find_hole()'s
 * choices, the latter also checked against a brute-force search.
 */
#include "image.h"
#include "unit.h"

#define KIB	0x400ull
#define MIB	0x100000ull

/* The RAM of a QEMU -m 512 guest, plus reserved ranges set_usable drops. */
static void qemu_map(struct unit_ctx *ctx, struct mem_map *map)
{
	memmap_init(map);
	CHECK_EQ_INT(memmap_add(map, 0x0, 0x9fc00, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(map, 0x9fc00, 0xa0000, MEM_RESERVED), 0);
	CHECK_EQ_INT(memmap_add(map, 0xf0000, 0x100000, MEM_RESERVED), 0);
	CHECK_EQ_INT(memmap_add(map, 0x100000, 0x1ffe0000, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(map, 0x1ffe0000, 0x20000000, MEM_RESERVED), 0);
	CHECK_EQ_INT(memmap_add(map, 0xfffc0000, 0x100000000, MEM_RESERVED), 0);
}

static void img_free(void *img)
{
	image_free(img);
}

/* An image over the QEMU map with the given --mem-min/--mem-max. */
static struct kexec_image *new_img(struct unit_ctx *ctx, uint64_t min,
				   uint64_t max)
{
	struct kexec_image *img = unit_alloc(ctx, sizeof(*img));
	struct mem_map map;
	int ret;

	image_init(img, unit_kj_default(), min, max);
	unit_defer(ctx, img_free, img);
	qemu_map(ctx, &map);
	ret = image_set_usable(img, &map);
	memmap_free(&map);
	CHECK_EQ_INT(ret, 0);
	return img;
}

static const char zeros[64 * 1024];

/* Add a segment quietly; returns the result, *err the message. */
static int add(struct unit_ctx *ctx, struct kexec_image *img, const char *name,
	       size_t bufsz, uint64_t mem, uint64_t memsz, const char **err)
{
	int ret;

	unit_capture_start(ctx);
	ret = image_add_segment(img, name, zeros, bufsz, mem, memsz);
	*err = unit_capture_stop(ctx);
	if (!ret)
		CHECK_NO_OUTPUT(*err);
	return ret;
}

static uint64_t hole(struct unit_ctx *ctx, struct kexec_image *img,
		     uint64_t size, uint64_t align, uint64_t lo, uint64_t hi,
		     bool highest)
{
	uint64_t addr = 0xdead;

	if (image_find_hole(img, size, align, lo, hi, highest, &addr))
		FAILF("no hole for 0x%" PRIx64 " in 0x%" PRIx64 "-0x%" PRIx64,
		      size, lo, hi);
	return addr;
}

TEST(usable_is_ram_only)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	struct kexec_image none;
	struct mem_map map;

	CHECK_EQ_INT(img->usable.n, 2);
	CHECK_EQ_U64(img->usable.r[0].end, 0x9fc00);
	CHECK_EQ_U64(img->usable.r[1].start, 0x100000);
	CHECK_EQ_U64(img->usable.r[1].end, 0x1ffe0000);
	memmap_init(&map);
	CHECK_EQ_INT(memmap_add(&map, 0x0, 0x1000, MEM_RESERVED), 0);
	image_init(&none, unit_kj_default(), 0, UINT64_MAX);
	CHECK_EQ_INT(image_set_usable(&none, &map), -ENOENT);
	image_free(&none);
	memmap_free(&map);
}

TEST(page_alignment)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	const char *err;

	CHECK_EQ_INT(add(ctx, img, "kernel", 0x1000, 0x100800, 0x1000, &err),
		     -EINVAL);
	CHECK_ERR_LINE(err, "kernel: address 0x100800 is not page aligned");
	CHECK_EQ_INT(add(ctx, img, "kernel", 0x1000, 0x100001, 0x1000, &err),
		     -EINVAL);
	CHECK_EQ_INT(img->nr_seg, 0);
	/* sizes are rounded up to pages, and memsz is at least bufsz */
	CHECK_EQ_INT(add(ctx, img, "a", 0x1001, 0x100000, 0, &err), 0);
	CHECK_EQ_U64(img->seg[0].memsz, 0x2000);
	CHECK_EQ_U64(img->seg[0].bufsz, 0x1001);
	CHECK_EQ_INT(add(ctx, img, "b", 0x10, 0x200000, 0x1800, &err), 0);
	CHECK_EQ_U64(img->seg[1].memsz, 0x2000);
	CHECK_EQ_INT(add(ctx, img, "c", 0x3000, 0x300000, 0x1000, &err), 0);
	CHECK_EQ_U64(img->seg[2].memsz, 0x3000);
}

TEST(inside_usable_ram)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	const char *err;

	/* runs past the end of low RAM (0x9fc00) */
	CHECK_EQ_INT(add(ctx, img, "x", 0x1000, 0x9f000, 0, &err), -ERANGE);
	CHECK_ERR_LINE(err, "x: 0x9f000-0x9ffff is not inside usable RAM");
	/* in the legacy hole, across it, in reserved memory, above RAM */
	CHECK_EQ_INT(add(ctx, img, "x", 0x1000, 0xa0000, 0, &err), -ERANGE);
	CHECK_EQ_INT(add(ctx, img, "x", 0x1000, 0x9e000, 0x70000, &err),
		     -ERANGE);
	CHECK_EQ_INT(add(ctx, img, "x", 0x1000, 0x1ffe0000, 0, &err), -ERANGE);
	CHECK_EQ_INT(add(ctx, img, "x", 0x1000, 0x1ffdf000, 0x2000, &err),
		     -ERANGE);
	CHECK_EQ_INT(add(ctx, img, "x", 0x1000, 0x100000000ull, 0, &err),
		     -ERANGE);
	CHECK_EQ_INT(img->nr_seg, 0);
	/* first and last pages of RAM are fine */
	CHECK_EQ_INT(add(ctx, img, "lo", 0x1000, 0x0, 0, &err), 0);
	CHECK_EQ_INT(add(ctx, img, "hi", 0x1000, 0x1ffdf000, 0, &err), 0);
	CHECK_EQ_INT(add(ctx, img, "mid", 0x1000, 0x9e000, 0, &err), 0);
}

/* Touching RAM ranges are one: a segment may straddle the seam. */
TEST(touching_ram_merged)
{
	struct kexec_image *img = unit_alloc(ctx, sizeof(*img));
	struct mem_map map;
	const char *err;

	image_init(img, unit_kj_default(), 0, UINT64_MAX);
	unit_defer(ctx, img_free, img);
	memmap_init(&map);
	CHECK_EQ_INT(memmap_add(&map, 0x200000, 0x300000, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(&map, 0x100000, 0x200000, MEM_RAM), 0);
	CHECK_EQ_INT(image_set_usable(img, &map), 0);
	memmap_free(&map);
	CHECK_EQ_INT(img->usable.n, 1);
	CHECK_EQ_INT(add(ctx, img, "x", 0x2000, 0x1ff000, 0, &err), 0);
}

TEST(mem_min_max)
{
	struct kexec_image *img = new_img(ctx, 0x200000, 0x2fffff);
	const char *err;

	CHECK_EQ_INT(add(ctx, img, "k", 0x1000, 0x1ff000, 0, &err), -ERANGE);
	CHECK_ERR_LINE(err, "k: 0x1ff000-0x1fffff is outside --mem-min/--mem-max");
	CHECK_EQ_INT(add(ctx, img, "k", 0x1000, 0x2ff000, 0x2000, &err),
		     -ERANGE);
	CHECK_EQ_INT(add(ctx, img, "k", 0x1000, 0x300000, 0, &err), -ERANGE);
	/* both limits are inclusive */
	CHECK_EQ_INT(add(ctx, img, "a", 0x1000, 0x200000, 0, &err), 0);
	CHECK_EQ_INT(add(ctx, img, "b", 0x1000, 0x2ff000, 0, &err), 0);
}

TEST(overlap)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	const char *err;

	CHECK_EQ_INT(add(ctx, img, "kernel", 0x1000, 0x1000000, 0x400000,
			 &err), 0);
	CHECK_EQ_INT(add(ctx, img, "initrd", 0x1000, 0x13ff000, 0x2000, &err),
		     -EBUSY);
	CHECK_ERR_LINE(err, "initrd: 0x13ff000-0x1400fff overlaps kernel");
	CHECK_EQ_INT(add(ctx, img, "x", 0x1000, 0xfff000, 0x2000, &err),
		     -EBUSY);
	CHECK_EQ_INT(add(ctx, img, "x", 0x1000, 0x1100000, 0, &err), -EBUSY);
	CHECK_EQ_INT(add(ctx, img, "x", 0x1000, 0x800000, 0x1000000, &err),
		     -EBUSY);
	CHECK_EQ_INT(img->nr_seg, 1);
	/* right before and right after are fine */
	CHECK_EQ_INT(add(ctx, img, "a", 0x1000, 0xfff000, 0, &err), 0);
	CHECK_EQ_INT(add(ctx, img, "b", 0x1000, 0x1400000, 0, &err), 0);
}

TEST(segment_limit)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	const char *err;
	int i;

	for (i = 0; i < KEXEC_MAX_SEGMENTS; i++)
		CHECK_EQ_INT(add(ctx, img, "s", 0x1000, 0x100000 + i * 0x2000,
				 0, &err), 0);
	CHECK_EQ_INT(add(ctx, img, "s17", 0x1000, 0x800000, 0, &err), -E2BIG);
	CHECK_ERR_LINE(err, "s17: too many segments");
	CHECK_EQ_INT(img->nr_seg, KEXEC_MAX_SEGMENTS);
}

TEST(empty_and_wrapping)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	const char *err;

	CHECK_EQ_INT(add(ctx, img, "e", 0, 0x100000, 0, &err), -EINVAL);
	CHECK_ERR_LINE(err, "e: empty or wrapping segment");
	CHECK_EQ_INT(add(ctx, img, "w", 0x1000, 0xfffffffffffff000ull,
			 0x2000, &err), -EINVAL);
	CHECK_EQ_INT(img->nr_seg, 0);
}

TEST(lowest_and_highest)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);

	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, 0, UINT64_MAX, false), 0x0);
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, MIB, UINT64_MAX, false), MIB);
	CHECK_EQ_U64(hole(ctx, img, 0x3000, 0, 0, UINT64_MAX, true),
		     0x1ffdd000);
	/* sizes count in whole pages */
	CHECK_EQ_U64(hole(ctx, img, 0x2001, 0, 0, UINT64_MAX, true),
		     0x1ffdd000);
	/* too big for low RAM: the lowest fit is above 1 MiB */
	CHECK_EQ_U64(hole(ctx, img, 0xa0000, 0, 0, UINT64_MAX, false), MIB);
	/* the top of low RAM is not page aligned */
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, 0, 0xfffff, true), 0x9e000);
}

TEST(alignment_above_page)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);

	CHECK_EQ_U64(hole(ctx, img, 0x1000, 2 * MIB, MIB, UINT64_MAX, false),
		     2 * MIB);
	CHECK_EQ_U64(hole(ctx, img, 0x300000, 2 * MIB, 0, UINT64_MAX, true),
		     0x1fc00000);
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 16 * MIB, 0x1000001, UINT64_MAX,
			  false), 32 * MIB);
	/* below a page means a page */
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 16, 0x1001, UINT64_MAX, false),
		     0x2000);
}

TEST(holes_between_segments)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	const char *err;

	CHECK_EQ_INT(add(ctx, img, "a", 0x1000, 0x100000, 0x100000, &err), 0);
	CHECK_EQ_INT(add(ctx, img, "b", 0x1000, 0x300000, 0x100000, &err), 0);
	/* the gap fits exactly, one page more does not */
	CHECK_EQ_U64(hole(ctx, img, 0x100000, 0, MIB, UINT64_MAX, false),
		     0x200000);
	CHECK_EQ_U64(hole(ctx, img, 0x101000, 0, MIB, UINT64_MAX, false),
		     0x400000);
	/* from the top, stepping below segments */
	CHECK_EQ_INT(add(ctx, img, "c", 0x1000, 0x1fe00000, 0x100000, &err),
		     0);
	CHECK_EQ_INT(add(ctx, img, "d", 0x1000, 0x1ff10000, 0xd0000, &err),
		     0);
	CHECK_EQ_U64(hole(ctx, img, 0x10000, 0, 0, UINT64_MAX, true),
		     0x1ff00000);
	CHECK_EQ_U64(hole(ctx, img, 0x11000, 0, 0, UINT64_MAX, true),
		     0x1fdef000);
	/* a found hole can always be taken */
	CHECK_EQ_INT(add(ctx, img, "e", 0x1000, hole(ctx, img, 0x11000, 0, 0,
			 UINT64_MAX, true), 0x11000, &err), 0);
}

/* The top range full: the highest fit is in the range below. */
TEST(highest_falls_to_lower_range)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	const char *err;

	CHECK_EQ_INT(add(ctx, img, "all", 0x1000, 0x100000, 0x1fee0000,
			 &err), 0);
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, 0, UINT64_MAX, true), 0x9e000);
}

TEST(clipping)
{
	struct kexec_image *img = new_img(ctx, 0x300000, 0x4fffff);

	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, 0, UINT64_MAX, false),
		     0x300000);
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, 0, UINT64_MAX, true), 0x4ff000);
	CHECK_EQ_U64(hole(ctx, img, 0x200000, 0, 0, UINT64_MAX, true),
		     0x300000);
	/* lo/hi and --mem-min/--mem-max: the tighter one wins */
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, 0x380000, 0x3fffff, false),
		     0x380000);
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, 0x380000, 0x3fffff, true),
		     0x3ff000);
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, 0x380000, 0x3fffff, true),
		     0x3ff000);
	img = new_img(ctx, 0, UINT64_MAX);
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, 0x5000, 0x8fff, true), 0x8000);
	CHECK_EQ_U64(hole(ctx, img, 0x1000, 0, 0x5000, 0x8fff, false), 0x5000);
}

TEST(no_space)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	uint64_t addr = 0x1234;
	const char *err;

	/* bigger than any RAM range */
	CHECK_EQ_INT(image_find_hole(img, 0x1ffe0000, 0, 0, UINT64_MAX, false,
				     &addr), -ENOSPC);
	CHECK_EQ_INT(image_find_hole(img, 0x1ffe0000, 0, 0, UINT64_MAX, true,
				     &addr), -ENOSPC);
	/* hi below lo; nothing in the window; zero bytes; too aligned */
	CHECK_EQ_INT(image_find_hole(img, 0x1000, 0, 0x200000, 0x1fffff, false,
				     &addr), -ENOSPC);
	CHECK_EQ_INT(image_find_hole(img, 0x1000, 0, 0xa0000, 0xfffff, false,
				     &addr), -ENOSPC);
	CHECK_EQ_INT(image_find_hole(img, 0x1000, 0, 0x20000000, UINT64_MAX,
				     true, &addr), -ENOSPC);
	CHECK_EQ_INT(image_find_hole(img, 0, 0, 0, UINT64_MAX, false, &addr),
		     -ENOSPC);
	CHECK_EQ_INT(image_find_hole(img, 0x1000, 1ull << 30, 1, UINT64_MAX,
				     false, &addr), -ENOSPC);
	/* a window exactly one page too small */
	CHECK_EQ_INT(image_find_hole(img, 0x2000, 0, 0x100000, 0x100fff, true,
				     &addr), -ENOSPC);
	CHECK_EQ_U64(addr, 0x1234);
	/* image_add_buffer says why, in one line */
	unit_capture_start(ctx);
	CHECK_EQ_INT(image_add_buffer(img, "initrd", zeros, 0x1000, 0x20000000,
				      0, 0, UINT64_MAX, true, &addr), -ENOSPC);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "initrd: no room for 0x20000000 bytes");
	CHECK_EQ_INT(img->nr_seg, 0);
}

TEST(add_buffer_and_find)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	struct image_segment *s;
	uint64_t addr = 0;

	unit_capture_start(ctx);
	CHECK_EQ_INT(image_add_buffer(img, "bootparams", zeros, 0x1100, 0x1100,
				      0x1000, MIB, 0x37ffffff, true, &addr), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK_EQ_U64(addr, 0x1ffde000);
	s = image_find_segment(img, "bootparams");
	CHECK(s != NULL);
	CHECK_EQ_U64(s->mem, addr);
	CHECK_EQ_U64(s->memsz, 0x2000);
	CHECK_EQ_U64(s->bufsz, 0x1100);
	CHECK(s->buf == zeros);
	CHECK(image_find_segment(img, "kernel") == NULL);
}

TEST(own_limit)
{
	struct kexec_image *img = new_img(ctx, 0, UINT64_MAX);
	void *p;
	int i;

	for (i = 0; i < KEXEC_MAX_SEGMENTS; i++) {
		p = malloc(16);
		CHECK(p != NULL);
		CHECK_EQ_INT(image_own(img, p), 0);
	}
	p = malloc(16);
	CHECK(p != NULL);
	unit_defer(ctx, free, p);
	CHECK_EQ_INT(image_own(img, p), -ENOSPC);
}

/* --------------------------------------------------- brute force check */

static uint32_t rnd(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static bool fits(const struct kexec_image *img, uint64_t a, uint64_t size)
{
	unsigned int i;
	size_t r;

	for (i = 0; i < img->nr_seg; i++)
		if (a < img->seg[i].mem + img->seg[i].memsz &&
		    img->seg[i].mem < a + size)
			return false;
	for (r = 0; r < img->usable.n; r++)
		if (a >= img->usable.r[r].start &&
		    a + size <= img->usable.r[r].end)
			return true;
	return false;
}

/* Every aligned address in [lo, hi]: the lowest or highest that fits. */
static int brute(const struct kexec_image *img, uint64_t size, uint64_t align,
		 uint64_t lo, uint64_t hi, bool highest, uint64_t *addr)
{
	uint64_t a, first, last;

	size = align_up(size, PAGE_SIZE_4K);
	if (lo < img->mem_min)
		lo = img->mem_min;
	if (hi > img->mem_max)
		hi = img->mem_max;
	/* nothing fits above RAM; this also keeps hi + 1 from wrapping */
	if (hi >= img->usable.r[img->usable.n - 1].end)
		hi = img->usable.r[img->usable.n - 1].end - 1;
	if (hi < lo || hi - lo + 1 < size)
		return -ENOSPC;
	first = align_up(lo, align);
	last = align_down(hi + 1 - size, align);
	for (a = first; a <= last && a >= first; a += align) {
		uint64_t c = highest ? last - (a - first) : a;

		if (fits(img, c, size)) {
			*addr = c;
			return 0;
		}
	}
	return -ENOSPC;
}

/*
 * A scaled-down machine (RAM with holes, 16 MiB), random segments, and
 * for each random request image_find_hole must give what exhaustive
 * search gives.
 */
TEST(matches_brute_force)
{
	static const uint64_t aligns[] = { 0x1000, 0x2000, 0x10000, MIB };
	struct kexec_image *img = unit_alloc(ctx, sizeof(*img));
	struct mem_map map;
	uint32_t x = 0x1badb002;
	int round, i;

	memmap_init(&map);
	CHECK_EQ_INT(memmap_add(&map, 0x1000, 0x9fc00, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(&map, 0x100000, 0x800000, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(&map, 0x900000, 0x1000000, MEM_RAM), 0);
	for (round = 0; round < 40; round++) {
		image_init(img, unit_kj_default(),
			   (rnd(&x) % 4) ? 0 : (rnd(&x) % 0x400) * 0x1000,
			   (rnd(&x) % 4) ? UINT64_MAX :
					   0x800000 + rnd(&x) % 0x800000);
		CHECK_EQ_INT(image_set_usable(img, &map), 0);
		for (i = 0; i < 12; i++) {
			uint64_t size = (rnd(&x) % 0x300) * 0x800 + 1;
			uint64_t align = aligns[rnd(&x) % 4];
			uint64_t lo = (rnd(&x) % 2) ? 0 : rnd(&x) % 0x1000000;
			uint64_t hi = (rnd(&x) % 2) ? UINT64_MAX :
						      lo + rnd(&x) % 0x1000000;
			bool highest = rnd(&x) % 2;
			uint64_t got = 1, want = 1;
			int rg, rw;

			rg = image_find_hole(img, size, align, lo, hi, highest,
					     &got);
			rw = brute(img, size, align, lo, hi, highest, &want);
			if (rg != rw || (!rg && got != want)) {
				image_free(img);
				memmap_free(&map);
				FAILF("round %d: size 0x%" PRIx64 " align 0x%"
				      PRIx64 " in 0x%" PRIx64 "-0x%" PRIx64
				      " %s: got %d/0x%" PRIx64 ", want %d/0x%"
				      PRIx64, round, size, align, lo, hi,
				      highest ? "highest" : "lowest", rg, got,
				      rw, want);
			}
			if (!rg && rnd(&x) % 2)
				img->seg[img->nr_seg++] =
					(struct image_segment){
						.name = "r", .mem = got,
						.memsz = align_up(size,
							PAGE_SIZE_4K) };
			if (img->nr_seg == KEXEC_MAX_SEGMENTS)
				break;
		}
		image_free(img);
	}
	memmap_free(&map);
}

UNIT_MAIN("image",
	RUN(usable_is_ram_only), RUN(page_alignment), RUN(inside_usable_ram),
	RUN(touching_ram_merged), RUN(mem_min_max), RUN(overlap),
	RUN(segment_limit), RUN(empty_and_wrapping), RUN(lowest_and_highest),
	RUN(alignment_above_page), RUN(holes_between_segments),
	RUN(highest_falls_to_lower_range), RUN(clipping), RUN(no_space),
	RUN(add_buffer_and_find), RUN(own_limit), RUN(matches_brute_force))
