// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ctx.h"
#include "file-io.h"
#include "kexec-syscall.h"

/* struct kexec_segment of include/uapi/linux/kexec.h */
struct kexec_segment_abi {
	const void *buf;
	size_t bufsz;
	const void *mem;
	size_t memsz;
};

int kexec_load_image(const struct kexec_image *img, unsigned long flags)
{
	struct kexec_segment_abi segs[KEXEC_MAX_SEGMENTS];
	unsigned int i;

	for (i = 0; i < img->nr_seg; i++) {
		const struct image_segment *s = &img->seg[i];

		if (s->mem > SIZE_MAX || s->memsz > SIZE_MAX - s->mem)
			return -EOVERFLOW;
		segs[i] = (struct kexec_segment_abi){
			.buf = s->buf, .bufsz = s->bufsz,
			.mem = (const void *)(uintptr_t)s->mem,
			.memsz = (size_t)s->memsz,
		};
	}
	if (img->entry > UINTPTR_MAX)
		return -EOVERFLOW;
	if (syscall(SYS_kexec_load, (unsigned long)img->entry,
		    (unsigned long)img->nr_seg, segs, flags) != 0)
		return -errno;
	return 0;
}

int kexec_unload(unsigned long flags)
{
	if (syscall(SYS_kexec_load, 0ul, 0ul, NULL, flags) != 0)
		return -errno;
	return 0;
}

#define CAP_SYS_BOOT_BIT	22	/* include/uapi/linux/capability.h */

/* Whether our effective capability set holds CAP_SYS_BOOT; true if unknown. */
static bool have_cap_sys_boot(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX], *text, *line;
	unsigned long long caps;
	size_t len;
	bool yes = true;

	if (read_file(kj_path(ctx, "/proc/self/status", path, sizeof(path)),
		      65536, &text, &len))
		return true;
	line = strstr(text, "\nCapEff:");
	if (line && sscanf(line + 8, "%llx", &caps) == 1)
		yes = caps >> CAP_SYS_BOOT_BIT & 1;
	free(text);
	return yes;
}

/*
 * The kernel says EPERM for a missing CAP_SYS_BOOT, for the one-way
 * sysctl kernel.kexec_load_disabled, and for lockdown or a security
 * module: tell them apart as far as user space can.
 */
static const char *eperm_reason(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];
	unsigned long long disabled;

	if (!read_ulong(kj_path(ctx, "/proc/sys/kernel/kexec_load_disabled",
				path, sizeof(path)), &disabled) &&
	    disabled)
		return "disabled by sysctl kernel.kexec_load_disabled=1 (it stays set until reboot)";
	if (!have_cap_sys_boot(ctx))
		return "not permitted: this process lacks CAP_SYS_BOOT (run kexec as root)";
	return "not permitted (kernel lockdown or a security module forbids kexec_load)";
}

/*
 * EPERM from LINUX_REBOOT_CMD_KJUMP: no CAP_SYS_BOOT, or the companion
 * kernel refusing a jump where it would refuse a load (patch 0013).
 */
const char *kexec_jump_eperm_reason(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX], text[128];
	unsigned long long disabled;

	if (!have_cap_sys_boot(ctx))
		return "not permitted (needs CAP_SYS_BOOT)";
	if (!read_ulong(kj_path(ctx, "/proc/sys/kernel/kexec_load_disabled",
				path, sizeof(path)), &disabled) &&
	    disabled)
		return "refused: sysctl kernel.kexec_load_disabled=1 forbids jumps as it does loads (it stays set until reboot)";
	if (!read_text(kj_path(ctx, "/sys/kernel/security/lockdown", path,
			       sizeof(path)), text, sizeof(text)) &&
	    !strstr(text, "[none]"))
		return "refused: the kernel is locked down, which forbids jumps as it does loads";
	return "not permitted (a security module forbids it)";
}

const char *kexec_load_strerror(const struct kj_ctx *ctx, int err)
{
	switch (err) {
	case -EPERM:
		return eperm_reason(ctx);
	case -EBUSY:
		return KEXEC_EBUSY_TEXT;
	case -ENOSYS:
		return "the kernel has no kexec_load (CONFIG_KEXEC is off)";
	case -EADDRNOTAVAIL:
		return "the kernel refused a segment address (outside the allowed region)";
	case -ENOMEM:
		return "the kernel is out of memory for the image";
	case -EINVAL:
		return "the kernel rejected the image (Invalid argument)";
	case -EOVERFLOW:
		return "a segment address does not fit this tool's word size";
	default:
		return strerror(-err);
	}
}

int kexec_reboot(unsigned int cmd)
{
	if (reboot((int)cmd) != 0)
		return -errno;
	return 0;
}

const char *kexec_slot_file(bool crash)
{
	return crash ? "/sys/kernel/kexec_crash_loaded" :
		       "/sys/kernel/kexec_loaded";
}

int kexec_slot_loaded(const struct kj_ctx *ctx, bool crash)
{
	char path[KJ_PATH_MAX];
	unsigned long long v;
	int ret;

	ret = read_ulong(kj_path(ctx, kexec_slot_file(crash), path,
				 sizeof(path)), &v);
	if (ret)
		return ret;
	return v != 0;
}
