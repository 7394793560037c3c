/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the common purgatory C code asks of the arch beyond hw.h: how to
 * report the registers it is about to hand over.
 */
#ifndef PURGATORY_ARCH_H
#define PURGATORY_ARCH_H

#include "purgatory.h"

/* The last progress line before entry.S loads params->regs. */
static inline void arch_say_start(const struct console *con,
				  const struct purgatory_regs *regs)
{
	con_say(con, "purgatory: starting 0x%x%x, rsi 0x%x%x\n",
		(uint32_t)(regs->rip >> 32), (uint32_t)regs->rip,
		(uint32_t)(regs->rsi >> 32), (uint32_t)regs->rsi);
}

#endif
