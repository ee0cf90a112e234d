// SPDX-License-Identifier: GPL-2.0
/* libremap.so: the probed function of the remap workload (no data, no GOT). */
__attribute__((noipa)) long rl_target(long x)
{
	return x * 7 + 3;
}
