// SPDX-License-Identifier: GPL-2.0-only
/*
 * The inputs both ways of a load share (load-input.h): the files, the
 * command line, and the marks a load or an unload leaves behind.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file-io.h"
#include "load-input.h"
#include "preserve-mark.h"
#include "hib/helper-mark.h"

int load_read_input(const struct kj_ctx *ctx, const char *what,
		    const char *path, int fd, size_t max, char **buf,
		    size_t *len)
{
	int ret = fd < 0 ? read_file(path, max, buf, len) :
			   read_fd(fd, max, buf, len);

	if (ret == -EFBIG)
		kj_err(ctx, "%s: %s is larger than %zu MiB", path, what,
		       max >> 20);
	else if (ret)
		kj_err(ctx, "%s %s: %s", what, path, strerror(-ret));
	return ret;
}

int read_proc_cmdline(const struct kj_ctx *ctx, char **text)
{
	char path[KJ_PATH_MAX];
	size_t len;
	int ret;

	kj_path(ctx, "/proc/cmdline", path, sizeof(path));
	ret = read_file(path, 65536, text, &len);
	if (ret)
		kj_err(ctx, "%s: %s", path, strerror(-ret));
	return ret;
}

/*
 * acpi_rsdp= tells a kernel where the ACPI tables are when nothing else
 * can (an EFI boot whose tables a kexec'd kernel cannot find): the next
 * kernel gets this one's word unless its own command line has one.
 * running: this kernel's command line if already read (--reuse-cmdline),
 * else NULL, and it is read here only if wanted.
 */
static int carry_acpi_rsdp(const struct kj_ctx *ctx, const char *running,
			   struct cmdline *cl)
{
	char *text = NULL, word[48];
	uint64_t addr;
	int ret;

	if (cmdline_has_key(cmdline_str(cl), "acpi_rsdp="))
		return 0;
	if (!running && kj_read_proc(ctx, "/proc/cmdline", 65536, &text, NULL))
		return 0;	/* the other words do without it */
	ret = cmdline_get_u64(running ? running : text, "acpi_rsdp=", &addr);
	free(text);
	if (ret)
		return 0;
	snprintf(word, sizeof(word), "acpi_rsdp=0x%llx",
		 (unsigned long long)addr);
	return cmdline_append(cl, word);
}

int load_build_cmdline(const struct kj_ctx *ctx, const struct kj_load_spec *s,
		       struct cmdline *cl)
{
	char *running = NULL;
	unsigned int i;
	int ret = 0;

	if (s->reuse_cmdline) {
		ret = read_proc_cmdline(ctx, &running);
		if (ret)
			return ret;
		ret = cmdline_append_reused(cl, running,
					    s->mode == KJ_LOAD_CRASH);
	}
	for (i = 0; !ret && i < s->nr_append; i++)
		ret = cmdline_append(cl, s->append[i]);
	if (!ret)
		ret = carry_acpi_rsdp(ctx, running, cl);
	free(running);
	if (ret)
		kj_err(ctx, "command line: %s", strerror(-ret));
	return ret;
}

void load_update_mark(const struct kj_ctx *ctx, bool crash, bool mark)
{
	if (crash)
		hib_helper_mark_set(ctx, mark);
	else if (mark)
		preserve_mark_set(ctx);
	else
		preserve_mark_clear(ctx);
}
