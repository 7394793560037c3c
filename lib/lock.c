// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "ctx.h"
#include "lock.h"

/* The holder's pid as it wrote it, or 0 when unreadable or not yet written. */
static long holder_pid(int fd)
{
	char text[32], *end;
	ssize_t n;
	long pid;

	n = pread(fd, text, sizeof(text) - 1, 0);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	errno = 0;
	pid = strtol(text, &end, 10);
	if (errno || end == text || (*end && *end != '\n') || pid <= 0)
		return 0;
	return pid;
}

static void write_pid(const struct kj_ctx *ctx, int fd)
{
	char text[32];
	int n = snprintf(text, sizeof(text), "%ld\n", (long)getpid());

	/* Only informative: a short write costs the next kexec its pid. */
	if (ftruncate(fd, 0) || pwrite(fd, text, (size_t)n, 0) != n)
		kj_dbg(ctx, "lock: cannot record our pid (%s)\n", strerror(errno));
}

static void busy(const struct kj_ctx *ctx, int fd, const char *what)
{
	long pid = holder_pid(fd);

	if (pid)
		kj_err(ctx, "%s: another kexec is running (pid %ld)", what, pid);
	else
		kj_err(ctx, "%s: another kexec is running", what);
}

int kj_lock_take(struct kj_ctx *ctx, struct kj_lock *l, const char *what)
{
	char path[KJ_PATH_MAX];
	int fd;

	l->fd = -1;
	kj_path(ctx, KEXEC_LOCK_FILE, path, sizeof(path));
	/*
	 * Write access only: a lock anyone could open read-only would let
	 * any user hold off root's kexec.
	 */
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		kj_dbg(ctx, "lock: %s: %s; going on without it\n", path,
		       strerror(errno));
		return 0;
	}
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EINTR)
			continue;
		if (errno == EWOULDBLOCK) {
			busy(ctx, fd, what);
			close(fd);
			return -EBUSY;
		}
		kj_dbg(ctx, "lock: %s: %s; going on without it\n", path,
		       strerror(errno));
		close(fd);
		return 0;
	}
	write_pid(ctx, fd);
	l->fd = fd;
	return 0;
}

void kj_lock_release(struct kj_lock *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}
