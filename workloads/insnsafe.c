// SPDX-License-Identifier: GPL-2.0
/*
 * insnsafe CASE [N]: run one case of insnsafe.S N times (default 1) and
 * print one line per run, the same wherever things are mapped:
 *   CASE: returned VALUE  (the xsave cases print their state first)
 *   CASE: signal SIG code CODE addr ADDR rip RIP rsp RSP
 * ADDR, RIP and RSP are relative to the case's mapping (base), function
 * (fn), or %rsp at its entry (entry); "low:0xNNN" is an address below 64K
 * (its page offset), "other" anything else.  A SIGSEGV, SIGBUS, SIGILL,
 * SIGTRAP or SIGFPE is caught on an alternate stack and reported.
 * With INSNSAFE_RAW set in the environment, the raw addresses follow.
 * insnsafe features: which of xsave xsaveopt avx the CPU and kernel enable.
 * insnsafe list: the cases, each with the label of the instruction to probe.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#define PAGE 4096UL

long br_call66w(void *);
long br_ret66(void *);
long br_ret66imm(void *);
long br_ret66w(void *);
long br_ret48(void *);
long br_jmp66(void *);
long br_jcc66(void *);
long br_call66(void *);
void xs_xsave(unsigned long mask);
void xs_xsaveopt(unsigned long mask);
void xs_xsave64(unsigned long mask);
void xs_xrstor(unsigned long mask, void *out);
long av_pcmpestri(void *);
long av_pcmpistri(void *);
long vex_xorps(void *);
long vex_por(void *);
long vex_psubsb(void *);
long vex_cmpps(void *);
long vex_zeroupper(void *);
long vex_punpcklbw(void *);
long flt_push(void *sp);
long flt_call(void *sp);
long flt_ret(void *sp);
long flt_load(void *sp);
long flt_load32(void *sp);

extern unsigned long entry_rsp;
extern unsigned char xs_area[4096], xr_area[4096], none_page[4096];

static long c_xsave(void *);
static long c_xsaveopt(void *);
static long c_xsave64(void *);
static long c_xrstor(void *);

/* Where the case's stack pointer goes (fault cases). */
enum setup {
	S_NONE,
	S_RO,		/* top of a PROT_READ page */
	S_GUARD,	/* bottom of a writable page above a PROT_NONE one */
	S_UNMAPPED,	/* bottom of a writable page, nothing mapped below */
	S_NONESTACK,	/* in the middle of a PROT_NONE page */
	S_NONEDATA,	/* none_page made PROT_NONE; the stack stays */
};

static const struct tcase {
	const char *name;
	long (*fn)(void *);
	enum setup setup;
	const char *probe;	/* the label of the instruction to probe */
} cases[] = {
	{ "call66w", br_call66w, S_NONE, "probe_call66w" },
	{ "ret66", br_ret66, S_NONE, "probe_ret66" },
	{ "ret66imm", br_ret66imm, S_NONE, "probe_ret66imm" },
	{ "ret66w", br_ret66w, S_NONE, "probe_ret66w" },
	{ "ret48", br_ret48, S_NONE, "probe_ret48" },
	{ "jmp66", br_jmp66, S_NONE, "probe_jmp66" },
	{ "jcc66", br_jcc66, S_NONE, "probe_jcc66" },
	{ "call66", br_call66, S_NONE, "probe_call66" },
	{ "xsave", c_xsave, S_NONE, "probe_xsave" },
	{ "xsaveopt", c_xsaveopt, S_NONE, "probe_xsaveopt" },
	{ "xsave64", c_xsave64, S_NONE, "probe_xsave64" },
	{ "xrstor", c_xrstor, S_NONE, "probe_xrstor" },
	{ "vpcmpestri", av_pcmpestri, S_NONE, "probe_vpcmpestri" },
	{ "vpcmpistri", av_pcmpistri, S_NONE, "probe_vpcmpistri" },
	{ "vxorps", vex_xorps, S_NONE, "probe_vxorps" },
	{ "vpor", vex_por, S_NONE, "probe_vpor" },
	{ "vpsubsb", vex_psubsb, S_NONE, "probe_vpsubsb" },
	{ "vcmpps", vex_cmpps, S_NONE, "probe_vcmpps" },
	{ "vzeroupper", vex_zeroupper, S_NONE, "probe_vzeroupper" },
	{ "vpunpcklbw", vex_punpcklbw, S_NONE, "probe_vpunpcklbw" },
	{ "push_ro", flt_push, S_RO, "probe_push" },
	{ "push_guard", flt_push, S_GUARD, "probe_push" },
	{ "push_unmapped", flt_push, S_UNMAPPED, "probe_push" },
	{ "call_ro", flt_call, S_RO, "probe_call" },
	{ "call_guard", flt_call, S_GUARD, "probe_call" },
	{ "call_unmapped", flt_call, S_UNMAPPED, "probe_call" },
	{ "ret_none", flt_ret, S_NONESTACK, "probe_ret" },
	{ "load_none", flt_load, S_NONEDATA, "probe_load" },
	{ "load32_none", flt_load32, S_NONEDATA, "probe_load32" },
};

