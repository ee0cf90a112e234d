#!/bin/bash
# perf's built-in suite: its probe and uprobe entries, one result each.
. /opt/perf-tests/lib/tap.sh
trap clear_probes EXIT

perf test list > tests.list 2>&1
grep -iE 'probe|uprobe' tests.list | grep -v vfs_getname > entries
cp tests.list "$RESULTS/list"
if [ ! -s entries ]; then
	plan 1
	fail "perf test lists probe entries" "$(head -n 20 tests.list)"
	exit 0
fi
plan "$(wc -l < entries)"
while read -r line; do
	num=${line%%:*}
	num=$(echo "$num" | tr -d ' ')
	out=$(perf test -v "$num" 2>&1)
	printf '%s\n' "$out" > "$RESULTS/perf-test-$num.log"
	result=$(printf '%s\n' "$out" | grep -E ': (Ok|FAILED!|Skip.*)$' | tail -n 1)
	title=${line#*: }
	case "$title" in
	*inet_pton*)
		# Expects inet_pton's immediate caller in a callchain taken at
		# its first instruction.
		known_stock_limit "stock drops the immediate caller at a function-entry probe" ;;
	esac
	case "$result" in
	*": Ok") pass "perf test $num: $title" ;;
	*": Skip"*) skip "perf test $num: $title" "$(printf '%s' "$result" | sed 's/.*Skip//')" ;;
	*) fail "perf test $num: $title" "$(printf '%s\n' "$out" | tail -n 15)" ;;
	esac
done < entries
