/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_TARGET_FILE_H
#define KJUMP_HIB_TARGET_FILE_H

#include <stdbool.h>
#include <stdint.h>

struct kj_ctx;
struct kjh_target;

/*
 * t->path as a file target of at least need bytes (a block multiple):
 * the existing file, or (create) a new one, 0600.  Every check of its
 * owner, links, directory, content (unless overwrite), file system and
 * inode; then it is made exactly its size, written where it has holes or
 * unwritten extents, synced and mapped into t->extents.  Reports each
 * error; on failure a file it created is removed.
 */
int target_open_file(struct kj_ctx *ctx, struct kjh_target *t,
		     uint64_t need, bool create, bool overwrite);

#endif
