/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIBERNATE_VMCORE_MAP_H
#define KJUMP_HIBERNATE_VMCORE_MAP_H

/*
 * /proc/vmcore mapped a window at a time, for the image writer: with
 * the core's pages on the file's pages, a page of A is an address in one
 * of a few windows, which the workers copy out as they checksum it, so
 * the writer's own thread only looks for zero pages.  A window is
 * unmapped to make room only after the caller's release hook says no
 * chunk still needs it.
 */
#include <stdint.h>

#include "kjump/kjump.h"

#define VMAP_WIN_BYTES	(8u << 20)	/* per mapping of /proc/vmcore */
#define VMAP_NR_WINS	4u

/* A mapped window.  last_seq: the newest chunk with a page in it. */
struct win {
	const uint8_t *ptr;
	uint64_t off, len;		/* in the file */
	uint64_t last_seq;		/* UINT64_MAX: none */
};

struct vmap {
	int fd;				/* -1: not mapped (read() instead) */
	struct kj_vmcore_info info;
	struct win wins[VMAP_NR_WINS];
	unsigned int cur;
	uint64_t tried;			/* the offset of the last mmap() */
};

/*
 * Map the core of vc (the file path) if its pages are the file's pages
 * and mmap works at first_pfn (UINT64_MAX: do not try); else fd stays -1.
 * Set fd to -1 before the first call.
 */
void vmap_open(struct vmap *m, struct kj_vmcore *vc, const char *path,
	       uint64_t first_pfn);

/*
 * The page pfn (which the core must hold), in the current window or a
 * new one.  Before a window is reused, release(data, window) must say 0
 * (no chunk needs it); its error comes back as is.  -errno of mmap.
 */
int vmap_page(struct vmap *m, uint64_t pfn, const uint8_t **page,
	      int (*release)(void *data, struct win *w), void *data);

/* The window the last vmap_page() used. */
struct win *vmap_current(struct vmap *m);

/* Unmap every window, close the core. */
void vmap_close(struct vmap *m);

#endif
