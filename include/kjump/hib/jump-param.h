/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_JUMP_PARAM_H
#define KJUMP_HIB_JUMP_PARAM_H

/*
 * The kexec jump parameter page, as the companion kernel series defines it
 * (include/uapi/linux/kexec.h there): one page of kernel A's memory that
 * carries a request from A's user space into the kernel B a
 * LINUX_REBOOT_CMD_KJUMP enters, and a status from B back to A.
 *
 *   A: write the request      -> /sys/kernel/kexec_jump_request
 *      (one write at offset 0, at most KJ_JUMP_REQUEST_MAX bytes; it
 *      clears the status and the map fields)
 *   A: reboot(LINUX_REBOOT_CMD_KJUMP): with a request, A's kernel jumps as
 *      a hibernation backend and fills map_* and snapshot_header
 *   B: read the whole page     <- /sys/kernel/kexec_jump_request
 *      (read through the jump record of kexec_jump_buf_pfn=)
 *   B: write the status        -> /sys/kernel/kexec_jump_status
 *      (at most KJ_JUMP_STATUS_MAX bytes, into A's page at once)
 *   B: reboot(LINUX_REBOOT_CMD_KJUMP) back
 *   A: read the status         <- /sys/kernel/kexec_jump_status
 *      (A's kernel cleared the request when B came back)
 *
 * The map: a bitmap of A's page frames that hold data (swsusp's saveable
 * pages, minus free pages, the crash region and the map itself), bit
 * (pfn % 32768) of bitmap page pfn / 32768, little-endian bit order as
 * the kernel's test_bit().  map_dir is the physical address of a page of
 * __u64 page frame numbers, one per bitmap page.  All addresses are A's
 * physical memory, readable in B through /proc/vmcore.
 *
 * snapshot_header: the physical address of a page holding swsusp's image
 * header (struct swsusp_info with the arch header) as A's kernel would
 * write it for an image of exactly the map's pages.
 *
 * supers (with KJ_JUMP_PARAM_HAS_SUPERS): the physical address of a page
 * of struct kj_jump_super, one per file system A's kernel had mounted
 * read-write on a block device at the jump, in any mount namespace;
 * super_count of them, cut at KJ_JUMP_SUPERS_MAX.
 *
 * All fields little-endian (x86).  Layout checked by the static asserts
 * below; both kernels of a jump must agree on version.
 */
#include <stdint.h>

#define KJ_JUMP_PARAM_MAGIC	0x4d52504bu	/* "KPRM" */
#define KJ_JUMP_PARAM_VERSION	1u
#define KJ_JUMP_PARAM_SIZE	4096u
#define KJ_JUMP_PARAM_HAS_MAP	(1u << 0)	/* map_* and snapshot_header set */
#define KJ_JUMP_PARAM_HAS_SUPERS (1u << 3)	/* supers, super_count set */
#define KJ_JUMP_REQUEST_MAX	1920u
#define KJ_JUMP_STATUS_MAX	2048u
#define KJ_JUMP_MAP_BITS	32768u		/* pfns per bitmap page */

struct kj_jump_param {
	uint32_t magic;
	uint32_t version;
	uint32_t size;			/* KJ_JUMP_PARAM_SIZE */
	uint32_t flags;			/* KJ_JUMP_PARAM_HAS_MAP */
	uint64_t map_dir;		/* phys: page of u64 bitmap pfns */
	uint64_t map_pfn_end;		/* the map covers pfns [0, end) */
	uint64_t map_pages;		/* bits set in the map */
	uint64_t snapshot_header;	/* phys: struct swsusp_info page */
	uint64_t free_pages;		/* free pages at the jump (info) */
	uint64_t supers;		/* phys: page of kj_jump_super */
	uint32_t request_len;
	uint32_t status_len;
	uint32_t kernel_word;		/* sizeof(long) of A's kernel */
	uint32_t super_count;		/* rw file systems at the jump */
	uint32_t reserved1[12];
	char request[KJ_JUMP_REQUEST_MAX];
	char status[KJ_JUMP_STATUS_MAX];
};

/* A file system A's kernel had mounted read-write (kernel's encoding). */
struct kj_jump_super {
	uint32_t dev;			/* s_dev, as new_encode_dev() */
	uint32_t bdev;			/* its block device; 0: none */
	uint8_t uuid[16];		/* s_uuid (vfat: zeros) */
	char type[16];			/* NUL-padded, may be cut */
	char id[32];			/* s_id: the device's name */
};

#define KJ_JUMP_SUPERS_MAX	(KJ_JUMP_PARAM_SIZE / sizeof(struct kj_jump_super))

/* The kernel's new_encode_dev(), undone. */
static inline uint32_t kj_dev_major(uint32_t dev)
{
	return (dev & 0xfff00u) >> 8;
}

static inline uint32_t kj_dev_minor(uint32_t dev)
{
	return (dev & 0xffu) | ((dev >> 12) & 0xfff00u);
}

_Static_assert(sizeof(struct kj_jump_super) == 72, "kexec jump super");
_Static_assert(sizeof(struct kj_jump_param) == KJ_JUMP_PARAM_SIZE,
	       "kexec jump parameter page layout");
_Static_assert(__builtin_offsetof(struct kj_jump_param, request) == 128,
	       "kexec jump parameter page: request at 128");
_Static_assert(__builtin_offsetof(struct kj_jump_param, status) == 2048,
	       "kexec jump parameter page: status at 2048");

#define KJ_JUMP_REQUEST_PATH	"/sys/kernel/kexec_jump_request"
#define KJ_JUMP_STATUS_PATH	"/sys/kernel/kexec_jump_status"

#endif
