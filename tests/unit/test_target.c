// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hibernation target, A's side (lib/hib/target.c): the worst-case
 * size, the "is the device in use" checks and the read-write file system
 * table against a fake root, and real file targets in $TMPDIR (when its
 * file system can hold one) with their refusals.
 */
#define _FILE_OFFSET_BITS 64
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>

#include "ctx.h"
#include "hib/signature.h"
#include "hib/target.h"
#include "kjump/hib/image-read.h"
#include "unit.h"

/* An independent bitwise CRC-32C, to check what the target wrote. */
static uint32_t crc32c(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t crc = 0xffffffffu;
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc & 1 ? (crc >> 1) ^ 0x82f63b78u : crc >> 1;
	}
	return crc ^ 0xffffffffu;
}

static void mkdirs(struct unit_ctx *ctx, const char *root, const char *rel)
{
	char path[4096], *p, c;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		c = *p;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			FAILF("mkdir %s: %s", path, strerror(errno));
		*p = c;
		if (!c)
			break;
	}
}

static void put(struct unit_ctx *ctx, const char *root, const char *rel,
		const char *text)
{
	char dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", rel);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		mkdirs(ctx, root, dir);
	}
	unit_write_file(ctx, root, rel, text, (size_t)-1);
}

static void link_to(struct unit_ctx *ctx, const char *root, const char *rel,
		    const char *target)
{
	char path[4096], dir[4096], *slash;

	snprintf(dir, sizeof(dir), "%s", rel);
	slash = strrchr(dir, '/');
	*slash = '\0';
	mkdirs(ctx, root, dir);
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (symlink(target, path))
		FAILF("symlink %s: %s", path, strerror(errno));
}

/* A block device in the fake sysfs: devices/block/DISK[/PART]. */
static void fake_dev(struct unit_ctx *ctx, const char *root, const char *disk,
		     const char *part, unsigned int major, unsigned int minor)
{
	char rel[256], text[64], target[1024];
	const char *name = part ? part : disk;

	if (part)
		snprintf(rel, sizeof(rel), "sys/devices/block/%s/%s", disk,
			 part);
	else
		snprintf(rel, sizeof(rel), "sys/devices/block/%s", disk);
	snprintf(text, sizeof(text), "%u:%u\n", major, minor);
	snprintf(target, sizeof(target), "%s/dev", rel);
	put(ctx, root, target, text);
	snprintf(target, sizeof(target), "%s/uevent", rel);
	snprintf(text, sizeof(text), "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\n", major,
		 minor, name);
	put(ctx, root, target, text);
	snprintf(target, sizeof(target), "%s/holders", rel);
	mkdirs(ctx, root, target);
	if (part) {
		snprintf(target, sizeof(target), "%s/partition", rel);
		put(ctx, root, target, "1\n");
	}
	snprintf(target, sizeof(target), "../../%s", rel + 4);
	snprintf(text, sizeof(text), "sys/dev/block/%u:%u", major, minor);
	link_to(ctx, root, text, target);
	snprintf(target, sizeof(target), "../../%s", rel + 4);
	snprintf(text, sizeof(text), "sys/class/block/%s", name);
	link_to(ctx, root, text, target);
}

/* ------------------------------------------------------- worst case */

TEST(worst_case_formula)
{
	/*
	 * 17 blocks + 3 (sections: the RAM map's, two of file system
	 * slots) + 1 (runs) + 1 (swsusp) + 1 (commit)
	 */
	CHECK_EQ_U64(kjh_worst_case_bytes(0), 94208);
	/* + one chunk (65 blocks) + one index block */
	CHECK_EQ_U64(kjh_worst_case_bytes(64), 94208 + 266240 + 4096);
	/* 65 pages: two chunks; 33 runs still fit a block */
	CHECK_EQ_U64(kjh_worst_case_bytes(65), 94208 + 2 * 266240 + 4096);
	/*
	 * 1 GiB: runs (262145 * 16 bytes = 1025 blocks), 4096 chunks,
	 * index 16 blocks.
	 */
	CHECK_EQ_U64(kjh_worst_case_bytes(262144),
		     69632 + 12288 + 1025 * 4096ull + 4096 +
		     4096ull * 266240 + 65536 + 4096);
	CHECK_EQ_U64(kjh_worst_case_bytes(262144), 1094873088ull);
}

/* ------------------------------------------------------ busy checks */

/*
 * sda: sda1 free, sda2 mounted; sdb: sdb1 swap; sdc held by dm-0; sdd
 * mounted whole with a partition sdd1; sde free with nothing at all.
 */
