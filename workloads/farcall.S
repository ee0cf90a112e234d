/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A 64-bit program that runs 32-bit code of its own file through far
 * jumps to and from the ia32 user code segment (farcall.c).  A probe on
 * that code is decoded as 64-bit code (the file is x86-64); the task meets
 * it in 32-bit mode, where it cannot be emulated or stepped as decoded.
 * Far jumps, not a far call: QEMU's TCG makes a far call's pushes as
 * supervisor accesses, which fault on a user page under SMAP.
 */
#define USER32_CS	0x23	/* GDT_ENTRY_DEFAULT_USER32_CS * 8 + 3 */
#define USER_CS		0x33	/* GDT_ENTRY_DEFAULT_USER_CS * 8 + 3 */
#define FUNC(name) .globl name; .type name, @function; name:
#define END(name) .size name, .-name

	.text
	.code64
/* long farcall32(long x): far32_add(x) on a 32-bit stack, in 32-bit mode */
FUNC(farcall32)
	push	%rbx
	mov	%rsp, %rbx
	lea	stack32_top(%rip), %rsp	/* not PIE: below 4 GiB */
	mov	%edi, %eax
	ljmp	*far32_ptr(%rip)	/* m16:32 */
back64:
	mov	%rbx, %rsp
	pop	%rbx
	ret
END(farcall32)

/* void ldtcall(const void *far_ptr): through an m16:32 far pointer */
FUNC(ldtcall)
	push	%rbx
	mov	%rsp, %rbx
	lea	stack32_top(%rip), %rsp
	ljmp	*(%rdi)
END(ldtcall)

	.code32
/* reached at an LDT segment's offset: the int3 traps, then back */
	.globl	ldt_int3
ldt_int3:
	int3
	ljmp	$USER_CS, $back64

far32_entry:
	call	far32_add
	ljmp	$USER_CS, $back64

/* %eax + 5, with a frame: push %ebp (55) is push %rbp as 64-bit code */
FUNC(far32_add)
	push	%ebp
	mov	%esp, %ebp
	add	$5, %eax
	pop	%ebp
	ret
END(far32_add)
	.code64

	.section .rodata
	.balign	8
far32_ptr:
	.long	far32_entry
	.word	USER32_CS

	.bss
	.balign	16
	.skip	65536		/* also the stack of a 64-bit signal frame */
stack32_top:

	.section .note.GNU-stack, "", @progbits
