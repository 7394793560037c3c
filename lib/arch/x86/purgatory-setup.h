/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Putting purgatory into an image: copy the embedded blob into a segment,
 * hand back its parameter block, and once every other segment is final,
 * record their hashes and make purgatory the entry point.
 */
#ifndef KJUMP_PURGATORY_SETUP_H
#define KJUMP_PURGATORY_SETUP_H

#include <stdint.h>

#include "image.h"
#include "purgatory-params.h"

struct purgatory_slot {
	struct purgatory_params *params;	/* inside the segment buffer */
	uint64_t addr;				/* physical base */
	uint64_t stack_top;			/* physical, for regs.esp */
};

/* Place purgatory highest in [lo, hi].  Reports its errors. */
int purgatory_place(struct kexec_image *img, uint64_t lo, uint64_t hi,
		    struct purgatory_slot *slot);

/*
 * List the loaded bytes of every segment but purgatory's own in the
 * parameter block, with their sha256 when verify is on (hashing is most of the load time, so
 * -i skips it), and set img->entry.
 */
int purgatory_finish(struct kexec_image *img,
		     const struct purgatory_slot *slot, bool verify);

#endif
