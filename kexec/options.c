// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "report.h"

enum {
	OPT_APPEND = 256,
	OPT_INITRD,
	OPT_REUSE_CMDLINE,
	OPT_MEM_MIN,
	OPT_MEM_MAX,
	OPT_PRESERVE,
	OPT_JUMP_BACK_HELPER,
	OPT_ENTRY,
	OPT_HIBERNATE,
	OPT_SNAPSHOT,
	OPT_COMPRESS,
	OPT_COMPRESS_LEVEL,
	OPT_THREADS,
	OPT_DROP_CACHES,
	OPT_RESUME_RESERVE,
	OPT_ALLOW_PLAINTEXT,
	OPT_IMAGE_INFO,
	OPT_VERIFY,
	OPT_RESUME,
	OPT_INVALIDATE,
	OPT_OVERWRITE,
	OPT_RESUME_OFFSET,
	OPT_WARM_UP,
	OPT_DISCARD,
	OPT_NO_JUMP,
	OPT_ARCH,	/* OPT_ARCH + i: kj_arch_options()[i] */
};

#define MAX_ARCH_OPTIONS	32

static const struct option long_opts[] = {
	{ "help",		no_argument,		NULL, 'h' },
	{ "version",		no_argument,		NULL, 'v' },
	{ "debug",		no_argument,		NULL, 'd' },
	{ "force",		no_argument,		NULL, 'f' },
	{ "no-ifdown",		no_argument,		NULL, 'x' },
	{ "no-sync",		no_argument,		NULL, 'y' },
	{ "no-checks",		no_argument,		NULL, 'i' },
	{ "load",		no_argument,		NULL, 'l' },
	{ "unload",		no_argument,		NULL, 'u' },
	{ "exec",		no_argument,		NULL, 'e' },
	{ "jump",		no_argument,		NULL, 'j' },
	{ "load-panic",		no_argument,		NULL, 'p' },
	{ "status",		no_argument,		NULL, 'S' },
	{ "type",		required_argument,	NULL, 't' },
	{ "append",		required_argument,	NULL, OPT_APPEND },
	{ "command-line",	required_argument,	NULL, OPT_APPEND },
	{ "initrd",		required_argument,	NULL, OPT_INITRD },
	{ "ramdisk",		required_argument,	NULL, OPT_INITRD },
	{ "reuse-cmdline",	no_argument,		NULL, OPT_REUSE_CMDLINE },
	{ "mem-min",		required_argument,	NULL, OPT_MEM_MIN },
	{ "mem-max",		required_argument,	NULL, OPT_MEM_MAX },
	{ "load-preserve-context", no_argument,		NULL, OPT_PRESERVE },
	{ "load-jump-back-helper", no_argument,		NULL, OPT_JUMP_BACK_HELPER },
	{ "entry",		required_argument,	NULL, OPT_ENTRY },
	{ "hibernate",		required_argument,	NULL, OPT_HIBERNATE },
	{ "snapshot",		required_argument,	NULL, OPT_SNAPSHOT },
	{ "compress",		required_argument,	NULL, OPT_COMPRESS },
	{ "compress-level",	required_argument,	NULL, OPT_COMPRESS_LEVEL },
	{ "threads",		required_argument,	NULL, OPT_THREADS },
	{ "drop-caches",	no_argument,		NULL, OPT_DROP_CACHES },
	{ "resume-reserve",	required_argument,	NULL, OPT_RESUME_RESERVE },
	{ "allow-plaintext",	no_argument,		NULL, OPT_ALLOW_PLAINTEXT },
	{ "image-info",		required_argument,	NULL, OPT_IMAGE_INFO },
	{ "verify",		no_argument,		NULL, OPT_VERIFY },
	{ "resume",		required_argument,	NULL, OPT_RESUME },
	{ "invalidate",		required_argument,	NULL, OPT_INVALIDATE },
	{ "overwrite",		no_argument,		NULL, OPT_OVERWRITE },
	{ "resume-offset",	required_argument,	NULL, OPT_RESUME_OFFSET },
	{ "warm-up",		no_argument,		NULL, OPT_WARM_UP },
	{ "discard",		no_argument,		NULL, OPT_DISCARD },
	{ "no-jump",		no_argument,		NULL, OPT_NO_JUMP },
	{ "kexec-syscall",	no_argument,		NULL, 'c' },
	{ "kexec-file-syscall",	no_argument,		NULL, 's' },
	{ "kexec-syscall-auto",	no_argument,		NULL, 'a' },
};

