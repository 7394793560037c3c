// SPDX-License-Identifier: GPL-2.0-only
/*
 * The refusals of a resume (resume-check.h): each compares one thing the
 * image recorded about A with the running kernel, and says what differs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kjump/hib/image-read.h"
#include "resume-check.h"

static int refuse(int err, char *why, size_t why_size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_size, fmt, ap);
	va_end(ap);
	return err;
}

static int check_state(const struct kjh_header *hdr, char *why,
		       size_t why_size)
{
	switch (hdr->state) {
	case KJH_STATE_COMMITTED:
		if (kjh_header_resumable(hdr))
			return 0;
		/* fall through */
	case KJH_STATE_SNAPSHOT:
		return refuse(-EBADMSG, why, why_size,
			      "a snapshot: its kernel ran on after the save, so it is never resumed (--image-info reads it)");
	case KJH_STATE_CONSUMED:
		return refuse(-ESTALE, why, why_size,
			      "already resumed once (consumed at %" PRIu64 ")",
			      hdr->consumed);
	case KJH_STATE_PREPARED:
		return refuse(-EBADMSG, why, why_size,
			      "torn: prepared, but the crash kernel never wrote it");
	case KJH_STATE_WRITING:
		return refuse(-EBADMSG, why, why_size,
			      "torn: the writer did not finish (state writing)");
	case KJH_STATE_INVALID:
		return refuse(-EBADMSG, why, why_size, "invalid: %s",
			      kjh_invalid_why_text(hdr->invalid_why));
	default:
		return refuse(-EBADMSG, why, why_size, "unknown state %u",
			      hdr->state);
	}
}

