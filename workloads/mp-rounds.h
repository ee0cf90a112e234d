/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The 1000 functions of manyprobes.S (mp_N(x) = x + N + 1), called in
 * rounds, and the FIFO handshake of the programs that call them
 * (manyprobes, sharedtext).
 */
#ifndef MP_ROUNDS_H
#define MP_ROUNDS_H

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define NFUNCS 1000

extern long (*const mp_table[NFUNCS])(long);

/*
 * R rounds of mp_0 .. mp_999, each once, reported as
 * "PREFIXrounds=R calls=<1000R> bad=B sum=S"; returns B, the number of
 * wrong results.
 */
static inline long mp_rounds(long rounds, const char *prefix)
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
	printf("%srounds=%ld calls=%ld bad=%ld sum=%lu\n", prefix, rounds,
	       rounds * NFUNCS, bad, sum);
	fflush(stdout);
	return bad;
}

/*
 * Say we are ready (FIFO.ready.<pid>), then wait for FIFO's writer: sleep
 * in open() until the test opens it to write, then read to EOF.  No
 * polling: 200 waiters cost nothing even on a slow debug kernel.
 */
static inline int mp_wait_for(const char *fifo)
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

#endif
