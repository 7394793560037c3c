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

size_t boot_params_size(size_t cmdline_len, size_t spare)
{
	return BP_SIZE + cmdline_len + 1 + spare;
}

static int fill_e820(const struct kj_ctx *ctx, uint8_t *bp,
		     const struct mem_map *map)
{
	size_t i;

	if (map->n > E820_MAX_ZEROPAGE) {
		kj_err(ctx, "memory map: %zu ranges, the zero page holds %d",
		       map->n, E820_MAX_ZEROPAGE);
		return -E2BIG;
	}
	for (i = 0; i < map->n; i++) {
		size_t off = BP_E820_TABLE + i * E820_ENTRY_SIZE;

		put64(bp, off, map->r[i].start);
		put64(bp, off + 8, map->r[i].end - map->r[i].start);
		put32(bp, off + 16, map->r[i].type);
	}
	put8(bp, BP_E820_ENTRIES, (uint8_t)map->n);
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

static void fill_header(uint8_t *bp, const struct boot_params_spec *s)
{
	uint64_t cmd = s->addr + BP_SIZE;
	uint16_t version;

	if (s->kernel) {
		memcpy(bp + HDR_SETUP_SECTS, s->kernel + HDR_SETUP_SECTS,
		       s->bi->header_len);
		put8(bp, HDR_TYPE_OF_LOADER, LOADER_TYPE_KEXEC);
		version = s->bi->version;
	} else {
		synth_header(bp);
		version = SYNTH_HDR_VERSION;
	}
	put8(bp, HDR_LOADFLAGS, LOADFLAG_LOADED_HIGH);
	put32(bp, HDR_RAMDISK_IMAGE, (uint32_t)s->initrd_addr);
	put32(bp, HDR_RAMDISK_SIZE, (uint32_t)s->initrd_len);
	put32(bp, HDR_CMD_LINE_PTR, (uint32_t)cmd);
	/* Pre-2.02 kernels find the command line through this pair. */
	put16(bp, BP_CL_MAGIC, CL_MAGIC_VALUE);
	put16(bp, BP_CL_OFFSET, BP_SIZE);
	if (version >= 0x209)
		put64(bp, HDR_SETUP_DATA, 0);
	if (version >= 0x207 && s->old_bp && s->old_bp_len >= BP_SIZE)
		memcpy(bp + HDR_HARDWARE_SUBARCH,
		       s->old_bp + HDR_HARDWARE_SUBARCH, 12);
}

int boot_params_build(const struct kj_ctx *ctx,
		      const struct boot_params_spec *s, uint8_t *bp)
{
	size_t len = strlen(s->cmdline);
	int ret;

	if (s->addr + BP_SIZE + len + 1 > UINT32_MAX ||
	    s->initrd_addr + s->initrd_len > UINT32_MAX) {
		kj_err(ctx, "boot parameters: addresses above 4 GiB are not supported");
		return -ERANGE;
	}
	fill_firmware_info(bp, s->old_bp, s->old_bp_len);
	fill_header(bp, s);
	fill_mem_k(bp, s->e820);
	ret = fill_e820(ctx, bp, s->e820);
	if (ret)
		return ret;
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
