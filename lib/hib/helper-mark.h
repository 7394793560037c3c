/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_HELPER_MARK_H
#define KJUMP_HIB_HELPER_MARK_H

/*
 * Whether the loaded crash kernel can save a hibernation image: its
 * initramfs carries the image writer.  The writer's initramfs builder
 * (kjump-mkinitramfs) ends the initramfs with a small
 * uncompressed newc archive holding HIB_HELPER_CPIO_NAME; kexec -p looks
 * for that member and records the answer for this boot in
 * HIB_HELPER_MARK_PATH, which kexec --hibernate checks.
 */
#include <stdbool.h>
#include <stddef.h>

#include "ctx.h"

#define HIB_HELPER_CPIO_NAME	"etc/kjump-hibernate-helper"
#define HIB_HELPER_MARK_PATH	"/run/kexec-tools-kjump.crash"

/* Does the initramfs (newc, uncompressed part) hold the marker? */
bool initrd_has_hib_helper(const char *buf, size_t len);

/* After a crash load: remember whether its initramfs had the helper. */
void hib_helper_mark_set(const struct kj_ctx *ctx, bool present);
/* After a crash unload. */
void hib_helper_mark_clear(const struct kj_ctx *ctx);
/* Loaded this boot by this tool, with the helper. */
bool hib_helper_mark_valid(const struct kj_ctx *ctx);

#endif
