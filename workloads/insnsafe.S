/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cases for 78-insn-safety.sh, run one at a time by insnsafe.c.  In each
 * the label probe_<case> marks the instruction the test probes.
 *
 * br_*: near branches with an operand-size (66) prefix.  With REX.W the
 *   prefix is void (the TLS general-dynamic call, 66 66 48 e8); without, the
 *   operand size is 16 bits on AMD (and QEMU), 64 on Intel, so the program
 *   itself may fault: probed, it must do the same.  Each returns a value.
 * xs_*, av_*: %rip-relative instructions that also use %rax/%rcx/%rdx
 *   implicitly (xsave family: edx:eax is the component mask; vpcmp[ei]stri:
 *   eax/edx are lengths, ecx the result).  The xsave-family instructions end
 *   on a 16-byte boundary, so %rax holding the %rip after them (the scratch
 *   register of the out-of-line copy) would mask out x87 and SSE.
 * flt_*: emulated instructions that fault: push, call (onto a read-only or
 *   PROT_NONE page, or below an unmapped one), ret (from a PROT_NONE stack)
 *   and %rip-relative loads from a PROT_NONE page.  Each takes the stack
 *   pointer to switch to in %rdi and never returns; a ud2 after the faulting
 *   instruction shows if it did not fault.
 *
 * Every function stores its entry %rsp in entry_rsp for the signal report.
 */

/* label, then INSN... padded in front so that it ends on a 16-byte boundary */
	.macro ends_aligned label, len, insn:vararg
	.balign 16, 0x90
	.skip 16 - \len, 0x90
\label:
	\insn
	.ifne (. - \label) - \len
	.error "\label: not \len bytes long"
	.endif
	.endm

	.macro func name
	.globl \name
	.type \name, @function
\name:
	mov	%rsp, entry_rsp(%rip)
	.endm

	.text
/*
 * Never run (QEMU's TCG has no RTM): xbegin, which a probe must not get,
 * as its abort address is relative to where it runs (78-insn-safety).
 */
	.globl	probe_xbegin
	.type	probe_xbegin, @function
probe_xbegin:
	xbegin	1f
1:	ret
	.size	probe_xbegin, . - probe_xbegin

/* ---- branches with an operand-size prefix ---- */

/* The call of a TLS general-dynamic sequence, as gcc emits it; returns 52. */
	func br_call66w
	push	%rbx
	mov	$5, %eax
	data16	leaq br_tls(%rip), %rdi
probe_call66w:
	.value	0x6666				/* 66 66 48 e8 rel32 */
	rex64
	call	br_callee
.Lcall66w_ret:
	nop
	nopl	0(%rax)
	nopw	0(%rax,%rax,1)
	pop	%rbx
	ret
	.size br_call66w, .-br_call66w

/* 3 * %rax + 37, plus how far the return address is off */
br_callee:
	lea	37(%rax,%rax,2), %rax
	mov	(%rsp), %rdx
	lea	.Lcall66w_ret(%rip), %rcx
	sub	%rcx, %rdx
	add	%rdx, %rax
	ret

/*
 * ret_case NAME, VALUE, BYTES: push the address of "return VALUE", then
 * the ret encoded as BYTES at probe_NAME.
 */
	.macro ret_case name, value, bytes:vararg
	func br_\name
	lea	1f(%rip), %rax
	push	%rax
probe_\name:
	.byte	\bytes
	ud2
1:	mov	$\value, %eax
	ret
	.size br_\name, .-br_\name
	.endm

/* 66 c3: 64-bit ret on Intel; on AMD it pops 2 bytes, jumps to 16 bits */
	ret_case ret66, 66, 0x66, 0xc3
/* 66 c2 00 00: the same with an immediate */
	ret_case ret66imm, 67, 0x66, 0xc2, 0x00, 0x00
/* 66 48 c3: REX.W makes it a 64-bit ret everywhere */
	ret_case ret66w, 68, 0x66, 0x48, 0xc3
/* 48 c3: a plain ret with REX.W */
	ret_case ret48, 69, 0x48, 0xc3

/* 66 eb 02: jmp over the ud2; the target is truncated to 16 bits on AMD */
	func br_jmp66
