// SPDX-License-Identifier: GPL-2.0
/*
 * lifecycle: calls lc_target() in the ways the probe lifecycle tests need.
 *
 *   lifecycle call N                 call lc_name("lifecycle-call") once,
 *                                    then lc_target N times
 *   lifecycle wait FILE N            wait until FILE exists, then call N times
 *   lifecycle spin FILE              call until FILE exists; print the count
 *   lifecycle fork K N               K children each call N times
 *   lifecycle exec N                 exec "lifecycle call N" (a fresh mm)
 *   lifecycle threads T N            T threads each call N times
 *
 * Each mode prints "calls=<total>" on success: the exact number of times
 * lc_target ran in this process tree, for tests to compare with hit counts.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noipa)) long lc_target(long x)
{
	sink += x;
	return sink;
}

static void call_n(long n)
{
	for (long i = 0; i < n; i++)
		lc_target(i);
}

/* Called once by "call": a string argument for fetch-arg tests. */
__attribute__((noipa)) size_t lc_name(const char *name)
{
	return strlen(name);
}

static int exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static void *thread_fn(void *arg)
{
	call_n(*(long *)arg);
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: lifecycle call N | wait FILE N | spin FILE | fork K N | exec N | threads T N\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "call")) {
		long n = atol(argv[2]);

		lc_name("lifecycle-call");
		call_n(n);
		printf("calls=%ld\n", n);
	} else if (argc == 4 && !strcmp(argv[1], "wait")) {
		long n = atol(argv[3]);

		while (!exists(argv[2]))
			usleep(10000);
		call_n(n);
		printf("calls=%ld\n", n);
	} else if (argc == 3 && !strcmp(argv[1], "spin")) {
		long n = 0;

		while (!exists(argv[2])) {
			lc_target(n++);
			if (n % 1000 == 0)
				usleep(1000);
		}
		printf("calls=%ld\n", n);
	} else if (argc == 4 && !strcmp(argv[1], "fork")) {
		int k = atoi(argv[2]), status, bad = 0;
		long n = atol(argv[3]);

		for (int i = 0; i < k; i++) {
			pid_t pid = fork();

			if (pid < 0) {
				perror("fork");
				return 1;
			}
			if (pid == 0) {
				call_n(n);
				_exit(0);
			}
		}
		while (wait(&status) > 0)
			bad |= !WIFEXITED(status) || WEXITSTATUS(status);
		if (bad)
			return 1;
		printf("calls=%ld\n", k * n);
	} else if (argc == 3 && !strcmp(argv[1], "exec")) {
		fflush(stdout);
		execl("/proc/self/exe", "lifecycle", "call", argv[2], (char *)NULL);
		perror("execl");
		return 1;
	} else if (argc == 4 && !strcmp(argv[1], "threads")) {
		int t = atoi(argv[2]);
		long n = atol(argv[3]);
		pthread_t tid[64];

		if (t < 1 || t > 64)
			return usage();
		for (int i = 0; i < t; i++)
			if (pthread_create(&tid[i], NULL, thread_fn, &n))
				return 1;
		for (int i = 0; i < t; i++)
			pthread_join(tid[i], NULL);
		printf("calls=%ld\n", t * n);
	} else {
		return usage();
	}
	return 0;
}
