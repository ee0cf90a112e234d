#!/bin/bash
# Who may probe what: an unprivileged user (nobody) cannot define or read
# uprobe trace events, open the uprobe PMU, or use perf probe; at each
# perf_event_paranoid level it may count a uprobe event root made in its
# own process, raw samples included (its own process's data).  The same
# script runs on stock; the results must be stock's.
. /opt/perf-tests/lib/tap.sh
plan 19
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
cleanup() {
	echo "$paranoid" > /proc/sys/kernel/perf_event_paranoid
	clear_probes
}
trap cleanup EXIT
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
bin=$WL/pmuopen
off=$(file_offset "$bin" pmu_target)

out=$(nobody sh -c "echo 'p:priv/t $bin:$off' >> $TRACING/uprobe_events" 2>&1)
rc=$?
diag "nobody writing uprobe_events: $rc: $out"
is "$([ "$rc" -ne 0 ] && echo "$out" | grep -c 'Permission denied')" 1 \
	"nobody writing uprobe_events: Permission denied"
is "$(grep -c priv "$TRACING/uprobe_events")" 0 "and no event was made"
check "root makes the event" sh -c "echo 'p:priv/t $bin:$off' >> $TRACING/uprobe_events"
id=$(cat "$TRACING/events/priv/t/id")
out=$(nobody cat "$TRACING/trace" 2>&1)
is "$?:$(echo "$out" | grep -c 'Permission denied')" "1:1" "nobody reading the trace: Permission denied"
out=$(nobody perf probe -x "$bin" pmu_target 2>&1)
rc=$?
check "nobody's perf probe fails ($rc: $(echo "$out" | head -n 1))" test "$rc" -ne 0
is "$(grep -c priv "$TRACING/uprobe_events")" 1 "and made no event"

for level in 2 1 0 -1; do
	echo "$level" > /proc/sys/kernel/perf_event_paranoid
	is "$(nobody "$bin" pmu "$bin" "$off")" EACCES "paranoid $level: nobody opening the uprobe PMU: EACCES"
	is "$(nobody "$bin" tp "$id" 200)" count=200 \
		"paranoid $level: nobody counting root's uprobe event in its own process: 200"
	# uprobe events are TRACE_EVENT_FL_CAP_ANY (stock's too): in a task's
	# own process their raw data is the task's own
	is "$(nobody "$bin" tp "$id" 50 raw)" count=50 \
		"paranoid $level: nobody sampling the raw data in its own process: 50"
done
is "$("$bin" tp "$id" 30 raw)" count=30 "root sampling the raw data: 30"
