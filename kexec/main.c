// SPDX-License-Identifier: GPL-2.0-only
/*
 * kexec: load a kernel and run it, or jump into it and come back.
 *
 * The data path: options -> image description (segments, command line,
 * entry) -> kexec_load(2) -> reboot(2).  The library (libkjump, kjump.h)
 * does the work; this file turns the options into its calls and its
 * results into exit codes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "kjump/kjump.h"
#include "image-info.h"
#include "options.h"
#include "report.h"

static int load(struct kj_ctx *ctx, const struct kexec_opts *o)
{
	if (o->jump_back_helper)
		return kj_load_jump_back(ctx, o->load.has_entry, o->load.entry);
	return kj_load(ctx, &o->load);
}

static unsigned int run_flags(const struct kexec_opts *o)
{
	return (o->no_sync ? KJ_RUN_NO_SYNC : 0) |
	       (o->no_ifdown ? KJ_RUN_NO_IFDOWN : 0);
}

/* Default action after a load: hand over to 'shutdown -r now'. */
static int run_shutdown(void)
{
	char *const argv[] = { "shutdown", "-r", "now", NULL };

	execv("/sbin/shutdown", argv);
	report_err("/sbin/shutdown: %s (the kernel stays loaded; run kexec -e)",
		   strerror(errno));
	return -1;
}

/*
 * -S: print whether the crash (or, with -l, the normal) slot is loaded.
 * Returns the exit status kexec-tools uses: 1 loaded, 0 not, 2 on error.
 */
static int report_status(struct kj_ctx *ctx, const struct kexec_opts *o)
{
	bool crash = !o->seen_l;
	int loaded = kj_slot_loaded(ctx, crash ? KJ_SLOT_CRASH :
						 KJ_SLOT_NORMAL);

	if (loaded < 0) {
		report_err("status: %s%s: %s", kj_ctx_root(ctx), crash ?
			   "/sys/kernel/kexec_crash_loaded" :
			   "/sys/kernel/kexec_loaded", strerror(-loaded));
		return 2;
	}
	printf("%s kernel: %s\n", crash ? "crash" : "normal",
	       loaded ? "loaded" : "not loaded");
	return loaded;
}

/* --hibernate, --snapshot: kj_hibernate(), and what it saved. */
static int hibernate(struct kj_ctx *ctx, const struct kexec_opts *o)
{
	struct kj_hibernate_spec spec = {
		.target = o->hib_target, .snapshot = o->snapshot,
		.compress = o->compress, .level = o->compress_level,
		.threads = o->threads, .drop_caches = o->drop_caches,
		.resume_reserve_mib = o->has_reserve ?
			(unsigned int)o->resume_reserve : KJ_RESUME_RESERVE_MIB,
		.overwrite = o->overwrite, .allow_plaintext = o->allow_plaintext,
		.run_flags = run_flags(o),
	};
	struct kj_hibernate_result r;
	double mib;

	if (kj_hibernate(ctx, &spec, &r))
		return -1;
	mib = r.raw_bytes / 1048576.0;
	printf("%s: saved %llu pages (%llu data, %llu zero; %llu used before) in %llu bytes",
	       o->hib_target, (unsigned long long)r.pages,
	       (unsigned long long)r.data_pages,
	       (unsigned long long)r.zero_pages,
	       (unsigned long long)r.used_pages,
	       (unsigned long long)r.image_bytes);
	if (r.stored_bytes)
		printf(", ratio %.2f", (double)r.raw_bytes / r.stored_bytes);
	if (r.write_ms)
		printf(", %.1f MiB/s, %llu ms", mib * 1000.0 / r.write_ms,
		       (unsigned long long)r.write_ms);
	printf("\n");
	if (r.resumed)
		printf("%s: resumed after a power-off; the crash kernel is unloaded (load it again with kexec -p)\n",
		       o->hib_target);
	return 0;
}

/* --warm-up: the crash kernel's writer boots now, not at the save. */
static int warm_up(struct kj_ctx *ctx, const struct kexec_opts *o)
{
	struct kj_hibernate_spec spec = {
		.warm_up = true, .run_flags = run_flags(o),
	};
	struct kj_hibernate_result r;

	if (kj_hibernate(ctx, &spec, &r))
		return -1;
	printf("warm-up: the image writer is ready; --hibernate and --snapshot start at once now\n");
	return 0;
}

