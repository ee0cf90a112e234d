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
 * "malloc-graph --expect" prints the table the tests compare against.
 * "malloc-graph --hold FILE" prints "malloc-graph: done" once both threads
 * are done, and both wait until FILE exists before they exit, so that a
 * tracer can still read the maps of each to name the frames.
 * Every function is noinline, and sibling-call optimisation is off in the
 * Makefile, so each frame really exists on the stack.
 */
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
		free(alloc_leaf(16 + i % 8));
}

__attribute__((noinline)) void path_direct(void)
{
	alloc_mid(CHAIN_DIRECT);
	keep(NULL);
}

__attribute__((noinline)) void path_short(void)
{
	for (int i = 0; i < CHAIN_SHORT; i++)
		free(alloc_leaf(64));
	keep(NULL);
}

__attribute__((noinline)) void *rec_leaf(void)
{
	void *p = malloc(24);

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
	void *p = malloc(48);

	keep(p);
	return p;
}

static const char *hold_file;
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

	for (int i = 0; i < count; i++)
		free(thread_leaf());
	keep(NULL);
	__atomic_store_n(&thread_done, 1, __ATOMIC_RELEASE);
	hold();
	return NULL;
}

static void print_expect(void)
{
	printf("%d malloc;alloc_leaf;alloc_mid;path_direct;main\n", CHAIN_DIRECT);
	printf("%d malloc;alloc_leaf;path_short;main\n", CHAIN_SHORT);
	printf("%d malloc;lib_leaf;lib_entry;main\n", CHAIN_LIB);
	printf("%d malloc;rec_leaf", CHAIN_REC);
	for (int i = 0; i < REC_DEPTH; i++)
		printf(";recurse");
	printf(";main\n");
	printf("%d malloc;thread_leaf;thread_main\n", CHAIN_THREAD);
}

int main(int argc, char **argv)
{
	int thread_count = CHAIN_THREAD;
	pthread_t thread;

	if (argc > 1 && !strcmp(argv[1], "--expect")) {
		print_expect();
		return 0;
	}
	if (argc > 2 && !strcmp(argv[1], "--hold"))
		hold_file = argv[2];
	if (pthread_create(&thread, NULL, thread_main, &thread_count)) {
		perror("pthread_create");
		return 1;
	}
	path_direct();
	path_short();
	lib_entry(CHAIN_LIB);
	for (int i = 0; i < CHAIN_REC; i++)
		recurse(REC_DEPTH);
	while (!__atomic_load_n(&thread_done, __ATOMIC_ACQUIRE))
		usleep(1000);
	printf("malloc-graph: done\n");
	/* not fflush(stdout): no copy of libc's stdout in this program */
	fflush(NULL);
	hold();
	pthread_join(thread, NULL);
	return 0;
}
