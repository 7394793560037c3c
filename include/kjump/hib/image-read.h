/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_IMAGE_READ_H
#define KJUMP_HIB_IMAGE_READ_H

/*
 * Reading an image (image-format.h): the extent device every image I/O
 * goes through, the header's checks, and the reader and verifier of a
 * committed image.  Errors are -errno with one line (no newline) in why.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "kjump/hib/image-format.h"

/*
 * An image's logical bytes on a block device (or a plain file standing in
 * for one): extents map them to device offsets; nothing at or past
 * capacity is read or written (-ENOSPC).
 */
struct kjh_dev {
	int fd;
	uint64_t capacity;
	uint32_t nr_ext;
	struct kjh_extent *ext;
};

/* fd as the image itself: logical offset == file offset. */
int kjh_dev_init_plain(struct kjh_dev *dev, int fd, uint64_t capacity);
/* ext[n] (checked: kjh_extents_check()) mapping capacity bytes. */
int kjh_dev_init(struct kjh_dev *dev, int fd, const struct kjh_extent *ext,
		 uint32_t n, uint64_t capacity);
/* Frees the extents; does not close fd. */
void kjh_dev_fini(struct kjh_dev *dev);
int kjh_dev_pread(const struct kjh_dev *dev, void *buf, size_t len,
		  uint64_t off);
/*
 * With O_DIRECT on fd, buf, len and off must be aligned; an EINVAL from
 * the device turns O_DIRECT off and the write is made again buffered.
 */
int kjh_dev_pwrite(const struct kjh_dev *dev, const void *buf, size_t len,
		   uint64_t off);
/* The same for cnt (<= KJH_DEV_IOV_MAX) buffers one after the other. */
#define KJH_DEV_IOV_MAX		64
int kjh_dev_pwritev(const struct kjh_dev *dev, const struct iovec *iov,
		    int cnt, uint64_t off);

/* Extent list rules: from 0, sorted, contiguous, whole blocks, >= need. */
int kjh_extents_check(const struct kjh_extent *ext, uint32_t n, uint64_t need,
		      char *why, size_t why_size);
uint32_t kjh_extents_crc(const struct kjh_extent *ext, uint32_t n);

/*
 * The extent list of the image whose block 0 is at byte offset of a
 * device of dev_size bytes, through dev0 (the device seen as one extent
 * from offset): block 1 is read first, its entries map the rest of the
 * list, and the whole list is checked (magic, the image's nonce, count,
 * the first extent at offset, order, crc, kjh_extents_check() for
 * capacity, every extent inside the device).  blk takes
 * KJH_EXTENTS_BLOCKS blocks: on success a struct kjh_extents and its
 * entries.  -EBADMSG (or the read's error) with why.
 */
int kjh_extents_read(const struct kjh_dev *dev0, const uint8_t *nonce,
		     uint64_t offset, uint64_t dev_size, uint64_t capacity,
		     uint8_t *blk, char *why, size_t why_size);

const char *kjh_state_name(uint32_t state);
/* A resume may restore it: COMMITTED, and not saved for A to run on. */
bool kjh_header_resumable(const struct kjh_header *hdr);
/* Why an INVALID image is invalid, from its invalid_why. */
const char *kjh_invalid_why_text(uint32_t why);
/* header_crc over the first KJH_HEADER_SEALED bytes; reserved zeroed. */
void kjh_header_seal(struct kjh_header *hdr);
/* Magic, version, size, crc and a zero reserved area (any state). */
int kjh_header_check(const struct kjh_header *hdr, char *why,
		     size_t why_size);
void kjh_chunk_seal(struct kjh_chunk *ch);
void kjh_commit_seal(struct kjh_commit *cm);
/* The header's sections_crc: of the RAM map's entries, then the fs'. */
uint32_t kjh_sections_crc(const struct kjh_ram_range *ram, uint32_t ram_count,
			  const struct kjh_fs *fs, uint32_t fs_count);

/* A complete image, its sections, runs and chunk index in memory. */
struct kjh_image {
	const struct kjh_dev *dev;
	struct kjh_header hdr;
	struct kjh_ram_range *ram;	/* hdr.ram_count */
	struct kjh_fs *fs;		/* hdr.fs_count */
	uint8_t swsusp[KJH_BLOCK];
	struct kjh_run *runs;
	struct kjh_chunk_ref *index;
	void *stored;			/* a chunk's record, read */
	size_t stored_size;
};

/*
 * A COMMITTED or SNAPSHOT image: header, commit record, sections and
 * tables, each with its checksum, and the runs in order inside A's RAM.
 * Torn ("not committed (state writing): ...", "no commit record", ...)
 * or invalid images are -EBADMSG with why.
 */
int kjh_image_open(struct kjh_image *img, const struct kjh_dev *dev,
		   char *why, size_t why_size);
/* Only block 0, checked, state unchecked. */
int kjh_image_read_header(const struct kjh_dev *dev, struct kjh_header *hdr,
			  char *why, size_t why_size);
void kjh_image_close(struct kjh_image *img);

/*
 * A buffer for one stored chunk: img->stored_size bytes (the largest
 * chunk in whole blocks), block-aligned for O_DIRECT reads; free() it.
 */
void *kjh_chunk_buf_alloc(const struct kjh_image *img);
/*
 * Read fd past the page cache from now on, when the device allows it
 * (a read it then refuses goes on buffered); false when it does not.
 */
bool kjh_fd_direct(int fd);

/* Chunk k's pages into raw (chunk_pages * page_size bytes), all checks. */
int kjh_image_read_chunk(struct kjh_image *img, uint64_t k, void *raw,
			 uint32_t *pages, char *why, size_t why_size);
/*
 * The same with the caller's buffer for the stored record (from
 * kjh_chunk_buf_alloc()), so that threads can read chunks of one image at
 * once.  With
 * KJH_READ_PAGES_CRC the stored bytes' checksum is not computed: the
 * decompressors are safe on any input, and the pages' checksum still
 * proves every page (a resume, where every CPU cycle is on the clock).
 */
#define KJH_READ_PAGES_CRC	1u
int kjh_image_read_chunk_into(const struct kjh_image *img, uint64_t k,
			      void *raw, void *stored, unsigned int flags,
			      uint32_t *pages, char *why, size_t why_size);
/* Every chunk; *bad is the first bad chunk's number. */
int kjh_image_verify(struct kjh_image *img, uint64_t *bad, char *why,
		     size_t why_size);

/* page: the content, or NULL for a zero page.  Non-zero return stops. */
typedef int (*kjh_page_fn)(void *data, uint64_t pfn, const void *page);
int kjh_image_for_each_page(struct kjh_image *img, kjh_page_fn fn,
			    void *data, char *why, size_t why_size);
/* 1 and the page, 0 when pfn is not in the image, or -errno. */
int kjh_image_find_page(struct kjh_image *img, uint64_t pfn, void *page,
			char *why, size_t why_size);

#endif
