// SPDX-License-Identifier: GPL-2.0
/*
 * tracesafe: what the trace-event safety test (79-trace-safety) probes.
 *
 *   tracesafe fetch N        N rounds of: ts_fetch(table), ts_fetch(NULL),
 *                            ts_fetch_big(table), ts_fetch_big(NULL); the
 *                            table's pointers lead to recognisable words
 *                            0x41414141414141NN and a string of 40 'A's,
 *                            NULL makes every nested dereference fail
 *   tracesafe shrink ID      perf samples (PERF_SAMPLE_RAW) of tracepoint ID,
 *                            a uprobe event on ts_str with one string
 *                            argument, for two calls: a string of 103 'S's,
 *                            then one that shrinks to "" between the
 *                            kernel's sizing and its copy (the string runs
 *                            into a userfaultfd page; serving the fault
 *                            writes a NUL at its start).  One line per
 *                            sample: "sample len=L room=R stray=K", the
 *                            string's stored length, the record's bytes
 *                            after its start, and how many bytes after the
 *                            string are not zero; then "faults=F"
 *   tracesafe query ID       a perf event of tracepoint ID with a BPF
 *                            program attached, then BPF_TASK_FD_QUERY:
 *                            "fd_type=uprobe|uretprobe|N offset=0xO addr=0xA path=P"
 *   tracesafe query-pmu PATH OFFSET [ret]
 *                            the same through the uprobe PMU
 *   tracesafe query-race PATH OFFSET N ROUNDS
 *                            N events tsr/fK at PATH:OFFSET; ROUNDS times:
 *                            tsr/target after them with a perf event and a
 *                            BPF program, one thread querying it
 *                            (BPF_TASK_FD_QUERY) while the other deletes and
 *                            re-creates every tsr/fK once (each moves from
 *                            before the target to after it), then the
 *                            target goes.  "queries=Q bad=B" (B: answers
 *                            other than uprobe, OFFSET, PATH)
 *   tracesafe multi          commands on stdin, one per line: "peek" prints
 *                            the first code byte of ts_m1..ts_m4 in hex
 *                            (cc: a breakpoint), "run N" calls ts_m1 N,
 *                            ts_m2 2N, ts_m3 N, ts_m4 2N times, "quit"
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <stdarg.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SMALL_FIELDS	24	/* 8 + 24 * 8 + 4 + 41 bytes: on the handler's stack */
#define BIG_FIELDS	40	/* 8 + 40 * 8 + 4 bytes: more than the stack buffer */

static volatile long sink;

static int fail(const char *what)
{
	fprintf(stderr, "tracesafe: %s: %s\n", what, strerror(errno));
	return 1;
}

/* ---- fetch: nested dereferences that fail ------------------------------- */

__attribute__((noipa)) long ts_fetch(void *const *table)
{
	sink += table != NULL;
	return sink;
}

__attribute__((noipa)) long ts_fetch_big(void *const *table)
{
	sink += 2 * (table != NULL);
	return sink;
}

static int do_fetch(long n)
{
	static uint64_t words[BIG_FIELDS];
	static char text[41];
	static void *small[SMALL_FIELDS + 1], *big[BIG_FIELDS];

	for (int i = 0; i < BIG_FIELDS; i++) {
		words[i] = 0x4141414141414100ULL | i;
		big[i] = &words[i];
		if (i < SMALL_FIELDS)
			small[i] = &words[i];
	}
	memset(text, 'A', sizeof(text) - 1);
	small[SMALL_FIELDS] = text;	/* the small event's string */
	for (long i = 0; i < n; i++) {
		ts_fetch(small);
		ts_fetch(NULL);
		ts_fetch_big(big);
		ts_fetch_big(NULL);
	}
	printf("fetch %ld\n", n);
	return 0;
}

/* ---- perf and BPF helpers ------------------------------------------------ */

static int perf_open(struct perf_event_attr *attr)
{
	return syscall(SYS_perf_event_open, attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static int tracepoint_open(unsigned long id, int sample)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = id,
		.disabled = 1,
	};

	if (sample) {
		attr.sample_type = PERF_SAMPLE_RAW;
		attr.sample_period = 1;
		attr.wakeup_events = 1;
	}
	return perf_open(&attr);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

/* r0 = 0; exit: a program that does nothing, attached to perf event @pfd. */
static int attach_bpf(int pfd)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	union bpf_attr attr;
	int prog;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_KPROBE;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.insns = (uintptr_t)insns;
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)log;
	attr.log_size = sizeof(log);
	attr.log_level = 1;
	prog = sys_bpf(BPF_PROG_LOAD, &attr);
	if (prog < 0) {
		fprintf(stderr, "tracesafe: BPF_PROG_LOAD: %s\n%s", strerror(errno), log);
		return -1;
	}
	if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog)) {
		fail("PERF_EVENT_IOC_SET_BPF");
		close(prog);
		return -1;
	}
	return prog;
}

