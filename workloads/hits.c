// SPDX-License-Identifier: GPL-2.0
/*
 * hits: call a function whose first instruction is of a chosen class N times.
 *
 *   hits CLASS N     call hit_CLASS N times; print "CLASS N ns_per_call"
 *   hits CLASS N T   the same in T threads at once (N calls each); the time
 *                    is per call over all threads (wall time / T*N)
 *   hits --list      print the classes, one per line
 *   hits syscall N   make N getppid system calls (the floor for a probe hit)
 *   hits mapfork N   N times map and unmap this program's file executable,
 *                    and fork a child that exits at once every 8th time
 *                    (what probes elsewhere must not slow down)
 *
 * Each hit_* function is written in assembly so that its first instruction,
 * the one a uprobe on the symbol replaces, is exactly the named class.  The
 * functions leave the caller's state alone apart from %rax, %rcx and flags.
 * The hit counts are exact (tests); the timing is for `make bench`.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

long hit_data = 42;

__asm__(
	".text\n"
#define HIT(name, body) \
	".globl hit_" #name "\n" \
	".type hit_" #name ", @function\n" \
	"hit_" #name ":\n" body \
	".size hit_" #name ", .-hit_" #name "\n"
	HIT(nop,	"nop\n ret\n")
	HIT(nop5,	".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n ret\n")
	HIT(endbr64,	"endbr64\n ret\n")
	HIT(push,	"push %rbp\n pop %rbp\n ret\n")
	HIT(movrr,	"mov %rdi, %rax\n ret\n")
	HIT(subrsp,	"sub $8, %rsp\n add $8, %rsp\n ret\n")
	HIT(lea,	"lea 8(%rdi), %rax\n ret\n")
	HIT(riprel,	"mov hit_data(%rip), %rax\n ret\n")
	HIT(call,	"call 1f\n ret\n 1: ret\n")
	HIT(jmp,	"jmp 1f\n ud2\n 1: ret\n")
	HIT(jcc,	"jne 1f\n nop\n 1: ret\n")
);

#define CLASSES(X) X(nop) X(nop5) X(endbr64) X(push) X(movrr) X(subrsp) X(lea) \
		   X(riprel) X(call) X(jmp) X(jcc)
#define DECLARE(name) long hit_##name(long);
CLASSES(DECLARE)

static const struct hit_class {
	const char *name;
	long (*fn)(long);
} classes[] = {
#define ENTRY(name) { #name, hit_##name },
	CLASSES(ENTRY)
};

#define NR_CLASSES (sizeof(classes) / sizeof(classes[0]))

static long null_syscall(long arg)
{
	return syscall(SYS_getppid) + arg;
}

static int self_fd = -1;

static long map_fork(long k)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, self_fd, 0);
	pid_t pid;

	if (p == MAP_FAILED || munmap(p, 4096))
		exit(1);
	if (k % 8)
		return 0;
	pid = fork();
	if (pid < 0)
		exit(1);
	if (!pid)
		_exit(0);
	return waitpid(pid, NULL, 0) == pid ? 0 : -1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

struct __attribute__((aligned(64))) worker {
	const struct hit_class *c;
	long n, sum;
	pthread_t tid;
};

static void *run_worker(void *arg)
{
	struct worker *w = arg;

	for (long k = 0; k < w->n; k++)
		w->sum += w->c->fn(k);
	return NULL;
}

int main(int argc, char **argv)
{
	const struct hit_class *c = NULL;
	struct worker w[64];
	long n, t = 1, sum = 0;
	double start;
	size_t i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < NR_CLASSES; i++)
			printf("%s\n", classes[i].name);
		return 0;
	}
	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: hits CLASS N [THREADS] | hits --list\n");
		return 2;
	}
	for (i = 0; i < NR_CLASSES; i++)
		if (!strcmp(argv[1], classes[i].name))
			c = &classes[i];
	if (!strcmp(argv[1], "syscall")) {
		static const struct hit_class sys = { "syscall", null_syscall };

		c = &sys;
	}
	if (!strcmp(argv[1], "mapfork")) {
		static const struct hit_class mapfork = { "mapfork", map_fork };

		self_fd = open("/proc/self/exe", O_RDONLY);
		if (self_fd < 0) {
			perror("hits: /proc/self/exe");
			return 1;
		}
		c = &mapfork;
	}
	n = atol(argv[2]);
	if (argc == 4)
		t = atol(argv[3]);
	if (!c || n < 0 || t < 1 || t > 64) {
		fprintf(stderr, "hits: unknown class '%s' or bad count\n", argv[1]);
		return 2;
	}
	start = now_ns();
	for (long k = 0; k < t; k++) {
		w[k] = (struct worker){ .c = c, .n = n };
		if (t > 1 && pthread_create(&w[k].tid, NULL, run_worker, &w[k]))
			return 1;
	}
	if (t == 1)
		run_worker(&w[0]);
	for (long k = 0; k < t; k++) {
		if (t > 1)
			pthread_join(w[k].tid, NULL);
		sum += w[k].sum;
	}
	printf("%s %ld %.1f\n", c->name, n * t, n ? (now_ns() - start) / (n * t) : 0.0);
	return sum == -1;
}
