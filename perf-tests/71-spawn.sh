#!/bin/bash
# A probed program started every way a real system starts one: a vfork
# child that calls the probed function in its parent's mm before it
# execs, posix_spawn, and 200 processes exec'ing it at once.  Hit counts
# exact in the trace and with perf stat, every process right, the file
# unchanged.
. /opt/perf-tests/lib/tap.sh
plan 8
trap clear_probes EXIT
bin=$WL/lifecycle
sum_before=$(sha256sum < "$bin")
check "probe lc_target" perf probe -q -x "$bin" lc_target
ev=$TRACING/events/probe_lifecycle/lc_target

# traced CMD...: run CMD with the event on; its output, then the hit count
traced() {
	echo > "$TRACING/trace"
	echo 1 > "$ev/enable"
	"$@" | tr '\n' ' '
	echo 0 > "$ev/enable"
	grep -c ' lc_target: ' "$TRACING/trace"
}

is "$(traced "$bin" vfork 200)" "calls=200 calls=600 600" \
	"vfork: 200 calls in the child in its parent's mm, 200 after its exec, 200 in the parent (trace)"
is "$(stat_count probe_lifecycle:lc_target "$bin" vfork 200)" 600 "vfork: 600 hits (perf stat)"
is "$(traced "$bin" spawn 200)" "calls=200 calls=400 400" "posix_spawn: 200 in the child, 200 in the parent (trace)"
is "$(stat_count probe_lifecycle:lc_target "$bin" spawn 200)" 400 "posix_spawn: 400 hits (perf stat)"

# 200 processes exec the probed program at once
many() {
	local pids=() bad=0 pid
	for _ in $(seq 200); do
		"$bin" call 20 > /dev/null &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || bad=$((bad + 1))
	done
	echo "failed=$bad"
}
is "$(traced many)" "failed=0 4000" "200 processes at once x 20 calls: all exit 0, 4000 hits (trace)"
# perf swaps the inherited contexts of siblings; a child that execs after
# its own event went with an exiting sibling's context got no breakpoints
# while the filter looked at hw.target (on our kernel before 0033's filter
# fix, 3920 and 3960 of 4000 in two of three runs; stock, measured: 2330)
known_stock_limit "stock's perf filter looks at the event's hw.target, not the task holding it"
is "$(stat_count probe_lifecycle:lc_target sh -c "
	for i in \$(seq 200); do $bin call 20 > /dev/null & done; wait")" 4000 \
	"200 processes at once x 20 calls: 4000 hits (perf stat)"
is "$(sha256sum < "$bin")" "$sum_before" "the file reads unchanged"
