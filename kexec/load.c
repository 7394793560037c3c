// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "cmdline.h"
#include "file-io.h"
#include "image.h"
#include "kexec-syscall.h"
#include "load.h"
#include "log.h"
#include "memory-map.h"
#include "preserve-mark.h"

#define MAX_KERNEL_SIZE		(256u << 20)
#define MAX_INITRD_SIZE		(1024u << 20)

struct load_files {
	char *kernel;
	size_t kernel_len;
	char *initrd;
	size_t initrd_len;
};

static int read_input(const char *what, const char *path, size_t max,
		      char **buf, size_t *len)
{
	int ret = read_file(path, max, buf, len);

	if (ret == -EFBIG)
		kx_err("%s: %s is larger than %zu MiB", path, what, max >> 20);
	else if (ret)
		kx_err("%s %s: %s", what, path, strerror(-ret));
	return ret;
}

static int read_inputs(const struct kexec_opts *o, struct load_files *f)
{
	int ret;

	ret = read_input("kernel", o->kernel, MAX_KERNEL_SIZE, &f->kernel,
			 &f->kernel_len);
	if (ret)
		return ret;
	if (!f->kernel_len) {
		kx_err("%s: kernel image is empty", o->kernel);
		return -EINVAL;
	}
	if (o->initrd)
		ret = read_input("initrd", o->initrd, MAX_INITRD_SIZE,
				 &f->initrd, &f->initrd_len);
	return ret;
}

/* "bzImage, elf-x86": every loader's -t name. */
static void loader_names(char *buf, size_t size)
{
	const struct image_loader *const *l;
	size_t n = 0;

	buf[0] = '\0';
	for (l = arch_loaders; *l && n < size; l++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s",
				      l == arch_loaders ? "" : ", ",
				      (*l)->name);
}

/*
 * Probe every loader (or only -t's).  When none takes the file, say why
 * each refused it, in one line.
 */
static const struct image_loader *find_loader(const struct kexec_opts *o,
					      const struct load_files *f)
{
	const struct image_loader *const *l;
	char why[160] = "unknown format", all[512] = "", names[160];
	size_t n = 0;

	for (l = arch_loaders; *l; l++) {
		if (o->type && strcmp(o->type, (*l)->name))
			continue;
		if (!(*l)->probe(f->kernel, f->kernel_len, why, sizeof(why)))
			return *l;
		if (o->type)
			break;
		if (n < sizeof(all))
			n += (size_t)snprintf(all + n, sizeof(all) - n,
					      "%snot %s (%s)", n ? ", " : "",
					      (*l)->name, why);
	}
	if (o->type && !*l) {
		loader_names(names, sizeof(names));
		kx_err("-t %s: unknown image type (known: %s)", o->type, names);
		return NULL;
	}
	/* With -t or one loader its reason is the whole story. */
	if (o->type || !arch_loaders[1]) {
		const char *name = o->type ? o->type : arch_loaders[0]->name;

		kx_err("%s: not %s %s: %s", o->kernel,
		       strchr("aeiouAEIOU", name[0]) ? "an" : "a", name, why);
	}
	else
		kx_err("%s: not a kernel image this kexec can load: %s",
		       o->kernel, all);
	return NULL;
}

static int build_cmdline(const struct kexec_opts *o, struct cmdline *cl)
{
	unsigned int i;
	int ret = 0;

	if (o->reuse_cmdline) {
		char *text;
		size_t len;

		ret = read_file("/proc/cmdline", 65536, &text, &len);
		if (ret) {
			kx_err("/proc/cmdline: %s", strerror(-ret));
			return ret;
		}
		ret = cmdline_append_reused(cl, text, o->panic);
		free(text);
	}
	for (i = 0; !ret && i < o->nr_append; i++)
		ret = cmdline_append(cl, o->append[i]);
	if (ret)
		kx_err("command line: %s", strerror(-ret));
	return ret;
}