#define NR_GENERIC_OPTS	(sizeof(long_opts) / sizeof(long_opts[0]))

static const char short_opts[] = ":hvdfxyiluejpSt:csa";

static const char usage_head[] =
"Usage: kexec [OPTION]... [KERNEL]\n"
"Load a kernel to run later, run the loaded kernel, or jump between kernels.\n"
"\n"
"Actions:\n"
"  -l, --load            load KERNEL into the normal slot and stop\n"
"  -e, --exec            run the loaded kernel now\n"
"  -f, --force           load KERNEL and run it at once, without shutdown\n"
"  -u, --unload          unload the kernel in the normal slot\n"
"  -p, --load-panic      load KERNEL into the crash slot (needs crashkernel=)\n"
"                        with -u: unload the crash slot\n"
"      --discard         with -p -u: also unload a crash kernel parked in a\n"
"                        kexec jump (kexec -j returns into it), losing its state\n"
"      --no-jump         with -p: load a crash kernel that only serves a\n"
"                        crash; kexec -j cannot enter it\n"
"  -j, --jump            jump into the crash-slot kernel and expect to come back\n"
"                        (kernel companion; without it, into the\n"
"                        --load-preserve-context image; see kexec(8))\n"
"  -S, --status          exit 1 if the crash slot is loaded, 0 if not\n"
"                        (with -l: the normal slot)\n"
"  (none)                load KERNEL, then run 'shutdown -r now'\n"
"\n"
"Hibernation images:\n"
"      --image-info=TARGET  print the header of the image in TARGET (a file\n"
"                        or block device); exit 1 if it is torn or invalid\n"
"      --verify          with --image-info: check every chunk's checksums\n"
"\n"
"Loading:\n";

static const char usage_loading[] =
"      --append=TEXT     add TEXT to the new kernel's command line\n"
"      --command-line=TEXT  same as --append\n"
"      --reuse-cmdline   start from this kernel's /proc/cmdline\n"
"                        (BOOT_IMAGE= is dropped)\n"
"      --initrd=FILE     initial ramdisk for the new kernel\n"
"      --ramdisk=FILE    same as --initrd\n"
"      --mem-min=ADDR    lowest physical address to place segments at\n"
"      --mem-max=ADDR    highest physical address to place segments at\n"
"  -i, --no-checks       purgatory skips the sha256 check of the segments\n"
"      --entry=ADDR      start the image at ADDR instead of its own entry\n"
"  -c, --kexec-syscall   load with kexec_load: this kexec builds the image\n"
"                        (the default)\n"
"  -s, --kexec-file-syscall  load with kexec_file_load: the kernel reads\n"
"                        the files (64-bit kernels; the only way under\n"
"                        lockdown, with a signed image); with -u, unload so\n"
"  -a, --kexec-syscall-auto  kexec_file_load, else kexec_load when the\n"
"                        kernel has no file call, the image is not one it\n"
"                        takes or an option needs kexec_load\n"
"\n"
"Upstream-style jump (any kernel with CONFIG_KEXEC_JUMP):\n"
"      --load-preserve-context  load KERNEL so that it can come back to\n"
"                        this one (needs --mem-max; -e or -j runs it)\n"
"      --load-jump-back-helper  in the kernel jumped into: load the way\n"
"                        back (--entry, or kexec_jump_back_entry= from\n"
"                        /proc/cmdline)\n";

