/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one interface architecture code plugs in behind.  The generic load
 * (load.c) reads the files, builds the command line and reads the memory
 * map; the architecture then
 *   1. parses its own options (kj_load_spec.arch_opts),
 *   2. lets the chosen loader check the request (arch_loader.check),
 *   3. prepares the hand-over of a crash or preserve-context load once,
 *      for every loader (arch_hand_over_prepare: the region, what B is
 *      told on its command line, the map B gets),
 *   4. has the loader place its segments (arch_loader.load),
 *   5. finishes the hand-over (arch_hand_over_finish),
 * and load.c submits the image.
 */
#ifndef KJUMP_ARCH_H
#define KJUMP_ARCH_H

#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"
#include "image.h"
#include "memory-map.h"

/* What the architecture parsed from kj_load_spec.arch_opts. */
struct arch_opts;
/* The architecture's crash or preserve-context hand-over state. */
struct arch_hand_over;

struct load_request {
	const struct kj_ctx *ctx;
	const struct kj_load_spec *spec;	/* mode, paths, bounds, entry */
	const struct arch_opts *aopts;
	const char *kernel;		/* file contents */
	size_t kernel_len;
	const char *initrd;		/* NULL: none */
	size_t initrd_len;
	const char *cmdline;		/* final text, hand-over words included */
	const struct mem_map *memmap;	/* the machine's full map */
	const struct mem_map *e820;	/* the map the next kernel gets */
	const struct arch_hand_over *ho;	/* NULL for a normal load */
};

struct arch_loader {
	const char *name;		/* for -t */
	/* 0 if buf is this kind of image; else -1 and why says why not. */
	int (*probe)(const char *buf, size_t len, char *why, size_t whylen);
	/* Can the image be loaded in this mode with these options? */
	int (*check)(const struct load_request *req);
	/* Place the segments and set the entry.  Reports its errors. */
	int (*load)(const struct load_request *req, struct kexec_image *img);
};

/* NULL-terminated, in probe order. */
extern const struct arch_loader *const arch_loaders[];

/* The options arch_parse_opts() takes, for kj_arch_options(). */
extern const struct kj_arch_option arch_options[];

/* Architecture bits for kexec_load's flags. */
unsigned long arch_kexec_flags(void);

/* words: NULL-terminated, may be NULL.  Reports its errors. */
int arch_parse_opts(const struct kj_ctx *ctx, const char *const *words,
		    struct arch_opts **out);
void arch_opts_free(struct arch_opts *ao);

/*
 * kexec_load builds images for this architecture's kernels only: 0 if
 * the running kernel is one (or cannot tell), else reports why not.
 */
int arch_check_running(const struct kj_ctx *ctx);

/*
 * kexec_file_load: would the running kernel's file loader take this
 * image, with a command line of cmdline_len bytes (its NUL included)?
 * 0, or -ENOEXEC (not an image it takes) or -E2BIG (the command line is
 * too long) with the reason in why.  *is_signed: the image carries a
 * signature the kernel could check.
 */
int arch_file_check(const char *kernel, size_t len, size_t cmdline_len,
		    bool *is_signed, char *why, size_t whylen);

/* --entry must fit where the architecture enters the next image. */
int arch_check_entry(const struct kj_ctx *ctx, uint64_t entry);

/*
 * A crash or preserve-context load (req->spec->mode): restrict img to
 * where the next kernel may live, add the segments the hand-over needs,
 * set the kexec flag and return the words for the next kernel's command
 * line in *words (owned by *ho) and the map it gets in *e820.
 */
int arch_hand_over_prepare(const struct load_request *req,
			   struct kexec_image *img, struct arch_hand_over **ho,
			   const char **words, const struct mem_map **e820);
/* After the loader placed its segments. */
int arch_hand_over_finish(const struct load_request *req,
			  struct kexec_image *img);
void arch_hand_over_free(struct arch_hand_over *ho);

#endif
