/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_RESUME_CHECK_H
#define KJUMP_HIB_RESUME_CHECK_H

/*
 * Whether an image may be resumed on this boot: the refusals a resume
 * makes before it touches anything (doc/image-format.md).  Each check
 * compares what the image recorded about A with what the running kernel
 * (A', a fresh boot of the same build) says about itself, and gives one
 * reason when they differ.  Pure functions: the caller gathers the facts
 * of the running system, so that every refusal is unit tested.
 *
 * Return: 0 when the image passes, else -EBADMSG (torn, invalid, from
 * another kernel or machine), -ESTALE (consumed: resumed once already)
 * or -EBUSY (a file system changed since), with why set to one line.
 */
#include <stddef.h>
#include <stdint.h>

#include "kjump/hib/image-format.h"

#define KJH_HOST_RAM_MAX	128u

/* The running kernel and machine. */
struct kjh_host {
	struct kjh_identity id;		/* uname, GNU build id of the kernel */
	uint32_t kernel_word;		/* sizeof(long) of the kernel */
	struct kjh_ram_range ram[KJH_HOST_RAM_MAX];
	uint32_t ram_count;
	uint64_t crash_start;		/* crash region, 0/0 when none */
	uint64_t crash_end;
};

/* State, identity, page size and crash region size of block 0. */
int kjh_resume_check_header(const struct kjh_header *hdr,
			    const struct kjh_host *host, char *why,
			    size_t why_size);

/* A's RAM map (the image's section) against this machine's. */
int kjh_resume_check_ram(const struct kjh_ram_range *ram, uint32_t n,
			 const struct kjh_host *host, char *why,
			 size_t why_size);

/*
 * The fingerprint of rec's file system now, into *now (a copy of *rec):
 * 0, or -errno when it cannot be read.
 */
typedef int (*kjh_fs_probe)(void *data, const struct kjh_fs *rec,
			    struct kjh_fs *now);

/*
 * Every file system A had mounted read-write must be exactly as A left
 * it, by its fingerprint (kjump/hib/fs-print.h): a mount of it in
 * between, even read-only (which replays a journal), or a write would
 * make A's cached view of it wrong.  A record with no fingerprint is
 * refused too.
 */
int kjh_resume_check_fs(const struct kjh_fs *fs, uint32_t n,
			kjh_fs_probe probe, void *data, char *why,
			size_t why_size);

#endif
