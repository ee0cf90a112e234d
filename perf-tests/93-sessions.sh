#!/bin/bash
# Concurrent users of one uprobe event:
# - two per-task perf sessions on different processes: each process waits
#   with the int3, ending one session leaves the other's, counts exact;
# - a system-wide and a per-task session at once: each counts its own;
# - ftrace and perf on the same event at once: refused (EINTR), as stock;
# - deleting an enabled event: refused (EBUSY);
# - the event enabled in two ftrace instances: each records its hits.
. /opt/perf-tests/lib/tap.sh
plan 21
cleanup() {
	touch goB goC goD goE goF goG go-all
	wait 2> /dev/null
	echo 0 > "$TRACING/events/sess/enable" 2> /dev/null
	for i in a b; do
		echo 0 > "$TRACING/instances/$i/events/sess/enable" 2> /dev/null
		rmdir "$TRACING/instances/$i" 2> /dev/null
	done
	clear_probes
}
trap cleanup EXIT

bin=$WL/lifecycle
target=$(file_offset "$bin" lc_target)
orig=$(od -An -tx1 -j $((target)) -N1 "$bin" | tr -d ' \n')
byte_is() { [ "$(mapped_byte "$1" "$bin" "$target")" = "$2" ]; }
check "add p:sess/lc_target" sh -c "echo 'p:sess/lc_target $bin:$target' >> $TRACING/uprobe_events"

# child_of PID: the lifecycle process perf PID runs, once it is there
child_of() { local c; wait_for pgrep -P "$1" -x lifecycle > /dev/null && c=$(pgrep -P "$1" -x lifecycle) && echo "$c"; }
count_of() { awk -F, '$3 == "sess:lc_target" { print $1 }' "$1"; }

# --- two per-task sessions ---
rm -f goB goC
perf stat -x, -e sess:lc_target -o statB.out -- "$bin" wait goB 2000 > b.out 2>&1 &
sB=$!
perf stat -x, -e sess:lc_target -o statC.out -- "$bin" wait goC 1000 > c.out 2>&1 &
sC=$!
pB=$(child_of $sB)
pC=$(child_of $sC)
if [ -z "$pB" ] || [ -z "$pC" ]; then
	diag "B: ${pB:-no process} $(cat b.out)" "C: ${pC:-no process} $(cat c.out)"
fi
check "two sessions: B waits with the int3" wait_for byte_is "$pB" cc
check "two sessions: C waits with the int3" wait_for byte_is "$pC" cc
touch goB
wait $sB
is "$(cat b.out) $(count_of statB.out)" "calls=2000 2000" "two sessions: B's session counted B's 2000 calls"
is "$(mapped_byte "$pC" "$bin" "$target")" cc "two sessions: B's session ended, C keeps its int3"
touch goC
wait $sC
is "$(cat c.out) $(count_of statC.out)" "calls=1000 1000" "two sessions: C's session counted C's 1000 calls"

# --- system-wide and per-task at once ---
rm -f go-all goD goE
perf stat -a -x, -e sess:lc_target -o stat-all.out -- "$bin" wait go-all 0 > /dev/null 2>&1 &
sAll=$!
perf stat -x, -e sess:lc_target -o statD.out -- "$bin" wait goD 500 > d.out 2>&1 &
sD=$!
pD=$(child_of $sD)
check "system-wide and per-task: D waits with the int3" wait_for byte_is "$pD" cc
# the system-wide session is open once an unrelated process has the int3 too
"$bin" wait goE 300 > e.out &
pE=$!
check "system-wide and per-task: an unrelated process E gets the int3" wait_for byte_is "$pE" cc
touch goD goE
wait $sD $pE
touch go-all
wait $sAll
is "$(cat d.out) $(count_of statD.out)" "calls=500 500" "per-task session next to a system-wide one: D's 500 calls"
is "$(cat e.out)" "calls=300" "E ran right"
is "$(count_of stat-all.out)" 800 "system-wide session: D's and E's calls, 800"
rm -f goG
"$bin" wait goG 1 > /dev/null &
pG=$!
wait_for test -e "goG.ready.$pG"
check "both sessions gone: a new process runs without the int3" wait_for byte_is "$pG" "$orig"
touch goG
wait $pG

# --- ftrace and perf at once, deleting an enabled event ---
echo 1 > "$TRACING/events/sess/enable"
out=$(perf stat -x, -e sess:lc_target -- "$bin" call 10 2>&1)
rc=$?
check "ftrace has the event: a perf session on it fails (status $rc)" test "$rc" != 0
out=$( (echo '-:sess/lc_target' >> "$TRACING/uprobe_events") 2>&1)
is "${out##*: }" "Device or resource busy" "deleting the enabled event: EBUSY"
echo 0 > "$TRACING/events/sess/enable"
rm -f goF
perf stat -x, -e sess:lc_target -o statF.out -- "$bin" wait goF 100 > /dev/null 2>&1 &
sF=$!
pF=$(child_of $sF)
check "a perf session has the event" wait_for byte_is "$pF" cc
out=$( (echo 1 > "$TRACING/events/sess/enable") 2>&1)
is "${out##*: }" "Interrupted system call" "perf has the event: ftrace enabling it fails (EINTR)"
touch goF
wait $sF
is "$(count_of statF.out)" 100 "and the perf session counts its 100 calls"

# --- two ftrace instances ---
mkdir -p "$TRACING/instances/a" "$TRACING/instances/b"
echo 1 > "$TRACING/instances/a/events/sess/enable"
echo 1 > "$TRACING/instances/b/events/sess/enable"
"$bin" call 200 > /dev/null
echo 0 > "$TRACING/instances/b/events/sess/enable"
"$bin" call 100 > /dev/null
echo 0 > "$TRACING/instances/a/events/sess/enable"
is "$(grep -c 'lc_target:' "$TRACING/instances/a/trace")" 300 "instance a: 300 hits"
is "$(grep -c 'lc_target:' "$TRACING/instances/b/trace")" 200 "instance b, disabled after 200 calls: 200 hits"
is "$(grep -c 'lc_target:' "$TRACING/trace")" 0 "the top-level buffer: none"
rmdir "$TRACING/instances/a" "$TRACING/instances/b"
check "the event deletes" sh -c "echo '-:sess/lc_target' >> $TRACING/uprobe_events"
