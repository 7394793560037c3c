// SPDX-License-Identifier: GPL-2.0-only
/* parse_options(): actions, conflicts, arguments and their errors. */
#include "options.h"
#include "unit.h"

#define MAX_ARGS	40

/*
 * Parse "kexec" + the NULL-terminated words.  Returns parse_options()'s
 * result; *err receives what it printed on stderr.
 */
static int parse_v(struct unit_ctx *ctx, struct kexec_opts *o,
		   const char **err, va_list ap)
{
	static char *argv[MAX_ARGS + 2];
	const char *w;
	int argc = 1, ret;

	argv[0] = "kexec";
	while ((w = va_arg(ap, const char *))) {
		if (argc == MAX_ARGS)
			FAILF("too many arguments");
		argv[argc++] = (char *)w;
	}
	argv[argc] = NULL;
	unit_capture_start(ctx);
	ret = parse_options(argc, argv, o);
	*err = unit_capture_stop(ctx);
	return ret;
}

/* Expect success and no output. */
__attribute__((sentinel))
static void ok(struct unit_ctx *ctx, struct kexec_opts *o, ...)
{
	const char *err;
	va_list ap;
	int ret;

	va_start(ap, o);
	ret = parse_v(ctx, o, &err, ap);
	va_end(ap);
	if (ret)
		FAILF("parse failed: %s", err);
	CHECK_NO_OUTPUT(err);
}

/* Expect -1 and one "kexec: " line containing want. */
__attribute__((sentinel))
static void bad(struct unit_ctx *ctx, const char *want, ...)
{
	struct kexec_opts o;
	const char *err;
	va_list ap;
	int ret;

	va_start(ap, want);
	ret = parse_v(ctx, &o, &err, ap);
	va_end(ap);
	CHECK_EQ_INT(ret, -1);
	CHECK_ERR_LINE(err, want);
}

TEST(actions)
{
	struct kexec_opts o;

	ok(ctx, &o, "-l", "bzImage", NULL);
	CHECK_EQ_INT(o.action, ACT_LOAD);
	CHECK_STR(o.load.kernel, "bzImage");
	CHECK(!o.panic);
	ok(ctx, &o, "--load", "k", NULL);
	CHECK_EQ_INT(o.action, ACT_LOAD);
	ok(ctx, &o, "-e", NULL);
	CHECK_EQ_INT(o.action, ACT_EXEC);
	CHECK(o.load.kernel == NULL);
	ok(ctx, &o, "--exec", NULL);
	CHECK_EQ_INT(o.action, ACT_EXEC);
	ok(ctx, &o, "-u", NULL);
	CHECK_EQ_INT(o.action, ACT_UNLOAD);
	ok(ctx, &o, "--unload", NULL);
	CHECK_EQ_INT(o.action, ACT_UNLOAD);
	ok(ctx, &o, "-f", "k", NULL);
	CHECK_EQ_INT(o.action, ACT_FORCE);
	ok(ctx, &o, "--force", "k", NULL);
	CHECK_EQ_INT(o.action, ACT_FORCE);
	ok(ctx, &o, "-j", NULL);
	CHECK_EQ_INT(o.action, ACT_JUMP);
	ok(ctx, &o, "--jump", NULL);
	CHECK_EQ_INT(o.action, ACT_JUMP);
	ok(ctx, &o, "k", NULL);
	CHECK_EQ_INT(o.action, ACT_DEFAULT);
	CHECK_STR(o.load.kernel, "k");
	/* the same action twice is no conflict */
	ok(ctx, &o, "-e", "--exec", NULL);
	CHECK_EQ_INT(o.action, ACT_EXEC);
}

TEST(defaults)
{
	struct kexec_opts o;

	ok(ctx, &o, "-l", "k", NULL);
	CHECK(!o.debug && !o.no_ifdown && !o.no_sync && !o.load.no_checks);
	CHECK(!o.load.reuse_cmdline);
	CHECK(o.load.type == NULL && o.load.initrd == NULL);
	CHECK_EQ_INT(o.load.nr_append, 0);
	CHECK_EQ_U64(o.load.mem_min, 0);
	CHECK_EQ_U64(o.load.mem_max, UINT64_MAX);
}

