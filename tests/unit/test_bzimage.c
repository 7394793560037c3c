// SPDX-License-Identifier: GPL-2.0-only
/*
 * bzimage_parse() and the bzImage loader's probe on synthetic images, and
 * on a real kernel when KJUMP_BZIMAGE names one.
 */
#include "arch.h"
#include "bzimage.h"
#include "file-io.h"
#include "synth-bzimage.h"
#include "unit.h"

static const char *build(struct unit_ctx *ctx, const struct synth_bzimage *s,
			 size_t *len)
{
	uint8_t *b = synth_build(s, len);

	if (!b)
		FAILF("out of memory");
	unit_defer(ctx, free, b);
	return (const char *)b;
}

/* Parse and expect a rejection whose reason contains want. */
static void expect_reject(struct unit_ctx *ctx, const char *buf, size_t len,
			  const char *want)
{
	struct bzimage_info bi;
	char why[160] = "";

	unit_capture_start(ctx);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), -1);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK_CONTAINS(why, want);
}

TEST(valid)
{
	struct synth_bzimage s;
	struct bzimage_info bi;
	const char *buf;
	char why[160] = "";
	size_t len;

	synth_defaults(&s);
	buf = build(ctx, &s, &len);
	unit_capture_start(ctx);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK_EQ_U64(bi.version, 0x020f);
	CHECK_EQ_U64(bi.setup_size, 7 * 512);
	CHECK(bi.payload == buf + 7 * 512);
	CHECK_EQ_U64(bi.payload_len, 0x10000);
	CHECK(bi.relocatable);
	CHECK_EQ_U64(bi.kernel_alignment, 0x200000);
	CHECK_EQ_U64(bi.pref_address, 0x1000000);
	CHECK_EQ_U64(bi.init_size, 0x40000);
	CHECK_EQ_U64(bi.initrd_addr_max, 0x7fffffff);
	CHECK_EQ_U64(bi.cmdline_size, 2047);
	CHECK_EQ_U64(bi.header_len, 0x268 - 0x1f1);
}

/* setup_sects == 0 means 4 (boot.rst: "for backwards compatibility"). */
TEST(setup_sects_zero)
{
	struct synth_bzimage s;
	struct bzimage_info bi;
	const char *buf;
	char why[160];
	size_t len;

	synth_defaults(&s);
	s.setup_sects = 0;
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK_EQ_U64(bi.setup_size, 5 * 512);
	CHECK(bi.payload == buf + 5 * 512);
}

/* Bytes after syssize's worth (signatures, padding) stay with the payload. */
TEST(trailing_bytes)
{
	struct synth_bzimage s;
	struct bzimage_info bi;
	const char *buf;
	char why[160];
	size_t len;

	synth_defaults(&s);
	s.syssize = 0x10000 / 16 - 8;
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK_EQ_U64(bi.payload_len, 0x10000);
}

TEST(truncated)
{
	struct synth_bzimage s;
	const char *buf;
	size_t len;

	synth_defaults(&s);
	buf = build(ctx, &s, &len);
	expect_reject(ctx, buf, len - 1, "truncated");
	expect_reject(ctx, buf, len / 2, "truncated");
	/* the setup area alone, nothing after it */
	expect_reject(ctx, buf, 7 * 512, "truncated");
}

/* A payload size that does not fit a size_t is still "truncated". */
TEST(syssize_huge)
{
	struct synth_bzimage s;
	const char *buf;
	size_t len;

	synth_defaults(&s);
	s.syssize = 0xffffffff;
	buf = build(ctx, &s, &len);
	expect_reject(ctx, buf, len, "truncated");
	s.syssize = 0x10000000;		/* * 16 == 2^32 */
	buf = build(ctx, &s, &len);
	expect_reject(ctx, buf, len, "truncated");
}

TEST(setup_sects_past_end)
{
	struct synth_bzimage s;
	const char *buf;
	size_t len;

	synth_defaults(&s);
	s.payload_len = 0;
	s.syssize = 1;
	buf = build(ctx, &s, &len);
	((uint8_t *)buf)[SB_SETUP_SECTS] = 0xff;
	expect_reject(ctx, buf, len, "truncated");
}

TEST(no_hdrs)
{
	struct synth_bzimage s;
	const char *buf;
	size_t len;

	synth_defaults(&s);
	s.magic = 0x53726449;
	buf = build(ctx, &s, &len);
	expect_reject(ctx, buf, len, "HdrS");
}

TEST(bad_boot_flag)
{
	struct synth_bzimage s;
	const char *buf;
	size_t len;

	synth_defaults(&s);
	s.boot_flag = 0x55aa;
	buf = build(ctx, &s, &len);
	expect_reject(ctx, buf, len, "boot flag is 0x55aa");
}

TEST(protocol_too_old)
{
	struct synth_bzimage s;
	const char *buf;
	size_t len;

	synth_defaults(&s);
	s.version = 0x01ff;
	buf = build(ctx, &s, &len);
	expect_reject(ctx, buf, len, "1.ff is too old");
}

