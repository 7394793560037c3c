/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Check that the loaded segments are what the tool hashed: sha256 over
 * params->regions[] in order, compared with params->sha256.
 */
#include "hw.h"
#include "purgatory.h"
#include "sha256.h"

#define FOUR_GIB	(1ull << 32)
/* size_t is 32 bits here; feed a region that may span all 4 GiB in parts. */
#define HASH_CHUNK	0x40000000u

static void hash_phys(struct sha256_ctx *ctx, uint64_t start, uint64_t len)
{
	while (len) {
		uint32_t n = len > HASH_CHUNK ? HASH_CHUNK : (uint32_t)len;

		sha256_update(ctx, phys_ptr((uint32_t)start), n);
		start += n;
		len -= n;
	}
}

/* With paging off we can only reach the first 4 GiB. */
static bool region_reachable(const struct purgatory_region *r)
{
	return r->start <= FOUR_GIB && r->len <= FOUR_GIB - r->start;
}

enum verify_result verify_regions(const struct purgatory_params *p)
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	uint32_t i;

	if (p->nr_regions > PURGATORY_MAX_REGIONS)
		return VERIFY_BAD_REGIONS;
	for (i = 0; i < p->nr_regions; i++)
		if (!region_reachable(&p->regions[i]))
			return VERIFY_BAD_REGIONS;

	sha256_init(&ctx);
	for (i = 0; i < p->nr_regions; i++)
		hash_phys(&ctx, p->regions[i].start, p->regions[i].len);
	sha256_final(&ctx, digest);

	if (memcmp(digest, p->sha256, sizeof(digest)))
		return VERIFY_MISMATCH;
	return VERIFY_OK;
}
