/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_REQUEST_H
#define KJUMP_HIB_REQUEST_H

/*
 * What A asks of B's image writer, and what B answers: text in the kexec
 * jump parameter page (jump-param.h), one "key=value" per line after a
 * first line naming the format:
 *
 *   request (A -> B, at most KJ_JUMP_REQUEST_MAX bytes):
 *     kjump-hibernate-request 1
 *     mode=hibernate|snapshot|ready  power off after the save, come
 *                                  back after it, or (ready) only come
 *                                  back: B's boot is behind it
 *                                  (kexec --warm-up); no other key then
 *     dev=MAJ:MIN                  the block device the image is on
 *     dev-size=BYTES               its size, as A saw it
 *     offset=BYTES                 where image block 0 is on it
 *     capacity=BYTES               logical bytes of the target
 *     nonce=32 hex digits          the prepared header's nonce
 *     compress=none|lz4|zstd
 *     level=N                      compression level (0: the default)
 *     threads=N                    compressing threads (0: one per CPU)
 *     created=UNIX_SECONDS
 *     max-pages=N                  the most pages a resume will have room
 *                                  for (0, the default: no limit); B
 *                                  refuses an image of more
 *     target=PATH                  what the user named (messages only)
 *
 *   status (B -> A, at most KJ_JUMP_STATUS_MAX bytes):
 *     kjump-hibernate-status 1
 *     result=ok|error|cancelled
 *     reason=TEXT                  one line, for "kexec: ..." (not ok)
 *     image-bytes=N pages=N data-pages=N zero-pages=N
 *     raw-bytes=N stored-bytes=N write-ms=N    (one key per line)
 *
 * Unknown keys are ignored (a newer peer may add some); a missing key
 * that has no default, a bad number or a second first line is an error.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kjump/hib/image-format.h"

enum kjh_mode { KJH_MODE_HIBERNATE, KJH_MODE_SNAPSHOT, KJH_MODE_READY };
enum kjh_result { KJH_RESULT_OK, KJH_RESULT_ERROR, KJH_RESULT_CANCELLED };

struct kjh_request {
	enum kjh_mode mode;
	uint32_t dev_major, dev_minor;
	uint64_t dev_size;
	uint64_t offset;
	uint64_t capacity;
	uint8_t nonce[KJH_NONCE_LEN];
	enum kjh_compress compress;
	int level;
	unsigned int threads;
	uint64_t created;
	uint64_t max_pages;		/* 0: no limit */
	char target[256];
};

struct kjh_status {
	enum kjh_result result;
	char reason[512];
	uint64_t image_bytes;
	uint64_t pages, data_pages, zero_pages;
	uint64_t raw_bytes, stored_bytes;
	uint64_t write_ms;
};

/*
 * The free pages a resume needs for an image of pages pages: the pages,
 * and per page a pfn word and a restore entry (at most 1/128 of them,
 * on both word sizes), and a few pages of headers.
 */
static inline uint64_t kjh_restore_need(uint64_t pages)
{
	return pages + pages / 128 + 16;
}

/* Text into buf (NUL-terminated); returns its length, or -ENOSPC. */
int kjh_request_format(const struct kjh_request *req, char *buf, size_t size);
/* 0, or -EINVAL with a one-line reason in err. */
int kjh_request_parse(const char *text, size_t len, struct kjh_request *req,
		      char *err, size_t err_size);
int kjh_status_format(const struct kjh_status *st, char *buf, size_t size);
int kjh_status_parse(const char *text, size_t len, struct kjh_status *st,
		     char *err, size_t err_size);

const char *kjh_compress_name(enum kjh_compress c);
/* The value of one hex digit, or -1. */
int kjh_hex_digit(char c);
/* 0 and *c, or -EINVAL for an unknown name. */
int kjh_compress_parse(const char *name, enum kjh_compress *c);

#endif
