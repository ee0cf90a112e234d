// SPDX-License-Identifier: GPL-2.0
/*
 * peekmem PID ADDR LEN: LEN bytes of PID's memory at ADDR, in hex, read
 * with process_vm_readv(), as lldb reads code: on the fork, the program's
 * bytes (uprobes' int3s hidden, as ptrace and /proc/PID/mem show them);
 * on stock, the int3s too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

int main(int argc, char **argv)
{
	unsigned char buf[4096];
	struct iovec local, remote;
	unsigned long addr, len;
	ssize_t got;
	char *end;
	int pid;

	if (argc != 4) {
		fprintf(stderr, "usage: peekmem PID ADDR LEN\n");
		return 2;
	}
	pid = atoi(argv[1]);
	addr = strtoul(argv[2], &end, 0);
	if (*end) {
		fprintf(stderr, "peekmem: bad address %s\n", argv[2]);
		return 2;
	}
	len = strtoul(argv[3], &end, 0);
	if (*end || !len || len > sizeof(buf)) {
		fprintf(stderr, "peekmem: bad length %s\n", argv[3]);
		return 2;
	}
	local.iov_base = buf;
	local.iov_len = len;
	remote.iov_base = (void *)addr;
	remote.iov_len = len;
	got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	if (got != (ssize_t)len) {
		fprintf(stderr, "peekmem: %d at %#lx: %s\n", pid, addr,
			got < 0 ? strerror(errno) : "short read");
		return 1;
	}
	for (got = 0; got < (ssize_t)len; got++)
		printf("%02x", buf[got]);
	printf("\n");
	return 0;
}
