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
#include "load.h"
#include "log.h"
#include "preserve-mark.h"
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
	bool comes_back;
	int ret;

	if (need_loaded("exec", false, "load a kernel with kexec -l first"))
		return -1;
	/* A jump returns here: keep the network as it is (quirk A9 d). */
	comes_back = preserve_mark_valid();
	if (!o->no_sync)
		sync();
	if (!o->no_ifdown && !comes_back)
		ifdown_all();
	ret = kexec_reboot(LINUX_REBOOT_CMD_KEXEC);
	if (!ret)
		return 0;	/* a preserve-context image returned */
	kx_err("exec: %s", ret == -EPERM ? "not permitted (needs CAP_SYS_BOOT)" :
	       ret == -EBUSY ? KEXEC_EBUSY_TEXT : strerror(-ret));
	return -1;
}

/* How this kernel was entered, from its command line. */
enum entered_by { ENTERED_BOOT, ENTERED_KJUMP, ENTERED_PRESERVE };

static enum entered_by entered_by(void)
{
	enum entered_by how = ENTERED_BOOT;
	char *text;
	size_t len;

	if (read_file("/proc/cmdline", 65536, &text, &len))
		return how;
	if (cmdline_has_key(text, "kexec_jump_buf_pfn="))
		how = ENTERED_KJUMP;
	else if (cmdline_has_key(text, "kexec_jump_back_entry="))
		how = ENTERED_PRESERVE;
	free(text);
	return how;
}

static bool has_kjump(void)
{
	return !access("/sys/kernel/kexec_jump_buf_pfn", F_OK);
}

static void jump_error(int ret, bool back)
{
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
}

/* The companion's LINUX_REBOOT_CMD_KJUMP, into the crash slot or back. */
static int jump_kjump(const struct kexec_opts *o, bool back)
{
	int ret;

	if (!back && need_loaded("jump", true,
				 "load a kernel with kexec -p first"))
		return -1;
	if (!o->no_sync)
		sync();
	ret = kexec_reboot(LINUX_REBOOT_CMD_KJUMP);
	if (!ret)
		return 0;	/* jumped, and the other kernel jumped back */
	jump_error(ret, back);
	return -1;
}

/*
 * The upstream jump: run the preserve-context image in the normal slot.
 * In a kernel entered that way, load the way back first if needed.
 */
static int jump_preserve(const struct kexec_opts *o, bool back)
{
	int ret;

	if (back && !preserve_mark_valid() && load_jump_back_helper(o))
		return -1;
	if (!o->no_sync)
		sync();
	ret = kexec_reboot(LINUX_REBOOT_CMD_KEXEC);
	if (!ret)
		return 0;
	kx_err("jump: %s", ret == -EPERM ?
	       "not permitted (needs CAP_SYS_BOOT)" : strerror(-ret));
	return -1;
}

/*
 * -j: the companion's KJUMP where the kernel has it, the upstream
 * preserve-context path otherwise, so that one command works on both.
 */
int jump_kernel(const struct kexec_opts *o)
{
	enum entered_by how = entered_by();

	if (how == ENTERED_KJUMP && !has_kjump()) {
		kx_err("jump: entered by KJUMP, but this kernel has no kexec jump support (no /sys/kernel/kexec_jump_buf_pfn)");
		return -1;
	}
	if (how == ENTERED_KJUMP)
		return jump_kjump(o, true);
	if (how == ENTERED_PRESERVE)
		return jump_preserve(o, true);
	if (has_kjump() && kexec_slot_loaded(true) == 1)
		return jump_kjump(o, false);
	if (preserve_mark_valid())
		return jump_preserve(o, false);
	if (has_kjump())
		return jump_kjump(o, false);	/* says what is missing */
	kx_err("jump: nothing to jump into (this kernel has no KJUMP: load with kexec -l --load-preserve-context --mem-max=ADDR first)");
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
