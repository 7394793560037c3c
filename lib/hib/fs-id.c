// SPDX-License-Identifier: GPL-2.0-only
/*
 * The read-write file systems A leaves behind, and the identity of an
 * ext2/3/4 one read from its superblock (target.h: kjh_rw_filesystems(),
 * kjh_fs_probe_ext()), so that a resume can tell that one was mounted
 * since.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ctx.h"
#include "hib/dev-info.h"
#include "hib/target.h"

/* ------------------------------------------------- rw file systems */

#define EXT_SB_OFF		1024
#define EXT_SB_SIZE		1024
#define EXT_SB_MTIME		0x2c
#define EXT_SB_WTIME		0x30
#define EXT_SB_MNT_COUNT	0x34
#define EXT_SB_MAGIC		0x38
#define EXT_SB_UUID		0x68
#define EXT_SB_WTIME_HI		0x274
#define EXT_SB_MTIME_HI		0x275

static uint32_t le32_at(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16_at(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

int kjh_fs_probe_ext(struct kj_ctx *ctx, struct kjh_fs *f, char *why,
		     size_t why_size)
{
	unsigned char sb[EXT_SB_SIZE];
	struct stat st;
	ssize_t n;
	int fd, ret = 0;

	fd = dev_open_node(ctx, f->dev_major, f->dev_minor, 0);
	if (fd < 0) {
		snprintf(why, why_size, "cannot open its device to read the superblock: %s",
			 strerror(-fd));
		return fd;
	}
	if (!fstat(fd, &st) && S_ISBLK(st.st_mode) &&
	    st.st_rdev != makedev(f->dev_major, f->dev_minor)) {
		snprintf(why, why_size, "its device node is another device");
		ret = -ENODEV;
		goto out;
	}
	n = pread(fd, sb, sizeof(sb), EXT_SB_OFF);
	if (n != (ssize_t)sizeof(sb) || le16_at(sb + EXT_SB_MAGIC) != 0xef53) {
		ret = n < 0 ? -errno : -EINVAL;
		snprintf(why, why_size, "no %s superblock: %s", f->type,
			 n < 0 ? strerror(-ret) : "bad magic or short read");
		goto out;
	}
	memcpy(f->uuid, sb + EXT_SB_UUID, sizeof(f->uuid));
	f->wtime = le32_at(sb + EXT_SB_WTIME) |
		   (uint64_t)sb[EXT_SB_WTIME_HI] << 32;
	f->mtime = le32_at(sb + EXT_SB_MTIME) |
		   (uint64_t)sb[EXT_SB_MTIME_HI] << 32;
	f->mnt_count = le16_at(sb + EXT_SB_MNT_COUNT);
out:
	close(fd);
	return ret;
}

static int read_ext_sb(struct kj_ctx *ctx, struct kjh_fs *f)
{
	char why[160];
	int ret;

	ret = kjh_fs_probe_ext(ctx, f, why, sizeof(why));
	if (ret)
		kj_err(ctx, "%s (%u:%u): %s", f->mountpoint, f->dev_major,
		       f->dev_minor, why);
	return ret;
}

static bool is_ext(const char *type)
{
	return !strcmp(type, "ext2") || !strcmp(type, "ext3") ||
	       !strcmp(type, "ext4");
}

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
	snprintf(f->mountpoint, sizeof(f->mountpoint), "%s", e->mountpoint);
	return is_ext(f->type) ? read_ext_sb(ctx, f) : 0;
}

int kjh_rw_filesystems(struct kj_ctx *ctx, struct kjh_fs **fs,
		       uint32_t *count)
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
		ret = add_fs(ctx, &list, &n, &cap, &e);
	}
	free(text);
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
