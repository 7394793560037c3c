// SPDX-License-Identifier: GPL-2.0-only
/*
 * /proc/iomem for crash loading: the "Crash kernel" region (the last one
 * wins, at any nesting depth), its absence, malformed lines, and the
 * collection of "System RAM" ranges.
 */
#include "file-io.h"
#include "iomem.h"
#include "memory-map.h"
#include "unit.h"

static void map_free(void *map)
{
	memmap_free(map);
}

static struct mem_map *new_map(struct unit_ctx *ctx)
{
	struct mem_map *map = unit_alloc(ctx, sizeof(*map));

	memmap_init(map);
	unit_defer(ctx, map_free, map);
	return map;
}

static char *fixture_text(struct unit_ctx *ctx, const char *name)
{
	const char *path = unit_fixture(ctx, name);
	char *text;
	size_t len;
	int ret;

	ret = read_file(path, 1 << 20, &text, &len);
	if (ret)
		FAILF("%s: %s", path, strerror(-ret));
	unit_defer(ctx, free, text);
	return text;
}

#define CHECK_RANGE(r, s, e, t)						\
	do {								\
		CHECK_EQ_U64((r).start, (s));				\
		CHECK_EQ_U64((r).end, (e));				\
		CHECK_EQ_U64((r).type, (t));				\
	} while (0)

/* The QEMU fixture: one region, nested under System RAM. */
TEST(crash_region_fixture)
{
	char *text = fixture_text(ctx, "qemu-i386-512m/proc/iomem");
	struct mem_range r = { 0 };

	CHECK_EQ_INT(iomem_crash_region(text, &r), 0);
	CHECK_RANGE(r, 0x1a000000, 0x1e000000, MEM_RAM);
}

TEST(crash_region_last_wins)
{
	static const char text[] =
		"00001000-0009fbff : System RAM\n"
		"00100000-3fffffff : System RAM\n"
		"  01000000-0179a7a7 : Kernel code\n"
		"  08000000-0bffffff : Crash kernel\n"
		"    09000000-09ffffff : Crash kernel\n"
		"  20000000-27ffffff : Crash kernel\n"
		"  28000000-28000fff : Crash kernel data\n"
		"100000000-13fffffff : System RAM\n";
	struct mem_range r = { 0 };

	CHECK_EQ_INT(iomem_crash_region(text, &r), 0);
	CHECK_RANGE(r, 0x20000000, 0x28000000, MEM_RAM);
}

/* Deeper indentation after the last one still counts; top level too. */
TEST(crash_region_nested_last)
{
	static const char text[] =
		"00100000-3fffffff : System RAM\n"
		"  08000000-0bffffff : Crash kernel\n"
		"    0a000000-0a0fffff : Crash kernel\n"
		"40000000-4fffffff : Reserved\n";
	static const char top[] =
		"00100000-3fffffff : System RAM\n"
		"40000000-43ffffff : Crash kernel";	/* no final newline */
	struct mem_range r = { 0 };

	CHECK_EQ_INT(iomem_crash_region(text, &r), 0);
	CHECK_RANGE(r, 0x0a000000, 0x0a100000, MEM_RAM);
	CHECK_EQ_INT(iomem_crash_region(top, &r), 0);
	CHECK_RANGE(r, 0x40000000, 0x44000000, MEM_RAM);
}

TEST(crash_region_none)
{
	static const char text[] =
		"00001000-0009fbff : System RAM\n"
		"00100000-1ffdffff : System RAM\n"
		"  1a000000-1dffffff : Crash kernel data\n"
		"  1e000000-1effffff : crash kernel\n"
		"  1f000000-1f0fffff : Crash kernel \n";
	struct mem_range r = { 0x1234, 0x5678, 9 };

	CHECK_EQ_INT(iomem_crash_region(text, &r), -ENOENT);
	CHECK_EQ_INT(iomem_crash_region("", &r), -ENOENT);
	/* untouched on failure */
	CHECK_RANGE(r, 0x1234, 0x5678, 9);
}

TEST(crash_region_malformed)
{
	static const char *const bad[] = {
		"00100000-1ffdffff : System RAM\n"
		"  1a000000 : Crash kernel\n",
		"00100000-1ffdffff : System RAM\n"
		"  zz000000-1dffffff : Crash kernel\n",
		/* end below start */
		"  1dffffff-1a000000 : Crash kernel\n",
		/* a malformed line after a good region still fails */
		"  1a000000-1dffffff : Crash kernel\n"
		"garbage\n",
		/* end of all memory: cannot be made exclusive */
		"  1a000000-ffffffffffffffff : Crash kernel\n",
	};
	struct mem_range r = { 0 };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (iomem_crash_region(bad[i], &r) != -EINVAL)
			FAILF("case %zu: not -EINVAL", i);
}

/* Every System RAM line, nested or not, in file order; nothing else. */
TEST(collect_system_ram)
{
	char *text = fixture_text(ctx, "qemu-i386-512m/proc/iomem");
	struct mem_map *map = new_map(ctx);

	CHECK_EQ_INT(iomem_collect(text, "System RAM", MEM_RAM, map), 0);
	CHECK_EQ_U64(map->n, 2);
	CHECK_RANGE(map->r[0], 0x1000, 0x9fc00, MEM_RAM);
	CHECK_RANGE(map->r[1], 0x100000, 0x1ffe0000, MEM_RAM);
}

