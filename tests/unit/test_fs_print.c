// SPDX-License-Identifier: GPL-2.0-only
/*
 * File system fingerprints (kjump/hib/fs-print.h) of file systems made by
 * the real tools (mke2fs, mkfs.xfs, mkfs.vfat), each checked against what
 * those tools' own readers say (debugfs, dumpe2fs, xfs_logprint): where
 * the journal or the log's head is, and that a change there, and only
 * there, changes the part of the fingerprint that covers it.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kjump/hib/fs-print.h"
#include "unit.h"

#define UUID_TEXT	"01234567-89ab-cdef-0123-456789abcdef"

static const uint8_t uuid_bytes[16] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
};

/* Run cmd (a shell line); its first output line into out, if given. */
static void run(struct unit_ctx *ctx, const char *cmd, char *out,
		size_t size)
{
	char line[512] = "";
	FILE *p = popen(cmd, "r");
	int rc;

	if (!p)
		FAILF("popen %s: %s", cmd, strerror(errno));
	if (!fgets(line, sizeof(line), p))
		line[0] = '\0';
	while (fgetc(p) != EOF)
		;
	rc = pclose(p);
	if (rc)
		FAILF("%s: exit status %d (are e2fsprogs, xfsprogs and dosfstools installed?)",
		      cmd, rc);
	line[strcspn(line, "\n")] = '\0';
	if (out)
		snprintf(out, size, "%s", line);
}

static const char *image(struct unit_ctx *ctx, const char *mkfs,
			 const char *size)
{
	static char path[4096];
	char cmd[16384];

	snprintf(path, sizeof(path), "%s/fs.img", unit_tmpdir(ctx));
	snprintf(cmd, sizeof(cmd), "truncate -s %s %s && %s %s >/dev/null 2>&1",
		 size, path, mkfs, path);
	run(ctx, cmd, NULL, 0);
	return path;
}

static void print(struct unit_ctx *ctx, const char *path, const char *type,
		  struct kjh_fs *f)
{
	char why[160];
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0);
	memset(f, 0, sizeof(*f));
	snprintf(f->type, sizeof(f->type), "%s", type);
	if (kjh_fs_fingerprint(fd, f, why, sizeof(why)))
		FAILF("%s: %s", type, why);
	close(fd);
}

static void flip(struct unit_ctx *ctx, const char *path, uint64_t off)
{
	uint8_t b;
	int fd = open(path, O_RDWR);

	CHECK(fd >= 0);
	CHECK_EQ_INT(pread(fd, &b, 1, (off_t)off), 1);
	b ^= 0x5a;
	CHECK_EQ_INT(pwrite(fd, &b, 1, (off_t)off), 1);
	close(fd);
}

/* debugfs's physical block of the journal inode's block 0, in bytes. */
static uint64_t journal_at(struct unit_ctx *ctx, const char *path)
{
	char cmd[4200], out[64];

	snprintf(cmd, sizeof(cmd), "debugfs -R 'bmap <8> 0' %s 2>/dev/null",
		 path);
	run(ctx, cmd, out, sizeof(out));
	return strtoull(out, NULL, 10) * 4096;
}

static void check_ext(struct unit_ctx *ctx, const char *type)
{
	char mkfs[128], cmd[4200], seq[64];
	const char *path;
	struct kjh_fs f, g;
	uint8_t uuid[16];
	int fd;

	snprintf(mkfs, sizeof(mkfs), "mke2fs -q -F -b 4096 -t %s -U %s",
		 type, UUID_TEXT);
	path = image(ctx, mkfs, "16M");
	print(ctx, path, type, &f);
	CHECK_MEM(f.uuid, uuid_bytes, 16);
	CHECK_EQ_INT(f.flags, KJH_FS_PRINTED | KJH_FS_LOG);
	/* the jbd2 superblock's sequence and start, as dumpe2fs reads them */
	snprintf(cmd, sizeof(cmd),
		 "dumpe2fs -h %s 2>/dev/null | sed -n 's/^Journal sequence: *//p'",
		 path);
	run(ctx, cmd, seq, sizeof(seq));
	CHECK_EQ_U64(f.log_pos >> 32, strtoull(seq, NULL, 0));
	CHECK_EQ_U64(f.log_pos & 0xffffffffu, 0);	/* start: clean */

	fd = open(path, O_RDONLY);
	CHECK(fd >= 0);
	CHECK_EQ_INT(kjh_fs_read_uuid(fd, type, uuid), 0);
	CHECK_MEM(uuid, uuid_bytes, 16);
	CHECK_EQ_INT(kjh_fs_read_uuid(fd, "xfs", uuid), -EINVAL);
	close(fd);

	/* the journal's superblock, where debugfs maps it: only log_crc */
	flip(ctx, path, journal_at(ctx, path) + 0x40);
	print(ctx, path, type, &g);
	CHECK_EQ_U64(g.sb_crc, f.sb_crc);
	CHECK(g.log_crc != f.log_crc);
	/*
	 * The mount count, as e2fsprogs writes it: with the superblock's
	 * checksum made again (metadata_csum), so that the whole block's
	 * CRC-32C alone would not have changed.
	 */
	snprintf(cmd, sizeof(cmd),
		 "debugfs -w -R 'ssv mnt_count 9' %s >/dev/null 2>&1", path);
	run(ctx, cmd, NULL, 0);
	print(ctx, path, type, &g);
	CHECK(g.sb_crc != f.sb_crc);
	CHECK_EQ_U64(g.log_pos, f.log_pos);
	/* a data block far from both: nothing */
	print(ctx, path, type, &f);
	flip(ctx, path, 12u << 20);
	print(ctx, path, type, &g);
	CHECK_MEM(&g, &f, sizeof(f));
}

