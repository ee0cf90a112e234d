/*
 * Instruction classes for the every-instruction test (61-every-insn.sh).
 *
 * Each ins_* function is straight-line: every instruction in it runs exactly
 * once per call, except ud2, which a taken branch jumps over (the test does
 * not probe ud2).  Each takes a seed in %rdi and returns a value that
 * depends on every instruction, so a wrongly emulated or stepped one shows
 * in the program's output.
 */
	.text

	.globl ins_branches
	.type ins_branches, @function
ins_branches:
	endbr64
	push	%rbp
	mov	%rsp, %rbp
	mov	%rdi, %rax
	add	$3, %rax
	xor	%ecx, %ecx
	cmp	$0, %rcx
	je	1f			/* jcc rel8, taken */
	ud2
1:	jne	3f			/* jcc rel8, not taken */
	{disp32} jz 2f			/* jcc rel32, taken */
	ud2
2:	cmp	%rdi, %rax
	{disp32} jb 3f			/* jcc rel32, not taken */
	jmp	4f			/* jmp rel8 */
	ud2
3:	ud2
4:	{disp32} jmp 5f			/* jmp rel32 */
	ud2
5:	mov	$2, %ecx
	loop	6f			/* rcx 2 -> 1, taken */
	ud2
6:	loop	7f			/* rcx 1 -> 0, not taken */
7:	jrcxz	8f			/* rcx 0, taken */
	ud2
8:	test	%rax, %rax
	jns	9f
	ud2
9:	stc
	jc	10f			/* CF set */
	ud2
10:	clc
	jae	11f
	ud2
11:	mov	$-1, %edx
	cmp	$1, %edx		/* signed less, unsigned above */
	jl	12f
	ud2
12:	ja	13f
	ud2
13:	jle	14f
	ud2
14:	xor	%edx, %edx		/* PF set (0 has even parity) */
	jp	15f
	ud2
15:	nop
	.byte	0x66, 0x90		/* xchg %ax,%ax */
	nopl	0x0(%rax,%rax,1)	/* 0f 1f /0 */
	pause
	pop	%rbp
	ret
	.size ins_branches, .-ins_branches

	.globl ins_helper
	.type ins_helper, @function
ins_helper:
	lea	7(%rdi,%rdi,2), %rax
	ret
	.size ins_helper, .-ins_helper

	.globl ins_helper2
	.type ins_helper2, @function
ins_helper2:
	imul	$5, %rdi, %rax
	ret	$0
	.size ins_helper2, .-ins_helper2

	.globl ins_calls
	.type ins_calls, @function
ins_calls:
	push	%rbx
	push	%r12
	push	%r13
	mov	%rdi, %rbx
	call	ins_helper		/* call rel32 */
	mov	%rax, %r12
	mov	%rbx, %rdi
	call	*ins_fptr(%rip)		/* indirect call, rip-relative */
	add	%rax, %r12
	lea	ins_helper(%rip), %r13
	mov	%rbx, %rdi
	call	*%r13			/* indirect call through a register */
	add	%rax, %r12
	lea	ins_helper2(%rip), %rax
	mov	%rbx, %rdi
	call	*%rax
	add	%rax, %r12
	mov	%r12, %rax
	pop	%r13
	pop	%r12
	pop	%rbx
	ret
	.size ins_calls, .-ins_calls

	.globl ins_riprel
	.type ins_riprel, @function
ins_riprel:
	mov	ins_data(%rip), %rax		/* load */
	add	%rdi, %rax
	mov	%rax, ins_scratch(%rip)		/* store */
	addq	$7, ins_scratch(%rip)		/* rmw with immediate */
	incl	ins_scratch+8(%rip)
	cmpl	$0x11223344, ins_data(%rip)	/* disp32 followed by imm32 */
	je	1f
	ud2
1:	lea	ins_data(%rip), %rsi		/* lea rip-relative */
	mov	8(%rsi), %rdx
	add	%rdx, %rax
	mov	ins_scratch(%rip), %rcx
	add	%rcx, %rax
	mov	%rax, %rcx
	mov	ins_scratch(%rip), %rax
	cmpxchg	%rcx, ins_scratch(%rip)		/* implicit %rax */
	mov	ins_scratch(%rip), %rax
	mov	$3, %ecx
	shlq	%cl, ins_scratch(%rip)		/* implicit %cl */
	mov	ins_scratch(%rip), %rax
	mov	$5, %eax
	mulq	ins_data+8(%rip)		/* implicit %rax, %rdx */
	add	ins_scratch(%rip), %rax
	xor	%rdx, %rax
	push	ins_data(%rip)			/* push m64, rip-relative */
	pop	%rdx
	add	%rdx, %rax
	mov	%fs:0, %rdx			/* segment prefix */
	test	%rdx, %rdx
	jnz	2f
	ud2
2:	ret
	.size ins_riprel, .-ins_riprel

	.globl ins_stack
	.type ins_stack, @function
ins_stack:
	push	%rbp
	mov	%rsp, %rbp
	sub	$32, %rsp
	push	%rbx
	push	%r15
	mov	%rdi, %rbx
	lea	1(%rbx), %r15
	push	%r15
	pop	%rax
	pushf
	pop	%rdx
	and	$0x100, %rdx			/* TF must not leak into pushf */
	add	%rdx, %rax
	push	$0x202
	popf
	mov	%rax, -8(%rbp)
	xchg	%rax, -8(%rbp)
	enter	$16, $0
	leave
	pop	%r15
	pop	%rbx
	add	$32, %rsp
	leave
	ret
	.size ins_stack, .-ins_stack

	.globl ins_strings
	.type ins_strings, @function
