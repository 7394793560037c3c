// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iomem.h"

int iomem_parse_line(const char *line, uint64_t *start, uint64_t *end,
		     const char **name)
{
	unsigned long long s, e;
	int used = 0;

	if (sscanf(line, " %llx-%llx : %n", &s, &e, &used) != 2 || !used ||
	    e < s || e == ~0ull)
		return -EINVAL;
	*start = s;
	*end = e + 1;
	*name = line + used;
	return 0;
}

static int parse_line(const char *text, size_t len, const char *name,
		      uint64_t *start, uint64_t *end, int *match)
{
	const char *found;
	char buf[256];
	int ret;

	*match = 0;
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (!buf[strspn(buf, " ")])
		return 0;
	ret = iomem_parse_line(buf, start, end, &found);
	if (!ret)
		*match = !strcmp(found, name);
	return ret;
}

int iomem_collect(const char *text, const char *name, uint32_t type,
		  struct mem_map *map)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		uint64_t start, end;
		int match, ret;

		ret = parse_line(p, len, name, &start, &end, &match);
		if (ret)
			return ret;
		if (match) {
			ret = memmap_add(map, start, end, type);
			if (ret)
				return ret;
		}
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

int iomem_crash_region(const char *text, struct mem_range *out)
{
	struct mem_map found;
	int ret;

	memmap_init(&found);
	ret = iomem_collect(text, "Crash kernel", MEM_RAM, &found);
	if (!ret && !found.n)
		ret = -ENOENT;
	if (!ret)
		*out = found.r[found.n - 1];
	memmap_free(&found);
	return ret;
}
