#!/bin/bash
# perf probe -F sorts a library's names itself, 8 bytes at a time.  Names
# made to share prefixes of 7, 8, 9, 15, 16 and 17 bytes, names that are
# prefixes of others, and random names over "ab_" (many shared prefixes)
# must come out in strcmp() order, each once, as stock's list sorted.
#
# Usage: probe-func-list.sh   (env: OURS, STOCK)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 4
awk 'BEGIN {
	srand(7)
	split("abcdefg abcdefgh abcdefghi abcdefghijklmno abcdefghijklmnop abcdefghijklmnopq", base)
	split(" a b _ 0 ab ba zz", suf, " ")
	for (i in base)
		for (j = 0; j <= 7; j++)
			name[base[i] (j ? suf[j] : "")] = 1
	while (length(name) < 3000) {
		n = 1 + int(rand() * 24)
		s = ""
		for (k = 0; k < n; k++)
			s = s substr("ab_", 1 + int(rand() * 3), 1)
		name[s] = 1
	}
	for (s in name)
		print s
}' | sort > "$tmp/names"
awk '{ print "void " $0 "(void) {}" }' "$tmp/names" > "$tmp/a.c"
# one local name twice, from two files
for f in b c; do
	echo "static void twice(void) {} void (*twice_$f)(void) = twice;" > "$tmp/$f.c"
done
gcc -shared -fPIC -O0 -o "$tmp/libfl.so" "$tmp/a.c" "$tmp/b.c" "$tmp/c.c"

run_probe "$OURS" "$tmp/all" -q -x "$tmp/libfl.so" -F '*'
check "-F '*' is in strcmp() order, each name once ($(wc -l < "$tmp/all") names)" \
	sort -c -u "$tmp/all"
check "-F '*' holds every function made" \
	bash -c "sort -u '$tmp/all' | comm -13 - '$tmp/names' | diff /dev/null - > /dev/null"
check "-F '*' lists the local name twice made once" \
	test "$(grep -cx twice "$tmp/all")" -eq 1
run_probe "$STOCK" "$tmp/stock" -q -x "$tmp/libfl.so" -F '*'
sort -u "$tmp/stock" > "$tmp/stock.u"
check "-F '*' is stock's list, sorted, each name once" cmp -s "$tmp/stock.u" "$tmp/all"
done_testing