static const char usage_hibernate[] =
"\n"
"Hibernation (kernel companion; the crash kernel needs the image writer):\n"
"      --hibernate=TARGET  save this kernel's memory image from the crash\n"
"                        kernel to TARGET (a block device nobody uses, or a\n"
"                        file), then power off\n"
"      --snapshot=TARGET  the same, but come back and carry on\n"
"      --warm-up         boot the crash kernel's image writer now and come\n"
"                        back, so that --hibernate and --snapshot start at once\n"
"      --compress=ALGO   lz4 (default), zstd or none\n"
"      --compress-level=N  the compressor's level (default: its own)\n"
"      --threads=N       compressing threads in the crash kernel\n"
"                        (default: one per CPU)\n"
"      --drop-caches     drop clean page cache before saving\n"
"      --resume-reserve=MIB  memory the resuming kernel uses itself, which\n"
"                        the image must leave free (default 48)\n"
"      --allow-plaintext  hibernate although dm-crypt mappings are open\n"
"                        (their keys go into the image in clear)\n"
"      --overwrite       write over a target that holds a file system, a\n"
"                        partition table or other data (refused otherwise)\n"
"      --resume=TARGET   in a fresh boot of the same kernel, before any file\n"
"                        system is mounted: check the image on TARGET and\n"
"                        restore it, or say why not and return\n"
"      --resume-offset=BYTES  where block 0 of the image is on the\n"
"                        --resume or --invalidate device (a file's first\n"
"                        byte: see --image-info of the file)\n"
"      --invalidate=TARGET  make a resumable image on TARGET never\n"
"                        resumable (a boot that goes on without resuming)\n";

static const char usage_tail[] =
"\n"
"Running:\n"
"  -x, --no-ifdown       do not take network interfaces down before -e\n"
"  -y, --no-sync         do not sync file systems before -e\n"
"\n"
"Other:\n"
"  -d, --debug           print what is loaded and where\n"
"  -h, --help            print this help and exit\n"
"  -v, --version         print the version and exit\n"
"\n"
"Exit status: 0 on success, 1 on any error.\n";

/* The architecture's options, with their headings, as kj_arch_options() has them. */
static void print_arch_usage(void)
{
	const struct kj_arch_option *a;

	for (a = kj_arch_options(); a->name || a->help; a++) {
		if (!a->name)
			printf("\n%s\n", a->help);
		else if (a->help)
			printf("      --%-15s %s%s\n", a->name,
			       strlen(a->name) > 15 ? " " : "", a->help);
	}
}

void print_usage(void)
{
	char names[160];

	kj_loader_names(names, sizeof(names));
	fputs(usage_head, stdout);
	printf("  -t, --type=TYPE       image type instead of probing (%s)\n",
	       names);
	fputs(usage_loading, stdout);
	print_arch_usage();
	fputs(usage_hibernate, stdout);
	fputs(usage_tail, stdout);
}

static int parse_addr(const char *opt, const char *text, uint64_t *val)
{
	char *end;

	errno = 0;
	*val = strtoull(text, &end, 0);
	/* a digit first: strtoull would take " -1" as 2^64 - 1 */
	if (errno || end == text || *end != '\0' ||
	    text[0] < '0' || text[0] > '9') {
		report_err("%s=%s: not an address", opt, text);
		return -1;
	}
	return 0;
}

/* The option that chose an action, for messages. */
static const char *action_name(enum kexec_action act)
{
	static const char *const names[] = {
		[ACT_LOAD] = "-l", [ACT_UNLOAD] = "-u", [ACT_EXEC] = "-e",
		[ACT_FORCE] = "-f", [ACT_JUMP] = "-j", [ACT_STATUS] = "-S",
		[ACT_HIBERNATE] = "--hibernate", [ACT_DEFAULT] = "-?",
		[ACT_IMAGE_INFO] = "--image-info", [ACT_RESUME] = "--resume",
		[ACT_INVALIDATE] = "--invalidate",
		[ACT_WARM_UP] = "--warm-up",
	};

	return names[act] ? names[act] : "-?";
}

