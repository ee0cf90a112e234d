/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libmmtext.so: two probed functions of a library, 256 KiB apart, so that
 * the page of mt_b is outside the fault-around window of mt_a's: a process
 * that ran only mt_a has not faulted mt_b's page in (45-mm-text).
 * mt_a(x) = x + 1, mt_b(x) = x + 2, mt_c(x) = x + 0x12345678, in one lea
 * whose first 3 bytes end a page and whose last 3 (the displacement's
 * upper bytes, at file offset MT_C_TAIL) begin the next one.
 */
	.text
	.globl	mt_a
	.type	mt_a, @function
	.p2align 12
mt_a:
	lea	1(%rdi), %eax
	ret
	.size	mt_a, . - mt_a

	.p2align 12
	.skip	262144, 0xcc

	.globl	mt_b
	.type	mt_b, @function
	.p2align 12
mt_b:
	lea	2(%rdi), %eax
	ret
	.size	mt_b, . - mt_b

	.p2align 12
	.skip	4093, 0xcc
	.globl	mt_c
	.type	mt_c, @function
mt_c:
	lea	0x12345678(%rdi), %eax
	ret
	.size	mt_c, . - mt_c
	.p2align 12
	.section .note.GNU-stack, "", @progbits