static sigjmp_buf env;
static int got_sig, got_code;
static unsigned long got_addr, got_rip, got_rsp;
static unsigned long cur_base, cur_fn;

static void on_signal(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	got_sig = sig;
	got_code = si->si_code;
	got_addr = (unsigned long)si->si_addr;
	got_rip = uc->uc_mcontext.gregs[REG_RIP];
	got_rsp = uc->uc_mcontext.gregs[REG_RSP];
	siglongjmp(env, 1);
}

/* "name+0xN" / "name-0xN" if @a is within @range of @ref */
static int near(char *buf, size_t n, const char *name, unsigned long a,
		unsigned long ref, unsigned long range)
{
	long d = (long)(a - ref);

	if (!ref || d >= (long)range || d <= -(long)range)
		return 0;
	snprintf(buf, n, "%s%c%#lx", name, d < 0 ? '-' : '+',
		 d < 0 ? -(unsigned long)d : (unsigned long)d);
	return 1;
}

static const char *where(char *buf, size_t n, unsigned long a)
{
	if (near(buf, n, "base", a, cur_base, 0x10000) ||
	    near(buf, n, "fn", a, cur_fn, 0x1000) ||
	    near(buf, n, "entry", a, entry_rsp, 0x1000))
		return buf;
	if (a < 0x10000)
		snprintf(buf, n, "low:%#lx", a & 0xfff);
	else
		snprintf(buf, n, "other");
	return buf;
}

static void *map(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	return p;
}

/* The stack pointer a fault case starts with; sets cur_base. */
static void *setup(enum setup s)
{
	unsigned char *p = NULL;

	switch (s) {
	case S_NONE:
		cur_base = 0;
		return NULL;
	case S_RO:
		p = map(2 * PAGE, PROT_READ | PROT_WRITE);
		mprotect(p, PAGE, PROT_READ);
		break;
	case S_GUARD:
		p = map(2 * PAGE, PROT_READ | PROT_WRITE);
		mprotect(p, PAGE, PROT_NONE);
		break;
	case S_UNMAPPED:
		p = map(2 * PAGE, PROT_READ | PROT_WRITE);
		munmap(p, PAGE);
		break;
	case S_NONESTACK:
		p = map(PAGE, PROT_NONE);
		cur_base = (unsigned long)p;
		return p + 0x800;
	case S_NONEDATA:
		if (mprotect(none_page, PAGE, PROT_NONE)) {
			perror("mprotect");
			exit(1);
		}
		cur_base = (unsigned long)none_page;
		return NULL;
	}
	cur_base = (unsigned long)p;
	return p + PAGE;
}

/* ---- xsave family ---- */

/* A checksum of the area, less the fields that hold addresses or stale x87 registers. */
static unsigned long area_sum(void)
{
	unsigned char copy[sizeof(xs_area)];
	unsigned long sum = 0;
	size_t i;

	memcpy(copy, xs_area, sizeof(copy));
	memset(copy + 6, 0, 18);	/* FOP, FIP, FDP */
	memset(copy + 32, 0, 128);	/* ST0-7: fninit leaves them */
	for (i = 0; i < sizeof(copy); i++)
		sum = sum * 31 + copy[i];
	return sum;
}

static long xsave_report(void (*fn)(unsigned long), unsigned long mask)
{
	uint64_t bv, xmm15;
	uint32_t mxcsr;
	uint16_t fcw;

	memset(xs_area, 0xa5, sizeof(xs_area));
	fn(mask);
	memcpy(&fcw, xs_area, 2);
	memcpy(&mxcsr, xs_area + 24, 4);
	memcpy(&bv, xs_area + 512, 8);
	memcpy(&xmm15, xs_area + 160 + 15 * 16, 8);
	printf("mask %#lx: xstate_bv %#llx fcw %#x mxcsr %#x xmm15 %#llx sum %#lx\n",
	       mask, (unsigned long long)bv, fcw, mxcsr, (unsigned long long)xmm15,
	       area_sum());
	return 0;
}

