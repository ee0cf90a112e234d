#!/bin/bash
# `make perftest`, guest side: perf's whole built-in suite, one line per
# test or subtest in /results/perftest/results.txt as "RESULT DESCRIPTION"
# (RESULT is Ok, FAILED or Skip).  The host compares the Ok set with the
# stock baseline in perf-tests/perftest-baseline-stock.txt.
set -eu
export PATH=/usr/bin:/usr/sbin
out=/results/perftest
mkdir -p "$out"
cd /tmp
echo "# perf test on $(uname -r)"
# Each test runs in a forked child; perf test prints "N: desc : Ok".  A
# hung test is cut off by the host's timeout, so run them one by one with
# a per-test limit instead and record the hang as FAILED.
perf test list 2>&1 | awk -F': ' '/^ *[0-9]+: / { sub(/^ */, "", $1); print $1 }' > "$out/ids"
: > "$out/results.txt"
while read -r id; do
	if ! timeout -k 5 300 perf test "$id" > "$out/test-$id.log" 2>&1; then
		:
	fi
	# Lines like " 12: desc : Ok" or "  3.1: subdesc : Skip (reason)".
	sed -n -E 's/^ *([0-9.]+): (.*[^ ]) *: (Ok|FAILED!|Skip)( .*)?$/\3 \1 \2/p' \
		"$out/test-$id.log" | sed 's/^FAILED!/FAILED/' | tee -a "$out/results.txt"
	grep -q -E "^ *$id(\.[0-9]+)?: .*: (Ok|FAILED!|Skip)" "$out/test-$id.log" ||
		echo "FAILED $id (no result: hung or crashed)" | tee -a "$out/results.txt"
done < "$out/ids"
