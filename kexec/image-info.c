// SPDX-License-Identifier: GPL-2.0-only
/*
 * kexec --image-info: a hibernation image's header, read as a plain file
 * (A wrote the image through the file system, so its logical offsets
 * are the file's; a whole device holds it at offset 0).
 */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kjump/kjump-hib.h"
#include "image-info.h"
#include "report.h"

static void print_time(const char *key, uint64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char buf[64] = "";

	if (t && gmtime_r(&tt, &tm))
		strftime(buf, sizeof(buf), " (%Y-%m-%d %H:%M:%S UTC)", &tm);
	printf("%s: %" PRIu64 "%s\n", key, t, buf);
}

static void print_identity(const struct kjh_identity *id)
{
	unsigned int i;

	printf("release: %.65s\n", id->release);
	printf("kernel version: %.65s\n", id->version);
	printf("machine: %.16s\n", id->machine);
	printf("build id: ");
	for (i = 0; i < id->build_id_len && i < sizeof(id->build_id); i++)
		printf("%02x", id->build_id[i]);
	printf("%s\n", id->build_id_len ? "" : "(none)");
	printf("boot id: %.37s\n", id->boot_id);
}

static void print_ram(const struct kjh_image *img)
{
	uint32_t i;

	printf("ram ranges: %u\n", img->hdr.ram_count);
	for (i = 0; i < img->hdr.ram_count; i++)
		printf("ram: 0x%" PRIx64 "-0x%" PRIx64 "\n", img->ram[i].start,
		       img->ram[i].end);
}

static void print_uuid(const uint8_t *u)
{
	int i;

	for (i = 0; i < 16; i++)
		printf("%02x", u[i]);
}

static void print_fs(const struct kjh_image *img)
{
	const struct kjh_fs *fs;
	uint32_t i;

	printf("file systems: %u\n", img->hdr.fs_count);
	for (i = 0; i < img->hdr.fs_count; i++) {
		fs = &img->fs[i];
		printf("fs: %u:%u %.16s %.64s uuid ", fs->dev_major,
		       fs->dev_minor, fs->type, fs->name);
		print_uuid(fs->uuid);
		if (!(fs->flags & KJH_FS_PRINTED))
			printf(" no fingerprint\n");
		else if (fs->flags & KJH_FS_LOG)
			printf(" sb %08x log %08x at 0x%" PRIx64 "\n",
			       fs->sb_crc, fs->log_crc, fs->log_pos);
		else
			printf(" sb %08x\n", fs->sb_crc);
	}
}

/* Where the image's blocks are: what --resume and --resume-offset need. */
static void print_location(const struct kjh_dev *dev)
{
	uint8_t blk[KJH_BLOCK];
	const struct kjh_extents *x = (const struct kjh_extents *)blk;
	const struct kjh_extent *e = (const struct kjh_extent *)(x + 1);

	if (kjh_dev_pread(dev, blk, sizeof(blk), KJH_EXTENTS_OFF) ||
	    memcmp(x->magic, KJH_EXTENTS_MAGIC, 8) || !x->count)
		return;
	printf("device: %u:%u, %" PRIu64 " bytes\n", x->dev_major,
	       x->dev_minor, x->dev_size);
	printf("extents: %u%s, block 0 at byte %" PRIu64 " of the device\n",
	       x->count, x->is_file ? " (a file)" : "", e[0].physical);
}

