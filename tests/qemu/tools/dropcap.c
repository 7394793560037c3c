// SPDX-License-Identifier: GPL-2.0-only
/*
 * dropcap CAP CMD [ARG...]
 *
 * Stay uid 0 but lose capability number CAP (CAP_SYS_BOOT is 22): from
 * the bounding set, and from the effective, permitted and inheritable
 * sets, so that neither this process nor CMD has it; then exec CMD.  For
 * checking that root without the capability is refused (the guests have
 * no capsh).  Exit status 2 on a usage error, 126 when the capability
 * cannot be dropped, 127 when CMD cannot run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static int drop(unsigned int cap)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];
	unsigned int i = cap / 32, bit = 1u << (cap % 32);

	if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0))
		return -1;
	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[i].effective &= ~bit;
	data[i].permitted &= ~bit;
	data[i].inheritable &= ~bit;
	return (int)syscall(SYS_capset, &hdr, data);
}

int main(int argc, char **argv)
{
	unsigned long cap;
	char *end;

	if (argc < 3) {
		fprintf(stderr, "usage: dropcap CAP CMD [ARG...]\n");
		return 2;
	}
	errno = 0;
	cap = strtoul(argv[1], &end, 10);
	if (errno || *end || end == argv[1] || cap > 63) {
		fprintf(stderr, "dropcap: CAP must be 0..63, not '%s'\n", argv[1]);
		return 2;
	}
	if (drop((unsigned int)cap)) {
		fprintf(stderr, "dropcap: cannot drop %lu: %s\n", cap, strerror(errno));
		return 126;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "dropcap: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
