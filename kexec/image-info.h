/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_IMAGE_INFO_H
#define KJUMP_IMAGE_INFO_H

#include <stdbool.h>

/*
 * kexec --image-info=TARGET [--verify]: the header of the hibernation
 * image at offset 0 of TARGET (a file or a block device) as "key: value"
 * lines on stdout.  Returns 0, or -1 after one "kexec: image-info: ..."
 * line when the image is torn, invalid, or (--verify) a chunk is bad.
 */
int image_info(const char *target, bool verify);

#endif
