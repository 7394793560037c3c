/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_CRC32C_H
#define KJUMP_HIB_CRC32C_H

/*
 * CRC-32C (Castagnoli, polynomial 0x1edc6f41 reflected: 0x82f63b78), init
 * and final xor 0xffffffff.  Chain calls by passing the previous result
 * as crc (0 to start): crc32c(crc32c(0, a), b) == crc32c(0, a b).
 */
#include <stddef.h>
#include <stdint.h>

uint32_t kjh_crc32c(uint32_t crc, const void *buf, size_t len);
/* The same, copying src to dst (len bytes, not overlapping) on the way. */
uint32_t kjh_crc32c_copy(uint32_t crc, void *dst, const void *src,
			 size_t len);

#endif
