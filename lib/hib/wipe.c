// SPDX-License-Identifier: GPL-2.0-only
/*
 * A resumed image's data, zeroed (target.h: kjh_wipe_lock(),
 * kjh_target_wipe(), kjh_wipe_in_background()).  Once A runs again the
 * image is never resumable, but it still holds all of A's memory as it
 * was, keys and passwords included: everything after its extent list is
 * zeroed, by a child of the resumed kexec so that the resume is not
 * slowed, and the header says so.  The child holds the hibernation's
 * lock until it is done, so that the next hibernation, which takes the
 * lock before it touches the target, never has its image zeroed.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ctx.h"
#include "kjump/hib/image-read.h"
#include "hib/target.h"

#define WIPE_LOCK_PATH	"/run/kexec-tools-kjump.wipe"
#define WIPE_SLICE	(64ull << 20)	/* zeroed between two looks */
#define ZERO_BUF	(1u << 20)
#define IOPRIO_WHO_PROCESS	1
#define IOPRIO_IDLE		(3 << 13)	/* class idle, level 0 */

int kjh_wipe_lock(struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];
	int fd;

	fd = open(kj_path(ctx, WIPE_LOCK_PATH, path, sizeof(path)),
		  O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;		/* no /run: nothing to wait for */
	while (flock(fd, LOCK_EX) && errno == EINTR)
		;
	return fd;
}

/*
 * Block 0 as it is now, through the target itself: no page of it is
 * cached dirty (every write here is synced), and the clean ones, which
 * may predate what a resume wrote, are dropped first.
 */
static int read_block0(const struct kjh_target *t, struct kjh_header *h)
{
	ssize_t n;

	posix_fadvise(t->fd, 0, KJH_BLOCK, POSIX_FADV_DONTNEED);
	n = pread(t->fd, h, sizeof(*h), 0);
	return n == (ssize_t)sizeof(*h) ? 0 : n < 0 ? -errno : -EIO;
}

/* Block 0 still holds the consumed image t resumed, not yet wiped. */
static int still_ours(const struct kjh_target *t, struct kjh_header *h)
{
	if (read_block0(t, h) || kjh_header_check(h, NULL, 0) ||
	    h->state != KJH_STATE_CONSUMED || (h->flags & KJH_F_WIPED) ||
	    memcmp(h->nonce, t->nonce, sizeof(t->nonce)))
		return -ESTALE;
	return 0;
}

static int write_zeros(int fd, uint64_t off, uint64_t len)
{
	uint8_t *zero = calloc(1, ZERO_BUF);
	size_t n;
	ssize_t w;
	int ret = 0;

	if (!zero)
		return -ENOMEM;
	while (!ret && len) {
		n = len < ZERO_BUF ? (size_t)len : ZERO_BUF;
		w = pwrite(fd, zero, n, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			ret = w < 0 ? -errno : -EIO;
		else {
			off += (uint64_t)w;
			len -= (uint64_t)w;
		}
	}
	free(zero);
	return ret;
}

/*
 * Logical [off, off + len) zeroed: on a device by the kernel
 * (BLKZEROOUT: a write-zeroes command where the disk has one), in a
 * file through it (its logical offsets are the file's).
 */
static int zero_range(const struct kjh_target *t, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	if (!t->is_file && !ioctl(t->fd, BLKZEROOUT, range))
		return 0;
	return write_zeros(t->fd, off, len);
}

int kjh_target_wipe(struct kj_ctx *ctx, struct kjh_target *t)
{
	struct kjh_header *h;
	uint64_t off, end, n;
	int ret;

	if (posix_memalign((void **)&h, KJH_BLOCK, sizeof(*h)))
		return -ENOMEM;
	ret = still_ours(t, h);
	end = ret ? 0 : kjh_round_up(h->image_bytes);
	if (end > t->capacity)
		end = t->capacity;
	for (off = KJH_DATA_OFF; !ret && off < end; off += n) {
		n = end - off < WIPE_SLICE ? end - off : WIPE_SLICE;
		ret = zero_range(t, off, n);
		if (!ret)
			ret = still_ours(t, h);
	}
	if (!ret && fdatasync(t->fd))
		ret = -errno;
	if (!ret) {
		h->flags |= KJH_F_WIPED;
		kjh_header_seal(h);
		ret = kjh_target_write_block0(ctx, t, h);
	}
	if (ret && ret != -ESTALE)
		kj_err(ctx, "%s: wiping the resumed image: %s", t->path,
		       strerror(-ret));
	free(h);
	return ret == -ESTALE ? 0 : ret;
}

void kjh_wipe_in_background(struct kj_ctx *ctx, struct kjh_target *t)
{
	pid_t pid = fork();

	if (pid < 0)
		kj_warn(ctx, "%s: the resumed image is not wiped: fork: %s",
			t->path, strerror(errno));
	if (pid)
		return;
	setsid();
	/* behind whatever the resumed system does */
	if (nice(19) < 0)
		errno = 0;
	syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0, IOPRIO_IDLE);
	_exit(kjh_target_wipe(ctx, t) ? 1 : 0);
}