static int submit(struct kexec_image *img)
{
	int ret;

	img->flags |= arch_kexec_flags();
	image_dump(img);
	ret = kexec_load_image(img, img->flags);
	if (ret) {
		kx_err("kexec_load: %s", kexec_load_strerror(ret));
		return ret;
	}
	if (img->flags & KEXEC_PRESERVE_CONTEXT)
		preserve_mark_set();
	else if (!(img->flags & KEXEC_ON_CRASH))
		preserve_mark_clear();
	return 0;
}

/* Where the kernel that jumped here wants to be called back. */
static int jump_back_entry(const struct kexec_opts *o, uint64_t *entry)
{
	char *text;
	size_t len;
	int ret;

	if (o->has_entry) {
		*entry = o->entry;
		return 0;
	}
	ret = read_file("/proc/cmdline", 65536, &text, &len);
	if (ret) {
		kx_err("/proc/cmdline: %s", strerror(-ret));
		return ret;
	}
	ret = cmdline_get_u64(text, "kexec_jump_back_entry=", entry);
	free(text);
	if (!ret && (!*entry || *entry > UINT32_MAX))
		ret = -EINVAL;
	if (ret == -ENOENT)
		kx_err("--load-jump-back-helper: no --entry, and no kexec_jump_back_entry= on /proc/cmdline (this kernel was not entered by a jump)");
	else if (ret)
		kx_err("--load-jump-back-helper: kexec_jump_back_entry= on /proc/cmdline is not an address");
	return ret;
}

/*
 * The way back of an upstream kexec jump: an image of one empty segment
 * whose entry is the caller's re-entry point, loaded with
 * KEXEC_PRESERVE_CONTEXT; kexec -e (or -j) then returns to the caller.
 */
int load_jump_back_helper(const struct kexec_opts *o)
{
	struct kexec_image img;
	int loaded = kexec_slot_loaded(false);
	int ret;

	if (loaded > 0) {
		kx_err("--load-jump-back-helper: a kernel is already loaded here (kexec -u first if it is not the way back)");
		return -1;
	}
	image_init(&img, 0, UINT64_MAX);
	ret = jump_back_entry(o, &img.entry);
	if (!ret) {
		img.seg[0] = (struct image_segment){ .name = "helper" };
		img.nr_seg = 1;
		img.flags = KEXEC_PRESERVE_CONTEXT;
		ret = submit(&img);
	}
	image_free(&img);
	return ret ? -1 : 0;
}

int load_kernel(const struct kexec_opts *o)
{
	struct load_files f = { 0 };
	struct kexec_image img;
	struct cmdline cl;
	struct mem_map map;
	const struct image_loader *loader;
	struct load_request req;
	int ret;

	if (o->jump_back_helper)
		return load_jump_back_helper(o);
	memmap_init(&map);
	cmdline_init(&cl);
	image_init(&img, o->mem_min, o->mem_max);
	ret = read_inputs(o, &f);
	if (ret)
		goto out;
	ret = -EINVAL;
	loader = find_loader(o, &f);
	if (!loader)
		goto out;
	ret = build_cmdline(o, &cl);
	if (ret)
		goto out;
	ret = memmap_read_system(&map, "");
	if (ret)
		goto out;
	ret = image_set_usable(&img, &map);
	if (ret) {
		kx_err("memory map: no RAM ranges");
		goto out;
	}
	req = (struct load_request){
		.opts = o, .kernel = f.kernel, .kernel_len = f.kernel_len,
		.initrd = f.initrd, .initrd_len = f.initrd_len,
		.cmdline = cmdline_str(&cl), .memmap = &map, .root = "",
	};
	ret = loader->load(&req, &img);
	if (!ret)
		ret = submit(&img);
out:
	image_free(&img);
	memmap_free(&map);
	cmdline_free(&cl);
	free(f.kernel);
	free(f.initrd);
	return ret ? -1 : 0;
}

int unload_kernel(const struct kexec_opts *o)
{
	unsigned long flags = arch_kexec_flags();
	int ret;

	if (o->panic)
		flags |= KEXEC_ON_CRASH;
	ret = kexec_unload(flags);
	if (ret) {
		kx_err("unload: %s", kexec_load_strerror(ret));
		return -1;
	}
	if (!o->panic)
		preserve_mark_clear();
	return 0;
}