static const char *busy_root(struct unit_ctx *ctx)
{
	const char *root = unit_tmpdir(ctx);

	fake_dev(ctx, root, "sda", NULL, 8, 0);
	fake_dev(ctx, root, "sda", "sda1", 8, 1);
	fake_dev(ctx, root, "sda", "sda2", 8, 2);
	fake_dev(ctx, root, "sdb", NULL, 8, 16);
	fake_dev(ctx, root, "sdb", "sdb1", 8, 17);
	fake_dev(ctx, root, "sdc", NULL, 8, 32);
	put(ctx, root, "sys/devices/block/sdc/holders/dm-0", "");
	fake_dev(ctx, root, "sdd", NULL, 8, 48);
	fake_dev(ctx, root, "sdd", "sdd1", 8, 49);
	fake_dev(ctx, root, "sde", NULL, 8, 64);
	put(ctx, root, "proc/self/mountinfo",
	    "22 1 253:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	    "23 22 0:5 / /proc rw - proc proc rw\n"
	    "24 22 8:2 / /mnt/my\\040disk rw shared:2 - ext4 /dev/sda2 rw\n"
	    "25 22 8:48 / /whole ro - ext2 /dev/sdd ro\n");
	put(ctx, root, "proc/swaps",
	    "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/sdb1                               partition\t1048572\t\t0\t\t-2\n");
	return root;
}

static void check_busy(struct unit_ctx *ctx, struct kj_ctx *kj,
		       unsigned int minor, const char *needle)
{
	const char *err;
	int ret;

	unit_capture_start(ctx);
	ret = kjh_blkdev_check_unused(kj, "/dev/x", 8, minor);
	err = unit_capture_stop(ctx);
	if (!needle) {
		CHECK_EQ_INT(ret, 0);
		CHECK_NO_OUTPUT(err);
		return;
	}
	CHECK_EQ_INT(ret, -EBUSY);
	CHECK_ERR_LINE(err, "/dev/x: in use: ");
	CHECK_ERR_LINE(err, needle);
}

TEST(busy_mounted)
{
	struct kj_ctx *kj = unit_kj(ctx, busy_root(ctx));

	check_busy(ctx, kj, 2, "sda2 (8:2) is mounted on /mnt/my disk");
	/* the whole disk, for a partition of it */
	check_busy(ctx, kj, 0, "sda2 (8:2) is mounted on /mnt/my disk");
	/* a sibling partition is fine */
	check_busy(ctx, kj, 1, NULL);
	/* a partition of a disk mounted whole (even read-only) */
	check_busy(ctx, kj, 49, "sdd (8:48) is mounted on /whole");
	check_busy(ctx, kj, 64, NULL);
}

TEST(busy_swap_and_holders)
{
	struct kj_ctx *kj = unit_kj(ctx, busy_root(ctx));

	check_busy(ctx, kj, 17, "sdb1 (8:17) is active swap");
	check_busy(ctx, kj, 16, "sdb1 (8:17) is active swap");
	check_busy(ctx, kj, 32, "sdc (8:32) is held by dm-0");
}

static void check_unreachable(struct unit_ctx *ctx, struct kj_ctx *kj,
			      unsigned int major, const char *needle)
{
	const char *err;
	int ret;

	unit_capture_start(ctx);
	ret = kjh_blkdev_check_reachable(kj, "/dev/x", major, major == 8);
	err = unit_capture_stop(ctx);
	if (!needle) {
		CHECK_EQ_INT(ret, 0);
		CHECK_NO_OUTPUT(err);
		return;
	}
	CHECK_EQ_INT(ret, -EXDEV);
	CHECK_ERR_LINE(err, needle);
}

/* Devices B's bare initramfs has no stack for: dm, md, loop. */
TEST(unreachable_stacked)
{
	const char *root = unit_tmpdir(ctx);
	struct kj_ctx *kj = unit_kj(ctx, root);

	fake_dev(ctx, root, "dm-0", NULL, 253, 0);
	put(ctx, root, "sys/devices/block/dm-0/dm/name", "vg-root\n");
	fake_dev(ctx, root, "md0", NULL, 9, 0);
	put(ctx, root, "sys/devices/block/md0/md/level", "raid1\n");
	fake_dev(ctx, root, "loop0", NULL, 7, 0);
	put(ctx, root, "sys/devices/block/loop0/loop/offset", "0\n");
	fake_dev(ctx, root, "sda", "sda1", 8, 1);
	check_unreachable(ctx, kj, 253, "/dev/x: on a device-mapper device (LVM, LUKS, multipath) (253:0): the crash kernel cannot reach it; use a partition of a disk");
	check_unreachable(ctx, kj, 9, "/dev/x: on an md RAID device (9:0)");
	check_unreachable(ctx, kj, 7, "/dev/x: on a loop device (7:0)");
	check_unreachable(ctx, kj, 8, NULL);
}

TEST(busy_unknown)
{
	struct kj_ctx *kj = unit_kj(ctx, unit_tmpdir(ctx));
	const char *err;

	unit_capture_start(ctx);
	CHECK_EQ_INT(kjh_blkdev_check_unused(kj, "/dev/x", 8, 0), -ENOENT);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "/dev/x: cannot tell whether the device is in use");
}

/* ------------------------------------------------ rw file systems */

