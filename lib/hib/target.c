// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hibernation target, A's side (target.h): the checks, a file made
 * fully written and mapped, the prepared header and extent list, and the
 * read-write file systems A leaves behind.
 *
 * Everything B will write goes to the blocks listed here behind the back
 * of A's file system: so a file must have every block allocated and
 * written (an unwritten extent would read back as zeros through the file
 * system, a hole has no blocks at all), must not move (no copy-on-write
 * file system, no reflinked extent) and must be stored as is (no
 * compression, encryption or inline data).
 */
#define _FILE_OFFSET_BITS 64
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
#include "kjump/hib/image-read.h"
#include "hib/target.h"

#define MOUNTINFO_MAX	(16u << 20)
#define ZERO_CHUNK	(1u << 20)
#define FIEMAP_BATCH	256u
#define RAW_EXTENTS_MAX	(1u << 20)

static uint64_t round_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

static uint64_t blocks_for(uint64_t bytes)
{
	return round_up(bytes, KJH_BLOCK);
}

/* src into dst, cut to fit, always terminated. */
static void str_copy(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* ------------------------------------------------------------ crc32c */

/* CRC-32C, bitwise; to become the shared lib/hib/crc32c.c. */
static uint32_t target_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	int k;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78u & -(crc & 1));
	}
	return ~crc;
}

/* -------------------------------------------------------- worst case */

uint64_t kjh_worst_case_bytes(uint64_t ram_pages)
{
	uint64_t chunks = (ram_pages + KJH_WORST_CHUNK_PAGES - 1) /
			  KJH_WORST_CHUNK_PAGES;
	uint64_t bytes = KJH_DATA_OFF;

	bytes += blocks_for(KJH_WORST_RAM_RANGES * sizeof(struct kjh_ram_range));
	bytes += blocks_for(KJH_WORST_FS * sizeof(struct kjh_fs));
	bytes += blocks_for((ram_pages + 1) * sizeof(struct kjh_run));
	bytes += KJH_BLOCK;
	bytes += chunks * ((uint64_t)KJH_WORST_CHUNK_PAGES * KJH_PAGE + KJH_BLOCK);
	bytes += blocks_for(chunks * sizeof(struct kjh_chunk_ref));
	bytes += KJH_BLOCK;
	return bytes;
}

/* --------------------------------------------------------- mountinfo */

struct mount_entry {
	unsigned int major, minor;
	char *mountpoint;
	char *opts;
	char *fstype;
};

/* Undo the \ooo escapes of mountinfo and /proc/swaps, in place. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

/* The next space-separated field of *cur, NUL-terminated, or NULL. */
static char *next_field(char **cur)
{
	char *s = *cur, *start;

	while (*s == ' ')
		s++;
	if (!*s)
		return NULL;
	start = s;
	while (*s && *s != ' ')
		s++;
	if (*s)
		*s++ = '\0';
	*cur = s;
	return start;
}

/* One line of mountinfo, split in place: 0, or -EINVAL. */
static int mount_parse(char *line, struct mount_entry *e)
{
	char *f[6], *opt;
	int i;

	for (i = 0; i < 6; i++) {
		f[i] = next_field(&line);
		if (!f[i])
			return -EINVAL;
	}
	if (sscanf(f[2], "%u:%u", &e->major, &e->minor) != 2)
		return -EINVAL;
	do {
		opt = next_field(&line);
	} while (opt && strcmp(opt, "-"));
	e->fstype = opt ? next_field(&line) : NULL;
	if (!e->fstype)
		return -EINVAL;
	e->mountpoint = f[4];
	e->opts = f[5];
	unescape(e->mountpoint);
	return 0;
}

/* The next line of *cur (NUL-terminated in place), or NULL at the end. */
static char *next_line(char **cur)
{
	char *s = *cur, *nl;

	if (!*s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		*cur = nl + 1;
	} else {
		*cur = s + strlen(s);
	}
	return s;
}

static int read_proc(struct kj_ctx *ctx, const char *abs, char **text)
{
	char path[KJ_PATH_MAX];
	size_t len;

	return read_file(kj_path(ctx, abs, path, sizeof(path)), MOUNTINFO_MAX,
			 text, &len);
}

