// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bzImage loader: the 32-bit boot protocol's entry (i386) or the
 * 64-bit one (x86_64, 0x200 further), through purgatory.
 *
 * The kernel goes lowest fit at or above pref_address, kernel_alignment,
 * init_size bytes so decompression stays inside it; linux-boot.c adds
 * the initrd, boot params and purgatory.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "bzimage.h"
#include "linux-boot.h"
#include "x86-arch.h"

/* A bzImage with the entry this word size enters (x86_64: XLF_KERNEL_64). */
static int parse_for_arch(const char *buf, size_t len, struct bzimage_info *bi,
			  char *why, size_t whylen)
{
	uint16_t need = x86_arch.bzimage_xloadflags;

	if (bzimage_parse(buf, len, bi, why, whylen))
		return -1;
	if (!need)
		return 0;
	if (bi->version < 0x020c)
		snprintf(why, whylen, "boot protocol %u.%02u: an %s entry needs 2.12 or later",
			 bi->version >> 8, bi->version & 0xff, x86_arch.name);
	else if ((bi->xloadflags & need) != need)
		snprintf(why, whylen, "no %s entry (a 32-bit kernel)",
			 x86_arch.name);
	else
		return 0;
	return -1;
}

static int bzimage_probe(const char *buf, size_t len, char *why,
			 size_t whylen)
{
	struct bzimage_info bi;

	return parse_for_arch(buf, len, &bi, why, whylen);
}

static int parse(const struct load_request *req, struct bzimage_info *bi)
{
	char why[128];

	if (!parse_for_arch(req->kernel, req->kernel_len, bi, why,
			    sizeof(why)))
		return 0;
	kj_err(req->ctx, "%s: not a bzImage: %s", req->spec->kernel, why);
	return -EINVAL;
}

static int bzimage_check(const struct load_request *req)
{
	const struct kj_load_spec *s = req->spec;
	struct bzimage_info bi;
	int ret = parse(req, &bi);

	if (ret || bi.relocatable)
		return ret;
	if (s->mode == KJ_LOAD_CRASH) {
		kj_err(req->ctx, "%s: -p needs a relocatable kernel (CONFIG_RELOCATABLE)",
		       s->kernel);
		return -EINVAL;
	}
	if (s->mode == KJ_LOAD_PRESERVE &&
	    s->mem_max < X86_MIB + bi.init_size) {
		kj_err(req->ctx, "%s: not relocatable, it needs 1 MiB-0x%llx inside --mem-max",
		       s->kernel,
		       (unsigned long long)(X86_MIB + bi.init_size - 1));
		return -EINVAL;
	}
	return 0;
}

static int place_kernel(const struct bzimage_info *bi,
			struct kexec_image *img, uint64_t *addr)
{
	uint64_t memsz = align_up(bi->init_size, PAGE_SIZE_4K);
	uint64_t lo = bi->pref_address > X86_MIB ? bi->pref_address : X86_MIB;

	if (!bi->relocatable) {
		*addr = X86_MIB;
		return image_add_segment(img, "kernel", bi->payload,
					 bi->payload_len, X86_MIB, memsz);
	}
	return image_add_buffer(img, "kernel", bi->payload, bi->payload_len,
				memsz, bi->kernel_alignment, lo,
				x86_arch.place_max, false, addr);
}

static int bzimage_load(const struct load_request *req,
			struct kexec_image *img)
{
	struct bzimage_info bi;
	struct x86_linux_boot lb = { .bi = &bi, .who = "this kernel" };
	int ret;

	ret = parse(req, &bi);
	if (ret)
		return ret;
	lb.initrd_max = bi.initrd_addr_max;
	lb.cmdline_max = bi.cmdline_size;
	ret = x86_check_cmdline(req, &lb);
	if (!ret)
		ret = place_kernel(&bi, img, &lb.entry);
	if (ret)
		return ret;
	lb.entry += x86_arch.bzimage_entry_offset;
	if (req->spec->has_entry)
		lb.entry = req->spec->entry;
	return x86_boot_linux(req, img, &lb);
}

const struct arch_loader bzimage_loader = {
	.name = "bzImage",
	.probe = bzimage_probe,
	.check = bzimage_check,
	.load = bzimage_load,
};
