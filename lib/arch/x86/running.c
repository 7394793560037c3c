// SPDX-License-Identifier: GPL-2.0-only
/*
 * kexec_load takes images of the running kernel's word size only: a
 * 64-bit kernel refuses KEXEC_ARCH_386 with a bare EINVAL, and a 32-bit
 * one cannot run an x86_64 image.  Say so first, from the kernel.arch
 * sysctl (missing: cannot tell, go on).
 */
#include <errno.h>
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
