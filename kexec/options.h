/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Command-line options: argv in, one struct kexec_opts out.  Parsing has no
 * side effects; main() decides what to do with the result.
 */
#ifndef KJUMP_OPTIONS_H
#define KJUMP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "kjump/kjump.h"

enum kexec_action {
	ACT_NONE,	/* nothing chosen yet */
	ACT_DEFAULT,	/* kernel given, no action: load, then shutdown -r */
	ACT_LOAD,	/* -l, or -p */
	ACT_UNLOAD,	/* -u */
	ACT_EXEC,	/* -e */
	ACT_FORCE,	/* -f: load and exec at once, no shutdown */
	ACT_JUMP,	/* -j */
	ACT_STATUS,	/* -S */
	ACT_HIBERNATE,	/* --hibernate=TARGET, --snapshot=TARGET */
	ACT_HELP,	/* -h */
	ACT_VERSION,	/* -v */
	ACT_IMAGE_INFO,	/* --image-info=TARGET [--verify] */
	ACT_RESUME,	/* --resume=TARGET */
	ACT_INVALIDATE,	/* --invalidate=TARGET */
	ACT_WARM_UP,	/* --warm-up */
};

#define KEXEC_MAX_ARCH_OPTS	16

struct kexec_opts {
	enum kexec_action action;
	bool panic;		/* -p: the crash (panic) slot */
	bool seen_l;		/* -l given: load, or with -S the normal slot */
	bool no_ifdown;		/* -x */
	bool no_sync;		/* -y */
	bool debug;		/* -d */
	bool preserve_context;	/* --load-preserve-context */
	bool jump_back_helper;	/* --load-jump-back-helper */
	bool verify;		/* --verify (with --image-info) */
	bool discard;		/* --discard (with -p -u) */
	const char *image_info;	/* --image-info=TARGET */
	const char *resume;	/* --resume=TARGET, --invalidate=TARGET */
	bool has_resume_offset;
	uint64_t resume_offset;	/* --resume-offset=BYTES */
	const char *hib_target;	/* --hibernate= / --snapshot= */
	bool snapshot;		/* --snapshot: come back after the save */
	const char *compress;	/* --compress= */
	bool has_level, has_threads, drop_caches, has_reserve;
	bool overwrite;		/* --overwrite (with --hibernate, --snapshot) */
	bool allow_plaintext;	/* --allow-plaintext (the same) */
	int compress_level;
	int threads;
	int resume_reserve;	/* --resume-reserve=MIB */
	char syscall_opt;	/* 'c', 's' or 'a' as given; 0: none */
	/*
	 * The load as the library takes it: the kernel (first non-option
	 * argument), --initrd, -t, --append/--command-line, --reuse-cmdline,
	 * --mem-min/--mem-max, --entry, -i, --no-jump, -c/-s/-a, and after
	 * parsing the slot (-p, --load-preserve-context) and -d's serial
	 * progress.  load.arch_opts points at arch_opts below: keep the
	 * struct where parse_options() filled it.
	 */
	struct kj_load_spec load;
	/* the architecture's options (kj_arch_options()), in order */
	const char *arch_opts[KEXEC_MAX_ARCH_OPTS + 1];
	unsigned int nr_arch_opts;
	char arch_text[KEXEC_MAX_ARCH_OPTS][128];	/* "name=value" */
};

/*
 * Parse argv.  Returns 0 on success; on bad usage prints one
 * "kexec: ..." line and returns -1.
 */
int parse_options(int argc, char **argv, struct kexec_opts *opts);

void print_usage(void);

#endif
