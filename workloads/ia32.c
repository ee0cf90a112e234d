// SPDX-License-Identifier: GPL-2.0
/*
 * ia32: a 32-bit program (gcc -m32) calling functions whose first (or
 * named) instruction is of a known class (ia32.S), to probe ia32 tasks.
 *
 *   ia32 CLASS N        call ia32_CLASS(k) for k = 0..N-1, check each result
 *   ia32 fork CLASS K N the same in K forked children
 *   ia32 signal CLASS N the same while a 1 ms timer's SIGALRM handler
 *                       calls ia32_CLASS too: prints the calls of both
 *   ia32 chain N        main -> chain_mid -> chain_leaf, N times (frame
 *                       pointers: for callchains through a probe on
 *                       chain_leaf); prints "chain calls=N"
 *   ia32 --list         the classes
 *
 * Prints "CLASS calls=N" and exits 0 when every result was right; a wrong
 * result (an instruction executed as something else) prints it and exits 1.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

int ia32_push(int), ia32_dec(int), ia32_abs(int), ia32_call(int);
int ia32_jmp(int), ia32_jcc(int), ia32_nop(int), ia32_lea(int);

static const struct {
	const char *name;
	int (*fn)(int);
	int add_even, add_odd;
} classes[] = {
	{ "push", ia32_push, 1, 1 },
	{ "dec", ia32_dec, 99, 99 },
	{ "abs", ia32_abs, 1000, 1000 },
	{ "call", ia32_call, 3, 3 },
	{ "jmp", ia32_jmp, 4, 4 },
	{ "jcc", ia32_jcc, 6, 5 },
	{ "nop", ia32_nop, 7, 7 },
	{ "lea", ia32_lea, 8, 8 },
};
#define NR_CLASSES (int)(sizeof(classes) / sizeof(classes[0]))

static int run(int c, long n)
{
	for (long k = 0; k < n; k++) {
		int want = k + (k & 1 ? classes[c].add_odd : classes[c].add_even);
		int got = classes[c].fn(k);

		if (got != want) {
			printf("%s: call %ld returned %d, want %d\n",
			       classes[c].name, k, got, want);
			return 1;
		}
	}
	printf("%s calls=%ld\n", classes[c].name, n);
	return 0;
}

static volatile sig_atomic_t alarm_class, alarm_calls, alarm_bad;

static void on_alarm(int sig)
{
	int c = alarm_class, k = alarm_calls;
	int want = k + (k & 1 ? classes[c].add_odd : classes[c].add_even);

	(void)sig;
	if (classes[c].fn(k) != want)
		alarm_bad = 1;
	alarm_calls = k + 1;
}

/* run() with SIGALRM every millisecond calling the class too */
static int run_signals(int c, long n)
{
	struct itimerval every_ms = { { 0, 1000 }, { 0, 1000 } }, off = { 0 };
	struct sigaction sa;
	int bad;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	alarm_class = c;
	setvbuf(stdout, NULL, _IONBF, 0);
	setitimer(ITIMER_REAL, &every_ms, NULL);
	bad = run(c, n);
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_IGN);
	printf("%s handler calls=%d\n", classes[c].name, (int)alarm_calls);
	return bad || alarm_bad;
}

static volatile int chain_sink;

__attribute__((noinline)) int chain_leaf(int x)
{
	chain_sink += x;
	return chain_sink;
}

__attribute__((noinline)) int chain_mid(int x)
{
	return chain_leaf(x) + 1;
}

static int find(const char *name)
{
	for (int c = 0; c < NR_CLASSES; c++)
		if (!strcmp(name, classes[c].name))
			return c;
	fprintf(stderr, "ia32: no class %s\n", name);
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (int c = 0; c < NR_CLASSES; c++)
			printf("%s\n", classes[c].name);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "chain")) {
		long n = atol(argv[2]);

		for (long k = 0; k < n; k++)
			chain_mid(k);
		printf("chain calls=%ld\n", n);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "signal"))
		return run_signals(find(argv[2]), atol(argv[3]));
	if (argc == 3)
		return run(find(argv[1]), atol(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "fork")) {
		int c = find(argv[2]), k = atoi(argv[3]), bad = 0, status;
		long n = atol(argv[4]);

		setvbuf(stdout, NULL, _IONBF, 0);
		for (int i = 0; i < k; i++) {
			pid_t pid = fork();

			if (pid < 0)
				return 1;
			if (!pid)
				_exit(run(c, n) ? 1 : 0);
		}
		while (wait(&status) > 0)
			bad |= !WIFEXITED(status) || WEXITSTATUS(status);
		return bad;
	}
	fprintf(stderr, "usage: ia32 CLASS N | ia32 fork CLASS K N | ia32 signal CLASS N | ia32 chain N | ia32 --list\n");
	return 2;
}
