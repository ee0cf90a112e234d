// SPDX-License-Identifier: GPL-2.0
/*
 * Sites where a probe's int3 can become a jump to a stub (jumps.S), each
 * result checked against plain C:
 *   jumps run N       every function N times; prints "run N bad B"
 *   jumps wait N      run N times, block until a byte comes on stdin, run N
 *                     more, fork a child that runs N, block for a byte
 *                     again, run N more; prints "wait N bad B child B"
 *   jumps seccomp N   run N times in seccomp strict mode (read, write, exit
 *                     and sigreturn only); prints "seccomp N bad B"
 *   jumps rogue 1     call the syscall (336) the stubs make, from outside
 *                     a stub; prints its result
 * B counts wrong results; it must be 0, probed or not.
 */
#include <errno.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

long jmp_data = 1000;

#define FUNCS(X) X(load) X(lea) X(add) X(subrsp) X(call) X(jcc) X(nop5) \
		 X(redzone) X(regs)
#define DECLARE(name) long jmp_##name(long);
FUNCS(DECLARE)

static long want(const char *name, long x)
{
	if (!strcmp(name, "load"))
		return x + 1000;
	if (!strcmp(name, "lea"))
		return x + 0x12345;
	if (!strcmp(name, "add"))
		return x + 0x10000;
	if (!strcmp(name, "subrsp"))
		return x;
	if (!strcmp(name, "call"))
		return x + 2;
	if (!strcmp(name, "jcc"))
		return x ? 2 : 1;
	if (!strcmp(name, "nop5"))
		return x + 3;
	if (!strcmp(name, "redzone"))
		return x + 0x100 + x + 0x55 + x;
	/* regs */
	return x + 0x1000 + x + x + 1 + (x < 100);
}

static const struct {
	const char *name;
	long (*fn)(long);
} funcs[] = {
#define ENTRY(name) { #name, jmp_##name },
	FUNCS(ENTRY)
};

static long run(long n)
{
	long bad = 0, i;
	unsigned int f;

	for (i = 0; i < n; i++)
		for (f = 0; f < sizeof(funcs) / sizeof(funcs[0]); f++)
			if (funcs[f].fn(i) != want(funcs[f].name, i))
				bad++;
	return bad;
}

static void wait_byte(void)
{
	char c;

	if (read(0, &c, 1) != 1)
		exit(3);
}

int main(int argc, char **argv)
{
	long n, bad, child_bad = 0;
	char line[64];
	int status, len;
	pid_t pid;

	if (argc != 3 || (n = atol(argv[2])) <= 0) {
		fprintf(stderr, "usage: jumps run|wait|seccomp|rogue N\n");
		return 2;
	}
	if (!strcmp(argv[1], "run")) {
		printf("run %ld bad %ld\n", n, run(n));
	} else if (!strcmp(argv[1], "wait")) {
		bad = run(n);
		wait_byte();
		bad += run(n);
		fflush(stdout);
		pid = fork();
		if (pid < 0)
			return 4;
		if (!pid)
			_exit(run(n) ? 1 : 0);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			child_bad = -1;
		else
			child_bad = WEXITSTATUS(status);
		wait_byte();
		bad += run(n);
		printf("wait %ld bad %ld child %ld\n", n, bad, child_bad);
	} else if (!strcmp(argv[1], "seccomp")) {
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT)) {
			perror("prctl");
			return 2;
		}
		bad = run(n);
		len = snprintf(line, sizeof(line), "seccomp %ld bad %ld\n", n, bad);
		if (write(1, line, len) != len)
			syscall(SYS_exit, 1);
		syscall(SYS_exit, 0);
	} else if (!strcmp(argv[1], "rogue")) {
		long r = syscall(336);

		printf("rogue %ld %d\n", r, r < 0 ? errno : 0);
	} else {
		fprintf(stderr, "jumps: unknown mode '%s'\n", argv[1]);
		return 2;
	}
	return 0;
}
