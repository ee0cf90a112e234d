// SPDX-License-Identifier: GPL-2.0
/*
 * failshim.so: LD_PRELOAD'ed into a command to make one of its calls
 * fail, to check that the command reports the failure instead of going
 * on with partial results.  Each variable picks the call:
 *   FAILSHIM_REALLOC_SIZE=N    realloc() of exactly N bytes returns NULL
 *   FAILSHIM_STRDUP_PREFIX=S   strdup() of a string starting with S
 *                              returns NULL
 *   FAILSHIM_STRNDUP_PREFIX=S  strndup() likewise
 *   FAILSHIM_WRITE_SHORT=S     write() of a buffer starting with S
 *                              writes nothing and returns one byte short,
 *                              errno left 0
 * With FAILSHIM_LOG=FILE, each failure made is noted in FILE, so that a
 * test can tell a command that coped from one that never got there.
 * realloc() is the C library's too (getline() grows its buffer with it:
 * the C library lets a preloaded library replace its allocator); the
 * others are only the command's own calls.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/* Note @what in FAILSHIM_LOG, past our own write() */
static void note(const char *what)
{
	const char *log = env("FAILSHIM_LOG");
	int fd, saved = errno;

	if (!log)
		return;
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd >= 0) {
		syscall(SYS_write, fd, what, strlen(what));
		close(fd);
	}
	errno = saved;
}

void *realloc(void *ptr, size_t size)
{
	static void *(*real)(void *, size_t);
	const char *want = env("FAILSHIM_REALLOC_SIZE");

	if (want && strtoul(want, NULL, 10) == size) {
		note("realloc\n");
		errno = ENOMEM;
		return NULL;
	}
	if (!real)
		real = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	return real(ptr, size);
}

char *strdup(const char *s)
{
	const char *want = env("FAILSHIM_STRDUP_PREFIX");
	size_t len = strlen(s) + 1;
	char *copy;

	if (want && !strncmp(s, want, strlen(want))) {
		note("strdup\n");
		errno = ENOMEM;
		return NULL;
	}
	copy = malloc(len);
	if (copy)
		memcpy(copy, s, len);
	return copy;
}

char *strndup(const char *s, size_t n)
{
	const char *want = env("FAILSHIM_STRNDUP_PREFIX");
	size_t len = strnlen(s, n);
	char *copy;

	if (want && !strncmp(s, want, strlen(want))) {
		note("strndup\n");
		errno = ENOMEM;
		return NULL;
	}
	copy = malloc(len + 1);
	if (copy) {
		memcpy(copy, s, len);
		copy[len] = '\0';
	}
	return copy;
}

ssize_t write(int fd, const void *buf, size_t count)
{
	static ssize_t (*real)(int, const void *, size_t);
	const char *want = env("FAILSHIM_WRITE_SHORT");

	if (want && count > 0 && count >= strlen(want) &&
	    !memcmp(buf, want, strlen(want))) {
		note("write\n");
		errno = 0;
		return count - 1;
	}
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	return real(fd, buf, count);
}
