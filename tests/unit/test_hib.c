// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/hib's small pieces: CRC-32C, the request and status texts (round
 * trips and refusals), and chunk compression with every method.
 */
#include "kjump/hib/compress.h"
#include "kjump/hib/crc32c.h"
#include "kjump/hib/request.h"
#include "kjump/hib/image-read.h"
#include "hib/resume-check.h"
#include "kjump/hib/jump-param.h"
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
	r->max_pages = 98765;
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
	CHECK_EQ_U64(r.max_pages, 0);	/* no limit */
	CHECK_EQ_U64(r.nonce[15], 0xff);
}

TEST(request_ready)
{
	struct kjh_request a = { .mode = KJH_MODE_READY }, b;
	char buf[KJ_JUMP_REQUEST_MAX_TEST], err[128];
	int len;

	/* nothing to save: the mode alone, and the target is not sent */
	snprintf(a.target, sizeof(a.target), "unused");
	len = kjh_request_format(&a, buf, sizeof(buf));
	CHECK(len > 0);
	CHECK_STR(buf, REQ_FIRST "mode=ready\n");
	CHECK_EQ_INT(kjh_request_parse(buf, (size_t)len, &b, err,
				       sizeof(err)), 0);
	CHECK_EQ_INT(b.mode, KJH_MODE_READY);
	CHECK_EQ_INT(b.target[0], '\0');
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
	{ REQ_FIRST "dev=8:1\n", "no mode=" },
	{ REQ_FIRST "mode=ready\nmode=ready\n", "twice" },
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

/* ------------------------------------------------------ resume checks */

static void resume_pair(struct kjh_header *h, struct kjh_host *host)
{
	memset(h, 0, sizeof(*h));
	memset(host, 0, sizeof(*host));
	memcpy(h->magic, KJH_MAGIC, 8);
	h->version = KJH_VERSION;
	h->header_size = KJH_BLOCK;
	h->state = KJH_STATE_COMMITTED;
	h->page_size = KJH_PAGE;
	h->kernel_word = 4;
	snprintf(h->id.release, sizeof(h->id.release), "6.1.0-kjump");
	snprintf(h->id.version, sizeof(h->id.version), "#1 SMP Fri Dec 4");
	snprintf(h->id.machine, sizeof(h->id.machine), "i686");
	h->id.build_id_len = 20;
	memset(h->id.build_id, 0xab, 20);
	h->crash_start = 0x10000000;
	h->crash_end = 0x13ffffff;
	host->id = h->id;
	host->kernel_word = 4;
	host->crash_start = h->crash_start;
	host->crash_end = h->crash_end;
}

static int header_verdict(struct kjh_header *h, const struct kjh_host *host,
			  char *why, size_t size)
{
	kjh_header_seal(h);
	why[0] = '\0';
	return kjh_resume_check_header(h, host, why, size);
}

TEST(resume_header_refusals)
{
	struct kjh_header h;
	struct kjh_host host;
	char why[256];

	resume_pair(&h, &host);
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), 0);

	h.state = KJH_STATE_CONSUMED;
	h.consumed = 1764806400;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -ESTALE);
	CHECK_CONTAINS(why, "already resumed once");
	h.state = KJH_STATE_WRITING;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "torn");
	h.state = KJH_STATE_PREPARED;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "torn");
	h.state = KJH_STATE_INVALID;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "gave up");
	h.invalid_why = KJH_INVALID_CAME_BACK;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "invalid: its kernel came back");
	h.invalid_why = KJH_INVALID_BY_REQUEST;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "invalid: invalidated by kexec --invalidate");

	/* a snapshot's kernel ran on: never resumed, by state or by flag */
	resume_pair(&h, &host);
	h.state = KJH_STATE_SNAPSHOT;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "a snapshot: its kernel ran on");
	h.state = KJH_STATE_COMMITTED;
	h.flags |= KJH_F_SNAPSHOT;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "a snapshot");

	/* a flipped byte in block 0 is a bad crc, whatever the state says */
	resume_pair(&h, &host);
	kjh_header_seal(&h);
	h.created ^= 1;
	CHECK_EQ_INT(kjh_resume_check_header(&h, &host, why, sizeof(why)),
		     -EBADMSG);

	resume_pair(&h, &host);
	snprintf(host.id.version, sizeof(host.id.version), "#2 SMP Sat Dec 5");
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "another kernel build");
	resume_pair(&h, &host);
	snprintf(host.id.release, sizeof(host.id.release), "6.12.0");
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "another kernel: image 6.1.0-kjump, running 6.12.0");
	resume_pair(&h, &host);
	host.id.build_id[19] ^= 1;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "build id abab");
	/* a side without a build id is judged by uname alone */
	host.id.build_id_len = 0;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), 0);
	resume_pair(&h, &host);
	snprintf(host.id.machine, sizeof(host.id.machine), "x86_64");
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "another machine type");
	resume_pair(&h, &host);
	host.kernel_word = 8;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	resume_pair(&h, &host);
	/* the same size elsewhere (KASLR moves it) is the same crashkernel= */
	host.crash_start += 0x3000000;
	host.crash_end += 0x3000000;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), 0);
	host.crash_end += 0x1000000;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "another crash region: image 64 MiB, running 80 MiB");
	host.crash_start = host.crash_end = 0;
	CHECK_EQ_INT(header_verdict(&h, &host, why, sizeof(why)), -EBADMSG);
}

