/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The library's context, inside: the root prefix and the log callback.
 * Every message goes through kj_err()/kj_warn()/kj_dbg(); every /proc,
 * /sys and /run path through kj_path().
 */
#ifndef KJUMP_CTX_H
#define KJUMP_CTX_H

#include <stdbool.h>
#include <stddef.h>

#include "kjump/kjump.h"

#define KJ_PRINTF(f, a) __attribute__((format(printf, f, a)))

struct kj_ctx {
	char *root;		/* "" for the real system */
	kj_log_fn log;
	void *log_data;
	bool debug;
};

/* Report one error line, "<what>: <why>" (no newline). */
void kj_err(const struct kj_ctx *ctx, const char *fmt, ...) KJ_PRINTF(2, 3);
/* Report one warning line. */
void kj_warn(const struct kj_ctx *ctx, const char *fmt, ...) KJ_PRINTF(2, 3);
/* Debug text, only with debug on; the caller adds the newlines. */
void kj_dbg(const struct kj_ctx *ctx, const char *fmt, ...) KJ_PRINTF(2, 3);

/*
 * ctx's root followed by abs (an absolute path such as "/proc/cmdline")
 * in buf.  Returns buf; a path too long for buf comes back truncated,
 * which no lookup will find.
 */
const char *kj_path(const struct kj_ctx *ctx, const char *abs, char *buf,
		    size_t size);

/*
 * The file abs (a /proc, /sys or /run path) below the root, malloc'd and
 * terminated, of at most max bytes; its length in *len unless NULL.
 * -errno, not reported (the caller names what it wanted).
 */
int kj_read_proc(const struct kj_ctx *ctx, const char *abs, size_t max,
		 char **text, size_t *len);

/* A buffer for kj_path(). */
#define KJ_PATH_MAX	4096

#endif