probe_jmp66:
	.byte	0x66, 0xeb, 0x02
	ud2
	mov	$70, %eax
	ret
	.size br_jmp66, .-br_jmp66

/* 66 74 02: je, taken, likewise */
	func br_jcc66
	xor	%eax, %eax
probe_jcc66:
	.byte	0x66, 0x74, 0x02
	ud2
	mov	$71, %eax
	ret
	.size br_jcc66, .-br_jcc66

/*
 * 66 e8 00 00: AMD (and QEMU) read rel16, push 2 bytes of the return
 * address and call the next instruction, a popw of them: returns 72 if
 * they were right.  Intel reads rel32 (0x59660000) and calls far away.
 */
	func br_call66
probe_call66:
	.byte	0x66, 0xe8, 0x00, 0x00
	popw	%cx
	movzwl	%cx, %eax
	lea	probe_call66+4(%rip), %rdx
	movzwl	%dx, %edx
	sub	%edx, %eax
	add	$72, %eax
	ret
	.size br_call66, .-br_call66

/* ---- %rip-relative instructions with implicit register operands ---- */

/* Known x87 (FCW 0x27f), MXCSR and xmm0-15 state, whatever ran before. */
	.macro set_fpu_state
	fninit
	fldcw	xs_fcw(%rip)
	ldmxcsr	xs_mxcsr(%rip)
	.irp r, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
	movdqa	xs_xmm+16*\r(%rip), %xmm\r
	.endr
	.endm

	.macro mask_from_rdi
	mov	%rdi, %rax
	mov	%rdi, %rdx
	shr	$32, %rdx
	.endm

/* xsave xs_area with the component mask in %rdi */
	func xs_xsave
	set_fpu_state
	mask_from_rdi
	ends_aligned probe_xsave, 7, xsave xs_area(%rip)
	ret
	.size xs_xsave, .-xs_xsave

	func xs_xsaveopt
	set_fpu_state
	mask_from_rdi
	ends_aligned probe_xsaveopt, 7, xsaveopt xs_area(%rip)
	ret
	.size xs_xsaveopt, .-xs_xsaveopt

	func xs_xsave64
	set_fpu_state
	mask_from_rdi
	ends_aligned probe_xsave64, 8, xsave64 xs_area(%rip)
	ret
	.size xs_xsave64, .-xs_xsave64

/*
 * xrstor from xr_area with the mask in %rdi, after fninit and with xmm0
 * zero; then FCW to (%rsi), MXCSR to 4(%rsi), xmm0 to 16(%rsi).
 */
	func xs_xrstor
	fninit
	ldmxcsr	xs_mxcsr(%rip)
	pxor	%xmm0, %xmm0
	mask_from_rdi
	ends_aligned probe_xrstor, 7, xrstor xr_area(%rip)
	fnstcw	(%rsi)
	stmxcsr	4(%rsi)
	movdqu	%xmm0, 16(%rsi)
	fninit
	ldmxcsr	xs_mxcsr(%rip)
	ret
	.size xs_xrstor, .-xs_xrstor

/*
 * vpcmpestri: index in av_str of the first byte among the first %eax (1)
 * bytes of av_set, so 14 ('a'); with a wrong %eax 9 ('p'), with %ecx
 * not written 0x77.
 */
	func av_pcmpestri
	movdqu	av_set(%rip), %xmm8
	mov	$1, %eax
	mov	$16, %edx
	mov	$0x77, %ecx
probe_vpcmpestri:
	vpcmpestri $0, av_str(%rip), %xmm8
	mov	%rcx, %rax
	ret
	.size av_pcmpestri, .-av_pcmpestri

/* vpcmpistri: the same with the set "a" (null-terminated) in %xmm0 */
	func av_pcmpistri
	movdqu	av_seta(%rip), %xmm0
	mov	$0x77, %ecx
probe_vpcmpistri:
	vpcmpistri $0, av_str(%rip), %xmm0
	mov	%rcx, %rax
	ret
	.size av_pcmpistri, .-av_pcmpistri

