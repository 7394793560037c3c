/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libkjump: load a kernel for kexec, run it, or jump into it and come
 * back, hibernate through the crash kernel and resume.  This header and
 * kjump-hib.h (the hibernation image, for the programs that write or read
 * one) are the library's whole boundary: the kexec command line tool, the
 * image writer and the test tools include them and nothing of lib/.
 *
 * Rules every function follows:
 *  - a context (struct kj_ctx) carries the root prefix put in front of
 *    every /proc, /sys and /run path, and the log callback;
 *  - a function that takes a context reports each error it returns,
 *    once, through the callback (one line, "<what>: <why>"), and prints
 *    nothing else; nothing in the library exits or writes to stdout or
 *    stderr itself;
 *  - errors are negative errno values; nothing reaches the kernel until
 *    a whole image is built, so a failed load leaves the loaded one.
 */
#ifndef KJUMP_KJUMP_H
#define KJUMP_KJUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kj_ctx;

enum kj_log_level {
	KJ_LOG_ERR,		/* one line: "<what>: <why>" */
	KJ_LOG_WARNING,		/* one line */
	KJ_LOG_DEBUG,		/* -d output: preformatted, ends in '\n' */
};

typedef void (*kj_log_fn)(void *data, enum kj_log_level level,
			  const char *msg);

/* root: prefix for /proc, /sys and /run ("" or NULL: the real ones). */
struct kj_ctx *kj_ctx_new(const char *root);
void kj_ctx_free(struct kj_ctx *ctx);
/* Without a callback nothing is reported. */
void kj_ctx_set_log(struct kj_ctx *ctx, kj_log_fn fn, void *data);
/* Debug messages reach the callback only when on. */
void kj_ctx_set_debug(struct kj_ctx *ctx, bool on);
bool kj_ctx_debug(const struct kj_ctx *ctx);
const char *kj_ctx_root(const struct kj_ctx *ctx);

/* ------------------------------------------------------------ loading */

/* The kernel's two places for an image. */
enum kj_slot {
	KJ_SLOT_NORMAL,		/* run by kj_exec() (kexec -l) */
	KJ_SLOT_CRASH,		/* run on a crash, or by kj_jump() (kexec -p) */
};

enum kj_load_mode {
	KJ_LOAD_NORMAL,		/* the normal slot, run with kj_exec() */
	KJ_LOAD_CRASH,		/* the crash slot: kdump, or kj_jump() */
	KJ_LOAD_PRESERVE,	/* the normal slot, an image that comes back */
};

#define KJ_MAX_APPEND	16

/* Which system call loads the image (kexec -c, -s, -a). */
enum kj_syscall {
	KJ_SYSCALL_LOAD,	/* kexec_load(2): this library builds the image */
	KJ_SYSCALL_FILE,	/* kexec_file_load(2): the kernel reads the files */
	KJ_SYSCALL_AUTO,	/* the file call, else kexec_load where the
				 * kernel has no file call or cannot take the
				 * image (see kj_load()) */
};

struct kj_load_spec {
	enum kj_load_mode mode;
	const char *kernel;		/* path of the image */
	const char *initrd;		/* path, or NULL */
	const char *type;		/* loader name; NULL: probe them all */
	const char *append[KJ_MAX_APPEND];	/* command-line texts */
	unsigned int nr_append;
	bool reuse_cmdline;		/* start from /proc/cmdline */
	uint64_t mem_min;		/* placement bounds, inclusive */
	uint64_t mem_max;		/* UINT64_MAX: no limit */
	bool has_entry;
	uint64_t entry;			/* start here, not at the image's entry */
	bool no_checks;			/* purgatory skips its sha256 check */
	bool serial_progress;		/* purgatory reports on the serial port */
	/* a crash load the kernel may not jump into (no KEXEC_PRESERVE_CONTEXT) */
	bool no_jump;
	/* NULL-terminated "name" or "name=value" words of kj_arch_options() */
	const char *const *arch_opts;
	enum kj_syscall syscall;	/* default KJ_SYSCALL_LOAD */
};

/* mode normal, no limits, nothing else set. */
void kj_load_spec_init(struct kj_load_spec *spec);

/*
 * Build the image spec describes and hand it to kexec_load(2); or, with
 * KJ_SYSCALL_FILE, check the files as the kernel will and hand them to
 * kexec_file_load(2), which builds the image itself (a normal or crash
 * load only; no placement bounds, entry, -t or architecture options).
 * KJ_SYSCALL_AUTO takes the file call unless the request needs kexec_load
 * (any of those options), the image is not one the kernel's file loader
 * takes, or the kernel has no file call (ENOSYS); then kexec_load.
 */
