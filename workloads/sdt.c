// SPDX-License-Identifier: GPL-2.0
/*
 * sdt: an SDT-style semaphore (a probe's ref_ctr_offset) and its probe site.
 *
 *   sdt watch DIR [fork]
 *
 * sdt_sema lives in the writable ".probes" section, as <sys/sdt.h> puts
 * semaphores; the kernel adds 1 to it in each process while a probe with
 * this ref_ctr_offset is enabled.  The program appends to DIR/out:
 *   "start sema=V"   first thing in main
 *   "sema=V"         each time the file DIR/q appears (it removes DIR/q,
 *                    answers, then creates DIR/a); when V is not 0 it calls
 *                    the probed sdt_fn once, as an SDT site would
 * and exits when DIR/stop exists.  With "fork", right after "start" it makes
 * DIR/child and forks a child that, in DIR/child, says "start sema=V" (its
 * value right after the fork) and watches the same way.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((section(".probes"))) volatile unsigned short sdt_sema;
static volatile long sink;

__attribute__((noipa)) long sdt_fn(long x)
{
	sink += x;
	return sink;
}

static int exists(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0;
}

static int say(const char *dir, const char *what, unsigned int v)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/out", dir);
	f = fopen(path, "a");
	if (!f)
		return -1;
	fprintf(f, "%s%u\n", what, v);
	return fclose(f);
}

static int watch(const char *dir)
{
	char q[4096], a[4096];
	long n = 0;

	snprintf(q, sizeof(q), "%s/q", dir);
	snprintf(a, sizeof(a), "%s/a", dir);
	while (!exists(dir, "stop")) {
		unsigned int v;
		int fd;

		if (!exists(dir, "q")) {
			usleep(10000);
			continue;
		}
		unlink(q);
		v = sdt_sema;
		if (v)
			sdt_fn(++n);
		if (say(dir, "sema=", v))
			return 1;
		fd = open(a, O_WRONLY | O_CREAT, 0644);
		if (fd < 0)
			return 1;
		close(fd);
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int v = sdt_sema;
	char child_dir[4096];
	int status, rc;
	pid_t pid;

	if (argc < 3 || argc > 4 || strcmp(argv[1], "watch") ||
	    (argc == 4 && strcmp(argv[3], "fork"))) {
		fprintf(stderr, "usage: sdt watch DIR [fork]\n");
		return 2;
	}
	if (say(argv[2], "start sema=", v))
		return 1;
	if (argc == 3)
		return watch(argv[2]);

	snprintf(child_dir, sizeof(child_dir), "%s/child", argv[2]);
	mkdir(child_dir, 0755);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0)
		return say(child_dir, "start sema=", sdt_sema) ? 1 : watch(child_dir);
	rc = watch(argv[2]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		rc = 1;
	return rc;
}
