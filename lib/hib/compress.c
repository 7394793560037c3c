// SPDX-License-Identifier: GPL-2.0-only
/*
 * Chunk compression with liblz4 and libzstd.  The output buffer is
 * raw_len bytes: a compressor that would need more fails, and the chunk
 * is stored raw, so a stored chunk is never larger than its pages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <zstd.h>

#include "kjump/hib/compress.h"

#define ZSTD_DEFAULT_LEVEL	1

struct kjh_codec {
	enum kjh_compress method;
	int level;
	ZSTD_CCtx *zctx;
};

int kjh_codec_new(enum kjh_compress method, int level,
		  struct kjh_codec **codec)
{
	struct kjh_codec *c;

	if (method > KJH_COMPRESS_ZSTD)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->method = method;
	c->level = level;
	if (method == KJH_COMPRESS_ZSTD) {
		if (!c->level)
			c->level = ZSTD_DEFAULT_LEVEL;
		c->zctx = ZSTD_createCCtx();
		if (!c->zctx) {
			free(c);
			return -ENOMEM;
		}
	}
	*codec = c;
	return 0;
}

void kjh_codec_free(struct kjh_codec *codec)
{
	if (!codec)
		return;
	if (codec->zctx)
		ZSTD_freeCCtx(codec->zctx);
	free(codec);
}

enum kjh_compress kjh_codec_method(const struct kjh_codec *codec)
{
	return codec->method;
}

size_t kjh_compress_to(struct kjh_codec *c, const void *raw, size_t raw_len,
		       void *out)
{
	size_t cap = raw_len - 1;
	size_t n;
	int r;

	if (raw_len < 2)
		return 0;
	switch (c->method) {
	case KJH_COMPRESS_LZ4:
		if (raw_len > LZ4_MAX_INPUT_SIZE)
			return 0;
		r = c->level > 1 ?
			LZ4_compress_fast(raw, out, (int)raw_len, (int)cap,
					  c->level) :
			LZ4_compress_default(raw, out, (int)raw_len, (int)cap);
		return r > 0 ? (size_t)r : 0;
	case KJH_COMPRESS_ZSTD:
		n = ZSTD_compressCCtx(c->zctx, out, cap, raw, raw_len,
				      c->level);
		return ZSTD_isError(n) ? 0 : n;
	default:
		return 0;
	}
}

int kjh_chunk_compress(struct kjh_codec *codec, const void *raw,
		       size_t raw_len, void *out, uint32_t *method,
		       size_t *stored_len)
{
	size_t n = kjh_compress_to(codec, raw, raw_len, out);

	if (n) {
		*method = codec->method;
		*stored_len = n;
		return 0;
	}
	memcpy(out, raw, raw_len);
	*method = KJH_COMPRESS_NONE;
	*stored_len = raw_len;
	return 0;
}

int kjh_chunk_decompress(uint32_t method, const void *in, size_t in_len,
			 void *out, size_t raw_len)
{
	size_t n;
	int r;

	switch (method) {
	case KJH_COMPRESS_NONE:
		if (in_len != raw_len)
			return -EBADMSG;
		memcpy(out, in, raw_len);
		return 0;
	case KJH_COMPRESS_LZ4:
		if (in_len > LZ4_MAX_INPUT_SIZE || raw_len > LZ4_MAX_INPUT_SIZE)
			return -EBADMSG;
		r = LZ4_decompress_safe(in, out, (int)in_len, (int)raw_len);
		return r == (int)raw_len ? 0 : -EBADMSG;
	case KJH_COMPRESS_ZSTD:
		n = ZSTD_decompress(out, raw_len, in, in_len);
		return !ZSTD_isError(n) && n == raw_len ? 0 : -EBADMSG;
	default:
		return -EINVAL;
	}
}
