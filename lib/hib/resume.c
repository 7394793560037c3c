// SPDX-License-Identifier: GPL-2.0-only
/*
 * kj_resume(): restore A from its hibernation image, in a fresh boot of
 * A's own kernel build (A').
 *
 * Nothing is written anywhere until every check passed and the whole
 * stream went into /dev/snapshot with every chunk verified: a refusal, a
 * bad chunk or a kernel that cannot take the image leave the image and
 * the system as they were.  Only then is the image marked consumed
 * (synced), and the restore started; should the kernel return from it,
 * the mark is undone.
 */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <linux/suspend_ioctls.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctx.h"
#include "hib/dev-info.h"
#include "hib/host.h"
#include "kjump/hib/image-read.h"
#include "kjump/hib/image-write.h"
#include "kjump/hib/fs-print.h"
#include "kjump/hib/request.h"
#include "hib/mono-clock.h"
#include "hib/resume-check.h"
#include "hib/swsusp-stream.h"
#include "hib/target.h"

#define SNAPSHOT_PATH		"/dev/snapshot"

struct resume {
	struct kj_ctx *ctx;
	const struct kj_resume_spec *spec;
	bool invalidating;		/* kj_invalidate(), not kj_resume() */
	struct kjh_host host;
	int fd;
	uint64_t size;			/* of the device or file */
	bool is_blk;
	struct kjh_dev dev;
	bool have_dev;
	struct kjh_image img;
	bool have_img;
	int *held;			/* fds, one per recorded fs */
	uint32_t nr_held;
	char why[320];
};

static int refused(struct resume *r, int err)
{
	kj_err(r->ctx, "%s: %s: %s", r->invalidating ? "invalidate" : "resume",
	       r->spec->target, r->why);
	return err;
}

static int dev_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	if (!S_ISREG(st.st_mode))
		return -ENOTBLK;
	*size = (uint64_t)st.st_size;
	return 0;
}

/*
 * The target as one extent from the image's offset (a plain file: the
 * file itself, logical offsets being the file's).
 */
static int open_target(struct resume *r)
{
	struct kjh_extent one;
	struct stat st;
	int ret;

	/*
	 * A file is reached through a file system this boot has mounted:
	 * one of A's, whose state A' changed.  Only the raw device will do.
	 */
	if (!r->invalidating && !stat(r->spec->target, &st) &&
	    S_ISREG(st.st_mode)) {
		snprintf(r->why, sizeof(r->why),
			 "a file: give the block device that holds it and --resume-offset (--image-info of the file says both), with the file system not mounted");
		return refused(r, -ENOTBLK);
	}
	r->fd = open(r->spec->target, O_RDWR | O_CLOEXEC);
	if (r->fd < 0) {
		snprintf(r->why, sizeof(r->why), "%s", strerror(errno));
		return refused(r, -errno);
	}
	ret = dev_size(r->fd, &r->size);
	if (!ret && !fstat(r->fd, &st))
		r->is_blk = S_ISBLK(st.st_mode);

	if (!ret && !r->is_blk && r->spec->offset)
		ret = -ENOTBLK;
	one.logical = 0;
	one.physical = r->spec->offset;
	one.length = r->spec->offset < r->size ?
		     (r->size - r->spec->offset) & ~(uint64_t)(KJH_BLOCK - 1) : 0;
	if (!ret && (one.length < KJH_DATA_OFF || r->spec->offset % KJH_BLOCK))
		ret = -ENOSPC;
	if (!ret)
		ret = kjh_dev_init(&r->dev, r->fd, &one, 1, one.length);
	if (ret) {
		snprintf(r->why, sizeof(r->why), "%s", ret == -ENOSPC ?
			 "no kexec hibernation image there (too short, or an offset not a multiple of 4096)" :
			 ret == -ENOTBLK ? "an offset needs a block device" :
			 strerror(-ret));
		return refused(r, ret);
	}
	r->have_dev = true;
	return 0;
}

/*
 * On a block device, the image's own extent list maps it (a file of a
 * file system nobody mounts now, or the whole device as one extent).
 */