static int set_action(struct kexec_opts *o, enum kexec_action act,
		      const char *name)
{
	if (o->action != ACT_NONE && o->action != act) {
		report_err("options: %s and %s cannot be combined",
			   o->action == ACT_HIBERNATE && o->snapshot ?
			   "--snapshot" : action_name(o->action), name);
		return -1;
	}
	o->action = act;
	return 0;
}

/* --hibernate=TARGET or --snapshot=TARGET: one target, one mode. */
static int set_hibernate(struct kexec_opts *o, bool snapshot)
{
	const char *name = snapshot ? "--snapshot" : "--hibernate";

	if (o->action == ACT_HIBERNATE) {
		report_err("options: %s and %s cannot be combined",
			   o->snapshot ? "--snapshot" : "--hibernate", name);
		return -1;
	}
	if (set_action(o, ACT_HIBERNATE, name))
		return -1;
	if (!*optarg) {
		report_err("%s: needs a target (a block device or a file)", name);
		return -1;
	}
	o->hib_target = optarg;
	o->snapshot = snapshot;
	return 0;
}

static int parse_count(const char *opt, const char *text, int min, int max,
		       int *val)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < min || v > max) {
		report_err("%s=%s: not a number from %d to %d", opt, text, min,
			   max);
		return -1;
	}
	*val = v;
	return 0;
}

/* Options that only make sense with --hibernate or --snapshot. */
static int check_hibernate_opts(const struct kexec_opts *o)
{
	const char *opt = o->compress ? "--compress" :
			  o->has_level ? "--compress-level" :
			  o->has_threads ? "--threads" :
			  o->drop_caches ? "--drop-caches" :
			  o->has_reserve ? "--resume-reserve" :
			  o->allow_plaintext ? "--allow-plaintext" :
			  o->overwrite ? "--overwrite" : NULL;

	if (o->action == ACT_HIBERNATE) {
		if (o->panic || o->seen_l) {
			report_err("options: %s and -%c cannot be combined",
				   o->snapshot ? "--snapshot" : "--hibernate",
				   o->panic ? 'p' : 'l');
			return -1;
		}
		if (o->compress && !kj_compress_valid(o->compress)) {
			report_err("--compress=%s: not lz4, zstd or none",
				   o->compress);
			return -1;
		}
		return 0;
	}
	if (opt) {
		report_err("%s: only with --hibernate or --snapshot", opt);
		return -1;
	}
	return 0;
}

/* An architecture option: kept as "name" or "name=value" for the library. */
static int add_arch_opt(struct kexec_opts *o, int i)
{
	const struct kj_arch_option *a = &kj_arch_options()[i];
	unsigned int n = o->nr_arch_opts;

	if (n == KEXEC_MAX_ARCH_OPTS) {
		report_err("--%s: more than %d architecture options given",
			   a->name, KEXEC_MAX_ARCH_OPTS);
		return -1;
	}
	if (a->has_arg) {
		if ((size_t)snprintf(o->arch_text[n], sizeof(o->arch_text[n]),
				     "%s=%s", a->name, optarg) >=
		    sizeof(o->arch_text[n])) {
			report_err("--%s: the value is longer than %zu characters",
				   a->name, sizeof(o->arch_text[n]) -
				   strlen(a->name) - 2);
			return -1;
		}
		o->arch_opts[n] = o->arch_text[n];
	} else {
		o->arch_opts[n] = a->name;
	}
	o->nr_arch_opts = n + 1;
	o->arch_opts[n + 1] = NULL;
	return 0;
}

/* -c, -s, -a: one of them, once (or the same one again). */
static int set_syscall(struct kexec_opts *o, char c)
{
	static const enum kj_syscall by_opt[] = {
		['c'] = KJ_SYSCALL_LOAD, ['s'] = KJ_SYSCALL_FILE,
		['a'] = KJ_SYSCALL_AUTO,
	};

	if (o->syscall_opt && o->syscall_opt != c) {
		report_err("options: -%c and -%c cannot be combined",
			   o->syscall_opt, c);
		return -1;
	}
	o->syscall_opt = c;
	o->load.syscall = by_opt[(unsigned char)c];
	return 0;
}

