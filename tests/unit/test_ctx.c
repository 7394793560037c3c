// SPDX-License-Identifier: GPL-2.0-only
/*
 * The library's context: messages reach the log callback and nothing
 * else, debug text only when asked for, and every /proc, /sys and /run
 * path the state functions use lies below the root prefix (slot status,
 * the preserve-context mark, the lock).  Nothing here reaches the kernel:
 * loads that fail before kexec_load(2) only.
 */
#include <sys/stat.h>

#include "ctx.h"
#include "preserve-mark.h"
#include "unit.h"

#define MAX_MSGS	8

struct log {
	unsigned int n;
	enum kj_log_level level[MAX_MSGS];
	char msg[MAX_MSGS][256];
};

static void record(void *data, enum kj_log_level level, const char *msg)
{
	struct log *l = data;

	if (l->n == MAX_MSGS)
		return;
	l->level[l->n] = level;
	snprintf(l->msg[l->n], sizeof(l->msg[0]), "%s", msg);
	l->n++;
}

static struct kj_ctx *recording(struct unit_ctx *ctx, const char *root,
				struct log *l)
{
	struct kj_ctx *kj = unit_kj(ctx, root);

	memset(l, 0, sizeof(*l));
	kj_ctx_set_log(kj, record, l);
	return kj;
}

/* A root with the directories the state files live in. */
static const char *new_root(struct unit_ctx *ctx)
{
	const char *root = unit_tmpdir(ctx);
	static const char *const dirs[] = {
		"proc", "proc/sys", "proc/sys/kernel",
		"proc/sys/kernel/random", "sys", "sys/kernel", "run",
	};
	char path[4096];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if (mkdir(path, 0755))
			FAILF("%s: %s", path, strerror(errno));
	}
	return root;
}

TEST(log_levels)
{
	struct log l;
	struct kj_ctx *kj = recording(ctx, "", &l);

	kj_err(kj, "what: %s", "why");
	kj_warn(kj, "careful %d", 1);
	kj_dbg(kj, "hidden\n");
	CHECK_EQ_U64(l.n, 2);
	CHECK(l.level[0] == KJ_LOG_ERR);
	CHECK_STR(l.msg[0], "what: why");
	CHECK(l.level[1] == KJ_LOG_WARNING);
	CHECK_STR(l.msg[1], "careful 1");
	kj_ctx_set_debug(kj, true);
	CHECK(kj_ctx_debug(kj));
	kj_dbg(kj, "shown %s\n", "now");
	CHECK_EQ_U64(l.n, 3);
	CHECK(l.level[2] == KJ_LOG_DEBUG);
	CHECK_STR(l.msg[2], "shown now\n");
}

/* Without a callback the library says nothing at all. */
TEST(no_callback_is_silent)
{
	struct kj_ctx *kj = kj_ctx_new(NULL);
	const char *err;

	CHECK(kj != NULL);
	CHECK_STR(kj_ctx_root(kj), "");
	unit_capture_start(ctx);
	kj_err(kj, "nobody hears this");
	kj_warn(kj, "nor this");
	err = unit_capture_stop(ctx);
	kj_ctx_free(kj);
	CHECK_NO_OUTPUT(err);
}

TEST(path_below_root)
{
	struct kj_ctx *kj = unit_kj(ctx, "/tmp/r");
	char buf[64];

	CHECK_STR(kj_path(kj, "/proc/cmdline", buf, sizeof(buf)),
		  "/tmp/r/proc/cmdline");
	CHECK_STR(kj_ctx_root(kj), "/tmp/r");
	kj = unit_kj(ctx, "");
	CHECK_STR(kj_path(kj, "/sys/kernel", buf, sizeof(buf)), "/sys/kernel");
}

TEST(slot_status_below_root)
{
	const char *a = new_root(ctx), *b = new_root(ctx);

	unit_write_file(ctx, a, "sys/kernel/kexec_crash_loaded", "1\n",
			(size_t)-1);
	unit_write_file(ctx, a, "sys/kernel/kexec_loaded", "0\n", (size_t)-1);
	unit_write_file(ctx, b, "sys/kernel/kexec_crash_loaded", "0\n",
			(size_t)-1);
	CHECK_EQ_INT(kj_slot_loaded(unit_kj(ctx, a), KJ_SLOT_CRASH), 1);
	CHECK_EQ_INT(kj_slot_loaded(unit_kj(ctx, a), KJ_SLOT_NORMAL), 0);
	CHECK_EQ_INT(kj_slot_loaded(unit_kj(ctx, b), KJ_SLOT_CRASH), 0);
	CHECK_EQ_INT(kj_slot_loaded(unit_kj(ctx, b), KJ_SLOT_NORMAL), -ENOENT);
}

