/* SPDX-License-Identifier: GPL-2.0 */
#ifndef MALLOC_GRAPH_H
#define MALLOC_GRAPH_H

/* An empty asm the compiler can't see through: keeps calls and frames real. */
static inline void keep(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

void lib_entry(int count);

/* The bytes each chain's i-th call asks malloc() for ("--expect-bytes") */
#define DIRECT_SIZE(i)	(16 + (i) % 8)
#define SHORT_SIZE	64
#define LIB_SIZE(i)	(32 + (i) % 8)
#define REC_SIZE	24
#define THREAD_SIZE	48
#define CALLOC_NMEMB	3
#define CALLOC_SIZE(i)	(8 + (i) % 4)
#define REALLOC_FIRST	40
#define REALLOC_GROW	100

#endif
