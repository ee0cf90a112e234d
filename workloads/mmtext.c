// SPDX-License-Identifier: GPL-2.0
/*
 * mmtext: the probed pages of a library (libmmtext.so, mt_a and mt_b on
 * pages 256 KiB apart) under the memory-management operations a real
 * system makes on them (test 45-mm-text).  Commands on standard input, one
 * a line, each answered by one line on standard output:
 *   a N | b N       call mt_a or mt_b N times: "a N bad=B" (B wrong results)
 *   c N             call mt_c N times: "c N add=A", A what it added to its
 *                   argument each time, or -1 if that changed
 *   present a|b     is the function's page mapped now (pagemap bit 63),
 *                   read without touching it: "present 0|1"
 *   anon a|b        is it an anonymous page (pagemap bit 61 clear): "anon 0|1"
 *   pfn a|b         its PFN (root): "pfn N", or "pfn -" when not present
 *   node a|b        the NUMA node of the page (move_pages query): "node N"
 *   move a|b N      move the page to node N: "move STATUS" (node or -errno)
 *   poison a|b      madvise(MADV_HWPOISON) of the page: "poison 0|-errno"
 *   soft a|b        madvise(MADV_SOFT_OFFLINE) of the page: "soft 0|-errno"
 *   mlock           mlockall(MCL_CURRENT | MCL_FUTURE): "mlock 0|-errno"
 *   storm N         STORM_THREADS threads, each N times: MADV_DONTNEED of
 *                   mt_b's page, then one call of mt_b, so that every call
 *                   faults the page in first: "storm N bad=B"
 *   blob PATH       map PATH, a file written by --blob, private and
 *                   executable: "blob 0|-errno"; then
 *   x N | y N       call its functions N times: "x N bad=B"
 *   dontneed W      madvise(MADV_DONTNEED) of W's page (W: a, b, x or y):
 *                   "dontneed 0|-errno"
 *   uffd W          register W's page with a userfaultfd for missing
 *                   pages (user faults only, never resolved: the page
 *                   must be in the page cache): "uffd 0|-errno"
 *   uffdminor W     register W's page for minor faults (shmem), resolved
 *                   by a thread with UFFDIO_CONTINUE: "uffdminor 0|-errno"
 *   unuffd          unregister that page: "unuffd 0|-errno"
 *   uffdfaults      the minor faults resolved so far: "uffdfaults N"
 *   q               exit: 0, or 1 if any result was bad
 * "mmtext --blob PATH" writes the blob: code and nothing else, y(x) = x + 5
 * at offset BLOB_Y (0) and x(x) = x + 3 in the last 4 bytes of the file, at
 * BLOB_X, the end of its second page.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/userfaultfd.h>

#ifndef MADV_HWPOISON
#define MADV_HWPOISON 100
#endif
#ifndef MADV_SOFT_OFFLINE
#define MADV_SOFT_OFFLINE 101
#endif
#define MPOL_MF_MOVE (1 << 1)
#ifndef UFFD_USER_MODE_ONLY
#define UFFD_USER_MODE_ONLY 1
#endif

#define BLOB_Y		0x0
#define BLOB_X		0x1ff8
#define BLOB_SIZE	(BLOB_X + 4)
/* lea 5(%rdi), %eax; ret and lea 3(%rdi), %eax; ret */
static const unsigned char blob_y[] = { 0x8d, 0x47, 0x05, 0xc3 };
static const unsigned char blob_x[] = { 0x8d, 0x47, 0x03, 0xc3 };
static unsigned char *blob;

int mt_a(int x);
int mt_b(int x);
int mt_c(int x);

static long bad_total;

typedef int (*func_t)(int);

static func_t func_of(const char *which)
{
	switch (which[0]) {
	case 'b':
		return mt_b;
	case 'x':
		return blob ? (func_t)(void *)(blob + BLOB_X) : NULL;
	case 'y':
		return blob ? (func_t)(void *)(blob + BLOB_Y) : NULL;
	default:
		return mt_a;
	}
}

static int add_of(const char *which)
{
	switch (which[0]) {
	case 'b':
		return 2;
	case 'x':
		return 3;
	case 'y':
		return 5;
	default:
		return 1;
	}
}

