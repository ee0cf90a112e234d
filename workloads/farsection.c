// SPDX-License-Identifier: GPL-2.0
/*
 * far_fn lives in a section of its own, linked at 0x40000000 in a
 * PT_LOAD segment of its own (see the Makefile): its file offset is its
 * address less that segment's bias, not .text's.  For perf probe's DWARF
 * address conversion (perf-tests/76-perf-probe-user.sh).
 */
#include <stdio.h>

__attribute__((noinline, section("far_text"))) int far_fn(int x)
{
	return x * 3 + 1;
}

int main(int argc, char **argv)
{
	int i, s = 0;

	(void)argv;
	for (i = 0; i < 10; i++)
		s += far_fn(argc + i);
	printf("%d\n", s);
	return 0;
}
