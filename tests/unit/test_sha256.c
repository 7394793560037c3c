/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Unit test for util/sha256.c.
 *
 * Known answers are the published FIPS 180-2 / NIST example vectors; the
 * remaining cases compare the streaming paths (odd chunk sizes, zero runs)
 * against the one-shot result, so they need no stored answers at all.
 *
 * Prints "PASS: sha256/<case>" or "FAIL: sha256/<case>: <why>" per case
 * and exits non-zero if anything failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"

static int failures;

static void report(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("PASS: sha256/%s\n", name);
	} else {
		printf("FAIL: sha256/%s: %s\n", name, why);
		failures++;
	}
}

static void to_hex(const uint8_t d[SHA256_DIGEST_SIZE], char out[65])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 0; i < SHA256_DIGEST_SIZE; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[64] = '\0';
}

static void oneshot(const void *data, size_t len, uint8_t out[SHA256_DIGEST_SIZE])
{
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, data, len);
	sha256_final(&ctx, out);
}

static void check_digest(const char *name, const uint8_t got[SHA256_DIGEST_SIZE],
			 const char *want_hex)
{
	char hex[65];
	char why[200];

	to_hex(got, hex);
	snprintf(why, sizeof(why), "got %s, want %s", hex, want_hex);
	report(name, strcmp(hex, want_hex) == 0, why);
}

static void check_vector(const char *name, const char *msg, const char *want_hex)
{
	uint8_t d[SHA256_DIGEST_SIZE];

	oneshot(msg, strlen(msg), d);
	check_digest(name, d, want_hex);
}

/* FIPS 180-2 appendix B.3: one million 'a', fed in 1000-byte pieces. */
static void test_million_a(void)
{
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];
	char buf[1000];
	int i;

	memset(buf, 'a', sizeof(buf));
	sha256_init(&ctx);
	for (i = 0; i < 1000; i++)
		sha256_update(&ctx, buf, sizeof(buf));
	sha256_final(&ctx, d);
	check_digest("million-a", d,
		"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Deterministic filler so the chunk test covers every byte value. */
static void fill_pattern(uint8_t *buf, size_t len)
{
	uint32_t x = 0x12345678;
	size_t i;

	for (i = 0; i < len; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
}

/*
 * Feed the same buffer in chunk sizes that hit every path in
 * sha256_update(): partial top-ups, exact blocks, block + tail, and
 * zero-length calls in between.
 */
static void test_chunks(void)
{
	static const size_t sizes[] = { 1, 0, 3, 7, 13, 63, 64, 65, 0, 127, 128, 129, 200, 5 };
	enum { LEN = 3001 };
	uint8_t *buf = malloc(LEN);
	uint8_t want[SHA256_DIGEST_SIZE], got[SHA256_DIGEST_SIZE];
	char hw[65], hg[65], why[200];
	struct sha256_ctx ctx;
	size_t off = 0, k = 0;

	if (!buf) {
		report("chunks", 0, "out of memory");
		return;
	}
	fill_pattern(buf, LEN);
	oneshot(buf, LEN, want);

	sha256_init(&ctx);
	while (off < LEN) {
		size_t n = sizes[k++ % (sizeof(sizes) / sizeof(sizes[0]))];

		if (n > LEN - off)
			n = LEN - off;
		sha256_update(&ctx, buf + off, n);
		off += n;
	}
	sha256_final(&ctx, got);

	to_hex(want, hw);
	to_hex(got, hg);
	snprintf(why, sizeof(why), "chunked %s != one-shot %s", hg, hw);
	report("chunks", memcmp(want, got, sizeof(want)) == 0, why);
	free(buf);
}

/*
 * sha256_update_zeros(n) must equal sha256_update() of n zero bytes, both
 * from a block boundary and from the middle of a partial block (prefix),
 * and the context must stay usable afterwards (suffix).
 */
static void test_zeros(size_t n, size_t prefix)
{
	static const uint8_t head[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	static const uint8_t tail[] = "tail";
	uint8_t *zeros = calloc(n ? n : 1, 1);
	uint8_t want[SHA256_DIGEST_SIZE], got[SHA256_DIGEST_SIZE];
	struct sha256_ctx a, b;
	char name[64], hw[65], hg[65], why[200];

	if (prefix)
		snprintf(name, sizeof(name), "zeros-%zu-after-%zu", n, prefix);
	else
		snprintf(name, sizeof(name), "zeros-%zu", n);
	if (!zeros) {
		report(name, 0, "out of memory");
		return;
	}

	sha256_init(&a);
	sha256_update(&a, head, prefix);
	sha256_update(&a, zeros, n);
	sha256_update(&a, tail, 4);
	sha256_final(&a, want);

	sha256_init(&b);
	sha256_update(&b, head, prefix);
	sha256_update_zeros(&b, n);
	sha256_update(&b, tail, 4);
	sha256_final(&b, got);

	to_hex(want, hw);
	to_hex(got, hg);
	snprintf(why, sizeof(why), "update_zeros %s != update %s", hg, hw);
	report(name, memcmp(want, got, sizeof(want)) == 0, why);
	free(zeros);
}

int main(void)
{
	static const size_t zero_lens[] = { 0, 1, 63, 64, 65, 4096 + 7 };
	size_t i;

	check_vector("empty", "",
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check_vector("abc", "abc",
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check_vector("448-bit",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check_vector("896-bit",
		"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		"hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		"cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
	test_million_a();
	test_chunks();
	for (i = 0; i < sizeof(zero_lens) / sizeof(zero_lens[0]); i++) {
		test_zeros(zero_lens[i], 0);
		test_zeros(zero_lens[i], 3);
		test_zeros(zero_lens[i], 36);
	}

	return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
