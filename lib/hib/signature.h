/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_SIGNATURE_H
#define KJUMP_HIB_SIGNATURE_H

/*
 * What a hibernation target already holds, from its first bytes: a
 * target is only written over when it is empty (all zeros), holds one
 * of our images, or the user said --overwrite.
 */
#include <stddef.h>
#include <stdint.h>

/* Bytes kjh_signature() wants to see: up to btrfs' superblock magic. */
#define KJH_SIGNATURE_BYTES	(68u * 1024)

enum kjh_content {
	KJH_CONTENT_EMPTY,		/* all zeros */
	KJH_CONTENT_IMAGE,		/* a kexec hibernation image (magic) */
	KJH_CONTENT_KNOWN,		/* a partition table, file system, ... */
	KJH_CONTENT_DATA,		/* something else */
};

/*
 * The content of buf (len bytes, the start of the target; fewer than
 * KJH_SIGNATURE_BYTES when the target is shorter); for KNOWN, *what names
 * it ("a GPT partition table", "an ext2/3/4 file system", ...).
 */
enum kjh_content kjh_signature(const uint8_t *buf, size_t len,
			       const char **what);

#endif
