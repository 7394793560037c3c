/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A small unit test framework, header only.
 *
 *	TEST(name) { CHECK(...); CHECK_EQ_U64(a, b); ... }
 *	UNIT_MAIN("suite", RUN(name), RUN(other))
 *
 * Every test prints exactly one line on stdout:
 *	PASS: <prefix>/<suite>/<test>
 *	FAIL: <prefix>/<suite>/<test>: <file>:<line>: <what>
 *	SKIP: <prefix>/<suite>/<test>: <why>
 * where <prefix> is UNIT_PREFIX ("unit", "unit-asan" in sanitizer builds)
 * and underscores in test names are printed as dashes.  The program exits
 * 1 if any test failed.  Arguments, if given, select tests by name.
 *
 * A failed CHECK ends its test at once (longjmp back to the runner), so
 * CHECKs may be used in helpers too.  Resources that must go away even
 * then are registered with unit_defer(), unit_alloc() or unit_tmpdir().
 *
 * stderr: unit_capture_start() sends it to a temporary file until
 * unit_capture_stop() returns the text; the runner restores it if a test
 * fails in between.  Sanitizer reports always go to the real stderr.
 */
#ifndef KJUMP_UNIT_H
#define KJUMP_UNIT_H

#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/common_interface_defs.h>
#endif

#include "kjump/kjump.h"

#ifndef UNIT_PREFIX
#define UNIT_PREFIX "unit"
#endif

#define UNIT_MAX_DEFER		32
#define UNIT_CAPTURE_MAX	16384

enum unit_state { UNIT_PASS, UNIT_FAIL, UNIT_SKIP };

struct unit_defer {
	void (*fn)(void *);
	void *arg;
};

struct unit_ctx {
	const char *suite;
	const char *test;
	enum unit_state state;
	char msg[512];
	jmp_buf jb;
	struct unit_defer defer[UNIT_MAX_DEFER];
	unsigned int nr_defer;
	int saved_stderr;		/* -1: not capturing */
	FILE *cap;
	char captured[UNIT_CAPTURE_MAX];
};

struct unit_test {
	const char *name;
	void (*fn)(struct unit_ctx *ctx);
};

#define TEST(name)	static void test_##name(struct unit_ctx *ctx)
#define RUN(name)	{ #name, test_##name }

#define UNIT_UNUSED	__attribute__((unused))

__attribute__((noreturn, format(printf, 4, 5), unused))
static void unit_fail(struct unit_ctx *ctx, const char *file, int line,
		      const char *fmt, ...)
{
	size_t n;
	va_list ap;

	n = (size_t)snprintf(ctx->msg, sizeof(ctx->msg), "%s:%d: ", file, line);
	if (n < sizeof(ctx->msg)) {
		va_start(ap, fmt);
		vsnprintf(ctx->msg + n, sizeof(ctx->msg) - n, fmt, ap);
		va_end(ap);
	}
	ctx->state = UNIT_FAIL;
	longjmp(ctx->jb, 1);
}

__attribute__((noreturn, unused))
static void unit_skip(struct unit_ctx *ctx, const char *why)
{
	snprintf(ctx->msg, sizeof(ctx->msg), "%s", why);
	ctx->state = UNIT_SKIP;
	longjmp(ctx->jb, 1);
}

#define FAILF(...)	unit_fail(ctx, __FILE__, __LINE__, __VA_ARGS__)
#define SKIP(why)	unit_skip(ctx, why)

