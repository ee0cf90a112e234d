#!/bin/bash
# The tree's own ftracetest: the uprobe tests and the dynamic-event group.
# One result per .tc file; UNSUPPORTED and UNTESTED are skips with the reason.
. /opt/perf-tests/lib/tap.sh
trap clear_probes EXIT

cd /opt/ftrace || exit 1
tests=$(grep -l -r uprobe test.d --include='*.tc' | sort; ls test.d/dynevent/*.tc)
logdir=$RESULTS/ftracetest
# shellcheck disable=SC2086
plan "$(printf '%s\n' $tests | sort -u | wc -l)"
# shellcheck disable=SC2086
# shellcheck disable=SC2046
./ftracetest -v -l "$logdir" $(printf '%s\n' $tests | sort -u) > "$RESULTS/ftracetest.out" 2>&1
awk '/^\[[0-9]+\] / {
	result = $NF; gsub(/[][]/, "", result)
	title = $0; sub(/^\[[0-9]+\] /, "", title); sub(/[ \t]*\[[A-Z]+\]$/, "", title)
	if (result == "PASS") print "ok - ftracetest: " title
	else if (result == "UNSUPPORTED" || result == "UNTESTED" || result == "XFAIL")
		print "ok - ftracetest: " title " # SKIP " result
	else print "not ok - ftracetest: " title " (" result ")"
}' "$RESULTS/ftracetest.out"
if ! grep -q '^\[[0-9]*\] ' "$RESULTS/ftracetest.out"; then
	fail "ftracetest ran" "$(tail -n 20 "$RESULTS/ftracetest.out")"
fi
