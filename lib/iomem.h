/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * /proc/iomem as the running kernel sees it: the crash kernel region and
 * the RAM ranges a crash dump has to describe.
 */
#ifndef KJUMP_IOMEM_H
#define KJUMP_IOMEM_H

#include "memory-map.h"


/*
 * One NUL-terminated line "start-end : name" (inclusive bounds in plain
 * hex digits, any indentation): [*start, *end) and the name.  Returns 0
 * or -EINVAL.
 */
int iomem_parse_line(const char *line, uint64_t *start, uint64_t *end,
		     const char **name);

/*
 * The line at *text, without its newline, as a malloc'd string (of any
 * length); *text moves to the next line.  NULL when out of memory.
 */
char *iomem_next_line(const char **text);

/*
 * Every line (at any nesting depth) whose name is exactly name, added to
 * map with the given type, in file order.  Returns 0, or -EINVAL on a
 * malformed line, or memmap_add()'s error.
 */
int iomem_collect(const char *text, const char *name, uint32_t type,
		  struct mem_map *map);

/* /proc/iomem below the context's root, malloc'd.  Reports errors. */
struct kj_ctx;
int iomem_read(const struct kj_ctx *ctx, char **text);

/* The last "Crash kernel" range; -ENOENT if none is reserved. */
int iomem_crash_region(const char *text, struct mem_range *out);

/* The same for -p: reports "-p: <why>" when there is none. */
int iomem_crash_region_for_load(const struct kj_ctx *ctx, const char *text,
				struct mem_range *out);

#endif
