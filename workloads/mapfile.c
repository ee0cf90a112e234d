// SPDX-License-Identifier: GPL-2.0
/*
 * mapfile FILE: map FILE read-only and private, as readers of ELF files
 * (libelf, gdb, indexers) do, print "mapped", and keep the mapping until
 * standard input reaches end of file.  A probe registered meanwhile sees
 * this process as a mapping of the file.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct stat st;
	char buf[64];
	void *p;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: mapfile FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[1]);
		return 1;
	}
	p = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	printf("mapped\n");
	fflush(stdout);
	while (read(0, buf, sizeof(buf)) > 0)
		;
	return 0;
}
