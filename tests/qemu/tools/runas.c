// SPDX-License-Identifier: GPL-2.0-only
/*
 * runas UID CMD [ARG...]
 *
 * Drop to UID (and GID UID, no supplementary groups), then exec CMD.  For
 * running the kexec under test as an unprivileged user in the guests,
 * which have no user database for su.  Exit status 2 on a usage error,
 * 126 when the privileges cannot be dropped, 127 when CMD cannot run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long id;
	char *end;

	if (argc < 3) {
		fprintf(stderr, "usage: runas UID CMD [ARG...]\n");
		return 2;
	}
	errno = 0;
	id = strtoul(argv[1], &end, 10);
	if (errno || *end || end == argv[1] || id == 0 || id > 65534) {
		fprintf(stderr, "runas: UID must be 1..65534, not '%s'\n", argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setgid((gid_t)id) || setuid((uid_t)id)) {
		fprintf(stderr, "runas: cannot become %lu: %s\n", id, strerror(errno));
		return 126;
	}
	if (setuid(0) == 0) {
		fprintf(stderr, "runas: still able to become root\n");
		return 126;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "runas: %s: %s\n", argv[2], strerror(errno));
	return 127;
}
