// SPDX-License-Identifier: GPL-2.0-only
/*
 * kj_load() by kexec_file_load(2): the kernel reads the kernel and initrd
 * files itself, places them with its own purgatory and, for a crash load,
 * writes the ELF core header.  What is left here is what the kernel
 * checks too late or says too little about: the options the call cannot
 * express, the image (the architecture's file-loader rules), the command
 * line's length, the crash region, and under lockdown an unsigned image
 * that would cost the loaded crash kernel.  The files are opened once and
 * checked through the descriptors the kernel then reads.
 * A crash load the kernel refuses has already lost the loaded crash
 * kernel (6.1 kernel/kexec_file.c frees it first), so everything that
 * can be checked is checked before the call.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "cmdline.h"
#include "ctx.h"
#include "iomem.h"
#include "kexec-syscall.h"
#include "file-load.h"
#include "load-input.h"

/* Everything one file load owns, freed together. */
struct file_load_state {
	char *kernel;
	size_t kernel_len;
	struct cmdline cmdline;
	int kernel_fd;
	int initrd_fd;
};

/* The first option of s that only kexec_load can honour, or NULL. */
static const char *segments_only_option(const struct kj_load_spec *s)
{
	if (s->mode == KJ_LOAD_PRESERVE)
		return "--load-preserve-context";
	if (s->type)
		return "-t";
	if (s->mem_min)
		return "--mem-min";
	if (s->mem_max != UINT64_MAX)
		return "--mem-max";
	if (s->has_entry)
		return "--entry";
	if (s->no_checks)
		return "-i";
	if (s->arch_opts && s->arch_opts[0])
		return s->arch_opts[0];
	return NULL;
}

static int check_options(const struct kj_ctx *ctx,
			 const struct kj_load_spec *s, bool fallback)
{
	const char *opt = segments_only_option(s);

	if (!opt)
		return 0;
	if (fallback) {
		kj_dbg(ctx, "kexec_file_load cannot take %s%s: kexec_load\n",
			 opt[0] == '-' ? "" : "--", opt);
		return -ENOEXEC;
	}
	kj_err(ctx, "%s%s: only with kexec_load (-c); kexec_file_load (-s) has the kernel place the image",
	       opt[0] == '-' ? "" : "--", opt);
	return -EINVAL;
}

static int check_crash_region(const struct kj_ctx *ctx)
{
	char *iomem;
	struct mem_range r;
	int ret;

	ret = iomem_read(ctx, &iomem);
	if (ret)
		return ret;
	ret = iomem_crash_region_for_load(ctx, iomem, &r);
	free(iomem);
	return ret;
}

/*
 * Under lockdown the kernel refuses an image whose signature it cannot
 * verify, but for a crash load only after it has dropped the loaded
 * crash kernel: an image with no signature at all is then refused here.
 * Otherwise the kernel decides (with IMA appraisal, or without
 * CONFIG_KEXEC_SIG, it takes one).
 */
static int check_lockdown(struct kj_ctx *ctx, const struct kj_load_spec *s,
			  bool is_signed)
{
	char mode[32];

	if (is_signed || !kexec_lockdown_mode(ctx, mode, sizeof(mode)))
		return 0;
	if (s->mode == KJ_LOAD_CRASH && kexec_slot_loaded(ctx, true) > 0) {
		kj_err(ctx, "%s: refused before loading: the kernel is locked down (%s) and the image carries no signature; it would drop the loaded crash kernel before refusing it (unload that with -p -u to try anyway)",
		       s->kernel, mode);
		return -EPERM;
	}
	kj_dbg(ctx, "%s: locked down (%s), no signature: the kernel decides\n",
	       s->kernel, mode);
	return 0;
}

/* The image as the kernel's file loader will see it. */
static int check_image(struct kj_ctx *ctx, const struct kj_load_spec *s,
		       const struct file_load_state *st, bool fallback)
{
	size_t cl_len = strlen(cmdline_str(&st->cmdline)) + 1;
	char why[256];
	bool is_signed = false;
	int ret;

	ret = arch_file_check(st->kernel, st->kernel_len, cl_len, &is_signed,
			      why, sizeof(why));
	if (ret && fallback) {
		kj_dbg(ctx, "%s: not for kexec_file_load (%s): kexec_load\n",
		       s->kernel, why);
		return -ENOEXEC;
	}
	if (ret == -E2BIG) {
		kj_err(ctx, "command line: %s", why);
		return -EINVAL;
	}
	if (ret) {
		kj_err(ctx, "%s: kexec_file_load cannot load it: %s", s->kernel,
		       why);
		return -EINVAL;
	}
	return check_lockdown(ctx, s, is_signed);
}

