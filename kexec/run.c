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
#include "file-io.h"
#include "kexec-syscall.h"
#include "log.h"
#include "run.h"

/*
 * Take every interface but loopback down, so that no device keeps doing
 * DMA into memory the next kernel is about to own.  A kernel without
 * networking has nothing to take down: that is not an error.
 */
static void ifdown_all(void)
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
			kx_warn("ifdown %s: %s", i->if_name, strerror(errno));
	}
	if (ifs)
		if_freenameindex(ifs);
	close(fd);
}

static int need_loaded(const char *what, bool crash, const char *hint)
{
	int loaded = kexec_slot_loaded(crash);

	if (loaded < 0) {
		kx_err("%s: cannot tell whether a kernel is loaded (%s)", what,
		       strerror(-loaded));
		return -1;
	}
	if (!loaded) {
		kx_err("%s: nothing loaded (%s)", what, hint);
		return -1;
	}
	return 0;
}

int exec_kernel(const struct kexec_opts *o)
{
	int ret;

	if (need_loaded("exec", false, "load a kernel with kexec -l first"))
		return -1;
	if (!o->no_sync)
		sync();
	if (!o->no_ifdown)
		ifdown_all();
	ret = kexec_reboot(LINUX_REBOOT_CMD_KEXEC);
	if (!ret)
		return 0;	/* a preserve-context image returned */
	kx_err("exec: %s", ret == -EPERM ? "not permitted (needs CAP_SYS_BOOT)" :
	       ret == -EBUSY ? KEXEC_EBUSY_TEXT : strerror(-ret));
	return -1;
}

/* In a kernel that was jumped into, KJUMP jumps back. */
static bool jumped_into(void)
{
	char *text;
	size_t len;
	bool yes;

	if (read_file("/proc/cmdline", 65536, &text, &len))
		return false;
	yes = cmdline_has_key(text, "kexec_jump_buf_pfn=");
	free(text);
	return yes;
}

static int jump_precheck(bool back)
{
	if (access("/sys/kernel/kexec_jump_buf_pfn", F_OK)) {
		kx_err("jump: this kernel has no kexec jump support (no /sys/kernel/kexec_jump_buf_pfn); on a stock kernel use kexec -l --load-preserve-context and kexec -e");
		return -1;
	}
	if (back)
		return 0;
	return need_loaded("jump", true, "load a kernel with kexec -p first");
}

int jump_kernel(const struct kexec_opts *o)
{
	bool back = jumped_into();
	int ret;

	if (jump_precheck(back))
		return -1;
	if (!o->no_sync)
		sync();
	ret = kexec_reboot(LINUX_REBOOT_CMD_KJUMP);
	if (!ret)
		return 0;	/* jumped, and the other kernel jumped back */
	if (ret == -EPERM)
		kx_err("jump: not permitted (needs CAP_SYS_BOOT)");
	else if (ret == -EINVAL && back)
		kx_err("jump: the kernel refused to jump back (kexec_jump_buf_pfn= or kexec_backup= is not valid here; see dmesg)");
	else if (ret == -EINVAL)
		kx_err("jump: the kernel refused LINUX_REBOOT_CMD_KJUMP (no crash kernel loaded, or loaded by a kernel without the kexec jump companion)");
	else if (ret == -EBUSY)
		kx_err("jump: %s", "another kexec operation is in progress, or a task refused to freeze");
	else
		kx_err("jump: %s", strerror(-ret));
	return -1;
}

int run_shutdown(void)
{
	char *const argv[] = { "shutdown", "-r", "now", NULL };

	execv("/sbin/shutdown", argv);
	kx_err("/sbin/shutdown: %s (the kernel stays loaded; run kexec -e)",
	       strerror(errno));
	return -1;
}

int report_status(const struct kexec_opts *o)
{
	bool crash = !o->seen_l;
	int loaded = kexec_slot_loaded(crash);

	if (loaded < 0) {
		kx_err("status: %s: %s", crash ?
		       "/sys/kernel/kexec_crash_loaded" :
		       "/sys/kernel/kexec_loaded", strerror(-loaded));
		return 2;
	}
	printf("%s kernel: %s\n", crash ? "crash" : "normal",
	       loaded ? "loaded" : "not loaded");
	return loaded;
}
