// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file-io.h"
#include "kexec-syscall.h"
#include "log.h"
#include "preserve-mark.h"

#define BOOT_ID_PATH	"/proc/sys/kernel/random/boot_id"

/* This boot's id, e.g. "0f6c...-...\n", or "" if the kernel has none. */
static char *boot_id(void)
{
	char *text;
	size_t len;

	if (read_file(BOOT_ID_PATH, 256, &text, &len))
		return strdup("");
	return text;
}

void preserve_mark_set(void)
{
	char *id = boot_id();
	FILE *f = fopen(PRESERVE_MARK_PATH, "we");

	if (!f || fputs(id ? id : "", f) == EOF || fclose(f)) {
		kx_warn("%s: %s (kexec -j cannot tell this image can come back; use kexec -e)",
			PRESERVE_MARK_PATH, strerror(errno));
		if (f)
			unlink(PRESERVE_MARK_PATH);
	}
	free(id);
}

void preserve_mark_clear(void)
{
	if (unlink(PRESERVE_MARK_PATH) && errno != ENOENT)
		kx_warn("%s: %s", PRESERVE_MARK_PATH, strerror(errno));
}

bool preserve_mark_valid(void)
{
	char *mark, *id;
	size_t len;
	bool same;

	if (read_file(PRESERVE_MARK_PATH, 256, &mark, &len))
		return false;
	id = boot_id();
	same = id && !strcmp(mark, id);
	free(mark);
	free(id);
	return same && kexec_slot_loaded(false) == 1;
}
