// SPDX-License-Identifier: GPL-2.0
/*
 * Print the host's TSC rate in kHz.  Under TCG the guest's rdtsc reads the
 * host TSC, but the guest cannot calibrate it (no HPET or PM timer, and the
 * emulated PIT is too slow), so it falls back to jiffies as its clocksource.
 * run.sh passes this rate as tsc_early_khz= so the guest keeps the TSC.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(void)
{
	double t0 = now(), t1;
	uint64_t c0 = __rdtsc(), c1;

	do {
		t1 = now();
	} while (t1 - t0 < 0.2);
	c1 = __rdtsc();
	printf("%.0f\n", (double)(c1 - c0) / (t1 - t0) / 1000.0);
	return 0;
}
