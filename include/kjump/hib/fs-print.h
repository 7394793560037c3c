/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_FS_PRINT_H
#define KJUMP_HIB_FS_PRINT_H

/*
 * What a resume compares of a file system A had mounted read-write: read
 * from its device by B, after A's kernel froze and synced everything, and
 * read again by the resuming kernel before and after it freezes its own
 * tasks.  Any mount in between, read-only included, changes it:
 *
 *   ext2/3/4  the whole superblock (a mount count, a write time, the
 *             RECOVER flag a journal replay clears) and the jbd2
 *             superblock of an internal journal (its start and sequence);
 *   xfs       the primary superblock and the log's head (its block and
 *             cycle, found as xfs's own log recovery finds it, and the
 *             last record before it): every mount writes the log, even a
 *             read-only one that recovers it;
 *   vfat      the boot sector (Linux's dirty flag), the FSInfo sector,
 *             the start of the first FAT (Windows' dirty bit, the
 *             allocation) and the root directory.
 *
 * Other types (btrfs, f2fs, ...) have no fingerprint: A refuses to
 * hibernate with one mounted read-write.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kjump/hib/image-format.h"

/* Does type have a fingerprint? */
bool kjh_fs_type_printable(const char *type);

/*
 * The uuid of the file system of type on fd (vfat: its volume id in the
 * first 4 bytes): 0, -EINVAL when fd holds no such file system, -errno
 * of a read.
 */
int kjh_fs_read_uuid(int fd, const char *type, uint8_t uuid[16]);

/*
 * f->type's fingerprint of the file system on fd: uuid, sb_crc, log_crc,
 * log_pos and flags of f.  0, or -errno with the reason in why.
 */
int kjh_fs_fingerprint(int fd, struct kjh_fs *f, char *why,
		       size_t why_size);

#endif