/* An ext superblock with uuid bytes uuid_byte, uuid_byte + 1, ... */
static void fake_ext_sb(struct unit_ctx *ctx, const char *root,
			const char *rel, uint8_t uuid_byte)
{
	unsigned char img[2048] = { 0 }, *sb = img + 1024;
	char dir[512], *slash;
	int i;

	sb[0x38] = 0x53;
	sb[0x39] = 0xef;
	for (i = 0; i < 16; i++)
		sb[0x68 + i] = (unsigned char)(uuid_byte + i);
	snprintf(dir, sizeof(dir), "%s", rel);
	slash = strrchr(dir, '/');
	*slash = '\0';
	mkdirs(ctx, root, dir);
	unit_write_file(ctx, root, rel, img, sizeof(img));
}

static void free_fs(void *p)
{
	free(*(struct kjh_fs **)p);
}

TEST(rw_filesystems)
{
	const char *root = unit_tmpdir(ctx);
	struct kj_ctx *kj = unit_kj(ctx, root);
	struct kjh_fs **fs = unit_alloc(ctx, sizeof(*fs));
	uint8_t zero[16] = { 0 };
	uint32_t n = 99;

	unit_defer(ctx, free_fs, fs);
	put(ctx, root, "proc/self/mountinfo",
	    "22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n"
	    "23 22 8:2 /home /home rw,nosuid - ext4 /dev/sda2 rw\n"
	    "24 22 0:21 / /proc rw - proc proc rw\n"
	    "25 22 8:1 / /boot ro,relatime - ext4 /dev/sda1 ro\n"
	    "26 22 8:17 / /data rw,noatime shared:2 master:3 - xfs /dev/sdb1 rw\n"
	    "27 22 8:3 / /mnt/a\\040b rw - ext2 /dev/sda3 rw\n"
	    "28 22 8:4 / /boot/efi rw - vfat /dev/sda4 rw\n");
	put(ctx, root, "proc/swaps",
	    "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	unit_capture_start(ctx);
	CHECK_EQ_INT(kjh_rw_filesystems(kj, true, fs, &n), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK_EQ_INT(n, 4);

	CHECK_STR((*fs)[0].type, "ext4");
	CHECK_STR((*fs)[0].name, "/");
	CHECK_EQ_INT((*fs)[0].dev_major, 8);
	CHECK_EQ_INT((*fs)[0].dev_minor, 2);
	/* B reads the fingerprints, once A is frozen */
	CHECK_MEM((*fs)[0].uuid, zero, 16);
	CHECK_EQ_INT((*fs)[0].flags, 0);
	CHECK_STR((*fs)[1].type, "xfs");
	CHECK_STR((*fs)[1].name, "/data");
	CHECK_EQ_INT((*fs)[1].dev_minor, 17);
	CHECK_STR((*fs)[2].type, "ext2");
	CHECK_STR((*fs)[2].name, "/mnt/a b");
	CHECK_STR((*fs)[3].type, "vfat");
	CHECK_STR((*fs)[3].name, "/boot/efi");
}

TEST(rw_filesystems_refused)
{
	const char *root = unit_tmpdir(ctx);
	struct kj_ctx *kj = unit_kj(ctx, root);
	struct kjh_fs **fs = unit_alloc(ctx, sizeof(*fs));
	uint32_t n = 0;
	const char *err;

	unit_defer(ctx, free_fs, fs);
	put(ctx, root, "proc/self/mountinfo",
	    "22 1 8:2 / / rw - ext4 /dev/sda2 rw\n"
	    "23 22 8:5 / /srv rw - f2fs /dev/sda5 rw\n");
	unit_capture_start(ctx);
	CHECK_EQ_INT(kjh_rw_filesystems(kj, true, fs, &n), -EOPNOTSUPP);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "/srv (f2fs on 8:5): a resume could not tell whether a f2fs file system changed in between: unmount it or remount it read-only");
	free(*fs);
	*fs = NULL;
	/* a snapshot is never resumed: nothing to check */
	CHECK_EQ_INT(kjh_rw_filesystems(kj, false, fs, &n), 0);
	CHECK_EQ_INT(n, 2);
	free(*fs);
	*fs = NULL;

	put(ctx, root, "proc/self/mountinfo",
	    "22 1 8:2 / / rw - ext4 /dev/sda2 rw\n");
	put(ctx, root, "proc/swaps",
	    "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	    "/dev/sda6                               partition\t1048572\t\t0\t\t-2\n");
	unit_capture_start(ctx);
	CHECK_EQ_INT(kjh_rw_filesystems(kj, true, fs, &n), -EBUSY);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "swap /dev/sda6 is in use: a boot before the resume could use it and overwrite what A swapped out: swapoff it first");
	free(*fs);
	*fs = NULL;
	CHECK_EQ_INT(kjh_rw_filesystems(kj, false, fs, &n), 0);

	/* nothing read-write on a block device: an empty table */
	put(ctx, root, "proc/self/mountinfo",
	    "22 1 8:2 / / ro - ext4 /dev/sda2 ro\n");
	free(*fs);
	*fs = NULL;
	CHECK_EQ_INT(kjh_rw_filesystems(kj, false, fs, &n), 0);
	CHECK_EQ_INT(n, 0);
	CHECK(*fs == NULL);
}

/* An open dm-crypt mapping's key would go into the image in clear. */
TEST(plaintext_refused)
{
	const char *root = unit_tmpdir(ctx);
	struct kj_ctx *kj = unit_kj(ctx, root);
	const char *err;

	put(ctx, root, "sys/block/sda/size", "1000\n");
	put(ctx, root, "sys/block/dm-0/dm/uuid", "LVM-Qk0cR8Hc2v\n");
	CHECK_EQ_INT(kjh_check_plaintext(kj, "--hibernate"), 0);
	put(ctx, root, "sys/block/dm-1/dm/uuid",
	    "CRYPT-LUKS2-6f1c0a4e2b7d4e9c8a5f3b2d1e0c9a87-sda2_crypt\n");
	unit_capture_start(ctx);
	CHECK_EQ_INT(kjh_check_plaintext(kj, "--hibernate"), -EPERM);
	err = unit_capture_stop(ctx);
	CHECK_ERR_LINE(err, "--hibernate: dm-1 is a dm-crypt mapping: its key would be written in clear into the image (--allow-plaintext to hibernate anyway)");
}

TEST(fs_find_by_uuid)
{
	const char *root = unit_tmpdir(ctx);
	struct kj_ctx *kj = unit_kj(ctx, root);
	struct kjh_fs f = { .type = "ext4", .name = "/data" };
	uint32_t major = 0, minor = 0;
	char why[256];
	int i;

	fake_dev(ctx, root, "vda", NULL, 254, 0);
	fake_dev(ctx, root, "vdb", "vdb1", 254, 17);
	fake_dev(ctx, root, "vdc", NULL, 254, 32);
	put(ctx, root, "dev/block/254:0", "no file system here");
	fake_ext_sb(ctx, root, "dev/block/254:17", 0x40);
	fake_ext_sb(ctx, root, "dev/block/254:32", 0x80);
	for (i = 0; i < 16; i++)
		f.uuid[i] = (uint8_t)(0x80 + i);
	CHECK_EQ_INT(kjh_fs_find(kj, &f, &major, &minor, why, sizeof(why)), 0);
	CHECK_EQ_INT(major, 254);
	CHECK_EQ_INT(minor, 32);	/* whatever number A had it under */

	f.uuid[0] = 0x55;
	CHECK_EQ_INT(kjh_fs_find(kj, &f, &major, &minor, why, sizeof(why)),
		     -ENOENT);
	CHECK_STR(why, "/data (ext4, uuid 558182838485868788898a8b8c8d8e8f): on no disk of this boot: attach it before resuming");

	/* a clone of the disk: which one A had cannot be told */
	fake_ext_sb(ctx, root, "dev/block/254:17", 0x80);
	f.uuid[0] = 0x80;
	CHECK_EQ_INT(kjh_fs_find(kj, &f, &major, &minor, why, sizeof(why)),
		     -EEXIST);
	CHECK_CONTAINS(why, ": cannot tell which one A had");
	CHECK_CONTAINS(why, "vdb1");
	CHECK_CONTAINS(why, "vdc");
}

/* ------------------------------------------------------ file targets */

static void close_target(void *t)
{
	kjh_target_close(t);
}

static struct kjh_target *new_target(struct unit_ctx *ctx)
{
	struct kjh_target *t = unit_alloc(ctx, sizeof(*t));

	t->fd = -1;
	unit_defer(ctx, close_target, t);
	return t;
}

/* A directory on a file system that can hold a target, or SKIP. */
static const char *file_dir(struct unit_ctx *ctx)
{
	const char *dir = unit_tmpdir(ctx);
	struct fiemap fm;
	struct statfs sfs;
	char path[4096];
	int fd, ret;

	if (statfs(dir, &sfs))
		FAILF("statfs %s: %s", dir, strerror(errno));
	if ((uint32_t)sfs.f_type != 0xef53 &&
	    (uint32_t)sfs.f_type != 0x58465342)
		SKIP("$TMPDIR is not on ext2/3/4 or xfs: no file target test");
	snprintf(path, sizeof(path), "%s/probe", dir);
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0)
		FAILF("%s: %s", path, strerror(errno));
	memset(&fm, 0, sizeof(fm));
	fm.fm_length = ~0ull;
	ret = ioctl(fd, FS_IOC_FIEMAP, &fm);
	close(fd);
	unlink(path);
	if (ret)
		SKIP("FIEMAP does not work in $TMPDIR: no file target test");
	return dir;
}

