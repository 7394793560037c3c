/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_IMAGE_FORMAT_H
#define KJUMP_HIB_IMAGE_FORMAT_H

/*
 * The kexec hibernation image, version 3 (doc/image-format.md).
 *
 * An image lives in a "target": a whole block device or partition, or a
 * preallocated file, seen as a list of extents of one block device.  All
 * offsets below are logical (bytes from the image's start, through the
 * extent list); all integers are little-endian; every block is
 * KJH_BLOCK bytes and every section starts on a block boundary.
 *
 *   block 0          struct kjh_header (state, identity, where the rest is)
 *   blocks 1..16     struct kjh_extents + entries (A writes it, B keeps it)
 *   then, written by B in this order:
 *     RAM map         kjh_ram_range[ram_count]       (A's System RAM)
 *     file systems    kjh_fs[fs_count], KJH_FS_SLOTS  (A's rw mounts)
 *     swsusp header   one block: A's struct swsusp_info page as published
 *     runs            kjh_run[run_count]             (saved pfn ranges)
 *     chunks          each: struct kjh_chunk + payload, block aligned
 *     chunk index     kjh_chunk_ref[chunk_count]
 *     commit record   one block: struct kjh_commit
 *
 * Pages: the pfns of the runs, in run order, are the image's pages.  A run
 * with KJH_RUN_ZERO holds pages that were all zero in A: they have no
 * data.  The other pages, in the same order, are the data pages, stored
 * chunk_pages at a time (the last chunk may be shorter) in the chunks.
 * The swsusp stream for a restore through /dev/snapshot is: the swsusp
 * header block, then the pfns of all pages (runs order, as A's kernel
 * words of kernel_word bytes, ending with ~0 when the last meta page has
 * room), then every page's content (zeros for ZERO runs).
 *
 * Writing (B): header with state WRITING; sections; chunks; index; fsync;
 * commit; fsync; header again with state COMMITTED (SNAPSHOT when A runs
 * on after the save) and the final counts; fsync.  An image is complete
 * only when the header's crc is right, its state is COMMITTED or
 * SNAPSHOT, and the commit record at commit_off matches the header
 * (nonce, counts, and the checksums of the index, the runs, the swsusp
 * block and A's sections): anything else is a torn or failed image.
 * Only a COMMITTED image is resumable; the resume marks it CONSUMED in
 * place.  Whatever made an image INVALID is in invalid_why.
 *
 * Every field of the header and its crc lie in its first 512 bytes (the
 * rest of the block is zero), so that a power cut tearing the block's
 * write on a disk of 512-byte sectors leaves either the old header or the
 * new one, never a mix that reads as damaged.
 *
 * Checksums are CRC-32C (Castagnoli, reflected, init and final xor
 * 0xffffffff): crc32c("123456789") = 0xe3069283.
 */
#include <stddef.h>
#include <stdint.h>

#define KJH_MAGIC		"KJHIBIMG"	/* 8 bytes, no NUL */
#define KJH_EXTENTS_MAGIC	"KJHEXTNT"
#define KJH_CHUNK_MAGIC		0x4b48434bu	/* "KCHK" */
#define KJH_COMMIT_MAGIC	"KJCOMMIT"
#define KJH_VERSION		3u
#define KJH_BLOCK		4096u
#define KJH_HEADER_SEALED	512u	/* the header's bytes its crc covers */
#define KJH_PAGE		4096u
#define KJH_EXTENTS_OFF		KJH_BLOCK		/* block 1 */
#define KJH_EXTENTS_BLOCKS	16u
#define KJH_DATA_OFF		((1u + KJH_EXTENTS_BLOCKS) * KJH_BLOCK)
#define KJH_NONCE_LEN		16u
#define KJH_RAM_RANGES_MAX	128u	/* a reader's bounds on the sections */
#define KJH_FS_SLOTS		64u	/* room for the file system table */

enum kjh_state {
	KJH_STATE_PREPARED = 1,		/* A wrote header + extents; no data */
	KJH_STATE_WRITING = 2,		/* B is writing (or died doing so) */
	KJH_STATE_COMMITTED = 3,	/* complete, resumable */
	KJH_STATE_INVALID = 4,		/* never resumable: invalid_why */
	KJH_STATE_CONSUMED = 5,		/* resumed once: never again */
	KJH_STATE_SNAPSHOT = 6,		/* complete, A ran on: never resumable */
};