static int parse_one(struct kexec_opts *o, int c)
{
	switch (c) {
	case 'h': o->action = ACT_HELP; return 1;
	case 'v': o->action = ACT_VERSION; return 1;
	case 'd': o->debug = true; return 0;
	case 'x': o->no_ifdown = true; return 0;
	case 'y': o->no_sync = true; return 0;
	case 'i': o->load.no_checks = true; return 0;
	case 'l': o->seen_l = true; return 0;
	case 'u': return set_action(o, ACT_UNLOAD, "-u");
	case 'e': return set_action(o, ACT_EXEC, "-e");
	case 'f': return set_action(o, ACT_FORCE, "-f");
	case 'j': return set_action(o, ACT_JUMP, "-j");
	case 'S': return set_action(o, ACT_STATUS, "-S");
	case 'p': o->panic = true; return 0;
	case 't': o->load.type = optarg; return 0;
	case 'c': case 's': case 'a': return set_syscall(o, (char)c);
	case OPT_INITRD: o->load.initrd = optarg; return 0;
	case OPT_REUSE_CMDLINE: o->load.reuse_cmdline = true; return 0;
	case OPT_APPEND:
		if (o->load.nr_append == KJ_MAX_APPEND) {
			report_err("--append: more than %d given",
			       KJ_MAX_APPEND);
			return -1;
		}
		o->load.append[o->load.nr_append++] = optarg;
		return 0;
	case OPT_MEM_MIN: return parse_addr("--mem-min", optarg, &o->load.mem_min);
	case OPT_MEM_MAX: return parse_addr("--mem-max", optarg, &o->load.mem_max);
	case OPT_PRESERVE: o->preserve_context = o->seen_l = true; return 0;
	case OPT_JUMP_BACK_HELPER:
		o->jump_back_helper = o->seen_l = true;
		return 0;
	case OPT_IMAGE_INFO:
		o->image_info = optarg;
		return set_action(o, ACT_IMAGE_INFO, "--image-info");
	case OPT_VERIFY: o->verify = true; return 0;
	case OPT_DISCARD: o->discard = true; return 0;
	case OPT_NO_JUMP: o->load.no_jump = true; return 0;
	case OPT_RESUME:
		o->resume = optarg;
		return set_action(o, ACT_RESUME, "--resume");
	case OPT_INVALIDATE:
		o->resume = optarg;
		return set_action(o, ACT_INVALIDATE, "--invalidate");
	case OPT_OVERWRITE: o->overwrite = true; return 0;
	case OPT_WARM_UP: return set_action(o, ACT_WARM_UP, "--warm-up");
	case OPT_RESUME_OFFSET:
		if (parse_addr("--resume-offset", optarg, &o->resume_offset))
			return -1;
		o->has_resume_offset = true;
		return 0;
	case OPT_ENTRY:
		o->load.has_entry = true;
		return parse_addr("--entry", optarg, &o->load.entry);
	case OPT_HIBERNATE: return set_hibernate(o, false);
	case OPT_SNAPSHOT: return set_hibernate(o, true);
	case OPT_COMPRESS: o->compress = optarg; return 0;
	case OPT_COMPRESS_LEVEL:
		o->has_level = true;
		return parse_count("--compress-level", optarg, -100, 22,
				   &o->compress_level);
	case OPT_THREADS:
		o->has_threads = true;
		return parse_count("--threads", optarg, 1, 256, &o->threads);
	case OPT_DROP_CACHES: o->drop_caches = true; return 0;
	case OPT_ALLOW_PLAINTEXT: o->allow_plaintext = true; return 0;
	case OPT_RESUME_RESERVE:
		o->has_reserve = true;
		return parse_count("--resume-reserve", optarg, 0, 1 << 20,
				   &o->resume_reserve);
	default:
		if (c >= OPT_ARCH)
			return add_arch_opt(o, c - OPT_ARCH);
		return -1;
	}
}

