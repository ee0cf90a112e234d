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

	.section .note.GNU-stack, "", @progbits