int kj_load(struct kj_ctx *ctx, const struct kj_load_spec *spec);

/*
 * In a kernel entered by a preserve-context jump: load the way back
 * (entry, or kexec_jump_back_entry= of /proc/cmdline when !has_entry).
 */
int kj_load_jump_back(struct kj_ctx *ctx, bool has_entry, uint64_t entry);

/*
 * With KJ_SYSCALL_FILE: by kexec_file_load (allowed under lockdown).
 * discard: the crash slot even when its kernel is parked in a kexec jump
 * (kexec_load only).
 */
int kj_unload(struct kj_ctx *ctx, enum kj_slot slot,
	      enum kj_syscall syscall, bool discard);

/* 1 if the slot holds an image, 0 if not, or -errno (not reported). */
int kj_slot_loaded(struct kj_ctx *ctx, enum kj_slot slot);

/* Loader names for -t, "bzImage, elf-x86"; buf is always terminated. */
void kj_loader_names(char *buf, size_t size);

/* An option only this architecture's loaders know (kj_load_spec.arch_opts). */
struct kj_arch_option {
	const char *name;	/* NULL: a heading line, text in help */
	bool has_arg;
	const char *help;	/* --help text after the name; NULL: hidden */
};

/* Terminated by an entry with name and help both NULL. */
const struct kj_arch_option *kj_arch_options(void);

/* ------------------------------------------------------------ running */

#define KJ_RUN_NO_SYNC		(1u << 0)	/* do not sync(2) first */
#define KJ_RUN_NO_IFDOWN	(1u << 1)	/* keep the interfaces up */

/*
 * Run the image in the normal slot (sync, then ifdown unless the image
 * comes back).  Returns only on failure, or 0 when a preserve-context
 * image came back.
 */
int kj_exec(struct kj_ctx *ctx, unsigned int flags);

/*
 * The jump as one step: into the crash-slot kernel with the companion's
 * LINUX_REBOOT_CMD_KJUMP, or the upstream preserve-context way where the
 * kernel has no KJUMP; in a kernel that was jumped into, back to the one
 * that jumped.  0 means the other kernel ran and control came back.
 */
int kj_jump(struct kj_ctx *ctx, unsigned int flags);

/* ------------------------------------------------------ hibernation */

/*
 * Save this kernel's memory image from the loaded crash kernel (which must
 * have been loaded by kj_load() with an initramfs holding the image
 * writer, hibernate/kjump-save): check everything that can be checked
 * here, prepare the target (a block device nobody uses, or a file on a
 * file system whose extents can be trusted), pass the request in the
 * kexec jump parameter page, jump, and read the writer's status when it
 * jumps back.  With snapshot set, the writer jumps back after saving and
 * this returns 0 with the result filled in; without it, the writer powers
 * the machine off after committing the image, and this returns 0 with
 * resumed set after a kj_resume() of the image, else only on failure.  A
 * failure in the crash kernel comes back as an error with its reason
 * (-EIO), a cancel as -ECANCELED.  With warm_up set there is no target:
 * the crash kernel boots (the first time) or is entered again, its writer
 * answers at once, and a later save does not wait for that boot.
 */
struct kj_hibernate_spec {
	const char *target;		/* block device or file */
	bool snapshot;			/* come back after the save */
	bool warm_up;			/* no save: only the round trip */
	const char *compress;		/* "lz4" (NULL), "zstd", "none" */
	int level;			/* 0: the compressor's default */
	unsigned int threads;		/* 0: one per CPU of the crash kernel */
	bool drop_caches;		/* drop clean caches first */
	/*
	 * What the resuming kernel and its initramfs use themselves: the
	 * image must fit in the rest of RAM, or a resume could not hold it.
	 */
	unsigned int resume_reserve_mib;
	bool overwrite;			/* a target holding a file system, ... */
	bool allow_plaintext;		/* with dm-crypt mappings open */
	unsigned int run_flags;		/* KJ_RUN_* */
};

/*
 * The default resume reserve: a boot of the test kernels into this
 * project's initramfs uses 48 MiB of its RAM (MemTotal - MemFree); a
 * distribution's initramfs needs more.
 */
#define KJ_RESUME_RESERVE_MIB	48u