#define CHECK(cond)							\
	do {								\
		if (!(cond))						\
			FAILF("%s", #cond);				\
	} while (0)

#define CHECK_EQ_U64(a, b)						\
	do {								\
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);	\
		if (a_ != b_)						\
			FAILF("%s == %s: 0x%" PRIx64 " != 0x%" PRIx64,	\
			      #a, #b, a_, b_);				\
	} while (0)

#define CHECK_EQ_INT(a, b)						\
	do {								\
		long long a_ = (long long)(a), b_ = (long long)(b);	\
		if (a_ != b_)						\
			FAILF("%s == %s: %lld != %lld", #a, #b, a_, b_);\
	} while (0)

#define CHECK_STR(a, b)							\
	do {								\
		const char *a_ = (a), *b_ = (b);			\
		if (!a_ || !b_ || strcmp(a_, b_))			\
			FAILF("%s == %s: \"%s\" != \"%s\"", #a, #b,	\
			      a_ ? a_ : "(null)", b_ ? b_ : "(null)");	\
	} while (0)

#define CHECK_CONTAINS(hay, needle)					\
	do {								\
		const char *h_ = (hay), *n_ = (needle);			\
		if (!h_ || !strstr(h_, n_))				\
			FAILF("%s contains \"%s\": \"%s\"", #hay, n_,	\
			      h_ ? h_ : "(null)");			\
	} while (0)

#define CHECK_MEM(a, b, n)						\
	do {								\
		if (memcmp((a), (b), (n)))				\
			FAILF("%s == %s (%zu bytes)", #a, #b,		\
			      (size_t)(n));				\
	} while (0)

/* text is exactly one line "kexec: ...\n" containing needle. */
#define CHECK_ERR_LINE(text, needle)					\
	unit_check_err_line(ctx, __FILE__, __LINE__, (text), (needle),	\
			    "kexec: ")
#define CHECK_WARN_LINE(text, needle)					\
	unit_check_err_line(ctx, __FILE__, __LINE__, (text), (needle),	\
			    "kexec: warning: ")
#define CHECK_NO_OUTPUT(text)						\
	do {								\
		const char *t_ = (text);				\
		if (*t_)						\
			FAILF("unexpected stderr: \"%s\"", t_);		\
	} while (0)

UNIT_UNUSED
static void unit_check_err_line(struct unit_ctx *ctx, const char *file,
				int line, const char *text, const char *needle,
				const char *prefix)
{
	const char *nl = strchr(text, '\n');

	if (strncmp(text, prefix, strlen(prefix)))
		unit_fail(ctx, file, line, "stderr does not start with \"%s\": \"%s\"",
			  prefix, text);
	if (!nl || nl[1])
		unit_fail(ctx, file, line, "stderr is not exactly one line: \"%s\"",
			  text);
	if (!strstr(text, needle))
		unit_fail(ctx, file, line, "stderr lacks \"%s\": \"%s\"",
			  needle, text);
	if (prefix[7] == '\0' && !strncmp(text, "kexec: warning: ", 16))
		unit_fail(ctx, file, line, "a warning, not an error: \"%s\"",
			  text);
}

UNIT_UNUSED
static void unit_defer(struct unit_ctx *ctx, void (*fn)(void *), void *arg)
{
	if (ctx->nr_defer == UNIT_MAX_DEFER) {
		fn(arg);
		FAILF("unit_defer: more than %d cleanups", UNIT_MAX_DEFER);
	}
	ctx->defer[ctx->nr_defer++] = (struct unit_defer){ fn, arg };
}

/* Zeroed memory freed when the test ends. */
UNIT_UNUSED
static void *unit_alloc(struct unit_ctx *ctx, size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (!p)
		FAILF("out of memory (%zu bytes)", size);
	unit_defer(ctx, free, p);
	return p;
}

UNIT_UNUSED
static int unit_rm_one(const char *path, const struct stat *st, int type,
		       struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

UNIT_UNUSED
static void unit_rm_tree(void *path)
{
	nftw(path, unit_rm_one, 16, FTW_DEPTH | FTW_PHYS);
	free(path);
}

/* A fresh directory, removed with its contents when the test ends. */
UNIT_UNUSED
static const char *unit_tmpdir(struct unit_ctx *ctx)
{
	const char *tmp = getenv("TMPDIR");
	char *path;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (asprintf(&path, "%s/kjump-unit.XXXXXX", tmp) < 0)
		FAILF("out of memory");
	if (!mkdtemp(path)) {
		int err = errno;

		free(path);
		FAILF("mkdtemp in %s: %s", tmp, strerror(err));
	}
	unit_defer(ctx, unit_rm_tree, path);
	return path;
}

/* Write len bytes (or the string, with len == (size_t)-1) to dir/name. */
UNIT_UNUSED
static void unit_write_file(struct unit_ctx *ctx, const char *dir,
			    const char *name, const void *data, size_t len)
{
	char path[4096];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (len == (size_t)-1)
		len = strlen(data);
	f = fopen(path, "w");
	if (!f)
		FAILF("%s: %s", path, strerror(errno));
	n = fwrite(data, 1, len, f);
	if (fclose(f) || n != len)
		FAILF("%s: write failed", path);
}

/*
 * The fixture directory: $KJUMP_FIXTURES, else "fixtures" next to the
 * test source (which works when run from the build directory of an
 * in-tree build).
 */
#define unit_fixture(ctx, name)						\
	unit_fixture_path(ctx, __FILE__, __LINE__, name)

UNIT_UNUSED
static const char *unit_fixture_path(struct unit_ctx *ctx, const char *src,
				     int line, const char *name)
{
	const char *env = getenv("KJUMP_FIXTURES");
	const char *slash = strrchr(src, '/');
	char *path;
	int n;

	if (env && *env)
		n = asprintf(&path, "%s/%s", env, name);
	else if (slash)
		n = asprintf(&path, "%.*s/fixtures/%s", (int)(slash - src), src,
			     name);
	else
		n = asprintf(&path, "fixtures/%s", name);
	if (n < 0)
		FAILF("out of memory");
	unit_defer(ctx, free, path);
	if (access(path, R_OK))
		unit_fail(ctx, src, line, "fixture %s: %s (set KJUMP_FIXTURES)",
			  path, strerror(errno));
	return path;
}

UNIT_UNUSED
static void unit_capture_start(struct unit_ctx *ctx)
{
	if (ctx->saved_stderr >= 0)
		FAILF("unit_capture_start: already capturing");
	fflush(stderr);
	ctx->cap = tmpfile();
	if (!ctx->cap)
		FAILF("tmpfile: %s", strerror(errno));
	ctx->saved_stderr = dup(STDERR_FILENO);
	if (ctx->saved_stderr < 0 ||
	    dup2(fileno(ctx->cap), STDERR_FILENO) < 0) {
		fclose(ctx->cap);
		ctx->cap = NULL;
		FAILF("dup: %s", strerror(errno));
	}
}

UNIT_UNUSED
static void unit_capture_end(struct unit_ctx *ctx)
{
	if (ctx->saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(ctx->saved_stderr, STDERR_FILENO);
	close(ctx->saved_stderr);
	ctx->saved_stderr = -1;
	fclose(ctx->cap);
	ctx->cap = NULL;
}

/* Stop capturing; the text stays valid until the next capture. */
UNIT_UNUSED
static const char *unit_capture_stop(struct unit_ctx *ctx)
{
	size_t n;

	if (ctx->saved_stderr < 0)
		FAILF("unit_capture_stop: not capturing");
	fflush(stderr);
	rewind(ctx->cap);
	n = fread(ctx->captured, 1, sizeof(ctx->captured) - 1, ctx->cap);
	ctx->captured[n] = '\0';
	unit_capture_end(ctx);
	return ctx->captured;
}

UNIT_UNUSED
static void unit_print_name(const char *tag, const struct unit_ctx *ctx)
{
	const char *p;

	printf("%s: %s/%s/", tag, UNIT_PREFIX, ctx->suite);
	for (p = ctx->test; *p; p++)
		putchar(*p == '_' ? '-' : *p);
}

/* One line whatever the message holds. */
UNIT_UNUSED
static void unit_print_msg(const char *msg)
{
	fputs(": ", stdout);
	for (; *msg; msg++) {
		if (*msg == '\n')
			fputs("\\n", stdout);
		else
			putchar(*msg);
	}
}

UNIT_UNUSED
static bool unit_selected(const char *name, int argc, char **argv)
{
	int i;

	if (argc < 2)
		return true;
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return true;
	return false;
}

UNIT_UNUSED
static void unit_run_one(struct unit_ctx *ctx, const struct unit_test *t)
{
	ctx->test = t->name;
	ctx->state = UNIT_PASS;
	ctx->msg[0] = '\0';
	ctx->nr_defer = 0;
	ctx->saved_stderr = -1;
	ctx->cap = NULL;
	if (!setjmp(ctx->jb))
		t->fn(ctx);
	unit_capture_end(ctx);
	while (ctx->nr_defer) {
		struct unit_defer *d = &ctx->defer[--ctx->nr_defer];

		d->fn(d->arg);
	}
}

UNIT_UNUSED
static int unit_run(const char *suite, const struct unit_test *tests,
		    size_t n, int argc, char **argv)
{
	static const char *const tags[] = { "PASS", "FAIL", "SKIP" };
	static struct unit_ctx ctx;
	int failed = 0;
	size_t i;

#ifdef __SANITIZE_ADDRESS__
	/* Reports must not vanish into a capture file. */
	__sanitizer_set_report_fd((void *)(intptr_t)dup(STDERR_FILENO));
#endif
	setvbuf(stdout, NULL, _IOLBF, 0);
	ctx.suite = suite;
	for (i = 0; i < n; i++) {
		if (!unit_selected(tests[i].name, argc, argv))
			continue;
		unit_run_one(&ctx, &tests[i]);
		unit_print_name(tags[ctx.state], &ctx);
		if (ctx.state != UNIT_PASS)
			unit_print_msg(ctx.msg);
		putchar('\n');
		failed |= ctx.state == UNIT_FAIL;
	}
	fflush(stdout);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#define UNIT_MAIN(suite, ...)						\
	int main(int argc, char **argv)					\
	{								\
		static const struct unit_test tests_[] = { __VA_ARGS__ };\
									\
		return unit_run(suite, tests_,				\
				sizeof(tests_) / sizeof(tests_[0]),	\
				argc, argv);				\
	}

/*
 * A libkjump context whose messages reach stderr as the kexec tool
 * prints them ("kexec: <what>: <why>"), so unit_capture_*() sees them.
 */
UNIT_UNUSED
static void unit_kj_log(void *data, enum kj_log_level level, const char *msg)
{
	(void)data;
	if (level == KJ_LOG_DEBUG)
		fputs(msg, stderr);
	else
		fprintf(stderr, "kexec: %s%s\n",
			level == KJ_LOG_WARNING ? "warning: " : "", msg);
}

UNIT_UNUSED
static struct kj_ctx *unit_kj_new(const char *root)
{
	struct kj_ctx *kj = kj_ctx_new(root);

	if (kj)
		kj_ctx_set_log(kj, unit_kj_log, NULL);
	return kj;
}

UNIT_UNUSED
static void unit_kj_free(void *kj)
{
	kj_ctx_free(kj);
}

/* A context for root, freed when the test ends. */
UNIT_UNUSED
static struct kj_ctx *unit_kj(struct unit_ctx *ctx, const char *root)
{
	struct kj_ctx *kj = unit_kj_new(root);

	if (!kj)
		FAILF("kj_ctx_new: out of memory");
	unit_defer(ctx, unit_kj_free, kj);
	return kj;
}

/* The real system's context, for code that reads nothing below a root. */
UNIT_UNUSED
static struct kj_ctx *unit_kj_default(void)
{
	static struct kj_ctx *kj;

	if (!kj)
		kj = unit_kj_new("");
	return kj;
}

#endif