static void read_at(struct unit_ctx *ctx, const char *path, uint64_t off,
		    void *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		FAILF("%s: %s", path, strerror(errno));
	n = pread(fd, buf, len, (off_t)off);
	close(fd);
	if (n != (ssize_t)len)
		FAILF("%s: short read at %llu", path, (unsigned long long)off);
}

static void check_covers(struct unit_ctx *ctx, const struct kjh_target *t,
			 uint64_t size)
{
	uint64_t pos = 0;
	uint32_t i;

	CHECK(t->extent_count >= 1);
	for (i = 0; i < t->extent_count; i++) {
		CHECK_EQ_U64(t->extents[i].logical, pos);
		CHECK_EQ_U64(t->extents[i].physical % 4096, 0);
		CHECK_EQ_U64(t->extents[i].length % 4096, 0);
		CHECK(t->extents[i].physical + t->extents[i].length <=
		      t->dev_size);
		pos += t->extents[i].length;
	}
	CHECK_EQ_U64(pos, size);
	CHECK_EQ_U64(t->capacity, size);
	CHECK_EQ_U64(t->offset, t->extents[0].physical);
}

/* The header block through the raw device, where it can be read. */
static void check_on_device(struct unit_ctx *ctx, const struct kjh_target *t,
			    const void *block)
{
	char path[128], buf[4096];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/dev/block/%u:%u", t->dev_major,
		 t->dev_minor);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(path, sizeof(path), "/dev/%s", t->dev_name);
		fd = open(path, O_RDONLY);
	}
	if (fd < 0)
		return;		/* not root: the file's view only */
	n = pread(fd, buf, sizeof(buf), (off_t)t->offset);
	close(fd);
	CHECK_EQ_INT(n, sizeof(buf));
	CHECK_MEM(buf, block, sizeof(buf));
}