struct fd_info {
	__u32 fd_type;
	__u64 offset;
	__u64 addr;
	char path[256];
};

static int task_fd_query(int pfd, struct fd_info *info)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	memset(info->path, 0, sizeof(info->path));
	attr.task_fd_query.pid = getpid();
	attr.task_fd_query.fd = pfd;
	attr.task_fd_query.buf = (uintptr_t)info->path;
	attr.task_fd_query.buf_len = sizeof(info->path) - 1;
	if (sys_bpf(BPF_TASK_FD_QUERY, &attr))
		return -1;
	info->fd_type = attr.task_fd_query.fd_type;
	info->offset = attr.task_fd_query.probe_offset;
	info->addr = attr.task_fd_query.probe_addr;
	return 0;
}

static int print_query(int pfd)
{
	struct fd_info info;
	int prog = attach_bpf(pfd);

	if (prog < 0)
		return 1;
	if (task_fd_query(pfd, &info))
		return fail("BPF_TASK_FD_QUERY");
	if (info.fd_type == BPF_FD_TYPE_UPROBE)
		printf("fd_type=uprobe");
	else if (info.fd_type == BPF_FD_TYPE_URETPROBE)
		printf("fd_type=uretprobe");
	else
		printf("fd_type=%u", info.fd_type);
	printf(" offset=0x%llx addr=0x%llx path=%s\n", (unsigned long long)info.offset,
	       (unsigned long long)info.addr, info.path);
	close(prog);
	close(pfd);
	return 0;
}

static int do_query(unsigned long id)
{
	int pfd = tracepoint_open(id, 0);

	if (pfd < 0)
		return fail("perf_event_open (tracepoint)");
	return print_query(pfd);
}

static long read_number(const char *path, int *ok)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");

	*ok = f && fgets(buf, sizeof(buf), f);
	if (f)
		fclose(f);
	return strtol(buf, NULL, 0);
}

static int do_query_pmu(const char *path, unsigned long offset, int ret)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.disabled = 1,
	};
	char buf[64] = "";
	int ok, bit = 0, pfd;
	FILE *f;

	attr.type = read_number("/sys/bus/event_source/devices/uprobe/type", &ok);
	if (!ok)
		return fail("no uprobe PMU");
	f = fopen("/sys/bus/event_source/devices/uprobe/format/retprobe", "r");
	if (f && fgets(buf, sizeof(buf), f))
		sscanf(buf, "config:%d", &bit);
	if (f)
		fclose(f);
	if (ret)
		attr.config |= 1ULL << bit;
	attr.uprobe_path = (uintptr_t)path;
	attr.probe_offset = offset;
	pfd = perf_open(&attr);
	if (pfd < 0)
		return fail("perf_event_open (uprobe PMU)");
	return print_query(pfd);
}

/* ---- query-race: the event list changing under a query ------------------ */

static volatile int race_stop;
static const char *race_path;
static unsigned long race_offset;
static long race_queries, race_bad;
static char race_first_bad[400];

static void *race_walker(void *arg)
{
	int pfd = *(int *)arg;
	struct fd_info info;

	while (!race_stop) {
		int err = task_fd_query(pfd, &info) ? errno : 0;

		race_queries++;
		if (!err && info.fd_type == BPF_FD_TYPE_UPROBE &&
		    info.offset == race_offset && !strcmp(info.path, race_path))
			continue;
		if (race_bad++)
			continue;
		if (err)
			snprintf(race_first_bad, sizeof(race_first_bad),
				 "query %ld: %s", race_queries, strerror(err));
		else
			snprintf(race_first_bad, sizeof(race_first_bad),
				 "query %ld: fd_type=%u offset=0x%llx path=%.200s",
				 race_queries, info.fd_type,
				 (unsigned long long)info.offset, info.path);
	}
	return NULL;
}

