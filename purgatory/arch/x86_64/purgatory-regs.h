/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * x86_64 part of the tool <-> purgatory contract (include/purgatory-params.h
 * includes it; both sides find it through -I purgatory/arch/x86_64): the
 * registers entry.S loads right before jumping to rip, as the Linux 64-bit
 * boot protocol wants them (rsi = boot_params).  Fixed-width types only,
 * so that 32- and 64-bit builds of the tool agree on the layout
 * (asm-offsets.h pins it).
 */
#ifndef KJUMP_PURGATORY_REGS_H
#define KJUMP_PURGATORY_REGS_H

#include <stdint.h>

struct purgatory_regs {
	uint64_t rax, rbx, rcx, rdx, rsi, rdi, rsp, rbp;
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t rip;
} __attribute__((packed));

#endif
