// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot-params.h"
#include "bzimage-header.h"
#include "ctx.h"
#include "file-io.h"

/* Where the SETUP_E820_EXT setup_data starts in the buffer. */
static size_t e820_ext_offset(size_t cmdline_len, size_t spare)
{
	return (BP_SIZE + cmdline_len + 1 + spare + 7) & ~(size_t)7;
}

size_t boot_params_size(size_t cmdline_len, size_t spare, size_t e820_n)
{
	if (e820_n <= E820_MAX_ZEROPAGE)
		return BP_SIZE + cmdline_len + 1 + spare;
	return e820_ext_offset(cmdline_len, spare) + SETUP_DATA_HDR_LEN +
	       (e820_n - E820_MAX_ZEROPAGE) * E820_ENTRY_SIZE;
}

static void put_e820(uint8_t *at, const struct mem_range *r)
{
	put64(at, 0, r->start);
	put64(at, 8, r->end - r->start);
	put32(at, 16, r->type);
}

/*
 * The first 128 ranges in the zero page, the rest in a SETUP_E820_EXT
 * setup_data linked from the header: returns its address, or 0.
 */
static int fill_e820(const struct kj_ctx *ctx, uint8_t *bp,
		     const struct boot_params_spec *s, uint16_t version,
		     uint64_t *ext_addr)
{
	const struct mem_map *map = s->e820;
	size_t i, n = map->n, ext;

	*ext_addr = 0;
	if (n > E820_MAX_ZEROPAGE && version < 0x209) {
		kj_err(ctx, "memory map: %zu ranges; the zero page holds %d, and boot protocol %x.%02x has no setup_data for the rest (2.09 or later has)",
		       n, E820_MAX_ZEROPAGE, version >> 8, version & 0xff);
		return -E2BIG;
	}
	for (i = 0; i < n && i < E820_MAX_ZEROPAGE; i++)
		put_e820(bp + BP_E820_TABLE + i * E820_ENTRY_SIZE, &map->r[i]);
	put8(bp, BP_E820_ENTRIES, (uint8_t)i);
	if (n <= E820_MAX_ZEROPAGE)
		return 0;
	ext = e820_ext_offset(strlen(s->cmdline), s->spare);
	put64(bp, ext, 0);
	put32(bp, ext + 8, SETUP_E820_EXT);
	put32(bp, ext + 12, (uint32_t)((n - i) * E820_ENTRY_SIZE));
	for (; i < n; i++)
		put_e820(bp + ext + SETUP_DATA_HDR_LEN +
			 (i - E820_MAX_ZEROPAGE) * E820_ENTRY_SIZE, &map->r[i]);
	*ext_addr = s->addr + ext;
	return 0;
}

/* KiB of RAM contiguous from 1 MiB: the legacy memory size fields. */
static void fill_mem_k(uint8_t *bp, const struct mem_map *map)
{
	uint64_t kib = 0;
	size_t i;

	for (i = 0; i < map->n; i++) {
		const struct mem_range *r = &map->r[i];

		if (r->type == MEM_RAM && r->start <= 0x100000 &&
		    r->end > 0x100000)
			kib = (r->end - 0x100000) >> 10;
	}
	put32(bp, BP_ALT_MEM_K, kib > UINT32_MAX ? UINT32_MAX : (uint32_t)kib);
	put16(bp, BP_EXT_MEM_K, kib > 0xfc00 ? 0xfc00 : (uint16_t)kib);
}

/*
 * Firmware facts the next kernel cannot find on its own after a kexec
 * (video mode, ACPI RSDP when it came from the boot loader, platform):
 * taken from the running kernel's boot_params when it exports them.
 */
static void fill_firmware_info(uint8_t *bp, const uint8_t *old, size_t len)
{
	if (old && len >= BP_SIZE) {
		memcpy(bp + BP_SCREEN_INFO, old + BP_SCREEN_INFO, 0x40);
		memcpy(bp + BP_APM_BIOS_INFO, old + BP_APM_BIOS_INFO, 0x14);
		memcpy(bp + BP_IST_INFO, old + BP_IST_INFO, 0x10);
		put64(bp, BP_ACPI_RSDP_ADDR, get64(old, BP_ACPI_RSDP_ADDR));
		return;
	}
	/* An 80x25 colour text console, as a BIOS leaves it. */
	put8(bp, 0x06, 3);		/* orig_video_mode */
	put8(bp, 0x07, 80);		/* orig_video_cols */
	put8(bp, 0x0e, 25);		/* orig_video_lines */
	put8(bp, 0x0f, 1);		/* orig_video_isVGA */
	put16(bp, 0x10, 16);		/* orig_video_points */
}

