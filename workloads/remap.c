// SPDX-License-Identifier: GPL-2.0
/*
 * remap: probed library text that moves and goes away.
 *
 *   remap K [LIB]     LIB defaults to libremap.so next to this program
 *
 *   phase 1: dlopen LIB, call rl_target(1000000 + i) K times
 *   phase 2: mremap the r-x mapping holding rl_target to a free address
 *            (MREMAP_MAYMOVE | MREMAP_FIXED over an anonymous reservation),
 *            call rl_target(2000000 + i) through the new address K times
 *   phase 3: munmap the moved text; mmap the same file range again,
 *            call rl_target(3000000 + i) K times at the new mapping
 *
 * The argument ranges tell the phases apart in a probe's %di.  Each phase
 * prints "phaseP calls=K bad=B sum=S" (B: results not equal to 7x + 3; the
 * moved-to address is checked to differ from the old one).  Ends with _exit:
 * the library's destructors lived in the text that was moved away.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "selfmap.h"

typedef long (*target_fn)(long);

static void phase(int p, target_fn f, long k)
{
	long bad = 0, sum = 0;

	for (long i = 0; i < k; i++) {
		long x = p * 1000000L + i, r = f(x);

		if (r != x * 7 + 3)
			bad++;
		sum += r;
	}
	printf("phase%d calls=%ld bad=%ld sum=%ld\n", p, k, bad, sum);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	char lib[PATH_MAX];
	uintptr_t start, end, fn_off;
	void *handle, *reserve, *moved, *again;
	target_fn f;
	size_t len;
	off_t off;
	long k;
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: remap K [LIB]\n");
		return 2;
	}
	k = atol(argv[1]);
	if (argc == 3) {
		snprintf(lib, sizeof(lib), "%s", argv[2]);
	} else {
		ssize_t n = readlink("/proc/self/exe", lib, sizeof(lib) - 32);
		char *slash;

		if (n < 0) {
			perror("readlink");
			return 1;
		}
		lib[n] = 0;
		slash = strrchr(lib, '/');
		strcpy(slash ? slash + 1 : lib, "libremap.so");
	}

	handle = dlopen(lib, RTLD_NOW);
	if (!handle) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	f = (target_fn)dlsym(handle, "rl_target");
	if (!f || !find_map((uintptr_t)f, &start, &end, &off)) {
		fprintf(stderr, "rl_target not found\n");
		return 1;
	}
	len = end - start;
	fn_off = (uintptr_t)f - start;
	phase(1, f, k);

	reserve = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (reserve == MAP_FAILED) {
		perror("mmap reserve");
		return 1;
	}
	moved = mremap((void *)start, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, reserve);
	if (moved == MAP_FAILED || moved != reserve || (uintptr_t)moved == start) {
		perror("mremap");
		return 1;
	}
	phase(2, (target_fn)((uintptr_t)moved + fn_off), k);

	if (munmap(moved, len)) {
		perror("munmap");
		return 1;
	}
	fd = open(lib, O_RDONLY);
	if (fd < 0) {
		perror(lib);
		return 1;
	}
	again = mmap(NULL, len, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, off);
	if (again == MAP_FAILED) {
		perror("mmap again");
		return 1;
	}
	close(fd);
	phase(3, (target_fn)((uintptr_t)again + fn_off), k);
	_exit(0);
}
