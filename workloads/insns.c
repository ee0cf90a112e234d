// SPDX-License-Identifier: GPL-2.0
/*
 * insns N: run every ins_* function of insns.S N times with small seeds and
 * print one checksum per function.  Probing any instruction of them must
 * not change the output.  insns syscall: run ins_syscall once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

long ins_branches(long seed);
long ins_calls(long seed);
long ins_riprel(long seed);
long ins_stack(long seed);
long ins_strings(long seed);
long ins_sse(long seed);
long ins_misc(long seed);
long ins_alu(long seed);
long ins_syscall(void);

static const struct {
	const char *name;
	long (*fn)(long seed);
} fns[] = {
	{ "ins_branches", ins_branches },
	{ "ins_calls", ins_calls },
	{ "ins_riprel", ins_riprel },
	{ "ins_stack", ins_stack },
	{ "ins_strings", ins_strings },
	{ "ins_sse", ins_sse },
	{ "ins_misc", ins_misc },
	{ "ins_alu", ins_alu },
};

int main(int argc, char **argv)
{
	long n;
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "syscall")) {
		printf("%s\n", ins_syscall() == getpid() ? "pid ok" : "pid wrong");
		return 0;
	}
	if (argc != 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: insns N | insns syscall\n");
		return 2;
	}
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		unsigned long sum = 0;

		for (long k = 1; k <= n; k++)
			sum = sum * 31 + (unsigned long)fns[i].fn(k);
		printf("%s %lx\n", fns[i].name, sum);
	}
	return 0;
}
