// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cmdline.h"
#include "ctx.h"
#include "file-io.h"
#include "kexec-syscall.h"
#include "preserve-mark.h"

/*
 * Take every interface but loopback down, so that no device keeps doing
 * DMA into memory the next kernel is about to own.  A kernel without
 * networking has nothing to take down: that is not an error.
 */
static void ifdown_all(const struct kj_ctx *ctx)
{
	struct if_nameindex *ifs, *i;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	ifs = if_nameindex();
	for (i = ifs; i && i->if_index; i++) {
		struct ifreq req;

		if (!strcmp(i->if_name, "lo"))
			continue;
		memset(&req, 0, sizeof(req));
		strncpy(req.ifr_name, i->if_name, IFNAMSIZ - 1);
		if (ioctl(fd, SIOCGIFFLAGS, &req) < 0)
			continue;
		req.ifr_flags &= ~IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &req) < 0)
			kj_warn(ctx, "ifdown %s: %s", i->if_name, strerror(errno));
	}
	if (ifs)
		if_freenameindex(ifs);
	close(fd);
}

static int need_loaded(const struct kj_ctx *ctx, const char *what, bool crash,
		       const char *hint)
{
	int loaded = kexec_slot_loaded(ctx, crash);

	if (loaded < 0) {
		kj_err(ctx, "%s: cannot tell whether a kernel is loaded (%s)", what,
		       strerror(-loaded));
		return loaded;
	}
	if (!loaded) {
		kj_err(ctx, "%s: nothing loaded (%s)", what, hint);
		return -ENOENT;
	}
	return 0;
}

/* sync(2) unless told not to, then reboot(2): 0 when control came back. */
static int reboot_now(unsigned int cmd, unsigned int flags)
{
	if (!(flags & KJ_RUN_NO_SYNC))
		sync();
	return kexec_reboot(cmd);
}

/* Why reboot(2) refused, for a message; busy says what EBUSY means. */
static const char *reboot_strerror(int ret, const char *busy)
{
	if (ret == -EPERM)
		return "not permitted (needs CAP_SYS_BOOT)";
	if (ret == -EBUSY && busy)
		return busy;
	return strerror(-ret);
}

int kj_exec(struct kj_ctx *ctx, unsigned int flags)
{
	bool comes_back;
	int ret;

	ret = need_loaded(ctx, "exec", false,
			  "load a kernel with kexec -l first");
	if (ret)
		return ret;
	/* A jump returns here: keep the network as it is (quirk A9 d). */
	comes_back = preserve_mark_valid(ctx);
	if (!(flags & KJ_RUN_NO_SYNC))
		sync();
	if (!(flags & KJ_RUN_NO_IFDOWN) && !comes_back)
		ifdown_all(ctx);
	ret = reboot_now(LINUX_REBOOT_CMD_KEXEC, flags | KJ_RUN_NO_SYNC);
	if (!ret)
		return 0;	/* a preserve-context image returned */
	kj_err(ctx, "exec: %s", reboot_strerror(ret, KEXEC_EBUSY_TEXT));
	return ret;
}

/* How this kernel was entered, from its command line. */
enum entered_by { ENTERED_BOOT, ENTERED_KJUMP, ENTERED_PRESERVE };

static enum entered_by entered_by(const struct kj_ctx *ctx)
{
	enum entered_by how = ENTERED_BOOT;
	char *text;

	if (kj_read_proc(ctx, "/proc/cmdline", 65536, &text, NULL))
		return how;
	if (cmdline_has_key(text, "kexec_jump_buf_pfn="))
		how = ENTERED_KJUMP;
	else if (cmdline_has_key(text, "kexec_jump_back_entry="))
		how = ENTERED_PRESERVE;
	free(text);
	return how;
}

static bool has_kjump(const struct kj_ctx *ctx)
{
	char path[KJ_PATH_MAX];

	return !access(kj_path(ctx, "/sys/kernel/kexec_jump_buf_pfn", path,
			       sizeof(path)), F_OK);
}