static int map_extents(struct resume *r, const struct kjh_header *hdr)
{
	struct kjh_extents *x;
	uint8_t *blk;
	int ret;

	if (!r->is_blk)
		return 0;
	blk = malloc(KJH_EXTENTS_BLOCKS * KJH_BLOCK);
	if (!blk) {
		snprintf(r->why, sizeof(r->why), "out of memory");
		return refused(r, -ENOMEM);
	}
	x = (struct kjh_extents *)blk;
	ret = kjh_extents_read(&r->dev, hdr->nonce, r->spec->offset, r->size,
			       hdr->capacity, blk, r->why, sizeof(r->why));
	if (!ret) {
		kjh_dev_fini(&r->dev);
		r->have_dev = false;
		ret = kjh_dev_init(&r->dev, r->fd, (struct kjh_extent *)(x + 1),
				   x->count, hdr->capacity);
		if (ret)
			snprintf(r->why, sizeof(r->why), "out of memory");
		r->have_dev = !ret;
	}
	free(blk);
	return ret ? refused(r, ret) : 0;
}

static int probe_fs(void *data, const struct kjh_fs *rec, struct kjh_fs *now)
{
	struct resume *r = data;
	uint32_t i = (uint32_t)(rec - r->img.fs);
	char why[160];

	if (i >= r->nr_held || r->held[i] < 0)
		return -EBADF;
	return kjh_fs_fingerprint(r->held[i], now, why, sizeof(why));
}

/* A's file systems as A left them (checked again once tasks are frozen). */
static int check_filesystems(struct resume *r)
{
	int ret = kjh_resume_check_fs(r->img.fs, r->img.hdr.fs_count,
				      probe_fs, r, r->why, sizeof(r->why));

	return ret ? refused(r, ret) : 0;
}

/* Found by uuid and held O_EXCL: nothing may mount it any more. */
static int hold_one(struct resume *r, const struct kjh_fs *fs)
{
	uint32_t major, minor;
	int fd, ret;

	if (!(fs->flags & KJH_FS_PRINTED)) {
		snprintf(r->why, sizeof(r->why),
			 "%.64s (%.16s): the image has no fingerprint of it",
			 fs->name, fs->type);
		return refused(r, -EBADMSG);
	}
	ret = kjh_fs_find(r->ctx, fs, &major, &minor, r->why, sizeof(r->why));
	if (ret)
		return refused(r, ret);
	fd = dev_open_node(r->ctx, major, minor, O_EXCL);
	if (fd == -EBUSY) {
		snprintf(r->why, sizeof(r->why),
			 "%.64s (%u:%u, %.16s): mounted or in use in this boot: resume before anything mounts it",
			 fs->name, major, minor, fs->type);
		return refused(r, fd);
	}
	if (fd < 0) {
		snprintf(r->why, sizeof(r->why), "%.64s (%u:%u): %s",
			 fs->name, major, minor, strerror(-fd));
		return refused(r, fd);
	}
	r->held[r->nr_held++] = fd;
	return 0;
}

/*
 * Every file system A had open for writing, found by its uuid on
 * whichever device holds it in this boot and held O_EXCL until the
 * restore: one mounted now (in any mount namespace, read-only too) or on
 * no disk refuses the image, and none can be mounted until A is back.
 */
static int hold_filesystems(struct resume *r)
{
	uint32_t i;
	int ret = 0;

	r->held = calloc(r->img.hdr.fs_count + 1, sizeof(*r->held));
	if (!r->held) {
		snprintf(r->why, sizeof(r->why), "out of memory");
		return refused(r, -ENOMEM);
	}
	for (i = 0; !ret && i < r->img.hdr.fs_count; i++)
		ret = hold_one(r, &r->img.fs[i]);
	return ret;
}

static void release_filesystems(struct resume *r)
{
	while (r->nr_held)
		close(r->held[--r->nr_held]);
	free(r->held);
	r->held = NULL;
}

/*
 * The kernel loads every page of the image into free memory, with a pfn
 * and a restore entry each: with less free, it would run out half-way.
 */