static bool has_option(const char *opts, const char *name)
{
	size_t n = strlen(name);

	while (opts && *opts) {
		if (!strncmp(opts, name, n) && (opts[n] == ',' || !opts[n]))
			return true;
		opts = strchr(opts, ',');
		if (opts)
			opts++;
	}
	return false;
}

/* ------------------------------------------------------------- sysfs */

static const char *sys_dev_path(struct kj_ctx *ctx, uint32_t major,
				uint32_t minor, const char *file, char *buf,
				size_t size)
{
	char abs[128];

	snprintf(abs, sizeof(abs), "/sys/dev/block/%u:%u%s%s", major, minor,
		 *file ? "/" : "", file);
	return kj_path(ctx, abs, buf, size);
}

static int read_devnum(const char *path, uint32_t *major, uint32_t *minor)
{
	char text[32];
	int ret = read_text(path, text, sizeof(text));

	if (ret)
		return ret;
	return sscanf(text, "%u:%u", major, minor) == 2 ? 0 : -EINVAL;
}

/* DEVNAME of the device's uevent, else its sysfs directory's name. */
static int sys_dev_name(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
			char *name, size_t size)
{
	char path[KJ_PATH_MAX], *text, *line, *cur, *real, *slash;
	size_t len;
	int ret;

	sys_dev_path(ctx, major, minor, "uevent", path, sizeof(path));
	ret = read_file(path, 65536, &text, &len);
	if (!ret) {
		cur = text;
		while ((line = next_line(&cur))) {
			if (strncmp(line, "DEVNAME=", 8) || !line[8])
				continue;
			snprintf(name, size, "%s", line + 8);
			free(text);
			return 0;
		}
		free(text);
	}
	real = realpath(sys_dev_path(ctx, major, minor, "", path, sizeof(path)),
			NULL);
	if (!real)
		return -errno;
	slash = strrchr(real, '/');
	snprintf(name, size, "%s", slash ? slash + 1 : real);
	free(real);
	return 0;
}

/* ------------------------------------------------------- busy checks */

/* What keeps a device busy, for the message. */
struct busy {
	char what[512];
};

static int check_mounted(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
			 const char *name, struct busy *b)
{
	char *text, *cur, *line;
	struct mount_entry e;
	int ret;

	ret = read_proc(ctx, "/proc/self/mountinfo", &text);
	if (ret)
		return ret;
	cur = text;
	while ((line = next_line(&cur))) {
		if (mount_parse(line, &e) || e.major != major ||
		    e.minor != minor)
			continue;
		snprintf(b->what, sizeof(b->what), "%s (%u:%u) is mounted on %s",
			 name, major, minor, e.mountpoint);
		ret = -EBUSY;
		break;
	}
	free(text);
	return ret;
}

/* The block device a /proc/swaps entry names: its sysfs name, or stat. */
static int swap_devnum(struct kj_ctx *ctx, const char *file, uint32_t *major,
		       uint32_t *minor)
{
	const char *base = strrchr(file, '/');
	char abs[512], path[KJ_PATH_MAX];
	struct stat st;

	base = base ? base + 1 : file;
	snprintf(abs, sizeof(abs), "/sys/class/block/%s/dev", base);
	if (!strncmp(file, "/dev/", 5) &&
	    !read_devnum(kj_path(ctx, abs, path, sizeof(path)), major, minor))
		return 0;
	if (stat(file, &st) || !S_ISBLK(st.st_mode))
		return -ENOENT;
	*major = major(st.st_rdev);
	*minor = minor(st.st_rdev);
	return 0;
}

static int check_swap(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
		      const char *name, struct busy *b)
{
	char *text, *cur, *line, *file;
	uint32_t sw_major, sw_minor;
	int ret;

	ret = read_proc(ctx, "/proc/swaps", &text);
	if (ret == -ENOENT)
		return 0;		/* no swap support at all */
	if (ret)
		return ret;
	cur = text;
	next_line(&cur);		/* the heading */
	while ((line = next_line(&cur))) {
		file = next_field(&line);
		if (!file)
			continue;
		unescape(file);
		if (swap_devnum(ctx, file, &sw_major, &sw_minor) ||
		    sw_major != major || sw_minor != minor)
			continue;
		snprintf(b->what, sizeof(b->what), "%s (%u:%u) is active swap",
			 name, major, minor);
		ret = -EBUSY;
		break;
	}
	free(text);
	return ret;
}

