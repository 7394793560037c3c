// SPDX-License-Identifier: GPL-2.0-only
/*
 * The request and status texts of request.h: formatted with snprintf,
 * parsed a line at a time, strictly (one first line, known keys once,
 * whole decimal numbers); keys this version does not know are skipped.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kjump/hib/request.h"

#define REQUEST_FIRST	"kjump-hibernate-request 1"
#define STATUS_FIRST	"kjump-hibernate-status 1"

static const char *const compress_names[] = {
	[KJH_COMPRESS_NONE] = "none",
	[KJH_COMPRESS_LZ4] = "lz4",
	[KJH_COMPRESS_ZSTD] = "zstd",
};

static const char *const result_names[] = {
	[KJH_RESULT_OK] = "ok",
	[KJH_RESULT_ERROR] = "error",
	[KJH_RESULT_CANCELLED] = "cancelled",
};

const char *kjh_compress_name(enum kjh_compress c)
{
	if ((unsigned int)c < sizeof(compress_names) / sizeof(compress_names[0]))
		return compress_names[c];
	return "unknown";
}

int kjh_compress_parse(const char *name, enum kjh_compress *c)
{
	unsigned int i;

	for (i = 0; i < sizeof(compress_names) / sizeof(compress_names[0]); i++) {
		if (!strcmp(name, compress_names[i])) {
			*c = (enum kjh_compress)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* ------------------------------------------------------------ formatting */

struct out {
	char *buf;
	size_t size, len;
	bool full;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->size - o->len) {
		o->full = true;
		return;
	}
	o->len += (size_t)n;
}

static int put_end(struct out *o)
{
	if (o->full) {
		if (o->size)
			o->buf[0] = '\0';
		return -ENOSPC;
	}
	return (int)o->len;
}

int kjh_request_format(const struct kjh_request *req, char *buf, size_t size)
{
	struct out o = { buf, size, 0, size == 0 };
	unsigned int i;

	if (strchr(req->target, '\n'))
		return -EINVAL;
	if (req->mode == KJH_MODE_READY) {
		put(&o, REQUEST_FIRST "\nmode=ready\n");
		return put_end(&o);
	}
	put(&o, REQUEST_FIRST "\nmode=%s\ndev=%u:%u\ndev-size=%llu\n"
	    "offset=%llu\ncapacity=%llu\nnonce=",
	    req->mode == KJH_MODE_SNAPSHOT ? "snapshot" : "hibernate",
	    req->dev_major, req->dev_minor,
	    (unsigned long long)req->dev_size,
	    (unsigned long long)req->offset,
	    (unsigned long long)req->capacity);
	for (i = 0; i < KJH_NONCE_LEN; i++)
		put(&o, "%02x", req->nonce[i]);
	put(&o, "\ncompress=%s\nlevel=%d\nthreads=%u\ncreated=%llu\n",
	    kjh_compress_name(req->compress), req->level, req->threads,
	    (unsigned long long)req->created);
	if (req->max_pages)
		put(&o, "max-pages=%llu\n", (unsigned long long)req->max_pages);
	if (req->target[0])
		put(&o, "target=%s\n", req->target);
	return put_end(&o);
}

int kjh_status_format(const struct kjh_status *st, char *buf, size_t size)
{
	struct out o = { buf, size, 0, size == 0 };
	const char *p;

	if ((unsigned int)st->result > KJH_RESULT_CANCELLED)
		return -EINVAL;
	put(&o, STATUS_FIRST "\nresult=%s\n", result_names[st->result]);
	if (st->reason[0]) {
		put(&o, "reason=");
		for (p = st->reason; *p; p++)
			put(&o, "%c", *p == '\n' || *p == '\r' ? ' ' : *p);
		put(&o, "\n");
	}
	put(&o, "image-bytes=%llu\npages=%llu\ndata-pages=%llu\n"
	    "zero-pages=%llu\nraw-bytes=%llu\nstored-bytes=%llu\n"
	    "write-ms=%llu\n",
	    (unsigned long long)st->image_bytes,
	    (unsigned long long)st->pages,
	    (unsigned long long)st->data_pages,
	    (unsigned long long)st->zero_pages,
	    (unsigned long long)st->raw_bytes,
	    (unsigned long long)st->stored_bytes,
	    (unsigned long long)st->write_ms);
	return put_end(&o);
}

