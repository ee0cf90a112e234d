// SPDX-License-Identifier: GPL-2.0
/*
 * stall: probe hits next to threads stalled in user-mode page faults, and
 * process exits racing truncates of the files they map.
 *
 *   stall run R              R rounds, each calling st_0 .. st_1099 once;
 *                            prints "calls=<1100R> bad=B"
 *   stall uffd DIR SECS      call st_0 .. st_110 once (they take the 111
 *                            per-probe XOL slots of the mm), then start 16
 *                            threads whose st_N (N = 1080..1095) loads from
 *                            a page a userfaultfd leaves missing, so each
 *                            stalls in a user-mode fault while it steps
 *                            out of line from a scratch slot; create
 *                            DIR/ready and wait for DIR/go; then call
 *                            st_200 .. st_299 and st_1099.  SECS seconds
 *                            after DIR/ready the page is filled; prints
 *                            "stalled=16 bad=B early=yes|no", early: the
 *                            calls after DIR/go finished before that
 *   stall exits FILE N       N times: fork a child that maps FILE, calls
 *                            st_0 (a probe hit) and exits; prints
 *                            "exits=N failed=F"
 *   stall truncate FILE SECS for SECS seconds, truncate FILE to 0 and
 *                            back to 64 KiB; prints "truncates=T"
 *
 * st_N(p) = *p + N + 1; B counts results that differ from that.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NFUNCS		1100
#define NSTALL		16
#define FIRST_STALL	1080

extern long (*const st_table[NFUNCS])(const long *);

static long *missing;		/* the page the userfaultfd leaves missing */
static long good = 1000;
static long bad;
static pthread_mutex_t bad_lock = PTHREAD_MUTEX_INITIALIZER;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void call(long n, const long *p)
{
	long got = st_table[n](p);

	if (got != *p + n + 1) {
		pthread_mutex_lock(&bad_lock);
		bad++;
		pthread_mutex_unlock(&bad_lock);
	}
}

static void *stalled_thread(void *arg)
{
	call((long)arg, missing);
	return NULL;
}

static int uffd;
static time_t release;

/* Fill the missing page at the release time, whatever the others do. */
static void *release_thread(void *arg)
{
	struct uffdio_zeropage zero = { 0 };

	(void)arg;
	while (time(NULL) < release)
		sleep(1);
	zero.range.start = (unsigned long)missing;
	zero.range.len = sysconf(_SC_PAGESIZE);
	if (ioctl(uffd, UFFDIO_ZEROPAGE, &zero))
		die("UFFDIO_ZEROPAGE");
	return NULL;
}

static int uffd_stall(const char *dir, int secs)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { 0 };
	long page = sysconf(_SC_PAGESIZE);
	pthread_t t[NSTALL], releaser;
	char ready[4096], go[4096];
	bool early;
	int fd, i;

	/* user-mode faults only: what an unprivileged process may ask for */
	uffd = syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	if (uffd < 0)
		die("userfaultfd");
	if (ioctl(uffd, UFFDIO_API, &api))
		die("UFFDIO_API");
	missing = mmap(NULL, page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (missing == MAP_FAILED)
		die("mmap");
	reg.range.start = (unsigned long)missing;
	reg.range.len = page;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");

	for (i = 0; i <= 110; i++)
		call(i, &good);
	for (i = 0; i < NSTALL; i++)
		if (pthread_create(&t[i], NULL, stalled_thread,
				   (void *)(long)(FIRST_STALL + i)))
			die("pthread_create");
	sleep(2);		/* let them reach the fault */
	snprintf(ready, sizeof(ready), "%s/ready", dir);
	snprintf(go, sizeof(go), "%s/go", dir);
	release = time(NULL) + secs;
	if (pthread_create(&releaser, NULL, release_thread, NULL))
		die("pthread_create");
	fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(ready);
	close(fd);

	while (access(go, F_OK) && time(NULL) < release)
		usleep(100000);
	for (i = 200; i <= 299; i++)
		call(i, &good);
	call(NFUNCS - 1, &good);
	early = time(NULL) < release;

	pthread_join(releaser, NULL);
	for (i = 0; i < NSTALL; i++)
		pthread_join(t[i], NULL);
	printf("stalled=%d bad=%ld early=%s\n", NSTALL, bad, early ? "yes" : "no");
	return 0;
}

static int exits(const char *file, long n)
{
	long failed = 0;

	for (long i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			int fd = open(file, O_RDONLY);
			void *p;

			if (fd < 0)
				_exit(2);
			p = mmap(NULL, 65536, PROT_READ, MAP_SHARED, fd, 0);
			if (p == MAP_FAILED)
				_exit(3);
			call(0, &good);
			_exit(bad ? 4 : 0);
		}
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	printf("exits=%ld failed=%ld\n", n, failed);
	return 0;
}

static int truncate_loop(const char *file, int secs)
{
	time_t end = time(NULL) + secs;
	long n = 0;
	int fd = open(file, O_RDWR | O_CREAT, 0644);

	if (fd < 0)
		die(file);
	while (time(NULL) < end) {
		if (ftruncate(fd, 0) || ftruncate(fd, 65536))
			die("ftruncate");
		n++;
	}
	printf("truncates=%ld\n", n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "run")) {
		long rounds = atol(argv[2]);

		for (long r = 0; r < rounds; r++)
			for (long n = 0; n < NFUNCS; n++)
				call(n, &good);
		printf("calls=%ld bad=%ld\n", rounds * NFUNCS, bad);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "uffd"))
		return uffd_stall(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "exits"))
		return exits(argv[2], atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "truncate"))
		return truncate_loop(argv[2], atoi(argv[3]));
	fprintf(stderr, "usage: stall run R | uffd DIR SECS | exits FILE N | truncate FILE SECS\n");
	return 2;
}
