/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_BZIMAGE_H
#define KJUMP_BZIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the loader needs from a bzImage's setup header. */
struct bzimage_info {
	uint16_t version;		/* boot protocol, e.g. 0x020f */
	size_t setup_size;		/* real-mode part, bytes */
	const char *payload;		/* protected-mode kernel */
	size_t payload_len;
	bool relocatable;
	uint32_t kernel_alignment;
	uint64_t pref_address;
	uint32_t init_size;		/* run-time footprint */
	uint32_t initrd_addr_max;
	uint32_t cmdline_size;		/* max length without the NUL */
	uint16_t xloadflags;		/* XLF_*; 0 before protocol 2.12 */
	size_t header_len;		/* bytes of setup header from 0x1f1 */
};

/*
 * Check buf as a bzImage and describe it.  Returns 0, or -1 with a reason
 * ("truncated: ...", "no HdrS signature", ...) in why.
 */
int bzimage_parse(const char *buf, size_t len, struct bzimage_info *info,
		  char *why, size_t whylen);

#endif
