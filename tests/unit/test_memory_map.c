// SPDX-License-Identifier: GPL-2.0-only
/*
 * The memory map: /sys/firmware/memmap trees and /proc/iomem texts from
 * tests/unit/fixtures, sorting and merging, types, fallback and errors.
 */
#include "file-io.h"
#include "memmap-read.h"
#include "memory-map.h"
#include "unit.h"

struct want {
	uint64_t start, end;	/* end exclusive */
	uint32_t type;
};

#define NWANT(w)	(sizeof(w) / sizeof((w)[0]))

/* The QEMU -m 512 firmware map (SeaBIOS e820). */
static const struct want qemu_512m[] = {
	{ 0x0, 0x9fc00, MEM_RAM },
	{ 0x9fc00, 0xa0000, MEM_RESERVED },
	{ 0xf0000, 0x100000, MEM_RESERVED },
	{ 0x100000, 0x1ffe0000, MEM_RAM },
	{ 0x1ffe0000, 0x20000000, MEM_RESERVED },
	{ 0xfffc0000, 0x100000000, MEM_RESERVED },
};

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

#define CHECK_MAP(map, w) check_map(ctx, __LINE__, map, w, NWANT(w))

static void check_map(struct unit_ctx *ctx, int line,
		      const struct mem_map *map, const struct want *w, size_t n)
{
	size_t i;

	if (map->n != n)
		FAILF("line %d: %zu ranges, want %zu", line, map->n, n);
	for (i = 0; i < n; i++) {
		const struct mem_range *r = &map->r[i];

		if (r->start != w[i].start || r->end != w[i].end ||
		    r->type != w[i].type)
			FAILF("line %d: range %zu is 0x%" PRIx64 "-0x%" PRIx64
			      " type %" PRIu32 ", want 0x%" PRIx64 "-0x%" PRIx64
			      " type %" PRIu32, line, i, r->start, r->end,
			      r->type, w[i].start, w[i].end, w[i].type);
	}
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

static char *join(struct unit_ctx *ctx, const char *a, const char *b)
{
	char *s;

	if (asprintf(&s, "%s%s", a, b) < 0)
		FAILF("out of memory");
	unit_defer(ctx, free, s);
	return s;
}

TEST(type_names)
{
	CHECK_EQ_INT(memmap_type_from_name("System RAM"), MEM_RAM);
	CHECK_EQ_INT(memmap_type_from_name("Reserved"), MEM_RESERVED);
	CHECK_EQ_INT(memmap_type_from_name("reserved"), MEM_RESERVED);
	CHECK_EQ_INT(memmap_type_from_name("ACPI Tables"), MEM_ACPI);
	CHECK_EQ_INT(memmap_type_from_name("ACPI Non-volatile Storage"),
		     MEM_NVS);
	CHECK_EQ_INT(memmap_type_from_name("Unusable memory"), MEM_UNUSABLE);
	CHECK_EQ_INT(memmap_type_from_name("Persistent Memory"), MEM_PMEM);
	CHECK_EQ_INT(memmap_type_from_name("Persistent Memory (legacy)"),
		     MEM_PRAM);
	CHECK_EQ_INT(memmap_type_from_name("Unknown E820 type"), MEM_RESERVED);
	CHECK_EQ_INT(memmap_type_from_name("PCI Bus 0000:00"), 0);
	CHECK_EQ_INT(memmap_type_from_name("System RAM "), 0);
	CHECK_EQ_INT(memmap_type_from_name(""), 0);
	CHECK_STR(memmap_type_name(MEM_RAM), "RAM");
	CHECK_STR(memmap_type_name(MEM_NVS), "ACPI NVS");
	CHECK_STR(memmap_type_name(99), "unknown");
}

TEST(add_rejects_empty)
{
	struct mem_map *map = new_map(ctx);

	CHECK_EQ_INT(memmap_add(map, 0x1000, 0x1000, MEM_RAM), -EINVAL);
	CHECK_EQ_INT(memmap_add(map, 0x2000, 0x1000, MEM_RAM), -EINVAL);
	CHECK_EQ_INT(map->n, 0);
	CHECK_EQ_INT(memmap_add(map, 0x1000, 0x1001, MEM_RAM), 0);
	CHECK_EQ_INT(map->n, 1);
}

TEST(add_limit)
{
	struct mem_map *map = new_map(ctx);
	uint64_t i;

	for (i = 0; i < MEMMAP_MAX_RANGES; i++)
		CHECK_EQ_INT(memmap_add(map, 2 * i, 2 * i + 1, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(map, 1ull << 30, 1ull << 31, MEM_RAM), -E2BIG);
	memmap_normalize(map);
	CHECK_EQ_U64(map->n, MEMMAP_MAX_RANGES);	/* nothing touches */
}

TEST(normalize)
{
	static const struct want w[] = {
		{ 0x0, 0x1000, MEM_RESERVED },
		{ 0x1000, 0x9000, MEM_RAM },
		{ 0x9000, 0xa000, MEM_ACPI },
		{ 0xa000, 0xb000, MEM_RAM },
		{ 0x100000, 0x300000, MEM_RAM },
	};
	struct mem_map *map = new_map(ctx);

	memmap_normalize(map);		/* empty: nothing to do */
	CHECK_EQ_INT(map->n, 0);
	CHECK_EQ_INT(memmap_add(map, 0x200000, 0x300000, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(map, 0xa000, 0xb000, MEM_RAM), 0);
	CHECK_EQ_INT(memmap_add(map, 0x5000, 0x9000, MEM_RAM), 0);	/* touches */
	CHECK_EQ_INT(memmap_add(map, 0x1000, 0x6000, MEM_RAM), 0);	/* overlaps */
	CHECK_EQ_INT(memmap_add(map, 0x2000, 0x3000, MEM_RAM), 0);	/* inside */
	CHECK_EQ_INT(memmap_add(map, 0x9000, 0xa000, MEM_ACPI), 0);
	CHECK_EQ_INT(memmap_add(map, 0x0, 0x1000, MEM_RESERVED), 0);
	CHECK_EQ_INT(memmap_add(map, 0x100000, 0x200000, MEM_RAM), 0);
	memmap_normalize(map);
	CHECK_MAP(map, w);
	memmap_normalize(map);		/* idempotent */
	CHECK_MAP(map, w);
}

TEST(firmware_qemu)
{
	const char *root = unit_fixture(ctx, "qemu-i386-512m");
	struct mem_map *map = new_map(ctx);

	unit_capture_start(ctx);
	CHECK_EQ_INT(memmap_read_firmware_dir(unit_kj_default(), map,
			join(ctx, root, "/sys/firmware/memmap")), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK_MAP(map, qemu_512m);
}

TEST(system_prefers_firmware)
{
	const char *root = unit_fixture(ctx, "qemu-i386-512m");
	struct mem_map *map = new_map(ctx);

	unit_capture_start(ctx);
	CHECK_EQ_INT(memmap_read_system(unit_kj(ctx, root), map), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	/* /proc/iomem would start with a reserved page at 0 */
	CHECK_MAP(map, qemu_512m);
}

TEST(firmware_sorted_merged)
{
	static const struct want w[] = {
		{ 0x0, 0x9fc00, MEM_RAM },
		{ 0x9fc00, 0xa0000, MEM_RESERVED },
		{ 0xf0000, 0x100000, MEM_RESERVED },
		{ 0x100000, 0x1ffe0000, MEM_RAM },
		{ 0x1ffe0000, 0x20000000, MEM_RESERVED },
		{ 0xfed1c000, 0xfed20000, MEM_NVS },
		{ 0xfed20000, 0xfed30000, MEM_ACPI },
		{ 0xfee00000, 0xfee01000, MEM_RESERVED },
		{ 0xfffc0000, 0x100000000, MEM_RESERVED },
		{ 0x100000000, 0x180000000, MEM_PRAM },
		{ 0x180000000, 0x1c0000000, MEM_PMEM },
		{ 0x1c0000000, 0x1c1000000, MEM_UNUSABLE },
	};
	const char *root = unit_fixture(ctx, "memmap-unsorted");
	struct mem_map *map = new_map(ctx);
	const char *err;

	unit_capture_start(ctx);
	CHECK_EQ_INT(memmap_read_system(unit_kj(ctx, root), map), 0);
	err = unit_capture_stop(ctx);
	CHECK_MAP(map, w);
	/* entry 12 has a type nobody knows: reserved, and said so */
	CHECK_WARN_LINE(err, "unknown memory type \"Kjump Test Type\"");
	CHECK_CONTAINS(err, "/12: ");
	CHECK_CONTAINS(err, "treated as reserved");
}

TEST(firmware_malformed)
{
	const char *root = unit_fixture(ctx, "memmap-bad");
	struct mem_map *map = new_map(ctx);
	const char *err;

	unit_capture_start(ctx);
	CHECK_EQ_INT(memmap_read_firmware_dir(unit_kj_default(), map,
			join(ctx, root, "/sys/firmware/memmap")), -EINVAL);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	memmap_free(map);
	unit_capture_start(ctx);
	CHECK_EQ_INT(memmap_read_system(unit_kj(ctx, root), map), -EINVAL);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "/sys/firmware/memmap: Invalid argument");
}

/* A type file that is missing is an error too, not a silent hole. */
TEST(firmware_missing_file)
{
	const char *dir = unit_tmpdir(ctx);
	struct mem_map *map = new_map(ctx);
	char sub[4096];

	snprintf(sub, sizeof(sub), "%s/0", dir);
	CHECK_EQ_INT(mkdir(sub, 0755), 0);
	unit_write_file(ctx, sub, "start", "0x0\n", (size_t)-1);
	unit_write_file(ctx, sub, "end", "0x9fbff\n", (size_t)-1);
	CHECK_EQ_INT(memmap_read_firmware_dir(unit_kj_default(), map, dir), -ENOENT);
	unit_write_file(ctx, sub, "type", "System RAM\n", (size_t)-1);
	memmap_free(map);
	CHECK_EQ_INT(memmap_read_firmware_dir(unit_kj_default(), map, dir), 0);
	CHECK_EQ_INT(map->n, 1);
	/* end below start */
	unit_write_file(ctx, sub, "end", "0x0\n", (size_t)-1);
	unit_write_file(ctx, sub, "start", "0x1000\n", (size_t)-1);
	memmap_free(map);
	CHECK_EQ_INT(memmap_read_firmware_dir(unit_kj_default(), map, dir), -EINVAL);
}

TEST(iomem_qemu)
{
	static const struct want w[] = {
		{ 0x0, 0x1000, MEM_RESERVED },
		{ 0x1000, 0x9fc00, MEM_RAM },
		{ 0x9fc00, 0xa0000, MEM_RESERVED },
		{ 0xf0000, 0x100000, MEM_RESERVED },
		{ 0x100000, 0x1ffe0000, MEM_RAM },	/* crash kernel inside */
		{ 0x1ffe0000, 0x20000000, MEM_RESERVED },
		{ 0xfffc0000, 0x100000000, MEM_RESERVED },
	};
	struct mem_map *map = new_map(ctx);
	char *text = fixture_text(ctx, "qemu-i386-512m/proc/iomem");

	unit_capture_start(ctx);
	CHECK_EQ_INT(memmap_parse_iomem(map, text), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK_MAP(map, w);
}

/* No /sys/firmware/memmap: /proc/iomem, nested lines ignored. */
TEST(fallback_to_iomem)
{
	static const struct want w[] = {
		{ 0x0, 0x1000, MEM_RESERVED },
		{ 0x1000, 0x9fc00, MEM_RAM },
		{ 0x9fc00, 0xa0000, MEM_RESERVED },
		{ 0xf0000, 0x100000, MEM_RESERVED },
		{ 0x100000, 0x3ffe0000, MEM_RAM },
		{ 0x3ffe0000, 0x40000000, MEM_RESERVED },
		{ 0xfffc0000, 0x100000000, MEM_RESERVED },
	};
	const char *root = unit_fixture(ctx, "iomem-only-1g");
	struct mem_map *map = new_map(ctx);

	unit_capture_start(ctx);
	CHECK_EQ_INT(memmap_read_system(unit_kj(ctx, root), map), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK_MAP(map, w);
}

/* An empty firmware directory is no map: fall back as well. */
TEST(fallback_empty_firmware_dir)
{
	const char *dir = unit_tmpdir(ctx);
	struct mem_map *map = new_map(ctx);
	char path[4096];

	CHECK_EQ_INT(mkdir(join(ctx, dir, "/sys"), 0755), 0);
	CHECK_EQ_INT(mkdir(join(ctx, dir, "/sys/firmware"), 0755), 0);
	CHECK_EQ_INT(mkdir(join(ctx, dir, "/sys/firmware/memmap"), 0755), 0);
	snprintf(path, sizeof(path), "%s/proc", dir);
	CHECK_EQ_INT(mkdir(path, 0755), 0);
	unit_write_file(ctx, path, "iomem",
			"00100000-1fffffff : System RAM\n", (size_t)-1);
	unit_capture_start(ctx);
	CHECK_EQ_INT(memmap_read_system(unit_kj(ctx, dir), map), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK_EQ_INT(map->n, 1);
	CHECK_EQ_U64(map->r[0].start, 0x100000);
	CHECK_EQ_U64(map->r[0].end, 0x20000000);
}

TEST(no_map_at_all)
{
	const char *dir = unit_tmpdir(ctx);
	struct mem_map *map = new_map(ctx);
	const char *err;

	unit_capture_start(ctx);
	CHECK_EQ_INT(memmap_read_system(unit_kj(ctx, dir), map), -ENOENT);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "/proc/iomem: No such file or directory");
}

/* Without CAP_SYS_ADMIN every address reads as 0: say so, use nothing. */
TEST(iomem_nonroot)
{
	const char *dir = unit_tmpdir(ctx);
	struct mem_map *map = new_map(ctx);
	char *text = fixture_text(ctx, "iomem-nonroot.txt");
	char path[4096];
	const char *err;

	snprintf(path, sizeof(path), "%s/proc", dir);
	CHECK_EQ_INT(mkdir(path, 0755), 0);
	unit_write_file(ctx, path, "iomem", text, (size_t)-1);
	unit_capture_start(ctx);
	CHECK(memmap_read_system(unit_kj(ctx, dir), map) < 0);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "run as root");
	CHECK_EQ_INT(map->n, 0);
}

TEST(iomem_malformed)
{
	static const char *const bad[] = {
		"garbage\n",
		"00100000 : System RAM\n",
		"00100000-1fffffff System RAM\n",
		"2000-1000 : System RAM\n",
		"zzzz-ffff : System RAM\n",
		"00000000-ffffffffffffffff : System RAM\n",
		"00001000-0009fbff : System RAM\n-1 : x\n",
	};
	size_t i;

	for (i = 0; i < NWANT(bad); i++) {
		struct mem_map map;
		int ret;

		memmap_init(&map);
		ret = memmap_parse_iomem(&map, bad[i]);
		memmap_free(&map);
		if (ret != -EINVAL)
			FAILF("\"%s\" gave %d, want -EINVAL", bad[i], ret);
	}
}

/* Through memmap_read_system: one error line naming the file. */
TEST(iomem_malformed_message)
{
	const char *dir = unit_tmpdir(ctx);
	struct mem_map *map = new_map(ctx);
	char path[4096];
	const char *err;

	snprintf(path, sizeof(path), "%s/proc", dir);
	CHECK_EQ_INT(mkdir(path, 0755), 0);
	unit_write_file(ctx, path, "iomem",
			"00001000-0009fbff : System RAM\nnot a range\n",
			(size_t)-1);
	unit_capture_start(ctx);
	CHECK_EQ_INT(memmap_read_system(unit_kj(ctx, dir), map), -EINVAL);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "/proc/iomem: no usable memory map (Invalid argument)");
}

/* Blank lines and names we do not use are skipped; no trailing newline. */
TEST(iomem_edge_lines)
{
	struct mem_map *map = new_map(ctx);

	CHECK_EQ_INT(memmap_parse_iomem(map,
			"\n000a0000-000bffff : PCI Bus 0000:00\n\n"
			"00100000-001fffff : System RAM\n"
			"  00100000-001fffff : System RAM\n"
			"  00180000-0018ffff : Reserved\n"
			"    00180000-0018ffff : ACPI Tables\n"
			"00200000-002fffff : System RAM"), 0);
	CHECK_EQ_INT(map->n, 1);
	CHECK_EQ_U64(map->r[0].start, 0x100000);
	CHECK_EQ_U64(map->r[0].end, 0x300000);
	CHECK_EQ_INT(map->r[0].type, MEM_RAM);
	memmap_free(map);
	CHECK_EQ_INT(memmap_parse_iomem(map, ""), 0);
	CHECK_EQ_INT(map->n, 0);
}

/*
 * Caught by tests/fuzz/fuzz_memmap's reference check: lines were cut to
 * 255 bytes, so a
 * long line whose first 255 bytes read "<start>-<end> : System RAM"
 * added RAM the file did not describe, and a long name could pass for a
 * short one.  Lines are read whole, whatever their length.
 */
TEST(iomem_long_line)
{
	struct mem_map *map = new_map(ctx);
	static const char tail[] = "-fff : System RAM";
	char text[1024];
	size_t pad = 255 - (sizeof(tail) - 1);

	/* 255 bytes of a valid line, then one more byte of name */
	memset(text, '0', pad);
	snprintf(text + pad, sizeof(text) - pad, "%sX\n", tail);
	CHECK_EQ_INT(strlen(text), 257);
	CHECK_EQ_INT(memmap_parse_iomem(map, text), 0);
	CHECK_EQ_INT(map->n, 0);
	/* a long top-level name of no interest does not hide what follows */
	memset(text, 'n', sizeof(text));
	memcpy(text, "000a0000-000bffff : ", 20);
	snprintf(text + 600, sizeof(text) - 600,
		 "\n00100000-001fffff : System RAM\n");
	CHECK_EQ_INT(memmap_parse_iomem(map, text), 0);
	CHECK_EQ_INT(map->n, 1);
	CHECK_EQ_U64(map->r[0].start, 0x100000);
	CHECK_EQ_U64(map->r[0].end, 0x200000);
}

UNIT_MAIN("memory-map",
	RUN(type_names), RUN(add_rejects_empty), RUN(add_limit),
	RUN(normalize), RUN(firmware_qemu), RUN(system_prefers_firmware),
	RUN(firmware_sorted_merged), RUN(firmware_malformed),
	RUN(firmware_missing_file), RUN(iomem_qemu), RUN(fallback_to_iomem),
	RUN(fallback_empty_firmware_dir), RUN(no_map_at_all),
	RUN(iomem_nonroot), RUN(iomem_malformed),
	RUN(iomem_malformed_message), RUN(iomem_edge_lines),
	RUN(iomem_long_line))
