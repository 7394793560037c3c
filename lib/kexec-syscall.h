/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel interface: kexec_load(2), reboot(2) and the sysfs files that
 * say what is loaded.  Numbers are the kernel's uapi values.
 */
#ifndef KJUMP_KEXEC_SYSCALL_H
#define KJUMP_KEXEC_SYSCALL_H

#include <stdbool.h>

#include "ctx.h"
#include "image.h"

#define KEXEC_ON_CRASH			0x00000001ul
#define KEXEC_PRESERVE_CONTEXT		0x00000002ul

/* kexec_file_load(2)'s flags */
#define KEXEC_FILE_UNLOAD		0x00000001ul
#define KEXEC_FILE_ON_CRASH		0x00000002ul
#define KEXEC_FILE_NO_INITRAMFS		0x00000004ul

#define LINUX_REBOOT_CMD_KEXEC		0x45584543u
#define LINUX_REBOOT_CMD_KJUMP		0x3928A5FDu

/*
 * Hand the image to the kernel (nr_seg == 0 unloads the slot chosen by
 * flags).  Returns 0 or -errno; prints nothing.
 */
int kexec_load_image(const struct kexec_image *img, unsigned long flags);
int kexec_unload(unsigned long flags);

/*
 * kexec_file_load(2): the kernel reads the files and builds the image.
 * initrd_fd < 0 adds KEXEC_FILE_NO_INITRAMFS; cmdline is passed with its
 * NUL.  -ENOSYS where this program has no such system call (a 32-bit
 * build: 32-bit x86 has none).  Returns 0 or -errno; prints nothing.
 */
int kexec_file_load_fds(int kernel_fd, int initrd_fd, const char *cmdline,
			unsigned long flags);
int kexec_file_unload(unsigned long flags);
/* kexec_load_strerror() for kexec_file_load's answers. */
const char *kexec_file_strerror(const struct kj_ctx *ctx, int err);

/*
 * Either of the two for a load or an unload of a slot (file: by
 * kexec_file_load).  For the crash slot, EBUSY is also a crash kernel
 * parked in a kexec jump, which the companion kernel does not drop
 * unasked (patch 0024).
 */
const char *kexec_slot_strerror(const struct kj_ctx *ctx, int err,
				bool crash, bool file);

/*
 * The kernel's lockdown mode, "integrity" or "confidentiality", in buf;
 * NULL when it is "none" or cannot be read (no securityfs mounted).
 */
const char *kexec_lockdown_mode(const struct kj_ctx *ctx, char *buf,
				size_t size);

/* The kernel's kexec lock is taken (by a load, an unload or an exec). */
#define KEXEC_EBUSY_TEXT \
	"the kernel is busy with another kexec load or reboot (try again)"

/*
 * Why kexec_load failed, in words an admin can act on.  For EPERM it
 * reads /proc/sys/kernel/kexec_load_disabled and our capabilities to say
 * which of the kernel's reasons applies.
 */
const char *kexec_load_strerror(const struct kj_ctx *ctx, int err);
/* Why LINUX_REBOOT_CMD_KJUMP returned -EPERM, as far as user space can tell. */
const char *kexec_jump_eperm_reason(const struct kj_ctx *ctx);

/* reboot(2) with a raw command; returns 0 or -errno. */
int kexec_reboot(unsigned int cmd);

/* The sysfs file that says whether the normal (or crash) slot is loaded. */
const char *kexec_slot_file(bool crash);

/* 1 if the normal (or crash) slot holds an image, 0 if not, or -errno. */
int kexec_slot_loaded(const struct kj_ctx *ctx, bool crash);

#endif
