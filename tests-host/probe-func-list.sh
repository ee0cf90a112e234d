#!/bin/bash
# perf probe -F sorts a library's names itself, 8 bytes at a time.  Names
# made to share prefixes of 7, 8, 9, 15, 16 and 17 bytes, names that are
# prefixes of others, and random names over "ab_" (many shared prefixes)
# must come out in strcmp() order, each once, as stock's list sorted.
# The names come from the file probed, which may be made against the
# sort: names sharing a 1 MiB prefix (the sort once recursed for each 8
# bytes of it and overflowed its stack), and 100,000 names in an order
# that defeats the median of three (sort-adversary.c: the sort was
# quadratic, 30 times as long as for the same names shuffled).
#
# Usage: probe-func-list.sh   (env: OURS, STOCK)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 7
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

# functions_s: assembler for one local function per name on stdin, at
# addresses in that order (-F takes them in address order)
functions_s() {
	awk 'BEGIN { print ".text" }
	{ printf ".type %s,@function\n%s: ret\n.size %s, 1\n", $1, $1, $1 }'
}

awk 'BEGIN { p = sprintf("%1048576s", ""); gsub(/ /, "a", p)
	for (i = 0; i < 8; i++) print p i }' | functions_s > "$tmp/long.s"
gcc -shared -nostdlib -o "$tmp/liblong.so" "$tmp/long.s"
run_probe "$OURS" "$tmp/long" -q -x "$tmp/liblong.so" -F
check "-F of 8 names sharing a 1 MiB prefix: exit $(cat "$tmp/long.rc"), $(wc -l < "$tmp/long") names" \
	test "$(cat "$tmp/long.rc")" -eq 0 -a "$(wc -l < "$tmp/long")" -eq 8

gcc -O2 -o "$tmp/sort-adversary" "$(dirname "$0")/fixtures/sort-adversary.c"
"$tmp/sort-adversary" 100000 > "$tmp/adv.names"
functions_s < "$tmp/adv.names" > "$tmp/adv.s"
awk 'BEGIN { srand(1) } { print rand(), $0 }' "$tmp/adv.names" | sort -n |
	cut -d' ' -f2 | functions_s > "$tmp/shuffled.s"
gcc -shared -nostdlib -o "$tmp/libadv.so" "$tmp/adv.s"
gcc -shared -nostdlib -o "$tmp/libshuffled.so" "$tmp/shuffled.s"
adv=$(usage cpu_ms /dev/null "$OURS" probe -q -x "$tmp/libadv.so" -F)
shuffled=$(usage cpu_ms /dev/null "$OURS" probe -q -x "$tmp/libshuffled.so" -F)
check "-F of 100,000 names made against the sort: ${adv} ms, shuffled ${shuffled} ms (at most 5 times + 200 ms)" \
	test "$adv" -le $((5 * shuffled + 200))
run_probe "$OURS" "$tmp/adv" -q -x "$tmp/libadv.so" -F
check "-F of the names made against the sort is sorted ($(wc -l < "$tmp/adv") names)" \
	bash -c "sort -u '$tmp/adv.names' | cmp -s - '$tmp/adv'"
done_testing