/* Why an image is INVALID. */
enum kjh_invalid_why {
	KJH_INVALID_WRITER = 0,		/* the writer failed or was cancelled */
	KJH_INVALID_CAME_BACK = 1,	/* A came back from B and ran on */
	KJH_INVALID_BY_REQUEST = 2,	/* kexec --invalidate (a boot going on) */
	KJH_INVALID_ABANDONED = 3,	/* the hibernation failed before B */
};

enum kjh_compress {
	KJH_COMPRESS_NONE = 0,
	KJH_COMPRESS_LZ4 = 1,
	KJH_COMPRESS_ZSTD = 2,
};

/* A's identity: a resume checks it against the running kernel. */
struct kjh_identity {
	char release[65];		/* uname -r */
	char version[65];		/* uname -v ("#1 SMP ...") */
	char machine[16];		/* uname -m */
	uint8_t build_id_len;
	uint8_t build_id[32];		/* vmcoreinfo BUILD-ID, or GNU note */
	char boot_id[37];		/* /proc/sys/kernel/random/boot_id */
	uint8_t pad[8];
};

struct kjh_header {
	char magic[8];			/* KJH_MAGIC */
	uint32_t version;		/* KJH_VERSION */
	uint32_t header_size;		/* KJH_BLOCK */
	uint32_t state;			/* enum kjh_state */
	uint32_t flags;			/* KJH_F_* */
	uint8_t nonce[KJH_NONCE_LEN];	/* A's, per image: ties it together */
	uint64_t created;		/* A's time of the request (unix s) */
	uint64_t saved;			/* B's time of the commit (A's clock) */
	uint64_t capacity;		/* logical bytes the target holds */
	uint64_t image_bytes;		/* logical bytes used, commit included */

	struct kjh_identity id;

	uint32_t page_size;		/* A's page size: 4096 */
	uint32_t kernel_word;		/* sizeof(long) in A's kernel */
	uint64_t ram_off;		/* kjh_ram_range[ram_count] */
	uint32_t ram_count;
	uint32_t fs_count;
	uint64_t fs_off;		/* kjh_fs[fs_count] */
	uint64_t crash_start;		/* A's crash region [start, end] */
	uint64_t crash_end;
	uint64_t jump_buf_pfn;		/* A's kexec jump buffer */
	uint64_t jump_entry;		/* A's way back (jump record) */
	uint64_t swsusp_off;		/* one block: swsusp_info page */
	uint64_t run_off;		/* kjh_run[run_count] */
	uint64_t run_count;
	uint64_t pages;			/* pages in the runs */
	uint64_t data_pages;		/* of which stored in chunks */
	uint64_t zero_pages;		/* of which all zero */
	uint64_t map_pages;		/* pages A's kernel marked saveable */
	uint64_t free_pages;		/* free pages at the jump */

	uint32_t compress;		/* enum kjh_compress */
	uint32_t chunk_pages;		/* data pages per chunk */
	uint64_t chunk_off;		/* first chunk */
	uint64_t chunk_count;
	uint64_t index_off;		/* kjh_chunk_ref[chunk_count] */
	uint32_t index_crc;		/* crc32c of the index */
	uint32_t runs_crc;		/* crc32c of the runs */
	uint64_t raw_bytes;		/* data pages * page_size */
	uint64_t stored_bytes;		/* chunk payload bytes on disk */
	uint64_t commit_off;		/* struct kjh_commit */
	uint64_t consumed;		/* time it was resumed */
	uint32_t invalid_why;		/* enum kjh_invalid_why */
	uint32_t swsusp_crc;		/* crc32c of the swsusp block */
	uint32_t sections_crc;		/* crc32c of the RAM map, then the fs */
	uint32_t header_crc;		/* crc32c of bytes 0-511, field = 0 */

	uint8_t reserved[KJH_BLOCK - KJH_HEADER_SEALED];	/* zero */
};

#define KJH_F_SNAPSHOT		(1u << 0)	/* saved for A to run on */
#define KJH_F_WIPED		(1u << 1)	/* CONSUMED, all after block 16 zeroed */

/* The extent list: A writes it (through its file system) before the jump. */
struct kjh_extent {
	uint64_t logical;		/* byte offset in the image */
	uint64_t physical;		/* byte offset on the device */
	uint64_t length;		/* bytes, a multiple of KJH_BLOCK */
};

