// SPDX-License-Identifier: GPL-2.0-only
/*
 * The /proc/vmcore reader (kj_vmcore_*) on cores written by elf-core.c,
 * the same builder a crash load uses: ELF32 and ELF64, reads by physical
 * address inside and across PT_LOADs, a header at an offset (/dev/mem),
 * and every refusal as one error line.
 */
#include <elf.h>

#include "elf-core.h"
#include "unit.h"

#define DATA_OFF	0x2000ull	/* where the loads' bytes start */

/* Three loads, the last two back to back in physical memory. */
static const struct elfcore_load loads[] = {
	{ 0x1000, 0x3000, DATA_OFF },
	{ 0x100000, 0x2000, DATA_OFF + 0x3000 },
	{ 0x102000, 0x1000, DATA_OFF + 0x5000 },
};
static const struct elfcore_note note = { 0x7000, 0x100 };

#define NR_LOADS	(sizeof(loads) / sizeof(loads[0]))
#define DATA_LEN	0x6000u

/* Byte i of the data area: where each byte came from is checkable. */
static uint8_t data_byte(size_t i)
{
	return (uint8_t)(i * 7 + (i >> 8));
}

/* A core file of class cls; base: bytes before the header. */
static const char *write_core(struct unit_ctx *ctx, int cls, uint64_t base)
{
	struct elfcore_spec spec = {
		.elf_class = cls, .machine = EM_386,
		.page_offset = 0xc0000000ull, .lowmem_limit = 0x38000000ull,
		.notes = &note, .nr_notes = 1, .loads = loads,
		.nr_loads = NR_LOADS,
	};
	struct elfcore_load moved[NR_LOADS];
	size_t len = (size_t)(base + DATA_OFF + DATA_LEN), i;
	uint8_t *buf = unit_alloc(ctx, len);
	const char *dir = unit_tmpdir(ctx);
	char *path = unit_alloc(ctx, 4096);

	memset(buf, 0, len);
	for (i = 0; i < NR_LOADS; i++) {
		moved[i] = loads[i];
		moved[i].offset += base;	/* offsets absolute in the file */
	}
	spec.loads = moved;
	CHECK(elfcore_size(&spec) <= DATA_OFF);
	elfcore_build(&spec, buf + base);
	for (i = 0; i < DATA_LEN; i++)
		buf[base + DATA_OFF + i] = data_byte(i);
	unit_write_file(ctx, dir, "core", buf, len);
	snprintf(path, 4096, "%s/core", dir);
	return path;
}

static void close_core(void *vc)
{
	kj_vmcore_close(vc);
}

static struct kj_vmcore *open_ok(struct unit_ctx *ctx, const char *path,
				 uint64_t hdr_at)
{
	struct kj_vmcore *vc;
	const char *err;
	int ret;

	unit_capture_start(ctx);
	ret = kj_vmcore_open_at(unit_kj_default(), path, hdr_at, &vc);
	err = unit_capture_stop(ctx);
	if (ret)
		FAILF("kj_vmcore_open_at: %d: %s", ret, err);
	CHECK_NO_OUTPUT(err);
	unit_defer(ctx, close_core, vc);
	return vc;
}

static void check_layout(struct unit_ctx *ctx, struct kj_vmcore *vc,
			 int cls, uint64_t base)
{
	struct kj_vmcore_info in;
	size_t i;

	kj_vmcore_info(vc, &in);
	CHECK_EQ_INT(in.elf_class, cls);
	CHECK_EQ_U64(in.nr_phdrs, 1 + NR_LOADS);
	CHECK_EQ_U64(in.nr_notes, 1);
	CHECK_EQ_U64(in.nr_loads, NR_LOADS);
	for (i = 0; i < NR_LOADS; i++) {
		CHECK_EQ_U64(in.loads[i].paddr, loads[i].paddr);
		CHECK_EQ_U64(in.loads[i].filesz, loads[i].size);
		CHECK_EQ_U64(in.loads[i].memsz, loads[i].size);
		CHECK_EQ_U64(in.loads[i].offset, loads[i].offset + base);
	}
}

/* len bytes at paddr are the data bytes from index first on. */
static void check_read(struct unit_ctx *ctx, struct kj_vmcore *vc,
		       uint64_t paddr, size_t len, size_t first)
{
	uint8_t buf[0x3000];
	size_t i;

	CHECK(len <= sizeof(buf));
	CHECK_EQ_INT(kj_vmcore_read(vc, paddr, buf, len), 0);
	for (i = 0; i < len; i++)
		if (buf[i] != data_byte(first + i))
			FAILF("byte %zu at 0x%" PRIx64 ": 0x%02x, want 0x%02x",
			      i, paddr + i, buf[i], data_byte(first + i));
}

