// SPDX-License-Identifier: GPL-2.0-only
/*
 * A file as the hibernation target (target-file.h): on a file system
 * whose extents can be trusted, made exactly its size, every block
 * allocated and written, and mapped with FIEMAP into extents of one block
 * device.  Everything B will write goes to those blocks behind the back
 * of A's file system: so a file must have every block allocated and
 * written (an unwritten extent would read back as zeros through the file
 * system, a hole has no blocks at all), must not move (no copy-on-write
 * file system, no reflinked extent) and must be stored as is (no
 * compression, encryption or inline data).
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ctx.h"
#include "file-io.h"
#include "hib/dev-info.h"
#include "hib/target.h"
#include "hib/target-file.h"

#define ZERO_CHUNK	(1u << 20)
#define FIEMAP_BATCH	256u
#define RAW_EXTENTS_MAX	(1u << 20)

/* ------------------------------------------------------ file targets */

struct fs_kind {
	uint32_t magic;
	const char *name;
	const char *why;	/* NULL: allowed */
};

#define COW		"a copy-on-write file system: its extents move when written"
#define NO_DISK		"not on a disk"
#define UNTRUSTED	""	/* the general message */
#define NO_FIEMAP	"Linux's vfat cannot list a file's blocks (no FIEMAP): use a partition, or a file on ext2/3/4 or xfs"

static const struct fs_kind fs_kinds[] = {
	{ 0xef53, "ext2/3/4", NULL },
	{ 0x58465342, "xfs", NULL },
	{ 0x4d44, "vfat", NO_FIEMAP },
	{ 0x9123683e, "btrfs", COW },
	{ 0xca451a4e, "bcachefs", COW },
	{ 0x2fc12fc1, "zfs", COW },
	{ 0x3434, "nilfs2", COW },
	{ 0xf2f52010, "f2fs", COW },
	{ 0x01021994, "tmpfs", NO_DISK },
	{ 0x858458f6, "ramfs", NO_DISK },
	{ 0x6969, "nfs", UNTRUSTED },
	{ 0xff534d42, "cifs", UNTRUSTED },
	{ 0xfe534d42, "smb2", UNTRUSTED },
	{ 0x65735546, "fuse", UNTRUSTED },
	{ 0x794c7630, "overlay", UNTRUSTED },
	{ 0xf15f, "ecryptfs", UNTRUSTED },
	{ 0x2011bab0, "exfat", UNTRUSTED },
	{ 0x5346544e, "ntfs", UNTRUSTED },
	{ 0x73717368, "squashfs", UNTRUSTED },
};

static int check_fs_type(struct kj_ctx *ctx, const char *path, uint32_t magic)
{
	const struct fs_kind *k = NULL;
	char name[32];
	size_t i;

	for (i = 0; i < sizeof(fs_kinds) / sizeof(fs_kinds[0]); i++)
		if (fs_kinds[i].magic == magic)
			k = &fs_kinds[i];
	if (k && !k->why)
		return 0;
	if (k && *k->why) {
		kj_err(ctx, "%s: on %s: %s", path, k->name, k->why);
		return -EINVAL;
	}
	if (k)
		snprintf(name, sizeof(name), "%s", k->name);
	else
		snprintf(name, sizeof(name), "0x%x", magic);
	kj_err(ctx, "%s: extents cannot be trusted on a %s file system (ext2/3/4 and xfs can take an image)",
	       path, name);
	return -EINVAL;
}

/*
 * An xfs realtime file: FIEMAP's offsets are on the realtime device, not
 * the one st_dev names, so B would write the data device.
 */
static int check_realtime(struct kj_ctx *ctx, const char *path, int fd)
{
	struct fsxattr fx;

	if (ioctl(fd, FS_IOC_FSGETXATTR, &fx) ||
	    !(fx.fsx_xflags & FS_XFLAG_REALTIME))
		return 0;
	kj_err(ctx, "%s: an xfs realtime file: its blocks are on the realtime device, which the image's device number does not name",
	       path);
	return -EINVAL;
}

