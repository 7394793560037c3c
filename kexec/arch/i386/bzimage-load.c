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
#include "cmdline.h"
#include "crashdump.h"
#include "bzimage-header.h"
#include "bzimage.h"
#include "file-io.h"
#include "kexec-syscall.h"
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

/* Everything one bzImage load works out before it builds the zero page. */
struct bz_load {
	struct bzimage_info bi;
	struct cmdline cmdline;		/* final text for the new kernel */
	const struct mem_map *e820;	/* the map the new kernel gets */
	struct crash_setup crash;	/* -p and --load-preserve-context */
	uint64_t kernel;
	uint64_t initrd;
};

static int check_cmdline(const struct kexec_opts *o, struct bz_load *ld)
{
	size_t len = strlen(cmdline_str(&ld->cmdline));

	/* Purgatory appends kexec_jump_back_entry= to a preserve load. */
	if (o->preserve_context)
		len += JUMP_BACK_WORD_LEN;
	if (len > ld->bi.cmdline_size) {
		kx_err("command line: %zu bytes%s, this kernel takes at most %" PRIu32,
		       len, o->panic ? " with the crash parameters" :
		       o->preserve_context ? " with the jump parameters" : "",
		       ld->bi.cmdline_size);
		return -E2BIG;
	}
	return 0;
}

static int place_boot_params(const struct load_request *req,
			     struct bz_load *ld, struct kexec_image *img,
			     struct boot_params_spec *spec, uint8_t **bp)
{
	const char *text = cmdline_str(&ld->cmdline);
	size_t spare = req->opts->preserve_context ? BOOT_PARAMS_JUMP_SPARE : 0;
	size_t size = boot_params_size(strlen(text), spare);

	*bp = calloc(1, size);
	if (!*bp || image_own(img, *bp)) {
		free(*bp);
		kx_err("boot parameters: out of memory");
		return -ENOMEM;
	}
	*spec = (struct boot_params_spec){
		.kernel = req->kernel, .bi = &ld->bi, .e820 = ld->e820,
		.cmdline = text, .initrd_addr = ld->initrd,
		.initrd_len = ld->initrd ? req->initrd_len : 0,
	};
	return image_add_buffer(img, "bootparams", *bp, size, size,
				PAGE_SIZE_4K, MIB, LOWMEM_LIMIT, true,
				&spec->addr);
}

/* -p: into the crash region, with backup, ELF header and a cut-down map. */
static int prepare_crash(const struct load_request *req, struct bz_load *ld,
			 struct kexec_image *img)
{
	int ret;

	if (!ld->bi.relocatable) {
		kx_err("%s: -p needs a relocatable kernel (CONFIG_RELOCATABLE)",
		       req->opts->kernel);
		return -EINVAL;
	}
	ret = crash_prepare(req, img, &ld->crash);
	if (ret)
		return ret;
	return crash_hand_over(req, &ld->crash, &ld->cmdline, &ld->e820);
}

/* --load-preserve-context: into the window, swapped rather than copied. */
static int prepare_preserve(const struct load_request *req, struct bz_load *ld,
			    struct kexec_image *img)
{
	int ret;

	if (!ld->bi.relocatable && req->opts->mem_max < MIB + ld->bi.init_size) {
		kx_err("%s: not relocatable, it needs 1 MiB-0x%llx inside --mem-max",
		       req->opts->kernel,
		       (unsigned long long)(MIB + ld->bi.init_size - 1));
		return -EINVAL;
	}
	ret = preserve_prepare(req, img, &ld->crash);
	if (ret)
		return ret;
	return crash_hand_over(req, &ld->crash, &ld->cmdline, &ld->e820);
}

static int place_segments(const struct load_request *req, struct bz_load *ld,
			  struct kexec_image *img,
			  struct boot_params_spec *spec, uint8_t **bp,
			  struct purgatory_slot *slot)
{
	int ret;

	ret = place_kernel(&ld->bi, img, &ld->kernel);
	if (!ret)
		ret = place_initrd(req, &ld->bi, img, &ld->initrd);
	if (!ret)
		ret = place_boot_params(req, ld, img, spec, bp);
	if (!ret)
		ret = purgatory_place(img, MIB, LOWMEM_LIMIT, slot);
	if (!ret && req->opts->preserve_context)
		ret = preserve_fill(img, &ld->crash);
	return ret;
}

static void set_purgatory(const struct kexec_opts *o, const struct bz_load *ld,
			  const struct boot_params_spec *spec,
			  struct purgatory_slot *slot)
{
	struct purgatory_params *p = slot->params;

	p->regs = (struct purgatory_regs){
		.esi = (uint32_t)spec->addr, .eip = (uint32_t)ld->kernel,
		.esp = (uint32_t)slot->stack_top,
	};
	if (o->has_entry)
		p->regs.eip = (uint32_t)o->entry;
	p->serial_port = 0x3f8;
	if (o->debug)
		p->flags |= PGF_SERIAL;
	if (o->preserve_context) {
		p->flags |= PGF_JUMP_BACK_ENTRY;
		p->cmdline_end = (uint32_t)(spec->addr + BP_SIZE +
					    strlen(spec->cmdline));
		p->cmdline_room = 1 + BOOT_PARAMS_JUMP_SPARE;
	}
	if (o->panic) {
		p->flags |= PGF_BACKUP;
		p->backup_src = ld->crash.backup_src;
		p->backup_dst = ld->crash.backup_dst;
		p->backup_len = ld->crash.backup_len;
	}
}

static int build_image(const struct load_request *req, struct bz_load *ld,
		       struct kexec_image *img)
{
	struct boot_params_spec spec;
	struct purgatory_slot slot;
	uint8_t *bp;
	int ret;

	ret = place_segments(req, ld, img, &spec, &bp, &slot);
	if (ret)
		return ret;
	ret = boot_params_build_here(req->root, &spec, bp);
	if (ret)
		return ret;
	set_purgatory(req->opts, ld, &spec, &slot);
	return purgatory_finish(img, &slot, !req->opts->no_checks);
}

static int bzimage_load(const struct load_request *req,
			struct kexec_image *img)
{
	struct bz_load ld = { .e820 = req->memmap };
	char why[128];
	int ret;

	if (check_entry_option(req->opts))
		return -ERANGE;
	if (bzimage_parse(req->kernel, req->kernel_len, &ld.bi, why,
			  sizeof(why))) {
		kx_err("%s: not a bzImage: %s", req->opts->kernel, why);
		return -EINVAL;
	}
	cmdline_init(&ld.cmdline);
	crash_setup_init(&ld.crash);
	ret = cmdline_append(&ld.cmdline, req->cmdline);
	if (!ret && req->opts->panic)
		ret = prepare_crash(req, &ld, img);
	else if (!ret && req->opts->preserve_context)
		ret = prepare_preserve(req, &ld, img);
	if (!ret)
		ret = check_cmdline(req->opts, &ld);
	if (!ret)
		ret = build_image(req, &ld, img);
	crash_setup_free(&ld.crash);
	cmdline_free(&ld.cmdline);
	return ret;
}

const struct image_loader bzimage_loader = {
	.name = "bzImage",
	.probe = bzimage_probe,
	.load = bzimage_load,
};
