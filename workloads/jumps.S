/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probe sites a jump to a stub can replace: each probed instruction
 * (label *_site) is one the kernel emulates and at least 5 bytes long.
 * jumps.c checks every result against plain C.
 */
	.text

	.globl	jmp_load
	.type	jmp_load, @function
jmp_load:
jmp_load_site:
	mov	jmp_data(%rip), %rax		/* 7 bytes, %rip-relative load */
	add	%rdi, %rax
	ret
	.size	jmp_load, .-jmp_load

	.globl	jmp_lea
	.type	jmp_lea, @function
jmp_lea:
jmp_lea_site:
	lea	0x12345(%rdi), %rax		/* 7 bytes, disp32 */
	ret
	.size	jmp_lea, .-jmp_lea

	.globl	jmp_add
	.type	jmp_add, @function
jmp_add:
jmp_add_site:
	add	$0x10000, %rdi			/* 7 bytes, imm32 */
	mov	%rdi, %rax
	ret
	.size	jmp_add, .-jmp_add

	.globl	jmp_subrsp
	.type	jmp_subrsp, @function
jmp_subrsp:
jmp_subrsp_site:
	sub	$0x1000, %rsp			/* 7 bytes: the stack pointer */
	mov	%rdi, 8(%rsp)
	mov	8(%rsp), %rax
	add	$0x1000, %rsp
	ret
	.size	jmp_subrsp, .-jmp_subrsp

	.globl	jmp_call
	.type	jmp_call, @function
jmp_call:
jmp_call_site:
	call	jmp_callee			/* 5 bytes, rel32 */
	add	$1, %rax
	ret
	.size	jmp_call, .-jmp_call

	.type	jmp_callee, @function
jmp_callee:
	lea	1(%rdi), %rax
	ret
	.size	jmp_callee, .-jmp_callee

	.globl	jmp_jcc
	.type	jmp_jcc, @function
jmp_jcc:
	test	%rdi, %rdi
jmp_jcc_site:
	{disp32} jne 1f				/* 6 bytes, not at the entry */
	mov	$1, %eax
	ret
1:	mov	$2, %eax
	ret
	.size	jmp_jcc, .-jmp_jcc

	.globl	jmp_nop5
	.type	jmp_nop5, @function
jmp_nop5:
jmp_nop5_site:
	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00	/* nopl 0(%rax,%rax,1) */
	lea	3(%rdi), %rax
	ret
	.size	jmp_nop5, .-jmp_nop5

/* Live data in the red zone across the probed instruction. */
	.globl	jmp_redzone
	.type	jmp_redzone, @function
jmp_redzone:
	mov	%rdi, -8(%rsp)
	movq	$0x55, -16(%rsp)
	mov	%rdi, -128(%rsp)
jmp_redzone_site:
	lea	0x100(%rdi), %rax		/* 7 bytes */
	add	-8(%rsp), %rax
	add	-16(%rsp), %rax
	add	-128(%rsp), %rax
	ret
	.size	jmp_redzone, .-jmp_redzone

/* %rcx, %r11 and the flags (what syscall spends) live across the site. */
	.globl	jmp_regs
	.type	jmp_regs, @function
jmp_regs:
	mov	%rdi, %rcx
	lea	1(%rdi), %r11
	cmp	$100, %rdi
jmp_regs_site:
	lea	0x1000(%rdi), %rax		/* 7 bytes */
	setb	%dl
	movzbl	%dl, %edx
	add	%rcx, %rax
	add	%r11, %rax
	add	%rdx, %rax
	ret
	.size	jmp_regs, .-jmp_regs

	.section .note.GNU-stack, "", @progbits