/* ext4: an extent tree leads to the journal. */
TEST(ext4_journal)
{
	check_ext(ctx, "ext4");
}

/* ext3: indirect blocks lead to it. */
TEST(ext3_journal)
{
	check_ext(ctx, "ext3");
}

TEST(ext2_no_journal)
{
	const char *path = image(ctx, "mke2fs -q -F -t ext2", "8M");
	struct kjh_fs f;

	print(ctx, path, "ext2", &f);
	CHECK_EQ_INT(f.flags, KJH_FS_PRINTED);
	CHECK_EQ_U64(f.log_pos, 0);
}

/* xfs_logprint's head, in basic blocks. */
static uint64_t logprint_head(struct unit_ctx *ctx, const char *path)
{
	char cmd[4200], out[64];

	snprintf(cmd, sizeof(cmd),
		 "xfs_logprint -t %s 2>/dev/null | sed -n 's/.*log tail: [0-9]* head: \\([0-9]*\\).*/\\1/p'",
		 path);
	run(ctx, cmd, out, sizeof(out));
	CHECK(out[0] != '\0');
	return strtoull(out, NULL, 10);
}

TEST(xfs_log_head)
{
	const char *path = image(ctx, "mkfs.xfs -q -f -m uuid=" UUID_TEXT,
				 "300M");
	char cmd[4200];
	struct kjh_fs f, g;

	print(ctx, path, "xfs", &f);
	CHECK_MEM(f.uuid, uuid_bytes, 16);
	CHECK_EQ_INT(f.flags, KJH_FS_PRINTED | KJH_FS_LOG);
	CHECK_EQ_U64(f.log_pos & 0xffffffffu, logprint_head(ctx, path));

	/* the log written again at another cycle: the head's cycle moves */
	snprintf(cmd, sizeof(cmd), "xfs_db -x -c 'logformat -c 3' %s >/dev/null",
		 path);
	run(ctx, cmd, NULL, 0);
	print(ctx, path, "xfs", &g);
	CHECK_EQ_U64(g.log_pos >> 32, 3);
	CHECK_EQ_U64(g.log_pos & 0xffffffffu, logprint_head(ctx, path));
	CHECK_EQ_U64(g.sb_crc, f.sb_crc);
	CHECK(g.log_pos != f.log_pos);
}

/* Where the first FAT starts: reserved sectors times sector size. */
static uint64_t fat_at(struct unit_ctx *ctx, const char *path)
{
	uint8_t bs[512];
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0);
	CHECK_EQ_INT(pread(fd, bs, sizeof(bs), 0), (ssize_t)sizeof(bs));
	close(fd);
	return (uint64_t)(bs[14] | bs[15] << 8) * (bs[11] | bs[12] << 8);
}

static void check_vfat(struct unit_ctx *ctx, const char *fat, const char *size)
{
	static const uint8_t volid[4] = { 0x78, 0x56, 0x34, 0x12 };
	char mkfs[128];
	const char *path;
	struct kjh_fs f, g;

	snprintf(mkfs, sizeof(mkfs), "mkfs.vfat -F %s -i 12345678", fat);
	path = image(ctx, mkfs, size);
	print(ctx, path, "vfat", &f);
	CHECK_MEM(f.uuid, volid, 4);
	CHECK_EQ_INT(f.uuid[4], 0);
	CHECK_EQ_INT(f.flags, KJH_FS_PRINTED | KJH_FS_LOG);
	/* the dirty flag Linux keeps in the boot sector */
	flip(ctx, path, fat[0] == '3' ? 0x41 : 0x25);
	print(ctx, path, "vfat", &g);
	CHECK(g.sb_crc != f.sb_crc);
	/* a FAT entry */
	print(ctx, path, "vfat", &f);
	flip(ctx, path, fat_at(ctx, path) + 64);
	print(ctx, path, "vfat", &g);
	CHECK_EQ_U64(g.sb_crc, f.sb_crc);
	CHECK(g.log_crc != f.log_crc);
}

TEST(vfat32)
{
	check_vfat(ctx, "32", "64M");
}

TEST(vfat16)
{
	check_vfat(ctx, "16", "16M");
}

TEST(refusals)
{
	const char *path = image(ctx, "mke2fs -q -F -t ext4", "8M");
	struct kjh_fs f;
	char why[160];
	int fd = open(path, O_RDONLY);

	CHECK(fd >= 0);
	memset(&f, 0, sizeof(f));
	snprintf(f.type, sizeof(f.type), "btrfs");
	CHECK(!kjh_fs_type_printable("btrfs"));
	CHECK_EQ_INT(kjh_fs_fingerprint(fd, &f, why, sizeof(why)),
		     -EOPNOTSUPP);
	CHECK_STR(why, "btrfs has no fingerprint");
	snprintf(f.type, sizeof(f.type), "xfs");
	CHECK_EQ_INT(kjh_fs_fingerprint(fd, &f, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "no xfs superblock");
	snprintf(f.type, sizeof(f.type), "vfat");
	CHECK_EQ_INT(kjh_fs_fingerprint(fd, &f, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "no FAT boot sector");
	CHECK_EQ_INT(f.flags, 0);
	close(fd);
}

UNIT_MAIN("fs-print", RUN(ext4_journal), RUN(ext3_journal),
	  RUN(ext2_no_journal), RUN(xfs_log_head), RUN(vfat32), RUN(vfat16),
	  RUN(refusals))