struct kj_hibernate_result {
	uint64_t image_bytes;		/* bytes of the image on the target */
	uint64_t pages, data_pages, zero_pages;
	uint64_t raw_bytes, stored_bytes;
	uint64_t write_ms;		/* the writer's time in the crash kernel */
	uint64_t used_pages;		/* MemTotal - MemFree before the jump */
	bool resumed;			/* --hibernate: back by a resume */
};

int kj_hibernate(struct kj_ctx *ctx, const struct kj_hibernate_spec *spec,
		 struct kj_hibernate_result *res);

/* Does kj_hibernate_spec.compress take name ("lz4", "zstd", "none")? */
bool kj_compress_valid(const char *name);

/*
 * Resume a hibernation image saved by kj_hibernate(), from a fresh boot of
 * the same kernel build, before any file system is mounted read-write:
 * refuse it with one reason when it is not safe (torn, invalid, consumed,
 * another kernel build, RAM map or crash region, a file system changed
 * since), else feed it to the kernel's restore (/dev/snapshot), mark it
 * consumed and restore.  Returns only when it did not resume: -errno,
 * the reason reported; the image is left as it was.
 */
struct kj_resume_spec {
	const char *target;		/* block device, partition or file */
	uint64_t offset;		/* on a device: bytes before block 0 */
	bool quiet;			/* no progress line on stdout */
};

int kj_resume(struct kj_ctx *ctx, const struct kj_resume_spec *spec);

/*
 * Make a resumable (committed) image on spec's target never resumable:
 * state INVALID, synced.  What a boot that does not resume runs before it
 * mounts anything, as swapon rewrites a stale swsusp signature.  0 also
 * when there was nothing resumable (a line on stdout says which, unless
 * quiet); -errno, reported, when block 0 cannot be read or written.
 */
int kj_invalidate(struct kj_ctx *ctx, const struct kj_resume_spec *spec);

/*
 * A plain jump (kexec -j) must not save or power off: a hibernation or
 * snapshot request still in the jump parameter page (a kexec --hibernate
 * that failed before its jump on an older kernel, or was killed there) is
 * withdrawn, with a warning.  Requests of other users of the page stay.  1 when there was one, 0 when not (or when
 * this kernel was entered by a jump and the request is its caller's),
 * -errno, reported, when it stays.
 */
int kj_withdraw_stale_request(struct kj_ctx *ctx);

/* ------------------------------------------------------------ locking */

/* One kexec state change at a time, across processes; what names it. */
struct kj_lock {
	int fd;
};

int kj_lock_take(struct kj_ctx *ctx, struct kj_lock *lock, const char *what);
void kj_lock_release(struct kj_lock *lock);

/* ------------------------------------------------------------ reading */

/*
 * /proc/vmcore (or any ELF core file) read by physical address: the old
 * kernel's memory as its PT_LOADs describe it.
 */
struct kj_vmcore;

struct kj_vmcore_load {
	uint64_t paddr;		/* physical address in the old kernel */
	uint64_t filesz;	/* bytes the core holds from paddr on */
	uint64_t memsz;
	uint64_t offset;	/* where they are in the file */
};

struct kj_vmcore_info {
	int elf_class;		/* 32 or 64 */
	unsigned int nr_phdrs;
	unsigned int nr_notes;
	unsigned int nr_loads;
	const struct kj_vmcore_load *loads;	/* in file order */
};

int kj_vmcore_open(struct kj_ctx *ctx, const char *path,
		   struct kj_vmcore **vc);
/*
 * The ELF header at offset hdr_at of path, p_offset values absolute in
 * the file (the old kernel's header at elfcorehdr= in /dev/mem).  A
 * character device is read a page at a time through mmap.
 */
int kj_vmcore_open_at(struct kj_ctx *ctx, const char *path, uint64_t hdr_at,
		      struct kj_vmcore **vc);
void kj_vmcore_close(struct kj_vmcore *vc);
void kj_vmcore_info(const struct kj_vmcore *vc, struct kj_vmcore_info *info);
/*
 * Read len bytes at physical address paddr, across PT_LOADs if need be;
 * -ERANGE (reported) when some of them are in none.
 */
int kj_vmcore_read(struct kj_vmcore *vc, uint64_t paddr, void *buf,
		   size_t len);
/* Read len bytes at file offset off (a PT_LOAD's offset, say). */
int kj_vmcore_read_at(struct kj_vmcore *vc, uint64_t off, void *buf,
		      size_t len);

#endif