/*
 * -l and -p name a slot as much as an action: "-l -S" asks about the
 * normal slot, "-p -u" unloads the crash slot, "-p" alone loads it.
 */
static int resolve_slot(struct kexec_opts *o)
{
	if (o->seen_l && o->action != ACT_STATUS &&
	    o->action != ACT_HIBERNATE && set_action(o, ACT_LOAD, "-l"))
		return -1;
	if (!o->panic)
		return 0;
	if (o->preserve_context || o->jump_back_helper) {
		report_err("options: -p and --load-%s cannot be combined",
		       o->preserve_context ? "preserve-context" :
					     "jump-back-helper");
		return -1;
	}
	if (o->action == ACT_EXEC || o->action == ACT_FORCE ||
	    o->action == ACT_JUMP || o->action == ACT_HIBERNATE ||
	    o->action == ACT_WARM_UP) {
		report_err("options: -p and %s cannot be combined",
			   o->action == ACT_HIBERNATE && o->snapshot ?
			   "--snapshot" : action_name(o->action));
		return -1;
	}
	if (o->action == ACT_STATUS && o->seen_l) {
		report_err("options: -S takes -l or -p, not both");
		return -1;
	}
	if (o->action == ACT_NONE)
		o->action = ACT_LOAD;
	return 0;
}

/* getopt's own messages carry argv[0]; ours are "kexec: <what>: <why>". */
static void bad_option(int c, char **argv)
{
	const char *arg = argv[optind - 1];

	if (c == ':' && optopt && optopt < 256)
		report_err("-%c: needs an argument", optopt);
	else if (c == ':')
		report_err("%s: needs an argument", arg);
	else if (optopt >= 256 || (optopt && strchr(short_opts, optopt)))
		/* a known option: a long one given "=value" it cannot take */
		report_err("%s: takes no argument", arg);
	else if (optopt && optopt < 256)
		report_err("-%c: unknown option (try 'kexec --help')", optopt);
	else
		report_err("%s: unknown option (try 'kexec --help')", arg);
}

/* What upstream kexec-tools accepts and this one refuses or requires. */
static int check_jump_opts(const struct kexec_opts *o)
{
	if (o->preserve_context && o->jump_back_helper) {
		report_err("options: --load-preserve-context and --load-jump-back-helper cannot be combined");
		return -1;
	}
	if (o->preserve_context && o->load.mem_max == UINT64_MAX) {
		report_err("--load-preserve-context: needs --mem-max=ADDR, the top of the memory the new kernel may use");
		return -1;
	}
	return 0;
}

/* -c, -s and -a choose how a load or an unload reaches the kernel. */
static int check_syscall_opt(const struct kexec_opts *o)
{
	bool loads = o->action == ACT_LOAD || o->action == ACT_FORCE ||
		     o->action == ACT_DEFAULT || o->action == ACT_UNLOAD;

	if (!o->syscall_opt)
		return 0;
	if (!loads) {
		report_err("-%c: only with a load (-l, -p, -f) or an unload (-u), not with %s",
			   o->syscall_opt, action_name(o->action));
		return -1;
	}
	if (o->jump_back_helper && o->load.syscall == KJ_SYSCALL_FILE) {
		report_err("--load-jump-back-helper: only with kexec_load (-c), not -s");
		return -1;
	}
	return 0;
}

/* A kernel argument exactly where the action loads one. */
static int check_kernel_arg(const struct kexec_opts *o)
{
	bool wants_kernel = (o->action == ACT_LOAD && !o->jump_back_helper) ||
			    o->action == ACT_FORCE || o->action == ACT_DEFAULT;

	if (wants_kernel && !o->load.kernel) {
		report_err("options: no kernel image given");
		return -1;
	}
	if (!wants_kernel && o->load.kernel) {
		report_err("%s: a kernel image makes no sense with %s",
			   o->load.kernel,
			   o->jump_back_helper ? "--load-jump-back-helper" :
						 "this action");
		return -1;
	}
	return 0;
}

