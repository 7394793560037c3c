// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/hib's small pieces: CRC-32C, the request and status texts (round
 * trips and refusals), and chunk compression with every method.
 */
#include "hib/compress.h"
#include "hib/crc32c.h"
#include "hib/request.h"
#include "hib/jump-param.h"
#include "unit.h"

#define KJ_JUMP_REQUEST_MAX_TEST	KJ_JUMP_REQUEST_MAX
#define KJ_JUMP_STATUS_MAX_TEST		KJ_JUMP_STATUS_MAX
#define REQ_FIRST "kjump-hibernate-request 1\n"
#define BASE_NO_DEV "kjump-hibernate-request 1\nmode=snapshot\n"
#define REQ_BASE "kjump-hibernate-request 1\nmode=snapshot\ndev=8:1\n" \
	"dev-size=4096\noffset=0\ncapacity=4096\n" \
	"nonce=00112233445566778899aabbccddeeff\n"

TEST(crc32c_vector)
{
	CHECK_EQ_U64(kjh_crc32c(0, "123456789", 9), 0xe3069283u);
	CHECK_EQ_U64(kjh_crc32c(0, "", 0), 0);
}

TEST(crc32c_chained)
{
	uint8_t buf[1000];
	uint32_t whole, part;
	size_t i, cut;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 31 + 7);
	whole = kjh_crc32c(0, buf, sizeof(buf));
	for (cut = 0; cut < sizeof(buf); cut += 37) {
		part = kjh_crc32c(0, buf, cut);
		CHECK_EQ_U64(kjh_crc32c(part, buf + cut, sizeof(buf) - cut),
			     whole);
	}
	/* unaligned starts give the same answer */
	CHECK_EQ_U64(kjh_crc32c(0, buf + 1, 17),
		     kjh_crc32c(kjh_crc32c(0, buf + 1, 3), buf + 4, 14));
}

static void sample_request(struct kjh_request *r)
{
	unsigned int i;

	memset(r, 0, sizeof(*r));
	r->mode = KJH_MODE_SNAPSHOT;
	r->dev_major = 8;
	r->dev_minor = 17;
	r->dev_size = 1ull << 33;
	r->offset = 4096 * 1000;
	r->capacity = 1ull << 30;
	for (i = 0; i < KJH_NONCE_LEN; i++)
		r->nonce[i] = (uint8_t)(0xa0 + i * 3);
	r->compress = KJH_COMPRESS_ZSTD;
	r->level = -3;
	r->threads = 4;
	r->created = 1700000000;
	snprintf(r->target, sizeof(r->target), "/var/lib/kjump/image");
}

TEST(request_round_trip)
{
	struct kjh_request a, b;
	char buf[KJ_JUMP_REQUEST_MAX_TEST], err[128];
	int len;

	sample_request(&a);
	len = kjh_request_format(&a, buf, sizeof(buf));
	CHECK(len > 0);
	CHECK_EQ_U64(strlen(buf), (size_t)len);
	CHECK_EQ_INT(kjh_request_parse(buf, (size_t)len, &b, err,
				       sizeof(err)), 0);
	CHECK(!memcmp(&a, &b, sizeof(a)));
	CHECK_EQ_INT(kjh_request_format(&a, buf, 40), -ENOSPC);
}

TEST(request_defaults_and_unknown_keys)
{
	static const char text[] = "kjump-hibernate-request 1\n"
		"mode=hibernate\ndev=259:3\ndev-size=1048576\noffset=0\n"
		"capacity=1048576\nnonce=00112233445566778899AABBCCDDEEFF\n"
		"future-key=whatever\n";
	struct kjh_request r;
	char err[128];

	CHECK_EQ_INT(kjh_request_parse(text, sizeof(text), &r, err,
				       sizeof(err)), 0);
	CHECK_EQ_INT(r.mode, KJH_MODE_HIBERNATE);
	CHECK_EQ_INT(r.dev_major, 259);
	CHECK_EQ_INT(r.dev_minor, 3);
	CHECK_EQ_INT(r.compress, KJH_COMPRESS_LZ4);
	CHECK_EQ_INT(r.threads, 0);
	CHECK_EQ_U64(r.nonce[15], 0xff);
}

static const struct {
	const char *text, *why;
} bad_requests[] = {
	{ "kjump-hibernate-request 2\nmode=snapshot\n", "first line" },
	{ "", "first line" },
	{ REQ_FIRST "mode=suspend\n", "bad mode" },
	{ BASE_NO_DEV "dev=8\n", "bad dev" },
	{ BASE_NO_DEV "dev=8:x\n", "bad dev" },
	{ REQ_FIRST "dev-size=-1\n", "bad dev-size" },
	{ REQ_FIRST "offset=12a\n", "bad offset" },
	{ REQ_FIRST "capacity=99999999999999999999\n", "bad capacity" },
	{ REQ_FIRST "nonce=0011\n", "bad nonce" },
	{ REQ_FIRST "nonce=zz112233445566778899aabbccddeeff\n", "bad nonce" },
	{ REQ_BASE "compress=gzip\n", "bad compress" },
	{ REQ_BASE "threads=99999\n", "bad threads" },
	{ REQ_BASE "mode=snapshot\n", "twice" },
	{ REQ_BASE "kjump-hibernate-request 1\n", "second" },
	{ REQ_BASE "just words\n", "not key=value" },
	{ "kjump-hibernate-request 1\nmode=snapshot\n", "no dev=" },
};

