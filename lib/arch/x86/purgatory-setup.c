// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "purgatory-blob.h"
#include "purgatory-setup.h"
#include "sha256.h"

static int check_blob(const struct kj_ctx *ctx,
		      const struct purgatory_header *h)
{
	if (purgatory_blob_size < sizeof(*h) || h->magic != PURGATORY_MAGIC ||
	    h->version != PURGATORY_VERSION ||
	    h->params_offset + sizeof(struct purgatory_params) >
		    purgatory_blob_size ||
	    h->memsz < purgatory_blob_size ||
	    h->stack_top_offset > h->memsz) {
		kj_err(ctx, "purgatory: the embedded blob is damaged (rebuild kexec)");
		return -EINVAL;
	}
	return 0;
}

int purgatory_place(struct kexec_image *img, uint64_t lo, uint64_t hi,
		    struct purgatory_slot *slot)
{
	struct purgatory_header h;
	uint8_t *buf;
	int ret;

	memcpy(&h, purgatory_blob, sizeof(h));
	ret = check_blob(img->ctx, &h);
	if (ret)
		return ret;
	buf = calloc(1, h.memsz);
	if (!buf || image_own(img, buf)) {
		free(buf);
		kj_err(img->ctx, "purgatory: out of memory");
		return -ENOMEM;
	}
	memcpy(buf, purgatory_blob, purgatory_blob_size);
	ret = image_add_buffer(img, "purgatory", buf, h.memsz, h.memsz,
			       PAGE_SIZE_4K, lo, hi, true, &slot->addr);
	if (ret)
		return ret;
	slot->params = (struct purgatory_params *)(buf + h.params_offset);
	slot->stack_top = slot->addr + h.stack_top_offset;
	if (slot->params->magic != PURGATORY_MAGIC) {
		kj_err(img->ctx, "purgatory: parameter block not found (rebuild kexec)");
		return -EINVAL;
	}
	return 0;
}

int purgatory_finish(struct kexec_image *img,
		     const struct purgatory_slot *slot, bool verify)
{
	struct purgatory_params *p = slot->params;
	struct sha256_ctx ctx;
	unsigned int i, n = 0;

	sha256_init(&ctx);
	for (i = 0; i < img->nr_seg; i++) {
		const struct image_segment *s = &img->seg[i];

		/*
		 * Only the bytes loaded from user buffers: the kernel zeroes
		 * the rest of each segment itself, and hashing those zeros
		 * (the kernel's init_size, the backup area) was most of the
		 * load and of purgatory's time.
		 */
		if (s->mem == slot->addr || !s->bufsz)
			continue;
		if (n == PURGATORY_MAX_REGIONS) {
			kj_err(img->ctx, "purgatory: more than %d segments to check",
			       PURGATORY_MAX_REGIONS);
			return -E2BIG;
		}
		p->regions[n].start = s->mem;
		p->regions[n].len = s->bufsz;
		n++;
		/* Hashing is still most of the load time: skip it with -i. */
		if (verify)
			sha256_update(&ctx, s->buf, s->bufsz);
	}
	p->nr_regions = n;
	if (verify)
		sha256_final(&ctx, p->sha256);
	if (verify)
		p->flags |= PGF_VERIFY;
	img->entry = slot->addr;
	return 0;
}
