/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The machine's memory map as the running kernel shows it: the firmware
 * map in /sys/firmware/memmap, or the top-level lines of /proc/iomem.
 */
#ifndef KJUMP_MEMMAP_READ_H
#define KJUMP_MEMMAP_READ_H

#include "ctx.h"
#include "memory-map.h"

/* Parse the top-level lines of /proc/iomem text. */
int memmap_parse_iomem(struct mem_map *map, const char *text);

/* Read a /sys/firmware/memmap style directory. */
int memmap_read_firmware_dir(const struct kj_ctx *ctx, struct mem_map *map,
			     const char *dir);

/*
 * Read the system's map below ctx's root: the firmware directory first,
 * /proc/iomem as a fallback.  Reports its errors.
 */
int memmap_read_system(const struct kj_ctx *ctx, struct mem_map *map);

#endif