static bool exists(const char *root, const char *rel)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	return !stat(path, &st);
}

TEST(preserve_mark_below_root)
{
	const char *root = new_root(ctx);
	struct log l;
	struct kj_ctx *kj = recording(ctx, root, &l);

	unit_write_file(ctx, root, "proc/sys/kernel/random/boot_id",
			"0f6c-boot-one\n", (size_t)-1);
	unit_write_file(ctx, root, "sys/kernel/kexec_loaded", "1\n",
			(size_t)-1);
	CHECK(!preserve_mark_valid(kj));
	preserve_mark_set(kj);
	CHECK_EQ_U64(l.n, 0);
	CHECK(exists(root, PRESERVE_MARK_PATH));
	CHECK(preserve_mark_valid(kj));
	/* an image no longer loaded, or another boot: not valid */
	unit_write_file(ctx, root, "sys/kernel/kexec_loaded", "0\n",
			(size_t)-1);
	CHECK(!preserve_mark_valid(kj));
	unit_write_file(ctx, root, "sys/kernel/kexec_loaded", "1\n",
			(size_t)-1);
	unit_write_file(ctx, root, "proc/sys/kernel/random/boot_id",
			"0f6c-boot-two\n", (size_t)-1);
	CHECK(!preserve_mark_valid(kj));
	preserve_mark_clear(kj);
	CHECK(!exists(root, PRESERVE_MARK_PATH));
	preserve_mark_clear(kj);	/* nothing there: no warning */
	CHECK_EQ_U64(l.n, 0);
}

TEST(lock_below_root)
{
	const char *root = new_root(ctx);
	struct log l;
	struct kj_ctx *kj = recording(ctx, root, &l);
	struct kj_lock first, second;

	CHECK_EQ_INT(kj_lock_take(kj, &first, "load"), 0);
	CHECK(first.fd >= 0);
	CHECK(exists(root, "/run/kexec-tools-kjump.lock"));
	CHECK_EQ_INT(kj_lock_take(kj, &second, "jump"), -EBUSY);
	CHECK_EQ_U64(l.n, 1);
	CHECK_CONTAINS(l.msg[0], "jump: another kexec is running (pid ");
	kj_lock_release(&first);
	CHECK_EQ_INT(kj_lock_take(kj, &second, "jump"), 0);
	kj_lock_release(&second);
}

/* A failed load reports one line and never reaches kexec_load(2). */
TEST(load_refusals_reported_once)
{
	const char *root = new_root(ctx);
	static const char *const bogus[] = { "args-none", "bogus", NULL };
	struct kj_load_spec spec;
	struct log l;
	struct kj_ctx *kj = recording(ctx, root, &l);

	kj_load_spec_init(&spec);
	CHECK(spec.mode == KJ_LOAD_NORMAL);
	CHECK_EQ_U64(spec.mem_max, UINT64_MAX);
	spec.kernel = "/nonexistent-kjump/bzImage";
	CHECK_EQ_INT(kj_load(kj, &spec), -ENOENT);
	CHECK_EQ_U64(l.n, 1);
	CHECK(l.level[0] == KJ_LOG_ERR);
	CHECK_STR(l.msg[0],
		  "kernel /nonexistent-kjump/bzImage: No such file or directory");
	spec.arch_opts = bogus;
	kj = recording(ctx, root, &l);
	CHECK_EQ_INT(kj_load(kj, &spec), -EINVAL);
	CHECK_EQ_U64(l.n, 1);
	CHECK_STR(l.msg[0], "--bogus: not an option of the x86 loaders");
}

TEST(arch_options_listed)
{
	const struct kj_arch_option *a;
	char names[160];
	bool args_none = false, hidden = false;

	for (a = kj_arch_options(); a->name || a->help; a++) {
		if (a->name && !strcmp(a->name, "args-none"))
			args_none = true;
		if (a->name && !a->help)
			hidden = true;
	}
	CHECK(args_none);
	CHECK(hidden);		/* --args-elf: accepted, not in --help */
	kj_loader_names(names, sizeof(names));
	CHECK_STR(names, "bzImage, elf-x86");
}

UNIT_MAIN("ctx",
	  RUN(log_levels),
	  RUN(no_callback_is_silent),
	  RUN(path_below_root),
	  RUN(slot_status_below_root),
	  RUN(preserve_mark_below_root),
	  RUN(lock_below_root),
	  RUN(load_refusals_reported_once),
	  RUN(arch_options_listed))
