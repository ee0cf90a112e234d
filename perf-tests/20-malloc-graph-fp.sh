#!/bin/bash
# perf record -g through a uprobe on libc's malloc, frame-pointer call graphs:
# every chain of malloc-graph appears with its exact count.
. /opt/perf-tests/lib/tap.sh
plan 12
. /opt/perf-tests/lib/callchain.sh
trap clear_probes EXIT

perf probe -q -x "$LIBC" malloc
"$WL/malloc-graph" --expect > expect
data=$RESULTS/perf.data
if out=$(perf record -q -e probe_libc:malloc -g -o "$data" -- "$WL/malloc-graph" 2>&1); then
	pass "perf record -e probe_libc:malloc -g -- malloc-graph"
else
	fail "perf record -e probe_libc:malloc -g -- malloc-graph" "$out"
fi
chains "$data" > chains.txt
cp chains.txt "$RESULTS/chains"

# The frames above the immediate caller are in the frame chain even on stock:
# count every path by a function it alone passes through.
while read -r count chain; do
	key=$(printf '%s' "$chain" | cut -d';' -f3)
	is "$(count_through chains.txt "$key")" "$count" "$count malloc calls through $key"
done < expect

# The whole chain, immediate caller included.  Stock takes the callchain at
# the probe from %rbp, which at a function's first instruction still points at
# the caller's caller: the caller itself (its return address sits at the top of
# the stack) is lost.  Mainline fixed this in 6.11.
check_chains chains.txt expect "fp chain" "stock drops the immediate caller at a function-entry probe"

report=$(perf report -i "$data" --stdio --no-children -g caller 2>&1)
printf '%s\n' "$report" > "$RESULTS/report.txt"
if printf '%s\n' "$report" | grep -q 'path_direct' &&
   printf '%s\n' "$report" | grep -q 'thread_main'; then
	pass "perf report --stdio shows the call graph"
else
	fail "perf report --stdio shows the call graph" "$(printf '%s\n' "$report" | head -n 30)"
fi
