// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
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

static const struct image_loader *find_loader(const struct kexec_opts *o,
					      const struct load_files *f)
{
	const struct image_loader *const *l;
	char why[160] = "unknown format";

	for (l = arch_loaders; *l; l++) {
		if (o->type && strcmp(o->type, (*l)->name))
			continue;
		if (!(*l)->probe(f->kernel, f->kernel_len, why, sizeof(why)))
			return *l;
		if (o->type)
			break;
	}
	if (o->type && !*l) {
		kx_err("-t %s: unknown image type (known: bzImage)", o->type);
		return NULL;
	}
	/* With one loader its reason is the whole story. */
	if (o->type || !arch_loaders[1])
		kx_err("%s: not a %s: %s", o->kernel, o->type ? o->type :
		       arch_loaders[0]->name, why);
	else
		kx_err("%s: not a kernel image this kexec can load", o->kernel);
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
	if (ret)
		kx_err("kexec_load: %s", kexec_load_strerror(ret));
	return ret;
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

	if (o->preserve_context || o->jump_back_helper) {
		kx_err("--load-%s: not implemented yet", o->preserve_context ?
		       "preserve-context" : "jump-back-helper");
		return -1;
	}
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
	return 0;
}
