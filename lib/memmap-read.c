// SPDX-License-Identifier: GPL-2.0-only
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "file-io.h"
#include "iomem.h"
#include "memmap-read.h"

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

static int read_firmware_entry(const struct kj_ctx *ctx, struct mem_map *map,
			       const char *dir, const char *entry)
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
		kj_warn(ctx, "%s/%s: unknown memory type \"%s\", treated as reserved",
			dir, entry, name);
		type = MEM_RESERVED;
	}
	return memmap_add(map, start, end + 1, type);
}

int memmap_read_firmware_dir(const struct kj_ctx *ctx, struct mem_map *map,
			     const char *dir)
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
		ret = read_firmware_entry(ctx, map, dir, de->d_name);
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

int memmap_read_system(const struct kj_ctx *ctx, struct mem_map *map)
{
	char path[KJ_PATH_MAX];
	char *text;
	size_t len;
	int ret;

	kj_path(ctx, "/sys/firmware/memmap", path, sizeof(path));
	ret = memmap_read_firmware_dir(ctx, map, path);
	if (!ret)
		return 0;
	if (ret != -ENOENT) {
		kj_err(ctx, "%s: %s", path, strerror(-ret));
		return ret;
	}
	memmap_free(map);
	kj_path(ctx, "/proc/iomem", path, sizeof(path));
	ret = read_file(path, 1 << 20, &text, &len);
	if (ret) {
		kj_err(ctx, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = memmap_parse_iomem(map, text);
	free(text);
	if (!ret && !map->n)
		ret = -ENOENT;
	if (ret)
		kj_err(ctx, "%s: no usable memory map (%s)", path,
		       ret == -ENOENT ? "no System RAM lines; run as root" :
					strerror(-ret));
	return ret;
}
