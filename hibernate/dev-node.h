/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIBERNATE_DEV_NODE_H
#define KJUMP_HIBERNATE_DEV_NODE_H

#include <stddef.h>
#include <stdint.h>

/*
 * A node of block device major:minor in B, in node: /dev/DEVNAME of its
 * sysfs uevent, else one made in /tmp.  root ("" on a real system)
 * prefixes /sys; below a test root, a regular file root/dev/DEVNAME
 * stands for the device.  0, or -errno.
 */
int kjs_dev_node(const char *root, uint32_t major, uint32_t minor,
		 char *node, size_t size);

#endif