static void *page_of(const char *which)
{
	uintptr_t f = (uintptr_t)func_of(which);

	return (void *)(f & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1));
}

static uint64_t pagemap(void *page)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, sizeof(e), (off_t)((uintptr_t)page / sysconf(_SC_PAGESIZE)) * 8) != sizeof(e))
		e = 0;
	close(fd);
	return e;
}

static long calls(const char *which, long n)
{
	func_t f = func_of(which);
	int add = add_of(which);
	long i, bad = 0;

	if (!f) {		/* no blob mapped: every call is a bad one */
		bad_total += n;
		return n;
	}
	for (i = 0; i < n; i++)
		if (f((int)i) != (int)i + add)
			bad++;
	bad_total += bad;
	return bad;
}

#define STORM_THREADS	4

static long storm_rounds;

static void *storm_thread(void *arg)
{
	long i, bad = 0;

	(void)arg;
	for (i = 0; i < storm_rounds; i++) {
		madvise(page_of("b"), sysconf(_SC_PAGESIZE), MADV_DONTNEED);
		if (mt_b((int)i) != (int)i + 2)
			bad++;
	}
	return (void *)bad;
}

static long storm(long n)
{
	pthread_t t[STORM_THREADS];
	long bad = 0;
	void *ret;
	int i, made;

	storm_rounds = n;
	for (made = 0; made < STORM_THREADS; made++)
		if (pthread_create(&t[made], NULL, storm_thread, NULL))
			break;
	for (i = 0; i < made; i++)
		if (!pthread_join(t[i], &ret))
			bad += (long)ret;
	bad += STORM_THREADS - made;
	bad_total += bad;
	return bad;
}

static int move(void *page, int node)
{
	int status = -1;
	long ret = syscall(SYS_move_pages, 0, 1UL, &page, node < 0 ? NULL : &node,
			   &status, node < 0 ? 0 : MPOL_MF_MOVE);

	return ret < 0 ? -errno : status;
}

static int write_blob(const char *path)
{
	unsigned char *buf = malloc(BLOB_SIZE);
	FILE *f = fopen(path, "w");
	int ok;

	if (!buf || !f)
		return 1;
	memset(buf, 0xcc, BLOB_SIZE);
	memcpy(buf + BLOB_Y, blob_y, sizeof(blob_y));
	memcpy(buf + BLOB_X, blob_x, sizeof(blob_x));
	ok = fwrite(buf, BLOB_SIZE, 1, f) == 1;
	free(buf);
	return fclose(f) || !ok;
}

static int map_blob(const char *path)
{
	int fd = open(path, O_RDONLY);
	void *p;

	if (fd < 0)
		return -errno;
	p = mmap(NULL, BLOB_SIZE, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	blob = p;
	return 0;
}

static int uffd_fd = -1;
static struct uffdio_range uffd_range;
static long uffd_minor_faults;

/* resolve each minor fault by mapping the page cache page, as a monitor */
static void *uffd_monitor(void *arg)
{
	struct uffd_msg msg;

	(void)arg;
	for (;;) {
		struct uffdio_continue cont = { .range = uffd_range };

		if (read(uffd_fd, &msg, sizeof(msg)) != sizeof(msg)) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return NULL;
		}
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		__atomic_add_fetch(&uffd_minor_faults, 1, __ATOMIC_SEQ_CST);
		ioctl(uffd_fd, UFFDIO_CONTINUE, &cont);
	}
}

static int uffd_register(void *page, int minor)
{
	struct uffdio_api api = {
		.api = UFFD_API,
		.features = minor ? UFFD_FEATURE_MINOR_SHMEM : 0,
	};
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)page, .len = sysconf(_SC_PAGESIZE) },
		.mode = minor ? UFFDIO_REGISTER_MODE_MINOR : UFFDIO_REGISTER_MODE_MISSING,
	};
	pthread_t t;
	int err;

	if (uffd_fd >= 0)
		return -EBUSY;
	/* left open: the registration lasts as long as the descriptor */
	uffd_fd = syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	if (uffd_fd < 0)
		return -errno;
	if (ioctl(uffd_fd, UFFDIO_API, &api) || ioctl(uffd_fd, UFFDIO_REGISTER, &reg))
		goto fail;
	uffd_range = reg.range;
	if (minor && (err = pthread_create(&t, NULL, uffd_monitor, NULL))) {
		errno = err;
		goto fail;
	}
	return 0;
