/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_DEV_INFO_H
#define KJUMP_HIB_DEV_INFO_H

/*
 * What A's kernel says about its block devices and mounts, read below
 * the context's root: /proc/self/mountinfo and /proc/swaps, and
 * /sys/dev/block/MAJOR:MINOR.  The target checks (blkdev.c,
 * target-file.c) and the file system list (fs-id.c) share them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kj_ctx;

/* One line of /proc/self/mountinfo, split in place. */
struct mount_entry {
	unsigned int major, minor;
	char *mountpoint;
	char *opts;
	char *fstype;
	char *super_opts;		/* the file system's, "" if none */
};

/* A /proc file below the root, malloc'd and terminated (not reported). */
int dev_read_proc(struct kj_ctx *ctx, const char *abs, char **text);
/* The next line of *cur (terminated in place), or NULL at the end. */
char *dev_next_line(char **cur);
/* The next space-separated field of *cur, terminated, or NULL. */
char *dev_next_field(char **cur);
/* Undo the \ooo escapes of mountinfo and /proc/swaps, in place. */
void dev_unescape(char *s);
/* One line of mountinfo into e: 0, or -EINVAL. */
int dev_mount_parse(char *line, struct mount_entry *e);
/* Is name one of the comma-separated opts? */
bool dev_has_option(const char *opts, const char *name);

/*
 * fn(data, file) for each active swap area of /proc/swaps (file
 * unescaped, writable), until one returns non-zero, which is returned.
 * -ENOENT without /proc/swaps (no swap support), -errno of reading it.
 */
int dev_each_swap(struct kj_ctx *ctx, int (*fn)(void *data, char *file),
		  void *data);

/* /sys/dev/block/MAJOR:MINOR[/file] below the root, in buf. */
const char *dev_sys_path(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
			 const char *file, char *buf, size_t size);
/* A "MAJOR:MINOR" file (a sysfs dev attribute). */
int dev_read_devnum(const char *path, uint32_t *major, uint32_t *minor);
/* DEVNAME of the device's uevent, else its sysfs directory's name. */
int dev_sys_name(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
		 char *name, size_t size);
/*
 * An open read-only node of the device: /dev/block/M:m or /dev/DEVNAME
 * (below the root: tests put a plain file there), else on the real
 * system one made for the purpose in /tmp.  -errno if none.  flags:
 * O_EXCL holds it against mounts (-EBUSY: mounted or held already).
 */
int dev_open_node(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
		  int flags);

#endif
