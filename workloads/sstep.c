// SPDX-License-Identifier: GPL-2.0
/*
 * sstep: what a debugger and a self-tracing program see while they single
 * step through code that carries uprobes.
 *
 *   sstep ptrace   a child stops at ss_call (a breakpoint of the parent's
 *                  own), which jumps to ss_func; the parent single-steps
 *                  it with PTRACE_SINGLESTEP until it leaves ss_func and
 *                  prints each stop's offset from ss_func
 *   sstep self     ss_self sets TF with popf; a SIGTRAP handler prints the
 *                  offset of each trap from ss_self, clearing TF after 8
 *
 *   sstep int3     ss_int3 runs an int3 of the program's own; the SIGTRAP
 *                  handler prints what the kernel reported: si_code,
 *                  the trap number and error code of the signal frame,
 *                  and where the trap left rip
 *   sstep int3cd   the same with int $3 (cd 03), in ss_int3cd
 *
 *   sstep r11 N    call cc_callee N times through %r11 (callchains at a
 *                  probe on its entry); prints "calls=N bad=B"
 *
 * Probed or not, the output must be the same: one stop per instruction.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

long ss_call(long x);
long ss_func(long x);
long ss_self(long x);
long ss_int3(long x);
long ss_int3cd(long x);
long cc_via_r11(long x);

static volatile int traps;
static unsigned long trap_at[16];

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	(void)si;
	if (traps < 16)
		trap_at[traps] = uc->uc_mcontext.gregs[REG_RIP];
	if (++traps >= 8)
		uc->uc_mcontext.gregs[REG_EFL] &= ~0x100UL;
}

static int self(void)
{
	struct sigaction sa = { .sa_sigaction = on_trap, .sa_flags = SA_SIGINFO };
	long r;

	sigaction(SIGTRAP, &sa, NULL);
	r = ss_self(41);
	printf("result %ld traps %d\n", r, traps);
	for (int i = 0; i < traps && i < 16; i++) {
		long off = (long)(trap_at[i] - (unsigned long)ss_self);

		if (off >= 0 && off < 64)
			printf("trap ss_self+%ld\n", off);
		else
			printf("trap outside\n");
	}
	return 0;
}

static volatile long int3_code, int3_trapno, int3_err, int3_rip;

static void on_int3(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)sig;
	int3_code = si->si_code;
	int3_trapno = uc->uc_mcontext.gregs[REG_TRAPNO];
	int3_err = uc->uc_mcontext.gregs[REG_ERR];
	int3_rip = uc->uc_mcontext.gregs[REG_RIP];
}

static int own_int3(long (*fn)(long), const char *name)
{
	struct sigaction sa = { .sa_sigaction = on_int3, .sa_flags = SA_SIGINFO };
	long r;

	sigaction(SIGTRAP, &sa, NULL);
	r = fn(41);
	printf("result %ld si_code %ld trapno %ld err %ld rip %s+%ld\n",
	       r, int3_code, int3_trapno, int3_err, name,
	       (long)(int3_rip - (unsigned long)fn));
	return 0;
}

static int traced(void)
{
	unsigned long start = (unsigned long)ss_func, bp = (unsigned long)ss_call;
	struct user_regs_struct regs;
	int status, steps = 0;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (!pid) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		_exit(ss_call(41) == 42 ? 0 : 3);
	}
	waitpid(pid, &status, 0);
	/* run to ss_call with a breakpoint of our own */
	long word = ptrace(PTRACE_PEEKTEXT, pid, (void *)bp, NULL);

	ptrace(PTRACE_POKETEXT, pid, (void *)bp, (void *)((word & ~0xffL) | 0xcc));
	ptrace(PTRACE_CONT, pid, NULL, NULL);
	waitpid(pid, &status, 0);
	ptrace(PTRACE_POKETEXT, pid, (void *)bp, (void *)word);
	ptrace(PTRACE_GETREGS, pid, NULL, &regs);
	regs.rip = bp;
	ptrace(PTRACE_SETREGS, pid, NULL, &regs);
	while (steps++ < 40) {
		ptrace(PTRACE_GETREGS, pid, NULL, &regs);
		if (regs.rip >= bp && regs.rip < start) {
			printf("stop ss_call+%lu\n", (unsigned long)(regs.rip - bp));
		} else if (regs.rip < start || regs.rip >= start + 64) {
			printf("stop outside ss_func\n");
			break;
		} else {
			printf("stop ss_func+%lu\n", (unsigned long)(regs.rip - start));
		}
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) ||
		    waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) {
			printf("step failed\n");
			break;
		}
		if (WSTOPSIG(status) != SIGTRAP)
			printf("signal %d\n", WSTOPSIG(status));
	}
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	waitpid(pid, &status, 0);
	if (WIFEXITED(status))
		printf("child exit %d\n", WEXITSTATUS(status));
	else
		printf("child status %#x\n", status);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "ptrace"))
		return traced();
	if (argc == 2 && !strcmp(argv[1], "self"))
		return self();
	if (argc == 2 && !strcmp(argv[1], "int3"))
		return own_int3(ss_int3, "ss_int3");
	if (argc == 2 && !strcmp(argv[1], "int3cd"))
		return own_int3(ss_int3cd, "ss_int3cd");
	if (argc == 3 && !strcmp(argv[1], "r11")) {
		long n = atol(argv[2]), bad = 0;

		for (long i = 0; i < n; i++)
			bad += cc_via_r11(i) != i + 1;
		printf("calls=%ld bad=%ld\n", n, bad);
		return 0;
	}
	fprintf(stderr, "usage: sstep ptrace | self | int3 | int3cd | r11 N\n");
	return 2;
}
