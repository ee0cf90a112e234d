// SPDX-License-Identifier: GPL-2.0
/*
 * sigstorm: probed calls under a storm of signals.
 *
 *   sigstorm step N     the probed function is ss_step (its first instruction,
 *                       a %rip-relative load, is single-stepped out of line)
 *   sigstorm push N     the probed function is ss_push (first instruction
 *                       push %rbp, which x86 uprobes emulate)
 *
 * The main thread calls the function N times with 0..N-1 while a 100us
 * ITIMER_REAL sends SIGALRM and a second thread sends SIGUSR1 to the main
 * thread without pause; both handlers call the function too.  The main loop
 * does not make call i until the handlers have run at least i/64 times, so
 * signals arrive all through the run whatever the cost of a probe hit.
 * Every result is checked against the same computation done in C.
 *
 * Prints "main=N handler=H sum=S bad=B": the calls made by main and by the
 * handlers (all in the main thread: the sender thread blocks every signal),
 * the sum of main's results (independent of timing) and the number of wrong
 * results.  Exit status 1 on a wrong result or a 60 s timeout.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

long ss_step(long x);
long ss_push(long x);

/* ss_step(x) = x * K; ss_push(x) = 3x + 3. */
asm(".section .rodata\n"
    ".p2align 3\n"
    "ss_k: .quad 0x9e3779b97f4a7c15\n"
    ".text\n"
    ".globl ss_step\n"
    ".type ss_step, @function\n"
    ".p2align 4\n"
    "ss_step:\n"
    "	movq ss_k(%rip), %rax\n"
    "	imulq %rdi, %rax\n"
    "	ret\n"
    ".size ss_step, .-ss_step\n"
    ".globl ss_push\n"
    ".type ss_push, @function\n"
    ".p2align 4\n"
    "ss_push:\n"
    "	pushq %rbp\n"
    "	movq %rsp, %rbp\n"
    "	leaq 3(%rdi,%rdi,2), %rax\n"
    "	popq %rbp\n"
    "	ret\n"
    ".size ss_push, .-ss_push\n");

static long (*fn)(long);
static unsigned long (*expect)(unsigned long);
static volatile long handler_calls, handler_bad;
static volatile int stop;
static pthread_t main_thread;

static unsigned long expect_step(unsigned long x)
{
	return x * 0x9e3779b97f4a7c15UL;
}

static unsigned long expect_push(unsigned long x)
{
	return 3 * x + 3;
}

/* Both signals are blocked while a handler runs: no nesting, exact counts. */
static void handler(int sig)
{
	long x = handler_calls + 1000000 * sig;

	if ((unsigned long)fn(x) != expect(x))
		handler_bad++;
	handler_calls++;
}

static void *sender(void *arg)
{
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	while (!stop) {
		pthread_kill(main_thread, SIGUSR1);
		usleep(20);
	}
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct itimerval tv = { { 0, 100 }, { 0, 100 } }, off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa;
	unsigned long sum = 0;
	long n, bad = 0, h;
	double deadline = now() + 60;
	pthread_t tid;
	sigset_t both;

	if (argc == 3 && !strcmp(argv[1], "step")) {
		fn = ss_step;
		expect = expect_step;
	} else if (argc == 3 && !strcmp(argv[1], "push")) {
		fn = ss_push;
		expect = expect_push;
	} else {
		fprintf(stderr, "usage: sigstorm step|push N\n");
		return 2;
	}
	n = atol(argv[2]);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGALRM);
	sigaddset(&sa.sa_mask, SIGUSR1);
	if (sigaction(SIGALRM, &sa, NULL) || sigaction(SIGUSR1, &sa, NULL)) {
		perror("sigaction");
		return 1;
	}
	main_thread = pthread_self();
	if (pthread_create(&tid, NULL, sender, NULL)) {
		fprintf(stderr, "pthread_create failed\n");
		return 1;
	}
	if (setitimer(ITIMER_REAL, &tv, NULL)) {
		perror("setitimer");
		return 1;
	}

	for (long i = 0; i < n; i++) {
		unsigned long r;

		while (handler_calls < i / 64) {
			if (now() > deadline) {
				fprintf(stderr, "timeout: %ld handler calls at call %ld\n",
					handler_calls, i);
				return 1;
			}
		}
		r = fn(i);
		if (r != expect(i))
			bad++;
		sum += r;
	}

	/* Quiet: no timer, no sender, no signal pending or in a handler. */
	setitimer(ITIMER_REAL, &off, NULL);
	stop = 1;
	pthread_join(tid, NULL);
	sigemptyset(&both);
	sigaddset(&both, SIGALRM);
	sigaddset(&both, SIGUSR1);
	signal(SIGALRM, SIG_IGN);
	signal(SIGUSR1, SIG_IGN);
	sigprocmask(SIG_BLOCK, &both, NULL);
	h = handler_calls;
	bad += handler_bad;
	printf("main=%ld handler=%ld sum=%lu bad=%ld\n", n, h, sum, bad);
	return bad ? 1 : 0;
}
