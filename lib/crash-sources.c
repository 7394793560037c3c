// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crash-sources.h"
#include "file-io.h"

/* A bare hex number as the kernel prints with %llx (no 0x needed). */
static int parse_hex(const char *text, uint64_t *val)
{
	char *end;

	errno = 0;
	*val = strtoull(text, &end, 16);
	if (errno || end == text || (*end && *end != ' ') || text[0] == '-')
		return -EINVAL;
	return 0;
}

static int read_hex(const char *path, uint64_t *val)
{
	char text[64];
	int ret = read_text(path, text, sizeof(text));

	return ret ? ret : parse_hex(text, val);
}

/* "0-3", "0,2-3": the highest CPU number mentioned. */
static int max_cpu(const char *list)
{
	const char *p = list;
	long max = -1;

	while (*p) {
		char *end;
		long n = strtol(p, &end, 10);

		if (end == p || n < 0)
			return -EINVAL;
		if (n > max)
			max = n;
		p = end;
		if (*p == '-' || *p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return max < 0 ? -EINVAL : (int)max;
}

int read_cpu_crash_notes(const struct kj_ctx *ctx, struct elfcore_note *notes,
			 size_t max)
{
	char path[PATH_MAX], list[256];
	int last, cpu, ret;
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/possible", ctx->root);
	ret = read_text(path, list, sizeof(list));
	if (ret)
		return ret;
	last = max_cpu(list);
	if (last < 0)
		return last;
	for (cpu = 0; cpu <= last; cpu++) {
		unsigned long long size;
		uint64_t addr;

		snprintf(path, sizeof(path),
			 "%s/sys/devices/system/cpu/cpu%d/crash_notes", ctx->root, cpu);
		if (read_hex(path, &addr))
			continue;	/* not present: no note for it */
		snprintf(path, sizeof(path),
			 "%s/sys/devices/system/cpu/cpu%d/crash_notes_size",
			 ctx->root, cpu);
		if (read_ulong(path, &size) || !size)
			size = 1024;
		if (n == max)
			return -E2BIG;
		notes[n++] = (struct elfcore_note){ addr, size };
	}
	return (int)n;
}

int read_vmcoreinfo(const struct kj_ctx *ctx, struct elfcore_note *note)
{
	char path[PATH_MAX], text[128], *space;
	int ret;

	snprintf(path, sizeof(path), "%s/sys/kernel/vmcoreinfo", ctx->root);
	ret = read_text(path, text, sizeof(text));
	if (ret)
		return ret;
	/* "%pa %x": address (with 0x), then size in hex. */
	space = strchr(text, ' ');
	if (!space)
		return -EINVAL;
	*space = '\0';
	if (parse_hex(text, &note->addr) || parse_hex(space + 1, &note->size) ||
	    !note->size)
		return -EINVAL;
	return 0;
}

int read_jump_buf_pfn(const struct kj_ctx *ctx, uint64_t *pfn)
{
	char path[PATH_MAX];
	unsigned long long v;
	int ret;

	snprintf(path, sizeof(path), "%s/sys/kernel/kexec_jump_buf_pfn", ctx->root);
	ret = read_ulong(path, &v);
	if (ret)
		return ret;	/* -ENOENT: a stock kernel; -EINVAL: garbage */
	if (!v || v > (UINT64_MAX >> 12))
		return -EINVAL;
	*pfn = v;
	return 0;
}
