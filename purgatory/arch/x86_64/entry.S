/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Purgatory entry and exit, x86_64.
 *
 * relocate_kernel_64 enters our first byte by a ret: 64-bit mode, paging
 * on with an identity map of all RAM and of every segment, interrupts
 * off, CR4 = PAE (and LA57 with 5-level paging) but no OSFXSR (SSE would
 * fault, hence -mgeneral-regs-only), the GDT and IDT invalidated by machine_kexec()
 * (CS still cached), and 0(%rsp), on the kernel's stack in its control
 * page, holding the caller's return address (preserve-context) or 0.
 * Everything here is RIP-relative; no absolute address is assembled in
 * (purgatory/mkblob proves that).
 *
 * On the way out every general register, rsp included, is loaded from
 * params.regs and we enter params.regs.rip with CS=0x10 (64-bit code) and
 * DS..SS=0x18 from our own GDT, as the Linux 64-bit boot protocol
 * requires.
 */
#include "asm-offsets.h"

	.code64
	.section .text.head, "ax", @progbits

	.globl	purgatory_start
	.hidden	purgatory_start
	.type	purgatory_start, @function
purgatory_start:
	PURGATORY_HEADER entry

	/*
	 * 64-bit code (0x10, L=1) and flat data (0x18), the Linux boot
	 * selectors; accessed bits preset so the CPU never writes the table.
	 */
	.balign	8
gdt:
	.quad	0				/* 0x00: null */
	.quad	0				/* 0x08: unused */
	.quad	0x00af9b000000ffff		/* 0x10: code, 64-bit */
	.quad	0x00cf93000000ffff		/* 0x18: data, read/write */
gdt_end:
	.balign	8
	.word	0, 0, 0				/* so that gdt_desc.base is aligned */
gdt_desc:
	.word	gdt_end - gdt - 1
	.quad	0				/* base: patched at run time */

entry:
	cli
	cld

	/* %r12 = &params (callee-saved: it survives purgatory_main). */
	leaq	purgatory_start(%rip), %rbx
	movl	PH_PARAMS_OFFSET(%rbx), %r12d
	addq	%rbx, %r12

	/* "Jump back address or 0", left at 0(%rsp) by relocate_kernel. */
	movq	(%rsp), %rax
	movl	%eax, PP_JUMP_BACK_ENTRY(%r12)
	shrq	$32, %rax
	movl	%eax, PP_JUMP_BACK_ENTRY_HI(%r12)

	/* Our GDT, at its run-time address. */
	leaq	gdt(%rip), %rax
	movq	%rax, gdt_desc + 2(%rip)
	lgdt	gdt_desc(%rip)

	/* Reload CS through a far return, then the data selectors. */
	leaq	1f(%rip), %rax
	pushq	$BOOT_CS
	pushq	%rax
	lretq
1:
	movl	$BOOT_DS, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %fs
	movl	%eax, %gs
	movl	%eax, %ss
	leaq	purgatory_stack_top(%rip), %rsp

	movq	%r12, %rdi
	call	purgatory_main			/* returns only if all is well */

	/*
	 * Switch to regs.rsp (0: our stack), push regs.rip, load every other
	 * register, %rsi last (it points at regs), and ret into rip.  The 8
	 * bytes below regs.rsp are used as stack, as any stack would be.
	 */
	leaq	PP_REGS(%r12), %rsi
	movq	REG_RSP(%rsi), %rax
	testq	%rax, %rax
	jnz	2f
	leaq	purgatory_stack_top(%rip), %rax
2:
	movq	%rax, %rsp
	pushq	REG_RIP(%rsi)
	movq	REG_RAX(%rsi), %rax
	movq	REG_RBX(%rsi), %rbx
	movq	REG_RCX(%rsi), %rcx
	movq	REG_RDX(%rsi), %rdx
	movq	REG_RDI(%rsi), %rdi
	movq	REG_RBP(%rsi), %rbp
	movq	REG_R8(%rsi), %r8
	movq	REG_R9(%rsi), %r9
	movq	REG_R10(%rsi), %r10
	movq	REG_R11(%rsi), %r11
	movq	REG_R12(%rsi), %r12
	movq	REG_R13(%rsi), %r13
	movq	REG_R14(%rsi), %r14
	movq	REG_R15(%rsi), %r15
	movq	REG_RSI(%rsi), %rsi
	ret
	.size	purgatory_start, . - purgatory_start

	/*
	 * Our stack, in the bss part of the segment (memsz > file size);
	 * also the default rsp for the next image.
	 */
	.section .stack, "aw", @nobits
	.balign	16
purgatory_stack:
	.skip	PURGATORY_STACK_SIZE
	.globl	purgatory_stack_top
	.hidden	purgatory_stack_top
purgatory_stack_top:

	.section .note.GNU-stack, "", @progbits
