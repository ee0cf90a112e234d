// SPDX-License-Identifier: GPL-2.0
/*
 * Return probes in awkward places.
 *   uret nest N     uret_rec(4) N times: 5 nested returns of one function each
 *   uret tail N     uret_tail_a -> (tail jump) uret_tail_b, N times
 *   uret jump N     uret_outer calls uret_inner, which longjmps out past
 *                   uret_mid; then uret_outer returns normally.  N times.
 *   uret fork N     like nest, in a parent and a forked child, each N times,
 *                   the fork made from inside a return-probed function
 *   uret seccomp N  like nest, in seccomp strict mode (read, write, exit and
 *                   sigreturn only): returns must not need a syscall of the
 *                   program's own
 *   uret regs N     uret_regs_check N times: every register, the status
 *                   flags and the stack pointer as uret_regs left them;
 *                   prints the bits of the ones that were not, or'ed
 *   uret rogue 1    call the syscall (335) the fork's return trampoline
 *                   makes, from outside the trampoline; prints its result
 *   uret wait N     uret_wait(0) twice, each blocking until a byte comes on
 *                   stdin (the test swaps the probe while a return is
 *                   pending); prints the two bytes' values
 * Prints a result that must not change under probes.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

long uret_tail_a(long x);
long uret_regs_check(void);

/*
 * What uret_regs_check saw after uret_regs returned: r15 ... r8, rdi, rsi,
 * rbp, rbx, rdx, rcx, rax, then the flags; the stack pointer it had
 * before the call in uret_regs_sp.
 */
unsigned long uret_regs_sp;

long uret_regs_verify(const unsigned long *seen)
{
	static const unsigned long want[] = {
		0x0f0f0f0f0f0f0f0f, 0xeeeeeeeeeeeeeeee, 0xdddddddddddddddd,
		0xcccccccccccccccc, 0x9999999999999999, 0x8888888888888888,
		0x7777777777777777, 0x6666666666666666, 0x5555555555555555,
		0x4444444444444444, 0xbbbbbbbbbbbbbbbb, 0xaaaaaaaaaaaaaaaa,
		0x3333333333333333, 0x2222222222222222, 0x1111111111111111,
	};
	/* CF, PF, ZF, SF, DF, OF (AF is undefined after xor) */
	const unsigned long flags_mask = 0xcc5, flags_want = 0x45;
	long bad = 0;
	unsigned int i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (seen[i] != want[i])
			bad |= 1L << i;
	if ((seen[i] & flags_mask) != flags_want)
		bad |= 1L << i;
	if ((unsigned long)&seen[i + 1] != uret_regs_sp)
		bad |= 1L << (i + 1);
	return bad;
}

__attribute__((noinline)) long uret_rec(long depth)
{
	if (!depth)
		return 1;
	return 2 * uret_rec(depth - 1) + depth;
}

/* Blocks in read(): a return probe's return stays pending meanwhile */
__attribute__((noinline)) long uret_wait(int fd)
{
	char c;

	return read(fd, &c, 1) == 1 ? c : -1;
}

static jmp_buf env;

__attribute__((noinline)) void uret_inner(long x)
{
	if (x >= 0)
		longjmp(env, (int)x + 1);
}

__attribute__((noinline)) long uret_mid(long x)
{
	uret_inner(x);
	return -1;	/* never reached */
}

__attribute__((noinline)) long uret_outer(long x)
{
	volatile long r = 0;

	if (setjmp(env) == 0)
		r = uret_mid(x);
	else
		r = x * 3;
	return r;
}

__attribute__((noinline)) long uret_forker(long n)
{
	long sum = 0;
	pid_t pid = fork();
	int status;

	for (long i = 0; i < n; i++)
		sum += uret_rec(4);
	if (pid == 0)
		_exit(sum == n * 42 ? 0 : 1);
	waitpid(pid, &status, 0);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? sum : -1;
}

/* nest under seccomp strict mode; only write() and exit() from here on */
static void nest_in_seccomp(long n)
{
	char line[64];
	long sum = 0;
	int len;

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT)) {
		perror("uret: seccomp");
		exit(2);
	}
	for (long i = 0; i < n; i++)
		sum += uret_rec(4);
	len = snprintf(line, sizeof(line), "seccomp %ld\n", sum);
	if (write(1, line, len) != len)
		syscall(SYS_exit, 1);
	syscall(SYS_exit, 0);
}

int main(int argc, char **argv)
{
	long n, sum = 0;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: uret nest|tail|regs|jump|fork|seccomp|rogue|wait N\n");
		return 2;
	}
	if (!strcmp(argv[1], "seccomp")) {
		fflush(stdout);
		nest_in_seccomp(n);
	}
	if (!strcmp(argv[1], "wait")) {
		long first = uret_wait(0);

		printf("wait %ld %ld\n", first, uret_wait(0));
		return 0;
	}
	if (!strcmp(argv[1], "rogue")) {
		long rc = syscall(335);

		printf("rogue %ld %s\n", rc, rc < 0 ? strerror(errno) : "");
		return 0;
	}
	for (long i = 0; i < n; i++) {
		if (!strcmp(argv[1], "nest"))
			sum += uret_rec(4);
		else if (!strcmp(argv[1], "tail"))
			sum += uret_tail_a(i);
		else if (!strcmp(argv[1], "regs"))
			sum |= uret_regs_check();
		else if (!strcmp(argv[1], "jump"))
			sum += uret_outer(i);
		else if (!strcmp(argv[1], "fork")) {
			sum = uret_forker(n);
			break;
		} else {
			return 2;
		}
	}
	printf("%s %ld\n", argv[1], sum);
	return 0;
}