static void prepare(struct unit_ctx *ctx, struct kj_ctx *kj,
		    struct kjh_target *t, struct kjh_header *hdr)
{
	static const struct kjh_ram_range ram[2] = {
		{ 0x1000, 0x9fbff }, { 0x100000, 0x3fffffff },
	};
	struct kjh_fs fs = { .dev_major = 8, .dev_minor = 1, .type = "ext4",
			     .name = "/" };
	int i;

	memset(hdr, 0, sizeof(*hdr));
	for (i = 0; i < 16; i++)
		hdr->nonce[i] = (uint8_t)(0xa0 + i);
	hdr->created = 1700000000;
	CHECK_EQ_INT(kjh_target_prepare(kj, t, hdr, ram, 2, &fs, 1), 0);
}

static void check_prepared(struct unit_ctx *ctx, const struct kjh_target *t,
			   const struct kjh_header *want)
{
	struct kjh_header *h = unit_alloc(ctx, sizeof(*h));
	char *x = unit_alloc(ctx, 16 * 4096);
	const struct kjh_extents *xh = (const void *)x;
	struct kjh_ram_range ram[2];
	struct kjh_fs fs;
	uint32_t crc;

	read_at(ctx, t->path, 0, h, sizeof(*h));
	CHECK_MEM(h, want, sizeof(*h));
	CHECK_MEM(h->magic, KJH_MAGIC, 8);
	CHECK_EQ_INT(h->version, KJH_VERSION);
	CHECK_EQ_INT(h->state, KJH_STATE_PREPARED);
	CHECK_EQ_U64(h->capacity, t->capacity);
	CHECK_EQ_U64(h->ram_off, KJH_DATA_OFF);
	CHECK_EQ_U64(h->fs_off, KJH_DATA_OFF + 4096);
	crc = h->header_crc;
	h->header_crc = 0;
	CHECK_EQ_U64(crc32c(h, KJH_HEADER_SEALED), crc);
	check_on_device(ctx, t, want);

	read_at(ctx, t->path, KJH_EXTENTS_OFF, x, 16 * 4096);
	CHECK_MEM(xh->magic, KJH_EXTENTS_MAGIC, 8);
	CHECK_MEM(xh->nonce, want->nonce, 16);
	CHECK_EQ_INT(xh->count, t->extent_count);
	CHECK_EQ_INT(xh->is_file, 1);
	CHECK_EQ_INT(xh->dev_major, t->dev_major);
	CHECK_EQ_INT(xh->dev_minor, t->dev_minor);
	CHECK_EQ_U64(xh->dev_size, t->dev_size);
	CHECK_MEM(x + sizeof(*xh), t->extents,
		  t->extent_count * sizeof(struct kjh_extent));
	CHECK_EQ_U64(crc32c(x + sizeof(*xh),
			    t->extent_count * sizeof(struct kjh_extent)),
		     xh->crc);

	read_at(ctx, t->path, h->ram_off, ram, sizeof(ram));
	CHECK_EQ_U64(ram[1].end, 0x3fffffff);
	read_at(ctx, t->path, h->fs_off, &fs, sizeof(fs));
	CHECK_STR(fs.type, "ext4");
}

TEST(crc32c_check_value)
{
	CHECK_EQ_U64(crc32c("123456789", 9), 0xe3069283);
}

