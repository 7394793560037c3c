/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The few bits of hardware access purgatory needs: port I/O, physical
 * memory and stopping the CPU.  The same on i386 and x86_64.
 */
#ifndef PURGATORY_HW_H
#define PURGATORY_HW_H

#include <stdint.h>

static inline void outb(uint16_t port, uint8_t val)
{
	__asm__ volatile("outb %0, %1" : : "a"(val), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t val;

	__asm__ volatile("inb %1, %0" : "=a"(val) : "Nd"(port));
	return val;
}

/*
 * Physical address -> pointer.  On i386 paging is off; on x86_64
 * relocate_kernel_64 left an identity map of all RAM and of every
 * segment.  Either way the numbers are equal, but physical address 0 is
 * ordinary RAM here (the backup source usually
 * starts there).  Launder the value through an empty asm so the compiler
 * can never prove a pointer NULL and treat the access as undefined; the
 * build also uses -fno-delete-null-pointer-checks.
 */
static inline void *phys_ptr(uint32_t addr)
{
	uintptr_t v = addr;

	__asm__("" : "+r"(v));
	return (void *)v;
}

static inline __attribute__((noreturn)) void halt_forever(void)
{
	for (;;)
		__asm__ volatile("cli; hlt" : : : "memory");
}

#endif
