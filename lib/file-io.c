// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file-io.h"

int read_fd(int fd, size_t max, char **buf, size_t *len)
{
	size_t cap = 4096, used = 0;
	char *data = malloc(cap + 1);
	ssize_t n;

	if (!data)
		return -ENOMEM;
	for (;;) {
		if (used == cap) {
			char *bigger;

			if (cap >= max) {
				free(data);
				return -EFBIG;
			}
			cap = cap * 2 > max ? max : cap * 2;
			bigger = realloc(data, cap + 1);
			if (!bigger) {
				free(data);
				return -ENOMEM;
			}
			data = bigger;
		}
		n = read(fd, data + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = -errno;

			free(data);
			return err;
		}
		if (n == 0)
			break;
		used += n;
	}
	data[used] = '\0';
	*buf = data;
	*len = used;
	return 0;
}

int read_file(const char *path, size_t max, char **buf, size_t *len)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = read_fd(fd, max, buf, len);
	close(fd);
	return ret;
}

int read_text(const char *path, char *out, size_t size)
{
	char *buf;
	size_t len;
	int ret;

	ret = read_file(path, 65536, &buf, &len);
	if (ret)
		return ret;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
		buf[--len] = '\0';
	if (len >= size) {
		free(buf);
		return -EOVERFLOW;
	}
	memcpy(out, buf, len + 1);
	free(buf);
	return 0;
}

int read_ulong(const char *path, unsigned long long *val)
{
	char text[64], *end;
	int ret;

	ret = read_text(path, text, sizeof(text));
	if (ret)
		return ret;
	errno = 0;
	*val = strtoull(text, &end, 0);
	if (errno || end == text || *end != '\0' || text[0] == '-')
		return -EINVAL;
	return 0;
}
