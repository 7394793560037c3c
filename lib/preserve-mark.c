// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctx.h"
#include "file-io.h"
#include "kexec-syscall.h"
#include "preserve-mark.h"

#define BOOT_ID_PATH	"/proc/sys/kernel/random/boot_id"

/* This boot's id, e.g. "0f6c...-...\n", or "" if the kernel has none. */
static char *boot_id(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX], *text;
	size_t len;

	if (read_file(kj_path(ctx, BOOT_ID_PATH, path, sizeof(path)), 256,
		      &text, &len))
		return strdup("");
	return text;
}

void preserve_mark_set(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];
	char *id = boot_id(ctx);
	FILE *f = fopen(kj_path(ctx, PRESERVE_MARK_PATH, path, sizeof(path)),
			"we");

	if (!f || fputs(id ? id : "", f) == EOF || fclose(f)) {
		kj_warn(ctx, "%s: %s (kexec -j cannot tell this image can come back; use kexec -e)",
			path, strerror(errno));
		if (f)
			unlink(path);
	}
	free(id);
}

void preserve_mark_clear(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];

	kj_path(ctx, PRESERVE_MARK_PATH, path, sizeof(path));
	if (unlink(path) && errno != ENOENT)
		kj_warn(ctx, "%s: %s", path, strerror(errno));
}

bool preserve_mark_valid(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX], *mark, *id;
	size_t len;
	bool same;

	if (read_file(kj_path(ctx, PRESERVE_MARK_PATH, path, sizeof(path)), 256,
		      &mark, &len))
		return false;
	id = boot_id(ctx);
	same = id && !strcmp(mark, id);
	free(mark);
	free(id);
	return same && kexec_slot_loaded(ctx, false) == 1;
}
