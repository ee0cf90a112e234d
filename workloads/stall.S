/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 1100 tiny functions st_0 .. st_1099, 16 bytes apart: st_N(p) = *p + N + 1.
 * The first instruction, a load through a register, is one the x86 layer
 * single-steps out of line (only %rip-relative loads are emulated), so a
 * probe on it needs an XOL slot, and the load can stall on a page that a
 * userfaultfd has not filled yet.  st_table holds their addresses in order.
 */
	.altmacro

	.macro st_func n
	.globl st_\n
	.type st_\n, @function
	.p2align 4
st_\n:
	movq	(%rdi), %rax
	addq	$\n+1, %rax
	ret
	.size st_\n, .-st_\n
	.endm

	.macro st_entry n
	.quad st_\n
	.endm

	.text
	.set i, 0
	.rept 1100
	st_func %i
	.set i, i+1
	.endr

	.section .data.rel.ro, "aw"
	.p2align 3
	.globl st_table
	.type st_table, @object
st_table:
	.set i, 0
	.rept 1100
	st_entry %i
	.set i, i+1
	.endr
	.size st_table, .-st_table

	.section .note.GNU-stack, "", @progbits
