// SPDX-License-Identifier: GPL-2.0
/*
 * exit0: a dynamic program that does nothing.  Its exec maps libc, so with
 * probes in libc, exec+exit costs what putting them into a new mm costs
 * (make bench-scale).
 */
int main(void)
{
	return 0;
}
