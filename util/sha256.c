/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-256 as specified in FIPS 180-4.
 *
 * This file is compiled twice: into the kexec tool (hosted, any ABI) and
 * into purgatory (freestanding i386, no libc, no libgcc).  So it uses only
 * <stdint.h>/<stddef.h>, never calls memcpy/memset (plain loops instead),
 * and does no 64-bit division.
 */
#include "sha256.h"

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror32(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

/* Cast each byte before shifting: uint8_t promotes to (signed) int. */
static inline uint32_t load_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#define CH(x, y, z)	((z) ^ ((x) & ((y) ^ (z))))
#define MAJ(x, y, z)	(((x) & (y)) | ((z) & ((x) | (y))))
#define BSIG0(x)	(ror32(x, 2) ^ ror32(x, 13) ^ ror32(x, 22))
#define BSIG1(x)	(ror32(x, 6) ^ ror32(x, 11) ^ ror32(x, 25))
#define SSIG0(x)	(ror32(x, 7) ^ ror32(x, 18) ^ ((x) >> 3))
#define SSIG1(x)	(ror32(x, 17) ^ ror32(x, 19) ^ ((x) >> 10))

/*
 * One round.  The eight working variables are not shifted along: the
 * caller names them in rotated order, round after round, so that a round
 * writes two of them and moves none (under TCG every move is a load and a
 * store).
 */
#define ROUND(a, b, c, d, e, f, g, h, k)				\
	do {								\
		uint32_t t1 = (h) + BSIG1(e) + CH(e, f, g) + kk[k] + wk[k]; \
		(d) += t1;						\
		(h) = t1 + BSIG0(a) + MAJ(a, b, c);			\
	} while (0)

/* The next 16 words of the message schedule, in the window. */
static void sha256_schedule(uint32_t w[16])
{
	unsigned int k;

	for (k = 0; k < 16; k++)
		w[k] += SSIG1(w[(k + 14) & 15]) + w[(k + 9) & 15] +
			SSIG0(w[(k + 1) & 15]);
}

/*
 * One 64-byte block.  The message schedule is kept as a rolling window of
 * 16 words rather than the full 64: purgatory runs on a small stack (and
 * in 16 KiB).  Eight rounds are written out, the names rotating; this is
 * most of the time of a load (kexec hashes every segment) and of
 * purgatory's check.
 */
static void sha256_block(uint32_t state[8], const uint8_t *blk)
{
	uint32_t w[16];
	uint32_t a, b, c, d, e, f, g, h;
	const uint32_t *wk, *kk;
	unsigned int i;

	for (i = 0; i < 16; i++)
		w[i] = load_be32(blk + 4 * i);

	a = state[0]; b = state[1]; c = state[2]; d = state[3];
	e = state[4]; f = state[5]; g = state[6]; h = state[7];

	for (i = 0; i < 64; i += 8) {
		if (i >= 16 && !(i & 15))
			sha256_schedule(w);
		wk = w + (i & 15);
		kk = sha256_k + i;
		ROUND(a, b, c, d, e, f, g, h, 0);
		ROUND(h, a, b, c, d, e, f, g, 1);
		ROUND(g, h, a, b, c, d, e, f, 2);
		ROUND(f, g, h, a, b, c, d, e, 3);
		ROUND(e, f, g, h, a, b, c, d, 4);
		ROUND(d, e, f, g, h, a, b, c, 5);
		ROUND(c, d, e, f, g, h, a, b, 6);
		ROUND(b, c, d, e, f, g, h, a, 7);
	}

	state[0] += a; state[1] += b; state[2] += c; state[3] += d;
	state[4] += e; state[5] += f; state[6] += g; state[7] += h;
}

void sha256_init(struct sha256_ctx *ctx)
{
	unsigned int i;

	ctx->state[0] = 0x6a09e667;
	ctx->state[1] = 0xbb67ae85;
	ctx->state[2] = 0x3c6ef372;
	ctx->state[3] = 0xa54ff53a;
	ctx->state[4] = 0x510e527f;
	ctx->state[5] = 0x9b05688c;
	ctx->state[6] = 0x1f83d9ab;
	ctx->state[7] = 0x5be0cd19;
	ctx->count = 0;
	for (i = 0; i < SHA256_BLOCK_SIZE; i++)
		ctx->block[i] = 0;
}

/* Bytes already waiting in ctx->block: count mod 64, without a division. */
static inline size_t sha256_fill(const struct sha256_ctx *ctx)
{
	return (size_t)(ctx->count & (SHA256_BLOCK_SIZE - 1));
}

void sha256_update(struct sha256_ctx *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;
	size_t fill = sha256_fill(ctx);

	ctx->count += len;

	/* Top up a partial block first. */
	if (fill) {
		while (len && fill < SHA256_BLOCK_SIZE) {
			ctx->block[fill++] = *p++;
			len--;
		}
		if (fill < SHA256_BLOCK_SIZE)
			return;
		sha256_block(ctx->state, ctx->block);
	}

	/* Whole blocks straight from the caller's buffer: no copy. */
	while (len >= SHA256_BLOCK_SIZE) {
		sha256_block(ctx->state, p);
		p += SHA256_BLOCK_SIZE;
		len -= SHA256_BLOCK_SIZE;
	}

	for (fill = 0; fill < len; fill++)
		ctx->block[fill] = p[fill];
}

void sha256_update_zeros(struct sha256_ctx *ctx, size_t len)
{
	size_t fill = sha256_fill(ctx);
	size_t i;

	ctx->count += len;

	/*
	 * Zero the rest of the block buffer once; it then doubles as the
	 * all-zero input block, since sha256_block() never writes to its
	 * input.  Whatever tail is left over is already zero.
	 */
	for (i = fill; i < SHA256_BLOCK_SIZE; i++)
		ctx->block[i] = 0;

	if (fill) {
		if (len < SHA256_BLOCK_SIZE - fill)
			return;
		len -= SHA256_BLOCK_SIZE - fill;
		sha256_block(ctx->state, ctx->block);
		for (i = 0; i < fill; i++)
			ctx->block[i] = 0;
	}

	while (len >= SHA256_BLOCK_SIZE) {
		sha256_block(ctx->state, ctx->block);
		len -= SHA256_BLOCK_SIZE;
	}
}

void sha256_final(struct sha256_ctx *ctx, uint8_t out[SHA256_DIGEST_SIZE])
{
	uint64_t bits = ctx->count << 3;
	size_t fill = sha256_fill(ctx);
	unsigned int i;

	/* Padding: 0x80, zeros up to 56 mod 64, 64-bit big-endian length. */
	ctx->block[fill++] = 0x80;
	if (fill > SHA256_BLOCK_SIZE - 8) {
		while (fill < SHA256_BLOCK_SIZE)
			ctx->block[fill++] = 0;
		sha256_block(ctx->state, ctx->block);
		fill = 0;
	}
	while (fill < SHA256_BLOCK_SIZE - 8)
		ctx->block[fill++] = 0;

	store_be32(ctx->block + 56, (uint32_t)(bits >> 32));
	store_be32(ctx->block + 60, (uint32_t)bits);
	sha256_block(ctx->state, ctx->block);

	for (i = 0; i < 8; i++)
		store_be32(out + 4 * i, ctx->state[i]);

	/* Leave nothing of the message behind, and make reuse obvious. */
	sha256_init(ctx);
}
