/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_TARGET_H
#define KJUMP_HIB_TARGET_H

/*
 * The hibernation target, kernel A's side, before the jump: a whole
 * block device or partition, or a file on a mounted ext2/3/4 or xfs
 * file system, checked, made ready and described as extents of one
 * block device, so that kernel B can write A's image into those blocks
 * through the raw device without mounting anything.
 *
 *   kjh_target_open()     every check; a file is made exactly its size,
 *                         fully written (no holes, no unwritten extents)
 *                         and mapped with FIEMAP; nothing is left behind
 *                         on failure (a file it created is unlinked)
 *   kjh_target_prepare()  extent list (blocks 1..16), the RAM map and
 *                         file system sections, then header block 0
 *                         (state PREPARED) last, then fsync
 *   (the jump: B writes the image into the extents)
 *   kjh_target_after_jump()  drop A's cached pages of the target
 *   kjh_target_close()
 *
 * Every function that takes a context reports each error it returns
 * once, "<target>: <why>"; errors are negative errno values.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kjump/hib/image-format.h"

struct kj_ctx;

struct kjh_target {
	char path[4096];		/* what the user named */
	bool is_file;			/* a file on a mounted file system */
	int fd;				/* the file or the device, O_RDWR */
	uint32_t dev_major, dev_minor;	/* the block device the image is on */
	char dev_name[64];		/* e.g. "vda" (sysfs name) */
	uint64_t dev_size;		/* bytes */
	uint64_t capacity;		/* logical bytes usable for the image */
	struct kjh_extent *extents;	/* logical -> device byte offsets */
	uint32_t extent_count;
	uint64_t offset;		/* extents[0].physical: block 0 */
	bool created;			/* kjh_target_open() made the file */
	bool prepared;			/* kjh_target_prepare() wrote block 0 */
	uint8_t nonce[KJH_NONCE_LEN];	/* the prepared image's */
};

/*
 * The room kjh_worst_case_bytes() keeps for A's sections: RAM ranges and
 * file systems beyond these make kjh_target_prepare() refuse.
 */
#define KJH_WORST_RAM_RANGES	128u
/* Data pages per chunk the formula assumes at least (B's chunk_pages). */
#define KJH_WORST_CHUNK_PAGES	64u

/*
 * The bytes an image of a machine with ram_pages pages of RAM (P) can
 * take at most, with B = KJH_BLOCK and up(x) = x rounded up to a block:
 *
 *   KJH_DATA_OFF                               header + extent list
 * + up(128 * 16) + up(32 * 128)                RAM map, file systems (2 B)
 * + up((P + 1) * 16)                           runs
 * + B                                          swsusp header
 * + ceil(P / 64) * (64 * 4096 + B)             chunks: payload, and one
 *                                              block for the chunk header
 *                                              and any growth of a chunk
 *                                              that does not compress
 * + up(ceil(P / 64) * 16)                      chunk index
 * + B                                          commit record
 *
 * It holds for B's chunk_pages >= 64 (runs never outnumber pages).
 * P = 0 gives 90112 bytes.
 */
uint64_t kjh_worst_case_bytes(uint64_t ram_pages);

/*
 * Open path as a target able to hold need bytes (which gets rounded up
 * to a block, and to at least KJH_DATA_OFF): a block device (unused: not
 * mounted, no partition mounted, not swap, no holders; opened O_EXCL),
 * an existing regular file of this user's (not through a symbolic link,
 * one link, in a directory others cannot write to, mode 0600 in the
 * end), or a new file (created 0600).  What it holds is checked
 * (kjh_target_check_content()) before anything is written.  Fills t; on
 * failure t holds nothing to close, but kjh_target_close() is harmless.
 */
int kjh_target_open(struct kj_ctx *ctx, const char *path, uint64_t need,
		    bool overwrite, struct kjh_target *t);

/*
 * What t (open) holds at its start may be written over: nothing, or one of
 * our images; a file system, partition table or volume (signature.h), or
 * in a file any other data, only with overwrite.  -EEXIST, reported.
 */
int kjh_target_check_content(struct kj_ctx *ctx, const struct kjh_target *t,
			     bool overwrite);

/*
 * Fill hdr's format fields (magic, version, header_size, state PREPARED,
 * page_size, capacity, ram/fs offsets and counts, header_crc; the caller
 * set identity, created, crash region, jump_buf_pfn, nonce and flags)
 * and write the extent list, the sections and the header, then fsync.
 */
