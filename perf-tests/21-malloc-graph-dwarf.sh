#!/bin/bash
# perf record --call-graph dwarf through a uprobe on malloc, on the build of
# malloc-graph without frame pointers: every chain with its exact count.
. /opt/perf-tests/lib/tap.sh
plan 7
. /opt/perf-tests/lib/callchain.sh
trap clear_probes EXIT

perf probe -q -x "$LIBC" malloc
"$WL/malloc-graph-nofp" --expect > expect
data=$RESULTS/perf.data
# A modest stack dump and a large buffer: with the defaults perf loses samples.
if out=$(perf record -q -e probe_libc:malloc --call-graph dwarf,4096 -m 16M \
		-o "$data" -- "$WL/malloc-graph-nofp" 2>&1); then
	pass "perf record --call-graph dwarf -- malloc-graph-nofp"
else
	fail "perf record --call-graph dwarf -- malloc-graph-nofp" "$out"
fi
lost=$(perf report -i "$data" --stats 2>/dev/null | awk '/LOST/ { print $NF }')
is "${lost:-0}" 0 "no lost samples"
chains "$data" > chains.txt
cp chains.txt "$RESULTS/chains"
check_chains chains.txt expect "dwarf chain"
