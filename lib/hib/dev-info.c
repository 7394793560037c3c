// SPDX-License-Identifier: GPL-2.0-only
/*
 * What A's kernel says about its block devices and mounts (dev-info.h).
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ctx.h"
#include "file-io.h"
#include "hib/dev-info.h"

#define PROC_TEXT_MAX	(16u << 20)

/* --------------------------------------------------------- mountinfo */
/* Undo the \ooo escapes of mountinfo and /proc/swaps, in place. */
void dev_unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* The next space-separated field of *cur, NUL-terminated, or NULL. */
char *dev_next_field(char **cur)
{
	char *s = *cur, *start;

	while (*s == ' ')
		s++;
	if (!*s)
		return NULL;
	start = s;
	while (*s && *s != ' ')
		s++;
	if (*s)
		*s++ = '\0';
	*cur = s;
	return start;
}

/* One line of mountinfo, split in place: 0, or -EINVAL. */
int dev_mount_parse(char *line, struct mount_entry *e)
{
	char *f[6], *opt;
	int i;

	for (i = 0; i < 6; i++) {
		f[i] = dev_next_field(&line);
		if (!f[i])
			return -EINVAL;
	}
	if (sscanf(f[2], "%u:%u", &e->major, &e->minor) != 2)
		return -EINVAL;
	do {
		opt = dev_next_field(&line);
	} while (opt && strcmp(opt, "-"));
	e->fstype = opt ? dev_next_field(&line) : NULL;
	if (!e->fstype)
		return -EINVAL;
	/* after the type: the source, then the super options */
	e->super_opts = dev_next_field(&line) ? dev_next_field(&line) : NULL;
	if (!e->super_opts)
		e->super_opts = "";
	e->mountpoint = f[4];
	e->opts = f[5];
	dev_unescape(e->mountpoint);
	return 0;
}

/* The next line of *cur (NUL-terminated in place), or NULL at the end. */
char *dev_next_line(char **cur)
{
	char *s = *cur, *nl;

	if (!*s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		*cur = nl + 1;
	} else {
		*cur = s + strlen(s);
	}
	return s;
}

int dev_read_proc(struct kj_ctx *ctx, const char *abs, char **text)
{
	return kj_read_proc(ctx, abs, PROC_TEXT_MAX, text, NULL);
}

bool dev_has_option(const char *opts, const char *name)
{
	size_t n = strlen(name);

	while (opts && *opts) {
		if (!strncmp(opts, name, n) && (opts[n] == ',' || !opts[n]))
			return true;
		opts = strchr(opts, ',');
		if (opts)
			opts++;
	}
	return false;
}

/* ------------------------------------------------------------- sysfs */

int dev_each_swap(struct kj_ctx *ctx, int (*fn)(void *data, char *file),
		  void *data)
{
	char *text, *cur, *line, *file;
	int ret;

	ret = dev_read_proc(ctx, "/proc/swaps", &text);
	if (ret)
		return ret;
	cur = text;
	dev_next_line(&cur);		/* the heading */
	while (!ret && (line = dev_next_line(&cur))) {
		file = dev_next_field(&line);
		if (!file)
			continue;
		dev_unescape(file);
		ret = fn(data, file);
	}
	free(text);
	return ret;
}

const char *dev_sys_path(struct kj_ctx *ctx, uint32_t major,
			 uint32_t minor, const char *file, char *buf,
			 size_t size)
{
	char abs[128];

	snprintf(abs, sizeof(abs), "/sys/dev/block/%u:%u%s%s", major, minor,
		 *file ? "/" : "", file);
	return kj_path(ctx, abs, buf, size);
}

int dev_read_devnum(const char *path, uint32_t *major, uint32_t *minor)
{
	char text[32];
	int ret = read_text(path, text, sizeof(text));

	if (ret)
		return ret;
	return sscanf(text, "%u:%u", major, minor) == 2 ? 0 : -EINVAL;
}

/* DEVNAME of the device's uevent, else its sysfs directory's name. */
int dev_sys_name(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
		 char *name, size_t size)
{
	char path[KJ_PATH_MAX], *text, *line, *cur, *real, *slash;
	size_t len;
	int ret;

	dev_sys_path(ctx, major, minor, "uevent", path, sizeof(path));
	ret = read_file(path, 65536, &text, &len);
	if (!ret) {
		cur = text;
		while ((line = dev_next_line(&cur))) {
			if (strncmp(line, "DEVNAME=", 8) || !line[8])
				continue;
			snprintf(name, size, "%s", line + 8);
			free(text);
			return 0;
		}
		free(text);
	}
	real = realpath(dev_sys_path(ctx, major, minor, "", path, sizeof(path)),
			NULL);
	if (!real)
		return -errno;
	slash = strrchr(real, '/');
	snprintf(name, size, "%s", slash ? slash + 1 : real);
	free(real);
	return 0;
}

/* A block device node made for the purpose in /tmp, opened, removed. */
static int open_made_node(uint32_t major, uint32_t minor, int flags)
{
	char dir[] = "/tmp/kjump.XXXXXX", path[64];
	int fd;

	if (!mkdtemp(dir))
		return -errno;
	snprintf(path, sizeof(path), "%s/dev", dir);
	fd = mknod(path, S_IFBLK | 0600, makedev(major, minor)) ? -errno : 0;
	if (!fd) {
		fd = open(path, O_RDONLY | O_CLOEXEC | flags);
		if (fd < 0)
			fd = -errno;
		unlink(path);
	}
	rmdir(dir);
	return fd;
}

/*
 * An open node of the device: /dev/block/M:m or /dev/DEVNAME (below the
 * root prefix: tests put a plain file there), else on the real system
 * one made in /tmp (A may have no node for it).  flags: O_EXCL, to hold
 * the device against mounts; EBUSY then means it is in use.
 */
int dev_open_node(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
		  int flags)
{
	char abs[128], path[KJ_PATH_MAX], name[64];
	int fd;

	flags |= O_RDONLY | O_CLOEXEC;
	snprintf(abs, sizeof(abs), "/dev/block/%u:%u", major, minor);
	fd = open(kj_path(ctx, abs, path, sizeof(path)), flags);
	if (fd >= 0 || errno == EBUSY)
		return fd >= 0 ? fd : -EBUSY;
	if (!dev_sys_name(ctx, major, minor, name, sizeof(name))) {
		snprintf(abs, sizeof(abs), "/dev/%s", name);
		fd = open(kj_path(ctx, abs, path, sizeof(path)), flags);
		if (fd >= 0 || errno == EBUSY)
			return fd >= 0 ? fd : -EBUSY;
	}
	if (*kj_ctx_root(ctx))
		return -ENOENT;
	return open_made_node(major, minor, flags);
}

