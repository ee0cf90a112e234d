// SPDX-License-Identifier: GPL-2.0
/*
 * malloc-graph: reaches malloc() through a fixed tree of call paths with known
 * counts, so a uprobe on malloc must see exactly these chains (innermost
 * caller first) with exactly these numbers of calls:
 *
 *   malloc <- alloc_leaf <- alloc_mid <- path_direct <- main        CHAIN_DIRECT
 *   malloc <- alloc_leaf <- path_short <- main                      CHAIN_SHORT
 *   malloc <- lib_leaf <- lib_entry <- main          (libmg.so)     CHAIN_LIB
 *   malloc <- rec_leaf <- recurse x4 <- main         (recursive)    CHAIN_REC
 *   malloc <- thread_leaf <- thread_main             (2nd thread)   CHAIN_THREAD
 *
 * "--thread-name NAME" names the second thread NAME (the comm a profiler
 * shows for its samples).
 *
 * With --allocators it also calls calloc() and realloc():
 *
 *   calloc <- calloc_leaf <- path_calloc <- main                    CHAIN_CALLOC
 *   realloc <- realloc_leaf <- path_realloc <- main   (3 per round) CHAIN_REALLOC
 *
 * each realloc round asking for REALLOC_FIRST bytes of NULL (glibc's
 * realloc() calls malloc() for them), growing them to REALLOC_GROW and
 * freeing them with realloc(p, 0).
 *
 * "malloc-graph --expect [--allocators]" prints the table the tests compare
 * against, and "--expect-bytes" the bytes each chain asks for, in the same
 * form (calloc: nmemb * size).
 * "malloc-graph --hold FILE" prints "malloc-graph: done" once both threads
 * are done, and both wait until FILE exists before they exit, so that a
 * tracer can still read the maps of each to name the frames.
 * Every function is noinline, and sibling-call optimisation is off in the
 * Makefile, so each frame really exists on the stack.
 */
#define _GNU_SOURCE	/* pthread_setname_np() */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "malloc-graph.h"

#define CHAIN_DIRECT	100
#define CHAIN_SHORT	40
#define CHAIN_LIB	60
#define CHAIN_REC	25
#define CHAIN_THREAD	80
#define CHAIN_CALLOC	30
#define CHAIN_REALLOC	20
#define REC_DEPTH	4

__attribute__((noinline)) void *alloc_leaf(size_t n)
{
	void *p = malloc(n);

	keep(p);
	return p;
}

__attribute__((noinline)) void alloc_mid(int count)
{
	for (int i = 0; i < count; i++)
		free(alloc_leaf(DIRECT_SIZE(i)));
}

__attribute__((noinline)) void path_direct(void)
{
	alloc_mid(CHAIN_DIRECT);
	keep(NULL);
}

__attribute__((noinline)) void path_short(void)
{
	for (int i = 0; i < CHAIN_SHORT; i++)
		free(alloc_leaf(SHORT_SIZE));
	keep(NULL);
}

__attribute__((noinline)) void *rec_leaf(void)
{
	void *p = malloc(REC_SIZE);

	keep(p);
	return p;
}

__attribute__((noinline)) void recurse(int depth)
{
	if (depth > 1)
		recurse(depth - 1);
	else
		free(rec_leaf());
	keep(NULL);
}

__attribute__((noinline)) void *thread_leaf(void)
{
	void *p = malloc(THREAD_SIZE);

	keep(p);
	return p;
}

__attribute__((noinline)) void *calloc_leaf(size_t size)
{
	void *p = calloc(CALLOC_NMEMB, size);

	keep(p);
	return p;
}

__attribute__((noinline)) void path_calloc(void)
{
	for (int i = 0; i < CHAIN_CALLOC; i++)
		free(calloc_leaf(CALLOC_SIZE(i)));
	keep(NULL);
}

__attribute__((noinline)) void *realloc_leaf(void *p, size_t n)
{
	p = realloc(p, n);
	keep(p);
	return p;
}

__attribute__((noinline)) void path_realloc(void)
{
	for (int i = 0; i < CHAIN_REALLOC; i++) {
		void *p = realloc_leaf(NULL, REALLOC_FIRST);

		p = realloc_leaf(p, REALLOC_GROW);
		realloc_leaf(p, 0);	/* frees p */
	}
	keep(NULL);
}

