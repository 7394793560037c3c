// SPDX-License-Identifier: GPL-2.0-only
/*
 * The hibernation image reader and the resume's checks on untrusted
 * bytes: kjh_image_open() (header, commit record, counts, sections,
 * tables, runs), then, for an image it accepts, the resume's header and
 * RAM checks against a running kernel that matches it, and every chunk
 * read back (kjh_image_verify()).
 *
 * The input is the image without the 64 KiB of extent list a reader of
 * a plain file never looks at: its first 4096 bytes are block 0, the
 * rest the image from KJH_DATA_OFF on.
 *
 * Promises checked: an accepted image's runs ascend without overlap,
 * hold exactly its pages, and lie inside its RAM ranges; it is
 * COMMITTED or SNAPSHOT; the resume refuses a SNAPSHOT one.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "hib/resume-check.h"
#include "kjump/hib/image-read.h"

#define FUZZ_IMAGE_MAX	(1u << 20)

static int image_fd(const uint8_t *data, size_t size, uint64_t *len)
{
	int fd = memfd_create("image", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	*len = KJH_DATA_OFF + (size > KJH_BLOCK ? size - KJH_BLOCK : 0);
	if (ftruncate(fd, (off_t)*len) ||
	    pwrite(fd, data, size < KJH_BLOCK ? size : KJH_BLOCK, 0) < 0 ||
	    (size > KJH_BLOCK &&
	     pwrite(fd, data + KJH_BLOCK, size - KJH_BLOCK, KJH_DATA_OFF) < 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

static void check_runs(const struct kjh_image *img)
{
	uint64_t next = 0, sum = 0, i;

	for (i = 0; i < img->hdr.run_count; i++) {
		FUZZ_ASSERT(img->runs[i].count && img->runs[i].pfn >= next);
		next = img->runs[i].pfn + img->runs[i].count;
		sum += img->runs[i].count;
	}
	FUZZ_ASSERT(sum == img->hdr.pages);
}

/* A running kernel the image's identity and RAM map match. */
static void check_resume(const struct kjh_image *img)
{
	static struct kjh_host host;
	char why[320];
	uint32_t n = img->hdr.ram_count;

	memset(&host, 0, sizeof(host));
	host.id = img->hdr.id;
	host.kernel_word = img->hdr.kernel_word;
	host.crash_start = img->hdr.crash_start;
	host.crash_end = img->hdr.crash_end;
	host.ram_count = n <= KJH_HOST_RAM_MAX ? n : KJH_HOST_RAM_MAX;
	memcpy(host.ram, img->ram, host.ram_count * sizeof(*img->ram));
	if (!kjh_resume_check_header(&img->hdr, &host, why, sizeof(why)))
		FUZZ_ASSERT(img->hdr.state == KJH_STATE_COMMITTED &&
			    !(img->hdr.flags & KJH_F_SNAPSHOT));
	kjh_resume_check_ram(img->ram, n, &host, why, sizeof(why));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kjh_image img;
	struct kjh_dev dev;
	uint64_t len, bad;
	char why[320];
	int fd;

	if (size > FUZZ_IMAGE_MAX)
		return 0;
	fd = image_fd(data, size, &len);
	if (fd < 0)
		return 0;
	if (!kjh_dev_init_plain(&dev, fd, len)) {
		if (!kjh_image_open(&img, &dev, why, sizeof(why))) {
			FUZZ_ASSERT(img.hdr.state == KJH_STATE_COMMITTED ||
				    img.hdr.state == KJH_STATE_SNAPSHOT);
			check_runs(&img);
			check_resume(&img);
			kjh_image_verify(&img, &bad, why, sizeof(why));
			kjh_image_close(&img);
		}
		kjh_dev_fini(&dev);
	}
	close(fd);
	return 0;
}