static int command(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int command(int fd, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	return write(fd, line, len) == len ? 0 : -1;
}

/* One round: tsr/target after every filler, queried while they move behind it. */
static int race_round(int events, int n)
{
	int pfd, prog, ok, *order;
	pthread_t walker;
	long id;

	if (command(events, "p:tsr/target %s:0x%lx\n", race_path, race_offset))
		return fail("creating tsr/target");
	id = read_number("/sys/kernel/tracing/events/tsr/target/id", &ok);
	if (!ok)
		return fail("events/tsr/target/id");
	pfd = tracepoint_open(id, 0);
	if (pfd < 0)
		return fail("perf_event_open (tracepoint)");
	prog = attach_bpf(pfd);
	if (prog < 0)
		return 1;
	order = calloc(n, sizeof(*order));
	if (!order)
		return fail("calloc");
	for (int k = 0; k < n; k++)
		order[k] = k;
	for (int k = n - 1; k > 0; k--) {
		int j = rand() % (k + 1), t = order[k];

		order[k] = order[j];
		order[j] = t;
	}
	race_stop = 0;
	if (pthread_create(&walker, NULL, race_walker, &pfd))
		return fail("pthread_create");
	/* each filler before the target leaves the list and comes back after it */
	for (int k = 0; k < n; k++) {
		if (command(events, "-:tsr/f%d\n", order[k]) ||
		    command(events, "p:tsr/f%d %s:0x%lx\n", order[k], race_path,
			    race_offset)) {
			race_stop = 1;
			pthread_join(walker, NULL);
			return fail("re-creating a filler event");
		}
	}
	race_stop = 1;
	pthread_join(walker, NULL);
	close(prog);
	close(pfd);
	free(order);
	if (command(events, "-:tsr/target\n"))
		return fail("deleting tsr/target");
	return 0;
}

static int do_query_race(const char *path, unsigned long offset, int n, int rounds)
{
	int events;

	race_path = path;
	race_offset = offset;
	srand(getpid());
	events = open("/sys/kernel/tracing/uprobe_events", O_WRONLY | O_APPEND);
	if (events < 0)
		return fail("uprobe_events");
	for (int k = 0; k < n; k++)
		if (command(events, "p:tsr/f%d %s:0x%lx\n", k, path, offset))
			return fail("creating a filler event");
	for (int r = 0; r < rounds; r++)
		if (race_round(events, n))
			return 1;
	printf("queries=%ld bad=%ld\n", race_queries, race_bad);
	if (race_bad)
		printf("first bad: %s\n", race_first_bad);
	return 0;
}

/* ---- shrink: a string shorter at its copy than at its sizing ------------- */

__attribute__((noipa)) long ts_str(const char *s)
{
	sink += (long)(uintptr_t)s & 1;
	return sink;
}

struct shrink {
	int uffd;
	char *string;		/* its first byte becomes NUL while sizing waits */
	char *missing;		/* the page the string runs into */
	long page;
	int faults;
};

static void *shrink_server(void *arg)
{
	struct shrink *sh = arg;
	struct pollfd pfd = { .fd = sh->uffd, .events = POLLIN };
	struct uffd_msg msg;
	struct uffdio_copy copy;
	char *src;

	src = aligned_alloc(sh->page, sh->page);
	if (!src)
		return NULL;
	memset(src, 0, sh->page);
	memcpy(src, "TTT", 4);
	while (poll(&pfd, 1, -1) > 0) {
		if (read(sh->uffd, &msg, sizeof(msg)) != sizeof(msg))
			continue;
		if (msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		sh->string[0] = '\0';	/* the sizing has already counted it */
		copy.dst = (uintptr_t)sh->missing;
		copy.src = (uintptr_t)src;
		copy.len = sh->page;
		copy.mode = 0;
		ioctl(sh->uffd, UFFDIO_COPY, &copy);
		sh->faults++;
		break;
	}
	free(src);
	return NULL;
}

static int do_shrink(unsigned long id)
{
	struct shrink sh = { .page = sysconf(_SC_PAGESIZE) };
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg;
	struct perf_event_mmap_page *meta;
	size_t ring = 9 * sh.page;
	char *area, *data, dirty[104];
	pthread_t server;
	__u64 head, pos;
	int pfd;

	pfd = tracepoint_open(id, 1);
	if (pfd < 0)
		return fail("perf_event_open (tracepoint)");
	meta = mmap(NULL, ring, PROT_READ | PROT_WRITE, MAP_SHARED, pfd, 0);
	if (meta == MAP_FAILED)
		return fail("mmap (perf ring)");

	area = mmap(NULL, 2 * sh.page, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED)
		return fail("mmap");
	sh.missing = area + sh.page;
	sh.string = sh.missing - 100;
	memset(area, 'S', sh.page);		/* populates the first page */
	sh.uffd = syscall(SYS_userfaultfd, O_CLOEXEC);
	if (sh.uffd < 0)
		return fail("userfaultfd");
	if (ioctl(sh.uffd, UFFDIO_API, &api))
		return fail("UFFDIO_API");
	reg.range.start = (uintptr_t)sh.missing;
	reg.range.len = sh.page;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(sh.uffd, UFFDIO_REGISTER, &reg))
		return fail("UFFDIO_REGISTER");
	if (pthread_create(&server, NULL, shrink_server, &sh))
		return fail("pthread_create");

	memset(dirty, 'S', sizeof(dirty) - 1);
	dirty[sizeof(dirty) - 1] = '\0';
	ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0);
	ts_str(dirty);		/* 104 bytes of 'S' in the handler's buffer */
	ts_str(sh.string);	/* sized at 104, copied as "" */
	ioctl(pfd, PERF_EVENT_IOC_DISABLE, 0);
	pthread_join(server, NULL);

	data = (char *)meta + sh.page;
	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	for (pos = 0; pos < head;) {
		struct perf_event_header *hdr = (void *)(data + pos % (ring - sh.page));
		unsigned char *raw;
		__u32 size, loc, len, start, stray = 0;

		if (pos % (ring - sh.page) + hdr->size > ring - sh.page) {
			fprintf(stderr, "tracesafe: perf ring wrapped\n");
			return 1;
		}
		pos += hdr->size;
		if (hdr->type != PERF_RECORD_SAMPLE)
			continue;
		memcpy(&size, hdr + 1, sizeof(size));
		raw = (unsigned char *)(hdr + 1) + sizeof(size);
		/* trace_entry (8), probed address (8), the string's data_loc */
		memcpy(&loc, raw + 16, sizeof(loc));
		len = loc >> 16;
		start = loc & 0xffff;
		for (__u32 i = start + len; i < size; i++)
			stray += raw[i] != 0;
		printf("sample len=%u room=%u stray=%u\n", len, size - start, stray);
	}
	printf("faults=%d\n", sh.faults);
	return 0;
}

