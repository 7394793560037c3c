// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF loader (-t elf-x86): an i386 ELF executable, typically vmlinux,
 * entered at its 32-bit entry point.
 *
 * Layout:
 *   load N     one segment per PT_LOAD at its p_paddr, the start rounded
 *              down and the end up to pages
 *   initrd     highest fit below SYNTH_HDR_INITRD_ADDR_MAX    (args-linux)
 *   boot params + command line, purgatory: highest fit below the lowmem
 *              limit, i.e. just under the initrd                (args-linux)
 *
 * --args-linux (the default) enters through purgatory with a zero page
 * built without a bzImage header (boot-params.c synthesises one) at %esi;
 * --args-none jumps straight to the entry with nothing passed.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "boot-params.h"
#include "bzimage-header.h"
#include "cmdline.h"
#include "crashdump.h"
#include "elf-exec.h"
#include "log.h"
#include "purgatory-setup.h"

#define MIB			0x100000ull
/* Keep everything in i386 lowmem, where a 32-bit kernel can reach it. */
#define LOWMEM_LIMIT		0x37ffffffull
/* A vmlinux has no header to say so: x86's COMMAND_LINE_SIZE less the NUL. */
#define ELF_CMDLINE_MAX		(SYNTH_HDR_CMDLINE_SIZE - 1)

/* Segment names, for messages and -d. */
static const char *const load_names[ELF_EXEC_MAX_LOADS] = {
	"load 0", "load 1", "load 2", "load 3", "load 4", "load 5",
	"load 6", "load 7", "load 8", "load 9", "load 10", "load 11",
	"load 12", "load 13", "load 14", "load 15",
};

/* Everything one ELF load works out before it builds the zero page. */
struct elf_load {
	struct elf_exec_info ei;
	bool linux_args;		/* boot params + purgatory */
	uint32_t entry;			/* e_entry, or --entry */
	struct cmdline cmdline;		/* final text for the new kernel */
	const struct mem_map *e820;	/* the map the new kernel gets */
	struct crash_setup preserve;	/* --load-preserve-context */
	uint64_t initrd;
};

static int elf_x86_probe(const char *buf, size_t len, char *why,
			 size_t whylen)
{
	struct elf_exec_info ei;

	return elf_exec_parse(buf, len, &ei, why, whylen);
}

/* What this style can do with the options given; one line if not. */
static int check_style(const struct kexec_opts *o, bool *linux_args)
{
	const char *what = NULL;

	if (o->panic) {
		kx_err("%s: -p needs a bzImage: the ELF loader cannot load a crash kernel",
		       o->kernel);
		return -EINVAL;
	}
	switch (o->elf_args) {
	case ELF_ARGS_DEFAULT:
	case ELF_ARGS_LINUX:
		*linux_args = true;
		return 0;
	case ELF_ARGS_ELF:
		kx_err("--args-elf: ELF boot notes are not supported; use --args-linux or --args-none");
		return -EINVAL;
	case ELF_ARGS_NONE:
		break;
	}
	*linux_args = false;
	if (o->initrd)
		what = "--initrd";
	else if (o->nr_append)
		what = "--append/--command-line";
	else if (o->reuse_cmdline)
		what = "--reuse-cmdline";
	if (what) {
		kx_err("--args-none: %s cannot be used, the image is passed no boot parameters",
		       what);
		return -EINVAL;
	}
	return 0;
}

/*
 * One PT_LOAD as a segment.  The file bytes are used in place when the
 * load starts on a page; otherwise they go into a buffer of ours with the
 * page's leading bytes zeroed.
 */
static int place_load(const struct elf_exec_load *l, const char *name,
		      struct kexec_image *img)
{
	uint64_t start = align_down(l->paddr, PAGE_SIZE_4K);
	uint64_t lead = l->paddr - start;
	uint64_t memsz = align_up(l->paddr + l->memsz, PAGE_SIZE_4K) - start;
	char *buf;

