// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ELF loader (-t elf-x86, -t elf-x86_64): an ELF executable of the
 * word size, typically vmlinux, entered at its physical entry point
 * (i386: startup_32 in 32-bit mode; x86_64: startup_64 in 64-bit mode on
 * purgatory's identity map).
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
#include "elf-exec.h"
#include "linux-boot.h"
#include "x86-arch.h"

/* A vmlinux has no header to say so: x86's COMMAND_LINE_SIZE less the NUL. */
#define ELF_CMDLINE_MAX		(SYNTH_HDR_CMDLINE_SIZE - 1)

/* Segment names, for messages and -d. */
static const char *const load_names[ELF_EXEC_MAX_LOADS] = {
	"load 0", "load 1", "load 2", "load 3", "load 4", "load 5",
	"load 6", "load 7", "load 8", "load 9", "load 10", "load 11",
	"load 12", "load 13", "load 14", "load 15",
};

static int elf_x86_probe(const char *buf, size_t len, char *why,
			 size_t whylen)
{
	struct elf_exec_info ei;

	return elf_exec_parse(buf, len, x86_arch.elf_want, &ei, why, whylen);
}

static int parse(const struct load_request *req, struct elf_exec_info *ei)
{
	char why[128];

	if (!elf_exec_parse(req->kernel, req->kernel_len, x86_arch.elf_want,
			    ei, why, sizeof(why)))
		return 0;
	kj_err(req->ctx, "%s: not an %s ELF executable: %s",
	       req->spec->kernel, x86_arch.name, why);
	return -EINVAL;
}

/* What this style can do with the options given; one line if not. */
static int elf_x86_check(const struct load_request *req)
{
	const struct kj_load_spec *s = req->spec;
	struct elf_exec_info ei;
	const char *what = NULL;
	int ret = parse(req, &ei);

	if (ret)
		return ret;
	if (s->mode == KJ_LOAD_CRASH) {
		kj_err(req->ctx, "%s: -p needs a bzImage: the ELF loader cannot load a crash kernel",
		       s->kernel);
		return -EINVAL;
	}
	if (req->aopts->elf_args == ELF_ARGS_ELF) {
		kj_err(req->ctx, "--args-elf: ELF boot notes are not supported; use --args-linux or --args-none");
		return -EINVAL;
	}
	if (req->aopts->elf_args != ELF_ARGS_NONE)
		return 0;
	if (s->initrd)
		what = "--initrd";
	else if (s->nr_append)
		what = "--append/--command-line";
	else if (s->reuse_cmdline)
		what = "--reuse-cmdline";
	if (what) {
		kj_err(req->ctx, "--args-none: %s cannot be used, the image is passed no boot parameters",
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
		kj_err(img->ctx, "%s: out of memory", name);
		return -ENOMEM;
	}
	memcpy(buf + lead, l->data, l->filesz);
	return image_add_segment(img, name, buf, lead + l->filesz, start,
				 memsz);
}

/* Two loads whose rounded ranges share a page cannot be two segments. */
static int check_pages(const struct kj_ctx *ctx,
		       const struct elf_exec_info *ei)
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
			kj_err(ctx, "PT_LOADs at 0x%" PRIx64 " and 0x%" PRIx64
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

	ret = check_pages(img->ctx, ei);
	for (i = 0; !ret && i < ei->nr_loads; i++)
		ret = place_load(&ei->load[i], load_names[i], img);
	return ret;
}

static int elf_x86_load(const struct load_request *req,
			struct kexec_image *img)
{
	struct elf_exec_info ei;
	struct x86_linux_boot lb = {
		.initrd_max = SYNTH_HDR_INITRD_ADDR_MAX,
		.cmdline_max = ELF_CMDLINE_MAX, .who = "a vmlinux",
		.jump_room_always = true,
	};
	int ret;

	ret = parse(req, &ei);
	if (!ret)
		ret = place_loads(&ei, img);
	if (ret)
		return ret;
	/* elf_exec_parse() keeps every load, so e_entry, below 4 GiB. */
	lb.entry = req->spec->has_entry ? req->spec->entry : ei.entry;
	if (req->aopts->elf_args == ELF_ARGS_NONE) {
		img->entry = lb.entry;
		return 0;
	}
	ret = x86_check_cmdline(req, &lb);
	if (ret)
		return ret;
	return x86_boot_linux(req, img, &lb);
}

const struct arch_loader elf_x86_loader = {
	.name = "elf-x86",
	.probe = elf_x86_probe,
	.check = elf_x86_check,
	.load = elf_x86_load,
};

/* The same loader under kexec-tools' x86_64 name. */
const struct arch_loader elf_x86_64_loader = {
	.name = "elf-x86_64",
	.probe = elf_x86_probe,
	.check = elf_x86_check,
	.load = elf_x86_load,
};
