// SPDX-License-Identifier: GPL-2.0-only
/*
 * x86_64: the x86 loaders for a 64-bit kernel.  Purgatory runs in 64-bit
 * mode on the identity map relocate_kernel_64 leaves and enters the
 * kernel by the 64-bit boot protocol: startup_64, 0x200 into the
 * protected-mode kernel, with %rsi = boot params.  Segments stay below
 * 4 GiB, where purgatory's checks reach.  A crash kernel gets the RAM
 * below 1 MiB (Linux keeps it reserved) and the crash region; the dump
 * leaves the first MiB out and is ELF64, its PT_LOADs at the direct
 * map's addresses as /proc/kcore shows them (KASLR moves the map).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "arch.h"
#include "bzimage-header.h"
#include "elf-read.h"
#include "x86-arch.h"

#define KEXEC_ARCH_X86_64	(62ul << 16)	/* uapi/linux/kexec.h */
/* The direct map without KASLR (Documentation/x86/x86_64/mm.rst). */
#define X86_64_PAGE_OFFSET	0xffff888000000000ull
/* The direct map lies between these (the kernel text map is above). */
#define X86_64_PAGE_OFFSET_MIN	0xff00000000000000ull
#define X86_64_KERNEL_TEXT_MAP	0xffffffff80000000ull
#define X86_64_PLACE_MAX	0xffffffffull	/* purgatory checks below 4 GiB */
#define BZIMAGE_64_ENTRY	0x200		/* startup_64 (boot.rst) */

extern const struct arch_loader bzimage_loader;
extern const struct arch_loader elf_x86_64_loader;

/* Probed in this order: a bzImage first. */
const struct arch_loader *const arch_loaders[] = {
	&bzimage_loader,
	&elf_x86_64_loader,
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

/*
 * /proc/kcore's first PT_LOAD of the direct map (RAM with a physical
 * address, below the kernel text map): the map's base, else 0.
 */
static uint64_t kcore_page_offset(int fd)
{
	uint8_t eh_buf[ELF_READ_EHDR_MAX], *table;
	struct elf_hdr eh;
	struct elf_phdr ph;
	uint64_t base = 0;
	unsigned int i;
	size_t size;
	char why[64];

	if (pread(fd, eh_buf, sizeof(eh_buf), 0) != sizeof(eh_buf) ||
	    elf_read_ehdr(eh_buf, sizeof(eh_buf), &eh, why, sizeof(why)) ||
	    eh.elf_class != 64 || elf_check_phdrs(&eh, UINT64_MAX, why,
						  sizeof(why)))
		return 0;
	size = elf_phdrs_size(&eh);
	table = malloc(size);
	if (!table)
		return 0;
	if (pread(fd, table, size, (off_t)eh.phoff) == (ssize_t)size) {
		for (i = 0; i < eh.phnum && !base; i++) {
			elf_read_phdr(&eh, table, i, &ph);
			if (ph.type == PT_LOAD && ph.paddr != UINT64_MAX &&
			    ph.vaddr < X86_64_KERNEL_TEXT_MAP &&
			    ph.vaddr - ph.paddr >= X86_64_PAGE_OFFSET_MIN)
				base = ph.vaddr - ph.paddr;
		}
	}
	free(table);
	return base;
}

static uint64_t find_page_offset(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];
	uint64_t base;
	int fd;

	fd = open(kj_path(ctx, "/proc/kcore", path, sizeof(path)),
		  O_RDONLY | O_CLOEXEC);
	base = fd < 0 ? 0 : kcore_page_offset(fd);
	if (fd >= 0)
		close(fd);
	if (base)
		return base;
	/* Only the PT_LOADs' p_vaddr suffer; the dump reads by p_paddr. */
	kj_dbg(ctx, "%s: no direct-map base, taking 0x%llx (wrong with KASLR)\n",
	       path, (unsigned long long)X86_64_PAGE_OFFSET);
	return X86_64_PAGE_OFFSET;
}

const struct x86_arch_desc x86_arch = {
	.name = "x86_64",
	.elf_machine = EM_X86_64,
	.elf_want = &elf_exec_x86_64,
	.kernels = "x86_64",
	.other_kernel_hint = "",
	.page_offset = X86_64_PAGE_OFFSET,
	.lowmem_end = UINT64_MAX,
	.place_max = X86_64_PLACE_MAX,
	.entry_max = UINT64_MAX,
	.bzimage_entry_offset = BZIMAGE_64_ENTRY,
	.bzimage_xloadflags = XLF_KERNEL_64,
	.low_backup = false,
	.find_page_offset = find_page_offset,
	.set_regs = set_regs,
};
