// SPDX-License-Identifier: GPL-2.0
/*
 * usdt: a real SDT probe site (<sys/sdt.h>, a .note.stapsdt entry) guarded
 * by its semaphore, as applications built with dtrace -G have them.
 *
 *   usdt wait FILE N   create FILE.ready.PID (the program is mapped and
 *                      running), wait until FILE exists, then pass the
 *                      site N times;
 *                      print "fired=K": how many times the semaphore was
 *                      set, so that the probe ran (pu:tick, argument i)
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* the name <sys/sdt.h> gives a semaphore: PROVIDER_NAME_semaphore */
__attribute__((section(".probes"))) volatile unsigned short pu_tick_semaphore;

int main(int argc, char **argv)
{
	struct stat st;
	char ready[4096];
	long n, fired = 0;
	FILE *f;

	if (argc != 4 || strcmp(argv[1], "wait")) {
		fprintf(stderr, "usage: usdt wait FILE N\n");
		return 2;
	}
	n = atol(argv[3]);
	snprintf(ready, sizeof(ready), "%s.ready.%d", argv[2], (int)getpid());
	f = fopen(ready, "w");
	if (!f || fclose(f)) {
		perror(ready);
		return 1;
	}
	while (stat(argv[2], &st))
		usleep(10000);
	for (long i = 0; i < n; i++) {
		if (pu_tick_semaphore) {
			DTRACE_PROBE1(pu, tick, i);
			fired++;
		}
	}
	printf("fired=%ld\n", fired);
	return 0;
}
