/* SPDX-License-Identifier: GPL-2.0 */
/* The calling process's own mappings, from /proc/self/maps. */
#ifndef SELFMAP_H
#define SELFMAP_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* The mapping containing ADDR: start, end, file offset.  0 if none. */
static inline int find_map(uintptr_t addr, uintptr_t *start, uintptr_t *end,
			   off_t *off)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	int found = 0;

	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long s, e, o;

		if (sscanf(line, "%lx-%lx %*s %lx", &s, &e, &o) == 3 && addr >= s && addr < e) {
			*start = s;
			*end = e;
			*off = (off_t)o;
			found = 1;
		}
	}
	fclose(f);
	return found;
}

#endif
