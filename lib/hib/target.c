// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hibernation target, A's side (target.h): the checks, the prepared
 * header and extent list, and block 0 read back.  A block device is
 * opened here; a file target is target-file.c's, the device checks
 * blkdev.c's, the file systems A leaves behind fs-id.c's.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ctx.h"
#include "kjump/hib/crc32c.h"
#include "kjump/hib/image-read.h"
#include "hib/dev-info.h"
#include "hib/signature.h"
#include "hib/target.h"
#include "hib/target-file.h"

/* -------------------------------------------------------- worst case */

uint64_t kjh_worst_case_bytes(uint64_t ram_pages)
{
	uint64_t chunks = (ram_pages + KJH_WORST_CHUNK_PAGES - 1) /
			  KJH_WORST_CHUNK_PAGES;
	uint64_t bytes = KJH_DATA_OFF;

	bytes += kjh_round_up(KJH_WORST_RAM_RANGES *
			      sizeof(struct kjh_ram_range));
	bytes += kjh_round_up(KJH_FS_SLOTS * sizeof(struct kjh_fs));
	bytes += kjh_round_up((ram_pages + 1) * sizeof(struct kjh_run));
	bytes += KJH_BLOCK;
	bytes += chunks *
		 ((uint64_t)KJH_WORST_CHUNK_PAGES * KJH_PAGE + KJH_BLOCK);
	bytes += kjh_round_up(chunks * sizeof(struct kjh_chunk_ref));
	bytes += KJH_BLOCK;
	return bytes;
}

/* ------------------------------------------------------- the target */

static void target_init(struct kjh_target *t)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}

void kjh_target_abandon(struct kj_ctx *ctx, struct kjh_target *t)
{
	uint32_t states = 1u << KJH_STATE_PREPARED | 1u << KJH_STATE_WRITING |
			  1u << KJH_STATE_COMMITTED;

	/* an image that cannot be made invalid keeps its file: no reuse */
	if (t->prepared &&
	    kjh_target_invalidate(ctx, t, states, KJH_INVALID_ABANDONED) < 0)
		t->created = false;
	if (t->created && t->fd >= 0)
		unlink(t->path);
	kjh_target_close(t);
}

void kjh_target_close(struct kjh_target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	free(t->extents);
	t->extents = NULL;
	t->extent_count = 0;
	t->fd = -1;
}

static int single_extent(struct kjh_target *t, uint64_t length)
{
	t->extents = calloc(1, sizeof(*t->extents));
	if (!t->extents)
		return -ENOMEM;
	t->extents[0] = (struct kjh_extent){ 0, 0, length };
	t->extent_count = 1;
	t->capacity = length;
	t->offset = 0;
	return 0;
}

int kjh_target_check_content(struct kj_ctx *ctx, const struct kjh_target *t,
			     bool overwrite)
{
	uint8_t *buf = malloc(KJH_SIGNATURE_BYTES);
	const char *what;
	ssize_t n;
	int ret = 0;

	if (!buf)
		return -ENOMEM;
	n = pread(t->fd, buf, KJH_SIGNATURE_BYTES, 0);
	if (n < 0) {
		ret = -errno;
		kj_err(ctx, "%s: reading what it holds: %s", t->path,
		       strerror(-ret));
		goto out;
	}
	switch (kjh_signature(buf, (size_t)n, &what)) {
	case KJH_CONTENT_EMPTY:
	case KJH_CONTENT_IMAGE:
		break;
	case KJH_CONTENT_KNOWN:
		if (!overwrite) {
			kj_err(ctx, "%s: holds %s: not overwritten (--overwrite to use it anyway)",
			       t->path, what);
			ret = -EEXIST;
		}
		break;
	case KJH_CONTENT_DATA:
		/* a file of data (a typo?); a device may hold anything */
		if (t->is_file && !overwrite) {
			kj_err(ctx, "%s: holds data that is not a kexec hibernation image: not overwritten (--overwrite to use it anyway)",
			       t->path);
			ret = -EEXIST;
		}
		break;
	}
out:
	free(buf);
	return ret;
}