static void print_header(const struct kjh_image *img)
{
	const struct kjh_header *h = &img->hdr;

	printf("state: %s\n", kjh_state_name(h->state));
	printf("resumable: %s\n", kjh_header_resumable(h) ? "yes" :
	       "no (a snapshot: its kernel ran on after the save)");
	printf("version: %u\n", h->version);
	printf("mode: %s\n", h->flags & KJH_F_SNAPSHOT ? "snapshot" :
	       "hibernate");
	print_time("created", h->created);
	print_time("saved", h->saved);
	print_identity(&h->id);
	print_ram(img);
	printf("crash region: 0x%" PRIx64 "-0x%" PRIx64 "\n", h->crash_start,
	       h->crash_end);
	printf("jump buffer pfn: 0x%" PRIx64 "\n", h->jump_buf_pfn);
	printf("jump entry: 0x%" PRIx64 "\n", h->jump_entry);
	printf("kernel word: %u\n", h->kernel_word);
	printf("pages: %" PRIu64 "\n", h->pages);
	printf("data pages: %" PRIu64 "\n", h->data_pages);
	printf("zero pages: %" PRIu64 "\n", h->zero_pages);
	printf("map pages: %" PRIu64 "\n", h->map_pages);
	printf("free pages: %" PRIu64 "\n", h->free_pages);
	printf("runs: %" PRIu64 "\n", h->run_count);
	printf("tables: RAM map at byte %" PRIu64 ", file systems at byte %" PRIu64
	       ", swsusp header at byte %" PRIu64 ", runs at byte %" PRIu64 "\n",
	       h->ram_off, h->fs_off, h->swsusp_off, h->run_off);
	printf("compression: %s\n",
	       kjh_compress_name((enum kjh_compress)h->compress));
	printf("chunks: %" PRIu64 " of %u pages, the first at byte %" PRIu64 "\n",
	       h->chunk_count, h->chunk_pages, h->chunk_off);
	printf("raw bytes: %" PRIu64 "\n", h->raw_bytes);
	printf("stored bytes: %" PRIu64 "\n", h->stored_bytes);
	printf("ratio: %.2f\n", h->stored_bytes ?
	       (double)h->raw_bytes / (double)h->stored_bytes : 1.0);
	printf("image bytes: %" PRIu64 "\n", h->image_bytes);
	printf("capacity: %" PRIu64 "\n", h->capacity);
	print_location(img->dev);
	print_fs(img);
}

/*
 * A resumed image whose data was zeroed: only the header is left, which
 * says what it was.
 */
static bool print_wiped(const struct kjh_dev *dev, bool check)
{
	struct kjh_header h;
	char why[160];

	if (kjh_image_read_header(dev, &h, why, sizeof(why)) ||
	    !(h.flags & KJH_F_WIPED))
		return false;
	printf("state: %s, wiped\n", kjh_state_name(h.state));
	printf("resumable: no (resumed once; everything after the header was zeroed since)\n");
	printf("version: %u\n", h.version);
	print_time("created", h.created);
	print_time("saved", h.saved);
	print_time("consumed", h.consumed);
	print_identity(&h.id);
	printf("pages: %" PRIu64 "\n", h.pages);
	printf("image bytes: %" PRIu64 " (zeroed)\n", h.image_bytes);
	printf("capacity: %" PRIu64 "\n", h.capacity);
	if (check)
		printf("verify: nothing left to verify\n");
	return true;
}

static int target_size(int fd, uint64_t *size)
{
	struct stat sb;

	if (fstat(fd, &sb))
		return -errno;
	if (S_ISBLK(sb.st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	*size = (uint64_t)sb.st_size;
	return 0;
}

static int verify(struct kjh_image *img)
{
	char why[256];
	uint64_t bad = 0;

	if (kjh_image_verify(img, &bad, why, sizeof(why))) {
		report_err("image-info: chunk %" PRIu64 ": %s", bad, why);
		return -1;
	}
	printf("verify: ok, %" PRIu64 " chunks, %" PRIu64 " pages\n",
	       img->hdr.chunk_count, img->hdr.pages);
	return 0;
}

int image_info(const char *target, bool check)
{
	struct kjh_image img;
	struct kjh_dev dev;
	uint64_t size = 0;
	char why[256];
	int fd, r;

	fd = open(target, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		report_err("image-info: %s: %s", target, strerror(errno));
		return -1;
	}
	r = target_size(fd, &size);
	if (!r)
		r = kjh_dev_init_plain(&dev, fd, size);
	if (r) {
		report_err("image-info: %s: %s", target, r == -ENOSPC ?
			   "no kexec hibernation image (too short)" :
			   strerror(-r));
		close(fd);
		return -1;
	}
	if (print_wiped(&dev, check))
		goto out;
	r = kjh_image_open(&img, &dev, why, sizeof(why));
	if (r) {
		report_err("image-info: %s: %s", target, why);
		goto out;
	}
	print_header(&img);
	if (check)
		r = verify(&img);
	kjh_image_close(&img);
out:
	kjh_dev_fini(&dev);
	close(fd);
	return r ? -1 : 0;
}