	if (!lead || !l->filesz)
		return image_add_segment(img, name, l->data, l->filesz, start,
					 memsz);
	buf = calloc(1, lead + l->filesz);
	if (!buf || image_own(img, buf)) {
		free(buf);
		kx_err("%s: out of memory", name);
		return -ENOMEM;
	}
	memcpy(buf + lead, l->data, l->filesz);
	return image_add_segment(img, name, buf, lead + l->filesz, start,
				 memsz);
}

/* Two loads whose rounded ranges share a page cannot be two segments. */
static int check_pages(const struct elf_exec_info *ei)
{
	unsigned int i, j;

	for (i = 0; i < ei->nr_loads; i++) {
		for (j = 0; j < i; j++) {
			const struct elf_exec_load *lo = &ei->load[i];
			const struct elf_exec_load *hi = &ei->load[j];

			if (lo->paddr > hi->paddr) {
				lo = &ei->load[j];
				hi = &ei->load[i];
			}
			if (align_up(lo->paddr + lo->memsz, PAGE_SIZE_4K) <=
			    align_down(hi->paddr, PAGE_SIZE_4K))
				continue;
			kx_err("PT_LOADs at 0x%" PRIx64 " and 0x%" PRIx64
			       " share a page; each must have pages of its own",
			       lo->paddr, hi->paddr);
			return -EINVAL;
		}
	}
	return 0;
}

static int place_loads(const struct elf_exec_info *ei,
		       struct kexec_image *img)
{
	unsigned int i;
	int ret;

	ret = check_pages(ei);
	for (i = 0; !ret && i < ei->nr_loads; i++)
		ret = place_load(&ei->load[i], load_names[i], img);
	return ret;
}

static int place_initrd(const struct load_request *req, struct elf_load *ld,
			struct kexec_image *img)
{
	ld->initrd = 0;
	if (!req->initrd)
		return 0;
	if (!req->initrd_len) {
		kx_err("%s: initrd is empty", req->opts->initrd);
		return -EINVAL;
	}
	return image_add_buffer(img, "initrd", req->initrd, req->initrd_len,
				req->initrd_len, PAGE_SIZE_4K, MIB,
				SYNTH_HDR_INITRD_ADDR_MAX, true, &ld->initrd);
}

static int place_boot_params(const struct load_request *req,
			     struct elf_load *ld, struct kexec_image *img,
			     struct boot_params_spec *spec, uint8_t **bp)
{
	const char *text = cmdline_str(&ld->cmdline);
	size_t size = boot_params_size(strlen(text), BOOT_PARAMS_JUMP_SPARE);

	*bp = calloc(1, size);
	if (!*bp || image_own(img, *bp)) {
		free(*bp);
		kx_err("boot parameters: out of memory");
		return -ENOMEM;
	}
	/* kernel NULL: no bzImage header, boot-params.c makes one up. */
	*spec = (struct boot_params_spec){
		.kernel = NULL, .bi = NULL, .e820 = ld->e820,
		.cmdline = text, .initrd_addr = ld->initrd,
		.initrd_len = ld->initrd ? req->initrd_len : 0,
	};
	return image_add_buffer(img, "bootparams", *bp, size, size,
				PAGE_SIZE_4K, MIB, LOWMEM_LIMIT, true,
				&spec->addr);
}

static void set_purgatory(const struct kexec_opts *o,
			  const struct elf_load *ld,
			  const struct boot_params_spec *spec,
			  struct purgatory_slot *slot)
{
	struct purgatory_params *p = slot->params;
	size_t len = strlen(spec->cmdline);

	p->regs = (struct purgatory_regs){
		.esi = (uint32_t)spec->addr, .eip = ld->entry,
		.esp = (uint32_t)slot->stack_top,
	};
	p->serial_port = 0x3f8;
	if (o->debug)
		p->flags |= PGF_SERIAL;
	/* Where the NUL is, and the bytes from there on purgatory may use. */
	p->cmdline_end = (uint32_t)(spec->addr + BP_SIZE + len);
	p->cmdline_room = 1 + BOOT_PARAMS_JUMP_SPARE;
	if (o->preserve_context)
		p->flags |= PGF_JUMP_BACK_ENTRY;
}

