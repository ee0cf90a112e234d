#!/bin/bash
# Names a table's demangling threads print go into blocks of their own.
# A name that grows past its block moves to a bigger one; the one it
# leaves must not stay allocated: 20 names of 196 bytes that demangle to
# 10 MB each with -v (nested templates, each level twice the last) once
# kept 80 MB against stock's 27 MB.  Ours may use at most stock's peak
# plus a quarter, and must list what stock lists.
#
# Usage: probe-demangle-memory.sh   (env: OURS, STOCK)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 2
# 9000 plain names: a table big enough for the threads (8192 and up)
awk 'BEGIN { for (i = 0; i < 9000; i++) printf "void plain%d(void) {}\n", i }' \
	> "$tmp/lib.c"
# _Z3fNN4pairI1AS0_E then S_I<sub><sub>E per level: each doubles the text;
# the trailing T_ refers to no template parameter, so each name fails
awk 'function b36(i, s, d) {
	d = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"; s = ""
	do { s = substr(d, i % 36 + 1, 1) s; i = int(i / 36) } while (i)
	return s
}
function subst(i) { return i ? "S" b36(i - 1) "_" : "S_" }
BEGIN {
	for (n = 0; n < 20; n++) {
		s = sprintf("_Z3f%02d4pairI1AS0_E", n)
		for (l = 0; l < 18; l++)
			s = s "S_I" subst(l + 2) subst(l + 2) "E"
		if (n % 2)
			s = s "T_"
		printf "void nested%d(void) __asm__(\"%s\");\nvoid nested%d(void) {}\n", n, s, n
	}
}' >> "$tmp/lib.c"
gcc -shared -fPIC -O0 -o "$tmp/libdm.so" "$tmp/lib.c"

ours=$(usage maxrss "$tmp/ours" "$OURS" probe -v -x "$tmp/libdm.so" -F '*')
stock=$(usage maxrss "$tmp/stock" "$STOCK" probe -v -x "$tmp/libdm.so" -F '*')
check "-v -F peak memory: ours ${ours} KiB, stock ${stock} KiB (at most +25%)" \
	test "$ours" -le $((stock + stock / 4))
sort -u "$tmp/stock" > "$tmp/stock.u"
check "-v -F lists stock's names ($(wc -l < "$tmp/ours"))" cmp -s "$tmp/stock.u" "$tmp/ours"
done_testing
