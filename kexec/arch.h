/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one interface architecture code plugs in behind: a list of image
 * loaders, each able to recognise a file and turn a load request into
 * segments of a struct kexec_image.
 */
#ifndef KJUMP_ARCH_H
#define KJUMP_ARCH_H

#include <stddef.h>

#include "image.h"
#include "memory-map.h"
#include "options.h"

struct load_request {
	const struct kexec_opts *opts;
	const char *kernel;		/* file contents */
	size_t kernel_len;
	const char *initrd;		/* NULL: none */
	size_t initrd_len;
	const char *cmdline;		/* final text, may be "" */
	const struct mem_map *memmap;	/* the machine's full map */
	const char *root;		/* prefix for /sys and /proc */
};

struct image_loader {
	const char *name;		/* for -t */
	/* 0 if buf is this kind of image; else -1 and why says why not. */
	int (*probe)(const char *buf, size_t len, char *why, size_t whylen);
	/* Fill img (segments, entry); prints its own errors. */
	int (*load)(const struct load_request *req, struct kexec_image *img);
};

extern const struct image_loader *const arch_loaders[];

/* Architecture bits for kexec_load's flags. */
unsigned long arch_kexec_flags(void);

#endif