/*
 * vex_*: VEX-encoded instructions whose opcode byte is also a one-byte
 * legacy opcode with a meaning of its own: 57 (push %rdi), eb (jmp rel8),
 * e8 (call), c2 (ret imm16), 77 (ja), 60 (invalid in 64-bit mode).  glibc's
 * string functions are full of them.  Each returns a value that depends on
 * the probed instruction having run as itself.
 */
	func vex_xorps			/* c5 f8 57: 0x1234 ^ 0x1234 + 5 */
	mov	$0x1234, %eax
	movq	%rax, %xmm0
	movq	%rax, %xmm1
probe_vxorps:
	vxorps	%xmm1, %xmm0, %xmm0
	movq	%xmm0, %rax
	add	$5, %rax
	ret
	.size vex_xorps, .-vex_xorps

	func vex_por			/* c5 f9 eb: 0x0f | 0xf0 */
	mov	$0x0f, %eax
	movq	%rax, %xmm0
	mov	$0xf0, %eax
	movq	%rax, %xmm1
probe_vpor:
	vpor	%xmm1, %xmm0, %xmm0
	movq	%xmm0, %rax
	ret
	.size vex_por, .-vex_por

	func vex_psubsb			/* c5 f9 e8: bytes 0x10 - 0x03 */
	mov	$0x1010, %eax
	movq	%rax, %xmm0
	mov	$0x0303, %eax
	movq	%rax, %xmm1
probe_vpsubsb:
	vpsubsb	%xmm1, %xmm0, %xmm0
	movq	%xmm0, %rax
	ret
	.size vex_psubsb, .-vex_psubsb

	func vex_cmpps			/* c5 f8 c2: equal lanes all ones */
	mov	$0x3f800000, %eax	/* 1.0f */
	movq	%rax, %xmm0
	movq	%rax, %xmm1
probe_vcmpps:
	vcmpps	$0, %xmm1, %xmm0, %xmm0
	movq	%xmm0, %rax
	ret
	.size vex_cmpps, .-vex_cmpps

	func vex_zeroupper		/* c5 f8 77: the upper ymm0 goes */
	mov	$0x77, %eax
	movq	%rax, %xmm1
	vinsertf128 $1, %xmm1, %ymm0, %ymm0
probe_vzeroupper:
	vzeroupper
	vextractf128 $1, %ymm0, %xmm0
	movq	%xmm0, %rax
	add	$9, %rax
	ret
	.size vex_zeroupper, .-vex_zeroupper

	func vex_punpcklbw		/* c5 f9 60: interleave bytes */
	mov	$0x0201, %eax
	movq	%rax, %xmm0
	mov	$0x0b0a, %eax
	movq	%rax, %xmm1
probe_vpunpcklbw:
	vpunpcklbw %xmm1, %xmm0, %xmm0
	movq	%xmm0, %rax
	ret
	.size vex_punpcklbw, .-vex_punpcklbw

/* ---- emulated instructions that fault ---- */

	func flt_push
	mov	%rdi, %rsp
probe_push:
	push	%rbx
	ud2
	.size flt_push, .-flt_push

	func flt_call
	mov	%rdi, %rsp
probe_call:
	call	1f
1:	ud2
	.size flt_call, .-flt_call

	func flt_ret
	mov	%rdi, %rsp
probe_ret:
	ret
	ud2
	.size flt_ret, .-flt_ret

	func flt_load
probe_load:
	mov	none_page+0x18(%rip), %rax
	ud2
	.size flt_load, .-flt_load

	func flt_load32
probe_load32:
	mov	none_page+0x24(%rip), %ecx
	ud2
	.size flt_load32, .-flt_load32

	.section .rodata
	.balign 16
xs_xmm:
	.rept 16
	.quad	0x0123456789abcdef + (. - xs_xmm), 0xfedcba9876543210 - (. - xs_xmm)
	.endr
xs_fcw:
	.short	0x27f
	.balign 4
xs_mxcsr:
	.long	0x1f80
	.balign 16
av_set:
	.ascii	"abcdefghijklmnop"
av_seta:
	.ascii	"a"
	.skip	15
av_str:
	.ascii	"zzzzzzzzzpzzzzaz"

	.data
br_tls:
	.quad	0

	.bss
	.globl entry_rsp, xs_area, xr_area, none_page
	.balign 8
entry_rsp:
	.skip	8
	.balign 64
xs_area:
	.skip	4096
xr_area:
	.skip	4096
	.balign 4096
none_page:
	.skip	4096

	.section .note.GNU-stack,"",@progbits
