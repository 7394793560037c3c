/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The next kernel's command line: an optional prefix taken from the
 * running kernel (--reuse-cmdline, with BOOT_IMAGE= and, for crash loads,
 * crashkernel= dropped) followed by --append texts and parameters the tool
 * itself adds.  Words are separated by single spaces.
 */
#ifndef KJUMP_CMDLINE_H
#define KJUMP_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cmdline {
	char *buf;
	size_t len;
	size_t cap;
};

void cmdline_init(struct cmdline *cl);
void cmdline_free(struct cmdline *cl);

/* Append text, with a separating space if the line is not empty. */
int cmdline_append(struct cmdline *cl, const char *text);

/*
 * Append every word of a /proc/cmdline text except BOOT_IMAGE=... and,
 * if drop_crashkernel, crashkernel=...  Quoted words ("a b") stay whole.
 */
int cmdline_append_reused(struct cmdline *cl, const char *proc_text,
			  bool drop_crashkernel);

/* Does text hold a word starting with key ("name=")? */
bool cmdline_has_key(const char *text, const char *key);

/*
 * The number in the last "key<number>" word of text (base as strtoull
 * with 0).  Returns 0, -ENOENT without such a word, -EINVAL if it is not
 * a number.
 */
int cmdline_get_u64(const char *text, const char *key, uint64_t *val);

static inline const char *cmdline_str(const struct cmdline *cl)
{
	return cl->buf ? cl->buf : "";
}

#endif