/* --resume: returns only when the image was not restored. */
static int resume(struct kj_ctx *ctx, const struct kexec_opts *o)
{
	struct kj_resume_spec spec = {
		.target = o->resume, .offset = o->resume_offset,
	};

	kj_resume(ctx, &spec);
	return -1;
}

/* --invalidate: no resumable image left on the target. */
static int invalidate(struct kj_ctx *ctx, const struct kexec_opts *o)
{
	struct kj_resume_spec spec = {
		.target = o->resume, .offset = o->resume_offset,
	};

	return kj_invalidate(ctx, &spec);
}

static int dispatch(struct kj_ctx *ctx, const struct kexec_opts *o)
{
	switch (o->action) {
	case ACT_HELP:
		print_usage();
		return 0;
	case ACT_VERSION:
		printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return 0;
	case ACT_LOAD:
		return load(ctx, o);
	case ACT_UNLOAD:
		return kj_unload(ctx, o->panic ? KJ_SLOT_CRASH :
						 KJ_SLOT_NORMAL,
				 o->load.syscall, o->discard);
	case ACT_EXEC:
		return kj_exec(ctx, run_flags(o));
	case ACT_JUMP:
		if (kj_withdraw_stale_request(ctx) < 0)
			return -1;
		return kj_jump(ctx, run_flags(o));
	case ACT_HIBERNATE:
		return hibernate(ctx, o);
	case ACT_STATUS:
		break;	/* has its own exit codes, see main() */
	case ACT_IMAGE_INFO:
		return image_info(o->image_info, o->verify);
	case ACT_RESUME:
		return resume(ctx, o);
	case ACT_INVALIDATE:
		return invalidate(ctx, o);
	case ACT_WARM_UP:
		return warm_up(ctx, o);
	case ACT_FORCE:
		if (load(ctx, o))
			return -1;
		return kj_exec(ctx, run_flags(o));
	case ACT_DEFAULT:
		if (load(ctx, o))
			return -1;
		return run_shutdown();
	case ACT_NONE:
		break;
	}
	return -1;
}

/* The name a lock refusal gives the action; NULL: no lock needed. */
static const char *lock_name(enum kexec_action a)
{
	switch (a) {
	case ACT_LOAD:
	case ACT_FORCE:
	case ACT_DEFAULT:
		return "load";
	case ACT_UNLOAD:
		return "unload";
	case ACT_EXEC:
		return "exec";
	case ACT_JUMP:
		return "jump";
	case ACT_HIBERNATE:
	case ACT_WARM_UP:
		return "hibernate";
	case ACT_RESUME:
	case ACT_INVALIDATE:
		return "resume";
	default:
		return NULL;
	}
}

/* Actions that change the kernel's kexec state run one at a time. */
static int locked_dispatch(struct kj_ctx *ctx, const struct kexec_opts *o)
{
	struct kj_lock lock = { .fd = -1 };
	const char *what = lock_name(o->action);
	int ret;

	if (what && kj_lock_take(ctx, &lock, what))
		return -1;
	ret = dispatch(ctx, o);
	kj_lock_release(&lock);
	return ret;
}

int main(int argc, char **argv)
{
	struct kexec_opts opts;
	struct kj_ctx *ctx;
	int ret;

	if (parse_options(argc, argv, &opts))
		return EXIT_FAILURE;
	ctx = kj_ctx_new("");
	if (!ctx) {
		report_err("out of memory");
		return EXIT_FAILURE;
	}
	kj_ctx_set_log(ctx, report_log, NULL);
	kj_ctx_set_debug(ctx, opts.debug);
	if (opts.action == ACT_STATUS)
		ret = report_status(ctx, &opts);
	else
		ret = locked_dispatch(ctx, &opts) ? EXIT_FAILURE : EXIT_SUCCESS;
	kj_ctx_free(ctx);
	if (fflush(stdout) == EOF) {
		perror("kexec: stdout");
		return EXIT_FAILURE;
	}
	return ret;
}
