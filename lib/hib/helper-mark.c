// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file-io.h"
#include "helper-mark.h"

#define NEWC_MAGIC	"070701"
#define NEWC_HDR_LEN	110
#define NEWC_NAMESIZE	94	/* offset of c_namesize (8 hex digits) */
#define BOOT_ID_PATH	"/proc/sys/kernel/random/boot_id"

static bool hex8(const char *p, unsigned long *val)
{
	char digits[9];
	char *end;

	memcpy(digits, p, 8);
	digits[8] = '\0';
	*val = strtoul(digits, &end, 16);
	return end == digits + 8;
}

/* Is there a newc header at p (len bytes left) naming the marker? */
static bool names_marker(const char *p, size_t len)
{
	size_t want = sizeof(HIB_HELPER_CPIO_NAME);	/* with the NUL */
	unsigned long namesize;

	if (len < NEWC_HDR_LEN + want || !hex8(p + NEWC_NAMESIZE, &namesize))
		return false;
	return namesize == want &&
	       !memcmp(p + NEWC_HDR_LEN, HIB_HELPER_CPIO_NAME, want);
}

bool initrd_has_hib_helper(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p && p < end) {
		p = memmem(p, end - p, NEWC_MAGIC, sizeof(NEWC_MAGIC) - 1);
		if (!p)
			break;
		if (names_marker(p, end - p))
			return true;
		p++;
	}
	return false;
}

static char *boot_id(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX], *text;
	size_t len;

	if (read_file(kj_path(ctx, BOOT_ID_PATH, path, sizeof(path)), 256,
		      &text, &len))
		return NULL;
	return text;
}

void hib_helper_mark_clear(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];

	kj_path(ctx, HIB_HELPER_MARK_PATH, path, sizeof(path));
	if (unlink(path) && errno != ENOENT)
		kj_warn(ctx, "%s: %s", path, strerror(errno));
}

void hib_helper_mark_set(const struct kj_ctx *ctx, bool present)
{
	char path[KJ_PATH_MAX];
	char *id;
	FILE *f;

	if (!present) {
		hib_helper_mark_clear(ctx);
		return;
	}
	id = boot_id(ctx);
	f = fopen(kj_path(ctx, HIB_HELPER_MARK_PATH, path, sizeof(path)), "we");
	if (!f || fprintf(f, "hibernate-helper=1\nboot-id=%s", id ? id : "") < 0 ||
	    fclose(f)) {
		kj_warn(ctx, "%s: %s (kexec --hibernate will not trust this crash kernel)",
			path, strerror(errno));
		if (f)
			unlink(path);
	}
	free(id);
}

bool hib_helper_mark_valid(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX], want[320], *mark, *id;
	size_t len;
	bool ok;

	if (read_file(kj_path(ctx, HIB_HELPER_MARK_PATH, path, sizeof(path)),
		      512, &mark, &len))
		return false;
	id = boot_id(ctx);
	snprintf(want, sizeof(want), "hibernate-helper=1\nboot-id=%s",
		 id ? id : "");
	ok = !strcmp(mark, want);
	free(id);
	free(mark);
	return ok;
}