static int check_holders(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
			 const char *name, struct busy *b)
{
	char path[KJ_PATH_MAX];
	struct dirent *d;
	int ret = 0;
	DIR *dir;

	dir = opendir(sys_dev_path(ctx, major, minor, "holders", path,
				   sizeof(path)));
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(b->what, sizeof(b->what),
			 "%s (%u:%u) is held by %s (device mapper, md or lvm)",
			 name, major, minor, d->d_name);
		ret = -EBUSY;
		break;
	}
	closedir(dir);
	return ret;
}

static int check_one(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
		     struct busy *b)
{
	char name[64];
	int ret;

	if (sys_dev_name(ctx, major, minor, name, sizeof(name)))
		snprintf(name, sizeof(name), "device");
	ret = check_mounted(ctx, major, minor, name, b);
	if (!ret)
		ret = check_swap(ctx, major, minor, name, b);
	if (!ret)
		ret = check_holders(ctx, major, minor, name, b);
	return ret;
}

/* Every partition of a whole disk (sysfs child dirs with "partition"). */
static int check_partitions(struct kj_ctx *ctx, uint32_t major,
			    uint32_t minor, struct busy *b)
{
	char dir_path[KJ_PATH_MAX], path[KJ_PATH_MAX * 2];
	uint32_t p_major, p_minor;
	struct dirent *d;
	struct stat st;
	int ret = 0;
	DIR *dir;

	sys_dev_path(ctx, major, minor, "", dir_path, sizeof(dir_path));
	dir = opendir(dir_path);
	if (!dir)
		return 0;
	while (!ret && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/partition", dir_path,
			 d->d_name);
		if (stat(path, &st))
			continue;
		snprintf(path, sizeof(path), "%s/%s/dev", dir_path, d->d_name);
		if (read_devnum(path, &p_major, &p_minor))
			continue;
		ret = check_one(ctx, p_major, p_minor, b);
	}
	closedir(dir);
	return ret;
}

/* A partition's disk (the sysfs parent directory); -ENOENT if none. */
static int parent_disk(struct kj_ctx *ctx, uint32_t major, uint32_t minor,
		       uint32_t *d_major, uint32_t *d_minor)
{
	char path[KJ_PATH_MAX], *real, *slash;
	struct stat st;
	int ret;

	if (stat(sys_dev_path(ctx, major, minor, "partition", path,
			      sizeof(path)), &st))
		return -ENOENT;
	real = realpath(sys_dev_path(ctx, major, minor, "", path, sizeof(path)),
			NULL);
	if (!real)
		return -errno;
	slash = strrchr(real, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/dev", real);
	free(real);
	ret = read_devnum(path, d_major, d_minor);
	return ret;
}

int kjh_blkdev_check_unused(struct kj_ctx *ctx, const char *path,
			    uint32_t major, uint32_t minor)
{
	uint32_t d_major, d_minor;
	struct busy b = { "" };
	int ret;

	ret = check_one(ctx, major, minor, &b);
	if (!ret)
		ret = check_partitions(ctx, major, minor, &b);
	if (!ret && !parent_disk(ctx, major, minor, &d_major, &d_minor))
		ret = check_one(ctx, d_major, d_minor, &b);
	if (ret == -EBUSY)
		kj_err(ctx, "%s: in use: %s", path, b.what);
	else if (ret)
		kj_err(ctx, "%s: cannot tell whether the device is in use: %s",
		       path, strerror(-ret));
	return ret;
}

/* ------------------------------------------------------- the target */

static void target_init(struct kjh_target *t)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}

