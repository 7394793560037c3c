// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file-io.h"
#include "iomem.h"
#include "log.h"
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

/* One line of /proc/iomem: a top-level range of a type we know, or not. */
static int add_iomem_line(struct mem_map *map, const char *line)
{
	uint64_t start, end;
	const char *name;
	uint32_t type;

	/* Nested lines describe users of a range, not the map. */
	if (line[0] == ' ' || line[0] == '\0')
		return 0;
	if (iomem_parse_line(line, &start, &end, &name))
		return -EINVAL;
	type = memmap_type_from_name(name);
	/* "00000000-00000000": the kernel hides addresses from users */
	if (!type || end == 1)
		return 0;
	return memmap_add(map, start, end, type);
}

int memmap_parse_iomem(struct mem_map *map, const char *text)
{
	const char *p = text;
	int ret;

	while (*p) {
		char *line = iomem_next_line(&p);

		if (!line)
			return -ENOMEM;
		ret = add_iomem_line(map, line);
		free(line);
		if (ret)
			return ret;
	}
	memmap_normalize(map);
	return 0;
}

static int read_firmware_entry(struct mem_map *map, const char *dir,
			       const char *entry)
{
	char path[PATH_MAX], name[128];
	unsigned long long start, end;
	uint32_t type;
	int ret;

	snprintf(path, sizeof(path), "%s/%s/start", dir, entry);
	ret = read_ulong(path, &start);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/%s/end", dir, entry);
	ret = read_ulong(path, &end);
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/%s/type", dir, entry);
	ret = read_text(path, name, sizeof(name));
	if (ret)
		return ret;
	if (end < start || end == UINT64_MAX)
		return -EINVAL;
	type = memmap_type_from_name(name);
	if (!type) {
		kx_warn("%s/%s: unknown memory type \"%s\", treated as reserved",
			dir, entry, name);
		type = MEM_RESERVED;
	}
	return memmap_add(map, start, end + 1, type);
}

int memmap_read_firmware_dir(struct mem_map *map, const char *dir)
{
	struct dirent *de;
	DIR *d;
	int ret = 0;

	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		ret = read_firmware_entry(map, dir, de->d_name);
		if (ret)
			break;
	}
	closedir(d);
	if (!ret && !map->n)
		ret = -ENOENT;
	if (!ret)
		memmap_normalize(map);
	return ret;
}

int memmap_read_system(struct mem_map *map, const char *root)
{
	char path[PATH_MAX];
	char *text;
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/sys/firmware/memmap", root);
	ret = memmap_read_firmware_dir(map, path);
	if (!ret)
		return 0;
	if (ret != -ENOENT) {
		kx_err("%s: %s", path, strerror(-ret));
		return ret;
	}
	memmap_free(map);
	snprintf(path, sizeof(path), "%s/proc/iomem", root);
	ret = read_file(path, 1 << 20, &text, &len);
	if (ret) {
		kx_err("%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = memmap_parse_iomem(map, text);
	free(text);
	if (!ret && !map->n)
		ret = -ENOENT;
	if (ret)
		kx_err("%s: no usable memory map (%s)", path,
		       ret == -ENOENT ? "no System RAM lines; run as root" :
					strerror(-ret));
	return ret;
}