/* The files, opened once: what is checked is what the kernel reads. */
static int open_inputs(const struct kj_ctx *ctx, const struct kj_load_spec *s,
		       struct file_load_state *st)
{
	int err;

	st->kernel_fd = open(s->kernel, O_RDONLY | O_CLOEXEC);
	if (st->kernel_fd < 0) {
		err = errno;
		kj_err(ctx, "kernel %s: %s", s->kernel, strerror(err));
		return -err;
	}
	if (!s->initrd)
		return 0;
	st->initrd_fd = open(s->initrd, O_RDONLY | O_CLOEXEC);
	if (st->initrd_fd < 0) {
		err = errno;
		kj_err(ctx, "initrd %s: %s", s->initrd, strerror(err));
		return -err;
	}
	return 0;
}

/* After a refusal of a crash load, say whether the old one survived. */
static void report_refusal(struct kj_ctx *ctx, const struct kj_load_spec *s,
			   int err, int was_loaded)
{
	bool crash = s->mode == KJ_LOAD_CRASH;

	if (crash && was_loaded > 0 && kexec_slot_loaded(ctx, true) == 0)
		kj_err(ctx, "kexec_file_load: %s (the kernel dropped the loaded crash kernel first; the crash slot is empty)",
		       kexec_file_strerror(ctx, err));
	else
		kj_err(ctx, "kexec_file_load: %s",
		       kexec_slot_strerror(ctx, err, crash, true));
}

static int submit(struct kj_ctx *ctx, const struct kj_load_spec *s,
		  struct file_load_state *st, bool fallback)
{
	bool crash = s->mode == KJ_LOAD_CRASH;
	int was_loaded = crash ? kexec_slot_loaded(ctx, true) : 0;
	int ret;

	kj_dbg(ctx, "kexec_file_load: kernel %s, initrd %s, command line \"%s\"%s\n",
		 s->kernel, s->initrd ? s->initrd : "(none)",
		 cmdline_str(&st->cmdline), crash ? ", crash slot" : "");
	ret = kexec_file_load_fds(st->kernel_fd, st->initrd_fd,
				  cmdline_str(&st->cmdline),
				  crash ? KEXEC_FILE_ON_CRASH : 0);
	if (fallback && (ret == -ENOSYS || ret == -ENOEXEC)) {
		kj_dbg(ctx, "kexec_file_load: %s: kexec_load\n",
			 kexec_file_strerror(ctx, ret));
		return -ENOEXEC;
	}
	if (ret) {
		report_refusal(ctx, s, ret, was_loaded);
		return ret;
	}
	/* The marks describe kexec_load images: a file load replaces one. */
	load_update_mark(ctx, crash, false);
	return 0;
}

int file_load(struct kj_ctx *ctx, const struct kj_load_spec *s, bool fallback)
{
	struct file_load_state st = { .kernel_fd = -1, .initrd_fd = -1 };
	int ret;

	cmdline_init(&st.cmdline);
	ret = check_options(ctx, s, fallback);
	if (!ret)
		ret = open_inputs(ctx, s, &st);
	if (!ret)
		ret = load_read_input(ctx, "kernel", s->kernel, st.kernel_fd,
				      LOAD_MAX_KERNEL_SIZE, &st.kernel,
				      &st.kernel_len);
	if (!ret)
		ret = load_build_cmdline(ctx, s, &st.cmdline);
	if (!ret)
		ret = check_image(ctx, s, &st, fallback);
	if (!ret && s->mode == KJ_LOAD_CRASH)
		ret = check_crash_region(ctx);
	if (!ret)
		ret = submit(ctx, s, &st, fallback);
	if (st.kernel_fd >= 0)
		close(st.kernel_fd);
	if (st.initrd_fd >= 0)
		close(st.initrd_fd);
	cmdline_free(&st.cmdline);
	free(st.kernel);
	return ret;
}
