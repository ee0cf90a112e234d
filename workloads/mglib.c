// SPDX-License-Identifier: GPL-2.0
/* libmg.so: the shared-library leg of malloc-graph's call tree. */
#include <stdlib.h>
#include "malloc-graph.h"

__attribute__((noinline)) void *lib_leaf(size_t n)
{
	void *p = malloc(n);

	keep(p);
	return p;
}

__attribute__((noinline)) void lib_entry(int count)
{
	for (int i = 0; i < count; i++)
		free(lib_leaf(LIB_SIZE(i)));
}