void kjh_target_abandon(struct kjh_target *t)
{
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

static int open_blkdev(struct kj_ctx *ctx, struct kjh_target *t,
		       uint64_t need, const struct stat *st)
{
	uint64_t size;
	int ret;

	t->dev_major = major(st->st_rdev);
	t->dev_minor = minor(st->st_rdev);
	ret = kjh_blkdev_check_unused(ctx, t->path, t->dev_major,
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
	if (size / KJH_BLOCK * KJH_BLOCK < need) {
		kj_err(ctx, "%s: too small: the image needs %llu bytes for the worst case, the device has %llu",
		       t->path, (unsigned long long)need,
		       (unsigned long long)size);
		return -ENOSPC;
	}
	if (sys_dev_name(ctx, t->dev_major, t->dev_minor, t->dev_name,
			 sizeof(t->dev_name))) {
		const char *base = strrchr(t->path, '/');

		str_copy(t->dev_name, sizeof(t->dev_name), base ? base + 1 : t->path);
	}
	return single_extent(t, size / KJH_BLOCK * KJH_BLOCK);
}

/* ------------------------------------------------------ file targets */

struct fs_kind {
	uint32_t magic;
	const char *name;
	const char *why;	/* NULL: allowed */
};

#define COW		"a copy-on-write file system: its extents move when written"
#define NO_DISK		"not on a disk"
#define UNTRUSTED	""	/* the general message */

static const struct fs_kind fs_kinds[] = {
	{ 0xef53, "ext2/3/4", NULL },
	{ 0x58465342, "xfs", NULL },
	{ 0x4d44, "vfat", NULL },
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
		str_copy(name, sizeof(name), k->name);
	else
		snprintf(name, sizeof(name), "0x%x", magic);
	kj_err(ctx, "%s: extents cannot be trusted on a %s file system (ext2/3/4, xfs and vfat can take an image)",
	       path, name);
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
	ret = read_ulong(sys_dev_path(ctx, t->dev_major, t->dev_minor, "size",
				      path, sizeof(path)), &sectors);
	if (!ret)
		ret = sys_dev_name(ctx, t->dev_major, t->dev_minor,
				   t->dev_name, sizeof(t->dev_name));
	if (ret) {
		kj_err(ctx, "%s: its file system's device %u:%u is no block device in sysfs: %s",
		       t->path, t->dev_major, t->dev_minor, strerror(-ret));
		return ret;
	}
	t->dev_size = sectors * 512;
	return 0;
}

/* Active swap files cannot be written (and must not be). */
static int check_not_swapfile(struct kj_ctx *ctx, const char *path,
			      const struct stat *st)
{
	char *text, *cur, *line, *file;
	struct stat sw;
	int ret;

	ret = read_proc(ctx, "/proc/swaps", &text);
	if (ret)
		return 0;
	cur = text;
	next_line(&cur);
	while ((line = next_line(&cur))) {
		file = next_field(&line);
		if (!file)
			continue;
		unescape(file);
		if (stat(file, &sw) || sw.st_dev != st->st_dev ||
		    sw.st_ino != st->st_ino)
			continue;
		kj_err(ctx, "%s: in use: it is an active swap file", path);
		ret = -EBUSY;
		break;
	}
	free(text);
	return ret;
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

	if (create)
		flags |= O_CREAT | O_EXCL | O_NOFOLLOW;
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

/* Checks of the open file, then its size, blocks and extents. */
static int setup_file(struct kj_ctx *ctx, struct kjh_target *t,
		      uint64_t need, bool create)
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
	ret = check_fs_type(ctx, t->path, (uint32_t)sfs.f_type);
	if (!ret)
		ret = check_inode_flags(ctx, t->path, t->fd, false);
	if (!ret)
		ret = file_device(ctx, t, &st);
	if (!ret && !create)
		ret = check_not_swapfile(ctx, t->path, &st);
	if (ret)
		return ret;
	size = round_up(need, KJH_BLOCK);
	if ((uint64_t)st.st_size > size)
		size = round_up((uint64_t)st.st_size, KJH_BLOCK);
	ret = check_space(ctx, t->path, t->fd, size, &st);
	if (!ret)
		ret = map_file(ctx, t, size);
	if (ret)
		return ret;
	if (st.st_mode & 077) {
		if (fchmod(t->fd, 0600)) {
			ret = -errno;
			kj_err(ctx, "%s: cannot make it private (0600): %s",
			       t->path, strerror(-ret));
			return ret;
		}
		kj_warn(ctx, "%s: was open to others (mode %04o): made 0600",
			t->path, (unsigned int)(st.st_mode & 07777));
	}
	t->is_file = true;
	return 0;
}

static int open_file(struct kj_ctx *ctx, struct kjh_target *t, uint64_t need,
		     bool create)
{
	int ret;

	ret = open_file_fd(ctx, t, create);
	if (ret)
		return ret;
	ret = setup_file(ctx, t, need, create);
	if (ret && create)
		unlink(t->path);
	t->created = !ret && create;
	return ret;
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
		    struct kjh_target *t)
{
	struct stat st;
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
		if (S_ISBLK(st.st_mode))
			ret = open_blkdev(ctx, t, need, &st);
		else if (S_ISREG(st.st_mode))
			ret = open_file(ctx, t, need, false);
		else {
			kj_err(ctx, "%s: %s: the target must be a block device or a regular file",
			       path, file_kind(st.st_mode));
			ret = -EINVAL;
		}
	} else if (errno == ENOENT) {
		ret = open_file(ctx, t, need, true);
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
	size_t len = (size_t)blocks_for((uint64_t)count * size);
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
	x->crc = target_crc32c(0, buf + sizeof(*x), bytes);
	ret = write_at(ctx, t, KJH_EXTENTS_OFF, buf, len, "extent list");
	free(buf);
	return ret;
}

/* The format fields of hdr; -ENOSPC (reported) if the sections do not fit. */
static int fill_header(struct kj_ctx *ctx, const struct kjh_target *t,
		       struct kjh_header *hdr, uint32_t ram_count,
		       uint32_t fs_count)
{
	uint64_t ram_len = blocks_for((uint64_t)ram_count *
				      sizeof(struct kjh_ram_range));
	uint64_t fs_len = blocks_for((uint64_t)fs_count * sizeof(struct kjh_fs));

	if (ram_count > KJH_WORST_RAM_RANGES || fs_count > KJH_WORST_FS) {
		kj_err(ctx, "%s: %u RAM ranges and %u file systems: the image has room for %u and %u",
		       t->path, ram_count, fs_count, KJH_WORST_RAM_RANGES,
		       KJH_WORST_FS);
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
	hdr->header_crc = 0;
	hdr->header_crc = target_crc32c(0, hdr, sizeof(*hdr));
	return 0;
}

int kjh_target_prepare(struct kj_ctx *ctx, struct kjh_target *t,
		       struct kjh_header *hdr,
		       const struct kjh_ram_range *ram, uint32_t ram_count,
		       const struct kjh_fs *fs, uint32_t fs_count)
{
	int ret;

	ret = fill_header(ctx, t, hdr, ram_count, fs_count);
	if (!ret)
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

/* ------------------------------------------------- rw file systems */

#define EXT_SB_OFF		1024
#define EXT_SB_SIZE		1024
#define EXT_SB_MTIME		0x2c
#define EXT_SB_WTIME		0x30
#define EXT_SB_MNT_COUNT	0x34
#define EXT_SB_MAGIC		0x38
#define EXT_SB_UUID		0x68
#define EXT_SB_WTIME_HI		0x274
#define EXT_SB_MTIME_HI		0x275

static uint32_t le32_at(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16_at(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* A block device node made for the purpose in /tmp, opened, removed. */
static int open_made_node(uint32_t major, uint32_t minor)
{
	char dir[] = "/tmp/kjump.XXXXXX", path[64];
	int fd;

	if (!mkdtemp(dir))
		return -errno;
	snprintf(path, sizeof(path), "%s/dev", dir);
	fd = mknod(path, S_IFBLK | 0600, makedev(major, minor)) ? -errno : 0;
	if (!fd) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			fd = -errno;
		unlink(path);
	}
	rmdir(dir);
	return fd;
}

/*
 * An open node of the device: /dev/block/M:m or /dev/DEVNAME (below the
 * root prefix: tests put a plain file there), else on the real system
 * one made in /tmp (A may have no node for it).
 */
static int open_dev_node(struct kj_ctx *ctx, uint32_t major, uint32_t minor)
{
	char abs[128], path[KJ_PATH_MAX], name[64];
	int fd;

	snprintf(abs, sizeof(abs), "/dev/block/%u:%u", major, minor);
	fd = open(kj_path(ctx, abs, path, sizeof(path)), O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return fd;
	if (!sys_dev_name(ctx, major, minor, name, sizeof(name))) {
		snprintf(abs, sizeof(abs), "/dev/%s", name);
		fd = open(kj_path(ctx, abs, path, sizeof(path)),
			  O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			return fd;
	}
	if (*kj_ctx_root(ctx))
		return -ENOENT;
	return open_made_node(major, minor);
}

int kjh_fs_probe_ext(struct kj_ctx *ctx, struct kjh_fs *f, char *why,
		     size_t why_size)
{
	unsigned char sb[EXT_SB_SIZE];
	struct stat st;
	ssize_t n;
	int fd, ret = 0;

	fd = open_dev_node(ctx, f->dev_major, f->dev_minor);
	if (fd < 0) {
		snprintf(why, why_size, "cannot open its device to read the superblock: %s",
			 strerror(-fd));
		return fd;
	}
	if (!fstat(fd, &st) && S_ISBLK(st.st_mode) &&
	    st.st_rdev != makedev(f->dev_major, f->dev_minor)) {
		snprintf(why, why_size, "its device node is another device");
		ret = -ENODEV;
		goto out;
	}
	n = pread(fd, sb, sizeof(sb), EXT_SB_OFF);
	if (n != (ssize_t)sizeof(sb) || le16_at(sb + EXT_SB_MAGIC) != 0xef53) {
		ret = n < 0 ? -errno : -EINVAL;
		snprintf(why, why_size, "no %s superblock: %s", f->type,
			 n < 0 ? strerror(-ret) : "bad magic or short read");
		goto out;
	}
	memcpy(f->uuid, sb + EXT_SB_UUID, sizeof(f->uuid));
	f->wtime = le32_at(sb + EXT_SB_WTIME) |
		   (uint64_t)sb[EXT_SB_WTIME_HI] << 32;
	f->mtime = le32_at(sb + EXT_SB_MTIME) |
		   (uint64_t)sb[EXT_SB_MTIME_HI] << 32;
	f->mnt_count = le16_at(sb + EXT_SB_MNT_COUNT);
out:
	close(fd);
	return ret;
}

int kjh_target_read_block0(struct kj_ctx *ctx, const struct kjh_target *t,
			   void *block)
{
	void *buf;
	ssize_t n;
	int fd, ret = 0;

	fd = open_dev_node(ctx, t->dev_major, t->dev_minor);
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

static int read_ext_sb(struct kj_ctx *ctx, struct kjh_fs *f)
{
	char why[160];
	int ret;

	ret = kjh_fs_probe_ext(ctx, f, why, sizeof(why));
	if (ret)
		kj_err(ctx, "%s (%u:%u): %s", f->mountpoint, f->dev_major,
		       f->dev_minor, why);
	return ret;
}

static bool is_ext(const char *type)
{
	return !strcmp(type, "ext2") || !strcmp(type, "ext3") ||
	       !strcmp(type, "ext4");
}

static bool seen(const struct kjh_fs *fs, uint32_t n, const struct mount_entry *e)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (fs[i].dev_major == e->major && fs[i].dev_minor == e->minor)
			return true;
	return false;
}

static int add_fs(struct kj_ctx *ctx, struct kjh_fs **fs, uint32_t *n,
		  uint32_t *cap, const struct mount_entry *e)
{
	struct kjh_fs *f, *bigger;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		bigger = realloc(*fs, *cap * sizeof(**fs));
		if (!bigger) {
			kj_err(ctx, "file systems: out of memory");
			return -ENOMEM;
		}
		*fs = bigger;
	}
	f = &(*fs)[(*n)++];
	memset(f, 0, sizeof(*f));
	f->dev_major = e->major;
	f->dev_minor = e->minor;
	str_copy(f->type, sizeof(f->type), e->fstype);
	str_copy(f->mountpoint, sizeof(f->mountpoint), e->mountpoint);
	return is_ext(f->type) ? read_ext_sb(ctx, f) : 0;
}

int kjh_rw_filesystems(struct kj_ctx *ctx, struct kjh_fs **fs,
		       uint32_t *count)
{
	char *text, *cur, *line;
	struct kjh_fs *list = NULL;
	uint32_t n = 0, cap = 0;
	struct mount_entry e;
	int ret;

	sync();
	ret = read_proc(ctx, "/proc/self/mountinfo", &text);
	if (ret) {
		kj_err(ctx, "/proc/self/mountinfo: %s", strerror(-ret));
		return ret;
	}
	cur = text;
	while (!ret && (line = next_line(&cur))) {
		if (mount_parse(line, &e) || !e.major ||
		    !has_option(e.opts, "rw") || seen(list, n, &e))
			continue;
		ret = add_fs(ctx, &list, &n, &cap, &e);
	}
	free(text);
	if (ret) {
		free(list);
		return ret;
	}
	*fs = n ? list : NULL;
	if (!n)
		free(list);
	*count = n;
	return 0;
}
