// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/iomem for crash loading: iomem_parse_line() on every line,
 * iomem_collect() of "System RAM" and "Crash kernel", and
 * iomem_crash_region().
 *
 * Promises checked: a parsed line is "start-end : name" in plain hex
 * with those values, gives a non-empty range and a name inside the line; a successful collect lists exactly the lines with that
 * name, in file order; the crash region is the last "Crash kernel" line,
 * -ENOENT when there is none, and fails when the collect fails.
 */
#include <errno.h>

#include "fuzz.h"
#include "iomem.h"
#include "memory-map.h"

/*
 * What was accepted reads as the kernel prints it: blanks, hex digits,
 * '-', hex digits, the ':' (no signs, "0x" or blanks inside numbers), and
 * the digits are the values returned.
 */
static void check_grammar(const char *line, uint64_t start, uint64_t end)
{
	static const char hex[] = "0123456789abcdefABCDEF";
	const char *q = line + strspn(line, " \t\n\v\f\r");
	size_t a = strspn(q, hex), b;

	FUZZ_ASSERT(a > 0 && q[a] == '-');
	b = strspn(q + a + 1, hex);
	FUZZ_ASSERT(b > 0);
	FUZZ_ASSERT(strtoull(q, NULL, 16) == start);
	FUZZ_ASSERT(strtoull(q + a + 1, NULL, 16) == end - 1);
	q += a + 1 + b;
	FUZZ_ASSERT(q[strspn(q, " \t\n\v\f\r")] == ':');
}

static void check_lines(const char *text)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = fuzz_strdup((const uint8_t *)p, len);
		uint64_t start = 0, end = 0;
		const char *name = NULL;

		if (!iomem_parse_line(line, &start, &end, &name)) {
			FUZZ_ASSERT(start < end);
			FUZZ_ASSERT(name);
			FUZZ_ASSERT(fuzz_inside(line, len, name, strlen(name)));
			check_grammar(line, start, end);
		}
		free(line);
		p += len;
		if (*p)
			p++;
	}
}

/* Every line of text named want, in order, by the documented format. */
static void named_lines(const char *text, const char *want,
			struct mem_map *ref)
{
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = fuzz_strdup((const uint8_t *)p, len);
		uint64_t start, end;
		const char *name;

		if (!iomem_parse_line(line, &start, &end, &name) &&
		    !strcmp(name, want))
			FUZZ_ASSERT(memmap_add(ref, start, end, MEM_RAM) != -ENOMEM);
		free(line);
		p += len;
		if (*p)
			p++;
	}
}

static int check_collect(const char *text, const char *name,
			 struct mem_map *map)
{
	struct mem_map ref;
	size_t i;
	int ret;

	ret = iomem_collect(text, name, MEM_RAM, map);
	FUZZ_ASSERT(ret == 0 || ret == -EINVAL || ret == -E2BIG);
	if (ret)
		return ret;
	memmap_init(&ref);
	named_lines(text, name, &ref);
	FUZZ_ASSERT(map->n == ref.n);
	for (i = 0; i < map->n; i++) {
		FUZZ_ASSERT(map->r[i].start < map->r[i].end);
		FUZZ_ASSERT(map->r[i].type == MEM_RAM);
		FUZZ_ASSERT(ref.r[i].start == map->r[i].start);
		FUZZ_ASSERT(ref.r[i].end == map->r[i].end);
	}
	memmap_free(&ref);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size);
	struct mem_map ram, crash;
	struct mem_range r = { 1, 0, 0 };
	int ret, cret;

	check_lines(text);
	memmap_init(&ram);
	memmap_init(&crash);
	check_collect(text, "System RAM", &ram);
	cret = check_collect(text, "Crash kernel", &crash);
	ret = iomem_crash_region(text, &r);
	if (cret) {
		FUZZ_ASSERT(ret == cret);
	} else if (!crash.n) {
		FUZZ_ASSERT(ret == -ENOENT);
	} else {
		FUZZ_ASSERT(ret == 0);
		FUZZ_ASSERT(r.start == crash.r[crash.n - 1].start);
		FUZZ_ASSERT(r.end == crash.r[crash.n - 1].end);
	}
	memmap_free(&crash);
	memmap_free(&ram);
	free(text);
	return 0;
}
