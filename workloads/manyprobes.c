// SPDX-License-Identifier: GPL-2.0
/*
 * manyprobes: calls the 1000 functions of manyprobes.S.
 *
 *   manyprobes run R            R rounds, each calling mp_0 .. mp_999 once;
 *                               prints "rounds=R calls=<1000R> bad=B sum=S"
 *   manyprobes wait FIFO N      create FIFO.ready.<pid>, wait until FIFO
 *                               is opened for writing and closed, then
 *                               call mp_5 N times;
 *                               prints "calls=N bad=B"
 *   manyprobes waitrun FIFO R   wait as above, then run R rounds
 *
 * mp_xbegin (never called) starts with an xbegin, which uprobes refuse.
 * mp_N(x) = x + N + 1; B counts results that differ from that.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mp-rounds.h"

long mp_5(long x);

int main(int argc, char **argv)
{
	long bad = 0;

	if (argc == 3 && !strcmp(argv[1], "run")) {
		bad = mp_rounds(atol(argv[2]), "");
	} else if (argc == 4 && !strcmp(argv[1], "wait")) {
		long n = atol(argv[3]);

		if (mp_wait_for(argv[2]))
			return 1;
		for (long i = 0; i < n; i++)
			if (mp_5(i) != i + 6)
				bad++;
		printf("calls=%ld bad=%ld\n", n, bad);
	} else if (argc == 4 && !strcmp(argv[1], "waitrun")) {
		if (mp_wait_for(argv[2]))
			return 1;
		bad = mp_rounds(atol(argv[3]), "");
	} else {
		fprintf(stderr, "usage: manyprobes run R | wait FIFO N | waitrun FIFO R\n");
		return 2;
	}
	return bad ? 1 : 0;
}
