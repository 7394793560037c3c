// SPDX-License-Identifier: GPL-2.0-only
#include "kexec-syscall.h"
#include "mark.h"
#include "preserve-mark.h"

/* The mark is the boot id alone. */
void preserve_mark_set(const struct kj_ctx *ctx)
{
	mark_write(ctx, PRESERVE_MARK_PATH, "",
		   "kexec -j cannot tell this image can come back; use kexec -e");
}

void preserve_mark_clear(const struct kj_ctx *ctx)
{
	mark_remove(ctx, PRESERVE_MARK_PATH);
}

bool preserve_mark_valid(const struct kj_ctx *ctx)
{
	return mark_holds(ctx, PRESERVE_MARK_PATH, "") &&
	       kexec_slot_loaded(ctx, false) == 1;
}
