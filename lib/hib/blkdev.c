// SPDX-License-Identifier: GPL-2.0-only
/*
 * Is a block device free to take an image (target.h,
 * kjh_blkdev_check_unused())?  Not if it, a partition of it or the disk
 * it is a partition of is mounted, active swap or held by another
 * driver (device mapper, md, lvm).
 */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "ctx.h"
#include "hib/dev-info.h"
#include "hib/target.h"

/* ------------------------------------------------------- busy checks */

/* What keeps a device busy, for the message. */
struct busy {
	char what[512];
};

static int check_mounted(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
			 const char *name, struct busy *b)
{
	char *text, *cur, *line;
	struct mount_entry e;
	int ret;

	ret = dev_read_proc(ctx, "/proc/self/mountinfo", &text);
	if (ret)
		return ret;
	cur = text;
	while ((line = dev_next_line(&cur))) {
		if (dev_mount_parse(line, &e) || e.major != major ||
		    e.minor != minor)
			continue;
		snprintf(b->what, sizeof(b->what), "%s (%u:%u) is mounted on %s",
			 name, major, minor, e.mountpoint);
		ret = -EBUSY;
		break;
	}
	free(text);
	return ret;
}

/* The block device a /proc/swaps entry names: its sysfs name, or stat. */
static int swap_devnum(struct kj_ctx *ctx, const char *file, uint32_t *major,
		       uint32_t *minor)
{
	const char *base = strrchr(file, '/');
	char abs[512], path[KJ_PATH_MAX];
	struct stat st;

	base = base ? base + 1 : file;
	snprintf(abs, sizeof(abs), "/sys/class/block/%s/dev", base);
	if (!strncmp(file, "/dev/", 5) &&
	    !dev_read_devnum(kj_path(ctx, abs, path, sizeof(path)), major,
			     minor))
		return 0;
	if (stat(file, &st) || !S_ISBLK(st.st_mode))
		return -ENOENT;
	*major = major(st.st_rdev);
	*minor = minor(st.st_rdev);
	return 0;
}

struct swap_match {
	struct kj_ctx *ctx;
	uint32_t major, minor;
};

static int is_this_device(void *data, char *file)
{
	struct swap_match *m = data;
	uint32_t major, minor;

	return !swap_devnum(m->ctx, file, &major, &minor) &&
	       major == m->major && minor == m->minor;
}

static int check_swap(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
		      const char *name, struct busy *b)
{
	struct swap_match m = { ctx, major, minor };
	int ret = dev_each_swap(ctx, is_this_device, &m);

	if (ret == -ENOENT)
		return 0;		/* no swap support at all */
	if (ret < 0)
		return ret;
	if (!ret)
		return 0;
	snprintf(b->what, sizeof(b->what), "%s (%u:%u) is active swap", name,
		 major, minor);
	return -EBUSY;
}

static int check_holders(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
			 const char *name, struct busy *b)
{
	char path[KJ_PATH_MAX];
	struct dirent *d;
	int ret = 0;
	DIR *dir;

	dir = opendir(dev_sys_path(ctx, major, minor, "holders", path,
				   sizeof(path)));
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(b->what, sizeof(b->what),
			 "%s (%u:%u) is held by %s (device mapper, md or lvm)",
			 name, major, minor, d->d_name);
		ret = -EBUSY;
		break;
	}
	closedir(dir);
	return ret;
}

static int check_one(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
		     struct busy *b)
{
	char name[64];
	int ret;

	if (dev_sys_name(ctx, major, minor, name, sizeof(name)))
		snprintf(name, sizeof(name), "device");
	ret = check_mounted(ctx, major, minor, name, b);
	if (!ret)
		ret = check_swap(ctx, major, minor, name, b);
	if (!ret)
		ret = check_holders(ctx, major, minor, name, b);
	return ret;
}

/* Every partition of a whole disk (sysfs child dirs with "partition"). */
static int check_partitions(struct kj_ctx *ctx, uint32_t major,
			    uint32_t minor, struct busy *b)
{
	char dir_path[KJ_PATH_MAX], path[KJ_PATH_MAX * 2];
	uint32_t p_major, p_minor;
	struct dirent *d;
	struct stat st;
	int ret = 0;
	DIR *dir;

	dev_sys_path(ctx, major, minor, "", dir_path, sizeof(dir_path));
	dir = opendir(dir_path);
	if (!dir)
		return 0;
	while (!ret && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/partition", dir_path,
			 d->d_name);
		if (stat(path, &st))
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", dir_path, d->d_name);
		if (dev_read_devnum(path, &p_major, &p_minor))
			continue;
		ret = check_one(ctx, p_major, p_minor, b);
	}
	closedir(dir);
	return ret;
}

/* A partition's disk (the sysfs parent directory); -ENOENT if none. */
static int parent_disk(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
		       uint32_t *d_major, uint32_t *d_minor)
{
	char path[KJ_PATH_MAX], *real, *slash;
	struct stat st;
	int ret;

	if (stat(dev_sys_path(ctx, major, minor, "partition", path,
			      sizeof(path)), &st))
		return -ENOENT;
	real = realpath(dev_sys_path(ctx, major, minor, "", path, sizeof(path)),
			NULL);
	if (!real)
		return -errno;
	slash = strrchr(real, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/dev", real);
	free(real);
	ret = dev_read_devnum(path, d_major, d_minor);
	return ret;
}

int kjh_blkdev_check_unused(struct kj_ctx *ctx, const char *path,
			    uint32_t major, uint32_t minor)
{
	uint32_t d_major, d_minor;
	struct busy b = { "" };
	int ret;

	ret = check_one(ctx, major, minor, &b);
	if (!ret)
		ret = check_partitions(ctx, major, minor, &b);
	if (!ret && !parent_disk(ctx, major, minor, &d_major, &d_minor))
		ret = check_one(ctx, d_major, d_minor, &b);
	if (ret == -EBUSY)
		kj_err(ctx, "%s: in use: %s", path, b.what);
	else if (ret)
		kj_err(ctx, "%s: cannot tell whether the device is in use: %s",
		       path, strerror(-ret));
	return ret;
}

/*
 * The crash kernel finds the target by device number on a bare
 * initramfs: no device mapper, md or loop stack is built there, so such
 * a device (or a file on one) would only fail once A is frozen.
 */
int kjh_blkdev_check_reachable(struct kj_ctx *ctx, const char *path,
			       uint32_t major, uint32_t minor)
{
	static const struct {
		const char *dir;
		const char *what;
	} stacked[] = {
		{ "dm", "a device-mapper device (LVM, LUKS, multipath)" },
		{ "md", "an md RAID device" },
		{ "loop", "a loop device" },
	};
	char sys[KJ_PATH_MAX];
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(stacked) / sizeof(stacked[0]); i++) {
		if (stat(dev_sys_path(ctx, major, minor, stacked[i].dir, sys,
				      sizeof(sys)), &st))
			continue;
		kj_err(ctx, "%s: on %s (%u:%u): the crash kernel cannot reach it; use a partition of a disk",
		       path, stacked[i].what, major, minor);
		return -EXDEV;
	}
	return 0;
}
