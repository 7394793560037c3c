// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bzImage loader: 32-bit boot protocol entry through purgatory.
 *
 * Layout (every piece a separate segment):
 *   kernel     lowest fit at or above pref_address, kernel_alignment,
 *              init_size bytes so decompression stays inside it
 *   initrd     highest fit below initrd_addr_max
 *   boot params + command line, purgatory: highest fit below the lowmem
 *              limit, i.e. just under the initrd
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "boot-params.h"
#include "bzimage-header.h"
#include "bzimage.h"
#include "file-io.h"
#include "log.h"
#include "purgatory-setup.h"

#define MIB			0x100000ull
/* Keep everything in i386 lowmem, where a 32-bit kernel can reach it. */
#define LOWMEM_LIMIT		0x37ffffffull

static int bzimage_probe(const char *buf, size_t len, char *why,
			 size_t whylen)
{
	struct bzimage_info bi;

	return bzimage_parse(buf, len, &bi, why, whylen);
}

static int place_kernel(const struct bzimage_info *bi,
			struct kexec_image *img, uint64_t *addr)
{
	uint64_t memsz = align_up(bi->init_size, PAGE_SIZE_4K);
	uint64_t lo = bi->pref_address > MIB ? bi->pref_address : MIB;

	if (!bi->relocatable) {
		*addr = MIB;
		return image_add_segment(img, "kernel", bi->payload,
					 bi->payload_len, MIB, memsz);
	}
	return image_add_buffer(img, "kernel", bi->payload, bi->payload_len,
				memsz, bi->kernel_alignment, lo, LOWMEM_LIMIT,
				false, addr);
}

static int place_initrd(const struct load_request *req,
			const struct bzimage_info *bi,
			struct kexec_image *img, uint64_t *addr)
{
	uint64_t hi = bi->initrd_addr_max < LOWMEM_LIMIT ?
			      bi->initrd_addr_max : LOWMEM_LIMIT;

	*addr = 0;
	if (!req->initrd)
		return 0;
	if (!req->initrd_len) {
		kx_err("%s: initrd is empty", req->opts->initrd);
		return -EINVAL;
	}
	return image_add_buffer(img, "initrd", req->initrd, req->initrd_len,
				req->initrd_len, PAGE_SIZE_4K, MIB, hi, true,
				addr);
}

static int check_cmdline(const struct load_request *req,
			 const struct bzimage_info *bi)
{
	size_t len = strlen(req->cmdline);

	if (len > bi->cmdline_size) {
		kx_err("command line: %zu bytes, this kernel takes at most %" PRIu32,
		       len, bi->cmdline_size);
		return -E2BIG;
	}
	return 0;
}

/* The running kernel's boot_params, when it exports them (root only). */
static uint8_t *read_old_boot_params(const char *root, size_t *len)
{
	char path[256], *buf;
	int ret;

	snprintf(path, sizeof(path), "%s/sys/kernel/boot_params/data", root);
	ret = read_file(path, 2 * BP_SIZE, &buf, len);
	if (ret)
		return NULL;
	return (uint8_t *)buf;
}

static int place_boot_params(const struct load_request *req,
			     const struct bzimage_info *bi,
			     struct kexec_image *img, uint64_t initrd,
			     struct boot_params_spec *spec,
			     uint8_t **bp)
{
	size_t size = boot_params_size(strlen(req->cmdline), 0);

	*bp = calloc(1, size);
	if (!*bp || image_own(img, *bp)) {
		free(*bp);
		kx_err("boot parameters: out of memory");
		return -ENOMEM;
	}
	*spec = (struct boot_params_spec){
		.kernel = req->kernel, .bi = bi, .e820 = req->memmap,
		.cmdline = req->cmdline, .initrd_addr = initrd,
		.initrd_len = initrd ? req->initrd_len : 0,
	};
	return image_add_buffer(img, "bootparams", *bp, size, size,
				PAGE_SIZE_4K, MIB, LOWMEM_LIMIT, true,
				&spec->addr);
}

static int bzimage_load(const struct load_request *req,
			struct kexec_image *img)
{
	struct boot_params_spec spec;
	struct purgatory_slot slot;
	struct bzimage_info bi;
	uint64_t kernel, initrd;
	char why[128];
	uint8_t *bp, *old;
	size_t old_len = 0;
	int ret;

	if (bzimage_parse(req->kernel, req->kernel_len, &bi, why, sizeof(why))) {
		kx_err("%s: not a bzImage: %s", req->opts->kernel, why);
		return -EINVAL;
	}
	ret = check_cmdline(req, &bi);
	if (!ret)
		ret = place_kernel(&bi, img, &kernel);
	if (!ret)
		ret = place_initrd(req, &bi, img, &initrd);
	if (!ret)
		ret = place_boot_params(req, &bi, img, initrd, &spec, &bp);
	if (!ret)
		ret = purgatory_place(img, MIB, LOWMEM_LIMIT, &slot);
	if (ret)
		return ret;

	old = read_old_boot_params(req->root, &old_len);
	spec.old_bp = old;
	spec.old_bp_len = old_len;
	ret = boot_params_build(&spec, bp);
	free(old);
	if (ret)
		return ret;

	slot.params->regs = (struct purgatory_regs){
		.esi = (uint32_t)spec.addr, .eip = (uint32_t)kernel,
		.esp = (uint32_t)slot.stack_top,
	};
	slot.params->serial_port = 0x3f8;
	if (req->opts->debug)
		slot.params->flags |= PGF_SERIAL;
	return purgatory_finish(img, &slot, !req->opts->no_checks);
}

const struct image_loader bzimage_loader = {
	.name = "bzImage",
	.probe = bzimage_probe,
	.load = bzimage_load,
};