TEST(zimage)
{
	struct synth_bzimage s;
	const char *buf;
	size_t len;

	synth_defaults(&s);
	s.loadflags = 0x80;
	buf = build(ctx, &s, &len);
	expect_reject(ctx, buf, len, "zImage");
}

TEST(too_short)
{
	struct synth_bzimage s;
	const char *buf;
	size_t len;

	synth_defaults(&s);
	buf = build(ctx, &s, &len);
	expect_reject(ctx, buf, 0x267, "too short");
	expect_reject(ctx, buf, 0, "too short");
	expect_reject(ctx, "MZ", 2, "too short");
}

/* Protocol 2.04: none of the 2.05+ fields may be read. */
TEST(old_protocol_defaults)
{
	struct synth_bzimage s;
	struct bzimage_info bi;
	const char *buf;
	char why[160];
	size_t len;

	synth_defaults(&s);
	s.version = 0x0204;
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK(!bi.relocatable);
	CHECK_EQ_U64(bi.kernel_alignment, 0x100000);
	CHECK_EQ_U64(bi.cmdline_size, 255);
	CHECK_EQ_U64(bi.pref_address, 0x100000);
	CHECK_EQ_U64(bi.initrd_addr_max, 0x7fffffff);
	CHECK_EQ_U64(bi.init_size, 4 * 0x10000);
	/* 2.05: relocatable and aligned, but no cmdline_size yet */
	s.version = 0x0205;
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK(bi.relocatable);
	CHECK_EQ_U64(bi.kernel_alignment, 0x200000);
	CHECK_EQ_U64(bi.cmdline_size, 255);
	CHECK_EQ_U64(bi.pref_address, 0x100000);
	s.version = 0x0206;
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK_EQ_U64(bi.cmdline_size, 2047);
	s.version = 0x0202;
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK_EQ_U64(bi.initrd_addr_max, 0x37ffffff);
}

TEST(not_relocatable)
{
	struct synth_bzimage s;
	struct bzimage_info bi;
	const char *buf;
	char why[160];
	size_t len;

	synth_defaults(&s);
	s.relocatable = 0;
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK(!bi.relocatable);
}

TEST(bad_alignment_and_init_size)
{
	struct synth_bzimage s;
	struct bzimage_info bi;
	const char *buf;
	char why[160];
	size_t len;

	synth_defaults(&s);
	s.kernel_alignment = 0x300000;	/* not a power of two */
	s.init_size = 0x100;		/* smaller than the payload */
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK_EQ_U64(bi.kernel_alignment, 0x100000);
	CHECK_EQ_U64(bi.init_size, 0x10000);
	s.kernel_alignment = 0;
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK_EQ_U64(bi.kernel_alignment, 0x100000);
}

/* The header length comes from the jump at 0x200 and is capped. */
TEST(header_len)
{
	struct synth_bzimage s;
	struct bzimage_info bi;
	const char *buf;
	char why[160];
	size_t len;

	synth_defaults(&s);
	s.header_jump = 0x2e;		/* protocol 2.06 ends at 0x230 */
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK_EQ_U64(bi.header_len, 0x230 - 0x1f1);
	s.header_jump = 0x7f;		/* longer than the fields we know */
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(bzimage_parse(buf, len, &bi, why, sizeof(why)), 0);
	CHECK_EQ_U64(bi.header_len, 0x268 - 0x1f1);
}

/* The loader's probe says the same as the parser. */
TEST(probe)
{
	const struct arch_loader *l = arch_loaders[0];
	struct synth_bzimage s;
	const char *buf;
	char why[160] = "";
	size_t len;

	CHECK(l != NULL);
	CHECK_STR(l->name, "bzImage");
	synth_defaults(&s);
	buf = build(ctx, &s, &len);
	CHECK_EQ_INT(l->probe(buf, len, why, sizeof(why)), 0);
	CHECK_EQ_INT(l->probe(buf, len - 16, why, sizeof(why)), -1);
	CHECK_CONTAINS(why, "truncated");
}

/* A real kernel from the environment, e.g. the QEMU test kernel. */
TEST(real_kernel)
{
	const char *path = getenv("KJUMP_BZIMAGE");
	struct bzimage_info bi;
	char why[160] = "", *buf;
	size_t len;
	int ret;

	if (!path || !*path)
		SKIP("KJUMP_BZIMAGE not set");
	ret = read_file(path, 256u << 20, &buf, &len);
	if (ret)
		FAILF("%s: %s", path, strerror(-ret));
	unit_defer(ctx, free, buf);
	if (bzimage_parse(buf, len, &bi, why, sizeof(why)))
		FAILF("%s: %s", path, why);
	CHECK(bi.version >= 0x020a);
	CHECK(bi.setup_size >= 5 * 512 && bi.setup_size <= 64 * 512);
	CHECK_EQ_U64(bi.setup_size % 512, 0);
	CHECK(bi.payload_len > 0x10000);
	CHECK(bi.payload_len + bi.setup_size == len);
	CHECK(bi.relocatable);
	CHECK(bi.kernel_alignment >= 0x1000);
	CHECK_EQ_U64(bi.kernel_alignment & (bi.kernel_alignment - 1), 0);
	CHECK(bi.pref_address >= 0x100000);
	CHECK_EQ_U64(bi.pref_address % bi.kernel_alignment, 0);
	CHECK(bi.init_size >= bi.payload_len);
	CHECK(bi.cmdline_size >= 255);
	CHECK(bi.header_len >= 0x260 - 0x1f1);
	CHECK(bi.initrd_addr_max >= 0x37ffffff);
}

