// SPDX-License-Identifier: GPL-2.0-only
/*
 * The generic load: read the files, pick a loader, build the command
 * line, read the memory map, let the architecture prepare the hand-over
 * of a crash or preserve-context load, let the loader place its
 * segments, and hand the image to kexec_load.  Nothing reaches the
 * kernel unless every step succeeded.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "cmdline.h"
#include "ctx.h"
#include "file-io.h"
#include "file-load.h"
#include "image.h"
#include "kexec-syscall.h"
#include "load-input.h"
#include "memmap-read.h"
#include "memory-map.h"
#include "hib/helper-mark.h"

/* Everything one load owns, freed together. */
struct load_state {
	char *kernel;
	size_t kernel_len;
	char *initrd;
	size_t initrd_len;
	struct cmdline cmdline;
	struct mem_map map;
	struct kexec_image img;
	struct arch_opts *aopts;
	struct arch_hand_over *ho;
};

void kj_load_spec_init(struct kj_load_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
	spec->mem_max = UINT64_MAX;
}

static int read_inputs(const struct kj_ctx *ctx, const struct kj_load_spec *s,
		       struct load_state *st)
{
	int ret;

	ret = load_read_input(ctx, "kernel", s->kernel, -1,
			      LOAD_MAX_KERNEL_SIZE, &st->kernel,
			      &st->kernel_len);
	if (ret)
		return ret;
	if (!st->kernel_len) {
		kj_err(ctx, "%s: kernel image is empty", s->kernel);
		return -EINVAL;
	}
	if (s->initrd)
		ret = load_read_input(ctx, "initrd", s->initrd, -1,
				      LOAD_MAX_INITRD_SIZE, &st->initrd,
				      &st->initrd_len);
	return ret;
}

void kj_loader_names(char *buf, size_t size)
{
	const struct arch_loader *const *l;
	size_t n = 0;

	buf[0] = '\0';
	for (l = arch_loaders; *l && n < size; l++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      l == arch_loaders ? "" : ", ",
				      (*l)->name);
}

const struct kj_arch_option *kj_arch_options(void)
{
	return arch_options;
}

/*
 * Probe every loader (or only -t's).  When none takes the file, say why
 * each refused it, in one line.
 */
static const struct arch_loader *find_loader(const struct kj_ctx *ctx,
					     const struct kj_load_spec *s,
					     const struct load_state *st)
{
	const struct arch_loader *const *l;
	char why[160] = "unknown format", all[512] = "", names[160];
	size_t n = 0;

	for (l = arch_loaders; *l; l++) {
		if (s->type && strcmp(s->type, (*l)->name))
			continue;
		if (!(*l)->probe(st->kernel, st->kernel_len, why, sizeof(why)))
			return *l;
		if (s->type)
			break;
		if (n < sizeof(all))
			n += (size_t)snprintf(all + n, sizeof(all) - n,
					      "%snot %s (%s)", n ? ", " : "",
					      (*l)->name, why);
	}
	if (s->type && !*l) {
		kj_loader_names(names, sizeof(names));
		kj_err(ctx, "-t %s: unknown image type (known: %s)", s->type,
		       names);
		return NULL;
	}
	/* With -t or one loader its reason is the whole story. */
	if (s->type || !arch_loaders[1]) {
		const char *name = s->type ? s->type : arch_loaders[0]->name;

		kj_err(ctx, "%s: not %s %s: %s", s->kernel,
		       strchr("aeiouAEIOU", name[0]) ? "an" : "a", name, why);
	} else {
		kj_err(ctx, "%s: not a kernel image this kexec can load: %s",
		       s->kernel, all);
	}
	return NULL;
}

static int submit(const struct kj_ctx *ctx, struct kexec_image *img)
{
	int ret;

	img->flags |= arch_kexec_flags();
	image_dump(img);
	ret = kexec_load_image(img, img->flags);
	if (ret)
		kj_err(ctx, "kexec_load: %s",
		       kexec_slot_strerror(ctx, ret,
					   img->flags & KEXEC_ON_CRASH, false));
	return ret;
}