struct kjh_extents {
	char magic[8];			/* KJH_EXTENTS_MAGIC */
	uint8_t nonce[KJH_NONCE_LEN];	/* the header's */
	uint32_t dev_major;		/* the device holding every extent */
	uint32_t dev_minor;
	uint64_t dev_size;		/* its size in bytes */
	uint32_t count;			/* struct kjh_extent that follow */
	uint32_t crc;			/* crc32c of the entries */
	uint32_t is_file;		/* 1: a file on a file system */
	uint32_t pad;
	/* struct kjh_extent entries[count]; */
};

#define KJH_EXTENTS_MAX \
	((KJH_EXTENTS_BLOCKS * KJH_BLOCK - sizeof(struct kjh_extents)) / \
	 sizeof(struct kjh_extent))

struct kjh_ram_range {
	uint64_t start;			/* physical, inclusive */
	uint64_t end;			/* physical, inclusive */
};

/*
 * A file system A had mounted read-write.  A lists the ones it sees with
 * where they are mounted; B replaces the list with the one A's kernel
 * gave at the jump, each with its fingerprint read from the device
 * (kjump/hib/fs-print.h).  A resume finds each by type and uuid and
 * refuses if any fingerprint differs.
 */
struct kjh_fs {
	uint32_t dev_major;		/* its device in A */
	uint32_t dev_minor;
	char type[16];			/* "ext4", "xfs", "vfat" */
	uint8_t uuid[16];		/* vfat: the volume id, then zeros */
	uint32_t sb_crc;		/* of its superblock or boot sector */
	uint32_t log_crc;		/* of its journal, log head or FATs */
	uint64_t log_pos;		/* where its journal or log stood */
	uint32_t flags;			/* KJH_FS_* */
	uint32_t pad;
	char name[64];			/* A's mount point, or its device */
};

#define KJH_FS_PRINTED		(1u << 0)	/* B read the fingerprint */
#define KJH_FS_LOG		(1u << 1)	/* log_crc and log_pos too */

#define KJH_RUN_ZERO		(1u << 0)

struct kjh_run {
	uint64_t pfn;
	uint32_t count;
	uint32_t flags;			/* KJH_RUN_ZERO */
};

struct kjh_chunk {
	uint32_t magic;			/* KJH_CHUNK_MAGIC */
	uint32_t seq;			/* 0, 1, ... */
	uint64_t first_page;		/* index among the data pages */
	uint32_t page_count;
	uint32_t method;		/* enum kjh_compress, per chunk */
	uint32_t raw_len;		/* page_count * page_size */
	uint32_t stored_len;		/* payload bytes that follow */
	uint32_t stored_crc;		/* crc32c of the payload */
	uint32_t raw_crc;		/* crc32c of the pages */
	uint32_t header_crc;		/* crc32c of this struct, field = 0 */
	uint32_t pad;
};

struct kjh_chunk_ref {
	uint64_t off;			/* logical offset of struct kjh_chunk */
	uint32_t stored_len;
	uint32_t raw_crc;
};

struct kjh_commit {
	char magic[8];			/* KJH_COMMIT_MAGIC */
	uint8_t nonce[KJH_NONCE_LEN];
	uint64_t chunk_count;
	uint64_t image_bytes;
	uint64_t data_pages;
	uint32_t index_crc;
	uint32_t runs_crc;
	uint32_t swsusp_crc;
	uint32_t sections_crc;
	uint32_t crc;			/* crc32c of this struct, field = 0 */
	uint32_t pad;
};

_Static_assert(sizeof(struct kjh_header) == KJH_BLOCK, "header is a block");
_Static_assert(sizeof(struct kjh_chunk) == 48, "chunk header");
_Static_assert(sizeof(struct kjh_identity) == 224, "identity");
_Static_assert(__builtin_offsetof(struct kjh_header, reserved) ==
	       KJH_HEADER_SEALED,
	       "header: the same layout for -m32 and native");
_Static_assert(sizeof(struct kjh_extents) == 56, "extent list header");
_Static_assert(sizeof(struct kjh_extent) == 24, "extent");
_Static_assert(sizeof(struct kjh_fs) == 128, "file system record");
_Static_assert(sizeof(struct kjh_commit) == 72, "commit record");

/* v rounded up to whole blocks. */
static inline uint64_t kjh_round_up(uint64_t v)
{
	return (v + KJH_BLOCK - 1) & ~(uint64_t)(KJH_BLOCK - 1);
}

/* The record of a chunk of pages pages: header, payload, padding. */
static inline size_t kjh_chunk_rec_max(uint32_t pages)
{
	return (size_t)kjh_round_up(sizeof(struct kjh_chunk) +
				    (uint64_t)pages * KJH_PAGE);
}

#endif
