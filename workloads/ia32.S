/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 32-bit functions whose first instruction is of a known class, for probes
 * in ia32 tasks (ia32.c).  Each takes its argument on the stack (cdecl) and
 * returns in %eax a value that tells whether every instruction ran as
 * 32-bit code: decoded as 64-bit code, several of them mean something else.
 */
	.text
#define FUNC(name) .globl name; .type name, @function; name:
#define END(name) .size name, .-name

/* the classic frame: push %ebp (55) is push %rbp in 64-bit code */
FUNC(ia32_push)
	push	%ebp
	mov	%esp, %ebp
	mov	8(%ebp), %eax
	add	$1, %eax
	pop	%ebp
	ret
END(ia32_push)

/* dec %eax; mov %eax,%ecx: 48 89 c1 is mov %rax,%rcx as 64-bit code */
FUNC(ia32_dec)
	mov	4(%esp), %eax
	.byte	0x48, 0x89, 0xc1
	lea	100(%ecx), %eax
	ret
END(ia32_dec)
/* the probe goes on the dec, the second instruction */
	.globl	ia32_dec_at
	.set	ia32_dec_at, ia32_dec + 4

/* mov abs32,%eax (8b 05): %rip-relative as 64-bit code */
FUNC(ia32_abs)
	.byte	0x8b, 0x05
	.long	ia32_data
	add	4(%esp), %eax
	ret
END(ia32_abs)

FUNC(ia32_call)
	call	1f
	ret
1:	mov	8(%esp), %eax
	add	$3, %eax
	ret
END(ia32_call)

FUNC(ia32_jmp)
	jmp	1f
	ud2
1:	mov	4(%esp), %eax
	add	$4, %eax
	ret
END(ia32_jmp)

FUNC(ia32_jcc)
	mov	4(%esp), %eax
	test	$1, %eax
	jz	1f
	add	$5, %eax
	ret
1:	add	$6, %eax
	ret
END(ia32_jcc)
	.globl	ia32_jcc_at
	.set	ia32_jcc_at, ia32_jcc + 9

FUNC(ia32_nop)
	nop
	mov	4(%esp), %eax
	add	$7, %eax
	ret
END(ia32_nop)

FUNC(ia32_lea)
	mov	4(%esp), %ecx
	lea	8(%ecx), %eax
	ret
END(ia32_lea)
	.globl	ia32_lea_at
	.set	ia32_lea_at, ia32_lea + 4

	.data
	.globl	ia32_data
ia32_data:
	.long	1000
	.section .note.GNU-stack, "", @progbits