/*
 * A power cut tearing block 0's write at any 512-byte boundary leaves the
 * old header or the new one, both whole: every field and the crc are in
 * the first sector.
 */
TEST(header_torn_at_every_sector)
{
	struct kjh_header old, new, torn;
	struct kjh_host host;
	char why[256];
	size_t cut;

	resume_pair(&old, &host);
	kjh_header_seal(&old);
	new = old;
	new.state = KJH_STATE_CONSUMED;
	new.consumed = 1764806400;
	kjh_header_seal(&new);
	for (cut = 0; cut <= KJH_BLOCK; cut += 512) {
		memcpy(&torn, &new, cut);
		memcpy((uint8_t *)&torn + cut, (uint8_t *)&old + cut,
		       KJH_BLOCK - cut);
		CHECK_EQ_INT(kjh_header_check(&torn, why, sizeof(why)), 0);
		CHECK_EQ_INT(torn.state, cut ? KJH_STATE_CONSUMED :
			     KJH_STATE_COMMITTED);
	}
	/* past the first sector, anything but zero is damage */
	torn = new;
	torn.reserved[100] = 1;
	CHECK_EQ_INT(kjh_header_check(&torn, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "checksum is wrong");
	/* an image of version 1 is refused by its version */
	torn = new;
	torn.version = 1;
	kjh_header_seal(&torn);
	CHECK_EQ_INT(kjh_header_check(&torn, why, sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "image version 1, this kexec reads 3");
}

TEST(resume_ram_map)
{
	struct kjh_ram_range ram[2] = {
		{ 0x1000, 0x9efff }, { 0x100000, 0x1ffdffff },
	};
	struct kjh_header h;
	struct kjh_host host;
	char why[256];

	resume_pair(&h, &host);
	memcpy(host.ram, ram, sizeof(ram));
	host.ram_count = 2;
	CHECK_EQ_INT(kjh_resume_check_ram(ram, 2, &host, why, sizeof(why)), 0);
	/* QEMU started with 640 MiB instead of 512 */
	host.ram[1].end = 0x27fdffff;
	CHECK_EQ_INT(kjh_resume_check_ram(ram, 2, &host, why, sizeof(why)),
		     -EBADMSG);
	CHECK_CONTAINS(why, "another RAM map: image 2 ranges, 511 MiB, running 2 ranges, 639 MiB (first difference: range 1)");
	host.ram[1].end = ram[1].end;
	host.ram_count = 1;
	CHECK_EQ_INT(kjh_resume_check_ram(ram, 2, &host, why, sizeof(why)),
		     -EBADMSG);
	CHECK_EQ_INT(kjh_resume_check_ram(ram, 1, &host, why, sizeof(why)), 0);
}

struct fs_probe_fake {
	struct kjh_fs now;
	int err;
	unsigned int calls;
};

static int fake_probe(void *data, const struct kjh_fs *rec,
		      struct kjh_fs *now)
{
	struct fs_probe_fake *f = data;

	(void)rec;
	f->calls++;
	*now = f->now;
	return f->err;
}

TEST(resume_fs_changed)
{
	struct kjh_fs fs[2];
	struct fs_probe_fake fake;
	char why[256];

	memset(fs, 0, sizeof(fs));
	fs[0].dev_major = 254;
	snprintf(fs[0].type, sizeof(fs[0].type), "ext4");
	snprintf(fs[0].name, sizeof(fs[0].name), "/mnt");
	memset(fs[0].uuid, 0x11, sizeof(fs[0].uuid));
	fs[0].sb_crc = 0x1000;
	fs[0].log_crc = 0x2000;
	fs[0].log_pos = 7;
	fs[0].flags = KJH_FS_PRINTED | KJH_FS_LOG;
	fs[1] = fs[0];
	snprintf(fs[1].type, sizeof(fs[1].type), "vfat");
	snprintf(fs[1].name, sizeof(fs[1].name), "/boot/efi");

	memset(&fake, 0, sizeof(fake));
	fake.now = fs[0];
	CHECK_EQ_INT(kjh_resume_check_fs(fs, 2, fake_probe, &fake, why,
					 sizeof(why)), 0);
	CHECK_EQ_INT(fake.calls, 2);	/* every type is checked */

	fake.now.sb_crc = 0x1001;
	CHECK_EQ_INT(kjh_resume_check_fs(fs, 1, fake_probe, &fake, why,
					 sizeof(why)), -EBUSY);
	CHECK_CONTAINS(why, "/mnt (ext4): changed since the hibernation: its superblock differs: it was mounted or written in between");
	fake.now = fs[0];
	fake.now.log_pos = 8;		/* a read-only mount replayed it */
	CHECK_EQ_INT(kjh_resume_check_fs(fs, 1, fake_probe, &fake, why,
					 sizeof(why)), -EBUSY);
	CHECK_CONTAINS(why, "/mnt (ext4): changed since the hibernation: its journal differs");
	fake.now = fs[1];
	fake.now.log_crc = 1;
	CHECK_EQ_INT(kjh_resume_check_fs(fs + 1, 1, fake_probe, &fake, why,
					 sizeof(why)), -EBUSY);
	CHECK_CONTAINS(why, "/boot/efi (vfat): changed since the hibernation: its FAT, FSInfo or root directory differs");
	fake.now = fs[1];
	fake.now.sb_crc = 1;
	CHECK_EQ_INT(kjh_resume_check_fs(fs + 1, 1, fake_probe, &fake, why,
					 sizeof(why)), -EBUSY);
	CHECK_CONTAINS(why, "its boot sector differs");
	fake.now = fs[0];
	fake.now.uuid[3] = 0;
	CHECK_EQ_INT(kjh_resume_check_fs(fs, 1, fake_probe, &fake, why,
					 sizeof(why)), -EBUSY);
	CHECK_CONTAINS(why, "another file system");
	fake.now = fs[0];
	fake.err = -EIO;
	CHECK_EQ_INT(kjh_resume_check_fs(fs, 1, fake_probe, &fake, why,
					 sizeof(why)), -EBUSY);
	CHECK_CONTAINS(why, "/mnt (ext4): cannot read it: ");
	fake.err = 0;
	fs[0].flags = 0;		/* B could not fingerprint it */
	CHECK_EQ_INT(kjh_resume_check_fs(fs, 1, fake_probe, &fake, why,
					 sizeof(why)), -EBADMSG);
	CHECK_CONTAINS(why, "/mnt (ext4): the image has no fingerprint of it");
}

UNIT_MAIN("hib", RUN(crc32c_vector), RUN(crc32c_chained),
	  RUN(request_round_trip), RUN(request_ready), RUN(request_defaults_and_unknown_keys),
	  RUN(request_bad_inputs), RUN(status_round_trip),
	  RUN(compress_methods), RUN(resume_header_refusals),
	  RUN(header_torn_at_every_sector),
	  RUN(resume_ram_map), RUN(resume_fs_changed))
