// SPDX-License-Identifier: GPL-2.0
/*
 * scalebench: the timed steps of `make bench-scale` (perf-tests/bench-scale.sh).
 *
 *   scalebench points ELF N      N probe points spread over ELF's text:
 *                                "NAME OFFSET" lines.  Function entries
 *                                (dynamic symbols) first; past those, the
 *                                second instruction of a function.
 *   scalebench write FILE SRC    SRC's bytes written to FILE in one write():
 *                                prints the ns the write() took, also when
 *                                it fails (then exit status 1)
 *   scalebench exec K PROG ARG.. fork, exec PROG and wait, K times: prints
 *                                ns per round
 *
 * Times are CLOCK_MONOTONIC; under QEMU's -icount, 1 ns is one guest
 * instruction (or virtual time skipped while idle).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct point {
	unsigned long off;
	const char *name;
};

static int by_offset(const void *a, const void *b)
{
	const struct point *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * The length of a few common first instructions of a function (push,
 * endbr64, register moves and tests, sub from %rsp), or 0: enough to find
 * a second probe point in most functions without a disassembler.
 */
static int first_insn_len(const unsigned char *c)
{
	int rex = (c[0] & 0xf0) == 0x40;
	const unsigned char *op = c + rex;

	if (!memcmp(c, "\xf3\x0f\x1e\xfa", 4))
		return 4;				/* endbr64 */
	if (op[0] >= 0x50 && op[0] <= 0x57)
		return 1 + rex;				/* push */
	if ((op[0] == 0x89 || op[0] == 0x8b || op[0] == 0x31 ||
	     op[0] == 0x85 || op[0] == 0x29 || op[0] == 0x01) &&
	    (op[1] & 0xc0) == 0xc0)
		return 2 + rex;				/* reg, reg */
	if (op[0] == 0x83 && op[1] == 0xec)
		return 3 + rex;				/* sub $imm8, %esp */
	if (op[0] == 0x81 && op[1] == 0xec)
		return 6 + rex;				/* sub $imm32, %esp */
	return 0;
}

/* The file offset of virtual address @va, or 0 if no PT_LOAD maps it. */
static unsigned long va_to_off(const Elf64_Ehdr *eh, const char *base,
			       unsigned long va)
{
	const Elf64_Phdr *ph = (const void *)(base + eh->e_phoff);
	int i;

	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X) &&
		    va >= ph[i].p_vaddr && va < ph[i].p_vaddr + ph[i].p_filesz)
			return va - ph[i].p_vaddr + ph[i].p_offset;
	return 0;
}

static int points(const char *path, long want)
{
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	struct point *p;
	long n = 0, uniq = 0, extra = 0, i, total;
	struct stat st;
	char *base;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return 1;
	}
	base = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (base == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	eh = (const void *)base;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64) {
		fprintf(stderr, "%s: not a 64-bit ELF file\n", path);
		return 1;
	}
	sh = (const void *)(base + eh->e_shoff);
	p = calloc(st.st_size / sizeof(Elf64_Sym) + 1, sizeof(*p));
	if (!p)
		return 1;
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym;
		const char *str;
		long j, nsyms;

		if (sh[i].sh_type != SHT_DYNSYM)
			continue;
		sym = (const void *)(base + sh[i].sh_offset);
		str = base + sh[sh[i].sh_link].sh_offset;
		nsyms = sh[i].sh_size / sizeof(*sym);
		for (j = 0; j < nsyms; j++) {
			unsigned long off;

			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC ||
			    sym[j].st_shndx == SHN_UNDEF || !sym[j].st_size)
				continue;
			off = va_to_off(eh, base, sym[j].st_value);
			if (!off)
				continue;
			p[n].off = off;
			p[n].name = str + sym[j].st_name;
			n++;
		}
	}
	qsort(p, n, sizeof(*p), by_offset);
	for (i = 0; i < n; i++)
		if (!uniq || p[i].off != p[uniq - 1].off)
			p[uniq++] = p[i];
	for (i = 0; i < uniq; i++)
		if ((unsigned long)st.st_size >= p[i].off + 8 &&
		    first_insn_len((const unsigned char *)base + p[i].off))
			extra++;
	total = uniq + extra;
	if (want > total) {
		fprintf(stderr, "%s: only %ld probe points (%ld entries, %ld second instructions)\n",
			path, total, uniq, extra);
		return 1;
	}
	/* entries, evenly spread; then the points after endbr64, spread */
	if (want <= uniq) {
		for (i = 0; i < want; i++) {
			long k = i * uniq / want;

			printf("%s 0x%lx\n", p[k].name, p[k].off);
		}
		return 0;
	}
	for (i = 0; i < uniq; i++)
		printf("%s 0x%lx\n", p[i].name, p[i].off);
	/* the entries whose first instruction we know, @want of them spread */
	for (i = 0, n = 0; i < uniq; i++) {
		int len = first_insn_len((const unsigned char *)base + p[i].off);

		if (len) {
			p[n] = p[i];
			p[n++].off += len;
		}
	}
	want -= uniq;
	for (i = 0; i < want; i++) {
		long k = i * n / want;

		printf("%s+insn 0x%lx\n", p[k].name, p[k].off);
	}
	return 0;
}

static int write_file(const char *path, const char *src)
{
	long long t0, t1;
	struct stat st;
	char *buf;
	ssize_t got;
	int fd;

	fd = open(src, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(src);
		return 1;
	}
	buf = malloc(st.st_size + 1);
	if (!buf || read(fd, buf, st.st_size) != st.st_size) {
		perror(src);
		return 1;
	}
	close(fd);
	fd = open(path, O_WRONLY | O_APPEND);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	t0 = now_ns();
	got = write(fd, buf, st.st_size);
	t1 = now_ns();
	/* timed either way: a group's enable fails if one event does */
	printf("%lld\n", t1 - t0);
	if (got != st.st_size) {
		fprintf(stderr, "write %s: %s\n", path,
			got < 0 ? strerror(errno) : "short write");
		return 1;
	}
	if (close(fd)) {
		perror(path);
		return 1;
	}
	return 0;
}

static int exec_rounds(long k, char **argv)
{
	long long t0;
	long i;

	t0 = now_ns();
	for (i = 0; i < k; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (!pid) {
			execv(argv[0], argv);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fprintf(stderr, "%s: status %#x\n", argv[0], status);
			return 1;
		}
	}
	printf("%lld\n", (now_ns() - t0) / k);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "points"))
		return points(argv[2], atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "write"))
		return write_file(argv[2], argv[3]);
	if (argc >= 4 && !strcmp(argv[1], "exec") && atol(argv[2]) > 0)
		return exec_rounds(atol(argv[2]), argv + 3);
	fprintf(stderr, "usage: scalebench points ELF N | write FILE SRC | exec K PROG [ARG...]\n");
	return 2;
}