static const char *hold_file;
static const char *thread_name;
static int thread_done;

static void hold(void)
{
	struct stat st;

	while (hold_file && stat(hold_file, &st))
		usleep(10000);
}

__attribute__((noinline)) void *thread_main(void *arg)
{
	int count = *(int *)arg;

	if (thread_name)
		pthread_setname_np(pthread_self(), thread_name);
	for (int i = 0; i < count; i++)
		free(thread_leaf());
	keep(NULL);
	__atomic_store_n(&thread_done, 1, __ATOMIC_RELEASE);
	hold();
	return NULL;
}

/*
 * Each chain with its calls, or with the bytes they ask for if @bytes; the
 * calloc() and realloc() chains too if @allocators.
 */
static void print_expect(int bytes, int allocators)
{
	long direct = 0, lib = 0, callocs = 0;

	for (int i = 0; i < CHAIN_DIRECT; i++)
		direct += DIRECT_SIZE(i);
	for (int i = 0; i < CHAIN_LIB; i++)
		lib += LIB_SIZE(i);
	for (int i = 0; i < CHAIN_CALLOC; i++)
		callocs += CALLOC_NMEMB * CALLOC_SIZE(i);
	printf("%ld malloc;alloc_leaf;alloc_mid;path_direct;main\n",
	       bytes ? direct : CHAIN_DIRECT);
	printf("%ld malloc;alloc_leaf;path_short;main\n",
	       bytes ? (long)CHAIN_SHORT * SHORT_SIZE : CHAIN_SHORT);
	printf("%ld malloc;lib_leaf;lib_entry;main\n", bytes ? lib : CHAIN_LIB);
	printf("%ld malloc;rec_leaf",
	       bytes ? (long)CHAIN_REC * REC_SIZE : CHAIN_REC);
	for (int i = 0; i < REC_DEPTH; i++)
		printf(";recurse");
	printf(";main\n");
	printf("%ld malloc;thread_leaf;thread_main\n",
	       bytes ? (long)CHAIN_THREAD * THREAD_SIZE : CHAIN_THREAD);
	if (!allocators)
		return;
	printf("%ld calloc;calloc_leaf;path_calloc;main\n",
	       bytes ? callocs : CHAIN_CALLOC);
	printf("%ld realloc;realloc_leaf;path_realloc;main\n",
	       bytes ? (long)CHAIN_REALLOC * (REALLOC_FIRST + REALLOC_GROW) :
		       3L * CHAIN_REALLOC);
}

int main(int argc, char **argv)
{
	int thread_count = CHAIN_THREAD;
	int expect = 0, bytes = 0, allocators = 0;
	pthread_t thread;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--expect")) {
			expect = 1;
		} else if (!strcmp(argv[i], "--expect-bytes")) {
			expect = bytes = 1;
		} else if (!strcmp(argv[i], "--allocators")) {
			allocators = 1;
		} else if (!strcmp(argv[i], "--hold") && i + 1 < argc) {
			hold_file = argv[++i];
		} else if (!strcmp(argv[i], "--thread-name") && i + 1 < argc &&
			   strlen(argv[i + 1]) < 16) {
			thread_name = argv[++i];
		} else {
			fprintf(stderr, "usage: malloc-graph [--expect|--expect-bytes] "
				"[--allocators] [--hold FILE] [--thread-name NAME]\n"
				"  (NAME: at most 15 bytes)\n");
			return 2;
		}
	}
	if (expect) {
		print_expect(bytes, allocators);
		return 0;
	}
	if (pthread_create(&thread, NULL, thread_main, &thread_count)) {
		perror("pthread_create");
		return 1;
	}
	path_direct();
	path_short();
	lib_entry(CHAIN_LIB);
	for (int i = 0; i < CHAIN_REC; i++)
		recurse(REC_DEPTH);
	if (allocators) {
		path_calloc();
		path_realloc();
	}
	while (!__atomic_load_n(&thread_done, __ATOMIC_ACQUIRE))
		usleep(1000);
	printf("malloc-graph: done\n");
	/* not fflush(stdout): no copy of libc's stdout in this program */
	fflush(NULL);
	hold();
	pthread_join(thread, NULL);
	return 0;
}
