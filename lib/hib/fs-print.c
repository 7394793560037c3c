// SPDX-License-Identifier: GPL-2.0-only
/*
 * File system fingerprints (kjump/hib/fs-print.h), read from a raw
 * device: ext2/3/4 with its jbd2 superblock, xfs with its log head, vfat.
 * Every offset read comes from the device, so each is bounded before use.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kjump/hib/crc32c.h"
#include "kjump/hib/fs-print.h"

#define SECTOR			512u

#define EXT_SB_OFF		1024u
#define EXT_SB_SIZE		1024u
/*
 * Hashed without s_checksum, its last 4 bytes: the CRC-32C of a block
 * ending in its own CRC-32C is the same constant for every content.
 */
#define EXT_SB_HASHED		1020u
#define EXT_MAGIC		0xef53u
#define EXT_COMPAT_JOURNAL	0x4u
#define EXT_INCOMPAT_64BIT	0x80u
#define EXT_EXTENTS_FL		0x80000u
#define EXT_EXTENT_MAGIC	0xf30au
#define EXT_DEPTH_MAX		5u
#define JBD2_MAGIC		0xc03b3998u

#define XFS_MAGIC		0x58465342u	/* "XFSB" */
#define XLOG_HEADER_MAGIC	0xfeedbabeu
#define XLOG_TAIL_BLOCKS	8u		/* hashed before the head */

#define FAT_HASH_MAX		(1u << 20)	/* of the first FAT */
#define FAT_ROOT_MAX		(64u << 10)

struct dev {
	int fd;
	char *why;
	size_t why_size;
};

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

__attribute__((format(printf, 3, 4)))
static int bad(struct dev *d, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->why, d->why_size, fmt, ap);
	va_end(ap);
	return err;
}

