// SPDX-License-Identifier: GPL-2.0-only
/*
 * boot_params_build(): the zero page and command line for a synthetic
 * bzImage, checked at the offsets of Documentation/x86/zero-page.rst
 * (written out here, not taken from the tool's headers).
 */
#include "boot-params.h"
#include "bzimage.h"
#include "synth-bzimage.h"
#include "unit.h"

#define ZP_EXT_MEM_K		0x002
#define ZP_VIDEO_MODE		0x006
#define ZP_VIDEO_COLS		0x007
#define ZP_VIDEO_LINES		0x00e
#define ZP_CL_MAGIC		0x020
#define ZP_CL_OFFSET		0x022
#define ZP_APM_BIOS_INFO	0x040
#define ZP_ACPI_RSDP		0x070
#define ZP_ALT_MEM_K		0x1e0
#define ZP_E820_ENTRIES		0x1e8
#define ZP_TYPE_OF_LOADER	0x210
#define ZP_RAMDISK_IMAGE	0x218
#define ZP_RAMDISK_SIZE		0x21c
#define ZP_CMD_LINE_PTR		0x228
#define ZP_HARDWARE_SUBARCH	0x23c
#define ZP_E820_TABLE		0x2d0

static uint64_t le(const uint8_t *p, size_t off, int bytes)
{
	uint64_t v = 0;
	int i;

	for (i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[off + i];
	return v;
}

struct fixture {
	struct synth_bzimage s;
	uint8_t *kernel;
	size_t kernel_len;
	struct bzimage_info bi;
	struct mem_map map;
	struct boot_params_spec spec;
	uint8_t *bp;
};

static void map_free(void *map)
{
	memmap_free(map);
}

/* A synthetic kernel, the QEMU -m 512 map and a spec using both. */
static struct fixture *setup(struct unit_ctx *ctx, const char *cmdline)
{
	struct fixture *f = unit_alloc(ctx, sizeof(*f));
	char why[160];

	synth_defaults(&f->s);
	f->kernel = synth_build(&f->s, &f->kernel_len);
	CHECK(f->kernel != NULL);
	unit_defer(ctx, free, f->kernel);
	if (bzimage_parse((char *)f->kernel, f->kernel_len, &f->bi, why,
			  sizeof(why)))
		FAILF("synthetic image rejected: %s", why);
	memmap_init(&f->map);
	unit_defer(ctx, map_free, &f->map);
	CHECK_EQ_INT(memmap_add(&f->map, 0x0, 0x9fc00, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(&f->map, 0x9fc00, 0xa0000, MEM_RESERVED), 0);
	CHECK_EQ_INT(memmap_add(&f->map, 0xf0000, 0x100000, MEM_RESERVED), 0);
	CHECK_EQ_INT(memmap_add(&f->map, 0x100000, 0x1ffe0000, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(&f->map, 0x1ffe0000, 0x20000000, MEM_RESERVED),
		     0);
	CHECK_EQ_INT(memmap_add(&f->map, 0xfffc0000, 0x100000000, MEM_RESERVED),
		     0);
	f->spec = (struct boot_params_spec){
		.kernel = (const char *)f->kernel, .bi = &f->bi,
		.e820 = &f->map, .cmdline = cmdline, .addr = 0x1ffd0000,
		.initrd_addr = 0x1f000000, .initrd_len = 0x123456,
	};
	f->bp = unit_alloc(ctx, boot_params_size(strlen(cmdline), 0, 200));
	return f;
}

/* Build quietly, expecting success. */
static void build_ok(struct unit_ctx *ctx, struct fixture *f)
{
	unit_capture_start(ctx);
	CHECK_EQ_INT(boot_params_build(unit_kj_default(), &f->spec, f->bp), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
}

TEST(size)
{
	CHECK_EQ_U64(boot_params_size(0, 0, 6), 0x1001);
	CHECK_EQ_U64(boot_params_size(100, 0, 128), 0x1000 + 101);
	CHECK_EQ_U64(boot_params_size(100, 28, 1), 0x1000 + 129);
	/* 0x1000 + 129 aligned to 8, a 16-byte header, 2 more ranges */
	CHECK_EQ_U64(boot_params_size(100, 28, 130), 0x1088 + 16 + 40);
}

TEST(e820)
{
	struct fixture *f = setup(ctx, "");
	size_t i;

	build_ok(ctx, f);
	CHECK_EQ_U64(f->bp[ZP_E820_ENTRIES], 6);
	for (i = 0; i < f->map.n; i++) {
		const uint8_t *e = f->bp + ZP_E820_TABLE + 20 * i;

		CHECK_EQ_U64(le(e, 0, 8), f->map.r[i].start);
		CHECK_EQ_U64(le(e, 8, 8), f->map.r[i].end - f->map.r[i].start);
		CHECK_EQ_U64(le(e, 16, 4), f->map.r[i].type);
	}
	/* spot checks against the literal QEMU map */
	CHECK_EQ_U64(le(f->bp, ZP_E820_TABLE + 3 * 20, 8), 0x100000);
	CHECK_EQ_U64(le(f->bp, ZP_E820_TABLE + 3 * 20 + 8, 8), 0x1fee0000);
	CHECK_EQ_U64(le(f->bp, ZP_E820_TABLE + 5 * 20 + 8, 8), 0x40000);
	CHECK_EQ_U64(le(f->bp, ZP_E820_TABLE + 5 * 20 + 16, 4), 2);
	/* nothing after the last entry */
	CHECK_EQ_U64(le(f->bp, ZP_E820_TABLE + 6 * 20, 8), 0);
}

TEST(cmdline)
{
	static const char text[] = "root=/dev/vda console=ttyS0 quiet";
	struct fixture *f = setup(ctx, text);

	build_ok(ctx, f);
	CHECK_EQ_U64(le(f->bp, ZP_CMD_LINE_PTR, 4), 0x1ffd0000 + 0x1000);
	CHECK_STR((char *)f->bp + 0x1000, text);
	CHECK_EQ_U64(f->bp[0x1000 + sizeof(text) - 1], 0);
	/* the old protocol's pointer says the same */
	CHECK_EQ_U64(le(f->bp, ZP_CL_MAGIC, 2), 0xa33f);
	CHECK_EQ_U64(le(f->bp, ZP_CL_OFFSET, 2), 0x1000);
}

TEST(empty_cmdline)
{
	struct fixture *f = setup(ctx, "");

	build_ok(ctx, f);
	CHECK_EQ_U64(le(f->bp, ZP_CMD_LINE_PTR, 4), 0x1ffd1000);
	CHECK_EQ_U64(f->bp[0x1000], 0);
}

TEST(initrd)
{
	struct fixture *f = setup(ctx, "");

	build_ok(ctx, f);
	CHECK_EQ_U64(le(f->bp, ZP_RAMDISK_IMAGE, 4), 0x1f000000);
	CHECK_EQ_U64(le(f->bp, ZP_RAMDISK_SIZE, 4), 0x123456);
	f->spec.initrd_addr = 0;
	f->spec.initrd_len = 0;
	memset(f->bp, 0, 0x1001);
	build_ok(ctx, f);
	CHECK_EQ_U64(le(f->bp, ZP_RAMDISK_IMAGE, 4), 0);
	CHECK_EQ_U64(le(f->bp, ZP_RAMDISK_SIZE, 4), 0);
}

TEST(loader_fields)
{
	struct fixture *f = setup(ctx, "");

	build_ok(ctx, f);
	CHECK_EQ_U64(f->bp[ZP_TYPE_OF_LOADER], 0xd0);
	CHECK(f->bp[0x211] & 0x01);		/* LOADED_HIGH */
	/* the kernel's own setup header is carried over */
	CHECK_EQ_U64(le(f->bp, 0x202, 4), 0x53726448);
	CHECK_EQ_U64(le(f->bp, 0x206, 2), 0x020f);
	CHECK_EQ_U64(f->bp[0x1f1], 6);
	CHECK_EQ_U64(le(f->bp, 0x1fe, 2), 0xaa55);
	CHECK_EQ_U64(le(f->bp, 0x238, 4), 2047);
	CHECK_EQ_U64(le(f->bp, 0x260, 4), 0x40000);
}

/* No bzImage (a vmlinux): a protocol 2.06 header is made up. */
TEST(synthesised_header)
{
	struct fixture *f = setup(ctx, "console=ttyS0");

	f->spec.kernel = NULL;
	f->spec.bi = NULL;
	f->bp = unit_alloc(ctx, boot_params_size(13, BOOT_PARAMS_JUMP_SPARE, 6));
	build_ok(ctx, f);
	CHECK_EQ_U64(le(f->bp, 0x1fe, 2), 0xaa55);
	CHECK_EQ_U64(le(f->bp, 0x202, 4), 0x53726448);
	CHECK_EQ_U64(le(f->bp, 0x206, 2), 0x0206);
	CHECK_EQ_U64(f->bp[ZP_TYPE_OF_LOADER], 0xff);
	CHECK(f->bp[0x211] & 0x01);		/* LOADED_HIGH */
	CHECK_EQ_U64(le(f->bp, 0x22c, 4), 0x37ffffff);
	CHECK_EQ_U64(le(f->bp, 0x238, 4), 2048);
	/* nothing of a setup area that is not there */
	CHECK_EQ_U64(f->bp[0x1f1], 0);
	CHECK_EQ_U64(le(f->bp, 0x214, 4), 0);	/* code32_start */
	CHECK_EQ_U64(le(f->bp, 0x230, 4), 0);	/* kernel_alignment */
	/* the rest as for a bzImage */
	CHECK_EQ_U64(le(f->bp, ZP_CMD_LINE_PTR, 4), 0x1ffd1000);
	CHECK_STR((char *)f->bp + 0x1000, "console=ttyS0");
	CHECK_EQ_U64(le(f->bp, ZP_RAMDISK_IMAGE, 4), 0x1f000000);
	CHECK_EQ_U64(le(f->bp, ZP_RAMDISK_SIZE, 4), 0x123456);
	CHECK_EQ_U64(f->bp[ZP_E820_ENTRIES], 6);
	CHECK_EQ_U64(le(f->bp, ZP_CL_MAGIC, 2), 0xa33f);
	/* the spare room after the NUL stays zero for purgatory */
	CHECK_EQ_U64(boot_params_size(13, BOOT_PARAMS_JUMP_SPARE, 6),
		     0x1000 + 14 + BOOT_PARAMS_JUMP_SPARE);
	CHECK(BOOT_PARAMS_JUMP_SPARE >= sizeof(" kexec_jump_back_entry=0x12345678"));
}

/* Only the header the kernel declares is copied, and setup_data is 0. */
TEST(header_extent)
{
	struct fixture *f = setup(ctx, "");
	char why[160];

	f->s.setup_data = 0x12345678;
	f->s.header_jump = 0x4e;		/* header ends at 0x250 */
	f->kernel = synth_build(&f->s, &f->kernel_len);
	CHECK(f->kernel != NULL);
	unit_defer(ctx, free, f->kernel);
	CHECK_EQ_INT(bzimage_parse((char *)f->kernel, f->kernel_len, &f->bi,
				   why, sizeof(why)), 0);
	f->spec.kernel = (const char *)f->kernel;
	build_ok(ctx, f);
	CHECK_EQ_U64(le(f->bp, 0x24c, 4), 0);
	CHECK_EQ_U64(le(f->bp, 0x250, 8), 0);
	CHECK_EQ_U64(le(f->bp, 0x258, 8), 0);	/* pref_address not copied */
	CHECK_EQ_U64(le(f->bp, 0x238, 4), 2047);	/* cmdline_size is */
	/* a full header: setup_data is there, and cleared */
	f->s.header_jump = 0x66;
	f->kernel = synth_build(&f->s, &f->kernel_len);
	CHECK(f->kernel != NULL);
	unit_defer(ctx, free, f->kernel);
	CHECK_EQ_INT(bzimage_parse((char *)f->kernel, f->kernel_len, &f->bi,
				   why, sizeof(why)), 0);
	f->spec.kernel = (const char *)f->kernel;
	memset(f->bp, 0, 0x1001);
	build_ok(ctx, f);
	CHECK_EQ_U64(le(f->bp, 0x258, 8), 0x1000000);
	CHECK_EQ_U64(le(f->bp, 0x250, 8), 0);
}

TEST(mem_k)
{
	struct fixture *f = setup(ctx, "");

	build_ok(ctx, f);
	/* RAM from 1 MiB to 0x1ffe0000 */
	CHECK_EQ_U64(le(f->bp, ZP_ALT_MEM_K, 4), (0x1ffe0000 - 0x100000) >> 10);
	CHECK_EQ_U64(le(f->bp, ZP_EXT_MEM_K, 2), 0xfc00);
}

TEST(video_defaults_and_old_params)
{
	struct fixture *f = setup(ctx, "");
	uint8_t *old = unit_alloc(ctx, 0x1000);

	build_ok(ctx, f);
	CHECK_EQ_U64(f->bp[ZP_VIDEO_MODE], 3);
	CHECK_EQ_U64(f->bp[ZP_VIDEO_COLS], 80);
	CHECK_EQ_U64(f->bp[ZP_VIDEO_LINES], 25);
	/* with the running kernel's boot_params, its facts are kept */
	old[ZP_VIDEO_MODE] = 0x12;
	old[ZP_VIDEO_COLS] = 100;
	old[ZP_APM_BIOS_INFO] = 0x5a;
	synth_le(old, ZP_ACPI_RSDP, 0xf5a40, 8);
	synth_le(old, ZP_HARDWARE_SUBARCH, 0, 4);
	synth_le(old, ZP_HARDWARE_SUBARCH + 4, 0x1122334455667788ull, 8);
	f->spec.old_bp = old;
	f->spec.old_bp_len = 0x1000;
	memset(f->bp, 0, 0x1001);
	build_ok(ctx, f);
	CHECK_EQ_U64(f->bp[ZP_VIDEO_MODE], 0x12);
	CHECK_EQ_U64(f->bp[ZP_VIDEO_COLS], 100);
	CHECK_EQ_U64(f->bp[ZP_APM_BIOS_INFO], 0x5a);
	CHECK_EQ_U64(le(f->bp, ZP_ACPI_RSDP, 8), 0xf5a40);
	CHECK_EQ_U64(le(f->bp, ZP_HARDWARE_SUBARCH + 4, 8),
		     0x1122334455667788ull);
	/* but not the loader fields */
	CHECK_EQ_U64(f->bp[ZP_TYPE_OF_LOADER], 0xd0);
	CHECK_EQ_U64(f->bp[ZP_E820_ENTRIES], 6);
}

/* 128 ranges in the zero page; the rest in a SETUP_E820_EXT setup_data. */
TEST(e820_ext)
{
	struct fixture *f = setup(ctx, "quiet");
	size_t ext = (0x1000 + 6 + 7) & ~7ul;
	const uint8_t *sd = f->bp + ext;
	uint64_t i;

	memmap_free(&f->map);
	for (i = 0; i < 128; i++)
		CHECK_EQ_INT(memmap_add(&f->map, i * 0x2000, i * 0x2000 + 0x1000,
					MEM_RAM), 0);
	build_ok(ctx, f);
	CHECK_EQ_U64(f->bp[ZP_E820_ENTRIES], 128);
	CHECK_EQ_U64(le(f->bp, ZP_E820_TABLE + 127 * 20, 8), 127 * 0x2000);
	CHECK_EQ_U64(le(f->bp, 0x250, 8), 0);		/* no setup_data */
	for (i = 128; i < 150; i++)
		CHECK_EQ_INT(memmap_add(&f->map, i * 0x2000, i * 0x2000 + 0x1000,
					MEM_RESERVED), 0);
	memset(f->bp, 0, boot_params_size(5, 0, 150));
	build_ok(ctx, f);
	CHECK_EQ_U64(f->bp[ZP_E820_ENTRIES], 128);
	CHECK_EQ_U64(le(f->bp, 0x250, 8), f->spec.addr + ext);
	CHECK_EQ_U64(le(sd, 0, 8), 0);			/* next */
	CHECK_EQ_U64(le(sd, 8, 4), 1);			/* SETUP_E820_EXT */
	CHECK_EQ_U64(le(sd, 12, 4), 22 * 20);
	for (i = 0; i < 22; i++) {
		CHECK_EQ_U64(le(sd, 16 + i * 20, 8), (128 + i) * 0x2000);
		CHECK_EQ_U64(le(sd, 16 + i * 20 + 8, 8), 0x1000);
		CHECK_EQ_U64(le(sd, 16 + i * 20 + 16, 4), 2);
	}
	CHECK_EQ_U64(boot_params_size(5, 0, 150), ext + 16 + 22 * 20);
}

/* Before protocol 2.09 there is no setup_data to take the rest. */
TEST(too_many_ranges)
{
	struct fixture *f = setup(ctx, "");
	const char *err;
	uint64_t i;

	f->bi.version = 0x0208;
	memmap_free(&f->map);
	for (i = 0; i < 129; i++)
		CHECK_EQ_INT(memmap_add(&f->map, i * 0x2000, i * 0x2000 + 0x1000,
					MEM_RAM), 0);
	unit_capture_start(ctx);
	CHECK_EQ_INT(boot_params_build(unit_kj_default(), &f->spec, f->bp), -E2BIG);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "129 ranges; the zero page holds 128, and boot protocol 2.08 has no setup_data for the rest (2.09 or later has)");
}

TEST(above_4g)
{
	struct fixture *f = setup(ctx, "quiet");
	const char *err;

	f->spec.addr = 0x100000000ull;
	unit_capture_start(ctx);
	CHECK_EQ_INT(boot_params_build(unit_kj_default(), &f->spec, f->bp), -ERANGE);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "above 4 GiB");
	/* the command line crossing 4 GiB */
	f->spec.addr = 0xfffff000;
	unit_capture_start(ctx);
	CHECK_EQ_INT(boot_params_build(unit_kj_default(), &f->spec, f->bp), -ERANGE);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "above 4 GiB");
	/* an initrd above 4 GiB */
	f->spec.addr = 0x1ffd0000;
	f->spec.initrd_addr = 0x100000000ull;
	unit_capture_start(ctx);
	CHECK_EQ_INT(boot_params_build(unit_kj_default(), &f->spec, f->bp), -ERANGE);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "above 4 GiB");
	f->spec.initrd_addr = 0xfff00000;
	f->spec.initrd_len = 0x200000;
	unit_capture_start(ctx);
	CHECK_EQ_INT(boot_params_build(unit_kj_default(), &f->spec, f->bp), -ERANGE);
	CHECK_ERR_LINE(unit_capture_stop(ctx), "above 4 GiB");
}

UNIT_MAIN("boot-params",
	RUN(size), RUN(e820), RUN(e820_ext), RUN(cmdline), RUN(empty_cmdline), RUN(initrd),
	RUN(loader_fields), RUN(synthesised_header), RUN(header_extent),
	RUN(mem_k), RUN(video_defaults_and_old_params), RUN(too_many_ranges),
	RUN(above_4g))