/* arch_file_check() on synth with a command line of cl_len bytes. */
static int file_check(struct unit_ctx *ctx, const struct synth_bzimage *s,
		      size_t cl_len, bool *is_signed, char *why, size_t whylen)
{
	size_t len;
	const char *buf = build(ctx, s, &len);

	*is_signed = false;
	return arch_file_check(buf, len, cl_len, is_signed, why, whylen);
}

TEST(file_check_64)
{
	struct synth_bzimage s;
	char why[256] = "";
	bool sig;

	synth_defaults(&s);
	s.xloadflags = 3;
	CHECK_EQ_INT(file_check(ctx, &s, 10, &sig, why, sizeof(why)), 0);
	CHECK(!sig);
	s.pe_signed = 1;
	CHECK_EQ_INT(file_check(ctx, &s, 10, &sig, why, sizeof(why)), 0);
	CHECK(sig);
	/* 2047 - 30 for elfcorehdr=: 2017 bytes with the NUL still go */
	CHECK_EQ_INT(file_check(ctx, &s, 2017, &sig, why, sizeof(why)), 0);
	CHECK_EQ_INT(file_check(ctx, &s, 2018, &sig, why, sizeof(why)),
		     -E2BIG);
	CHECK_CONTAINS(why, "2017 bytes; through kexec_file_load this kernel takes 2016 at most");
}

TEST(file_check_refusals)
{
	struct synth_bzimage s;
	char why[256] = "";
	bool sig;

	synth_defaults(&s);
	CHECK_EQ_INT(file_check(ctx, &s, 1, &sig, why, sizeof(why)), -ENOEXEC);
	CHECK_CONTAINS(why, "no 64-bit entry");
	s.xloadflags = 1;
	CHECK_EQ_INT(file_check(ctx, &s, 1, &sig, why, sizeof(why)), -ENOEXEC);
	CHECK_CONTAINS(why, "may not be loaded above 4 GiB");
	s.xloadflags = 3;
	s.version = 0x020b;
	CHECK_EQ_INT(file_check(ctx, &s, 1, &sig, why, sizeof(why)), -ENOEXEC);
	CHECK_CONTAINS(why, "boot protocol 2.11; the kernel's file loader needs 2.12");
	s.version = 0x020c;
	s.magic = 0;
	CHECK_EQ_INT(file_check(ctx, &s, 1, &sig, why, sizeof(why)), -ENOEXEC);
	CHECK_CONTAINS(why, "no \"HdrS\" boot header");
}

/* A certificate table that ends past the file is no signature. */
TEST(file_check_cert_outside)
{
	struct synth_bzimage s;
	char why[256] = "";
	size_t len;
	uint8_t *b;
	bool sig = true;

	synth_defaults(&s);
	s.xloadflags = 3;
	s.pe_signed = 1;
	b = synth_build(&s, &len);
	if (!b)
		FAILF("out of memory");
	unit_defer(ctx, free, b);
	synth_le(b, SB_PE_OPT + 112 + 4 * 8 + 4, 17, 4);
	CHECK_EQ_INT(arch_file_check((const char *)b, len, 1, &sig, why,
				     sizeof(why)), 0);
	CHECK(!sig);
	synth_le(b, SB_PE_OPT + 112 + 4 * 8 + 4, 16, 4);
	synth_le(b, SB_PE_OPT + 108, 4, 4);	/* no directory 4 */
	CHECK_EQ_INT(arch_file_check((const char *)b, len, 1, &sig, why,
				     sizeof(why)), 0);
	CHECK(!sig);
}

UNIT_MAIN("bzimage",
	RUN(valid), RUN(setup_sects_zero), RUN(trailing_bytes),
	RUN(truncated), RUN(syssize_huge), RUN(setup_sects_past_end),
	RUN(no_hdrs), RUN(bad_boot_flag), RUN(protocol_too_old), RUN(zimage),
	RUN(too_short), RUN(old_protocol_defaults), RUN(not_relocatable),
	RUN(bad_alignment_and_init_size), RUN(header_len), RUN(probe),
	RUN(real_kernel), RUN(file_check_64), RUN(file_check_refusals),
	RUN(file_check_cert_outside))
