// SPDX-License-Identifier: GPL-2.0-only
/*
 * A's read-write file systems, fingerprinted in B (fs-record.h).  Nothing
 * of A's can change them any more: A's kernel synced them, flushed every
 * disk and froze its tasks and kernel threads before it listed them.
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dev-node.h"
#include "fs-record.h"
#include "pipeline.h"

#define TABLE_BYTES	kjh_round_up(KJH_FS_SLOTS * sizeof(struct kjh_fs))

struct rec {
	const struct kjs_job *job;
	const struct kjh_dev *dev;
	struct kjh_header *h;
	char *why;
	size_t why_size;
};

__attribute__((format(printf, 3, 4)))
static int bad(struct rec *r, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, r->why_size, fmt, ap);
	va_end(ap);
	return err;
}

/* The list A's kernel published, into sup[]. */
static int read_supers(struct rec *r, struct kj_vmcore *vc,
		       struct kj_jump_super *sup)
{
	const struct kj_jump_param *p = r->job->param;

	if (!(p->flags & KJ_JUMP_PARAM_HAS_SUPERS))
		return bad(r, -EOPNOTSUPP, "A's kernel did not list its file systems (it lacks the companion series' patch 0037)");
	if (p->super_count > KJ_JUMP_SUPERS_MAX ||
	    p->super_count > KJH_FS_SLOTS)
		return bad(r, -E2BIG, "A had %u file systems mounted read-write: an image records at most %u",
			   p->super_count, KJH_FS_SLOTS);
	if (!p->super_count)
		return 0;
	if (kj_vmcore_read(vc, p->supers, sup, KJ_JUMP_PARAM_SIZE))
		return bad(r, -EIO, "cannot read A's list of file systems at 0x%llx",
			   (unsigned long long)p->supers);
	return 0;
}

/* A's own table, as prepared: where A had each mounted. */
static int read_prepared(struct rec *r, struct kjh_fs *a)
{
	int ret;

	if (r->h->fs_count > KJH_FS_SLOTS)
		return bad(r, -EBADMSG, "the prepared image lists %u file systems",
			   r->h->fs_count);
	ret = kjh_dev_pread(r->dev, a, TABLE_BYTES, r->h->fs_off);
	if (ret)
		return bad(r, ret, "reading A's file system table: %s",
			   strerror(-ret));
	return 0;
}

static void name(struct kjh_fs *f, const struct kj_jump_super *s,
		 const struct kjh_fs *a, uint32_t na)
{
	uint32_t i;

	for (i = 0; i < na; i++)
		if (a[i].dev_major == f->dev_major &&
		    a[i].dev_minor == f->dev_minor) {
			memcpy(f->name, a[i].name, sizeof(f->name));
			return;
		}
	snprintf(f->name, sizeof(f->name), "%.32s", s->id);
}

static bool uuid_zero(const uint8_t *u)
{
	static const uint8_t zero[16];

	return !memcmp(u, zero, sizeof(zero));
}

/* f's fingerprint from A's device node, checked against A's kernel's. */
static int print_one(struct rec *r, const struct kj_jump_super *s,
		     struct kjh_fs *f)
{
	char node[4096], why[160];
	int fd, ret;

	if (!s->bdev)
		return bad(r, -EOPNOTSUPP, "%.64s (%.16s): no single device to check it on",
			   f->name, f->type);
	if (!kjh_fs_type_printable(f->type))
		return bad(r, -EOPNOTSUPP, "%.64s (%.16s): a resume could not tell whether it changed in between",
			   f->name, f->type);
	ret = kjs_dev_node(r->job->root ? r->job->root : "", f->dev_major,
			   f->dev_minor, node, sizeof(node));
	fd = ret ? ret : open(node, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bad(r, ret ? ret : -errno, "%.64s (%u:%u): cannot open its device: %s",
			   f->name, f->dev_major, f->dev_minor,
			   strerror(ret ? -ret : errno));
	ret = kjh_fs_fingerprint(fd, f, why, sizeof(why));
	close(fd);
	if (ret)
		return bad(r, ret, "%.64s (%.16s on %u:%u): %s", f->name,
			   f->type, f->dev_major, f->dev_minor, why);
	if (!uuid_zero(s->uuid) && memcmp(s->uuid, f->uuid, sizeof(f->uuid)))
		return bad(r, -ENODEV, "%.64s (%u:%u): its device holds another %.16s than A's kernel mounted (uuid)",
			   f->name, f->dev_major, f->dev_minor, f->type);
	return 0;
}

static int fill(struct rec *r, const struct kj_jump_super *sup, uint32_t n,
		struct kjh_fs *out, const struct kjh_fs *a)
{
	bool snapshot = r->job->req->mode == KJH_MODE_SNAPSHOT;
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		out[i].dev_major = kj_dev_major(sup[i].bdev ? sup[i].bdev :
						sup[i].dev);
		out[i].dev_minor = kj_dev_minor(sup[i].bdev ? sup[i].bdev :
						sup[i].dev);
		memcpy(out[i].type, sup[i].type, sizeof(out[i].type));
		name(&out[i], &sup[i], a, r->h->fs_count);
		ret = print_one(r, &sup[i], &out[i]);
		if (ret && !snapshot)
			return ret;
	}
	return 0;
}

/* The new table and the checksum of the RAM map with it. */
static int write_table(struct rec *r, const struct kjh_fs *fs, uint32_t n)
{
	struct kjh_header *h = r->h;
	uint64_t ram_len = kjh_round_up((uint64_t)h->ram_count *
					sizeof(struct kjh_ram_range));
	uint8_t *ram = block_alloc(ram_len ? ram_len : KJH_BLOCK);
	int ret = -ENOMEM;

	if (!ram)
		return bad(r, ret, "out of memory");
	ret = ram_len ? kjh_dev_pread(r->dev, ram, ram_len, h->ram_off) : 0;
	if (!ret)
		ret = kjh_write_at(r->dev, h->fs_off, fs, TABLE_BYTES);
	if (ret) {
		bad(r, ret, "writing the file system table: %s", strerror(-ret));
		goto out;
	}
	h->fs_count = n;
	h->sections_crc = kjh_sections_crc((struct kjh_ram_range *)ram,
					   h->ram_count, fs, n);
out:
	free(ram);
	return ret;
}

int kjs_record_filesystems(const struct kjs_job *job, struct kj_vmcore *vc,
			   const struct kjh_dev *dev, struct kjh_header *h,
			   char *why, size_t why_size)
{
	struct rec r = { job, dev, h, why, why_size };
	struct kj_jump_super *sup = block_alloc(KJ_JUMP_PARAM_SIZE);
	struct kjh_fs *a = block_alloc(TABLE_BYTES);
	struct kjh_fs *out = block_alloc(TABLE_BYTES);
	int ret = -ENOMEM;

	if (!sup || !a || !out) {
		bad(&r, ret, "out of memory");
		goto out;
	}
	memset(out, 0, TABLE_BYTES);
	ret = read_supers(&r, vc, sup);
	if (!ret)
		ret = read_prepared(&r, a);
	if (!ret)
		ret = fill(&r, sup, job->param->super_count, out, a);
	if (!ret)
		ret = write_table(&r, out, job->param->super_count);
out:
	free(sup);
	free(a);
	free(out);
	return ret;
}
