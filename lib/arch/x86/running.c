// SPDX-License-Identifier: GPL-2.0-only
/*
 * kexec_load takes images of the running kernel's word size only: a
 * 64-bit kernel refuses KEXEC_ARCH_386 with a bare EINVAL, and a 32-bit
 * one cannot run an x86_64 image.  Say so first, from the kernel.arch
 * sysctl (missing: cannot tell, go on).  And an --entry purgatory can
 * reach.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "arch.h"
#include "file-io.h"
#include "x86-arch.h"

int arch_check_running(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX], machine[64];
	bool want_64 = x86_arch.elf_want->elf_class == 64;

	if (read_text(kj_path(ctx, "/proc/sys/kernel/arch", path,
			      sizeof(path)), machine, sizeof(machine)) ||
	    !strcmp(machine, "x86_64") == want_64)
		return 0;
	kj_err(ctx, "kexec_load: this kexec builds images for %s kernels, and the running kernel is %s%s",
	       x86_arch.kernels, machine, x86_arch.other_kernel_hint);
	return -ENOEXEC;
}

/*
 * entry_max: i386's purgatory enters the kernel in 32-bit mode, below
 * 4 GiB; x86_64's reaches everything.
 */
int arch_check_entry(const struct kj_ctx *ctx, uint64_t entry)
{
	if (entry <= x86_arch.entry_max)
		return 0;
	kj_err(ctx, "--entry=0x%" PRIx64 ": above 4 GiB, out of reach in 32-bit mode",
	       entry);
	return -ERANGE;
}
