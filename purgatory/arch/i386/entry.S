/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Purgatory entry and exit.
 *
 * We are entered at our first byte from relocate_kernel with paging off,
 * interrupts off, GDTR/IDTR invalid (limit 0) but flat segment caches, and
 * 0(%esp) holding the caller's return address (preserve-context) or 0.
 * The blob may sit at any address, so everything here is addressed
 * relative to %ebx = our run-time base, found with call/pop; no absolute
 * address is ever assembled in (purgatory/mkblob proves that).
 *
 * On the way out every general register, esp included, is loaded from
 * params.regs and we enter params.regs.eip with CS=0x10, DS..SS=0x18 from
 * our own flat GDT, as the Linux 32-bit boot protocol requires.
 */
#include "asm-offsets.h"

	.code32
	.section .text.head, "ax", @progbits

	.globl	purgatory_start
	.hidden	purgatory_start
	.type	purgatory_start, @function
purgatory_start:
	PURGATORY_HEADER entry

	/*
	 * Flat 4 GiB code (0x10) and data (0x18), the Linux boot selectors.
	 * The accessed bits are preset so the CPU never writes the table.
	 */
	.balign	8
gdt:
	.quad	0				/* 0x00: null */
	.quad	0				/* 0x08: unused */
	.quad	0x00cf9b000000ffff		/* 0x10: code, exec/read */
	.quad	0x00cf93000000ffff		/* 0x18: data, read/write */
gdt_end:
gdt_desc:
	.word	gdt_end - gdt - 1
	.long	0				/* base: patched at run time */

entry:
	cli
	cld

	/*
	 * call pushes to -4(%esp) and popl takes it back, so the caller's
	 * word at 0(%esp) survives for the read below.
	 */
	call	1f
1:	popl	%ebx
	subl	$(1b - purgatory_start), %ebx

	/* %esi = &params (callee-saved in C, so it survives purgatory_main). */
	movl	PH_PARAMS_OFFSET(%ebx), %esi
	addl	%ebx, %esi

	/* "Jump back address or 0", left at 0(%esp) by relocate_kernel. */
	movl	(%esp), %eax
	movl	%eax, PP_JUMP_BACK_ENTRY(%esi)

	/* Our GDT's linear address is only known now. */
	leal	(gdt - purgatory_start)(%ebx), %eax
	movl	%eax, (gdt_desc + 2 - purgatory_start)(%ebx)
	lgdt	(gdt_desc - purgatory_start)(%ebx)

	/* Reload CS through a far return; the old flat SS still works. */
	leal	(2f - purgatory_start)(%ebx), %eax
	pushl	$BOOT_CS
	pushl	%eax
	lret
2:
	movl	$BOOT_DS, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %fs
	movl	%eax, %gs
	movl	%eax, %ss
	movl	PH_STACK_TOP(%ebx), %esp
	addl	%ebx, %esp

	pushl	%esi
	call	purgatory_main			/* returns only if all is well */
	addl	$4, %esp

	/*
	 * Build { edi esi ebp (esp) ebx edx ecx eax eip } just below the
	 * target esp, then popal + ret: after the ret, esp is exactly
	 * regs.esp and every other register is exactly as asked for.  The
	 * 36 bytes below regs.esp are used as stack, as any stack would be.
	 * regs.esp == 0 cannot hold that frame, so it means "our stack".
	 */
	leal	PP_REGS(%esi), %esi
	movl	REG_ESP(%esi), %eax
	testl	%eax, %eax
	jnz	3f
	movl	PH_STACK_TOP(%ebx), %eax
	addl	%ebx, %eax
3:
	movl	%eax, %esp
	pushl	REG_EIP(%esi)
	pushl	REG_EAX(%esi)
	pushl	REG_ECX(%esi)
	pushl	REG_EDX(%esi)
	pushl	REG_EBX(%esi)
	pushl	%eax				/* esp slot: popal skips it */
	pushl	REG_EBP(%esi)
	pushl	REG_ESI(%esi)
	pushl	REG_EDI(%esi)
	popal
	ret
	.size	purgatory_start, . - purgatory_start

	/*
	 * Our stack, in the bss part of the segment (memsz > file size).
	 * It is also the default esp for the next image, which is free to
	 * reuse it once we have left.
	 */
	.section .stack, "aw", @nobits
	.balign	16
purgatory_stack:
	.skip	PURGATORY_STACK_SIZE
	.globl	purgatory_stack_top
	.hidden	purgatory_stack_top
purgatory_stack_top:

	.section .note.GNU-stack, "", @progbits
