// SPDX-License-Identifier: GPL-2.0-only
/*
 * A's read-write file systems: as A's user space sees them before the
 * jump (target.h: kjh_rw_filesystems()), where each is mounted, for B's
 * list, and a refusal of what a resume could not check (a type with no
 * fingerprint, active swap); and at resume, the device of this boot that
 * holds each one B recorded (kjh_fs_find()).
 */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ctx.h"
#include "hib/dev-info.h"
#include "kjump/hib/fs-print.h"
#include "hib/target.h"

/* ------------------------------------------------- rw file systems */

static bool seen(const struct kjh_fs *fs, uint32_t n,
		 const struct mount_entry *e)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (fs[i].dev_major == e->major && fs[i].dev_minor == e->minor)
			return true;
	return false;
}

static int add_fs(struct kj_ctx *ctx, struct kjh_fs **fs, uint32_t *n,
		  uint32_t *cap, const struct mount_entry *e)
{
	struct kjh_fs *f, *bigger;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		bigger = realloc(*fs, *cap * sizeof(**fs));
		if (!bigger) {
			kj_err(ctx, "file systems: out of memory");
			return -ENOMEM;
		}
		*fs = bigger;
	}
	f = &(*fs)[(*n)++];
	memset(f, 0, sizeof(*f));
	f->dev_major = e->major;
	f->dev_minor = e->minor;
	snprintf(f->type, sizeof(f->type), "%s", e->fstype);
	snprintf(f->name, sizeof(f->name), "%s", e->mountpoint);
	return 0;
}

static int check_printable(struct kj_ctx *ctx, const struct mount_entry *e)
{
	if (kjh_fs_type_printable(e->fstype))
		return 0;
	kj_err(ctx, "%s (%s on %u:%u): a resume could not tell whether a %s file system changed in between: unmount it or remount it read-only",
	       e->mountpoint, e->fstype, e->major, e->minor, e->fstype);
	return -EOPNOTSUPP;
}

struct swap_name {
	char file[256];
};

/* The first active swap area's name. */
static int first_swap(void *data, char *file)
{
	struct swap_name *n = data;

	snprintf(n->file, sizeof(n->file), "%s", file);
	return 1;
}

/*
 * Pages A swapped out live only on its swap: another boot before the
 * resume may use that swap and overwrite them.
 */
static int check_no_swap(struct kj_ctx *ctx)
{
	struct swap_name n;
	int ret = dev_each_swap(ctx, first_swap, &n);

	if (!ret || ret == -ENOENT)
		return 0;		/* none in use, or no swap support */
	if (ret < 0) {
		kj_err(ctx, "/proc/swaps: %s", strerror(-ret));
		return ret;
	}
	kj_err(ctx, "swap %s is in use: a boot before the resume could use it and overwrite what A swapped out: swapoff it first",
	       n.file);
	return -EBUSY;
}

int kjh_rw_filesystems(struct kj_ctx *ctx, bool resumable,
		       struct kjh_fs **fs, uint32_t *count)
{
	char *text, *cur, *line;
	struct kjh_fs *list = NULL;
	uint32_t n = 0, cap = 0;
	struct mount_entry e;
	int ret;

	sync();
	ret = dev_read_proc(ctx, "/proc/self/mountinfo", &text);
	if (ret) {
		kj_err(ctx, "/proc/self/mountinfo: %s", strerror(-ret));
		return ret;
	}
	cur = text;
	while (!ret && (line = dev_next_line(&cur))) {
		if (dev_mount_parse(line, &e) || !e.major ||
		    !dev_has_option(e.opts, "rw") || seen(list, n, &e))
			continue;
		ret = resumable ? check_printable(ctx, &e) : 0;
		if (!ret)
			ret = add_fs(ctx, &list, &n, &cap, &e);
	}
	free(text);
	if (!ret && resumable)
		ret = check_no_swap(ctx);
	if (ret) {
		free(list);
		return ret;
	}
	*fs = n ? list : NULL;
	if (!n)
		free(list);
	*count = n;
	return 0;
}

/* ------------------------------------------------ found at resume */

struct found {
	uint32_t major, minor;
	unsigned int count;
	char name[2][64];
};

static void look_at(struct kj_ctx *ctx, const struct kjh_fs *f,
		    const char *name, struct found *found)
{
	char abs[KJ_PATH_MAX], path[KJ_PATH_MAX];
	uint32_t major, minor;
	uint8_t uuid[16];
	int fd, ret;

	snprintf(abs, sizeof(abs), "/sys/class/block/%s/dev", name);
	if (dev_read_devnum(kj_path(ctx, abs, path, sizeof(path)), &major,
			    &minor))
		return;
	fd = dev_open_node(ctx, major, minor, 0);
	if (fd < 0)
		return;
	ret = kjh_fs_read_uuid(fd, f->type, uuid);
	close(fd);
	if (ret || memcmp(uuid, f->uuid, sizeof(uuid)))
		return;
	if (found->count < 2)
		snprintf(found->name[found->count],
			 sizeof(found->name[0]), "%.63s", name);
	if (!found->count++) {
		found->major = major;
		found->minor = minor;
	}
}

static void uuid_text(const uint8_t *u, char *text)
{
	int i;

	for (i = 0; i < 16; i++)
		sprintf(text + 2 * i, "%02x", u[i]);
}

int kjh_fs_find(struct kj_ctx *ctx, const struct kjh_fs *f, uint32_t *major,
		uint32_t *minor, char *why, size_t why_size)
{
	char path[KJ_PATH_MAX], uuid[33];
	struct found found = { 0 };
	struct dirent *d;
	DIR *dir;

	dir = opendir(kj_path(ctx, "/sys/class/block", path, sizeof(path)));
	if (!dir) {
		snprintf(why, why_size, "/sys/class/block: %s",
			 strerror(errno));
		return -errno;
	}
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			look_at(ctx, f, d->d_name, &found);
	closedir(dir);
	uuid_text(f->uuid, uuid);
	if (found.count == 1) {
		*major = found.major;
		*minor = found.minor;
		return 0;
	}
	if (!found.count)
		snprintf(why, why_size,
			 "%.64s (%.16s, uuid %s): on no disk of this boot: attach it before resuming",
			 f->name, f->type, uuid);
	else
		snprintf(why, why_size,
			 "%.64s (%.16s, uuid %s): on %s and on %s: cannot tell which one A had",
			 f->name, f->type, uuid, found.name[0], found.name[1]);
	return found.count ? -EEXIST : -ENOENT;
}
