// SPDX-License-Identifier: GPL-2.0-only
#include "arch.h"
#include "kexec-syscall.h"

extern const struct image_loader bzimage_loader;
extern const struct image_loader elf_x86_loader;

/* Probed in this order: a bzImage first. */
const struct image_loader *const arch_loaders[] = {
	&bzimage_loader,
	&elf_x86_loader,
	NULL,
};

unsigned long arch_kexec_flags(void)
{
	return KEXEC_ARCH_386;
}
