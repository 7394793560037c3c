/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every x86 Linux load does after its kernel segments are placed:
 * the initrd, the zero page with the command line, and purgatory with
 * its parameter block.  The bzImage and ELF loaders differ only in what
 * they put in struct x86_linux_boot.
 *
 * Layout: initrd highest fit below initrd_max; boot params + command
 * line, then purgatory, highest fit below the architecture's placement
 * limit, i.e. just under the initrd.
 */
#ifndef KJUMP_LINUX_BOOT_H
#define KJUMP_LINUX_BOOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "bzimage.h"

struct x86_linux_boot {
	/* The bzImage's header, copied into the zero page; NULL: none (a
	 * vmlinux), boot-params.c synthesises one. */
	const struct bzimage_info *bi;
	uint64_t entry;			/* where purgatory enters the kernel */
	uint64_t initrd_max;		/* highest byte the initrd may use */
	size_t cmdline_max;		/* longest command line, NUL excluded */
	const char *who;		/* "this kernel": for the length error */
	/* Tell purgatory where the command line ends even for a load that
	 * does not come back (kexec_test checks it). */
	bool jump_room_always;
};

/*
 * The final command line fits lb (with the word purgatory appends to a
 * preserve-context load).  Reports its errors.
 */
int x86_check_cmdline(const struct load_request *req,
		      const struct x86_linux_boot *lb);

/* The initrd, zero page and purgatory; sets the entry.  Reports errors. */
int x86_boot_linux(const struct load_request *req, struct kexec_image *img,
		   const struct x86_linux_boot *lb);

#endif
