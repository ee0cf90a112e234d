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

#define NFUNCS 1000

extern long (*const mp_table[NFUNCS])(long);
long mp_5(long x);

/* R rounds of mp_0 .. mp_999, reported; the number of wrong results. */
static long run_rounds(long rounds)
{
	unsigned long sum = 0;
	long bad = 0;

	for (long r = 0; r < rounds; r++) {
		for (long n = 0; n < NFUNCS; n++) {
			long x = r * 1000003 + n * 7, got = mp_table[n](x);

			if (got != x + n + 1)
				bad++;
			sum = sum * 31 + (unsigned long)got;
		}
	}
	printf("rounds=%ld calls=%ld bad=%ld sum=%lu\n", rounds, rounds * NFUNCS, bad, sum);
	return bad;
}

/* Say we are ready (FIFO.ready.<pid>), then wait for FIFO's writer. */
static int wait_for(const char *fifo)
{
	char ready[4096], c;
	FILE *f;
	int fd;

	snprintf(ready, sizeof(ready), "%s.ready.%d", fifo, (int)getpid());
	f = fopen(ready, "w");
	if (!f) {
		perror(ready);
		return -1;
	}
	fclose(f);
	/* FIFO: sleep in open() until the test opens it to
	 * write, then read to EOF.  No polling: 200 waiters cost nothing
	 * even on a slow debug kernel.
	 */
	fd = open(fifo, O_RDONLY);
	if (fd < 0) {
		perror(fifo);
		return -1;
	}
	while (read(fd, &c, 1) > 0)
		;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	long bad = 0;

	if (argc == 3 && !strcmp(argv[1], "run")) {
		bad = run_rounds(atol(argv[2]));
	} else if (argc == 4 && !strcmp(argv[1], "wait")) {
		long n = atol(argv[3]);

		if (wait_for(argv[2]))
			return 1;
		for (long i = 0; i < n; i++)
			if (mp_5(i) != i + 6)
				bad++;
		printf("calls=%ld bad=%ld\n", n, bad);
	} else if (argc == 4 && !strcmp(argv[1], "waitrun")) {
		if (wait_for(argv[2]))
			return 1;
		bad = run_rounds(atol(argv[3]));
	} else {
		fprintf(stderr, "usage: manyprobes run R | wait FIFO N | waitrun FIFO R\n");
		return 2;
	}
	return bad ? 1 : 0;
}
