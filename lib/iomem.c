// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "file-io.h"
#include "iomem.h"

int iomem_read(const struct kj_ctx *ctx, char **text)
{
	char path[KJ_PATH_MAX];
	size_t len;
	int ret;

	kj_path(ctx, "/proc/iomem", path, sizeof(path));
	ret = read_file(path, 1 << 20, text, &len);
	if (ret)
		kj_err(ctx, "%s: %s", path, strerror(-ret));
	return ret;
}

static const char *skip_space(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/*
 * Plain hex digits as the kernel prints them: no sign, no "0x", no
 * blanks (sscanf's %llx would take "-2" as 0xfffffffffffffffe).  NULL if
 * there are none or the value does not fit in 64 bits.
 */
static const char *parse_hex(const char *p, uint64_t *val)
{
	const char *digits = "0123456789abcdef";
	uint64_t v = 0;
	const char *d;
	size_t n = 0;

	for (; *p && (d = strchr(digits, tolower((unsigned char)*p))); p++) {
		if (v >> 60)
			return NULL;
		v = v << 4 | (uint64_t)(d - digits);
		n++;
	}
	if (!n)
		return NULL;
	*val = v;
	return p;
}

int iomem_parse_line(const char *line, uint64_t *start, uint64_t *end,
		     const char **name)
{
	const char *p = skip_space(line);
	uint64_t s, e;

	p = parse_hex(p, &s);
	if (!p || *p != '-')
		return -EINVAL;
	p = parse_hex(p + 1, &e);
	if (!p)
		return -EINVAL;
	p = skip_space(p);
	if (*p != ':' || e < s || e == UINT64_MAX)
		return -EINVAL;
	*start = s;
	*end = e + 1;
	*name = skip_space(p + 1);
	return 0;
}

char *iomem_next_line(const char **text)
{
	size_t len = strcspn(*text, "\n");
	char *line = strndup(*text, len);

	*text += len;
	if (**text)
		(*text)++;
	return line;
}

/* Does a non-blank line name name?  Blank lines match nothing. */
static int parse_line(const char *line, const char *name, uint64_t *start,
		      uint64_t *end, int *match)
{
	const char *found;
	int ret;

	*match = 0;
	if (!line[strspn(line, " ")])
		return 0;
	ret = iomem_parse_line(line, start, end, &found);
	if (!ret)
		*match = !strcmp(found, name);
	return ret;
}

int iomem_collect(const char *text, const char *name, uint32_t type,
		  struct mem_map *map)
{
	const char *p = text;

	while (*p) {
		char *line = iomem_next_line(&p);
		uint64_t start, end;
		int match, ret;

		if (!line)
			return -ENOMEM;
		ret = parse_line(line, name, &start, &end, &match);
		free(line);
		if (!ret && match)
			ret = memmap_add(map, start, end, type);
		if (ret)
			return ret;
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

int iomem_crash_region_for_load(const struct kj_ctx *ctx, const char *text,
				struct mem_range *out)
{
	int ret = iomem_crash_region(text, out);

	if (ret == -ENOENT)
		kj_err(ctx, "-p: no crash kernel memory reserved (boot with crashkernel=SIZE, e.g. crashkernel=64M)");
	else if (ret)
		kj_err(ctx, "-p: /proc/iomem is malformed");
	return ret;
}
