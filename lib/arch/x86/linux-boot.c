// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "boot-params.h"
#include "hand-over.h"
#include "linux-boot.h"
#include "purgatory-setup.h"
#include "x86-arch.h"

#define SERIAL_PORT_COM1	0x3f8

/* A preserve-context load gets kexec_jump_back_entry= from purgatory. */
static bool jump_room(const struct load_request *req,
		      const struct x86_linux_boot *lb)
{
	return req->spec->mode == KJ_LOAD_PRESERVE || lb->jump_room_always;
}

int x86_check_cmdline(const struct load_request *req,
		      const struct x86_linux_boot *lb)
{
	enum kj_load_mode mode = req->spec->mode;
	size_t len = strlen(req->cmdline);

	if (mode == KJ_LOAD_PRESERVE)
		len += JUMP_BACK_WORD_LEN;
	if (len <= lb->cmdline_max)
		return 0;
	kj_err(req->ctx, "command line: %zu bytes%s, %s takes at most %zu",
	       len, mode == KJ_LOAD_CRASH ? " with the crash parameters" :
	       mode == KJ_LOAD_PRESERVE ? " with the jump parameters" : "",
	       lb->who, lb->cmdline_max);
	return -E2BIG;
}

static int place_initrd(const struct load_request *req,
			const struct x86_linux_boot *lb,
			struct kexec_image *img, uint64_t *addr)
{
	uint64_t hi = lb->initrd_max < x86_arch.place_max ?
			      lb->initrd_max : x86_arch.place_max;

	*addr = 0;
	if (!req->initrd)
		return 0;
	if (!req->initrd_len) {
		kj_err(req->ctx, "%s: initrd is empty", req->spec->initrd);
		return -EINVAL;
	}
	return image_add_buffer(img, "initrd", req->initrd, req->initrd_len,
				req->initrd_len, PAGE_SIZE_4K, X86_MIB, hi,
				true, addr);
}

static int place_boot_params(const struct load_request *req,
			     const struct x86_linux_boot *lb,
			     uint64_t initrd, struct kexec_image *img,
			     struct boot_params_spec *spec, uint8_t **bp)
{
	size_t spare = jump_room(req, lb) ? BOOT_PARAMS_JUMP_SPARE : 0;
	size_t size = boot_params_size(strlen(req->cmdline), spare,
				       req->e820->n);

	*bp = calloc(1, size);
	if (!*bp || image_own(img, *bp)) {
		free(*bp);
		kj_err(req->ctx, "boot parameters: out of memory");
		return -ENOMEM;
	}
	*spec = (struct boot_params_spec){
		.kernel = lb->bi ? req->kernel : NULL, .bi = lb->bi,
		.e820 = req->e820, .cmdline = req->cmdline,
		.initrd_addr = initrd,
		.initrd_len = initrd ? req->initrd_len : 0,
		.spare = spare,
	};
	return image_add_buffer(img, "bootparams", *bp, size, size,
				PAGE_SIZE_4K, X86_MIB, x86_arch.place_max,
				true, &spec->addr);
}

static void set_purgatory(const struct load_request *req,
			  const struct x86_linux_boot *lb,
			  const struct boot_params_spec *spec,
			  struct purgatory_slot *slot)
{
	struct purgatory_params *p = slot->params;

	x86_arch.set_regs(p, spec->addr, lb->entry, slot->stack_top);
	p->serial_port = SERIAL_PORT_COM1;
	if (req->spec->serial_progress)
		p->flags |= PGF_SERIAL;
	if (jump_room(req, lb)) {
		/* Where the NUL is, and the bytes from there on it may use. */
		p->cmdline_end = (uint32_t)(spec->addr + BP_SIZE +
					    strlen(spec->cmdline));
		p->cmdline_room = 1 + BOOT_PARAMS_JUMP_SPARE;
	}
	if (req->spec->mode == KJ_LOAD_PRESERVE)
		p->flags |= PGF_JUMP_BACK_ENTRY;
	if (req->spec->mode == KJ_LOAD_CRASH && req->ho->backup_len) {
		p->flags |= PGF_BACKUP;
		p->backup_src = req->ho->backup_src;
		p->backup_dst = req->ho->backup_dst;
		p->backup_len = req->ho->backup_len;
	}
}

int x86_boot_linux(const struct load_request *req, struct kexec_image *img,
		   const struct x86_linux_boot *lb)
{
	struct boot_params_spec spec;
	struct purgatory_slot slot;
	uint64_t initrd;
	uint8_t *bp;
	int ret;

	ret = place_initrd(req, lb, img, &initrd);
	if (!ret)
		ret = place_boot_params(req, lb, initrd, img, &spec, &bp);
	if (!ret)
		ret = purgatory_place(img, X86_MIB, x86_arch.place_max, &slot);
	if (!ret)
		ret = boot_params_build_here(req->ctx, &spec, bp);
	if (ret)
		return ret;
	set_purgatory(req, lb, &spec, &slot);
	return purgatory_finish(img, &slot, !req->spec->no_checks);
}
