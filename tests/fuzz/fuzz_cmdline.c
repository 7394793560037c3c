// SPDX-License-Identifier: GPL-2.0-only
/*
 * The command-line word walk: cmdline_append_reused() on a /proc/cmdline
 * text (first byte: bit 0 drops crashkernel=, the rest is the text), and
 * cmdline_append().
 *
 * Promises checked: the result is terminated and its length is right; it
 * is no longer than the input; it holds no BOOT_IMAGE= word (nor
 * crashkernel= when dropped); it has no blanks at either end (but for
 * an open quote's); and walking it again gives it back unchanged (the
 * words survive joining).
 */
#include <stdbool.h>

#include "cmdline.h"
#include "fuzz.h"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void check_line(const struct cmdline *cl, size_t in_len)
{
	const char *s = cmdline_str(cl);

	FUZZ_ASSERT(strlen(s) == cl->len);
	FUZZ_ASSERT(cl->len <= in_len);
	if (cl->len) {
		FUZZ_ASSERT(cl->len < cl->cap);
		FUZZ_ASSERT(!blank(s[0]));
		/* an open quote runs to the end, blanks and all */
		FUZZ_ASSERT(!blank(s[cl->len - 1]) || memchr(s, '"', cl->len));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cmdline cl, again, app;
	bool drop;
	char *text;

	if (!size)
		return 0;
	drop = data[0] & 1;
	text = fuzz_strdup(data + 1, size - 1);
	cmdline_init(&cl);
	cmdline_init(&again);
	cmdline_init(&app);

	FUZZ_ASSERT(!cmdline_append_reused(&cl, text, drop));
	check_line(&cl, strlen(text));
	FUZZ_ASSERT(!cmdline_has_key(cmdline_str(&cl), "BOOT_IMAGE="));
	if (drop)
		FUZZ_ASSERT(!cmdline_has_key(cmdline_str(&cl), "crashkernel="));
	FUZZ_ASSERT(!cmdline_append_reused(&again, cmdline_str(&cl), drop));
	FUZZ_ASSERT(again.len == cl.len);
	FUZZ_ASSERT(!strcmp(cmdline_str(&again), cmdline_str(&cl)));

	FUZZ_ASSERT(!cmdline_append(&app, text));
	FUZZ_ASSERT(strlen(cmdline_str(&app)) == app.len);
	FUZZ_ASSERT(app.len <= strlen(text));
	if (app.len) {
		FUZZ_ASSERT(!blank(app.buf[0]));
		FUZZ_ASSERT(!blank(app.buf[app.len - 1]));
	}

	cmdline_free(&app);
	cmdline_free(&again);
	cmdline_free(&cl);
	free(text);
	return 0;
}