TEST(flags)
{
	struct kexec_opts o;

	ok(ctx, &o, "-dxyi", "-e", NULL);
	CHECK(o.debug && o.no_ifdown && o.no_sync && o.load.no_checks);
	ok(ctx, &o, "--debug", "--no-ifdown", "--no-sync", "--no-checks",
	   "-e", NULL);
	CHECK(o.debug && o.no_ifdown && o.no_sync && o.load.no_checks);
	ok(ctx, &o, "-t", "bzImage", "-l", "k", NULL);
	CHECK_STR(o.load.type, "bzImage");
	ok(ctx, &o, "--type=bzImage", "--reuse-cmdline", "-l", "k", NULL);
	CHECK_STR(o.load.type, "bzImage");
	CHECK(o.load.reuse_cmdline);
}

TEST(conflicts)
{
	bad(ctx, "cannot be combined", "-l", "-e", "k", NULL);
	bad(ctx, "cannot be combined", "-e", "-l", "k", NULL);
	bad(ctx, "cannot be combined", "-l", "k", "-e", NULL);
	bad(ctx, "-e and -u cannot be combined", "-e", "-u", NULL);
	bad(ctx, "cannot be combined", "-u", "-j", NULL);
	bad(ctx, "cannot be combined", "-f", "-l", "k", NULL);
	bad(ctx, "cannot be combined", "--exec", "--jump", NULL);
	bad(ctx, "cannot be combined", "-ej", NULL);
}

TEST(warm_up)
{
	struct kexec_opts o;

	ok(ctx, &o, "--warm-up", NULL);
	CHECK_EQ_INT(o.action, ACT_WARM_UP);
	CHECK(o.load.kernel == NULL && o.hib_target == NULL);
	ok(ctx, &o, "--warm-up", "-x", NULL);
	CHECK(o.no_ifdown);
	bad(ctx, "kexec: options: -p and --warm-up cannot be combined",
	    "-p", "--warm-up", NULL);
	bad(ctx, "kexec: options: --warm-up and -l cannot be combined",
	    "--warm-up", "-l", NULL);
	bad(ctx, "kexec: options: --warm-up and --hibernate cannot be combined",
	    "--warm-up", "--hibernate=/dev/sdb", NULL);
	bad(ctx, "kexec: options: --snapshot and --warm-up cannot be combined",
	    "--snapshot=/dev/sdb", "--warm-up", NULL);
	bad(ctx, "kexec: --compress: only with --hibernate or --snapshot",
	    "--warm-up", "--compress=zstd", NULL);
	bad(ctx, "kexec: k: a kernel image makes no sense with this action",
	    "--warm-up", "k", NULL);
	bad(ctx, "kexec: --warm-up=now: takes no argument", "--warm-up=now",
	    NULL);
}

TEST(kernel_argument)
{
	bad(ctx, "no kernel image given", "-l", NULL);
	bad(ctx, "no kernel image given", "-f", NULL);
	bad(ctx, "k: a kernel image makes no sense", "-e", "k", NULL);
	bad(ctx, "makes no sense", "-u", "k", NULL);
	bad(ctx, "makes no sense", "-j", "k", NULL);
	bad(ctx, "k2: unexpected argument", "-l", "k1", "k2", NULL);
	bad(ctx, "unexpected argument", "k1", "k2", NULL);
	bad(ctx, "nothing to do", NULL);
	bad(ctx, "nothing to do", "-d", NULL);
}

TEST(append_accumulates)
{
	struct kexec_opts o;

	ok(ctx, &o, "-l", "k", "--append=a=1", "--command-line", "b c",
	   "--append", "", "--command-line=d", NULL);
	CHECK_EQ_INT(o.load.nr_append, 4);
	CHECK_STR(o.load.append[0], "a=1");
	CHECK_STR(o.load.append[1], "b c");
	CHECK_STR(o.load.append[2], "");
	CHECK_STR(o.load.append[3], "d");
}

