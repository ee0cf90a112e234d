#!/bin/bash
# A probe reaches every mapping of its file: a process already running when
# the probe is added, forked children, an exec'd program, two threads.  After
# deletion the process goes on correctly and the file is unchanged.
. /opt/perf-tests/lib/tap.sh
plan 16
trap clear_probes EXIT

bin=$WL/lifecycle
sum_before=$(sha256sum < "$bin")

# Started before the probe exists: its mapping must get the breakpoint.
rm -f go go.ready.*
"$bin" wait go 300 > early.out &
early=$!
wait_for test -e "go.ready.$early"
check "probe lc_target" perf probe -q -x "$bin" lc_target
ev=$TRACING/events/probe_lifecycle/lc_target
echo > "$TRACING/trace"
echo 1 > "$ev/enable"
touch go
wait "$early"
echo 0 > "$ev/enable"
is "$(cat early.out)" "calls=300" "the early process ran correctly"
is "$(grep -c 'lc_target:' "$TRACING/trace")" 300 \
	"a process started before the probe was added: 300 hits"

is "$(stat_count probe_lifecycle:lc_target "$bin" call 400)" 400 "a process started after: 400 hits"
echo > "$TRACING/trace"
echo 1 > "$ev/enable"
"$bin" fork 4 250 > /dev/null
echo 0 > "$ev/enable"
is "$(grep -c 'lc_target:' "$TRACING/trace")" 1000 "4 forked children x 250: 1000 hits (trace)"
# perf stat over forked children missed hits now and then (stock 982 and
# 922 of 1000 in earlier runs, our kernel once 752; stock counted all 602
# of swapexit in the one run measured): at a switch between two children perf
# swaps their equivalent inherited contexts without changing the events'
# hw.target, so a child's exit closed its sibling's event and the uprobe
# filter took the sibling's breakpoints out while it ran on.  swapexit
# makes that happen every time: on one CPU, B wakes A and blocks (the
# switch swaps their contexts), A exits, B calls on.
# (stock this stop: 958 of 1000; it passes in some runs)
known_stock_race "stock's perf filter drops a running child whose sibling's exit closed its swapped event"
is "$(stat_count probe_lifecycle:lc_target "$bin" fork 4 250)" 1000 "4 forked children x 250: 1000 hits (perf stat)"
is "$(stat_count probe_lifecycle:lc_target taskset -c 0 "$bin" swapexit 300)" 602 \
	"two children swapping perf contexts on one CPU, the first exiting before the second is done: 602 hits (perf stat)"
# The same, but B execs before its N calls: the mmaps of its new mm ask the
# filter whether a perf event wants that mm.  The event left in B's context
# after the swap is A's (hw.target A, exited); the filter must see the task
# the event counts for now, the context's.
is "$(stat_count probe_lifecycle:lc_target taskset -c 0 "$bin" swapexec 300)" 602 \
	"two children swapping perf contexts, the first exiting, the second exec'ing: 602 hits (perf stat)"
is "$(stat_count probe_lifecycle:lc_target "$bin" exec 300)" 300 "an exec'd program: 300 hits"
is "$(stat_count probe_lifecycle:lc_target "$bin" threads 2 5000)" 10000 "2 threads x 5000: 10000 hits"
is "$(sha256sum < "$bin")" "$sum_before" "the file reads unchanged while probed"

# Deleted under a running process that keeps calling the probed function.
rm -f stop stop.count
echo > "$TRACING/trace"
echo 1 > "$ev/enable"
"$bin" spin stop > spin.out &
spinner=$!
wait_count stop.count 2000
echo 0 > "$ev/enable"
hits=$(grep -c 'lc_target:' "$TRACING/trace")
if [ "$hits" -gt 0 ]; then
	pass "the running process hit the probe ($hits)"
else
	fail "the running process hit the probe" "no lc_target records in trace"
fi
check "perf probe -d while the process runs" perf probe -q -d probe_lifecycle:lc_target
# and calls on: 2000 calls more after the deletion
wait_count stop.count $(($(cat stop.count) + 2000))
touch stop
if wait "$spinner" && grep -q '^calls=[0-9]' spin.out; then
	pass "after deletion the process goes on and exits normally ($(cat spin.out))"
else
	fail "after deletion the process goes on and exits normally" "$(cat spin.out)"
fi
is "$("$bin" call 5)" "calls=5" "a new process runs unprobed"
is "$(sha256sum < "$bin")" "$sum_before" "the binary's checksum is unchanged"