/* Where the kernel that jumped here wants to be called back. */
static int jump_back_entry(const struct kj_ctx *ctx, uint64_t *entry)
{
	char *text;
	int ret;

	ret = read_proc_cmdline(ctx, &text);
	if (ret)
		return ret;
	ret = cmdline_get_u64(text, "kexec_jump_back_entry=", entry);
	free(text);
	if (!ret && (!*entry || *entry > UINT32_MAX))
		ret = -EINVAL;
	if (ret == -ENOENT)
		kj_err(ctx, "--load-jump-back-helper: no --entry, and no kexec_jump_back_entry= on /proc/cmdline (this kernel was not entered by a jump)");
	else if (ret)
		kj_err(ctx, "--load-jump-back-helper: kexec_jump_back_entry= on /proc/cmdline is not an address");
	return ret;
}

/*
 * The way back of an upstream kexec jump: an image of one empty segment
 * whose entry is the caller's re-entry point, loaded with
 * KEXEC_PRESERVE_CONTEXT; kj_exec() (or kj_jump()) then returns to the
 * caller.  The segment sits at the entry's page, not at 0: since 6.12 the
 * kernel takes an empty segment as ending one byte before its start, and
 * one at 0 then covers every page, so that no control page can be found.
 */
int kj_load_jump_back(struct kj_ctx *ctx, bool has_entry, uint64_t entry)
{
	struct kexec_image img;
	int loaded = kexec_slot_loaded(ctx, false);
	int ret = 0;

	if (arch_check_running(ctx))
		return -ENOEXEC;
	if (loaded > 0) {
		kj_err(ctx, "--load-jump-back-helper: a kernel is already loaded here (kexec -u first if it is not the way back)");
		return -EBUSY;
	}
	image_init(&img, ctx, 0, UINT64_MAX);
	img.entry = entry;
	if (!has_entry)
		ret = jump_back_entry(ctx, &img.entry);
	if (!ret) {
		img.seg[0] = (struct image_segment){
			.name = "helper",
			.mem = align_down(img.entry, PAGE_SIZE_4K),
		};
		img.nr_seg = 1;
		img.flags = KEXEC_PRESERVE_CONTEXT;
		ret = submit(ctx, &img);
	}
	if (!ret)
		load_update_mark(ctx, false, true);
	image_free(&img);
	return ret;
}

/* Steps 3-5 of arch.h: hand-over, segments, hand-over finished. */
static int load_image(struct load_request *req,
		      const struct arch_loader *loader, struct load_state *st)
{
	const char *words = "";
	int ret;

	if (req->spec->mode != KJ_LOAD_NORMAL) {
		ret = arch_hand_over_prepare(req, &st->img, &st->ho, &words,
					     &req->e820);
		if (ret)
			return ret;
		req->ho = st->ho;
	}
	ret = cmdline_append(&st->cmdline, words);
	if (ret) {
		kj_err(req->ctx, "command line: %s", strerror(-ret));
		return ret;
	}
	req->cmdline = cmdline_str(&st->cmdline);
	ret = loader->load(req, &st->img);
	if (!ret && req->spec->mode != KJ_LOAD_NORMAL)
		ret = arch_hand_over_finish(req, &st->img);
	return ret;
}

static int prepare(struct kj_ctx *ctx, const struct kj_load_spec *s,
		   struct load_state *st, struct load_request *req,
		   const struct arch_loader **loader)
{
	int ret;

	ret = arch_check_running(ctx);
	if (ret)
		return ret;
	ret = arch_parse_opts(ctx, s->arch_opts, &st->aopts);
	if (ret)
		return ret;
	ret = read_inputs(ctx, s, st);
	if (ret)
		return ret;
	*loader = find_loader(ctx, s, st);
	if (!*loader)
		return -EINVAL;
	ret = load_build_cmdline(ctx, s, &st->cmdline);
	if (ret)
		return ret;
	ret = memmap_read_system(ctx, &st->map);
	if (ret)
		return ret;
	if (image_set_usable(&st->img, &st->map)) {
		kj_err(ctx, "memory map: no RAM ranges");
		return -ENOENT;
	}
	if (s->has_entry && arch_check_entry(ctx, s->entry))
		return -ERANGE;
	*req = (struct load_request){
		.ctx = ctx, .spec = s, .aopts = st->aopts,
		.kernel = st->kernel, .kernel_len = st->kernel_len,
		.initrd = st->initrd, .initrd_len = st->initrd_len,
		.cmdline = cmdline_str(&st->cmdline), .memmap = &st->map,
		.e820 = &st->map,
	};
	return (*loader)->check(req);
}