TEST(file_create_prepare_reopen)
{
	const char *dir = file_dir(ctx);
	struct kj_ctx *kj = unit_kj(ctx, "");
	struct kjh_target *t = new_target(ctx), *t2 = new_target(ctx);
	struct kjh_header *hdr = unit_alloc(ctx, sizeof(*hdr));
	uint64_t size = 3 * 1048576 + 4096;
	struct kjh_extent *first;
	uint32_t first_count;
	char path[4096];
	struct stat st, st2;

	snprintf(path, sizeof(path), "%s/image", dir);
	unit_capture_start(ctx);
	CHECK_EQ_INT(kjh_target_open(kj, path, size - 100, false, t), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK(t->is_file);
	CHECK(t->fd >= 0);
	CHECK(stat(path, &st) == 0);
	CHECK_EQ_INT(st.st_mode & 07777, 0600);
	CHECK_EQ_U64(st.st_size, size);
	CHECK((uint64_t)st.st_blocks * 512 >= size);
	CHECK_EQ_INT(t->dev_major, major(st.st_dev));
	CHECK_EQ_INT(t->dev_minor, minor(st.st_dev));
	CHECK(t->dev_name[0]);
	CHECK(t->dev_size > size);
	check_covers(ctx, t, size);

	prepare(ctx, kj, t, hdr);
	check_prepared(ctx, t, hdr);
	first_count = t->extent_count;
	first = unit_alloc(ctx, first_count * sizeof(*first));
	memcpy(first, t->extents, first_count * sizeof(*first));
	kjh_target_after_jump(t);
	kjh_target_close(t);

	/* reopened: nothing rewritten, the same extents, mode fixed */
	CHECK(chmod(path, 0644) == 0);
	CHECK(stat(path, &st) == 0);
	sleep(1);
	unit_capture_start(ctx);
	CHECK_EQ_INT(kjh_target_open(kj, path, size, false, t2), 0);
	CHECK_WARN_LINE(unit_capture_stop(ctx), "made 0600");
	CHECK(stat(path, &st2) == 0);
	CHECK_EQ_INT(st2.st_mode & 07777, 0600);
	CHECK_EQ_U64(st2.st_mtim.tv_sec, st.st_mtim.tv_sec);
	CHECK_EQ_U64(st2.st_mtim.tv_nsec, st.st_mtim.tv_nsec);
	CHECK_EQ_U64(st2.st_size, size);
	CHECK_EQ_INT(t2->extent_count, first_count);
	CHECK_MEM(t2->extents, first, first_count * sizeof(*first));
	check_covers(ctx, t2, size);
	check_prepared(ctx, t2, hdr);
}

static void refused(struct unit_ctx *ctx, const char *path, uint64_t need,
		    const char *needle);

/* A resumed image's data zeroed, its header flagged; nothing else's. */
TEST(wipe_after_resume)
{
	const char *dir = file_dir(ctx);
	struct kj_ctx *kj = unit_kj(ctx, "");
	struct kjh_target *t = new_target(ctx);
	struct kjh_header *hdr = unit_alloc(ctx, sizeof(*hdr));
	uint64_t size = 3 * 1048576 + 4096, data = 2 * 1048576;
	uint8_t *buf = unit_alloc(ctx, (size_t)data), *blk;
	char path[4096];
	size_t i, nonzero = 0;

	snprintf(path, sizeof(path), "%s/image", dir);
	CHECK_EQ_INT(kjh_target_open(kj, path, size, false, t), 0);
	prepare(ctx, kj, t, hdr);
	memset(buf, 0xa5, (size_t)data);
	CHECK_EQ_INT(pwrite(t->fd, buf, (size_t)data, KJH_DATA_OFF),
		     (ssize_t)data);
	hdr->state = KJH_STATE_CONSUMED;
	hdr->image_bytes = KJH_DATA_OFF + data;
	kjh_header_seal(hdr);
	CHECK_EQ_INT(kjh_target_write_block0(kj, t, hdr), 0);

	CHECK_EQ_INT(kjh_target_wipe(kj, t), 0);
	CHECK_EQ_INT(pread(t->fd, buf, (size_t)data, KJH_DATA_OFF),
		     (ssize_t)data);
	for (i = 0; i < data; i++)
		nonzero += buf[i] != 0;
	CHECK_EQ_U64(nonzero, 0);
	blk = unit_alloc(ctx, KJH_BLOCK);
	CHECK_EQ_INT(pread(t->fd, blk, KJH_BLOCK, 0), KJH_BLOCK);
	memcpy(hdr, blk, sizeof(*hdr));
	CHECK_EQ_INT(kjh_header_check(hdr, NULL, 0), 0);
	CHECK_EQ_INT(hdr->state, KJH_STATE_CONSUMED);
	CHECK_EQ_INT(hdr->flags & KJH_F_WIPED, KJH_F_WIPED);
	/* the extent list is kept: the target stays one */
	CHECK_EQ_INT(pread(t->fd, buf, 8, KJH_EXTENTS_OFF), 8);
	CHECK_MEM(buf, KJH_EXTENTS_MAGIC, 8);

	/* another image there now (a new hibernation): left alone */
	memset(buf, 0x5a, 4096);
	CHECK_EQ_INT(pwrite(t->fd, buf, 4096, KJH_DATA_OFF), 4096);
	hdr->flags = 0;
	hdr->nonce[0] ^= 1;
	kjh_header_seal(hdr);
	CHECK_EQ_INT(kjh_target_write_block0(kj, t, hdr), 0);
	CHECK_EQ_INT(kjh_target_wipe(kj, t), 0);
	CHECK_EQ_INT(pread(t->fd, buf, 4096, KJH_DATA_OFF), 4096);
	CHECK_EQ_INT(buf[100], 0x5a);
}

/* An existing file: kept data, holes and preallocation filled, grown. */
TEST(file_existing_sparse_grows)
{
	const char *dir = file_dir(ctx);
	struct kj_ctx *kj = unit_kj(ctx, "");
	struct kjh_target *t = new_target(ctx);
	char path[4096], data[8192], back[8192];
	uint64_t size = 2 * 1048576;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/sparse", dir);
	memset(data, 0x5a, sizeof(data));
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0);
	CHECK(pwrite(fd, data, sizeof(data), 0) == (ssize_t)sizeof(data));
	CHECK(ftruncate(fd, 1048576) == 0);			/* a hole */
	if (fallocate(fd, 0, 1048576, 262144))			/* unwritten */
		CHECK(errno == EOPNOTSUPP);
	close(fd);
	/* data that is not an image: only with overwrite */
	refused(ctx, path, size, "holds data that is not a kexec hibernation image: not overwritten (--overwrite to use it anyway)");
	unit_capture_start(ctx);
	CHECK_EQ_INT(kjh_target_open(kj, path, size, true, t), 0);
	CHECK_NO_OUTPUT(unit_capture_stop(ctx));
	CHECK(stat(path, &st) == 0);
	CHECK_EQ_U64(st.st_size, size);
	CHECK((uint64_t)st.st_blocks * 512 >= size);
	check_covers(ctx, t, size);
	read_at(ctx, path, 0, back, sizeof(back));
	CHECK_MEM(back, data, sizeof(data));
}

