/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-256 (FIPS 180-4).  Freestanding: used by the kexec tool and by
 * purgatory, so it needs nothing but <stdint.h> and <stddef.h>.
 */
#ifndef KJUMP_SHA256_H
#define KJUMP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_SIZE	32
#define SHA256_BLOCK_SIZE	64

struct sha256_ctx {
	uint32_t state[8];
	uint64_t count;			/* bytes hashed so far */
	uint8_t  block[SHA256_BLOCK_SIZE];
};

void sha256_init(struct sha256_ctx *ctx);
void sha256_update(struct sha256_ctx *ctx, const void *data, size_t len);
/* Feed len zero bytes (bss-like tails) without a zero buffer. */
void sha256_update_zeros(struct sha256_ctx *ctx, size_t len);
void sha256_final(struct sha256_ctx *ctx, uint8_t out[SHA256_DIGEST_SIZE]);

#endif
