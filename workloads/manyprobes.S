/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 1000 tiny functions mp_0 .. mp_999, 16 bytes apart (256 to a page):
 * mp_N(x) = x + N + 1.  The first instruction, a lea, is one x86 uprobes
 * single-step out of line.  mp_table holds their addresses in order.
 * mp_xbegin, after them, is a probe uprobes refuse.
 */
	.altmacro

	.macro mp_func n
	.globl mp_\n
	.type mp_\n, @function
	.p2align 4
mp_\n:
	leaq \n+1(%rdi), %rax
	ret
	.size mp_\n, .-mp_\n
	.endm

	.macro mp_entry n
	.quad mp_\n
	.endm

	.text
	.set i, 0
	.rept 1000
	mp_func %i
	.set i, i+1
	.endr

	/* never called: uprobes refuse a probe on xbegin */
	.globl mp_xbegin
	.type mp_xbegin, @function
	.p2align 4
mp_xbegin:
	xbegin 1f
1:	ret
	.size mp_xbegin, .-mp_xbegin

	.section .data.rel.ro, "aw"
	.p2align 3
	.globl mp_table
	.type mp_table, @object
mp_table:
	.set i, 0
	.rept 1000
	mp_entry %i
	.set i, i+1
	.endr
	.size mp_table, .-mp_table

	.section .note.GNU-stack, "", @progbits
