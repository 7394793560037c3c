/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A physical memory map: ranges of memory types (memmap-read.c reads
 * the machine's from /sys and /proc).  Ranges are
 * half-open [start, end) internally; the e820 type codes are used as the
 * range types because that is what the next kernel receives.
 */
#ifndef KJUMP_MEMORY_MAP_H
#define KJUMP_MEMORY_MAP_H

#include <stddef.h>
#include <stdint.h>

enum mem_type {
	MEM_RAM = 1,
	MEM_RESERVED = 2,
	MEM_ACPI = 3,
	MEM_NVS = 4,
	MEM_UNUSABLE = 5,
	MEM_PMEM = 7,
	MEM_PRAM = 12,
};

#define MEMMAP_MAX_RANGES	2048

struct mem_range {
	uint64_t start;
	uint64_t end;		/* exclusive */
	uint32_t type;		/* enum mem_type */
};

struct mem_map {
	struct mem_range *r;
	size_t n;
	size_t cap;
};

void memmap_init(struct mem_map *map);
void memmap_free(struct mem_map *map);
int memmap_add(struct mem_map *map, uint64_t start, uint64_t end,
	       uint32_t type);
/* Sort by start and merge touching or overlapping ranges of one type. */
void memmap_normalize(struct mem_map *map);

/*
 * Map a firmware/iomem range name to a type.  Returns 0 for names that
 * do not describe memory the next kernel needs to know about.
 */
uint32_t memmap_type_from_name(const char *name);
const char *memmap_type_name(uint32_t type);

#endif
