#!/bin/bash
# Stress for a bounded time: threads, forks and execs call a probed function
# while probes on it (entry and return, several consumers) are added,
# enabled, disabled and removed in a loop.  Nothing may crash, every program
# must finish with its exact result, and afterwards a steady probe counts
# exactly again.
. /opt/perf-tests/lib/tap.sh
plan 5
trap clear_probes EXIT

bin=$WL/lifecycle
off=$(file_offset "$bin" lc_target)
seconds=${STRESS_SECONDS:-30}
rm -f stop

# The load: each job loops until ./stop appears; every run must print the
# exact number of calls it made.
. /opt/perf-tests/lib/load.sh
lifecycle_load threads > load-threads.out & lt=$!
lifecycle_load fork > load-fork.out & lf=$!
lifecycle_load exec > load-exec.out & le=$!

end=$(($(date +%s) + seconds))
rounds=0 errors=0
while [ "$(date +%s)" -lt "$end" ]; do
	{
		echo "p:stress/a $bin:$off"
		echo "r:stress/b $bin:$off"
		echo "p:stress/c $bin:$off %ax %di"
	} >> "$TRACING/uprobe_events" || errors=$((errors + 1))
	echo 1 > "$TRACING/events/stress/a/enable" || errors=$((errors + 1))
	echo 1 > "$TRACING/events/stress/b/enable" || errors=$((errors + 1))
	sleep 0.1
	echo 1 > "$TRACING/events/stress/c/enable" || errors=$((errors + 1))
	echo 0 > "$TRACING/events/stress/a/enable" || errors=$((errors + 1))
	sleep 0.1
	echo 0 > "$TRACING/events/stress/b/enable"
	echo 0 > "$TRACING/events/stress/c/enable"
	echo > "$TRACING/uprobe_events" || errors=$((errors + 1))
	rounds=$((rounds + 1))
done
touch stop
ok=1
for job in $lt $lf $le; do
	wait "$job" || ok=0
done
is "$errors" 0 "$rounds rounds of add/enable/disable/remove under load, no errors"
is "$ok" 1 "threads, forks and execs under the changing probes all computed exact results"
[ "$ok" = 1 ] || diag "$(cat load-*.out | head -n 10)"
is "$(cat "$TRACING/uprobe_events")" "" "no probe left behind"

echo "p:stress/a $bin:$off" >> "$TRACING/uprobe_events"
echo > "$TRACING/trace"
echo 1 > "$TRACING/events/stress/a/enable"
out=$("$bin" threads 4 5000)
echo 0 > "$TRACING/events/stress/a/enable"
is "$out" "calls=20000" "afterwards, 4 threads run correctly"
is "$(grep -c ' a: ' "$TRACING/trace")" 20000 "afterwards, a steady probe counts 20000 hits exactly"
