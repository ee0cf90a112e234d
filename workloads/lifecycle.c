// SPDX-License-Identifier: GPL-2.0
/*
 * lifecycle: calls lc_target() in the ways the probe lifecycle tests need.
 *
 *   lifecycle call N                 call lc_name("lifecycle-call") once,
 *                                    then lc_target N times
 *   lifecycle wait FILE N            create FILE.ready.PID, wait until FILE
 *                                    exists, then call N times
 *   lifecycle spin FILE              call until FILE exists; print the count;
 *                                    every 1000 calls, write the count so
 *                                    far to FILE.count
 *   lifecycle fork K N               K children each call N times
 *   lifecycle swapexit N             children A and B hand over to each
 *                                    other through pipes on one CPU (so
 *                                    perf swaps their contexts), A exits
 *                                    while B goes on: 2 + N + N calls
 *   lifecycle swapexec N             the same, but B goes on in a fresh mm:
 *                                    it execs "lifecycle call N"
 *   lifecycle exec N                 exec "lifecycle call N" (a fresh mm)
 *   lifecycle vfork N                a vfork child calls N times in the
 *                                    parent's mm, then execs "lifecycle
 *                                    call N"; the parent calls N times
 *                                    after it: 3N calls
 *   lifecycle spawn N                posix_spawn "lifecycle call N", then
 *                                    N calls of its own: 2N calls
 *   lifecycle threads T N            T threads each call N times
 *   lifecycle sum N                  call N times, print "sum=" the sum of
 *                                    what lc_target returned
 *
 * Each mode prints "calls=<total>" on success: the exact number of times
 * lc_target ran in this process tree, for tests to compare with hit counts.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
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

/* Create PREFIX.SUFFIX (SUFFIX NULL: PREFIX.PID) and return its fd. */
static int make_file(const char *prefix, const char *suffix)
{
	char path[4096];
	int fd;

	if (suffix)
		snprintf(path, sizeof(path), "%s.%s", prefix, suffix);
	else
		snprintf(path, sizeof(path), "%s.%d", prefix, (int)getpid());
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		exit(1);
	}
	return fd;
}

static void *thread_fn(void *arg)
{
	call_n(*(long *)arg);
	return NULL;
}

/* Wait for every child; print the tree's calls if all exited with 0. */
static int reap_children(long calls)
{
	int status, bad = 0;

	while (wait(&status) > 0)
		bad |= !WIFEXITED(status) || WEXITSTATUS(status);
	if (bad)
		return 1;
	printf("calls=%ld\n", calls);
	return 0;
}

/*
 * Two children that hand over to each other on one CPU: B wakes A and
 * blocks, so the scheduler switches from B to A directly (perf then swaps
 * their equivalent inherited contexts); A calls N times and exits while
 * B, still blocked, has A's counters; B goes on with N more calls, in its
 * own mm or, with @exec, in the one exec gives it.
 */
static int swap_exit(long n, int exec)
{
	int ab[2], ba[2];
	char c = 0;
	pid_t a, b;

	if (pipe(ab) || pipe(ba))
		return 1;
	a = fork();
	if (a < 0)
		return 1;
	if (!a) {
		if (read(ab[0], &c, 1) != 1)
			_exit(1);
		call_n(n);
		_exit(write(ba[1], &c, 1) == 1 ? 0 : 1);
	}
	b = fork();
	if (b < 0)
		return 1;
	if (!b) {
		call_n(2);
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			_exit(1);
		/* A has exited or is exiting; wait for it to be gone */
		while (kill(a, 0) == 0)
			usleep(1000);
		if (exec) {
			char arg[32];

			snprintf(arg, sizeof(arg), "%ld", n);
			execl("/proc/self/exe", "lifecycle", "call", arg, (char *)NULL);
			_exit(1);
		}
		call_n(n);
		_exit(0);
	}
	return reap_children(2 + 2 * n);
}

/* A vfork child calls in its parent's mm before it execs. */
static int vfork_exec(long n)
{
	char arg[32];
	pid_t pid;

	snprintf(arg, sizeof(arg), "%ld", n);
	fflush(stdout);
	pid = vfork();
	if (pid < 0)
		return 1;
	if (!pid) {
		call_n(n);
		execl("/proc/self/exe", "lifecycle", "call", arg, (char *)NULL);
		_exit(1);
	}
	call_n(n);
	return reap_children(3 * n);
}

extern char **environ;

static int spawn(long n)
{
	char arg[32];
	char *args[] = { "lifecycle", "call", arg, NULL };
	pid_t pid;

	snprintf(arg, sizeof(arg), "%ld", n);
	fflush(stdout);
	if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, args, environ))
		return 1;
	call_n(n);
	return reap_children(2 * n);
}

static int usage(void)
{
	fprintf(stderr, "usage: lifecycle call N | wait FILE N | spin FILE | fork K N | swapexit N | swapexec N | exec N | vfork N | spawn N | threads T N | sum N\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "sum")) {
		long n = atol(argv[2]), sum = 0;

		for (long i = 0; i < n; i++)
			sum += lc_target(i);
		printf("sum=%ld\n", sum);
	} else if (argc == 3 && !strcmp(argv[1], "call")) {
		long n = atol(argv[2]);

		lc_name("lifecycle-call");
		call_n(n);
		printf("calls=%ld\n", n);
	} else if (argc == 4 && !strcmp(argv[1], "wait")) {
		long n = atol(argv[3]);
		char ready[4096];

		snprintf(ready, sizeof(ready), "%s.ready", argv[2]);
		close(make_file(ready, NULL));
		while (!exists(argv[2]))
			usleep(10000);
		call_n(n);
		printf("calls=%ld\n", n);
	} else if (argc == 3 && !strcmp(argv[1], "spin")) {
		int count_fd = make_file(argv[2], "count");
		char count[32];
		long n = 0;

		while (!exists(argv[2])) {
			lc_target(n++);
			if (n % 1000 == 0) {
				int len = snprintf(count, sizeof(count),
						   "%ld\n", n);

				if (pwrite(count_fd, count, len, 0) != len)
					return 1;
				usleep(1000);
			}
		}
		printf("calls=%ld\n", n);
	} else if (argc == 4 && !strcmp(argv[1], "fork")) {
		int k = atoi(argv[2]);
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
		return reap_children(k * n);
	} else if (argc == 3 && !strcmp(argv[1], "swapexit")) {
		return swap_exit(atol(argv[2]), 0);
	} else if (argc == 3 && !strcmp(argv[1], "swapexec")) {
		return swap_exit(atol(argv[2]), 1);
	} else if (argc == 3 && !strcmp(argv[1], "vfork")) {
		return vfork_exec(atol(argv[2]));
	} else if (argc == 3 && !strcmp(argv[1], "spawn")) {
		return spawn(atol(argv[2]));
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
