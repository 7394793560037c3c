// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "iomem.h"

static int parse_line(const char *text, size_t len, const char *name,
		      uint64_t *start, uint64_t *end, int *match)
{
	unsigned long long s, e;
	char buf[256], *line = buf;
	size_t nlen = strlen(name);
	int used = 0;

	*match = 0;
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, text, len);
	buf[len] = '\0';
	while (*line == ' ')
		line++;
	len = strlen(line);
	if (!len)
		return 0;
	if (sscanf(line, "%llx-%llx : %n", &s, &e, &used) != 2 || !used ||
	    e < s || e == ~0ull)
		return -EINVAL;
	if ((size_t)used + nlen != len || memcmp(line + used, name, nlen))
		return 0;
	*start = s;
	*end = e + 1;
	*match = 1;
	return 0;
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
