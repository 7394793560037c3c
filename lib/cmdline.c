// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"

void cmdline_init(struct cmdline *cl)
{
	cl->buf = NULL;
	cl->len = 0;
	cl->cap = 0;
}

void cmdline_free(struct cmdline *cl)
{
	free(cl->buf);
	cmdline_init(cl);
}

static int append_bytes(struct cmdline *cl, const char *text, size_t n)
{
	size_t need = cl->len + n + 2;	/* space and NUL */

	if (need > cl->cap) {
		size_t cap = cl->cap ? cl->cap : 256;
		char *buf;

		while (cap < need)
			cap *= 2;
		buf = realloc(cl->buf, cap);
		if (!buf)
			return -ENOMEM;
		cl->buf = buf;
		cl->cap = cap;
	}
	if (cl->len)
		cl->buf[cl->len++] = ' ';
	memcpy(cl->buf + cl->len, text, n);
	cl->len += n;
	cl->buf[cl->len] = '\0';
	return 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Length of the word at p; spaces inside double quotes do not end it. */
static size_t word_len(const char *p)
{
	bool quoted = false;
	size_t n = 0;

	while (p[n] && (quoted || !is_space(p[n]))) {
		if (p[n] == '"')
			quoted = !quoted;
		n++;
	}
	return n;
}

/* Trim leading and trailing blanks, then append the rest as it is. */
int cmdline_append(struct cmdline *cl, const char *text)
{
	size_t n;

	while (is_space(*text))
		text++;
	n = strlen(text);
	while (n && is_space(text[n - 1]))
		n--;
	if (!n)
		return 0;
	return append_bytes(cl, text, n);
}

static bool has_key(const char *word, size_t n, const char *key)
{
	size_t k = strlen(key);

	return n >= k && !memcmp(word, key, k);
}

/* The next word at or after p, or NULL at the end; *n is its length. */
static const char *next_word(const char *p, size_t *n)
{
	while (is_space(*p))
		p++;
	if (!*p)
		return NULL;
	*n = word_len(p);
	return p;
}

bool cmdline_has_key(const char *text, const char *key)
{
	const char *p = text;
	size_t n;

	for (; (p = next_word(p, &n)); p += n)
		if (has_key(p, n, key))
			return true;
	return false;
}

int cmdline_get_u64(const char *text, const char *key, uint64_t *val)
{
	const char *p = text, *found = NULL;
	size_t n, klen = strlen(key), found_len = 0;
	char num[32], *end;

	for (; (p = next_word(p, &n)); p += n) {
		if (has_key(p, n, key)) {
			found = p + klen;
			found_len = n - klen;
		}
	}
	if (!found)
		return -ENOENT;
	if (!found_len || found_len >= sizeof(num) || *found < '0' ||
	    *found > '9')
		return -EINVAL;
	memcpy(num, found, found_len);
	num[found_len] = '\0';
	errno = 0;
	*val = strtoull(num, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

int cmdline_append_reused(struct cmdline *cl, const char *proc_text,
			  bool drop_crashkernel)
{
	const char *p = proc_text;
	size_t n;
	int ret;

	for (; (p = next_word(p, &n)); p += n) {
		if (has_key(p, n, "BOOT_IMAGE=") ||
		    (drop_crashkernel && has_key(p, n, "crashkernel=")))
			continue;
		ret = append_bytes(cl, p, n);
		if (ret)
			return ret;
	}
	return 0;
}