TEST(append_limit)
{
	struct kexec_opts o;
	const char *err;
	char *argv[KJ_MAX_APPEND + 5];
	int i, argc = 0;

	argv[argc++] = "kexec";
	argv[argc++] = "-l";
	argv[argc++] = "k";
	for (i = 0; i < KJ_MAX_APPEND; i++)
		argv[argc++] = "--append=x";
	argv[argc] = NULL;
	unit_capture_start(ctx);
	CHECK_EQ_INT(parse_options(argc, argv, &o), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK_EQ_INT(o.load.nr_append, KJ_MAX_APPEND);
	argv[argc++] = "--append=y";
	argv[argc] = NULL;
	unit_capture_start(ctx);
	CHECK_EQ_INT(parse_options(argc, argv, &o), -1);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "--append: more than");
}

TEST(initrd)
{
	struct kexec_opts o;

	ok(ctx, &o, "-l", "k", "--initrd=/boot/initrd.img", NULL);
	CHECK_STR(o.load.initrd, "/boot/initrd.img");
	ok(ctx, &o, "-l", "k", "--ramdisk", "rd", NULL);
	CHECK_STR(o.load.initrd, "rd");
	ok(ctx, &o, "--initrd=a", "--ramdisk=b", "-l", "k", NULL);
	CHECK_STR(o.load.initrd, "b");
	bad(ctx, "--initrd: needs an argument", "-l", "k", "--initrd", NULL);
	bad(ctx, "--ramdisk: needs an argument", "-l", "k", "--ramdisk", NULL);
}

TEST(mem_limits)
{
	struct kexec_opts o;

	ok(ctx, &o, "-l", "k", "--mem-min=0x100000", "--mem-max", "0x1fffffff",
	   NULL);
	CHECK_EQ_U64(o.load.mem_min, 0x100000);
	CHECK_EQ_U64(o.load.mem_max, 0x1fffffff);
	ok(ctx, &o, "-l", "k", "--mem-min=1048576", "--mem-max=010000000", NULL);
	CHECK_EQ_U64(o.load.mem_min, 1048576);
	CHECK_EQ_U64(o.load.mem_max, 0x200000);
	ok(ctx, &o, "-l", "k", "--mem-min=0x1000", "--mem-max=0x1000", NULL);
	CHECK_EQ_U64(o.load.mem_min, 0x1000);
	CHECK_EQ_U64(o.load.mem_max, 0x1000);
	ok(ctx, &o, "-l", "k", "--mem-max=0xffffffffffffffff", NULL);
	CHECK_EQ_U64(o.load.mem_max, UINT64_MAX);
}

TEST(mem_garbage)
{
	bad(ctx, "--mem-min=zz: not an address", "-l", "k", "--mem-min=zz",
	    NULL);
	bad(ctx, "not an address", "-l", "k", "--mem-min=0x10zz", NULL);
	bad(ctx, "not an address", "-l", "k", "--mem-min=", NULL);
	bad(ctx, "not an address", "-l", "k", "--mem-min=-1", NULL);
	bad(ctx, "not an address", "-l", "k", "--mem-min= -1", NULL);
	bad(ctx, "--mem-max=0x1ffffffffffffffff: not an address", "-l", "k",
	    "--mem-max=0x1ffffffffffffffff", NULL);
	bad(ctx, "not an address", "-l", "k", "--mem-max=1M", NULL);
	bad(ctx, "not an address", "-l", "k", "--mem-min=+5", NULL);
	bad(ctx, "--mem-max: needs an argument", "-l", "k", "--mem-max", NULL);
}

TEST(mem_min_above_max)
{
	bad(ctx, "--mem-min: 0x200000 is above --mem-max 0x1fffff", "-l", "k",
	    "--mem-min=0x200000", "--mem-max=0x1fffff", NULL);
}