TEST(collect_nested_and_type)
{
	static const char text[] =
		"00001000-0009fbff : System RAM\n"
		"00100000-3fffffff : Reserved\n"
		"  00200000-002fffff : System RAM\n"
		"\n"
		"100000000-13fffffff : System RAM\n"
		"140000000-14fffffff : System RAM (extra)\n";
	struct mem_map *map = new_map(ctx);

	CHECK_EQ_INT(iomem_collect(text, "System RAM", MEM_ACPI, map), 0);
	CHECK_EQ_U64(map->n, 3);
	CHECK_RANGE(map->r[0], 0x1000, 0x9fc00, MEM_ACPI);
	CHECK_RANGE(map->r[1], 0x200000, 0x300000, MEM_ACPI);
	CHECK_RANGE(map->r[2], 0x100000000ull, 0x140000000ull, MEM_ACPI);
}

TEST(collect_malformed)
{
	struct mem_map *map = new_map(ctx);
	char longline[400];

	CHECK_EQ_INT(iomem_collect("00001000-0009fbff : System RAM\n"
				   "0009fc00-0009ffff Reserved\n",
				   "System RAM", MEM_RAM, map), -EINVAL);
	memset(longline, 'a', sizeof(longline) - 1);
	longline[sizeof(longline) - 1] = '\0';
	CHECK_EQ_INT(iomem_collect(longline, "System RAM", MEM_RAM, map),
		     -EINVAL);
}

/*
 * Found by tests/fuzz/fuzz_iomem: sscanf's %llx took a sign, "0x" and
 * blanks, so "-2--2" read as the last byte of the 64-bit space.  Bounds
 * are plain hex digits, as the kernel prints them.
 */
TEST(parse_line_plain_hex)
{
	static const char *const bad[] = {
		"-2--2 : System RAM",
		"+1000-1fff : System RAM",
		"1000--1fff : System RAM",
		"0x1000-0x1fff : System RAM",
		"1000- 1fff : System RAM",
		"1000 -1fff : System RAM",
		"1000-1fff System RAM",
		"10000000000000000-10000000000000fff : System RAM",
	};
	uint64_t start = 1, end = 1;
	const char *name = NULL;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (iomem_parse_line(bad[i], &start, &end, &name) != -EINVAL)
			FAILF("\"%s\" accepted", bad[i]);
	CHECK_EQ_INT(iomem_parse_line("\t  0000000000001000-1FfF:Crash kernel",
				      &start, &end, &name), 0);
	CHECK_EQ_U64(start, 0x1000);
	CHECK_EQ_U64(end, 0x2000);
	CHECK_STR(name, "Crash kernel");
	CHECK_EQ_INT(iomem_parse_line("fffffffffffff000-fffffffffffffffe : x",
				      &start, &end, &name), 0);
	CHECK_EQ_U64(end, 0xffffffffffffffffull);
}

/*
 * Found with tests/fuzz/fuzz_iomem: a line of 256 bytes or more made the
 * whole file malformed, so one long device name anywhere in /proc/iomem
 * stopped crash loading.
 */
TEST(collect_long_line)
{
	struct mem_map *map = new_map(ctx);
	struct mem_range r = { 0 };
	char text[1024];
	char name[400];

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(text, sizeof(text),
		 "00100000-3fffffff : System RAM\n"
		 "  01000000-01ffffff : %s\n"
		 "  08000000-0bffffff : Crash kernel\n", name);
	CHECK(strlen(text) > 400);
	CHECK_EQ_INT(iomem_crash_region(text, &r), 0);
	CHECK_RANGE(r, 0x08000000, 0x0c000000, MEM_RAM);
	CHECK_EQ_INT(iomem_collect(text, "System RAM", MEM_RAM, map), 0);
	CHECK_EQ_U64(map->n, 1);
	CHECK_RANGE(map->r[0], 0x100000, 0x40000000, MEM_RAM);
}

/*
 * A user without CAP_SYS_ADMIN sees zeros: the line parses as the one
 * byte at 0 (crash_prepare() recognises that and says "not root?").
 */
TEST(nonroot_zeros)
{
	char *text = fixture_text(ctx, "iomem-nonroot.txt");
	struct mem_range r = { 0x1234, 0x5678, 9 };

	CHECK_EQ_INT(iomem_crash_region(text, &r), 0);
	CHECK_RANGE(r, 0, 1, MEM_RAM);
}

UNIT_MAIN("iomem",
	  RUN(crash_region_fixture),
	  RUN(crash_region_last_wins),
	  RUN(crash_region_nested_last),
	  RUN(crash_region_none),
	  RUN(crash_region_malformed),
	  RUN(collect_system_ram),
	  RUN(collect_nested_and_type),
	  RUN(collect_malformed),
	  RUN(parse_line_plain_hex),
	  RUN(collect_long_line),
	  RUN(nonroot_zeros))
