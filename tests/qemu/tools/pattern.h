/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The page pattern shared by memfill (writes it in kernel A) and
 * vmcore-check (finds it again in A's dump, from kernel B).
 *
 * Every 4 KiB page starts with a struct pat_hdr; the rest of the page is a
 * payload that depends only on the tag and the page index, so a reader can
 * regenerate it and compare byte for byte: random for even indexes,
 * compressible for odd ones.  hdr.sum is the checksum of the
 * payload as written.
 */
#ifndef KJ_PATTERN_H
#define KJ_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define PAT_PAGE	4096u
#define PAT_MAGIC	0x4d464a4bu	/* "KJFM" in memory */
#define PAT_TAG_LEN	16u

struct pat_hdr {
	uint32_t magic;
	uint8_t tag[PAT_TAG_LEN];
	uint32_t index;			/* page number in the fill, from 0 */
	uint32_t total;			/* pages in the fill */
	uint32_t reserved;		/* 0 */
	uint64_t sum;			/* pat_sum() of the payload */
};

#define PAT_PAYLOAD_OFF	48u
#define PAT_PAYLOAD_LEN	(PAT_PAGE - PAT_PAYLOAD_OFF)

_Static_assert(sizeof(struct pat_hdr) <= PAT_PAYLOAD_OFF, "header too big");
_Static_assert(PAT_PAYLOAD_LEN % 8 == 0, "payload not in 64-bit words");

static inline uint64_t pat_mix(uint64_t x)	/* splitmix64 finaliser */
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * Odd pages compress well: the payload repeats one 64-byte record (the
 * seed's words and the index) with a counter, as a hibernation image
 * would meet in text and tables; even pages are random.
 */
static inline void pat_payload_text(uint64_t s, uint32_t index, uint8_t *buf)
{
	uint64_t rec[8];
	size_t i;

	for (i = 0; i < 8; i++)
		rec[i] = pat_mix(s + i);
	for (i = 0; i < PAT_PAYLOAD_LEN; i += sizeof(rec)) {
		size_t n = PAT_PAYLOAD_LEN - i < sizeof(rec) ?
			   PAT_PAYLOAD_LEN - i : sizeof(rec);

		rec[7] = ((uint64_t)index << 32) | (uint32_t)i;
		memcpy(buf + i, rec, n);
	}
}

/* Fill buf (PAT_PAYLOAD_LEN bytes) with the payload of page index. */
static inline void pat_payload(const uint8_t tag[PAT_TAG_LEN], uint32_t index,
			       uint8_t *buf)
{
	uint64_t a, b, s;
	size_t i;

	memcpy(&a, tag, 8);
	memcpy(&b, tag + 8, 8);
	s = pat_mix(a ^ pat_mix(b ^ pat_mix(index)));
	if (index & 1) {
		pat_payload_text(s, index, buf);
		return;
	}
	for (i = 0; i < PAT_PAYLOAD_LEN; i += 8) {
		uint64_t w;

		s ^= s << 13;		/* xorshift64 */
		s ^= s >> 7;
		s ^= s << 17;
		w = s * 0x2545f4914f6cdd1dull;
		memcpy(buf + i, &w, 8);
	}
}

/* FNV-1a style checksum over 64-bit words. */
static inline uint64_t pat_sum(const uint8_t *buf, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull, w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, buf + i, 8);
		h = (h ^ w) * 0x100000001b3ull;
	}
	return h;
}

/* The overall checksum: pat_fold() of every page's sum, in index order. */
static inline uint64_t pat_fold(uint64_t acc, uint64_t page_sum)
{
	return (acc ^ page_sum) * 0x100000001b3ull;
}
#define PAT_FOLD_INIT	0xcbf29ce484222325ull

/* Parse 32 hex digits into tag; 0 on success. */
static inline int pat_parse_tag(const char *s, uint8_t tag[PAT_TAG_LEN])
{
	unsigned i;

	if (strlen(s) != 2 * PAT_TAG_LEN)
		return -1;
	for (i = 0; i < 2 * PAT_TAG_LEN; i++) {
		char c = s[i];
		int v = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (v < 0)
			return -1;
		if (i % 2 == 0)
			tag[i / 2] = (uint8_t)(v << 4);
		else
			tag[i / 2] |= (uint8_t)v;
	}
	return 0;
}

#endif
