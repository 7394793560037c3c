// SPDX-License-Identifier: GPL-2.0-only
/*
 * CRC-32C, slice by 8: eight tables of 256 entries, built once (a
 * pthread_once, so threads compressing chunks may call it together).
 */
#include <pthread.h>
#include <string.h>

#include "kjump/hib/crc32c.h"

#define CRC32C_POLY	0x82f63b78u

static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_build(void)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (CRC32C_POLY & (0u - (c & 1)));
		crc_table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			crc_table[k][i] = (crc_table[k - 1][i] >> 8) ^
				crc_table[0][crc_table[k - 1][i] & 0xff];
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint32_t kjh_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t a, b;

	pthread_once(&crc_once, crc_build);
	crc = ~crc;
	while (len >= 8) {
		a = le32(p) ^ crc;
		b = le32(p + 4);
		crc = crc_table[7][a & 0xff] ^ crc_table[6][(a >> 8) & 0xff] ^
		      crc_table[5][(a >> 16) & 0xff] ^ crc_table[4][a >> 24] ^
		      crc_table[3][b & 0xff] ^ crc_table[2][(b >> 8) & 0xff] ^
		      crc_table[1][(b >> 16) & 0xff] ^ crc_table[0][b >> 24];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = (crc >> 8) ^ crc_table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

/* The words go through w: loaded once, stored, checksummed. */
uint32_t kjh_crc32c_copy(uint32_t crc, void *dst, const void *src,
			 size_t len)
{
	const uint8_t *p = src, *end = p + (len & ~(size_t)7);
	uint8_t *d = dst;
	uint32_t w[2], a, b;

	pthread_once(&crc_once, crc_build);
	crc = ~crc;
	for (; p < end; p += 8, d += 8) {
		memcpy(w, p, 8);
		memcpy(d, w, 8);
		a = le32((const uint8_t *)w) ^ crc;
		b = le32((const uint8_t *)w + 4);
		crc = crc_table[7][a & 0xff] ^ crc_table[6][(a >> 8) & 0xff] ^
		      crc_table[5][(a >> 16) & 0xff] ^ crc_table[4][a >> 24] ^
		      crc_table[3][b & 0xff] ^ crc_table[2][(b >> 8) & 0xff] ^
		      crc_table[1][(b >> 16) & 0xff] ^ crc_table[0][b >> 24];
	}
	for (len &= 7; len--; p++) {
		*d++ = *p;
		crc = (crc >> 8) ^ crc_table[0][(crc ^ *p) & 0xff];
	}
	return ~crc;
}