static int check_room(struct resume *r)
{
	uint64_t total, avail, need = kjh_restore_need(r->img.hdr.pages);

	if (kjh_host_meminfo(r->ctx, &total, &avail)) {
		snprintf(r->why, sizeof(r->why), "%s: no MemTotal and MemFree",
			 KJH_MEMINFO_PATH);
		return refused(r, -EIO);
	}
	if (need <= avail)
		return 0;
	snprintf(r->why, sizeof(r->why),
		 "the restore needs %" PRIu64 " MiB of free memory, and this boot has %" PRIu64
		 " MiB free (keep less in this initramfs, or hibernate with a larger --resume-reserve)",
		 need >> 8, avail >> 8);
	return refused(r, -ENOMEM);
}

static int check_sections(struct resume *r)
{
	const struct kjh_header *h = &r->img.hdr;
	int ret;

	ret = kjh_resume_check_ram(r->img.ram, h->ram_count, &r->host, r->why,
				   sizeof(r->why));
	if (ret)
		return refused(r, ret);
	ret = check_room(r);
	if (ret)
		return ret;
	ret = hold_filesystems(r);
	if (ret)
		return ret;
	return check_filesystems(r);
}

/* Block 0 and the commit record, then what the image says about A. */
static int check_image(struct resume *r)
{
	struct kjh_header hdr;
	int ret;

	ret = kjh_image_read_header(&r->dev, &hdr, r->why, sizeof(r->why));
	if (!ret)
		ret = kjh_resume_check_header(&hdr, &r->host, r->why,
					      sizeof(r->why));
	if (ret)
		return refused(r, ret);
	ret = map_extents(r, &hdr);
	if (ret)
		return ret;
	ret = kjh_image_open(&r->img, &r->dev, r->why, sizeof(r->why));
	if (ret)
		return refused(r, ret);
	r->have_img = true;
	ret = kjh_swsusp_check(&r->img, r->why, sizeof(r->why));
	if (ret)
		return refused(r, ret);
	return check_sections(r);
}

/* Block 0 with a new state, synced. */
static int set_state(struct resume *r, uint32_t state, uint64_t when)
{
	struct kjh_header hdr = r->img.hdr;
	int ret;

	hdr.state = state;
	hdr.consumed = when;
	kjh_header_seal(&hdr);
	ret = kjh_dev_pwrite(&r->dev, &hdr, sizeof(hdr), 0);
	if (!ret && fdatasync(r->fd))
		ret = -errno;
	return ret;
}

static int snapshot_fail(struct resume *r, const char *step, int err)
{
	snprintf(r->why, sizeof(r->why), "%.64s: %s", step, strerror(-err));
	return refused(r, err);
}

static uint64_t now_ms(void)
{
	return kjh_mono_us() / 1000;
}

