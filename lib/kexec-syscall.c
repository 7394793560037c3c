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

#ifdef SYS_kexec_file_load
int kexec_file_load_fds(int kernel_fd, int initrd_fd, const char *cmdline,
			unsigned long flags)
{
	unsigned long len = cmdline ? strlen(cmdline) + 1 : 0;

	if (initrd_fd < 0)
		flags |= KEXEC_FILE_NO_INITRAMFS;
	if (syscall(SYS_kexec_file_load, kernel_fd, initrd_fd, len, cmdline,
		    flags) != 0)
		return -errno;
	return 0;
}
#else
int kexec_file_load_fds(int kernel_fd, int initrd_fd, const char *cmdline,
			unsigned long flags)
{
	(void)kernel_fd, (void)initrd_fd, (void)cmdline, (void)flags;
	return -ENOSYS;
}
#endif

int kexec_file_unload(unsigned long flags)
{
#ifdef SYS_kexec_file_load
	if (syscall(SYS_kexec_file_load, -1, -1, 0ul, NULL,
		    flags | KEXEC_FILE_UNLOAD) != 0)
		return -errno;
	return 0;
#else
	(void)flags;
	return -ENOSYS;
#endif
}

#define CAP_SYS_BOOT_BIT	22	/* include/uapi/linux/capability.h */

/* Whether our effective capability set holds CAP_SYS_BOOT; true if unknown. */
static bool have_cap_sys_boot(const struct kj_ctx *ctx)
{
	char *text, *line;
	unsigned long long caps;
	bool yes = true;

	if (kj_read_proc(ctx, "/proc/self/status", 65536, &text, NULL))
		return true;
	line = strstr(text, "\nCapEff:");
	if (line && sscanf(line + 8, "%llx", &caps) == 1)
		yes = caps >> CAP_SYS_BOOT_BIT & 1;
	free(text);
	return yes;
}

/* The one-way sysctl kernel.kexec_load_disabled is set. */
static bool kexec_disabled(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];
	unsigned long long disabled;

	return !read_ulong(kj_path(ctx, "/proc/sys/kernel/kexec_load_disabled",
				   path, sizeof(path)), &disabled) && disabled;
}

/*
 * The kernel says EPERM for a missing CAP_SYS_BOOT, for the one-way
 * sysctl kernel.kexec_load_disabled, and for lockdown or a security
 * module: tell them apart as far as user space can.  The first two,
 * which both load calls share, or NULL.
 */
static const char *eperm_common(const struct kj_ctx *ctx)
{
	if (kexec_disabled(ctx))
		return "disabled by sysctl kernel.kexec_load_disabled=1 (it stays set until reboot)";
	if (!have_cap_sys_boot(ctx))
		return "not permitted: this process lacks CAP_SYS_BOOT (run kexec as root)";
	return NULL;
}

static const char *eperm_reason(const struct kj_ctx *ctx)
{
	const char *why = eperm_common(ctx);

	return why ? why :
	       "not permitted (kernel lockdown or a security module forbids kexec_load)";
}

const char *kexec_lockdown_mode(const struct kj_ctx *ctx, char *buf,
				size_t size)
{
	char path[KJ_PATH_MAX], text[128], *open, *close;

	if (read_text(kj_path(ctx, "/sys/kernel/security/lockdown", path,
			      sizeof(path)), text, sizeof(text)))
		return NULL;
	open = strchr(text, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close || close - open - 1 <= 0 ||
	    (size_t)(close - open - 1) >= size)
		return NULL;
	memcpy(buf, open + 1, (size_t)(close - open - 1));
	buf[close - open - 1] = '\0';
	return strcmp(buf, "none") ? buf : NULL;
}

/*
 * EPERM from kexec_file_load: the reasons kexec_load has, and under
 * lockdown a signature that did not verify.
 */
static const char *file_eperm_reason(const struct kj_ctx *ctx)
{
	const char *why = eperm_common(ctx);
	char mode[32];

	if (why)
		return why;
	if (kexec_lockdown_mode(ctx, mode, sizeof(mode)))
		return "refused: the kernel is locked down, and the image's signature did not verify against its keyrings (dmesg says more)";
	return "not permitted (a signature check or a security module refused the image; dmesg says more)";
}

const char *kexec_file_strerror(const struct kj_ctx *ctx, int err)
{
	switch (err) {
	case -EPERM:
		return file_eperm_reason(ctx);
	case -ENOSYS:
#ifdef SYS_kexec_file_load
		return "the running kernel has no kexec_file_load (CONFIG_KEXEC_FILE is off, or a 32-bit kernel); use -c (kexec_load)";
#else
		return "32-bit x86 has no kexec_file_load system call; use -c (kexec_load), or a 64-bit kexec on a 64-bit kernel";
#endif
	case -EKEYREJECTED:
		return "the kernel enforces signatures, and the image's signature was rejected";
	case -ENOKEY:
		return "the kernel enforces signatures, and the image is signed with a key it does not trust";
	case -ENODATA:
	case -ENOPKG:
	case -EBADMSG:
		return "the kernel enforces signatures, and the image carries none it can check";
	case -ENOEXEC:
		return "the kernel's file loader does not take this image (dmesg says why)";
	case -EINVAL:
		return "the kernel rejected the image or its command line (Invalid argument; dmesg says which)";
	case -EADDRNOTAVAIL:
		return "no room for the image where the kernel may put it (for -p: the crash region, crashkernel=, is too small)";
	case -EBUSY:
		return KEXEC_EBUSY_TEXT;
	case -ENOMEM:
		return "the kernel is out of memory for the image";
	default:
		return strerror(-err);
	}
}

/*
 * EPERM from LINUX_REBOOT_CMD_KJUMP: no CAP_SYS_BOOT, or the companion
 * kernel refusing a jump where it would refuse a load (patch 0017).
 */
const char *kexec_jump_eperm_reason(const struct kj_ctx *ctx)
{
	char mode[32];

	if (!have_cap_sys_boot(ctx))
		return "not permitted (needs CAP_SYS_BOOT)";
	if (kexec_disabled(ctx))
		return "refused: sysctl kernel.kexec_load_disabled=1 forbids jumps as it does loads (it stays set until reboot)";
	if (kexec_lockdown_mode(ctx, mode, sizeof(mode)))
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

/* /sys/kernel/kexec_jump_parked reads 1: a kexec -j returns into it. */
static bool crash_kernel_parked(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];
	unsigned long long parked;

	return !read_ulong(kj_path(ctx, "/sys/kernel/kexec_jump_parked", path,
				   sizeof(path)), &parked) && parked;
}

const char *kexec_slot_strerror(const struct kj_ctx *ctx, int err,
				bool crash, bool file)
{
	if (crash && err == -EBUSY && crash_kernel_parked(ctx))
		return "the crash kernel is parked in a kexec jump (kexec -j returns into it); kexec -p -u --discard unloads it, and its state with it";
	return file ? kexec_file_strerror(ctx, err) :
		      kexec_load_strerror(ctx, err);
}
