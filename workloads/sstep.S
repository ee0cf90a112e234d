/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Single-stepped code for 83-single-step.sh.  ss_func(x) = x + 1 runs
 * instructions the x86 uprobes layer emulates (push, mov, lea, nop, sub,
 * pop, ret) and steps out of line (imul, movzbl).  ss_self sets TF
 * itself with a popf, so each of its next instructions traps, until the
 * SIGTRAP handler clears it.
 */
	.text
	/* where the debugger's own breakpoint goes: not probed */
	.globl ss_call
	.type ss_call, @function
ss_call:
	nop
	jmp	ss_func
	.size ss_call, .-ss_call

	.globl ss_func
	.type ss_func, @function
ss_func:
	push	%rbp
	mov	%rsp, %rbp
	lea	1(%rdi), %rax
	nop
	sub	$8, %rsp
	imul	$1, %rax, %rax
	movzbl	%al, %ecx
	add	$8, %rsp
	pop	%rbp
	ret
	.size ss_func, .-ss_func

	/* a breakpoint of the program's own, in an mm that has uprobes */
	.globl ss_int3
	.type ss_int3, @function
ss_int3:
	int3
	lea	1(%rdi), %rax
	ret
	.size ss_int3, .-ss_int3

	/* the same with int $3, the two-byte form (cd 03: glib's G_BREAKPOINT) */
	.globl ss_int3cd
	.type ss_int3cd, @function
ss_int3cd:
	.byte	0xcd, 0x03
	lea	1(%rdi), %rax
	ret
	.size ss_int3cd, .-ss_int3cd

	.globl ss_self
	.type ss_self, @function
ss_self:
	push	%rbp
	mov	%rsp, %rbp
	pushf
	orl	$0x100, (%rsp)
	popf				/* TF on: a trap after each next insn */
	.globl ss_self_traced
ss_self_traced:
	lea	1(%rdi), %rax
	nop
	push	%rax
	pop	%rax
	xor	%ecx, %ecx
	pop	%rbp
	ret
	.size ss_self, .-ss_self

/*
 * cc_via_r11(x) calls cc_callee(x) = x + 1 through %r11 (41 ff d3), with a
 * decoy address in %rbx: at a probe on cc_callee's entry, perf's unwinder
 * must find cc_via_r11 as the caller from the return address on the stack.
 */
	.globl cc_callee
	.type cc_callee, @function
cc_callee:
	push	%rbp
	mov	%rsp, %rbp
	lea	1(%rdi), %rax
	pop	%rbp
	ret
	.size cc_callee, .-cc_callee

	.globl cc_via_r11
	.type cc_via_r11, @function
cc_via_r11:
	push	%rbp
	mov	%rsp, %rbp
	push	%rbx
	push	%rbx
	lea	ss_func(%rip), %rbx
	lea	cc_callee(%rip), %r11
	call	*%r11
	pop	%rbx
	pop	%rbx
	pop	%rbp
	ret
	.size cc_via_r11, .-cc_via_r11

	.section .note.GNU-stack, "", @progbits
