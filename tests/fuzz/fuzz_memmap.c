// SPDX-License-Identifier: GPL-2.0-only
/*
 * The two text forms of the firmware memory map:
 *
 *   first byte even: the rest is /proc/iomem text for memmap_parse_iomem()
 *   first byte odd:  the rest is lines "start", "end", "type", three per
 *                    entry, written as a /sys/firmware/memmap directory
 *                    (entries 0..MAX_ENTRIES-1) for
 *                    memmap_read_firmware_dir()
 *
 * Either way a successful parse must give a normalized map: ranges
 * non-empty, of known types, sorted by start, no same-type neighbours
 * touching; for /proc/iomem also exactly the top-level lines' memory, no
 * more (each range starts and ends where some input range of its type
 * does) and no less (each input range lies inside one of its type).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "ctx.h"
#include "iomem.h"
#include "memmap-read.h"
#include "memory-map.h"

#define MAX_ENTRIES	6

/* A private directory, and the memmap directory made in it per input. */
static char fw_root[PATH_MAX], fw_dir[PATH_MAX];
/* No log callback: the parser's verdict is its return value. */
static const struct kj_ctx quiet = { .root = (char *)"" };

static int known_type(uint32_t type)
{
	switch (type) {
	case MEM_RAM: case MEM_RESERVED: case MEM_ACPI: case MEM_NVS:
	case MEM_UNUSABLE: case MEM_PMEM: case MEM_PRAM:
		return 1;
	}
	return 0;
}

static void check_normalized(const struct mem_map *map)
{
	size_t i;

	FUZZ_ASSERT(map->n <= MEMMAP_MAX_RANGES);
	FUZZ_ASSERT(map->n <= map->cap);
	for (i = 0; i < map->n; i++) {
		const struct mem_range *r = &map->r[i];

		FUZZ_ASSERT(r->start < r->end);
		FUZZ_ASSERT(known_type(r->type));
		if (!i)
			continue;
		FUZZ_ASSERT(r[-1].start <= r->start);
		if (r[-1].type == r->type)
			FUZZ_ASSERT(r[-1].end < r->start);
	}
}

/* The top-level lines of text, as the documented format reads them. */
static void iomem_reference(const char *text, struct mem_map *ref)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = fuzz_strdup((const uint8_t *)p, len);
		uint64_t start, end;
		const char *name;
		uint32_t type;

		if (line[0] != ' ' && line[0] &&
		    !iomem_parse_line(line, &start, &end, &name)) {
			type = memmap_type_from_name(name);
			if (type && end != 1)
				FUZZ_ASSERT(memmap_add(ref, start, end, type) != -ENOMEM);
		}
		free(line);
		p += len;
		if (*p)
			p++;
	}
}

static void check_against(const struct mem_map *map,
			  const struct mem_map *ref)
{
	size_t i, j;

	for (i = 0; i < map->n; i++) {
		const struct mem_range *r = &map->r[i];
		int start_seen = 0, end_seen = 0;

		for (j = 0; j < ref->n; j++) {
			if (ref->r[j].type != r->type)
				continue;
			start_seen |= ref->r[j].start == r->start;
			end_seen |= ref->r[j].end == r->end;
		}
		FUZZ_ASSERT(start_seen && end_seen);
	}
	for (j = 0; j < ref->n; j++) {
		const struct mem_range *in = &ref->r[j];
		int covered = 0;

		for (i = 0; i < map->n && !covered; i++)
			covered = map->r[i].type == in->type &&
				  map->r[i].start <= in->start &&
				  in->end <= map->r[i].end;
		FUZZ_ASSERT(covered);
	}
}

static void fuzz_iomem_text(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size);
	struct mem_map map, ref;

	memmap_init(&map);
	memmap_init(&ref);
	if (!memmap_parse_iomem(&map, text)) {
		check_normalized(&map);
		iomem_reference(text, &ref);
		check_against(&map, &ref);
	}
	memmap_free(&ref);
	memmap_free(&map);
	free(text);
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void clear_fw_dir(void)
{
	nftw(fw_dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

static void remove_fw_root(void)
{
	clear_fw_dir();
	rmdir(fw_root);
}

static void write_field(const char *entry, const char *field,
			const char *text, size_t len)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", entry, field);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	FUZZ_ASSERT(fd >= 0);
	FUZZ_ASSERT(write(fd, text, len) == (ssize_t)len);
	FUZZ_ASSERT(write(fd, "\n", 1) == 1);
	close(fd);
}

static void fuzz_firmware_dir(const uint8_t *data, size_t size)
{
	static const char *const fields[] = { "start", "end", "type" };
	const char *p = (const char *)data, *endp = p + size;
	char entry[PATH_MAX];
	struct mem_map map;
	unsigned int n = 0, f;

	FUZZ_ASSERT(mkdir(fw_dir, 0700) == 0);
	while (p < endp && n < MAX_ENTRIES) {
		snprintf(entry, sizeof(entry), "%s/%u", fw_dir, n++);
		FUZZ_ASSERT(mkdir(entry, 0700) == 0);
		for (f = 0; f < 3; f++) {
			const char *nl = memchr(p, '\n', endp - p);
			size_t len = nl ? (size_t)(nl - p) : (size_t)(endp - p);

			write_field(entry, fields[f], p, len);
			p += len + (nl != NULL);
		}
	}
	memmap_init(&map);
	if (!memmap_read_firmware_dir(&quiet, &map, fw_dir)) {
		FUZZ_ASSERT(map.n > 0);
		check_normalized(&map);
	}
	memmap_free(&map);
	clear_fw_dir();
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	(void)argc;
	(void)argv;
	snprintf(fw_root, sizeof(fw_root), "%s/fuzz-memmap.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	FUZZ_ASSERT(mkdtemp(fw_root));
	snprintf(fw_dir, sizeof(fw_dir), "%s/memmap", fw_root);
	atexit(remove_fw_root);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		fuzz_firmware_dir(data + 1, size - 1);
	else
		fuzz_iomem_text(data + 1, size - 1);
	return 0;
}