fail:
	err = -errno;
	close(uffd_fd);
	uffd_fd = -1;
	return err;
}

int main(int argc, char **argv)
{
	char line[128], cmd[16], arg[256];
	long n;

	if (argc == 3 && !strcmp(argv[1], "--blob"))
		return write_blob(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		arg[0] = 'a';
		arg[1] = 0;
		n = 0;
		if (sscanf(line, "%15s %255s %ld", cmd, arg, &n) < 1)
			continue;
		if (!strcmp(cmd, "c")) {
			long i, v, add = 0;

			n = strtol(arg, NULL, 10);
			for (i = 0; i < n; i++) {
				v = (long)mt_c((int)i) - i;
				if (!i)
					add = v;
				else if (v != add)
					add = -1;
			}
			printf("c %ld add=%ld\n", n, add);
		} else if (!strcmp(cmd, "a") || !strcmp(cmd, "b") ||
			   !strcmp(cmd, "x") || !strcmp(cmd, "y")) {
			n = strtol(arg, NULL, 10);
			printf("%s %ld bad=%ld\n", cmd, n, calls(cmd, n));
		} else if (!strcmp(cmd, "present")) {
			printf("present %d\n", (int)(pagemap(page_of(arg)) >> 63));
		} else if (!strcmp(cmd, "anon")) {
			uint64_t e = pagemap(page_of(arg));

			printf("anon %d\n", (int)((e >> 63) && !((e >> 61) & 1)));
		} else if (!strcmp(cmd, "pfn")) {
			uint64_t e = pagemap(page_of(arg));

			if (e >> 63)
				printf("pfn %llu\n", (unsigned long long)(e & ((1ULL << 55) - 1)));
			else
				printf("pfn -\n");
		} else if (!strcmp(cmd, "node")) {
			printf("node %d\n", move(page_of(arg), -1));
		} else if (!strcmp(cmd, "move")) {
			printf("move %d\n", move(page_of(arg), (int)n));
		} else if (!strcmp(cmd, "poison") || !strcmp(cmd, "soft")) {
			int advice = cmd[0] == 'p' ? MADV_HWPOISON : MADV_SOFT_OFFLINE;

			printf("%s %d\n", cmd, madvise(page_of(arg), sysconf(_SC_PAGESIZE), advice) ? -errno : 0);
		} else if (!strcmp(cmd, "blob")) {
			printf("blob %d\n", map_blob(arg));
		} else if (!strcmp(cmd, "dontneed")) {
			printf("dontneed %d\n", madvise(page_of(arg), sysconf(_SC_PAGESIZE), MADV_DONTNEED) ? -errno : 0);
		} else if (!strcmp(cmd, "uffd")) {
			printf("uffd %d\n", uffd_register(page_of(arg), 0));
		} else if (!strcmp(cmd, "uffdminor")) {
			printf("uffdminor %d\n", uffd_register(page_of(arg), 1));
		} else if (!strcmp(cmd, "unuffd")) {
			printf("unuffd %d\n", uffd_fd < 0 ? -EBADF :
			       ioctl(uffd_fd, UFFDIO_UNREGISTER, &uffd_range) ? -errno : 0);
		} else if (!strcmp(cmd, "uffdfaults")) {
			printf("uffdfaults %ld\n", __atomic_load_n(&uffd_minor_faults, __ATOMIC_SEQ_CST));
		} else if (!strcmp(cmd, "mlock")) {
			printf("mlock %d\n", mlockall(MCL_CURRENT | MCL_FUTURE) ? -errno : 0);
		} else if (!strcmp(cmd, "storm")) {
			n = strtol(arg, NULL, 10);
			printf("storm %ld bad=%ld\n", n, storm(n));
		} else if (!strcmp(cmd, "q")) {
			break;
		} else {
			printf("unknown %s\n", cmd);
		}
	}
	return bad_total ? 1 : 0;
}
