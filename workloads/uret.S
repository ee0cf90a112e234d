/*
 * Tail calls for the return-probe test: uret_tail_a jumps to uret_tail_b,
 * so a return probe on each shares one return address (a chained return).
 */
	.text
	.globl uret_tail_a
	.type uret_tail_a, @function
uret_tail_a:
	add	$1, %rdi
	jmp	uret_tail_b
	.size uret_tail_a, .-uret_tail_a

	.globl uret_tail_b
	.type uret_tail_b, @function
uret_tail_b:
	lea	100(%rdi), %rax
	ret
	.size uret_tail_b, .-uret_tail_b

/*
 * uret_regs returns with a known value in every register a function may
 * clobber, and known status flags; uret_regs_check calls it with known
 * values in the callee-saved ones and hands all of them, the flags and
 * the stack pointer to uret_regs_verify(): a return probe's way back to
 * the caller must not change any of them.
 */
	.globl uret_regs
	.type uret_regs, @function
uret_regs:
	xor	%eax, %eax		/* ZF, PF set; CF, SF, OF clear */
	stc				/* CF set */
	movabs	$0x1111111111111111, %rax
	movabs	$0x2222222222222222, %rcx
	movabs	$0x3333333333333333, %rdx
	movabs	$0x4444444444444444, %rsi
	movabs	$0x5555555555555555, %rdi
	movabs	$0x6666666666666666, %r8
	movabs	$0x7777777777777777, %r9
	movabs	$0x8888888888888888, %r10
	movabs	$0x9999999999999999, %r11
	ret
	.size uret_regs, .-uret_regs

	.globl uret_regs_check
	.type uret_regs_check, @function
uret_regs_check:
	push	%rbx
	push	%rbp
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	movabs	$0xaaaaaaaaaaaaaaaa, %rbx
	movabs	$0xbbbbbbbbbbbbbbbb, %rbp
	movabs	$0xcccccccccccccccc, %r12
	movabs	$0xdddddddddddddddd, %r13
	movabs	$0xeeeeeeeeeeeeeeee, %r14
	movabs	$0x0f0f0f0f0f0f0f0f, %r15
	mov	%rsp, uret_regs_sp(%rip)
	call	uret_regs
	pushfq
	push	%rax
	push	%rcx
	push	%rdx
	push	%rbx
	push	%rbp
	push	%rsi
	push	%rdi
	push	%r8
	push	%r9
	push	%r10
	push	%r11
	push	%r12
	push	%r13
	push	%r14
	push	%r15
	mov	%rsp, %rdi
	sub	$8, %rsp		/* 16-byte aligned for the call */
	call	uret_regs_verify
	add	$136, %rsp
	pop	%r15
	pop	%r14
	pop	%r13
	pop	%r12
	pop	%rbp
	pop	%rbx
	ret
	.size uret_regs_check, .-uret_regs_check

	.section .note.GNU-stack, "", @progbits
