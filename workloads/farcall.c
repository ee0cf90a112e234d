// SPDX-License-Identifier: GPL-2.0
/*
 * farcall N: call 32-bit code of this 64-bit program (farcall.S) N times
 * through far jumps, check each result, print "calls=N" and exit 0; a
 * wrong result prints it and exits 1.
 *
 * farcall ldt N: N times, call add64() (64-bit code, to be probed), then
 * run an int3 in 32-bit code of an LDT segment whose base puts the int3
 * at segment offset &add64: ip - 1 after the trap is add64's address,
 * though the int3 is elsewhere.  Each trap must reach the program as its
 * own SIGTRAP, with ip the segment offset after the int3.  Prints
 * "calls=N traps=N" and exits 0; anything else exits 1.
 */
#define _GNU_SOURCE
#include <asm/ldt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

long farcall32(long x);
void ldtcall(const void *far_ptr);
extern const char ldt_int3[];

#define LDT_SEL		((0 << 3) | 4 | 3)	/* LDT entry 0, RPL 3 */

static volatile sig_atomic_t traps, bad_traps;

__attribute__((noinline)) long add64(long x)
{
	return x + 7;
}

static void on_trap(int sig, siginfo_t *si, void *uc_arg)
{
	ucontext_t *uc = uc_arg;
	unsigned long ip = uc->uc_mcontext.gregs[REG_RIP];
	unsigned int cs = uc->uc_mcontext.gregs[REG_CSGSFS] & 0xffff;

	(void)sig;
	if (si->si_code == SI_KERNEL && cs == LDT_SEL &&
	    ip == (unsigned long)add64 + 1)
		traps++;
	else
		bad_traps++;
}

static int run_ldt(long n)
{
	struct user_desc d;
	struct sigaction sa;
	struct { unsigned int off; unsigned short sel; } __attribute__((packed)) ptr;
	long calls = 0;

	memset(&d, 0, sizeof(d));
	d.entry_number = 0;
	/* linear = base + offset (mod 2^32): offset &add64 is ldt_int3 */
	d.base_addr = (unsigned int)((unsigned long)ldt_int3 -
				     (unsigned long)add64);
	d.limit = 0xfffff;
	d.limit_in_pages = 1;
	d.seg_32bit = 1;
	d.contents = MODIFY_LDT_CONTENTS_CODE;
	d.useable = 1;
	if (syscall(SYS_modify_ldt, 1, &d, sizeof(d))) {
		perror("modify_ldt");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);
	ptr.off = (unsigned int)(unsigned long)add64;
	ptr.sel = LDT_SEL;
	for (long k = 0; k < n; k++) {
		if (add64(k) == k + 7)
			calls++;
		ldtcall(&ptr);
	}
	printf("calls=%ld traps=%d\n", calls, (int)traps);
	return calls == n && traps == n && !bad_traps ? 0 : 1;
}

int main(int argc, char **argv)
{
	long n;

	if (argc == 3 && !strcmp(argv[1], "ldt"))
		return run_ldt(atol(argv[2]));
	if (argc != 2) {
		fprintf(stderr, "usage: farcall [ldt] N\n");
		return 2;
	}
	n = atol(argv[1]);
	for (long k = 0; k < n; k++) {
		long got = farcall32(k);

		if (got != k + 5) {
			printf("call %ld returned %ld, want %ld\n", k, got, k + 5);
			return 1;
		}
	}
	printf("calls=%ld\n", n);
	return 0;
}