/* ---- multi: probes of one event, deleted while it is enabled ----------- */

__attribute__((noipa)) long ts_m1(long x)
{
	sink += x;
	return sink;
}

__attribute__((noipa)) long ts_m2(long x)
{
	sink -= x;
	return sink;
}

__attribute__((noipa)) long ts_m3(long x)
{
	sink ^= x;
	return sink;
}

__attribute__((noipa)) long ts_m4(long x)
{
	sink |= x;
	return sink;
}

static unsigned int first_byte(long (*fn)(long))
{
	return *(volatile unsigned char *)(void *)fn;
}

static int do_multi(void)
{
	char line[64];
	long n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		if (!strcmp(line, "peek\n")) {
			printf("%02x %02x %02x %02x\n", first_byte(ts_m1),
			       first_byte(ts_m2), first_byte(ts_m3), first_byte(ts_m4));
		} else if (sscanf(line, "run %ld", &n) == 1) {
			for (long i = 0; i < n; i++) {
				ts_m1(i);
				ts_m2(i);
				ts_m2(i);
				ts_m3(i);
				ts_m4(i);
				ts_m4(i);
			}
			printf("ran %ld\n", n);
		} else if (!strcmp(line, "quit\n")) {
			break;
		} else {
			printf("what?\n");
		}
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: tracesafe fetch N | shrink ID | query ID | "
		"query-pmu PATH OFFSET [ret] | query-race PATH OFFSET N ROUNDS | multi\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "fetch"))
		return do_fetch(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "shrink"))
		return do_shrink(strtoul(argv[2], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "query"))
		return do_query(strtoul(argv[2], NULL, 0));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "query-pmu"))
		return do_query_pmu(argv[2], strtoul(argv[3], NULL, 0),
				    argc == 5 && !strcmp(argv[4], "ret"));
	if (argc == 6 && !strcmp(argv[1], "query-race"))
		return do_query_race(argv[2], strtoul(argv[3], NULL, 0), atoi(argv[4]),
				     atoi(argv[5]));
	if (argc == 2 && !strcmp(argv[1], "multi"))
		return do_multi();
	return usage();
}
