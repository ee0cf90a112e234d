// SPDX-License-Identifier: GPL-2.0
/*
 * pfnof FILE OFFSET [COUNT]: the PFN (decimal) of the page cache page that
 * holds file OFFSET of FILE, as a MAP_SHARED mapping of the file maps it
 * (/proc/self/pagemap: bits 0-54; they read as 0 without CAP_SYS_ADMIN,
 * which is an error here).  With COUNT, a second line: the COUNT bytes at
 * OFFSET as that mapping reads them, in hex, so a test can compare what
 * the page cache holds with what a probed process runs.
 *
 * A MAP_SHARED mapping of a regular file always maps the page cache page
 * itself (never a private copy), which is what a test compares a probed
 * process's page with.  Exits non-zero with a one-line message on error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define PFN_MASK ((UINT64_C(1) << 55) - 1)
#define PM_PRESENT (UINT64_C(1) << 63)

/* "pfnof: ARG: WHAT" (or "pfnof: WHAT"), status 1 */
static int die(const char *arg, const char *what)
{
	fprintf(stderr, "pfnof: %s%s%s\n", arg ? arg : "", arg ? ": " : "", what);
	return 1;
}

/* a non-negative number, all of S */
static int number(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && end != s && !*end && s[0] != '-';
}

int main(int argc, char **argv)
{
	unsigned long long offset, count = 0, pfn;
	long pagesize = sysconf(_SC_PAGESIZE);
	unsigned long long start, len;
	volatile unsigned char *p;
	uint64_t entry;
	struct stat st;
	int fd, pm;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: pfnof FILE OFFSET [COUNT]\n");
		return 2;
	}
	if (!number(argv[2], &offset))
		return die(argv[2], "not a number");
	if (argc == 4 && !number(argv[3], &count))
		return die(argv[3], "not a number");
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		return die(argv[1], strerror(errno));
	if (offset >= (unsigned long long)st.st_size || count > st.st_size - offset)
		return die(argv[1], "offset beyond the end of the file");
	start = offset / pagesize * pagesize;
	len = offset + (count ? count : 1) - start;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, start);
	if (p == MAP_FAILED)
		return die("mmap", strerror(errno));
	p += offset - start;
	(void)*p;	/* fault the page cache page in */

	pm = open("/proc/self/pagemap", O_RDONLY);
	if (pm < 0)
		return die("/proc/self/pagemap", strerror(errno));
	if (pread(pm, &entry, sizeof(entry), (uintptr_t)p / pagesize * sizeof(entry)) !=
	    sizeof(entry))
		return die("/proc/self/pagemap", "short read");
	if (!(entry & PM_PRESENT))
		return die(NULL, "page not present after touching it");
	pfn = entry & PFN_MASK;
	if (!pfn)
		return die(NULL, "PFN reads as 0 (not root?)");
	printf("%llu\n", pfn);
	if (count) {
		for (unsigned long long i = 0; i < count; i++)
			printf("%02x", p[i]);
		printf("\n");
	}
	return 0;
}
