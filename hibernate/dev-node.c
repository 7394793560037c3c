// SPDX-License-Identifier: GPL-2.0-only
/* Device nodes for the devices A names by number (dev-node.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "dev-node.h"

/* DEVNAME= of the device's uevent, or -ENOENT. */
static int dev_name(const char *root, uint32_t major, uint32_t minor,
		    char *name, size_t size)
{
	char path[4096], line[512];
	int ret = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sys/dev/block/%u:%u/uevent", root,
		 major, minor);
	f = fopen(path, "re");
	while (f && ret && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "DEVNAME=", 8))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(name, size, "%.200s", line + 8);
		ret = 0;
	}
	if (f)
		fclose(f);
	return ret;
}

int kjs_dev_node(const char *root, uint32_t major, uint32_t minor,
		 char *node, size_t size)
{
	dev_t want = makedev(major, minor);
	char name[256];
	struct stat sb;

	if (!dev_name(root, major, minor, name, sizeof(name))) {
		snprintf(node, size, "%s/dev/%s", root, name);
		if (!stat(node, &sb) &&
		    ((S_ISBLK(sb.st_mode) && sb.st_rdev == want) ||
		     (*root && S_ISREG(sb.st_mode))))
			return 0;
	}
	if (*root)
		return -ENOENT;
	snprintf(node, size, "/tmp/kjump-save-%u-%u", major, minor);
	unlink(node);
	if (mknod(node, S_IFBLK | 0600, want))
		return -errno;
	return 0;
}
