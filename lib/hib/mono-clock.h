/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KJUMP_HIB_MONO_CLOCK_H
#define KJUMP_HIB_MONO_CLOCK_H

/* CLOCK_MONOTONIC in microseconds, for the timings kexec reports. */
#include <stdint.h>
#include <time.h>

static inline uint64_t kjh_mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

#endif
