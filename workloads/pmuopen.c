// SPDX-License-Identifier: GPL-2.0
/*
 * pmuopen: perf events on uprobes opened by whoever runs it (tests of who
 * may probe what; run as another user with setpriv).
 *
 *   pmuopen pmu PATH OFFSET   a uprobe PMU event (the way BPF tools
 *                             attach) on PATH at file OFFSET, for this
 *                             process: prints "ok" or the errno name
 *   pmuopen tp ID N [raw]     the trace event ID (a uprobe event root
 *                             made, e.g. on pmu_target) counting in this
 *                             process only, user mode, then N calls of
 *                             pmu_target: prints "count=C" or the errno
 *                             name; raw asks for samples with the event's
 *                             raw data, which perf keeps from users
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile long sink;

__attribute__((noipa)) long pmu_target(long x)
{
	sink += x;
	return sink;
}

static int fail(void)
{
	switch (errno) {
	case EACCES: printf("EACCES\n"); break;
	case EPERM: printf("EPERM\n"); break;
	case ENOENT: printf("ENOENT\n"); break;
	case EINVAL: printf("EINVAL\n"); break;
	default: printf("%s\n", strerror(errno)); break;
	}
	return 1;
}

static int open_event(struct perf_event_attr *attr)
{
	attr->size = sizeof(*attr);
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	return syscall(SYS_perf_event_open, attr, 0, -1, -1, 0);
}

int main(int argc, char **argv)
{
	struct perf_event_attr attr;
	long long count;
	FILE *f;
	int fd;

	memset(&attr, 0, sizeof(attr));
	if (argc == 4 && !strcmp(argv[1], "pmu")) {
		f = fopen("/sys/bus/event_source/devices/uprobe/type", "r");
		if (!f || fscanf(f, "%u", &attr.type) != 1) {
			printf("no uprobe PMU\n");
			return 1;
		}
		fclose(f);
		attr.config1 = (uint64_t)(uintptr_t)argv[2];	/* uprobe_path */
		attr.config2 = strtoull(argv[3], NULL, 0);	/* probe_offset */
		fd = open_event(&attr);
		if (fd < 0)
			return fail();
		printf("ok\n");
		return 0;
	}
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "tp")) {
		long n = atol(argv[3]);

		attr.type = PERF_TYPE_TRACEPOINT;
		attr.config = strtoull(argv[2], NULL, 0);
		if (argc == 5 && !strcmp(argv[4], "raw")) {
			attr.sample_period = 1;
			attr.sample_type = PERF_SAMPLE_RAW;
		}
		fd = open_event(&attr);
		if (fd < 0)
			return fail();
		for (long i = 0; i < n; i++)
			pmu_target(i);
		if (read(fd, &count, sizeof(count)) != sizeof(count))
			return fail();
		printf("count=%lld\n", count);
		return 0;
	}
	fprintf(stderr, "usage: pmuopen pmu PATH OFFSET | tp ID N [raw]\n");
	return 2;
}