static int open_blkdev(struct kj_ctx *ctx, struct kjh_target *t,
		       uint64_t need, bool overwrite, const struct stat *st)
{
	uint64_t size;
	int ret;

	t->dev_major = major(st->st_rdev);
	t->dev_minor = minor(st->st_rdev);
	ret = kjh_blkdev_check_unused(ctx, t->path, t->dev_major,
				      t->dev_minor);
	if (!ret)
		ret = kjh_blkdev_check_reachable(ctx, t->path, t->dev_major,
						 t->dev_minor);
	if (ret)
		return ret;
	t->fd = open(t->path, O_RDWR | O_EXCL | O_CLOEXEC);
	if (t->fd < 0) {
		ret = -errno;
		if (ret == -EBUSY)
			kj_err(ctx, "%s: busy: the device is mounted or claimed by another user (a file system, device mapper, md, swap)",
			       t->path);
		else
			kj_err(ctx, "%s: cannot open for writing: %s", t->path,
			       strerror(-ret));
		return ret;
	}
	if (ioctl(t->fd, BLKGETSIZE64, &size)) {
		ret = -errno;
		kj_err(ctx, "%s: cannot get the device size: %s", t->path,
		       strerror(-ret));
		return ret;
	}
	t->dev_size = size;
	ret = kjh_target_check_content(ctx, t, overwrite);
	if (ret)
		return ret;
	if (size / KJH_BLOCK * KJH_BLOCK < need) {
		kj_err(ctx, "%s: too small: the image needs %llu bytes for the worst case, the device has %llu",
		       t->path, (unsigned long long)need,
		       (unsigned long long)size);
		return -ENOSPC;
	}
	if (dev_sys_name(ctx, t->dev_major, t->dev_minor, t->dev_name,
			 sizeof(t->dev_name))) {
		const char *base = strrchr(t->path, '/');

		snprintf(t->dev_name, sizeof(t->dev_name), "%s", base ? base + 1 : t->path);
	}
	return single_extent(t, size / KJH_BLOCK * KJH_BLOCK);
}

static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

int kjh_target_open(struct kj_ctx *ctx, const char *path, uint64_t need,
		    bool overwrite, struct kjh_target *t)
{
	struct stat st, lst;
	int ret;

	target_init(t);
	if (strlen(path) >= sizeof(t->path)) {
		kj_err(ctx, "%.64s...: %s", path, strerror(ENAMETOOLONG));
		return -ENAMETOOLONG;
	}
	strcpy(t->path, path);
	if (need < KJH_DATA_OFF)
		need = KJH_DATA_OFF;
	if (need > (uint64_t)INT64_MAX / 2) {
		kj_err(ctx, "%s: the image would need %llu bytes: more than any target holds",
		       path, (unsigned long long)need);
		return -EFBIG;
	}
	if (!stat(path, &st)) {
		if (S_ISBLK(st.st_mode)) {
			ret = open_blkdev(ctx, t, need, overwrite, &st);
		} else if (S_ISREG(st.st_mode) && !lstat(path, &lst) &&
			   S_ISLNK(lst.st_mode)) {
			kj_err(ctx, "%s: a symbolic link to a file: name the file itself",
			       path);
			ret = -ELOOP;
		} else if (S_ISREG(st.st_mode)) {
			ret = target_open_file(ctx, t, need, false, overwrite);
		} else {
			kj_err(ctx, "%s: %s: the target must be a block device or a regular file",
			       path, file_kind(st.st_mode));
			ret = -EINVAL;
		}
	} else if (errno == ENOENT) {
		ret = target_open_file(ctx, t, need, true, overwrite);
	} else {
		ret = -errno;
		kj_err(ctx, "%s: %s", path, strerror(-ret));
	}
	if (ret)
		kjh_target_close(t);
	return ret;
}

/* ----------------------------------------------------------- prepare */

