// SPDX-License-Identifier: GPL-2.0
/*
 * ia32: a 32-bit program (gcc -m32) calling functions whose first (or
 * named) instruction is of a known class (ia32.S), to probe ia32 tasks.
 *
 *   ia32 CLASS N        call ia32_CLASS(k) for k = 0..N-1, check each result
 *   ia32 fork CLASS K N the same in K forked children
 *   ia32 --list         the classes
 *
 * Prints "CLASS calls=N" and exits 0 when every result was right; a wrong
 * result (an instruction executed as something else) prints it and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	fprintf(stderr, "usage: ia32 CLASS N | ia32 fork CLASS K N | ia32 --list\n");
	return 2;
}
