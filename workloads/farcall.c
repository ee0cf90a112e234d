// SPDX-License-Identifier: GPL-2.0
/*
 * farcall N: call 32-bit code of this 64-bit program (farcall.S) N times
 * through a far call, check each result, print "calls=N" and exit 0; a
 * wrong result prints it and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>

long farcall32(long x);

int main(int argc, char **argv)
{
	long n;

	if (argc != 2) {
		fprintf(stderr, "usage: farcall N\n");
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
