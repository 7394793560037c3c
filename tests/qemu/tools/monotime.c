// SPDX-License-Identifier: GPL-2.0-only
/*
 * monotime: print CLOCK_MONOTONIC in microseconds, for timing guest
 * commands (busybox date has no sub-second format in the guests, and
 * /proc/uptime only has centiseconds).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <time.h>

int main(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		fprintf(stderr, "monotime: clock_gettime: %s\n", strerror(errno));
		return 1;
	}
	printf("%" PRIu64 "\n", (uint64_t)ts.tv_sec * 1000000u +
	       (uint64_t)ts.tv_nsec / 1000u);
	return 0;
}