/* An existing file larger than needed keeps its size. */
TEST(file_existing_larger)
{
	const char *dir = file_dir(ctx);
	struct kj_ctx *kj = unit_kj(ctx, "");
	struct kjh_target *t = new_target(ctx);
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/large", dir);
	CHECK_EQ_INT(kjh_target_open(kj, path, 1048576, false, t), 0);
	kjh_target_close(t);
	CHECK_EQ_INT(kjh_target_open(kj, path, 4096, false, t), 0);
	CHECK(stat(path, &st) == 0);
	CHECK_EQ_U64(st.st_size, 1048576);
	check_covers(ctx, t, 1048576);
}

/* A refusal: one error line with needle; the path as it was. */
static void refused(struct unit_ctx *ctx, const char *path, uint64_t need,
		    const char *needle)
{
	struct kj_ctx *kj = unit_kj(ctx, "");
	struct kjh_target *t = new_target(ctx);
	struct stat before, after;
	bool existed = !lstat(path, &before);
	const char *err;
	int ret;

	unit_capture_start(ctx);
	ret = kjh_target_open(kj, path, need, false, t);
	err = unit_capture_stop(ctx);
	CHECK(ret < 0);
	CHECK_EQ_INT(t->fd, -1);
	CHECK(t->extents == NULL);
	CHECK_ERR_LINE(err, path);
	CHECK_ERR_LINE(err, needle);
	if (!existed) {
		CHECK(lstat(path, &after) && errno == ENOENT);
		return;
	}
	CHECK(lstat(path, &after) == 0);
	CHECK_EQ_INT(after.st_mode, before.st_mode);
	CHECK_EQ_U64(after.st_ino, before.st_ino);
	CHECK_EQ_U64(after.st_size, before.st_size);
}

/*
 * An existing file is only reused when it is this user's own, has no
 * other name, is not reached through a symbolic link and sits in a
 * directory others cannot write to.
 */
