// SPDX-License-Identifier: GPL-2.0-only
/*
 * kexec: load a kernel and run it, or jump into it and come back.
 *
 * The data path: options -> image description (segments, command line,
 * entry) -> kexec_load(2) -> reboot(2).  Each step lives in its own file;
 * this one only dispatches.
 */
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "load.h"
#include "lock.h"
#include "log.h"
#include "options.h"
#include "run.h"

static int dispatch(const struct kexec_opts *o)
{
	switch (o->action) {
	case ACT_HELP:
		print_usage();
		return 0;
	case ACT_VERSION:
		printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
		return 0;
	case ACT_LOAD:
		return load_kernel(o);
	case ACT_UNLOAD:
		return unload_kernel(o);
	case ACT_EXEC:
		return exec_kernel(o);
	case ACT_JUMP:
		return jump_kernel(o);
	case ACT_STATUS:
		break;	/* has its own exit codes, see main() */
	case ACT_FORCE:
		if (load_kernel(o))
			return -1;
		return exec_kernel(o);
	case ACT_DEFAULT:
		if (load_kernel(o))
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
	default:
		return NULL;
	}
}

/* Actions that change the kernel's kexec state run one at a time. */
static int locked_dispatch(const struct kexec_opts *o)
{
	struct kexec_lock lock = { .fd = -1 };
	const char *what = lock_name(o->action);
	int ret;

	if (what && kexec_lock_take(&lock, "", what))
		return -1;
	ret = dispatch(o);
	kexec_lock_release(&lock);
	return ret;
}

int main(int argc, char **argv)
{
	struct kexec_opts opts;
	int ret;

	if (parse_options(argc, argv, &opts))
		return EXIT_FAILURE;
	kx_set_debug(opts.debug);
	if (opts.action == ACT_STATUS)
		ret = report_status(&opts);
	else
		ret = locked_dispatch(&opts) ? EXIT_FAILURE : EXIT_SUCCESS;
	if (fflush(stdout) == EOF) {
		perror("kexec: stdout");
		return EXIT_FAILURE;
	}
	return ret;
}