/* Inode flags that store the data otherwise than as raw blocks. */
static int check_inode_flags(struct kj_ctx *ctx, const char *path, int fd,
			     bool written)
{
	static const struct {
		int flag;
		const char *what;
	} bad[] = {
		{ FS_COMPR_FL, "compressed" },
		{ FS_ENCRYPT_FL, "encrypted" },
		{ FS_DAX_FL, "DAX" },
		{ FS_VERITY_FL, "verity-protected" },
		{ FS_INLINE_DATA_FL, "inline data" },
		/* B's blocks could sit in the journal only, or be undone */
		{ FS_JOURNAL_DATA_FL, "data-journaling" },
	};
	int flags = 0;
	size_t i;

	if (ioctl(fd, FS_IOC_GETFLAGS, &flags)) {
		int err = errno;

		if (err == ENOTTY || err == EINVAL || err == EOPNOTSUPP)
			return 0;	/* vfat and the like: no such flags */
		kj_err(ctx, "%s: cannot read its inode flags: %s", path,
		       strerror(err));
		return -err;
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		/* a new, empty file may be inline until written */
		if (!written && bad[i].flag == FS_INLINE_DATA_FL)
			continue;
		if (flags & bad[i].flag) {
			kj_err(ctx, "%s: a %s file: the raw blocks would not be its data",
			       path, bad[i].what);
			return -EINVAL;
		}
	}
	return 0;
}

/* The block device of a file's file system: name and size from sysfs. */
static int file_device(struct kj_ctx *ctx, struct kjh_target *t,
		       const struct stat *st)
{
	unsigned long long sectors;
	char path[KJ_PATH_MAX];
	int ret;

	t->dev_major = major(st->st_dev);
	t->dev_minor = minor(st->st_dev);
	ret = read_ulong(dev_sys_path(ctx, t->dev_major, t->dev_minor, "size",
				      path, sizeof(path)), &sectors);
	if (!ret)
		ret = dev_sys_name(ctx, t->dev_major, t->dev_minor,
				   t->dev_name, sizeof(t->dev_name));
	if (ret) {
		kj_err(ctx, "%s: its file system's device %u:%u is no block device in sysfs: %s",
		       t->path, t->dev_major, t->dev_minor, strerror(-ret));
		return ret;
	}
	t->dev_size = sectors * 512;
	return kjh_blkdev_check_reachable(ctx, t->path, t->dev_major,
					  t->dev_minor);
}

/*
 * ext3/4 mounted data=journal: a block B writes may sit only in the
 * journal A replays, or an older journaled copy may land over it.
 */
static int check_journal_data(struct kj_ctx *ctx, const char *path,
			      const struct stat *st)
{
	struct mount_entry e;
	char *text, *cur, *line;
	int ret = 0;

	if (dev_read_proc(ctx, "/proc/self/mountinfo", &text))
		return 0;	/* no list: the inode flag check still ran */
	cur = text;
	while (!ret && (line = dev_next_line(&cur))) {
		if (dev_mount_parse(line, &e) || e.major != major(st->st_dev) ||
		    e.minor != minor(st->st_dev) ||
		    !dev_has_option(e.super_opts, "data=journal"))
			continue;
		kj_err(ctx, "%s: on a file system mounted data=journal: the raw blocks would not be the file's data",
		       path);
		ret = -EINVAL;
	}
	free(text);
	return ret;
}

static int is_this_file(void *data, char *file)
{
	const struct stat *st = data;
	struct stat sw;

	return !stat(file, &sw) && sw.st_dev == st->st_dev &&
	       sw.st_ino == st->st_ino;
}

/* Active swap files cannot be written (and must not be). */
static int check_not_swapfile(struct kj_ctx *ctx, const char *path,
			      const struct stat *st)
{
	if (dev_each_swap(ctx, is_this_file, (void *)st) <= 0)
		return 0;
	kj_err(ctx, "%s: in use: it is an active swap file", path);
	return -EBUSY;
}

static int check_space(struct kj_ctx *ctx, const char *path, int fd,
		       uint64_t size, const struct stat *st)
{
	uint64_t have = (uint64_t)st->st_blocks * 512, more, avail;
	struct statvfs vfs;

	if (fstatvfs(fd, &vfs)) {
		int err = errno;

		kj_err(ctx, "%s: cannot read the free space: %s", path,
		       strerror(err));
		return -err;
	}
	more = size > have ? size - have : 0;
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (more > avail) {
		kj_err(ctx, "%s: not enough free space: the image needs %llu more bytes for the worst case, the file system has %llu free",
		       path, (unsigned long long)more,
		       (unsigned long long)avail);
		return -ENOSPC;
	}
	return 0;
}

