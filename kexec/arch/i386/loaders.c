// SPDX-License-Identifier: GPL-2.0-only
#include "arch.h"
#include "kexec-syscall.h"

extern const struct image_loader bzimage_loader;

const struct image_loader *const arch_loaders[] = {
	&bzimage_loader,
	NULL,
};

unsigned long arch_kexec_flags(void)
{
	return KEXEC_ARCH_386;
}