static int read_at(struct dev *d, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;
	ssize_t n;

	while (done < len) {
		n = pread(d->fd, (uint8_t *)buf + done, len - done,
			  (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return bad(d, -errno, "reading %zu bytes at %llu: %s",
				   len, (unsigned long long)off,
				   strerror(errno));
		if (!n)
			return bad(d, -EIO, "the device ends before byte %llu",
				   (unsigned long long)(off + len));
		done += (size_t)n;
	}
	return 0;
}

/* ------------------------------------------------------------- ext */

/* The superblock's geometry a journal lookup needs, bounded. */
struct ext_geo {
	uint32_t block;			/* bytes */
	uint32_t inode_size;
	uint32_t per_group;		/* inodes */
	uint32_t desc_size;
	uint64_t gdt;			/* byte offset of the descriptors */
};

static int ext_geometry(struct dev *d, const uint8_t *sb, struct ext_geo *g)
{
	uint32_t log = le32(sb + 0x18);

	if (log > 6)
		return bad(d, -EINVAL, "ext: block size 2^%u KiB", log);
	g->block = 1024u << log;
	g->inode_size = le32(sb + 0x4c) ? le16(sb + 0x58) : 128;
	g->per_group = le32(sb + 0x28);
	g->desc_size = le32(sb + 0x60) & EXT_INCOMPAT_64BIT ?
		       le16(sb + 0xfe) : 32;
	if (g->inode_size < 128 || g->inode_size > g->block ||
	    !g->per_group || g->desc_size < 32 || g->desc_size > 1024)
		return bad(d, -EINVAL, "ext: a superblock with impossible geometry");
	g->gdt = ((uint64_t)le32(sb + 0x14) + 1) * g->block;
	return 0;
}

/* The device block of logical block 0 in an extent tree's root. */
static int ext_extent_block0(struct dev *d, const struct ext_geo *g,
			     const uint8_t *root, uint64_t *blk)
{
	const uint8_t *h = root, *e;
	uint8_t *node = malloc(g->block);
	size_t room = 60;
	unsigned int depth;
	int ret = -EINVAL;

	if (!node)
		return bad(d, -ENOMEM, "out of memory");
	for (depth = 0; depth <= EXT_DEPTH_MAX; depth++) {
		if (le16(h) != EXT_EXTENT_MAGIC || !le16(h + 2) ||
		    12 + (size_t)le16(h + 2) * 12 > room)
			break;
		e = h + 12;		/* sorted: the first covers block 0 */
		if (le32(e))
			break;
		if (!le16(h + 6)) {
			*blk = le32(e + 8) | (uint64_t)le16(e + 6) << 32;
			ret = 0;
			goto out;
		}
		ret = read_at(d, node, g->block, (le32(e + 4) |
			      (uint64_t)le16(e + 8) << 32) * g->block);
		if (ret)
			goto out;
		ret = -EINVAL;
		h = node;
		room = g->block;
	}
	bad(d, ret, "ext: the journal's extent tree is damaged");
out:
	free(node);
	return ret;
}

/* The byte offset of the jbd2 superblock of the journal inode. */
static int ext_journal_at(struct dev *d, const uint8_t *sb, uint64_t *off)
{
	uint32_t ino = le32(sb + 0xe0), idx;
	uint8_t desc[64], inode[128];
	struct ext_geo g = { 0 };
	uint64_t table, blk = 0;
	int ret;

	ret = ext_geometry(d, sb, &g);
	if (ret)
		return ret;
	idx = (ino - 1) % g.per_group;
	ret = read_at(d, desc, sizeof(desc), g.gdt +
		      (uint64_t)((ino - 1) / g.per_group) * g.desc_size);
	if (ret)
		return ret;
	table = le32(desc + 8);
	if (g.desc_size >= 64)
		table |= (uint64_t)le32(desc + 0x28) << 32;
	ret = read_at(d, inode, sizeof(inode),
		      table * g.block + (uint64_t)idx * g.inode_size);
	if (ret)
		return ret;
	if (le32(inode + 0x20) & EXT_EXTENTS_FL) {
		ret = ext_extent_block0(d, &g, inode + 0x28, &blk);
		if (ret)
			return ret;
	} else {
		blk = le32(inode + 0x28);
	}
	if (!blk)
		return bad(d, -EINVAL, "ext: the journal inode has no block 0");
	*off = blk * g.block;
	return 0;
}

static int ext_uuid(struct dev *d, uint8_t *uuid)
{
	uint8_t sb[EXT_SB_SIZE];
	int ret = read_at(d, sb, sizeof(sb), EXT_SB_OFF);

	if (ret)
		return ret;
	if (le16(sb + 0x38) != EXT_MAGIC)
		return -EINVAL;
	memcpy(uuid, sb + 0x68, 16);
	return 0;
}

static int ext_print(struct dev *d, struct kjh_fs *f)
{
	uint8_t sb[EXT_SB_SIZE], jsb[EXT_SB_SIZE];
	uint64_t off = 0;
	int ret;

	ret = read_at(d, sb, sizeof(sb), EXT_SB_OFF);
	if (ret)
		return ret;
	if (le16(sb + 0x38) != EXT_MAGIC)
		return bad(d, -EINVAL, "no ext2/3/4 superblock");
	memcpy(f->uuid, sb + 0x68, sizeof(f->uuid));
	f->sb_crc = kjh_crc32c(0, sb, EXT_SB_HASHED);
	if (!(le32(sb + 0x5c) & EXT_COMPAT_JOURNAL))
		return 0;
	if (!le32(sb + 0xe0))
		return bad(d, -EOPNOTSUPP, "an external journal, which is not checked");
	ret = ext_journal_at(d, sb, &off);
	if (!ret)
		ret = read_at(d, jsb, sizeof(jsb), off);
	if (ret)
		return ret;
	if (be32(jsb) != JBD2_MAGIC)
		return bad(d, -EINVAL, "ext: no journal superblock at byte %llu",
			   (unsigned long long)off);
	f->log_crc = kjh_crc32c(0, jsb, sizeof(jsb));
	f->log_pos = (uint64_t)be32(jsb + 0x18) << 32 | be32(jsb + 0x1c);
	f->flags |= KJH_FS_LOG;
	return 0;
}

/* ------------------------------------------------------------- xfs */

struct xlog {
	uint64_t start;			/* byte offset on the device */
	uint64_t blocks;		/* 512-byte basic blocks */
};

/* The cycle stamped in basic block i of the log. */
static int xlog_cycle(struct dev *d, const struct xlog *l, uint64_t i,
		      uint32_t *cycle)
{
	uint8_t bb[8];
	int ret = read_at(d, bb, sizeof(bb), l->start + i * SECTOR);

	if (!ret)
		*cycle = be32(bb) == XLOG_HEADER_MAGIC ? be32(bb + 4) : be32(bb);
	return ret;
}

/*
 * The head: blocks before it carry the first block's cycle, the ones
 * from it on the cycle before (a log that wrapped exactly has its head
 * at 0).  Found by bisection, as xfs's log recovery does.
 */
static int xlog_head(struct dev *d, const struct xlog *l, uint64_t *head,
		     uint32_t *cycle)
{
	uint64_t lo = 0, hi = l->blocks - 1, mid;
	uint32_t first, last, c;
	int ret;

	ret = xlog_cycle(d, l, lo, &first);
	if (!ret)
		ret = xlog_cycle(d, l, hi, &last);
	if (ret)
		return ret;
	*cycle = first;
	if (first == last) {
		*head = 0;
		return 0;
	}
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		ret = xlog_cycle(d, l, mid, &c);
		if (ret)
			return ret;
		if (c == first)
			lo = mid;
		else
			hi = mid;
	}
	*head = hi;
	return 0;
}

static int xfs_log_geometry(struct dev *d, const uint8_t *sb, struct xlog *l)
{
	uint64_t logstart = be64(sb + 48), agno, agbno;
	unsigned int blocklog = sb[120], agblklog = sb[124];

	if (!logstart)
		return bad(d, -EOPNOTSUPP, "an external log, which is not checked");
	if (blocklog < 9 || blocklog > 16 || agblklog > 31)
		return bad(d, -EINVAL, "xfs: a superblock with impossible geometry");
	agno = logstart >> agblklog;
	agbno = logstart & ((1ull << agblklog) - 1);
	l->start = (agno * be32(sb + 84) + agbno) << blocklog;
	l->blocks = (uint64_t)be32(sb + 96) << (blocklog - 9);
	if (l->blocks < 2 * XLOG_TAIL_BLOCKS)
		return bad(d, -EINVAL, "xfs: a log of %llu sectors",
			   (unsigned long long)l->blocks);
	return 0;
}

static int xfs_uuid(struct dev *d, uint8_t *uuid)
{
	uint8_t sb[SECTOR];
	int ret = read_at(d, sb, sizeof(sb), 0);

	if (ret)
		return ret;
	if (be32(sb) != XFS_MAGIC)
		return -EINVAL;
	memcpy(uuid, sb + 32, 16);
	return 0;
}

static int xfs_print(struct dev *d, struct kjh_fs *f)
{
	uint8_t sb[SECTOR], bb[SECTOR];
	uint64_t head = 0, i, at;
	uint32_t cycle = 0, crc = 0;
	struct xlog l = { 0 };
	int ret;

	ret = read_at(d, sb, sizeof(sb), 0);
	if (ret)
		return ret;
	if (be32(sb) != XFS_MAGIC)
		return bad(d, -EINVAL, "no xfs superblock");
	memcpy(f->uuid, sb + 32, sizeof(f->uuid));
	f->sb_crc = kjh_crc32c(0, sb, sizeof(sb));
	ret = xfs_log_geometry(d, sb, &l);
	if (!ret)
		ret = xlog_head(d, &l, &head, &cycle);
	for (i = 0; !ret && i < XLOG_TAIL_BLOCKS; i++) {
		at = (head + l.blocks - XLOG_TAIL_BLOCKS + i) % l.blocks;
		ret = read_at(d, bb, sizeof(bb), l.start + at * SECTOR);
		crc = kjh_crc32c(crc, bb, sizeof(bb));
	}
	if (ret)
		return ret;
	f->log_crc = crc;
	f->log_pos = (uint64_t)cycle << 32 | head;
	f->flags |= KJH_FS_LOG;
	return 0;
}

/* ------------------------------------------------------------ vfat */

struct fat_geo {
	uint32_t sector;		/* bytes */
	uint64_t fat;			/* byte offset of the first FAT */
	uint64_t fat_bytes;
	uint64_t root;			/* byte offset of the root directory */
	uint64_t root_bytes;
	uint64_t fsinfo;		/* byte offset, 0: none (FAT12/16) */
};

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

static int fat_geometry(struct dev *d, const uint8_t *bs, struct fat_geo *g)
{
	uint32_t spc = bs[13], reserved = le16(bs + 14), nfats = bs[16];
	uint32_t fat_sz = le16(bs + 22) ? le16(bs + 22) : le32(bs + 36);
	uint64_t data;

	g->sector = le16(bs + 11);
	if (g->sector < SECTOR || g->sector > 4096 || !is_pow2(g->sector) ||
	    !is_pow2(spc) || !reserved || !nfats || !fat_sz)
		return bad(d, -EINVAL, "vfat: a boot sector with impossible geometry");
	g->fat = (uint64_t)reserved * g->sector;
	g->fat_bytes = (uint64_t)fat_sz * g->sector;
	data = g->fat + nfats * g->fat_bytes;
	if (le16(bs + 22)) {		/* FAT12/16: a fixed root */
		g->fsinfo = 0;
		g->root = data;
		g->root_bytes = (uint64_t)le16(bs + 17) * 32;
	} else {			/* FAT32: root's first cluster */
		g->fsinfo = (uint64_t)le16(bs + 48) * g->sector;
		if (le32(bs + 44) < 2)
			return bad(d, -EINVAL, "vfat: root directory cluster %u",
				   le32(bs + 44));
		g->root = data + ((uint64_t)le32(bs + 44) - 2) * spc *
			  g->sector;
		g->root_bytes = (uint64_t)spc * g->sector;
	}
	if (g->fat_bytes > FAT_HASH_MAX)
		g->fat_bytes = FAT_HASH_MAX;
	if (g->root_bytes > FAT_ROOT_MAX)
		g->root_bytes = FAT_ROOT_MAX;
	return 0;
}

static int hash_range(struct dev *d, uint64_t off, uint64_t len,
		      uint32_t *crc)
{
	uint8_t buf[4096];
	size_t n;
	int ret;

	while (len) {
		n = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		ret = read_at(d, buf, n, off);
		if (ret)
			return ret;
		*crc = kjh_crc32c(*crc, buf, n);
		off += n;
		len -= n;
	}
	return 0;
}

static bool fat_boot_sector(const uint8_t *bs)
{
	return bs[510] == 0x55 && bs[511] == 0xaa &&
	       (!memcmp(bs + 54, "FAT", 3) || !memcmp(bs + 82, "FAT32", 5));
}

/* The volume id, where FAT12/16 or FAT32 keep it. */
static void fat_volume_id(const uint8_t *bs, uint8_t *uuid)
{
	memset(uuid, 0, 16);
	memcpy(uuid, bs + (le16(bs + 22) ? 39 : 67), 4);
}

static int vfat_uuid(struct dev *d, uint8_t *uuid)
{
	uint8_t bs[SECTOR];
	int ret = read_at(d, bs, sizeof(bs), 0);

	if (ret)
		return ret;
	if (!fat_boot_sector(bs))
		return -EINVAL;
	fat_volume_id(bs, uuid);
	return 0;
}

static int vfat_print(struct dev *d, struct kjh_fs *f)
{
	uint8_t bs[SECTOR], info[SECTOR];
	struct fat_geo g = { 0 };
	uint32_t crc = 0;
	int ret;

	ret = read_at(d, bs, sizeof(bs), 0);
	if (ret)
		return ret;
	if (!fat_boot_sector(bs))
		return bad(d, -EINVAL, "no FAT boot sector");
	ret = fat_geometry(d, bs, &g);
	if (ret)
		return ret;
	fat_volume_id(bs, f->uuid);
	f->sb_crc = kjh_crc32c(0, bs, sizeof(bs));
	if (g.fsinfo) {
		ret = read_at(d, info, sizeof(info), g.fsinfo);
		if (ret)
			return ret;
		crc = kjh_crc32c(crc, info, sizeof(info));
		f->log_pos = le32(info + 488);
	}
	ret = hash_range(d, g.fat, g.fat_bytes, &crc);
	if (!ret)
		ret = hash_range(d, g.root, g.root_bytes, &crc);
	if (ret)
		return ret;
	f->log_crc = crc;
	f->flags |= KJH_FS_LOG;
	return 0;
}

/* ---------------------------------------------------------- types */

static const struct {
	const char *type;
	int (*uuid)(struct dev *d, uint8_t *uuid);
	int (*print)(struct dev *d, struct kjh_fs *f);
} printers[] = {
	{ "ext2", ext_uuid, ext_print },
	{ "ext3", ext_uuid, ext_print },
	{ "ext4", ext_uuid, ext_print },
	{ "xfs", xfs_uuid, xfs_print },
	{ "vfat", vfat_uuid, vfat_print },
};

static int printer_of(const char *type)
{
	size_t i;

	for (i = 0; i < sizeof(printers) / sizeof(printers[0]); i++)
		if (!strncmp(type, printers[i].type, 16))
			return (int)i;
	return -1;
}

bool kjh_fs_type_printable(const char *type)
{
	return printer_of(type) >= 0;
}

int kjh_fs_fingerprint(int fd, struct kjh_fs *f, char *why, size_t why_size)
{
	struct dev d = { fd, why, why_size };
	int i = printer_of(f->type);

	if (i < 0)
		return bad(&d, -EOPNOTSUPP, "%.16s has no fingerprint", f->type);
	memset(f->uuid, 0, sizeof(f->uuid));
	f->sb_crc = f->log_crc = 0;
	f->log_pos = 0;
	f->flags &= ~(KJH_FS_PRINTED | KJH_FS_LOG);
	i = printers[i].print(&d, f);
	if (!i)
		f->flags |= KJH_FS_PRINTED;
	return i;
}

int kjh_fs_read_uuid(int fd, const char *type, uint8_t uuid[16])
{
	char why[8];
	struct dev d = { fd, why, sizeof(why) };
	int i = printer_of(type);

	return i < 0 ? -EINVAL : printers[i].uuid(&d, uuid);
}
