// SPDX-License-Identifier: GPL-2.0-only
/*
 * The signatures a hibernation target must not be written over without
 * --overwrite (signature.h): partition tables, the file systems and
 * volume formats a disk of Linux is likely to hold, and swap.  Offsets
 * and magics are the formats' own (as libblkid reads them).
 */
#include <stdbool.h>
#include <string.h>

#include "kjump/hib/image-format.h"
#include "hib/signature.h"

struct magic {
	size_t off;
	const char *bytes;
	size_t len;
	const char *what;
};

#define M(o, b, w) { (o), (b), sizeof(b) - 1, (w) }

static const struct magic magics[] = {
	M(512, "EFI PART", "a GPT partition table"),
	M(1080, "\x53\xef", "an ext2/3/4 file system"),
	M(0, "XFSB", "an xfs file system"),
	M(0x10040, "_BHRfS_M", "a btrfs file system"),
	M(0, "LUKS\xba\xbe", "a LUKS encrypted volume"),
	M(536, "LVM2 001", "an LVM physical volume"),
	M(4096, "\xfc\x4e\x2b\xa9", "an md RAID member"),
	M(0, "\xfc\x4e\x2b\xa9", "an md RAID member"),
	M(4086, "SWAPSPACE2", "swap"),
	M(4086, "SWAP-SPACE", "swap"),
	M(4086, "S1SUSPEND", "a swsusp hibernation image"),
	M(0x8001, "CD001", "an ISO 9660 file system"),
	M(3, "NTFS    ", "an NTFS file system"),
	M(3, "EXFAT   ", "an exFAT file system"),
	M(0, "\xe2\xe1\xf5\xe0", "an f2fs file system"),
	M(0x400, "\x10\x20\xf5\xf2", "an f2fs file system"),
	M(82, "FAT32   ", "a FAT file system"),
	M(54, "FAT12   ", "a FAT file system"),
	M(54, "FAT16   ", "a FAT file system"),
};

static bool has(const uint8_t *buf, size_t len, const struct magic *m)
{
	return m->off + m->len <= len && !memcmp(buf + m->off, m->bytes, m->len);
}

/* An MBR: the boot signature and at least one partition entry in use. */
static bool mbr(const uint8_t *buf, size_t len)
{
	size_t i;

	if (len < 512 || buf[510] != 0x55 || buf[511] != 0xaa)
		return false;
	for (i = 446; i < 510; i += 16)
		if (buf[i + 4])		/* the partition type */
			return true;
	return false;
}

static bool zeros(const uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i])
			return false;
	return true;
}

enum kjh_content kjh_signature(const uint8_t *buf, size_t len,
			       const char **what)
{
	size_t i;

	*what = NULL;
	if (len >= sizeof(KJH_MAGIC) - 1 &&
	    !memcmp(buf, KJH_MAGIC, sizeof(KJH_MAGIC) - 1))
		return KJH_CONTENT_IMAGE;
	for (i = 0; i < sizeof(magics) / sizeof(magics[0]); i++) {
		if (has(buf, len, &magics[i])) {
			*what = magics[i].what;
			return KJH_CONTENT_KNOWN;
		}
	}
	if (mbr(buf, len)) {
		*what = "an MBR partition table";
		return KJH_CONTENT_KNOWN;
	}
	return zeros(buf, len) ? KJH_CONTENT_EMPTY : KJH_CONTENT_DATA;
}
