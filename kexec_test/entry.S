/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kexec_test: entry, jump back and re-entry.
 *
 * The image is linked at a fixed physical address and entered with paging
 * off, either by our purgatory (--args-linux: the 32-bit Linux boot
 * protocol) or straight from relocate_kernel (--args-none).  The first
 * thing done is to record the machine state exactly as it was handed
 * over, before a single register or flag is changed; kt_main() then
 * judges it.
 *
 * Jump back (preserve-context loads): kt_jump_back(entry) calls the
 * kernel's re-entry point from our own stack.  The call pushes the
 * address of kt_resumed, which the kernel takes from 0(%esp) and keeps as
 * this image's start address: the next kexec -e of the kernel enters us
 * there, on the kernel's stack, where 0(%esp) is again the kernel's
 * return address.  Our stack is inside the image, so it survives the
 * page swap in between.
 *
 * The jump back is made with our own selectors, CS=0x10 and
 * DS..SS=0x18, not the kernel's __KERNEL_CS (0x60) and __KERNEL_DS (0x68):
 * the kernel's way back must reload every segment register from its own
 * GDT (companion patch "Reload CS on return from a 32-bit preserve_context
 * kexec"); a kernel that left CS alone would fault at its first iret,
 * where 0x10 is no code segment.
 */

#define BOOT_CS		0x10
#define BOOT_DS		0x18

	.code32
	.section .text.entry, "ax", @progbits
	.globl	_start
	.type	_start, @function
_start:
	/*
	 * No stack of ours yet: store to fixed addresses.  pushfl only uses
	 * the word below the caller's esp, 0(%esp) stays intact.
	 */
	movl	%eax, kt_entry + 0
	movl	%ebx, kt_entry + 4
	movl	%ecx, kt_entry + 8
	movl	%edx, kt_entry + 12
	movl	%esi, kt_entry + 16
	movl	%edi, kt_entry + 20
	movl	%ebp, kt_entry + 24
	movl	%esp, kt_entry + 28
	pushfl
	popl	kt_entry + 32		/* eflags */
	movl	(%esp), %eax
	movl	%eax, kt_entry + 36	/* stack word: return address or 0 */
	movl	%cr0, %eax
	movl	%eax, kt_entry + 40
	movw	%cs, kt_entry + 44
	movw	%ds, kt_entry + 46
	movw	%es, kt_entry + 48
	movw	%ss, kt_entry + 50
	movw	%fs, kt_entry + 52
	movw	%gs, kt_entry + 54
	sgdt	kt_entry + 56		/* 6 bytes: limit, base */
	sidt	kt_entry + 62

	cli
	cld
	movl	$kt_stack_top, %esp
	xorl	%ebp, %ebp
	call	kt_main			/* never returns */
1:	cli
	hlt
	jmp	1b
	.size	_start, . - _start

/*
 * void kt_load_gdt(void): our own flat GDT, CS=0x10, DS..GS=0x18 (the
 * Linux boot selectors).  The entry GDT may be gone (--args-none: the
 * kernel invalidated GDTR) or be about to be swapped out.
 */
	.text
	.globl	kt_load_gdt
	.type	kt_load_gdt, @function
kt_load_gdt:
	lgdt	gdt_desc
	ljmp	$BOOT_CS, $1f
1:	movl	$BOOT_DS, %eax
	movl	%eax, %ds
	movl	%eax, %es
	movl	%eax, %fs
	movl	%eax, %gs
	movl	%eax, %ss
	ret
	.size	kt_load_gdt, . - kt_load_gdt

/*
 * uint32_t kt_jump_back(uint32_t entry): enter the kernel at its re-entry
 * point and come back when it enters us again.  Returns the word at
 * 0(%esp) at that moment: the kernel's return address for the next jump.
 */
	.globl	kt_jump_back
	.type	kt_jump_back, @function
kt_jump_back:
	pushl	%ebp
	pushl	%ebx
	pushl	%esi
	pushl	%edi
	movl	20(%esp), %eax
	movl	%esp, kt_saved_esp
	/* CS=0x10, DS..SS=0x18: kt_load_gdt() ran before every jump back */
	call	*%eax
	/*
	 * kt_resumed: the kernel calls us here.  Paging is off, interrupts
	 * are off, GDTR is invalid; the segment caches are still flat.
	 */
	.globl	kt_resumed
kt_resumed:
	cli
	cld
	movl	(%esp), %eax
	movl	kt_saved_esp, %esp
	pushl	%eax
	call	kt_load_gdt
	popl	%eax
	popl	%edi
	popl	%esi
	popl	%ebx
	popl	%ebp
	ret
	.size	kt_jump_back, . - kt_jump_back

	.section .rodata
	.balign	8
gdt:
	.quad	0				/* 0x00: null */
	.quad	0				/* 0x08: unused */
	.quad	0x00cf9b000000ffff		/* 0x10: code, exec/read, 4 GiB */
	.quad	0x00cf93000000ffff		/* 0x18: data, read/write, 4 GiB */
gdt_end:
	.balign	4
	.word	0
gdt_desc:
	.word	gdt_end - gdt - 1
	.long	gdt

	.section .bss
	.balign	4
kt_saved_esp:
	.skip	4
	.balign	16
kt_stack:
	.skip	8192
kt_stack_top:

	.section .note.GNU-stack, "", @progbits
