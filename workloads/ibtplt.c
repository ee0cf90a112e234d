// SPDX-License-Identifier: GPL-2.0
/*
 * ibtplt N: call libc's getppid() N times from ibt_caller(), through the
 * PLT entry a CET build links (-fcf-protection -z ibtplt: endbr64, then
 * jmp *GOT(%rip)), for callchains at a probe on getppid's entry.  Prints
 * "calls=N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noipa)) long ibt_caller(void)
{
	return getppid();
}

int main(int argc, char **argv)
{
	long n = argc == 2 ? atol(argv[1]) : 0, sum = 0;

	for (long i = 0; i < n; i++)
		sum += ibt_caller() > 0;
	printf("calls=%ld\n", sum);
	return 0;
}