static void hex(const uint8_t *b, unsigned int n, char *out, size_t size)
{
	unsigned int i;

	out[0] = '\0';
	for (i = 0; i < n && 2 * i + 2 < size; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* The same kernel build: uname first, then the build id when both have one. */
static int check_identity(const struct kjh_identity *img,
			  const struct kjh_identity *run, char *why,
			  size_t why_size)
{
	char a[65], b[65];

	if (strncmp(img->machine, run->machine, sizeof(img->machine)))
		return refuse(-EBADMSG, why, why_size,
			      "another machine type: image %.16s, running %.16s",
			      img->machine, run->machine);
	if (strncmp(img->release, run->release, sizeof(img->release)))
		return refuse(-EBADMSG, why, why_size,
			      "another kernel: image %.65s, running %.65s",
			      img->release, run->release);
	if (strncmp(img->version, run->version, sizeof(img->version)))
		return refuse(-EBADMSG, why, why_size,
			      "another kernel build: image \"%.65s\", running \"%.65s\"",
			      img->version, run->version);
	if (img->build_id_len && run->build_id_len &&
	    (img->build_id_len != run->build_id_len ||
	     memcmp(img->build_id, run->build_id, img->build_id_len))) {
		hex(img->build_id, img->build_id_len, a, sizeof(a));
		hex(run->build_id, run->build_id_len, b, sizeof(b));
		return refuse(-EBADMSG, why, why_size,
			      "another kernel build: build id %s, running %s",
			      a, b);
	}
	return 0;
}

/*
 * Only the size of the crash region must match (the same crashkernel=):
 * where the kernel puts it moves with KASLR, and the image holds none of
 * A's region, whose crash kernel A unloads once it is back.
 */
static uint64_t crash_size(uint64_t start, uint64_t end)
{
	return end > start ? end - start + 1 : 0;
}

int kjh_resume_check_header(const struct kjh_header *hdr,
			    const struct kjh_host *host, char *why,
			    size_t why_size)
{
	int ret;

	ret = kjh_header_check(hdr, why, why_size);
	if (ret)
		return ret;
	ret = check_state(hdr, why, why_size);
	if (ret)
		return ret;
	ret = check_identity(&hdr->id, &host->id, why, why_size);
	if (ret)
		return ret;
	if (hdr->page_size != KJH_PAGE || hdr->kernel_word != host->kernel_word)
		return refuse(-EBADMSG, why, why_size,
			      "page size %u and word %u, running 4096 and %u",
			      hdr->page_size, hdr->kernel_word,
			      host->kernel_word);
	if (crash_size(hdr->crash_start, hdr->crash_end) !=
	    crash_size(host->crash_start, host->crash_end))
		return refuse(-EBADMSG, why, why_size,
			      "another crash region: image %" PRIu64 " MiB, running %" PRIu64
			      " MiB (boot with the same crashkernel=)",
			      crash_size(hdr->crash_start, hdr->crash_end) >> 20,
			      crash_size(host->crash_start, host->crash_end) >> 20);
	return 0;
}

static uint64_t ram_bytes(const struct kjh_ram_range *r, uint32_t n)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		sum += r[i].end - r[i].start + 1;
	return sum;
}

int kjh_resume_check_ram(const struct kjh_ram_range *ram, uint32_t n,
			 const struct kjh_host *host, char *why,
			 size_t why_size)
{
	uint32_t i;

	for (i = 0; i < n && i < host->ram_count; i++)
		if (ram[i].start != host->ram[i].start ||
		    ram[i].end != host->ram[i].end)
			break;
	if (i == n && n == host->ram_count)
		return 0;
	return refuse(-EBADMSG, why, why_size,
		      "another RAM map: image %u ranges, %" PRIu64
		      " MiB, running %u ranges, %" PRIu64 " MiB (first difference: range %u)",
		      n, ram_bytes(ram, n) >> 20, host->ram_count,
		      ram_bytes(host->ram, host->ram_count) >> 20, i);
}

/* What log_crc covers, for each type. */
static const char *log_part(const char *type)
{
	if (!strncmp(type, "xfs", 16))
		return "log";
	if (!strncmp(type, "vfat", 16))
		return "FAT, FSInfo or root directory";
	return "journal";
}

static int check_one_fs(const struct kjh_fs *f, const struct kjh_fs *now,
			char *why, size_t why_size)
{
	const char *sb = strncmp(f->type, "vfat", 16) ? "superblock" :
							"boot sector";

	if (memcmp(f->uuid, now->uuid, sizeof(f->uuid)))
		return refuse(-EBUSY, why, why_size,
			      "%.64s (%.16s): another file system is there now (uuid)",
			      f->name, f->type);
	if (now->sb_crc != f->sb_crc)
		return refuse(-EBUSY, why, why_size,
			      "%.64s (%.16s): changed since the hibernation: its %s differs: it was mounted or written in between",
			      f->name, f->type, sb);
	if (now->log_crc != f->log_crc || now->log_pos != f->log_pos ||
	    (now->flags & KJH_FS_LOG) != (f->flags & KJH_FS_LOG))
		return refuse(-EBUSY, why, why_size,
			      "%.64s (%.16s): changed since the hibernation: its %s differs: it was mounted or written in between",
			      f->name, f->type, log_part(f->type));
	return 0;
}

int kjh_resume_check_fs(const struct kjh_fs *fs, uint32_t n,
			kjh_fs_probe probe, void *data, char *why,
			size_t why_size)
{
	struct kjh_fs now;
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		if (!(fs[i].flags & KJH_FS_PRINTED))
			return refuse(-EBADMSG, why, why_size,
				      "%.64s (%.16s): the image has no fingerprint of it",
				      fs[i].name, fs[i].type);
		now = fs[i];
		ret = probe(data, &fs[i], &now);
		if (ret)
			return refuse(-EBUSY, why, why_size,
				      "%.64s (%.16s): cannot read it: %s",
				      fs[i].name, fs[i].type, strerror(-ret));
		ret = check_one_fs(&fs[i], &now, why, why_size);
		if (ret)
			return ret;
	}
	return 0;
}
