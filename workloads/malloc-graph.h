/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MALLOC_GRAPH_H
#define MALLOC_GRAPH_H

/* An empty asm the compiler can't see through: keeps calls and frames real. */
static inline void keep(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

void lib_entry(int count);

#endif
