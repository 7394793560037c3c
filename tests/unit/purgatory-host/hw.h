/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * purgatory/arch/x86/hw.h for a unit test on the host: "physical memory"
 * is the test's buffer, so purgatory's C code runs unchanged in a process.
 */
#ifndef PURGATORY_HW_H
#define PURGATORY_HW_H

#include <stdint.h>

extern unsigned char test_phys_mem[];

static inline void *phys_ptr(uint32_t addr)
{
	return test_phys_mem + addr;
}

#endif