static void jump_error(const struct kj_ctx *ctx, int ret, bool back)
{
	if (ret == -EINVAL && back)
		kj_err(ctx, "jump: the kernel refused to jump back (kexec_jump_buf_pfn= or kexec_backup= is not valid here; see dmesg)");
	else if (ret == -EINVAL)
		kj_err(ctx, "jump: the kernel refused LINUX_REBOOT_CMD_KJUMP (no crash kernel loaded, or loaded by a kernel without the kexec jump companion)");
	else if (ret == -EPERM)
		kj_err(ctx, "jump: %s", kexec_jump_eperm_reason(ctx));
	else if (ret == -ENOEXEC && !back)
		kj_err(ctx, "jump: the crash kernel was not loaded for a jump (kexec -p --no-jump, or kexec_file_load): load it again with kexec -p");
	else if (ret == -EOWNERDEAD && back)
		kj_err(ctx, "jump: the previous kernel crashed while this one was parked; this kernel is its crash kernel now, and /proc/vmcore shows it at the crash");
	else if (ret == -EOWNERDEAD)
		kj_err(ctx, "jump: the crash kernel panicked during the jump and came back here; the kernel unloaded it (load it again with kexec -p)");
	else if (ret == -EOPNOTSUPP)
		kj_err(ctx, "jump: the kernel cannot be saved by a jump (a request is pending in /sys/kernel/kexec_jump_request, and an x86_64 companion kernel without patch 0038 refuses it)");
	else
		kj_err(ctx, "jump: %s", reboot_strerror(ret, "another kexec operation or a hibernation (/dev/snapshot open) is in progress, or a task or a device refused to freeze (see dmesg)"));
}

/* The companion's LINUX_REBOOT_CMD_KJUMP, into the crash slot or back. */
static int jump_kjump(const struct kj_ctx *ctx, unsigned int flags, bool back)
{
	int ret;

	if (!back) {
		ret = need_loaded(ctx, "jump", true,
				  "load a kernel with kexec -p first");
		if (ret)
			return ret;
	}
	ret = reboot_now(LINUX_REBOOT_CMD_KJUMP, flags);
	if (!ret)
		return 0;	/* jumped, and the other kernel jumped back */
	jump_error(ctx, ret, back);
	return ret;
}

/*
 * The upstream jump: run the preserve-context image in the normal slot.
 * In a kernel entered that way, load the way back first if needed.
 */
static int jump_preserve(struct kj_ctx *ctx, unsigned int flags, bool back)
{
	int ret;

	if (back && !preserve_mark_valid(ctx)) {
		ret = kj_load_jump_back(ctx, false, 0);
		if (ret)
			return ret;
	}
	ret = reboot_now(LINUX_REBOOT_CMD_KEXEC, flags);
	if (!ret)
		return 0;
	kj_err(ctx, "jump: %s", reboot_strerror(ret, NULL));
	return ret;
}

/*
 * The companion's KJUMP where the kernel has it, the upstream
 * preserve-context path otherwise, so that one call works on both.
 */
int kj_jump(struct kj_ctx *ctx, unsigned int flags)
{
	enum entered_by how = entered_by(ctx);

	if (how == ENTERED_KJUMP && !has_kjump(ctx)) {
		kj_err(ctx, "jump: entered by KJUMP, but this kernel has no kexec jump support (no /sys/kernel/kexec_jump_buf_pfn)");
		return -ENOSYS;
	}
	if (how == ENTERED_KJUMP)
		return jump_kjump(ctx, flags, true);
	if (how == ENTERED_PRESERVE)
		return jump_preserve(ctx, flags, true);
	if (has_kjump(ctx) && kexec_slot_loaded(ctx, true) == 1)
		return jump_kjump(ctx, flags, false);
	if (preserve_mark_valid(ctx))
		return jump_preserve(ctx, flags, false);
	if (has_kjump(ctx))
		return jump_kjump(ctx, flags, false);	/* says what is missing */
	kj_err(ctx, "jump: nothing to jump into (this kernel has no KJUMP: load with kexec -l --load-preserve-context --mem-max=ADDR first)");
	return -ENOENT;
}