static long c_xsave(void *arg)
{
	(void)arg;
	return xsave_report(xs_xsave, 3);
}

static long c_xsaveopt(void *arg)
{
	(void)arg;
	return xsave_report(xs_xsaveopt, 3);
}

static long c_xsave64(void *arg)
{
	(void)arg;
	return xsave_report(xs_xsave64, 2);
}

/* xrstor of SSE only (mask 2) from an area with x87 and SSE state */
static long c_xrstor(void *arg)
{
	struct {
		uint16_t fcw, pad;
		uint32_t mxcsr;
		uint64_t pad2;
		uint64_t xmm0[2];
	} out;
	uint64_t bv = 3, xmm0[2] = { 0x1122334455667788ULL, 0x99aabbccddeeff00ULL };
	uint32_t mxcsr = 0x7f80;	/* round toward zero */
	uint16_t fcw = 0x27f;

	(void)arg;
	memset(xr_area, 0, sizeof(xr_area));
	memcpy(xr_area, &fcw, 2);
	memcpy(xr_area + 24, &mxcsr, 4);
	memcpy(xr_area + 160, xmm0, 16);
	memcpy(xr_area + 512, &bv, 8);
	memset(&out, 0, sizeof(out));
	xs_xrstor(2, &out);
	printf("mask 0x2: fcw %#x mxcsr %#x xmm0 %#llx:%#llx\n", out.fcw, out.mxcsr,
	       (unsigned long long)out.xmm0[1], (unsigned long long)out.xmm0[0]);
	return 0;
}

/* ---- driver ---- */

static void features(void)
{
	unsigned int a, b, c, d, xcr0 = 0;

	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_XSAVE) || !(c & bit_OSXSAVE)) {
		printf("\n");
		return;
	}
	__asm__ volatile("xgetbv" : "=a"(xcr0), "=d"(d) : "c"(0));
	printf("xsave");
	if ((xcr0 & 6) == 6 && (c & bit_AVX))
		printf(" avx");
	if (__get_cpuid_count(0xd, 1, &a, &b, &c, &d) && (a & 1))
		printf(" xsaveopt");
	printf("\n");
}

static void run(const struct tcase *tc)
{
	char a[64], r[64], s[64];
	void *sp;
	long ret;

	sp = setup(tc->setup);
	cur_fn = (unsigned long)tc->fn;
	entry_rsp = 0;
	fflush(stdout);
	if (sigsetjmp(env, 1) == 0) {
		ret = tc->fn(sp);
		printf("%s: returned %ld\n", tc->name, ret);
	} else {
		printf("%s: signal %d code %d addr %s rip %s rsp %s\n", tc->name,
		       got_sig, got_code, where(a, sizeof(a), got_addr),
		       where(r, sizeof(r), got_rip), where(s, sizeof(s), got_rsp));
		if (getenv("INSNSAFE_RAW"))	/* for debugging */
			printf("  raw: addr %#lx rip %#lx rsp %#lx fn %#lx entry %#lx\n",
			       got_addr, got_rip, got_rsp, cur_fn, entry_rsp);
	}
	fflush(stdout);
	if (tc->setup == S_NONEDATA)
		mprotect(none_page, PAGE, PROT_READ | PROT_WRITE);
	else if (tc->setup == S_NONESTACK)
		munmap((void *)cur_base, PAGE);
	else if (tc->setup != S_NONE)
		munmap((void *)cur_base, 2 * PAGE);
}

int main(int argc, char **argv)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE };
	static char altstack[65536];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;
	size_t i;
	long n = 1, k;

	if (argc == 2 && !strcmp(argv[1], "features")) {
		features();
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "list")) {
		for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
			printf("%s %s\n", cases[i].name, cases[i].probe);
		return 0;
	}
	if (argc == 3)
		n = atol(argv[2]);
	if ((argc != 2 && argc != 3) || n <= 0) {
		fprintf(stderr, "usage: insnsafe CASE [N] | features | list\n");
		return 2;
	}
	if (sigaltstack(&ss, NULL)) {
		perror("sigaltstack");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (strcmp(argv[1], cases[i].name))
			continue;
		for (k = 0; k < n; k++)
			run(&cases[i]);
		return 0;
	}
	fprintf(stderr, "insnsafe: no case %s\n", argv[1]);
	return 2;
}
