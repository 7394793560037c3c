// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86_64: the x86 loaders for a 64-bit kernel.  Purgatory runs in 64-bit
 * mode on the identity map relocate_kernel_64 leaves and enters the
 * kernel by the 64-bit boot protocol: startup_64, 0x200 into the
 * protected-mode kernel, with %rsi = boot params.  Segments stay below
 * 4 GiB, where purgatory's checks reach.  Crash and preserve-context
 * loads by kexec_load are not done here yet: kexec_file_load (-s) makes
 * the crash kernel.
 */
#include <elf.h>
#include <errno.h>
#include <string.h>

#include "arch.h"
#include "bzimage-header.h"
#include "file-io.h"
#include "x86-arch.h"

#define KEXEC_ARCH_X86_64	(62ul << 16)	/* uapi/linux/kexec.h */
/* The direct map without KASLR (Documentation/x86/x86_64/mm.rst). */
#define X86_64_PAGE_OFFSET	0xffff888000000000ull
#define X86_64_PLACE_MAX	0xffffffffull	/* purgatory checks below 4 GiB */
#define BZIMAGE_64_ENTRY	0x200		/* startup_64 (boot.rst) */

extern const struct arch_loader bzimage_loader;

const struct arch_loader *const arch_loaders[] = {
	&bzimage_loader,
	NULL,
};

unsigned long arch_kexec_flags(void)
{
	return KEXEC_ARCH_X86_64;
}

/* The 64-bit boot protocol: %rsi = boot params, the rest 0. */
static void set_regs(struct purgatory_params *p, uint64_t boot_params,
		     uint64_t entry, uint64_t stack)
{
	p->regs = (struct purgatory_regs){
		.rsi = boot_params, .rip = entry, .rsp = stack,
	};
}

const struct x86_arch_desc x86_arch = {
	.name = "x86_64",
	.elf_machine = EM_X86_64,
	.page_offset = X86_64_PAGE_OFFSET,
	.lowmem_end = UINT64_MAX,
	.place_max = X86_64_PLACE_MAX,
	.entry_max = UINT64_MAX,
	.bzimage_entry_offset = BZIMAGE_64_ENTRY,
	.bzimage_xloadflags = XLF_KERNEL_64,
	.no_hand_over = "kexec_load does not build crash or preserve-context images for x86_64 kernels yet (a crash kernel loads with -s, kexec_file_load)",
	.set_regs = set_regs,
};

int arch_check_entry(const struct kj_ctx *ctx, uint64_t entry)
{
	(void)ctx;
	(void)entry;
	return 0;
}

/* A 32-bit kernel takes no KEXEC_ARCH_X86_64 image. */
int arch_check_running(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX], machine[64];

	if (read_text(kj_path(ctx, "/proc/sys/kernel/arch", path,
			      sizeof(path)), machine, sizeof(machine)) ||
	    !strcmp(machine, "x86_64"))
		return 0;
	kj_err(ctx, "kexec_load: this kexec builds images for x86_64 kernels, and the running kernel is %s",
	       machine);
	return -ENOEXEC;
}