int kjh_target_prepare(struct kj_ctx *ctx, struct kjh_target *t,
		       struct kjh_header *hdr,
		       const struct kjh_ram_range *ram, uint32_t ram_count,
		       const struct kjh_fs *fs, uint32_t fs_count);

/* Drop A's now stale cached pages of the target (B wrote behind them). */
void kjh_target_after_jump(struct kjh_target *t);

/*
 * Block 0 of the image as it is on the device now (read directly, not
 * through any cache, which may predate what B or a resume wrote).
 */
int kjh_target_read_block0(struct kj_ctx *ctx, const struct kjh_target *t,
			   void *block);

/* h (sealed) written as block 0 and synced: 0, or -errno (reported). */
int kjh_target_write_block0(struct kj_ctx *ctx, struct kjh_target *t,
			    const struct kjh_header *h);

/*
 * Wait until no wipe of an earlier image runs, and hold the lock that
 * makes one wait (close the descriptor to let go; a wipe started in
 * between takes it over).  -1 when there is no /run to lock in.
 */
int kjh_wipe_lock(struct kj_ctx *ctx);

/*
 * The image t resumed (block 0 CONSUMED with t's nonce) zeroed after its
 * extent list, then flagged KJH_F_WIPED, synced.  It stops, with 0, as
 * soon as block 0 holds anything else.  0, or -errno (reported).
 */
int kjh_target_wipe(struct kj_ctx *ctx, struct kjh_target *t);

/* kjh_target_wipe() in a child process; returns at once. */
void kjh_wipe_in_background(struct kj_ctx *ctx, struct kjh_target *t);

/*
 * When block 0 (read as kjh_target_read_block0() does) still holds the
 * prepared image, in one of the states of the mask (1u << state), make
 * it INVALID for why and sync it: 1 when it did, 0 when there was
 * nothing to do, -errno (reported) when it could not.
 */
int kjh_target_invalidate(struct kj_ctx *ctx, struct kjh_target *t,
			  uint32_t states, enum kjh_invalid_why why);

void kjh_target_close(struct kjh_target *t);
/*
 * A hibernation that failed before B wrote anything: a prepared header
 * made INVALID first (no later jump may write through it), then closed,
 * and the file removed if kjh_target_open() created it.
 */
void kjh_target_abandon(struct kj_ctx *ctx, struct kjh_target *t);

/*
 * sync(), then every read-write mount of a block device in
 * /proc/self/mountinfo, once per device, with its type and mount point
 * (B fingerprints each, with the ones A's kernel lists).  For an image
 * to be resumed (resumable), a type with no fingerprint (fs-print.h) and
 * active swap are refused, reported.  *fs is malloc'd (NULL when *count
 * is 0).
 */
int kjh_rw_filesystems(struct kj_ctx *ctx, bool resumable,
		       struct kjh_fs **fs, uint32_t *count);

/*
 * No dm-crypt mapping is open (a dm device whose uuid starts with
 * "CRYPT-"): an image would hold its key in clear.  0, or -EPERM
 * reported against what ("--hibernate").
 */
int kjh_check_plaintext(struct kj_ctx *ctx, const char *what);

/*
 * The block device of this boot that holds f's file system (its type
 * and uuid), among all of /sys/class/block: 0 with its number; -ENOENT
 * (none), -EEXIST (two) or -errno with one line in why.
 */
int kjh_fs_find(struct kj_ctx *ctx, const struct kjh_fs *f, uint32_t *major,
		uint32_t *minor, char *why, size_t why_size);

/*
 * Whether the block device major:minor may take an image: 0, or -EBUSY
 * (reported against path) when it, a partition of it or the disk it is
 * a partition of is mounted, active swap or held (device mapper, md,
 * lvm).  kjh_target_open() checks block devices with it.
 */
int kjh_blkdev_check_unused(struct kj_ctx *ctx, const char *path,
			    uint32_t major, uint32_t minor);

/*
 * Whether the crash kernel can reach the block device major:minor by its
 * number: 0, or -EXDEV (reported against path) for a device-mapper, md or
 * loop device, which B's initramfs has no stack for.
 */
int kjh_blkdev_check_reachable(struct kj_ctx *ctx, const char *path,
			       uint32_t major, uint32_t minor);

#endif