TEST(request_bad_inputs)
{
	struct kjh_request r;
	char err[160];
	size_t i;

	for (i = 0; i < sizeof(bad_requests) / sizeof(bad_requests[0]); i++) {
		const char *t = bad_requests[i].text;

		err[0] = '\0';
		if (kjh_request_parse(t, strlen(t), &r, err, sizeof(err)) !=
		    -EINVAL)
			FAILF("request %zu parsed", i);
		if (!strstr(err, bad_requests[i].why))
			FAILF("request %zu: \"%s\" lacks \"%s\"", i, err,
			      bad_requests[i].why);
	}
}

TEST(status_round_trip)
{
	struct kjh_status a, b;
	char buf[KJ_JUMP_STATUS_MAX_TEST], err[128];
	int len;

	memset(&a, 0, sizeof(a));
	a.result = KJH_RESULT_CANCELLED;
	snprintf(a.reason, sizeof(a.reason), "cancelled by the user");
	a.image_bytes = 123456789;
	a.pages = 1000;
	a.data_pages = 900;
	a.zero_pages = 100;
	a.raw_bytes = 900 * 4096;
	a.stored_bytes = 777;
	a.write_ms = 42;
	len = kjh_status_format(&a, buf, sizeof(buf));
	CHECK(len > 0);
	CHECK_EQ_INT(kjh_status_parse(buf, (size_t)len, &b, err, sizeof(err)),
		     0);
	CHECK(!memcmp(&a, &b, sizeof(a)));
	/* a reason of two lines is sent as one */
	snprintf(a.reason, sizeof(a.reason), "one\ntwo");
	len = kjh_status_format(&a, buf, sizeof(buf));
	CHECK_EQ_INT(kjh_status_parse(buf, (size_t)len, &b, err, sizeof(err)),
		     0);
	CHECK_STR(b.reason, "one two");
	CHECK_EQ_INT(kjh_status_parse("kjump-hibernate-status 1\nresult=maybe\n",
				      40, &b, err, sizeof(err)), -EINVAL);
	CHECK_EQ_INT(kjh_status_parse("kjump-hibernate-status 1\npages=1\n",
				      33, &b, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "no result=");
}

static void round_trip(struct unit_ctx *ctx, enum kjh_compress m,
		       const uint8_t *raw, size_t len, bool shrinks)
{
	struct kjh_codec *c;
	uint8_t *out = unit_alloc(ctx, len), *back = unit_alloc(ctx, len);
	uint32_t used;
	size_t stored;

	CHECK_EQ_INT(kjh_codec_new(m, 0, &c), 0);
	CHECK_EQ_INT(kjh_chunk_compress(c, raw, len, out, &used, &stored), 0);
	kjh_codec_free(c);
	if (shrinks && m != KJH_COMPRESS_NONE) {
		CHECK_EQ_INT(used, m);
		CHECK(stored < len);
	} else {
		CHECK_EQ_INT(used, KJH_COMPRESS_NONE);
		CHECK_EQ_U64(stored, len);
	}
	CHECK_EQ_INT(kjh_chunk_decompress(used, out, stored, back, len), 0);
	CHECK_MEM(back, raw, len);
	if (used != KJH_COMPRESS_NONE) {
		out[stored / 2] ^= 0x5a;
		out[stored / 3] ^= 0xa5;
		/* damage is caught (or at least never overruns) */
		(void)kjh_chunk_decompress(used, out, stored, back, len);
		CHECK(kjh_chunk_decompress(used, out, stored / 4, back,
					   len) != 0);
	}
}

TEST(compress_methods)
{
	size_t len = 64 * 4096, i;
	uint8_t *text = unit_alloc(ctx, len), *noise = unit_alloc(ctx, len);
	uint32_t x = 2463534242u;
	enum kjh_compress m;

	for (i = 0; i < len; i++) {
		text[i] = (uint8_t)("kexec hibernation "[i % 18]);
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		noise[i] = (uint8_t)x;
	}
	for (m = KJH_COMPRESS_NONE; m <= KJH_COMPRESS_ZSTD; m++) {
		round_trip(ctx, m, text, len, true);
		round_trip(ctx, m, noise, len, false);
	}
	CHECK_EQ_INT(kjh_chunk_decompress(7, text, 10, noise, 10), -EINVAL);
	CHECK_EQ_INT(kjh_compress_parse("zstd", &m), 0);
	CHECK_EQ_INT(m, KJH_COMPRESS_ZSTD);
	CHECK_EQ_INT(kjh_compress_parse("xz", &m), -EINVAL);
}

UNIT_MAIN("hib", RUN(crc32c_vector), RUN(crc32c_chained),
	  RUN(request_round_trip), RUN(request_defaults_and_unknown_keys),
	  RUN(request_bad_inputs), RUN(status_round_trip),
	  RUN(compress_methods))
