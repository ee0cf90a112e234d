// SPDX-License-Identifier: GPL-2.0
/*
 * sharedtext: the 1000 functions of manyprobes.S (mp_N(x) = x + N + 1,
 * 16 bytes apart), driven so that a test can look at the probed text pages
 * of a live process between runs (test 98-shared-text).  A file of its own,
 * so that manyprobes, which other tests and make bench probe at fixed
 * places, keeps its layout.
 *
 *   sharedtext run R          R rounds, each calling mp_0 .. mp_999 once;
 *                             prints "rounds=R calls=<1000R> bad=B sum=S"
 *   sharedtext hold R FIFO    R rounds as above, then create FIFO.ready.<pid>
 *                             and wait until FIFO is opened for writing and
 *                             closed; exits 0 if no result was bad
 *   sharedtext cmd            commands on standard input, one a line; each
 *                             answers one line (fork: two):
 *     r R        R rounds: the "rounds=..." line
 *     d          madvise(MADV_DONTNEED) over every page holding mp_0 ..
 *                mp_999, main's code included: "dontneed"
 *     m          munmap the pages that hold only mp_ functions and mmap the
 *                same range of the program's file there again: "remapped"
 *     f FIFO R   fork a child that runs R rounds, prints "child PID " and its
 *                rounds line, then waits on FIFO as hold does and exits;
 *                the parent answers "forked PID" once the child has printed
 *     w          wait for the last forked child: "child exit STATUS"
 *
 * Exit status: 1 if any result was bad, 0 otherwise.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mp-rounds.h"
#include "selfmap.h"

#define PAGE 4096UL

static long bad_total;

/* R rounds, reported as manyprobes does; wrong results count in bad_total. */
static void run_rounds(long rounds, const char *prefix)
{
	bad_total += mp_rounds(rounds, prefix);
}

/* The file offset at which the mapping holding ADDR maps it; 0 if none. */
static int file_offset_of(uintptr_t addr, off_t *off)
{
	uintptr_t start, end;

	if (!find_map(addr, &start, &end, off))
		return 0;
	*off += (off_t)(addr - start);
	return 1;
}

/* munmap the pages that hold only mp_ functions, map them again. */
static int remap_text(void)
{
	uintptr_t start = ((uintptr_t)mp_table[0] + PAGE - 1) & ~(PAGE - 1);
	uintptr_t end = ((uintptr_t)mp_table[NFUNCS - 1] + 16) & ~(PAGE - 1);
	void *again;
	off_t off;
	int fd;

	if (end <= start) {
		fprintf(stderr, "sharedtext: no page holds only mp_ functions\n");
		return -1;
	}
	if (!file_offset_of(start, &off)) {
		fprintf(stderr, "sharedtext: no mapping at %#lx\n", (unsigned long)start);
		return -1;
	}
	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0) {
		perror("/proc/self/exe");
		return -1;
	}
	if (munmap((void *)start, end - start)) {
		perror("munmap");
		return -1;
	}
	again = mmap((void *)start, end - start, PROT_READ | PROT_EXEC,
		     MAP_PRIVATE | MAP_FIXED, fd, off);
	close(fd);
	if (again != (void *)start) {
		perror("mmap");
		return -1;
	}
	return 0;
}

static int commands(void)
{
	pid_t child = -1;
	char buf[4200], fifo[4096];
	long n;

	while (fgets(buf, sizeof(buf), stdin)) {
		if (sscanf(buf, "r %ld", &n) == 1) {
			run_rounds(n, "");
		} else if (buf[0] == 'd') {
			uintptr_t start = (uintptr_t)mp_table[0] & ~(PAGE - 1);
			uintptr_t end = ((uintptr_t)mp_table[NFUNCS - 1] + 16 + PAGE - 1) &
					~(PAGE - 1);

			if (madvise((void *)start, end - start, MADV_DONTNEED)) {
				perror("madvise");
				return 1;
			}
			printf("dontneed\n");
		} else if (buf[0] == 'm') {
			if (remap_text())
				return 1;
			printf("remapped\n");
		} else if (sscanf(buf, "f %4095s %ld", fifo, &n) == 2) {
			int pipefd[2];
			char c;

			fflush(stdout);
			if (pipe(pipefd)) {
				perror("pipe");
				return 1;
			}
			child = fork();
			if (child < 0) {
				perror("fork");
				return 1;
			}
			if (!child) {
				char prefix[32];

				snprintf(prefix, sizeof(prefix), "child %d ", (int)getpid());
				run_rounds(n, prefix);
				if (write(pipefd[1], "x", 1) != 1 || mp_wait_for(fifo))
					_exit(1);
				_exit(bad_total ? 1 : 0);
			}
			close(pipefd[1]);
			if (read(pipefd[0], &c, 1) != 1)
				fprintf(stderr, "sharedtext: child %d said nothing\n", (int)child);
			close(pipefd[0]);
			printf("forked %d\n", (int)child);
		} else if (buf[0] == 'w') {
			int status = -1;

			if (child < 0 || waitpid(child, &status, 0) != child)
				printf("child exit none\n");
			else
				printf("child exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
			child = -1;
		} else {
			fprintf(stderr, "sharedtext: bad command %s", buf);
			printf("bad command\n");
		}
		fflush(stdout);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "run")) {
		run_rounds(atol(argv[2]), "");
	} else if (argc == 4 && !strcmp(argv[1], "hold")) {
		run_rounds(atol(argv[2]), "");
		if (mp_wait_for(argv[3]))
			return 1;
	} else if (argc == 2 && !strcmp(argv[1], "cmd")) {
		if (commands())
			return 1;
	} else {
		fprintf(stderr, "usage: sharedtext run R | hold R FIFO | cmd\n");
		return 2;
	}
	return bad_total ? 1 : 0;
}