ins_strings:
	push	%rdi
	lea	ins_src(%rip), %rsi
	lea	ins_dst(%rip), %rdi
	cld
	movsb
	movsq
	mov	$0x5a, %eax
	stosb
	lodsb
	lea	ins_src(%rip), %rsi
	lea	ins_src(%rip), %rdi
	cmpsb
	scasb
	pop	%rdi
	mov	ins_dst(%rip), %rax
	add	%rdi, %rax
	ret
	.size ins_strings, .-ins_strings

	.globl ins_sse
	.type ins_sse, @function
ins_sse:
	movq	%rdi, %xmm0
	movdqu	ins_data(%rip), %xmm1		/* SSE load, rip-relative */
	paddq	%xmm1, %xmm0
	movdqa	%xmm0, %xmm2
	pxor	%xmm1, %xmm2
	addsd	ins_dbl(%rip), %xmm3		/* prefixed, rip-relative */
	movdqu	%xmm2, ins_scratch(%rip)	/* SSE store, rip-relative */
	pshufd	$0x4e, %xmm2, %xmm4		/* imm8 after modrm */
	movq	%xmm4, %rax
	add	ins_scratch(%rip), %rax
	cvtsi2sd %rdi, %xmm5
	cvttsd2si %xmm5, %rdx
	add	%rdx, %rax
	ret
	.size ins_sse, .-ins_sse

	.globl ins_misc
	.type ins_misc, @function
ins_misc:
	mov	%rdi, %rax
	bswap	%rax
	xchg	%rax, %rdx
	mov	%rdx, %rax
	imul	$3, %rax, %rax
	movabs	$0x123456789abcdef0, %rcx
	xor	%rcx, %rax
	cqo
	lea	(%rax,%rdx,4), %rax
	movzbl	%al, %ecx
	bsf	%rdi, %rdx
	add	%rcx, %rax
	add	%rdx, %rax
	setz	%cl
	cmovnz	%rdi, %rcx
	add	%rcx, %rax
	rdtsc				/* clobbers %rax/%rdx: recompute */
	lea	17(%rdi), %rax
	not	%rax
	ret
	.size ins_misc, .-ins_misc

	/*
	 * Every form of arithmetic the kernel emulates (add/sub/cmp with an
	 * immediate; test/cmp/xor between registers; 64- and 32-bit; %rsp
	 * adjusted), each followed by the flags it left (CF PF AF ZF SF OF),
	 * folded into the result: any flag the emulation gets wrong shows.
	 */
	.macro	FOLD_FLAGS mask=0x8d5
	pushf
	pop	%rdx
	and	$\mask, %edx
	rol	$7, %rbx
	add	%rdx, %rbx
	.endm

	.globl ins_alu
	.type ins_alu, @function
ins_alu:
	push	%rbx
	xor	%ebx, %ebx		/* 31 /r, 32-bit: ZF PF */
	FOLD_FLAGS
	imul	$0x61c88647, %rdi, %rcx	/* operands that vary with the seed */
	mov	%rcx, %rsi
	shr	$3, %rsi
	add	$0x7f, %rcx		/* 83 /0 ib */
	FOLD_FLAGS
	sub	$0x12345678, %rsi	/* 81 /5 id */
	FOLD_FLAGS
	cmp	$-1, %esi		/* 83 /7 ib, 32-bit */
	FOLD_FLAGS
	sub	$-0x80, %ecx		/* 83 /5 ib, 32-bit: upper half cleared */
	FOLD_FLAGS
	add	%rcx, %rbx
	cmp	%rcx, %rsi		/* 39 /r */
	FOLD_FLAGS
	{load} cmp %esi, %ecx	/* 3b /r, 32-bit */
	FOLD_FLAGS
	test	%esi, %ecx		/* 85 /r, 32-bit */
	FOLD_FLAGS
	test	%rcx, %rcx		/* 85 /r */
	FOLD_FLAGS
	xor	%ecx, %esi		/* 31 /r, 32-bit */
	FOLD_FLAGS
	{load} xor %rsi, %rcx	/* 33 /r */
	FOLD_FLAGS
	add	%rsi, %rbx
	add	%rcx, %rbx
	mov	$0x7fffffff, %ecx
	add	$1, %ecx		/* OF SF AF PF */
	FOLD_FLAGS
	mov	$0x0f, %ecx
	sub	$0x10, %rcx		/* CF AF SF, borrow */
	FOLD_FLAGS
	/* PF of a stack address varies with ASLR: leave it out */
	sub	$24, %rsp		/* 83 /5 ib on %rsp */
	FOLD_FLAGS 0x8d1
	add	$24, %rsp		/* 83 /0 ib on %rsp */
	FOLD_FLAGS 0x8d1
	mov	%rbx, %rax
	pop	%rbx
	ret
	.size ins_alu, .-ins_alu

	/* probed to check that it is refused */
	.globl ins_syscall
	.type ins_syscall, @function
ins_syscall:
	mov	$39, %eax		/* getpid */
	syscall
	ret
	.size ins_syscall, .-ins_syscall

	.section .data
	.align 16
ins_data:
	.quad	0x11223344, 0x55667788
ins_dbl:
	.double	1.5
	.align 16
ins_scratch:
	.quad	0, 0
ins_src:
	.quad	0x0807060504030201, 0x100f0e0d0c0b0a09
ins_dst:
	.quad	0, 0
ins_fptr:
	.quad	ins_helper2

	.section .note.GNU-stack, "", @progbits
