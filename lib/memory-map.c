// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "memory-map.h"

void memmap_init(struct mem_map *map)
{
	map->r = NULL;
	map->n = 0;
	map->cap = 0;
}

void memmap_free(struct mem_map *map)
{
	free(map->r);
	memmap_init(map);
}

int memmap_add(struct mem_map *map, uint64_t start, uint64_t end,
	       uint32_t type)
{
	if (end <= start)
		return -EINVAL;
	if (map->n == MEMMAP_MAX_RANGES)
		return -E2BIG;
	if (map->n == map->cap) {
		size_t cap = map->cap ? map->cap * 2 : 32;
		struct mem_range *r = realloc(map->r, cap * sizeof(*r));

		if (!r)
			return -ENOMEM;
		map->r = r;
		map->cap = cap;
	}
	map->r[map->n++] = (struct mem_range){ start, end, type };
	return 0;
}

static int cmp_range(const void *a, const void *b)
{
	const struct mem_range *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return 0;
}

void memmap_normalize(struct mem_map *map)
{
	size_t i, out = 0;

	if (!map->n)
		return;
	qsort(map->r, map->n, sizeof(*map->r), cmp_range);
	for (i = 1; i < map->n; i++) {
		struct mem_range *last = &map->r[out];

		if (map->r[i].type == last->type &&
		    map->r[i].start <= last->end) {
			if (map->r[i].end > last->end)
				last->end = map->r[i].end;
			continue;
		}
		map->r[++out] = map->r[i];
	}
	map->n = out + 1;
}

static const struct {
	const char *name;
	uint32_t type;
} type_names[] = {
	{ "System RAM", MEM_RAM },
	{ "ACPI Tables", MEM_ACPI },
	{ "ACPI Non-volatile Storage", MEM_NVS },
	{ "Persistent Memory (legacy)", MEM_PRAM },
	{ "Persistent Memory", MEM_PMEM },
	{ "reserved", MEM_RESERVED },
	{ "Reserved", MEM_RESERVED },
	{ "Unusable memory", MEM_UNUSABLE },
	{ "Unknown E820 type", MEM_RESERVED },
};

uint32_t memmap_type_from_name(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (!strcmp(name, type_names[i].name))
			return type_names[i].type;
	return 0;
}

const char *memmap_type_name(uint32_t type)
{
	switch (type) {
	case MEM_RAM: return "RAM";
	case MEM_RESERVED: return "reserved";
	case MEM_ACPI: return "ACPI";
	case MEM_NVS: return "ACPI NVS";
	case MEM_UNUSABLE: return "unusable";
	case MEM_PMEM: return "PMEM";
	case MEM_PRAM: return "PRAM";
	default: return "unknown";
	}
}