uint8_t *boot_params_read_old(const struct kj_ctx *ctx, size_t *len)
{
	char path[KJ_PATH_MAX], *buf;

	kj_path(ctx, "/sys/kernel/boot_params/data", path, sizeof(path));
	if (read_file(path, 2 * BP_SIZE, &buf, len))
		return NULL;
	return (uint8_t *)buf;
}

/* A minimal protocol 2.06 header for a kernel that came without one. */
static void synth_header(uint8_t *bp)
{
	put16(bp, HDR_BOOT_FLAG, BOOT_FLAG_MAGIC);
	put32(bp, HDR_HEADER, HDR_MAGIC);
	put16(bp, HDR_VERSION, SYNTH_HDR_VERSION);
	put8(bp, HDR_TYPE_OF_LOADER, SYNTH_HDR_LOADER_TYPE);
	put32(bp, HDR_INITRD_ADDR_MAX, SYNTH_HDR_INITRD_ADDR_MAX);
	put32(bp, HDR_CMDLINE_SIZE, SYNTH_HDR_CMDLINE_SIZE);
}

static uint16_t header_version(const struct boot_params_spec *s)
{
	return s->kernel ? s->bi->version : SYNTH_HDR_VERSION;
}

static void fill_header(uint8_t *bp, const struct boot_params_spec *s,
			uint64_t setup_data)
{
	uint64_t cmd = s->addr + BP_SIZE;
	uint16_t version = header_version(s);

	if (s->kernel) {
		memcpy(bp + HDR_SETUP_SECTS, s->kernel + HDR_SETUP_SECTS,
		       s->bi->header_len);
		put8(bp, HDR_TYPE_OF_LOADER, LOADER_TYPE_KEXEC);
	} else {
		synth_header(bp);
	}
	put8(bp, HDR_LOADFLAGS, LOADFLAG_LOADED_HIGH);
	put32(bp, HDR_RAMDISK_IMAGE, (uint32_t)s->initrd_addr);
	put32(bp, HDR_RAMDISK_SIZE, (uint32_t)s->initrd_len);
	put32(bp, HDR_CMD_LINE_PTR, (uint32_t)cmd);
	/* Pre-2.02 kernels find the command line through this pair. */
	put16(bp, BP_CL_MAGIC, CL_MAGIC_VALUE);
	put16(bp, BP_CL_OFFSET, BP_SIZE);
	if (version >= 0x209)
		put64(bp, HDR_SETUP_DATA, setup_data);
	if (version >= 0x207 && s->old_bp && s->old_bp_len >= BP_SIZE)
		memcpy(bp + HDR_HARDWARE_SUBARCH,
		       s->old_bp + HDR_HARDWARE_SUBARCH, 12);
}

int boot_params_build(const struct kj_ctx *ctx,
		      const struct boot_params_spec *s, uint8_t *bp)
{
	size_t len = strlen(s->cmdline);
	uint64_t ext;
	int ret;

	if (s->addr + boot_params_size(len, s->spare, s->e820->n) > UINT32_MAX ||
	    s->initrd_addr + s->initrd_len > UINT32_MAX) {
		kj_err(ctx, "boot parameters: addresses above 4 GiB are not supported");
		return -ERANGE;
	}
	ret = fill_e820(ctx, bp, s, header_version(s), &ext);
	if (ret)
		return ret;
	fill_firmware_info(bp, s->old_bp, s->old_bp_len);
	fill_header(bp, s, ext);
	fill_mem_k(bp, s->e820);
	memcpy(bp + BP_SIZE, s->cmdline, len + 1);
	return 0;
}

int boot_params_build_here(const struct kj_ctx *ctx,
			   struct boot_params_spec *spec, uint8_t *buf)
{
	size_t old_len = 0;
	uint8_t *old = boot_params_read_old(ctx, &old_len);
	int ret;

	spec->old_bp = old;
	spec->old_bp_len = old_len;
	ret = boot_params_build(ctx, spec, buf);
	spec->old_bp = NULL;
	spec->old_bp_len = 0;
	free(old);
	return ret;
}
