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
 * All fields little-endian (x86).  Layout checked by the static asserts
 * below; both kernels of a jump must agree on version.
 */
#include <stdint.h>

#define KJ_JUMP_PARAM_MAGIC	0x4d52504bu	/* "KPRM" */
#define KJ_JUMP_PARAM_VERSION	1u
#define KJ_JUMP_PARAM_SIZE	4096u
#define KJ_JUMP_PARAM_HAS_MAP	(1u << 0)	/* map_* and snapshot_header set */
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
	uint64_t reserved0;
	uint32_t request_len;
	uint32_t status_len;
	uint32_t kernel_word;		/* sizeof(long) of A's kernel */
	uint32_t reserved1[13];
	char request[KJ_JUMP_REQUEST_MAX];
	char status[KJ_JUMP_STATUS_MAX];
};

_Static_assert(sizeof(struct kj_jump_param) == KJ_JUMP_PARAM_SIZE,
	       "kexec jump parameter page layout");
_Static_assert(__builtin_offsetof(struct kj_jump_param, request) == 128,
	       "kexec jump parameter page: request at 128");
_Static_assert(__builtin_offsetof(struct kj_jump_param, status) == 2048,
	       "kexec jump parameter page: status at 2048");

#define KJ_JUMP_REQUEST_PATH	"/sys/kernel/kexec_jump_request"
#define KJ_JUMP_STATUS_PATH	"/sys/kernel/kexec_jump_status"

#endif