static int write_zeros(struct kj_ctx *ctx, struct kjh_target *t,
		       uint64_t off, uint64_t len)
{
	void *zeros = calloc(1, ZERO_CHUNK);
	ssize_t n;
	int ret = 0;

	if (!zeros) {
		kj_err(ctx, "%s: out of memory", t->path);
		return -ENOMEM;
	}
	while (len) {
		size_t chunk = len < ZERO_CHUNK ? (size_t)len : ZERO_CHUNK;

		n = pwrite(t->fd, zeros, chunk, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			kj_err(ctx, "%s: writing zeros at %llu: %s", t->path,
			       (unsigned long long)off, strerror(-ret));
			break;
		}
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	free(zeros);
	return ret;
}

/* FIEMAP's view of [0, size): the extents as they come, clipped. */
struct raw_map {
	struct fiemap_extent *e;
	uint32_t n, cap;
};

static int raw_add(struct raw_map *m, const struct fiemap_extent *fe,
		   uint64_t size)
{
	struct fiemap_extent *bigger;

	if (fe->fe_logical >= size)
		return 0;
	if (m->n == m->cap) {
		if (m->cap >= RAW_EXTENTS_MAX)
			return -E2BIG;
		m->cap = m->cap ? m->cap * 2 : 64;
		bigger = realloc(m->e, m->cap * sizeof(*m->e));
		if (!bigger)
			return -ENOMEM;
		m->e = bigger;
	}
	m->e[m->n] = *fe;
	if (fe->fe_logical + fe->fe_length > size)
		m->e[m->n].fe_length = size - fe->fe_logical;
	m->n++;
	return 0;
}

static int fiemap_read(struct kj_ctx *ctx, struct kjh_target *t,
		       uint64_t size, struct raw_map *m)
{
	size_t fm_size = sizeof(struct fiemap) +
			 FIEMAP_BATCH * sizeof(struct fiemap_extent);
	struct fiemap *fm = malloc(fm_size);
	uint64_t start = 0;
	bool last = false;
	uint32_t i;
	int ret = 0;

	m->n = 0;
	if (!fm) {
		kj_err(ctx, "%s: out of memory", t->path);
		return -ENOMEM;
	}
	while (!ret && !last && start < size) {
		memset(fm, 0, fm_size);
		fm->fm_start = start;
		fm->fm_length = size - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = FIEMAP_BATCH;
		if (ioctl(t->fd, FS_IOC_FIEMAP, fm)) {
			ret = -errno;
			kj_err(ctx, "%s: cannot list the file's extents (FIEMAP): %s",
			       t->path, strerror(-ret));
			break;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; !ret && i < fm->fm_mapped_extents; i++) {
			struct fiemap_extent *fe = &fm->fm_extents[i];

			ret = raw_add(m, fe, size);
			start = fe->fe_logical + fe->fe_length;
			last = fe->fe_flags & FIEMAP_EXTENT_LAST;
		}
		if (ret == -E2BIG)
			kj_err(ctx, "%s: too fragmented: more than %u extents",
			       t->path, RAW_EXTENTS_MAX);
		else if (ret)
			kj_err(ctx, "%s: out of memory", t->path);
	}
	free(fm);
	return ret;
}

/*
 * Write zeros over every hole and unwritten extent of [0, size): after
 * it, every block is allocated and reads back what B will write there.
 * *wrote tells whether anything was.
 */
static int fill_gaps(struct kj_ctx *ctx, struct kjh_target *t, uint64_t size,
		     const struct raw_map *m, bool *wrote)
{
	uint64_t pos = 0, end;
	uint32_t i;
	int ret = 0;

	*wrote = false;
	for (i = 0; !ret && i < m->n; i++) {
		const struct fiemap_extent *fe = &m->e[i];

		end = fe->fe_logical + fe->fe_length;
		if (fe->fe_logical > pos) {
			ret = write_zeros(ctx, t, pos, fe->fe_logical - pos);
			*wrote = true;
		}
		if (!ret && (fe->fe_flags & FIEMAP_EXTENT_UNWRITTEN)) {
			ret = write_zeros(ctx, t, fe->fe_logical, fe->fe_length);
			*wrote = true;
		}
		if (end > pos)
			pos = end;
	}
	if (!ret && pos < size) {
		ret = write_zeros(ctx, t, pos, size - pos);
		*wrote = true;
	}
	return ret;
}

static const char *bad_extent(uint32_t flags)
{
	static const struct {
		uint32_t flag;
		const char *why;
	} bad[] = {
		{ FIEMAP_EXTENT_UNKNOWN, "has no known place on the device" },
		{ FIEMAP_EXTENT_DELALLOC, "is not allocated yet (delayed allocation)" },
		{ FIEMAP_EXTENT_ENCODED, "is stored encoded (compressed)" },
		{ FIEMAP_EXTENT_DATA_ENCRYPTED, "is encrypted" },
		{ FIEMAP_EXTENT_NOT_ALIGNED, "is not block aligned" },
		{ FIEMAP_EXTENT_DATA_INLINE, "is inline with metadata" },
		{ FIEMAP_EXTENT_DATA_TAIL, "shares its block with other files" },
		{ FIEMAP_EXTENT_UNWRITTEN, "is unwritten (preallocated)" },
		{ FIEMAP_EXTENT_SHARED, "is shared with another file (reflink)" },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (flags & bad[i].flag)
			return bad[i].why;
	return NULL;
}

static int check_extent(struct kj_ctx *ctx, const struct kjh_target *t,
			const struct fiemap_extent *fe, uint64_t pos)
{
	const char *why = bad_extent(fe->fe_flags);
	unsigned long long at = fe->fe_logical;

	if (why) {
		kj_err(ctx, "%s: the extent at file offset %llu %s", t->path,
		       at, why);
		return -EINVAL;
	}
	if (fe->fe_logical != pos) {
		kj_err(ctx, "%s: a hole at file offset %llu: the file is not fully allocated",
		       t->path, (unsigned long long)pos);
		return -EINVAL;
	}
	if (fe->fe_physical % KJH_BLOCK || fe->fe_length % KJH_BLOCK) {
		kj_err(ctx, "%s: the extent at file offset %llu is not %u-byte aligned on the device",
		       t->path, at, KJH_BLOCK);
		return -EINVAL;
	}
	if (fe->fe_physical + fe->fe_length > t->dev_size) {
		kj_err(ctx, "%s: the extent at file offset %llu lies beyond the end of %s",
		       t->path, at, t->dev_name);
		return -EINVAL;
	}
	return 0;
}

/* The checked, merged extent list of [0, size) into t. */
static int build_extents(struct kj_ctx *ctx, struct kjh_target *t,
			 uint64_t size, const struct raw_map *m)
{
	struct kjh_extent *x;
	uint64_t pos = 0;
	uint32_t i, n = 0;
	int ret;

	x = calloc(m->n ? m->n : 1, sizeof(*x));
	if (!x) {
		kj_err(ctx, "%s: out of memory", t->path);
		return -ENOMEM;
	}
	for (i = 0; i < m->n; i++) {
		const struct fiemap_extent *fe = &m->e[i];

		ret = check_extent(ctx, t, fe, pos);
		if (ret)
			goto fail;
		pos += fe->fe_length;
		if (n && x[n - 1].physical + x[n - 1].length == fe->fe_physical) {
			x[n - 1].length += fe->fe_length;
			continue;
		}
		x[n++] = (struct kjh_extent){ fe->fe_logical, fe->fe_physical,
					      fe->fe_length };
	}
	if (pos != size) {
		kj_err(ctx, "%s: a hole at file offset %llu: the file is not fully allocated",
		       t->path, (unsigned long long)pos);
		ret = -EINVAL;
		goto fail;
	}
	if (n > KJH_EXTENTS_MAX) {
		kj_err(ctx, "%s: too fragmented: %u extents, the image format holds %u",
		       t->path, n, (unsigned int)KJH_EXTENTS_MAX);
		ret = -E2BIG;
		goto fail;
	}
	t->extents = x;
	t->extent_count = n;
	t->capacity = size;
	t->offset = x[0].physical;
	return 0;
fail:
	free(x);
	return ret;
}

/* Make [0, size) fully written and map it. */
static int map_file(struct kj_ctx *ctx, struct kjh_target *t, uint64_t size)
{
	struct raw_map m = { NULL, 0, 0 };
	bool wrote;
	int ret;

	ret = fiemap_read(ctx, t, size, &m);
	if (!ret)
		ret = fill_gaps(ctx, t, size, &m, &wrote);
	if (!ret && wrote && fsync(t->fd)) {
		ret = -errno;
		kj_err(ctx, "%s: fsync: %s", t->path, strerror(-ret));
	}
	if (!ret && wrote)
		ret = fiemap_read(ctx, t, size, &m);
	if (!ret)
		ret = check_inode_flags(ctx, t->path, t->fd, true);
	if (!ret)
		ret = build_extents(ctx, t, size, &m);
	free(m.e);
	return ret;
}

static int open_file_fd(struct kj_ctx *ctx, struct kjh_target *t, bool create)
{
	int flags = O_RDWR | O_CLOEXEC | O_NOCTTY;
	int ret;

	/* no symbolic link: the last component is the file, or fails */
	flags |= O_NOFOLLOW;
	if (create)
		flags |= O_CREAT | O_EXCL;
	t->fd = open(t->path, flags, 0600);
	if (t->fd >= 0)
		return 0;
	ret = -errno;
	if (create && ret == -ENOENT)
		kj_err(ctx, "%s: no such directory", t->path);
	else
		kj_err(ctx, "%s: cannot %s: %s", t->path,
		       create ? "create" : "open for writing", strerror(-ret));
	return ret;
}

/* The directory of path must not let others replace what is in it. */
static int check_dir(struct kj_ctx *ctx, const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 :
			 (int)(slash - path), path);
	if (stat(dir, &st)) {
		kj_err(ctx, "%s: %s: %s", path, dir, strerror(errno));
		return -errno;
	}
	if ((st.st_mode & 022) && !(st.st_mode & S_ISVTX)) {
		kj_err(ctx, "%s: its directory %s is writable by others: they could swap the file under the image",
		       path, dir);
		return -EPERM;
	}
	return 0;
}

/*
 * An existing file becomes the image only when it is this user's own,
 * with no other name, and holds nothing else (unless overwrite).
 */
static int check_reuse(struct kj_ctx *ctx, struct kjh_target *t,
		       const struct stat *st, bool overwrite)
{
	if (st->st_uid != geteuid()) {
		kj_err(ctx, "%s: owned by uid %u, not by this user: memory is never written into another's file",
		       t->path, (unsigned int)st->st_uid);
		return -EPERM;
	}
	if (st->st_nlink != 1) {
		kj_err(ctx, "%s: has %u hard links: others may reach it by another name",
		       t->path, (unsigned int)st->st_nlink);
		return -EPERM;
	}
	return kjh_target_check_content(ctx, t, overwrite);
}

/* Mode 0600, and checked: some file systems ignore chmod (vfat). */
static int make_private(struct kj_ctx *ctx, struct kjh_target *t,
			const struct stat *st)
{
	struct stat now;

	if (!(st->st_mode & 077))
		return 0;
	if (fchmod(t->fd, 0600) || fstat(t->fd, &now)) {
		kj_err(ctx, "%s: cannot make it private (0600): %s", t->path,
		       strerror(errno));
		return -errno;
	}
	if (now.st_mode & 077) {
		kj_err(ctx, "%s: stays readable by others (mode %04o): its file system ignores chmod (vfat: mount it with fmask=0077)",
		       t->path, (unsigned int)(now.st_mode & 07777));
		return -EPERM;
	}
	kj_warn(ctx, "%s: was open to others (mode %04o): made 0600", t->path,
		(unsigned int)(st->st_mode & 07777));
	return 0;
}

/* Checks of the open file, then its size, blocks and extents. */
static int setup_file(struct kj_ctx *ctx, struct kjh_target *t,
		      uint64_t need, bool create, bool overwrite)
{
	struct statfs sfs;
	struct stat st;
	uint64_t size;
	int ret;

	if (fstat(t->fd, &st) || fstatfs(t->fd, &sfs)) {
		ret = -errno;
		kj_err(ctx, "%s: %s", t->path, strerror(-ret));
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		kj_err(ctx, "%s: not a regular file any more", t->path);
		return -EINVAL;
	}
	t->is_file = true;
	ret = check_dir(ctx, t->path);
	if (!ret && !create)
		ret = check_reuse(ctx, t, &st, overwrite);
	if (!ret)
		ret = check_fs_type(ctx, t->path, (uint32_t)sfs.f_type);
	if (!ret)
		ret = check_inode_flags(ctx, t->path, t->fd, false);
	if (!ret)
		ret = check_realtime(ctx, t->path, t->fd);
	if (!ret)
		ret = check_journal_data(ctx, t->path, &st);
	if (!ret)
		ret = file_device(ctx, t, &st);
	if (!ret && !create)
		ret = check_not_swapfile(ctx, t->path, &st);
	if (ret)
		return ret;
	size = kjh_round_up(need);
	if ((uint64_t)st.st_size > size)
		size = kjh_round_up((uint64_t)st.st_size);
	ret = check_space(ctx, t->path, t->fd, size, &st);
	if (!ret)
		ret = map_file(ctx, t, size);
	if (!ret)
		ret = make_private(ctx, t, &st);
	return ret;
}

int target_open_file(struct kj_ctx *ctx, struct kjh_target *t,
		     uint64_t need, bool create, bool overwrite)
{
	int ret;

	ret = open_file_fd(ctx, t, create);
	if (ret)
		return ret;
	ret = setup_file(ctx, t, need, create, overwrite);
	if (ret && create)
		unlink(t->path);
	t->created = !ret && create;
	return ret;
}