/* How many threads this process has now, by /proc/self/task; -1 unknown. */
static int count_threads(void)
{
	struct dirent *e;
	int n = 0;
	DIR *d;

	d = opendir("/proc/self/task");
	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

/*
 * The stream's threads, made after SNAPSHOT_FREEZE, carry this thread's
 * PF_SUSPEND_TASK, and the kernel warns when it thaws tasks with another
 * such thread still listed.  pthread_join() returns before a finished
 * thread has left the kernel's thread list: wait for that (1 s at most)
 * before closing /dev/snapshot, which thaws.
 */
static void wait_threads_gone(void)
{
	const struct timespec ms = { 0, 1000000 };
	int i;

	for (i = 0; i < 1000 && count_threads() > 1; i++)
		nanosleep(&ms, NULL);
}

/*
 * The stream into /dev/snapshot, processes frozen; then consumed, synced;
 * then the restore, which does not return when it works.
 */
static int restore(struct resume *r)
{
	struct kjh_stream_stats st;
	char path[KJ_PATH_MAX];
	uint64_t t0 = now_ms(), frozen;
	int snap, ret;

	snap = open(kj_path(r->ctx, SNAPSHOT_PATH, path, sizeof(path)),
		    O_WRONLY | O_CLOEXEC);
	if (snap < 0)
		return snapshot_fail(r, path, -errno);
	if (ioctl(snap, SNAPSHOT_FREEZE)) {
		ret = snapshot_fail(r, "freezing tasks", -errno);
		goto out;
	}
	frozen = now_ms();
	/* nothing changed them between the first look and the freeze */
	ret = check_filesystems(r);
	if (ret)
		goto out;
	/*
	 * Chunks past the page cache: no copy, and no cache growing in the
	 * memory the restore needs.
	 */
	kjh_fd_direct(r->fd);
	ret = kjh_swsusp_write(&r->img, snap, &st, r->why, sizeof(r->why));
	if (ret) {
		ret = refused(r, ret);
		goto out;
	}
	ret = set_state(r, KJH_STATE_CONSUMED, (uint64_t)time(NULL));
	if (ret) {
		ret = snapshot_fail(r, "marking the image consumed", ret);
		goto out;
	}
	if (!r->spec->quiet) {
		printf("resume: %s: %" PRIu64 " pages read and verified in %" PRIu64
		       " ms (freeze %" PRIu64 " ms, stream %" PRIu64
		       " ms, of which %" PRIu64 " ms waiting for %u decoders), image consumed, restoring\n",
		       r->spec->target, r->img.hdr.pages, now_ms() - t0,
		       frozen - t0, st.total_ms, st.wait_ms, st.decoders);
		fflush(stdout);
	}
	ret = ioctl(snap, SNAPSHOT_ATOMIC_RESTORE) ? -errno : -EIO;
	/* still here: the kernel did not restore, the image stays whole */
	if (set_state(r, KJH_STATE_COMMITTED, 0))
		kj_warn(r->ctx, "resume: %s: the image stays marked consumed",
			r->spec->target);
	ret = snapshot_fail(r, "the kernel did not restore the image", ret);
out:
	wait_threads_gone();
	close(snap);
	return ret;
}

static int invalidate(struct resume *r)
{
	struct kjh_header hdr;
	const char *done;
	int ret;

	ret = kjh_dev_pread(&r->dev, &hdr, sizeof(hdr), 0);
	if (ret) {
		snprintf(r->why, sizeof(r->why), "reading block 0: %s",
			 strerror(-ret));
		return refused(r, ret);
	}
	if (kjh_header_check(&hdr, r->why, sizeof(r->why)))
		done = "no resumable image";
	else if (!kjh_header_resumable(&hdr))
		done = "not resumable already";
	else
		done = NULL;
	if (!done) {
		ret = kjh_write_invalid(&r->dev, &hdr, KJH_INVALID_BY_REQUEST);
		if (ret) {
			snprintf(r->why, sizeof(r->why), "writing block 0: %s",
				 strerror(-ret));
			return refused(r, ret);
		}
		done = "invalidated: it will never be resumed";
	}
	if (!r->spec->quiet)
		printf("invalidate: %s: %s\n", r->spec->target, done);
	return 0;
}

int kj_invalidate(struct kj_ctx *ctx, const struct kj_resume_spec *spec)
{
	struct resume r = { .ctx = ctx, .spec = spec, .fd = -1,
			    .invalidating = true };
	int ret;

	ret = open_target(&r);
	if (!ret)
		ret = invalidate(&r);
	if (r.have_dev)
		kjh_dev_fini(&r.dev);
	if (r.fd >= 0)
		close(r.fd);
	return ret;
}

int kj_resume(struct kj_ctx *ctx, const struct kj_resume_spec *spec)
{
	struct resume r = { .ctx = ctx, .spec = spec, .fd = -1 };
	char what[64];
	int ret;

	snprintf(what, sizeof(what), "resume: %s", spec->target);
	ret = kjh_host_read(ctx, what, &r.host);
	if (!ret)
		ret = open_target(&r);
	if (!ret)
		ret = check_image(&r);
	if (!ret)
		ret = restore(&r);
	release_filesystems(&r);
	if (r.have_img)
		kjh_image_close(&r.img);
	if (r.have_dev)
		kjh_dev_fini(&r.dev);
	if (r.fd >= 0)
		close(r.fd);
	return ret;
}
