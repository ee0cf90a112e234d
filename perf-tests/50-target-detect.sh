#!/bin/bash
# perf probe finds the target from a path without -x; FUNC%return.
. /opt/perf-tests/lib/tap.sh
plan 7
trap clear_probes EXIT

bin=$WL/lifecycle
out=$(perf probe "$bin" lc_target 2>&1)
if printf '%s\n' "$out" | grep -q '^  probe_lifecycle:lc_target '; then
	pass "perf probe $bin lc_target (no -x) adds probe_lifecycle:lc_target"
else
	fail "perf probe $bin lc_target (no -x) adds probe_lifecycle:lc_target" "$out"
fi
got=$(uprobe_offset probe_lifecycle/lc_target)
want=$(file_offset "$bin" lc_target)
is "$((got))" "$((want))" "the offset is lc_target's file offset"
is "$(stat_count probe_lifecycle:lc_target "$bin" call 321)" 321 "perf stat counts 321 hits"

out=$(perf probe -x "$bin" lc_target%return 2>&1)
if printf '%s\n' "$out" | grep -q '^  probe_lifecycle:lc_target__return '; then
	pass "perf probe -x $bin lc_target%return adds lc_target__return"
else
	fail "perf probe -x $bin lc_target%return adds lc_target__return" "$out"
fi
if grep -q "^r:probe_lifecycle/lc_target__return $bin:" "$TRACING/uprobe_events"; then
	pass "it is a return probe (r:) in uprobe_events"
else
	fail "it is a return probe (r:) in uprobe_events" "$(cat "$TRACING/uprobe_events")"
fi
is "$(stat_count probe_lifecycle:lc_target__return "$bin" call 123)" 123 "perf stat counts 123 returns"
check "perf probe -d removes both" perf probe -q -d 'probe_lifecycle:*'
