// SPDX-License-Identifier: GPL-2.0-only
#include <stdlib.h>
#include <string.h>

#include "helper-mark.h"
#include "mark.h"

#define NEWC_MAGIC	"070701"
#define NEWC_HDR_LEN	110
#define NEWC_NAMESIZE	94	/* offset of c_namesize (8 hex digits) */

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

#define HIB_HELPER_MARK_TEXT	"hibernate-helper=1\nboot-id="

void hib_helper_mark_clear(const struct kj_ctx *ctx)
{
	mark_remove(ctx, HIB_HELPER_MARK_PATH);
}

void hib_helper_mark_set(const struct kj_ctx *ctx, bool present)
{
	if (present)
		mark_write(ctx, HIB_HELPER_MARK_PATH, HIB_HELPER_MARK_TEXT,
			   "kexec --hibernate will not trust this crash kernel");
	else
		mark_remove(ctx, HIB_HELPER_MARK_PATH);
}

bool hib_helper_mark_valid(const struct kj_ctx *ctx)
{
	return mark_holds(ctx, HIB_HELPER_MARK_PATH, HIB_HELPER_MARK_TEXT);
}
