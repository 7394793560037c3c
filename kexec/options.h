/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Command-line options: argv in, one struct kexec_opts out.  Parsing has no
 * side effects; main() decides what to do with the result.
 */
#ifndef KJUMP_OPTIONS_H
#define KJUMP_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

enum kexec_action {
	ACT_NONE,	/* nothing chosen yet */
	ACT_DEFAULT,	/* kernel given, no action: load, then shutdown -r */
	ACT_LOAD,	/* -l, or -p */
	ACT_UNLOAD,	/* -u */
	ACT_EXEC,	/* -e */
	ACT_FORCE,	/* -f: load and exec at once, no shutdown */
	ACT_JUMP,	/* -j */
	ACT_STATUS,	/* -S */
	ACT_HELP,	/* -h */
	ACT_VERSION,	/* -v */
};

#define KEXEC_MAX_APPEND	16

/* How the ELF loader (-t elf-x86) starts the image. */
enum elf_args {
	ELF_ARGS_DEFAULT,	/* --args-linux */
	ELF_ARGS_LINUX,		/* boot_params at %esi, through purgatory */
	ELF_ARGS_NONE,		/* straight to e_entry, no purgatory */
	ELF_ARGS_ELF,		/* ELF boot notes: refused, see kexec(8) */
};

struct kexec_opts {
	enum kexec_action action;
	bool panic;		/* -p: the crash (panic) slot */
	bool seen_l;		/* -l given: load, or with -S the normal slot */
	bool no_ifdown;		/* -x */
	bool no_sync;		/* -y */
	bool no_checks;		/* -i: purgatory skips sha256 */
	bool debug;		/* -d */
	bool reuse_cmdline;
	bool pass_memmap_cmdline;	/* crash map as memmap= words */
	int elf_class;		/* 0: auto, 32 or 64: forced core header class */
	bool preserve_context;	/* --load-preserve-context */
	bool jump_back_helper;	/* --load-jump-back-helper */
	bool has_entry;		/* --entry given */
	uint64_t entry;		/* --entry=ADDR */
	enum elf_args elf_args;	/* --args-linux, --args-none, --args-elf */
	const char *type;	/* -t, NULL: probe */
	const char *kernel;	/* first non-option argument */
	const char *initrd;
	const char *append[KEXEC_MAX_APPEND];	/* --append/--command-line */
	unsigned int nr_append;
	uint64_t mem_min;
	uint64_t mem_max;	/* inclusive, UINT64_MAX: no limit */
};

/*
 * Parse argv.  Returns 0 on success; on bad usage prints one
 * "kexec: ..." line and returns -1.
 */
int parse_options(int argc, char **argv, struct kexec_opts *opts);

void print_usage(void);

#endif
