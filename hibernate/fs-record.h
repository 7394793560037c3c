/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIBERNATE_FS_RECORD_H
#define KJUMP_HIBERNATE_FS_RECORD_H

#include <stddef.h>

#include "kjump/kjump-hib.h"
#include "save.h"

/*
 * The image's file system table, written by B over the one A prepared:
 * every file system A's kernel listed at the jump (job->param), each
 * with its fingerprint read from its device now that A is frozen, named
 * by A's mount point where A's own list (the prepared table) has it.
 * h is the prepared header; its fs_count and sections_crc are set.  A
 * file system that cannot be fingerprinted fails a hibernation; a
 * snapshot (never resumed) records it without a fingerprint.  0, or
 * -errno with the reason in why.
 */
int kjs_record_filesystems(const struct kjs_job *job, struct kj_vmcore *vc,
			   const struct kjh_dev *dev, struct kjh_header *h,
			   char *why, size_t why_size);

#endif
