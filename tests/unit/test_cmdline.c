// SPDX-License-Identifier: GPL-2.0-only
/* The next kernel's command line: --append and --reuse-cmdline rules. */
#include "cmdline.h"
#include "unit.h"

static void cl_free(void *cl)
{
	cmdline_free(cl);
}

static struct cmdline *new_cl(struct unit_ctx *ctx)
{
	struct cmdline *cl = unit_alloc(ctx, sizeof(*cl));

	cmdline_init(cl);
	unit_defer(ctx, cl_free, cl);
	return cl;
}

static void append(struct unit_ctx *ctx, struct cmdline *cl, const char *t)
{
	CHECK_EQ_INT(cmdline_append(cl, t), 0);
	CHECK_EQ_U64(cl->len, strlen(cmdline_str(cl)));
}

static const char *reuse(struct unit_ctx *ctx, const char *proc,
			 bool drop_crashkernel)
{
	struct cmdline *cl = new_cl(ctx);

	CHECK_EQ_INT(cmdline_append_reused(cl, proc, drop_crashkernel), 0);
	CHECK_EQ_U64(cl->len, strlen(cmdline_str(cl)));
	return cmdline_str(cl);
}

TEST(empty)
{
	struct cmdline *cl = new_cl(ctx);

	CHECK_STR(cmdline_str(cl), "");
	append(ctx, cl, "");
	append(ctx, cl, "   \t\n ");
	CHECK_STR(cmdline_str(cl), "");
	CHECK_EQ_U64(cl->len, 0);
	CHECK_STR(reuse(ctx, "", false), "");
	CHECK_STR(reuse(ctx, " \n", true), "");
	CHECK_STR(reuse(ctx, "BOOT_IMAGE=/vmlinuz\n", false), "");
}

TEST(append_trims)
{
	struct cmdline *cl = new_cl(ctx);

	append(ctx, cl, "  console=ttyS0  ");
	CHECK_STR(cmdline_str(cl), "console=ttyS0");
	append(ctx, cl, "\tquiet\n");
	CHECK_STR(cmdline_str(cl), "console=ttyS0 quiet");
	append(ctx, cl, " ");
	CHECK_STR(cmdline_str(cl), "console=ttyS0 quiet");
	/* inside the text nothing changes */
	append(ctx, cl, "a  b");
	CHECK_STR(cmdline_str(cl), "console=ttyS0 quiet a  b");
}

/* --append text is taken as given: BOOT_IMAGE= is only dropped on reuse. */
TEST(append_keeps_everything)
{
	struct cmdline *cl = new_cl(ctx);

	append(ctx, cl, "BOOT_IMAGE=/x crashkernel=64M");
	CHECK_STR(cmdline_str(cl), "BOOT_IMAGE=/x crashkernel=64M");
}

TEST(append_grows)
{
	struct cmdline *cl = new_cl(ctx);
	char word[1001];
	int i;

	memset(word, 'w', 1000);
	word[1000] = '\0';
	for (i = 0; i < 5; i++)
		append(ctx, cl, word);
	CHECK_EQ_U64(cl->len, 5 * 1000 + 4);
	CHECK(cl->cap > cl->len);
	CHECK(cl->buf != NULL);
	CHECK_EQ_INT(cl->buf[1000], ' ');
	CHECK_EQ_INT(cl->buf[5004], '\0');
}

TEST(reuse_drops_boot_image)
{
	CHECK_STR(reuse(ctx, "BOOT_IMAGE=/boot/vmlinuz-6.1 root=/dev/sda1 ro quiet\n",
			false),
		  "root=/dev/sda1 ro quiet");
	CHECK_STR(reuse(ctx, "root=/dev/vda BOOT_IMAGE=(hd0)/vmlinuz console=ttyS0",
			false),
		  "root=/dev/vda console=ttyS0");
}

TEST(reuse_crashkernel)
{
	const char *proc = "root=/dev/vda crashkernel=128M quiet\n";

	CHECK_STR(reuse(ctx, proc, false), "root=/dev/vda crashkernel=128M quiet");
	CHECK_STR(reuse(ctx, proc, true), "root=/dev/vda quiet");
}

TEST(reuse_word_boundary)
{
	CHECK_STR(reuse(ctx, "xBOOT_IMAGE=1 BOOT_IMAGEX=2 BOOT_IMAGE a", true),
		  "xBOOT_IMAGE=1 BOOT_IMAGEX=2 BOOT_IMAGE a");
	CHECK_STR(reuse(ctx, "nocrashkernel=1 crashkernelx=2 crashkernel", true),
		  "nocrashkernel=1 crashkernelx=2 crashkernel");
	CHECK_STR(reuse(ctx, "foo=BOOT_IMAGE=x", false), "foo=BOOT_IMAGE=x");
}

TEST(reuse_quoted)
{
	CHECK_STR(reuse(ctx, "root=/dev/vda acpi_osi=\"Windows 2015\" quiet\n",
			false),
		  "root=/dev/vda acpi_osi=\"Windows 2015\" quiet");
	/* a quoted value is part of its word, dropped words included */
	CHECK_STR(reuse(ctx, "BOOT_IMAGE=\"/boot/my kernel\" ro", false), "ro");
	CHECK_STR(reuse(ctx, "\"a b\"  c", false), "\"a b\" c");
}

/* Runs of blanks between words become single spaces. */
TEST(reuse_separators)
{
	CHECK_STR(reuse(ctx, "  a\t\tb \n c\r\n", false), "a b c");
}

TEST(reuse_then_append)
{
	struct cmdline *cl = new_cl(ctx);

	CHECK_EQ_INT(cmdline_append_reused(cl,
			"BOOT_IMAGE=/vmlinuz root=/dev/vda console=ttyS0\n",
			false), 0);
	append(ctx, cl, " kjump.marker=42 ");
	CHECK_STR(cmdline_str(cl), "root=/dev/vda console=ttyS0 kjump.marker=42");
}

UNIT_MAIN("cmdline",
	RUN(empty), RUN(append_trims), RUN(append_keeps_everything),
	RUN(append_grows), RUN(reuse_drops_boot_image), RUN(reuse_crashkernel),
	RUN(reuse_word_boundary), RUN(reuse_quoted), RUN(reuse_separators),
	RUN(reuse_then_append))
