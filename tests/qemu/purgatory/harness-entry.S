/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Multiboot entry of the purgatory test harness, and the two pieces that
 * must be assembly: entering purgatory the way relocate_kernel does
 * (GDTR/IDTR invalid, flat segment caches, a word at 0(%esp)), and the
 * landing pad that records every register purgatory handed over.
 * The harness is linked at a fixed address, so absolute addressing is fine.
 */
#define MB_MAGIC	0x1badb002
#define MB_FLAGS	0

	.code32
	.section .multiboot, "a"
	.balign	4
	.long	MB_MAGIC
	.long	MB_FLAGS
	.long	-(MB_MAGIC + MB_FLAGS)

	.text
	.globl	_start
_start:
	cli
	cld
	movl	$harness_stack_top, %esp
	/* Zero our bss: nothing guarantees it. */
	movl	%ebx, %edx
	movl	$__bss_start, %edi
	movl	$__bss_end, %ecx
	subl	%edi, %ecx
	xorl	%eax, %eax
	rep stosb
	pushl	%edx				/* multiboot info */
	call	harness_main
1:	hlt
	jmp	1b

/* void enter_purgatory(uint32_t entry, uint32_t esp): no return */
	.globl	enter_purgatory
enter_purgatory:
	movl	4(%esp), %eax
	movl	8(%esp), %ecx
	lgdt	null_desc
	lidt	null_desc
	movl	%ecx, %esp
	/* Junk in every register, and DF set: purgatory must not care. */
	movl	$0xdead0001, %ebx
	movl	$0xdead0002, %ecx
	movl	$0xdead0003, %edx
	movl	$0xdead0004, %esi
	movl	$0xdead0005, %edi
	movl	$0xdead0006, %ebp
	std
	jmp	*%eax

/* Where purgatory "starts the next kernel". */
	.globl	landing
landing:
	movl	%eax, landed + 0
	movl	%ebx, landed + 4
	movl	%ecx, landed + 8
	movl	%edx, landed + 12
	movl	%esi, landed + 16
	movl	%edi, landed + 20
	movl	%esp, landed + 24
	movl	%ebp, landed + 28
	xorl	%eax, %eax
	movw	%cs, %ax
	movl	%eax, landed + 32
	movw	%ds, %ax
	movl	%eax, landed + 36
	movw	%es, %ax
	movl	%eax, landed + 40
	movw	%fs, %ax
	movl	%eax, landed + 44
	movw	%gs, %ax
	movl	%eax, landed + 48
	movw	%ss, %ax
	movl	%eax, landed + 52
	pushfl
	popl	landed + 56
	sgdt	landed + 60
	movl	$harness_stack_top, %esp
	call	harness_check
2:	hlt
	jmp	2b

	.section .rodata
	.balign	8
null_desc:
	.word	0
	.long	0

	.bss
	.balign	16
harness_stack:
	.skip	16384
harness_stack_top:

	.section .note.GNU-stack, "", @progbits