TEST(refuse_files_of_others)
{
	const char *dir = file_dir(ctx);
	char path[4200], alias[4200], sub[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/image", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0);
	close(fd);
	snprintf(alias, sizeof(alias), "%s/symlink", dir);
	CHECK(symlink(path, alias) == 0);
	refused(ctx, alias, 1048576, "a symbolic link to a file: name the file itself");
	snprintf(alias, sizeof(alias), "%s/hardlink", dir);
	CHECK(link(path, alias) == 0);
	refused(ctx, path, 1048576, "has 2 hard links");
	CHECK(unlink(alias) == 0);
	if (geteuid() == 0) {
		CHECK(chown(path, 1000, 1000) == 0);
		refused(ctx, path, 1048576, "owned by uid 1000, not by this user");
		CHECK(chown(path, 0, 0) == 0);
	}
	snprintf(sub, sizeof(sub), "%s/open", dir);
	CHECK(mkdir(sub, 0777) == 0 && chmod(sub, 0777) == 0);
	snprintf(path, sizeof(path), "%s/image", sub);
	refused(ctx, path, 1048576, "its directory");
	CHECK(chmod(sub, 01777) == 0);	/* sticky, as /var/tmp: fine */
	{
		struct kj_ctx *kj = unit_kj(ctx, "");
		struct kjh_target *t = new_target(ctx);

		CHECK_EQ_INT(kjh_target_open(kj, path, 1048576, false, t), 0);
	}
}

/* What a target holds, from its first bytes. */
TEST(content_signatures)
{
	uint8_t *buf = unit_alloc(ctx, KJH_SIGNATURE_BYTES);
	const char *what;

	memset(buf, 0, KJH_SIGNATURE_BYTES);
	CHECK_EQ_INT(kjh_signature(buf, KJH_SIGNATURE_BYTES, &what), KJH_CONTENT_EMPTY);
	memcpy(buf, KJH_MAGIC, 8);
	CHECK_EQ_INT(kjh_signature(buf, KJH_SIGNATURE_BYTES, &what), KJH_CONTENT_IMAGE);
	memset(buf, 0, 8);
	memcpy(buf + 512, "EFI PART", 8);
	CHECK_EQ_INT(kjh_signature(buf, KJH_SIGNATURE_BYTES, &what), KJH_CONTENT_KNOWN);
	CHECK_STR(what, "a GPT partition table");
	memset(buf + 512, 0, 8);
	buf[510] = 0x55;
	buf[511] = 0xaa;
	CHECK_EQ_INT(kjh_signature(buf, KJH_SIGNATURE_BYTES, &what), KJH_CONTENT_DATA);
	buf[446 + 4] = 0x83;		/* a Linux partition */
	CHECK_EQ_INT(kjh_signature(buf, KJH_SIGNATURE_BYTES, &what), KJH_CONTENT_KNOWN);
	CHECK_STR(what, "an MBR partition table");
	memset(buf, 0, 512);
	buf[1080] = 0x53;
	buf[1081] = 0xef;
	CHECK_EQ_INT(kjh_signature(buf, KJH_SIGNATURE_BYTES, &what), KJH_CONTENT_KNOWN);
	CHECK_STR(what, "an ext2/3/4 file system");
	/* btrfs' magic lies past a short buffer: not seen, not read */
	memset(buf, 0, KJH_SIGNATURE_BYTES);
	memcpy(buf + 0x10040, "_BHRfS_M", 8);
	CHECK_EQ_INT(kjh_signature(buf, 0x10040, &what), KJH_CONTENT_EMPTY);
	CHECK_EQ_INT(kjh_signature(buf, KJH_SIGNATURE_BYTES, &what), KJH_CONTENT_KNOWN);
	CHECK_STR(what, "a btrfs file system");
	memset(buf, 0, KJH_SIGNATURE_BYTES);
	memcpy(buf + 4086, "SWAPSPACE2", 10);
	CHECK_EQ_INT(kjh_signature(buf, KJH_SIGNATURE_BYTES, &what), KJH_CONTENT_KNOWN);
	CHECK_STR(what, "swap");
}

TEST(refuse_directory_fifo_chardev)
{
	const char *dir = unit_tmpdir(ctx);
	char path[4096];

	snprintf(path, sizeof(path), "%s/sub", dir);
	CHECK(mkdir(path, 0700) == 0);
	refused(ctx, path, 1048576, "a directory: the target must be a block device or a regular file");
	snprintf(path, sizeof(path), "%s/fifo", dir);
	CHECK(mkfifo(path, 0600) == 0);
	refused(ctx, path, 1048576, "a FIFO");
	refused(ctx, "/dev/null", 1048576, "a character device");
	snprintf(path, sizeof(path), "%s/none/image", dir);
	refused(ctx, path, 1048576, "no such directory");
}

TEST(refuse_tmpfs)
{
	struct statfs sfs;
	char path[4096];

	if (statfs("/dev/shm", &sfs) || (uint32_t)sfs.f_type != 0x01021994)
		SKIP("/dev/shm is not tmpfs");
	snprintf(path, sizeof(path), "/dev/shm/kjump-unit-target.%d",
		 (int)getpid());
	if (access("/dev/shm", W_OK))
		SKIP("/dev/shm is not writable");
	refused(ctx, path, 1048576, "on tmpfs: not on a disk");
}

TEST(refuse_no_space)
{
	const char *dir = file_dir(ctx);
	char path[4096];

	snprintf(path, sizeof(path), "%s/huge", dir);
	refused(ctx, path, 1ull << 60, "not enough free space: the image needs 1152921504606846976 more bytes");
	/* an existing file is left as it was */
	unit_write_file(ctx, dir, "huge", "\0", 1);
	refused(ctx, path, 1ull << 60, "not enough free space");
	refused(ctx, path, ~0ull, "more than any target holds");
}

UNIT_MAIN("target",
	  RUN(worst_case_formula),
	  RUN(busy_mounted),
	  RUN(busy_swap_and_holders),
	  RUN(busy_unknown),
	  RUN(unreachable_stacked),
	  RUN(rw_filesystems),
	  RUN(rw_filesystems_refused), RUN(fs_find_by_uuid),
	  RUN(plaintext_refused), RUN(wipe_after_resume),
	  RUN(crc32c_check_value),
	  RUN(file_create_prepare_reopen),
	  RUN(file_existing_sparse_grows),
	  RUN(file_existing_larger),
	  RUN(refuse_files_of_others),
	  RUN(content_signatures),
	  RUN(refuse_directory_fifo_chardev),
	  RUN(refuse_tmpfs),
	  RUN(refuse_no_space))
