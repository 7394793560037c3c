// SPDX-License-Identifier: GPL-2.0-only
/*
 * monotime                print CLOCK_MONOTONIC in microseconds
 * monotime --tsc-khz      measure the TSC rate against CLOCK_MONOTONIC
 *                         (a 200 ms busy wait) and print it in kHz
 * monotime --tsc KHZ      print the TSC in microseconds at KHZ (i386/x86-64)
 *
 * For timing guest commands: busybox date has no sub-second format in the
 * guests, and /proc/uptime only has centiseconds.
 *
 * CLOCK_MONOTONIC stops while a kernel is frozen: across a kexec jump it
 * counts only the time this kernel ran (timekeeping_suspend/resume; the
 * TCG TSC is not "nonstop", so the kernel cannot tell how long it was
 * away, and the RTC it uses for CLOCK_BOOTTIME has 1 s resolution).  The
 * TSC itself keeps counting in the other kernel, which does not reset it,
 * so --tsc measures wall time across a jump.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int mono_us(uint64_t *us)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts)) {
		fprintf(stderr, "monotime: clock_gettime: %s\n", strerror(errno));
		return 1;
	}
	*us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	return 0;
}

#if defined(__i386__) || defined(__x86_64__)
static uint64_t tsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}
#define HAVE_TSC 1
#endif

int main(int argc, char **argv)
{
	uint64_t us;

	if (argc == 1) {
		if (mono_us(&us))
			return 1;
		printf("%" PRIu64 "\n", us);
		return 0;
	}
#ifdef HAVE_TSC
	if (argc == 2 && !strcmp(argv[1], "--tsc-khz")) {
		uint64_t u0, u1, c0, c1;

		if (mono_us(&u0))
			return 1;
		c0 = tsc();
		do {
			if (mono_us(&u1))
				return 1;
		} while (u1 - u0 < 200000);
		c1 = tsc();
		printf("%" PRIu64 "\n", (c1 - c0) * 1000 / (u1 - u0));
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "--tsc")) {
		unsigned long long khz;
		char *end;

		errno = 0;
		khz = strtoull(argv[2], &end, 10);
		if (errno || *end || !khz) {
			fprintf(stderr, "monotime: --tsc KHZ, not '%s'\n", argv[2]);
			return 2;
		}
		/* cycles / kHz = ms; split to keep the product in 64 bits */
		us = tsc();
		printf("%" PRIu64 "\n", (uint64_t)(us / khz * 1000 + us % khz * 1000 / khz));
		return 0;
	}
#endif
	fprintf(stderr, "usage: monotime [--tsc-khz | --tsc KHZ]\n");
	return 2;
}
