// SPDX-License-Identifier: GPL-2.0
/*
 * mapfile FILE: map FILE read-only and private, as readers of ELF files
 * (libelf, gdb, indexers) do, print "mapped", and keep the mapping until
 * standard input reaches end of file.  A probe registered meanwhile sees
 * this process as a mapping of the file.  Lines on standard input:
 *   b OFFSET   print the byte at file OFFSET as the mapping reads it (hex)
 *   x          make the mapping executable too (mprotect); print "exec"
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
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
	while (fgets(buf, sizeof(buf), stdin)) {
		long off;

		if (buf[0] == 'x') {
			if (mprotect(p, st.st_size, PROT_READ | PROT_EXEC)) {
				perror("mprotect");
				return 1;
			}
			printf("exec\n");
		} else if (sscanf(buf, "b %li", &off) == 1 && off >= 0 &&
			   off < st.st_size) {
			printf("%02x\n", ((unsigned char *)p)[off]);
		} else {
			fprintf(stderr, "mapfile: bad command %s", buf);
		}
		fflush(stdout);
	}
	return 0;
}