TEST(unknown_option)
{
	bad(ctx, "--bogus: unknown option (try 'kexec --help')", "--bogus",
	    "-l", "k", NULL);
	bad(ctx, "--bogus=1: unknown option", "-l", "k", "--bogus=1", NULL);
	bad(ctx, "-q: unknown option", "-q", NULL);
	bad(ctx, "-q: unknown option", "-lq", "k", NULL);
	bad(ctx, "-q: unknown option", "--debug", "-qe", NULL);
	bad(ctx, "-t: needs an argument", "-l", "k", "-t", NULL);
	/* a long option given a value it does not take */
	bad(ctx, "--exec=1: takes no argument", "--exec=1", NULL);
	bad(ctx, "--load=k: takes no argument", "--load=k", NULL);
	bad(ctx, "--verify=1: takes no argument", "--verify=1", NULL);
}

/* A failed parse must not leak state into the next one. */
TEST(reparse_after_error)
{
	struct kexec_opts o;

	bad(ctx, "-q: unknown option", "-qe", NULL);
	ok(ctx, &o, "-u", NULL);
	CHECK_EQ_INT(o.action, ACT_UNLOAD);
	bad(ctx, "-q: unknown option", "-dql", NULL);
	ok(ctx, &o, "-j", NULL);
	CHECK_EQ_INT(o.action, ACT_JUMP);
	CHECK(!o.debug);
}

/* GNU argument order: options may follow the kernel file. */
TEST(options_after_kernel)
{
	struct kexec_opts o;

	ok(ctx, &o, "-l", "bzImage", "--initrd=x", "--append", "quiet", "-d",
	   NULL);
	CHECK_EQ_INT(o.action, ACT_LOAD);
	CHECK_STR(o.load.kernel, "bzImage");
	CHECK_STR(o.load.initrd, "x");
	CHECK_EQ_INT(o.load.nr_append, 1);
	CHECK_STR(o.load.append[0], "quiet");
	CHECK(o.debug);
	ok(ctx, &o, "bzImage", "-l", NULL);
	CHECK_EQ_INT(o.action, ACT_LOAD);
	CHECK_STR(o.load.kernel, "bzImage");
	/* after "--" everything is a file name */
	ok(ctx, &o, "-l", "--", "-weird-name", NULL);
	CHECK_STR(o.load.kernel, "-weird-name");
}

TEST(help)
{
	struct kexec_opts o;

	ok(ctx, &o, "-h", NULL);
	CHECK_EQ_INT(o.action, ACT_HELP);
	ok(ctx, &o, "--help", NULL);
	CHECK_EQ_INT(o.action, ACT_HELP);
	/* -h wins over what follows, even nonsense */
	ok(ctx, &o, "-l", "-h", "--bogus", "k1", "k2", NULL);
	CHECK_EQ_INT(o.action, ACT_HELP);
}

TEST(version)
{
	struct kexec_opts o;

	ok(ctx, &o, "-v", NULL);
	CHECK_EQ_INT(o.action, ACT_VERSION);
	ok(ctx, &o, "--version", "-e", NULL);
	CHECK_EQ_INT(o.action, ACT_VERSION);
}

/* -p picks the crash slot: a load by itself, or with -u an unload. */
TEST(panic_slot)
{
	struct kexec_opts o;

	ok(ctx, &o, "-p", "k", NULL);
	CHECK_EQ_INT(o.action, ACT_LOAD);
	CHECK(o.panic);
	ok(ctx, &o, "-p", "-l", "k", NULL);
	CHECK_EQ_INT(o.action, ACT_LOAD);
	CHECK(o.panic);
	ok(ctx, &o, "-p", "-u", NULL);
	CHECK_EQ_INT(o.action, ACT_UNLOAD);
	CHECK(o.panic);
	bad(ctx, "-p and -e cannot be combined", "-p", "-e", NULL);
	bad(ctx, "no kernel image given", "-p", NULL);
}

UNIT_MAIN("options",
	RUN(actions), RUN(defaults), RUN(flags), RUN(conflicts),
	RUN(kernel_argument), RUN(append_accumulates), RUN(append_limit),
	RUN(initrd), RUN(mem_limits), RUN(mem_garbage), RUN(mem_min_above_max),
	RUN(unknown_option), RUN(reparse_after_error),
	RUN(options_after_kernel), RUN(help), RUN(version), RUN(panic_slot),
	RUN(warm_up))