/* --------------------------------------------------------------- parsing */

struct line {
	const char *key, *val;
	size_t key_len, val_len;
};

__attribute__((format(printf, 3, 4)))
static int bad(char *err, size_t err_size, const char *fmt, ...)
{
	va_list ap;

	if (err && err_size) {
		va_start(ap, fmt);
		vsnprintf(err, err_size, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static bool val_is(const struct line *l, const char *s)
{
	return l->val_len == strlen(s) && !memcmp(l->val, s, l->val_len);
}

/* A whole decimal number, no sign, no spaces, no overflow. */
static int parse_u64(const struct line *l, uint64_t max, uint64_t *v)
{
	uint64_t n = 0;
	size_t i;

	if (!l->val_len || l->val_len > 20)
		return -EINVAL;
	for (i = 0; i < l->val_len; i++) {
		unsigned int d = (unsigned char)l->val[i] - '0';

		if (d > 9 || n > (UINT64_MAX - d) / 10)
			return -EINVAL;
		n = n * 10 + d;
	}
	if (n > max)
		return -EINVAL;
	*v = n;
	return 0;
}

static int parse_dev(const struct line *l, uint32_t *maj, uint32_t *min)
{
	const char *colon = memchr(l->val, ':', l->val_len);
	struct line a, b;
	uint64_t x, y;

	if (!colon)
		return -EINVAL;
	a.val = l->val;
	a.val_len = (size_t)(colon - l->val);
	b.val = colon + 1;
	b.val_len = l->val_len - a.val_len - 1;
	if (parse_u64(&a, 0xfff, &x) || parse_u64(&b, 0xfffff, &y))
		return -EINVAL;
	*maj = (uint32_t)x;
	*min = (uint32_t)y;
	return 0;
}

int kjh_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int parse_nonce(const struct line *l, uint8_t *nonce)
{
	unsigned int i;
	int hi, lo;

	if (l->val_len != 2 * KJH_NONCE_LEN)
		return -EINVAL;
	for (i = 0; i < KJH_NONCE_LEN; i++) {
		hi = kjh_hex_digit(l->val[2 * i]);
		lo = kjh_hex_digit(l->val[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		nonce[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

static int parse_level(const struct line *l, int *level)
{
	struct line m = *l;
	bool neg = m.val_len && m.val[0] == '-';
	uint64_t v;

	if (neg) {
		m.val++;
		m.val_len--;
	}
	if (parse_u64(&m, 100, &v))
		return -EINVAL;
	*level = neg ? -(int)v : (int)v;
	return 0;
}

/*
 * The next line of [*p, end) into l; false at the end.  A line without a
 * '=' has val NULL.
 */
static bool next_line(const char **p, const char *end, struct line *l)
{
	const char *nl, *eq;

	if (*p >= end)
		return false;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	if (!nl)
		nl = end;
	l->key = *p;
	eq = memchr(*p, '=', (size_t)(nl - *p));
	l->key_len = (size_t)((eq ? eq : nl) - *p);
	l->val = eq ? eq + 1 : NULL;
	l->val_len = eq ? (size_t)(nl - eq - 1) : 0;
	*p = nl < end ? nl + 1 : end;
	return true;
}

static bool key_is(const struct line *l, const char *k)
{
	return l->key_len == strlen(k) && !memcmp(l->key, k, l->key_len);
}

/* The text up to the first NUL; the first line must be first. */
static int text_start(const char *text, size_t len, const char *first,
		      const char **p, const char **end, char *err,
		      size_t err_size)
{
	const char *nul = memchr(text, '\0', len);
	struct line l;

	*p = text;
	*end = nul ? nul : text + len;
	if (!next_line(p, *end, &l) || l.val ||
	    l.key_len != strlen(first) || memcmp(l.key, first, l.key_len))
		return bad(err, err_size, "the first line is not \"%s\"", first);
	return 0;
}

enum req_key {
	RK_MODE, RK_DEV, RK_DEV_SIZE, RK_OFFSET, RK_CAPACITY, RK_NONCE,
	RK_COMPRESS, RK_LEVEL, RK_THREADS, RK_CREATED, RK_MAX_PAGES, RK_TARGET,
	RK_NR,
};

static const char *const req_keys[RK_NR] = {
	"mode", "dev", "dev-size", "offset", "capacity", "nonce",
	"compress", "level", "threads", "created", "max-pages", "target",
};

#define RK_REQUIRED	((1u << RK_MODE) | (1u << RK_DEV) | \
			 (1u << RK_DEV_SIZE) | (1u << RK_OFFSET) | \
			 (1u << RK_CAPACITY) | (1u << RK_NONCE))

static int req_value(enum req_key k, const struct line *l,
		     struct kjh_request *req)
{
	uint64_t v;

	switch (k) {
	case RK_MODE:
		if (val_is(l, "hibernate"))
			req->mode = KJH_MODE_HIBERNATE;
		else if (val_is(l, "snapshot"))
			req->mode = KJH_MODE_SNAPSHOT;
		else if (val_is(l, "ready"))
			req->mode = KJH_MODE_READY;
		else
			return -EINVAL;
		return 0;
	case RK_DEV:
		return parse_dev(l, &req->dev_major, &req->dev_minor);
	case RK_DEV_SIZE:
		return parse_u64(l, UINT64_MAX, &req->dev_size);
	case RK_OFFSET:
		return parse_u64(l, UINT64_MAX, &req->offset);
	case RK_CAPACITY:
		return parse_u64(l, UINT64_MAX, &req->capacity);
	case RK_NONCE:
		return parse_nonce(l, req->nonce);
	case RK_COMPRESS: {
		char name[8];

		if (l->val_len >= sizeof(name))
			return -EINVAL;
		memcpy(name, l->val, l->val_len);
		name[l->val_len] = '\0';
		return kjh_compress_parse(name, &req->compress);
	}
	case RK_LEVEL:
		return parse_level(l, &req->level);
	case RK_THREADS:
		if (parse_u64(l, 1024, &v))
			return -EINVAL;
		req->threads = (unsigned int)v;
		return 0;
	case RK_CREATED:
		return parse_u64(l, UINT64_MAX, &req->created);
	case RK_MAX_PAGES:
		return parse_u64(l, UINT64_MAX, &req->max_pages);
	case RK_TARGET:
		if (l->val_len >= sizeof(req->target))
			return -EINVAL;
		memcpy(req->target, l->val, l->val_len);
		req->target[l->val_len] = '\0';
		return 0;
	case RK_NR:
		break;
	}
	return -EINVAL;
}

static int find_key(const struct line *l, const char *const *keys, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (key_is(l, keys[i]))
			return i;
	return -1;
}

/* The checks every line gets: a key=value, not a second first line. */
static int check_line(const struct line *l, const char *first, char *err,
		      size_t err_size)
{
	size_t n = strlen(first) - 2;	/* without " 1" */

	if (l->key_len >= n && !memcmp(l->key, first, n))
		return bad(err, err_size, "a second \"%.*s\" line", (int)n,
			   first);
	if (!l->val)
		return bad(err, err_size, "line \"%.*s\" is not key=value",
			   (int)(l->key_len > 40 ? 40 : l->key_len), l->key);
	return 0;
}

int kjh_request_parse(const char *text, size_t len, struct kjh_request *req,
		      char *err, size_t err_size)
{
	const char *p, *end;
	unsigned int seen = 0, required;
	struct line l;
	int k, i;

	memset(req, 0, sizeof(*req));
	req->compress = KJH_COMPRESS_LZ4;
	if (text_start(text, len, REQUEST_FIRST, &p, &end, err, err_size))
		return -EINVAL;
	while (next_line(&p, end, &l)) {
		if (!l.key_len && !l.val)
			continue;		/* an empty line */
		if (check_line(&l, REQUEST_FIRST, err, err_size))
			return -EINVAL;
		k = find_key(&l, req_keys, RK_NR);
		if (k < 0)
			continue;
		if (seen & (1u << k))
			return bad(err, err_size, "%s= given twice", req_keys[k]);
		seen |= 1u << k;
		if (req_value((enum req_key)k, &l, req))
			return bad(err, err_size, "bad %s=%.*s", req_keys[k],
				   (int)(l.val_len > 64 ? 64 : l.val_len),
				   l.val);
	}
	/* ready: nothing to save, so nothing else is needed */
	required = req->mode == KJH_MODE_READY && (seen & (1u << RK_MODE)) ?
		   1u << RK_MODE : RK_REQUIRED;
	for (i = 0; i < RK_NR; i++)
		if ((required & (1u << i)) && !(seen & (1u << i)))
			return bad(err, err_size, "no %s= in the request",
				   req_keys[i]);
	return 0;
}

enum st_key {
	SK_RESULT, SK_REASON, SK_IMAGE_BYTES, SK_PAGES, SK_DATA_PAGES,
	SK_ZERO_PAGES, SK_RAW_BYTES, SK_STORED_BYTES, SK_WRITE_MS, SK_NR,
};

static const char *const st_keys[SK_NR] = {
	"result", "reason", "image-bytes", "pages", "data-pages",
	"zero-pages", "raw-bytes", "stored-bytes", "write-ms",
};

static int st_value(enum st_key k, const struct line *l,
		    struct kjh_status *st)
{
	uint64_t *nums[SK_NR] = {
		[SK_IMAGE_BYTES] = &st->image_bytes, [SK_PAGES] = &st->pages,
		[SK_DATA_PAGES] = &st->data_pages,
		[SK_ZERO_PAGES] = &st->zero_pages,
		[SK_RAW_BYTES] = &st->raw_bytes,
		[SK_STORED_BYTES] = &st->stored_bytes,
		[SK_WRITE_MS] = &st->write_ms,
	};
	int i;

	switch (k) {
	case SK_RESULT:
		for (i = 0; i <= KJH_RESULT_CANCELLED; i++) {
			if (val_is(l, result_names[i])) {
				st->result = (enum kjh_result)i;
				return 0;
			}
		}
		return -EINVAL;
	case SK_REASON:
		if (l->val_len >= sizeof(st->reason))
			return -EINVAL;
		memcpy(st->reason, l->val, l->val_len);
		st->reason[l->val_len] = '\0';
		return 0;
	default:
		return parse_u64(l, UINT64_MAX, nums[k]);
	}
}

int kjh_status_parse(const char *text, size_t len, struct kjh_status *st,
		     char *err, size_t err_size)
{
	const char *p, *end;
	unsigned int seen = 0;
	struct line l;
	int k;

	memset(st, 0, sizeof(*st));
	if (text_start(text, len, STATUS_FIRST, &p, &end, err, err_size))
		return -EINVAL;
	while (next_line(&p, end, &l)) {
		if (!l.key_len && !l.val)
			continue;
		if (check_line(&l, STATUS_FIRST, err, err_size))
			return -EINVAL;
		k = find_key(&l, st_keys, SK_NR);
		if (k < 0)
			continue;
		if (seen & (1u << k))
			return bad(err, err_size, "%s= given twice", st_keys[k]);
		seen |= 1u << k;
		if (st_value((enum st_key)k, &l, st))
			return bad(err, err_size, "bad %s=%.*s", st_keys[k],
				   (int)(l.val_len > 64 ? 64 : l.val_len),
				   l.val);
	}
	if (!(seen & (1u << SK_RESULT)))
		return bad(err, err_size, "no result= in the status");
	return 0;
}
