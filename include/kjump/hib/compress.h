/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_COMPRESS_H
#define KJUMP_HIB_COMPRESS_H

/*
 * One chunk at a time: compressed with lz4 or zstd, or stored as it is
 * (KJH_COMPRESS_NONE) when compressing would not make it smaller.  A
 * codec holds one thread's state (zstd's context): one per thread.
 */
#include <stddef.h>
#include <stdint.h>

#include "kjump/hib/image-format.h"

struct kjh_codec;

/* level 0: the method's default (zstd: 1, lz4: its default speed). */
int kjh_codec_new(enum kjh_compress method, int level,
		  struct kjh_codec **codec);
void kjh_codec_free(struct kjh_codec *codec);
enum kjh_compress kjh_codec_method(const struct kjh_codec *codec);

/*
 * raw_len bytes of raw into out (at least raw_len bytes): *method is the
 * one used (NONE when the chunk did not shrink), *stored_len the bytes.
 * Returns 0 or -errno.
 */
int kjh_chunk_compress(struct kjh_codec *codec, const void *raw,
		       size_t raw_len, void *out, uint32_t *method,
		       size_t *stored_len);

/*
 * raw_len bytes of raw compressed into out (raw_len - 1 bytes): their
 * count, or 0 when the chunk would not shrink (store it as it is).
 */
size_t kjh_compress_to(struct kjh_codec *codec, const void *raw,
		       size_t raw_len, void *out);

/* Exactly raw_len bytes out of in, or -EBADMSG (-EINVAL: bad method). */
int kjh_chunk_decompress(uint32_t method, const void *in, size_t in_len,
			 void *out, size_t raw_len);

#endif
