// SPDX-License-Identifier: GPL-2.0-only
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx.h"
#include "file-io.h"

struct kj_ctx *kj_ctx_new(const char *root)
{
	struct kj_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->root = strdup(root ? root : "");
	if (!ctx->root) {
		free(ctx);
		return NULL;
	}
	return ctx;
}

void kj_ctx_free(struct kj_ctx *ctx)
{
	if (!ctx)
		return;
	free(ctx->root);
	free(ctx);
}

void kj_ctx_set_log(struct kj_ctx *ctx, kj_log_fn fn, void *data)
{
	ctx->log = fn;
	ctx->log_data = data;
}

void kj_ctx_set_debug(struct kj_ctx *ctx, bool on)
{
	ctx->debug = on;
}

bool kj_ctx_debug(const struct kj_ctx *ctx)
{
	return ctx->debug;
}

const char *kj_ctx_root(const struct kj_ctx *ctx)
{
	return ctx->root;
}

const char *kj_path(const struct kj_ctx *ctx, const char *abs, char *buf,
		    size_t size)
{
	snprintf(buf, size, "%s%s", ctx->root, abs);
	return buf;
}

static void report(const struct kj_ctx *ctx, enum kj_log_level level,
		   const char *fmt, va_list ap)
{
	char msg[1024];

	if (!ctx->log)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	ctx->log(ctx->log_data, level, msg);
}

void kj_err(const struct kj_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(ctx, KJ_LOG_ERR, fmt, ap);
	va_end(ap);
}

void kj_warn(const struct kj_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report(ctx, KJ_LOG_WARNING, fmt, ap);
	va_end(ap);
}

void kj_dbg(const struct kj_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (!ctx->debug)
		return;
	va_start(ap, fmt);
	report(ctx, KJ_LOG_DEBUG, fmt, ap);
	va_end(ap);
}

int kj_read_proc(const struct kj_ctx *ctx, const char *abs, size_t max,
		 char **text, size_t *len)
{
	char path[KJ_PATH_MAX];
	size_t n;

	return read_file(kj_path(ctx, abs, path, sizeof(path)), max, text,
			 len ? len : &n);
}
