#!/bin/bash
# Who may probe what: an unprivileged user (nobody) cannot define or read
# uprobe trace events, open the uprobe PMU, or use perf probe; at each
# perf_event_paranoid level it may count a uprobe event root made in its
# own process, raw samples included (its own process's data).  The same
# script runs on stock; the results must be stock's.
. /opt/perf-tests/lib/tap.sh
plan 23
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
tracing_mode=$(stat -c '%a' "$TRACING")
cleanup() {
	echo "$paranoid" > /proc/sys/kernel/perf_event_paranoid
	mount -o "remount,mode=$tracing_mode,gid=0" "$TRACING"
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

# A user's own perf session through perf itself: root made the event and,
# as an admin grants a tracing group (perf-security.rst), tracefs belongs
# to group 1234 (mount options gid and mode), which nobody joins.
lc=$WL/lifecycle
check "root makes an event on lifecycle" \
	sh -c "echo 'p:priv/lc $lc:$(file_offset "$lc" lc_target)' >> $TRACING/uprobe_events"
mount -o remount,mode=750,gid=1234 "$TRACING"
echo 2 > /proc/sys/kernel/perf_event_paranoid
mkdir -p nb
chmod 777 nb
tracer() {
	setpriv --reuid=65534 --regid=65534 --groups=1234 "$@"
}
out=$(cd nb && tracer perf stat -x, -e priv:lc -o stat.out -- "$lc" call 200 2>&1)
is "$?:$out" "0:calls=200" "paranoid 2: nobody in the tracing group: perf stat on its own process runs it"
# (perf names it priv:lcu: a user's event counts user mode only)
is "$(awk -F, '$3 ~ /^priv:lcu?$/ { print $1 }' nb/stat.out)" 200 \
	"paranoid 2: nobody in the tracing group: perf stat counts its own 200 calls"
out=$(cd nb && tracer perf stat -a -x, -e priv:lc -- true 2>&1)
check "paranoid 2: nobody in the tracing group: system-wide perf stat is refused ($(echo "$out" | grep -m1 -i 'access\|permission\|paranoid'))" \
	test -n "$(echo "$out" | grep -i 'access\|permission\|paranoid')"