/* Every option only where its action takes it, and no two that clash. */
static int check_combinations(const struct kexec_opts *o)
{
	if (check_kernel_arg(o) || check_jump_opts(o) ||
	    check_hibernate_opts(o) || check_syscall_opt(o))
		return -1;
	if (o->has_resume_offset && o->action != ACT_RESUME &&
	    o->action != ACT_INVALIDATE) {
		report_err("--resume-offset: only with --resume=TARGET or --invalidate=TARGET");
		return -1;
	}
	if (o->resume_offset % 4096) {
		report_err("--resume-offset=%llu: not a multiple of 4096",
			   (unsigned long long)o->resume_offset);
		return -1;
	}
	if (o->discard && (o->action != ACT_UNLOAD || !o->panic ||
			   o->load.syscall == KJ_SYSCALL_FILE)) {
		report_err("--discard: only with -p -u (and kexec_load: not -s)");
		return -1;
	}
	if (o->load.no_jump && (o->action != ACT_LOAD || !o->panic)) {
		report_err("--no-jump: only with a crash load (-p)");
		return -1;
	}
	if (o->verify && o->action != ACT_IMAGE_INFO) {
		report_err("--verify: only with --image-info=TARGET");
		return -1;
	}
	if (o->load.mem_min > o->load.mem_max) {
		report_err("--mem-min: 0x%llx is above --mem-max 0x%llx",
		       (unsigned long long)o->load.mem_min,
		       (unsigned long long)o->load.mem_max);
		return -1;
	}
	return 0;
}

/* The generic options followed by the architecture's, for getopt_long(). */
static void all_options(struct option *all)
{
	const struct kj_arch_option *a = kj_arch_options();
	size_t n = NR_GENERIC_OPTS;
	int i;

	memcpy(all, long_opts, sizeof(long_opts));
	for (i = 0; (a[i].name || a[i].help) && n < NR_GENERIC_OPTS +
						    MAX_ARCH_OPTIONS; i++) {
		if (!a[i].name)
			continue;
		all[n++] = (struct option){
			a[i].name, a[i].has_arg ? required_argument :
						  no_argument,
			NULL, OPT_ARCH + i,
		};
	}
	all[n] = (struct option){ NULL, 0, NULL, 0 };
}

int parse_options(int argc, char **argv, struct kexec_opts *o)
{
	struct option all[NR_GENERIC_OPTS + MAX_ARCH_OPTIONS + 1];
	int c, ret;

	memset(o, 0, sizeof(*o));
	kj_load_spec_init(&o->load);
	o->load.arch_opts = o->arch_opts;
	all_options(all);
	opterr = 0;
	optind = 0;	/* 0, not 1: also resets getopt's scan position */
	while ((c = getopt_long(argc, argv, short_opts, all, NULL)) != -1) {
		if (c == '?' || c == ':') {
			bad_option(c, argv);
			return -1;
		}
		ret = parse_one(o, c);
		if (ret < 0)
			return -1;
		if (ret > 0)
			return 0;	/* -h or -v: nothing else matters */
	}
	if (optind < argc)
		o->load.kernel = argv[optind++];
	if (optind < argc) {
		report_err("%s: unexpected argument (one kernel image only)",
		       argv[optind]);
		return -1;
	}
	if (resolve_slot(o))
		return -1;
	if (o->action == ACT_NONE)
		o->action = o->load.kernel ? ACT_DEFAULT : ACT_NONE;
	if (o->action == ACT_NONE) {
		report_err("options: nothing to do (try 'kexec --help')");
		return -1;
	}
	o->load.mode = o->panic ? KJ_LOAD_CRASH :
		       o->preserve_context ? KJ_LOAD_PRESERVE : KJ_LOAD_NORMAL;
	o->load.serial_progress = o->debug;
	return check_combinations(o);
}
