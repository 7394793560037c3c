/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_FILE_IO_H
#define KJUMP_FILE_IO_H

#include <stddef.h>

/*
 * Read a whole file into a malloc'd buffer (NUL-terminated, the NUL not
 * counted in *len).  Returns 0 or -errno; refuses files above max bytes
 * with -EFBIG.
 */
int read_file(const char *path, size_t max, char **buf, size_t *len);

/* The same from an open descriptor, from where it stands to its end. */
int read_fd(int fd, size_t max, char **buf, size_t *len);

/* Read a small text file (sysfs/procfs) and strip trailing newlines. */
int read_text(const char *path, char *out, size_t size);

/* Parse an unsigned number from a sysfs-style text file (base 0). */
int read_ulong(const char *path, unsigned long long *val);

#endif