/*
 * The mark a loaded image earns (load_update_mark): in the normal slot,
 * KEXEC_PRESERVE_CONTEXT (the image comes back); in the crash slot, where
 * that flag asks for a kexec jump, an initramfs that carries the
 * hibernation image writer.
 */
static bool image_marked(const struct kj_load_spec *s,
			 const struct load_state *st)
{
	if (s->mode != KJ_LOAD_CRASH)
		return st->img.flags & KEXEC_PRESERVE_CONTEXT;
	return st->initrd && initrd_has_hib_helper(st->initrd, st->initrd_len);
}

/* kj_load() by kexec_load: this library builds the image. */
static int segments_load(struct kj_ctx *ctx, const struct kj_load_spec *s)
{
	const struct arch_loader *loader = NULL;
	struct load_state st = { 0 };
	struct load_request req;
	int ret;

	memmap_init(&st.map);
	cmdline_init(&st.cmdline);
	image_init(&st.img, ctx, s->mem_min, s->mem_max);
	ret = prepare(ctx, s, &st, &req, &loader);
	if (!ret)
		ret = load_image(&req, loader, &st);
	if (!ret)
		ret = submit(ctx, &st.img);
	if (!ret)
		load_update_mark(ctx, s->mode == KJ_LOAD_CRASH,
				 image_marked(s, &st));
	arch_hand_over_free(st.ho);
	arch_opts_free(st.aopts);
	image_free(&st.img);
	memmap_free(&st.map);
	cmdline_free(&st.cmdline);
	free(st.kernel);
	free(st.initrd);
	return ret;
}

int kj_load(struct kj_ctx *ctx, const struct kj_load_spec *s)
{
	int ret;

	if (s->syscall == KJ_SYSCALL_LOAD)
		return segments_load(ctx, s);
	ret = file_load(ctx, s, s->syscall == KJ_SYSCALL_AUTO);
	if (ret == -ENOEXEC && s->syscall == KJ_SYSCALL_AUTO)
		return segments_load(ctx, s);
	return ret;
}

/* Unload with kexec_file_load; -a falls back where there is none. */
static int file_unload(struct kj_ctx *ctx, enum kj_slot slot,
		       enum kj_syscall syscall)
{
	int ret;

	ret = kexec_file_unload(slot == KJ_SLOT_CRASH ? KEXEC_FILE_ON_CRASH :
				0);
	if (ret == -ENOSYS && syscall == KJ_SYSCALL_AUTO)
		return 1;
	if (ret)
		kj_err(ctx, "unload: kexec_file_load: %s",
		       kexec_slot_strerror(ctx, ret, slot == KJ_SLOT_CRASH,
					   true));
	return ret;
}

int kj_unload(struct kj_ctx *ctx, enum kj_slot slot,
	      enum kj_syscall syscall, bool discard)
{
	unsigned long flags = arch_kexec_flags();
	int ret = 1;

	if (syscall != KJ_SYSCALL_LOAD && !discard)
		ret = file_unload(ctx, slot, syscall);
	if (ret < 0)
		return ret;
	if (ret > 0) {
		ret = arch_check_running(ctx);
		if (ret)
			return ret;
		if (slot == KJ_SLOT_CRASH)
			flags |= KEXEC_ON_CRASH;
		/* the companion's way to drop a parked crash kernel */
		if (discard)
			flags |= KEXEC_PRESERVE_CONTEXT;
		ret = kexec_unload(flags);
		if (ret) {
			kj_err(ctx, "unload: %s",
			       kexec_slot_strerror(ctx, ret,
						   slot == KJ_SLOT_CRASH,
						   false));
			return ret;
		}
	}
	load_update_mark(ctx, slot == KJ_SLOT_CRASH, false);
	return 0;
}

int kj_slot_loaded(struct kj_ctx *ctx, enum kj_slot slot)
{
	return kexec_slot_loaded(ctx, slot == KJ_SLOT_CRASH);
}