static int check_cmdline(const struct kexec_opts *o, const struct elf_load *ld)
{
	size_t len = strlen(cmdline_str(&ld->cmdline));

	/* Purgatory appends kexec_jump_back_entry= to a preserve load. */
	if (o->preserve_context)
		len += JUMP_BACK_WORD_LEN;
	if (len > ELF_CMDLINE_MAX) {
		kx_err("command line: %zu bytes, a vmlinux takes at most %u",
		       len, ELF_CMDLINE_MAX);
		return -E2BIG;
	}
	return 0;
}

/* --args-linux: initrd, zero page and purgatory around the loads. */
static int build_linux_args(const struct load_request *req,
			    struct elf_load *ld, struct kexec_image *img)
{
	struct boot_params_spec spec;
	struct purgatory_slot slot;
	uint8_t *bp;
	int ret;

	ret = check_cmdline(req->opts, ld);
	if (!ret)
		ret = place_initrd(req, ld, img);
	if (!ret)
		ret = place_boot_params(req, ld, img, &spec, &bp);
	if (!ret)
		ret = purgatory_place(img, MIB, LOWMEM_LIMIT, &slot);
	if (!ret && req->opts->preserve_context)
		ret = preserve_fill(img, &ld->preserve);
	if (ret)
		return ret;
	ret = boot_params_build_here(req->root, &spec, bp);
	if (ret)
		return ret;
	set_purgatory(req->opts, ld, &spec, &slot);
	return purgatory_finish(img, &slot, !req->opts->no_checks);
}

static int build_image(const struct load_request *req, struct elf_load *ld,
		       struct kexec_image *img)
{
	int ret;

	ret = place_loads(&ld->ei, img);
	if (ret)
		return ret;
	if (ld->linux_args)
		return build_linux_args(req, ld, img);
	img->entry = ld->entry;
	return req->opts->preserve_context ?
		preserve_fill(img, &ld->preserve) : 0;
}

/* --load-preserve-context: the window, its map, swapped not copied. */
static int prepare_preserve(const struct load_request *req,
			    struct elf_load *ld, struct kexec_image *img)
{
	int ret = preserve_prepare(req, img, &ld->preserve);

	if (ret)
		return ret;
	return crash_hand_over(req, &ld->preserve, &ld->cmdline, &ld->e820);
}

static int elf_x86_load(const struct load_request *req,
			struct kexec_image *img)
{
	const struct kexec_opts *o = req->opts;
	struct elf_load ld;
	char why[128];
	int ret;

	memset(&ld, 0, sizeof(ld));
	if (elf_exec_parse(req->kernel, req->kernel_len, &ld.ei, why,
			   sizeof(why))) {
		kx_err("%s: not an i386 ELF executable: %s", o->kernel, why);
		return -EINVAL;
	}
	if (check_style(o, &ld.linux_args) || check_entry_option(o))
		return -EINVAL;
	/* elf_exec_parse() keeps every load, so e_entry, below 4 GiB. */
	ld.entry = (uint32_t)(o->has_entry ? o->entry : ld.ei.entry);
	cmdline_init(&ld.cmdline);
	crash_setup_init(&ld.preserve);
	ld.e820 = req->memmap;
	ret = cmdline_append(&ld.cmdline, req->cmdline);
	if (ret)
		kx_err("command line: %s", strerror(-ret));
	if (!ret && o->preserve_context)
		ret = prepare_preserve(req, &ld, img);
	if (!ret)
		ret = build_image(req, &ld, img);
	crash_setup_free(&ld.preserve);
	cmdline_free(&ld.cmdline);
	return ret;
}

const struct image_loader elf_x86_loader = {
	.name = "elf-x86",
	.probe = elf_x86_probe,
	.load = elf_x86_load,
};
