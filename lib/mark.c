// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mark.h"

#define BOOT_ID_PATH	"/proc/sys/kernel/random/boot_id"
#define MARK_MAX	512

/* This boot's id, e.g. "0f6c...-...\n", or "" if the kernel has none. */
static char *boot_id(const struct kj_ctx *ctx)
{
	char *text;

	if (kj_read_proc(ctx, BOOT_ID_PATH, 256, &text, NULL))
		return strdup("");
	return text;
}

void mark_write(const struct kj_ctx *ctx, const char *path, const char *text,
		const char *consequence)
{
	char full[KJ_PATH_MAX];
	char *id = boot_id(ctx);
	FILE *f = NULL;
	int err = 0;

	kj_path(ctx, path, full, sizeof(full));
	if (!id)
		err = ENOMEM;
	else if (!(f = fopen(full, "we")))
		err = errno;
	errno = 0;
	if (f && fprintf(f, "%s%s", text, id) < 0)
		err = errno ? errno : EIO;
	if (f && fclose(f) && !err)
		err = errno;
	if (err) {
		kj_warn(ctx, "%s: %s (%s)", full, strerror(err), consequence);
		if (f)
			unlink(full);
	}
	free(id);
}

void mark_remove(const struct kj_ctx *ctx, const char *path)
{
	char full[KJ_PATH_MAX];

	kj_path(ctx, path, full, sizeof(full));
	if (unlink(full) && errno != ENOENT)
		kj_warn(ctx, "%s: %s", full, strerror(errno));
}

bool mark_holds(const struct kj_ctx *ctx, const char *path, const char *text)
{
	char *mark, *id;
	size_t len, n = strlen(text);
	bool same;

	if (kj_read_proc(ctx, path, MARK_MAX, &mark, &len))
		return false;
	id = boot_id(ctx);
	same = id && len >= n && !memcmp(mark, text, n) &&
	       !strcmp(mark + n, id);
	free(mark);
	free(id);
	return same;
}