static void check_class(struct unit_ctx *ctx, int cls, uint64_t base)
{
	const char *path = write_core(ctx, cls, base);
	struct kj_vmcore *vc = open_ok(ctx, path, base);

	check_layout(ctx, vc, cls, base);
	check_read(ctx, vc, 0x1000, 16, 0);
	check_read(ctx, vc, 0x3ff0, 16, 0x2ff0);	/* the end of load 0 */
	check_read(ctx, vc, 0x100800, 0x1000, 0x3800);
	/* across loads 1 and 2, which touch in physical memory */
	check_read(ctx, vc, 0x101ff8, 16, 0x4ff8);
	check_read(ctx, vc, 0x100000, 0x3000, 0x3000);
}

TEST(elf32)
{
	check_class(ctx, 32, 0);
}

TEST(elf64)
{
	check_class(ctx, 64, 0);
}

/* The old kernel's header read where it sits, offsets absolute. */
TEST(header_at_offset)
{
	check_class(ctx, 32, 0x5000);
	check_class(ctx, 64, 0x9000);
}

static void read_refused(struct unit_ctx *ctx, struct kj_vmcore *vc,
			 uint64_t paddr, size_t len, const char *want)
{
	uint8_t buf[64];
	const char *err;
	int ret;

	unit_capture_start(ctx);
	ret = kj_vmcore_read(vc, paddr, buf, len);
	err = unit_capture_stop(ctx);
	CHECK_EQ_INT(ret, -ERANGE);
	CHECK_ERR_LINE(err, want);
}

TEST(read_outside)
{
	struct kj_vmcore *vc = open_ok(ctx, write_core(ctx, 64, 0), 0);

	read_refused(ctx, vc, 0x0, 16, "no PT_LOAD holds 0x0");
	read_refused(ctx, vc, 0x3ff8, 16, "no PT_LOAD holds 0x4000");
	read_refused(ctx, vc, 0x102ff8, 16, "no PT_LOAD holds 0x103000");
	read_refused(ctx, vc, UINT64_MAX - 4, 4, "no PT_LOAD holds");
}

static void open_refused(struct unit_ctx *ctx, const char *path,
			 uint64_t hdr_at, const char *want)
{
	struct kj_vmcore *vc = (struct kj_vmcore *)1;
	const char *err;
	int ret;

	unit_capture_start(ctx);
	ret = kj_vmcore_open_at(unit_kj_default(), path, hdr_at, &vc);
	err = unit_capture_stop(ctx);
	CHECK(ret < 0);
	CHECK(vc == NULL);
	CHECK_ERR_LINE(err, want);
}

TEST(open_refusals)
{
	const char *dir = unit_tmpdir(ctx);
	const char *core = write_core(ctx, 32, 0);
	char path[4096];
	uint8_t buf[DATA_OFF];
	FILE *f;

	open_refused(ctx, "/nonexistent-kjump/vmcore", 0,
		     "/nonexistent-kjump/vmcore: No such file or directory");
	unit_write_file(ctx, dir, "text", "not a core\n", (size_t)-1);
	snprintf(path, sizeof(path), "%s/text", dir);
	open_refused(ctx, path, 0, "no ELF magic");
	open_refused(ctx, core, 1 << 20, "no ELF header at 0x100000");
	/* an executable, not a core */
	f = fopen(core, "rb");
	CHECK(f && fread(buf, 1, sizeof(buf), f) == sizeof(buf));
	fclose(f);
	buf[16] = ET_EXEC;
	unit_write_file(ctx, dir, "exec", buf, sizeof(buf));
	snprintf(path, sizeof(path), "%s/exec", dir);
	open_refused(ctx, path, 0, "not an ELF core (e_type 2");
	/* program headers cut off */
	buf[16] = ET_CORE;
	unit_write_file(ctx, dir, "short", buf, 0x40);
	snprintf(path, sizeof(path), "%s/short", dir);
	open_refused(ctx, path, 0, "lie outside the file");
}

UNIT_MAIN("vmcore",
	  RUN(elf32),
	  RUN(elf64),
	  RUN(header_at_offset),
	  RUN(read_outside),
	  RUN(open_refusals))