static int write_at(struct kj_ctx *ctx, struct kjh_target *t, uint64_t off,
		    const void *buf, size_t len, const char *what)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = pwrite(t->fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int ret = n < 0 ? -errno : -EIO;

			kj_err(ctx, "%s: writing the %s: %s", t->path, what,
			       strerror(-ret));
			return ret;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* A section: count records of size bytes, zero-padded to blocks. */
static int write_section(struct kj_ctx *ctx, struct kjh_target *t,
			 uint64_t off, const void *rec, size_t count,
			 size_t size, const char *what)
{
	size_t len = (size_t)kjh_round_up((uint64_t)count * size);
	char *buf;
	int ret;

	if (!len)
		return 0;
	buf = calloc(1, len);
	if (!buf) {
		kj_err(ctx, "%s: out of memory", t->path);
		return -ENOMEM;
	}
	memcpy(buf, rec, count * size);
	ret = write_at(ctx, t, off, buf, len, what);
	free(buf);
	return ret;
}

static int write_extents(struct kj_ctx *ctx, struct kjh_target *t,
			 const struct kjh_header *hdr)
{
	size_t len = KJH_EXTENTS_BLOCKS * KJH_BLOCK;
	size_t bytes = t->extent_count * sizeof(struct kjh_extent);
	struct kjh_extents *x;
	char *buf;
	int ret;

	buf = calloc(1, len);
	if (!buf) {
		kj_err(ctx, "%s: out of memory", t->path);
		return -ENOMEM;
	}
	x = (struct kjh_extents *)buf;
	memcpy(x->magic, KJH_EXTENTS_MAGIC, sizeof(x->magic));
	memcpy(x->nonce, hdr->nonce, sizeof(x->nonce));
	x->dev_major = t->dev_major;
	x->dev_minor = t->dev_minor;
	x->dev_size = t->dev_size;
	x->count = t->extent_count;
	x->is_file = t->is_file;
	memcpy(buf + sizeof(*x), t->extents, bytes);
	x->crc = kjh_crc32c(0, buf + sizeof(*x), bytes);
	ret = write_at(ctx, t, KJH_EXTENTS_OFF, buf, len, "extent list");
	free(buf);
	return ret;
}

/* The format fields of hdr; -ENOSPC (reported) if the sections do not fit. */
static int fill_header(struct kj_ctx *ctx, const struct kjh_target *t,
		       struct kjh_header *hdr, uint32_t ram_count,
		       uint32_t fs_count)
{
	uint64_t ram_len = kjh_round_up((uint64_t)ram_count *
				      sizeof(struct kjh_ram_range));
	uint64_t fs_len = kjh_round_up((uint64_t)KJH_FS_SLOTS *
				       sizeof(struct kjh_fs));

	if (ram_count > KJH_WORST_RAM_RANGES || fs_count > KJH_FS_SLOTS) {
		kj_err(ctx, "%s: %u RAM ranges and %u file systems: the image has room for %u and %u",
		       t->path, ram_count, fs_count, KJH_WORST_RAM_RANGES,
		       KJH_FS_SLOTS);
		return -E2BIG;
	}
	if (KJH_DATA_OFF + ram_len + fs_len > t->capacity) {
		kj_err(ctx, "%s: too small: %llu bytes, the header and sections need %llu",
		       t->path, (unsigned long long)t->capacity,
		       (unsigned long long)(KJH_DATA_OFF + ram_len + fs_len));
		return -ENOSPC;
	}
	memcpy(hdr->magic, KJH_MAGIC, sizeof(hdr->magic));
	hdr->version = KJH_VERSION;
	hdr->header_size = KJH_BLOCK;
	hdr->state = KJH_STATE_PREPARED;
	hdr->page_size = KJH_PAGE;
	hdr->capacity = t->capacity;
	hdr->ram_off = KJH_DATA_OFF;
	hdr->ram_count = ram_count;
	hdr->fs_off = KJH_DATA_OFF + ram_len;
	hdr->fs_count = fs_count;
	return 0;
}

int kjh_target_prepare(struct kj_ctx *ctx, struct kjh_target *t,
		       struct kjh_header *hdr,
		       const struct kjh_ram_range *ram, uint32_t ram_count,
		       const struct kjh_fs *fs, uint32_t fs_count)
{
	int ret;

	ret = fill_header(ctx, t, hdr, ram_count, fs_count);
	if (ret)
		return ret;
	memcpy(t->nonce, hdr->nonce, sizeof(t->nonce));
	hdr->sections_crc = kjh_sections_crc(ram, ram_count, fs, fs_count);
	kjh_header_seal(hdr);
	ret = write_extents(ctx, t, hdr);
	if (!ret)
		ret = write_section(ctx, t, hdr->ram_off, ram, ram_count,
				    sizeof(*ram), "RAM map");
	if (!ret)
		ret = write_section(ctx, t, hdr->fs_off, fs, fs_count,
				    sizeof(*fs), "file system table");
	if (!ret && fsync(t->fd)) {
		ret = -errno;
		kj_err(ctx, "%s: fsync: %s", t->path, strerror(-ret));
	}
	if (!ret)
		t->prepared = true;	/* perhaps only partly: invalidate */
	if (!ret)
		ret = write_at(ctx, t, 0, hdr, sizeof(*hdr), "header");
	if (!ret && fsync(t->fd)) {
		ret = -errno;
		kj_err(ctx, "%s: fsync: %s", t->path, strerror(-ret));
	}
	return ret;
}

void kjh_target_after_jump(struct kjh_target *t)
{
	if (t->fd < 0)
		return;
	if (!t->is_file)
		ioctl(t->fd, BLKFLSBUF, 0);
	posix_fadvise(t->fd, 0, 0, POSIX_FADV_DONTNEED);
}

int kjh_target_read_block0(struct kj_ctx *ctx, const struct kjh_target *t,
			   void *block)
{
	void *buf;
	ssize_t n;
	int fd, ret = 0;

	fd = dev_open_node(ctx, t->dev_major, t->dev_minor, 0);
	if (fd < 0)
		return fd;
	if (posix_memalign(&buf, KJH_BLOCK, KJH_BLOCK)) {
		close(fd);
		return -ENOMEM;
	}
	/* past any page cache: B or a resume wrote behind it */
	if (!kjh_fd_direct(fd))
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	n = pread(fd, buf, KJH_BLOCK, (off_t)t->offset);
	if (n != (ssize_t)KJH_BLOCK)
		ret = n < 0 ? -errno : -EIO;
	else
		memcpy(block, buf, KJH_BLOCK);
	free(buf);
	close(fd);
	return ret;
}

int kjh_target_write_block0(struct kj_ctx *ctx, struct kjh_target *t,
			    const struct kjh_header *h)
{
	int ret = write_at(ctx, t, 0, h, sizeof(*h), "header");

	if (!ret && fdatasync(t->fd)) {
		ret = -errno;
		kj_err(ctx, "%s: fdatasync: %s", t->path, strerror(-ret));
	}
	return ret;
}

int kjh_target_invalidate(struct kj_ctx *ctx, struct kjh_target *t,
			  uint32_t states, enum kjh_invalid_why why)
{
	struct kjh_header *h;
	int ret;

	if (posix_memalign((void **)&h, KJH_BLOCK, sizeof(*h)))
		return -ENOMEM;
	ret = kjh_target_read_block0(ctx, t, h);
	if (ret) {
		kj_err(ctx, "%s: reading block 0 back: %s", t->path,
		       strerror(-ret));
		goto out;
	}
	if (kjh_header_check(h, NULL, 0) || h->state >= 32 ||
	    !(states & 1u << h->state) ||
	    memcmp(h->nonce, t->nonce, sizeof(t->nonce)))
		goto out;	/* not this image, or nothing to undo */
	h->state = KJH_STATE_INVALID;
	h->invalid_why = why;
	kjh_header_seal(h);
	ret = kjh_target_write_block0(ctx, t, h);
	if (!ret)
		ret = 1;
out:
	free(h);
	return ret;
}
