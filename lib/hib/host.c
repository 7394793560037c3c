// SPDX-License-Identifier: GPL-2.0-only
/*
 * The facts of the running kernel for a resume (host.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "ctx.h"
#include "file-io.h"
#include "iomem.h"
#include "memory-map.h"
#include "hib/host.h"

#define NOTES_PATH		"/sys/kernel/notes"
#define IOMEM_PATH		"/proc/iomem"
#define NT_GNU_BUILD_ID		3u

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static size_t align4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

unsigned int kjh_notes_build_id(const void *notes, size_t len, uint8_t *id,
				size_t id_size)
{
	const uint8_t *p = notes;
	size_t off = 0, namesz, descsz, desc;

	while (len - off >= 12) {
		namesz = le32(p + off);
		descsz = le32(p + off + 4);
		desc = off + 12 + align4(namesz);
		if (namesz > len || descsz > len || desc > len ||
		    descsz > len - desc)
			return 0;
		if (le32(p + off + 8) == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(p + off + 12, "GNU", 4) && descsz &&
		    descsz <= id_size) {
			memcpy(id, p + desc, descsz);
			return (unsigned int)descsz;
		}
		off = desc + align4(descsz);
	}
	return 0;
}

static void read_uname(struct kjh_host *h)
{
	struct utsname u;

	if (uname(&u))
		return;
	snprintf(h->id.release, sizeof(h->id.release), "%s", u.release);
	snprintf(h->id.version, sizeof(h->id.version), "%s", u.version);
	snprintf(h->id.machine, sizeof(h->id.machine), "%.*s",
		 (int)sizeof(h->id.machine) - 1, u.machine);
	/* the kernel's word, not this program's: a 32-bit tool may run on x86_64 */
	h->kernel_word = strstr(u.machine, "64") ? 8 : 4;
}

static void read_build_id(struct kj_ctx *ctx, struct kjh_host *h)
{
	char *notes;
	size_t len;

	if (kj_read_proc(ctx, NOTES_PATH, 1 << 16, &notes, &len))
		return;
	h->id.build_id_len = (uint8_t)kjh_notes_build_id(notes, len,
							  h->id.build_id,
							  sizeof(h->id.build_id));
	free(notes);
}

static int read_ram(struct kj_ctx *ctx, const char *what, struct kjh_host *h)
{
	struct mem_map map;
	struct mem_range crash;
	char path[KJ_PATH_MAX], *text = NULL;
	size_t len, i;
	int ret;

	memmap_init(&map);
	ret = read_file(kj_path(ctx, IOMEM_PATH, path, sizeof(path)), 1 << 22,
			&text, &len);
	if (!ret)
		ret = iomem_collect(text, "System RAM", MEM_RAM, &map);
	if (ret) {
		kj_err(ctx, "%s: %s: %s", what, path, strerror(-ret));
		goto out;
	}
	memmap_normalize(&map);
	if (map.n > KJH_HOST_RAM_MAX) {
		kj_err(ctx, "%s: %s: more than %u System RAM ranges", what,
		       path, KJH_HOST_RAM_MAX);
		ret = -E2BIG;
		goto out;
	}
	if (!iomem_crash_region(text, &crash)) {
		h->crash_start = crash.start;
		h->crash_end = crash.end - 1;
	}
	for (i = 0; i < map.n; i++) {
		h->ram[h->ram_count].start = map.r[i].start;
		h->ram[h->ram_count++].end = map.r[i].end - 1;
	}
out:
	free(text);
	memmap_free(&map);
	return ret;
}

int kjh_host_read(struct kj_ctx *ctx, const char *what, struct kjh_host *h)
{
	memset(h, 0, sizeof(*h));
	read_uname(h);
	read_build_id(ctx, h);
	return read_ram(ctx, what, h);
}

int kjh_host_meminfo(struct kj_ctx *ctx, uint64_t *total, uint64_t *avail)
{
	unsigned long long t = 0, f = 0;
	char *text, *p;

	if (kj_read_proc(ctx, KJH_MEMINFO_PATH, 65536, &text, NULL))
		return -EIO;
	p = strstr(text, "MemTotal:");
	if (p)
		sscanf(p, "MemTotal: %llu", &t);
	p = strstr(text, "MemFree:");
	if (p)
		sscanf(p, "MemFree: %llu", &f);
	free(text);
	*total = t / 4;
	*avail = f / 4;
	return t && f <= t ? 0 : -EIO;
}
