#!/bin/bash
# The probed file changes while a process runs it with the probe enabled.
# - Deleted: the running process goes on hitting the probe (the event still
#   names the deleted file's inode) and finishes right; the event deletes.
# - Replaced by rename() (a new inode at the path): the running process keeps
#   the old file and its probe; a new process runs the new file unprobed,
#   since the event is the old inode's; an event made anew probes it.
# - Written or truncated while running: ETXTBSY, as without probes.
# - Written while probed but not running: the file holds exactly what was
#   written (no breakpoint byte of ours reaches the file).
. /opt/perf-tests/lib/tap.sh
plan 17
cleanup() {
	touch stop
	[ -z "${spinner:-}" ] || wait "$spinner" 2> /dev/null
	clear_probes
}
trap cleanup EXIT

prog=$PWD/prog
off=$(file_offset "$WL/lifecycle" lc_target)
hits() { awk '$2 == "lc_target" { print $3 }' "$TRACING/uprobe_profile"; }
add_event() { echo "p:fc/lc_target $prog:$off" >> "$TRACING/uprobe_events"; }

# start_spinner: run $prog spin, with the event enabled, until it has hit
start_spinner() {
	rm -f stop stop.count
	"$prog" spin stop > spin.out &
	spinner=$!
	wait_count stop.count 1000
}

# stop_spinner: 2000 calls more, then stop it; prints its output
stop_spinner() {
	wait_count stop.count $(($(cat stop.count) + 2000))
	touch stop
	wait "$spinner"
	spinner=
	cat spin.out
}

# --- deleted ---
cp "$WL/lifecycle" "$prog"
check "add an event on a copy of lifecycle" add_event
echo 1 > "$TRACING/events/fc/enable"
start_spinner
rm "$prog"
before=$(hits)
out=$(stop_spinner)
n=${out#calls=}
check "deleted: the running process finishes right ($out)" test "$n" -gt 0
check "deleted: it hit the probe after the deletion ($before, then $(hits))" test "$(hits)" -gt "$before"
is "$(hits)" "$n" "deleted: one hit per call ($n)"
echo 0 > "$TRACING/events/fc/enable"
check "deleted: the event deletes" sh -c "echo '-:fc/lc_target' >> $TRACING/uprobe_events"

# --- replaced by rename() ---
cp "$WL/lifecycle" "$prog"
check "add the event again" add_event
echo 1 > "$TRACING/events/fc/enable"
start_spinner
cp "$WL/lifecycle" "$prog.new"
mv "$prog.new" "$prog"
is "$("$prog" call 300)" "calls=300" "renamed over: a new process runs the new file right"
out=$(stop_spinner)
is "$(hits)" "${out#calls=}" "renamed over: the hits are the old process's only, one per call"
echo 0 > "$TRACING/events/fc/enable"
check "the old file's event deletes" sh -c "echo '-:fc/lc_target' >> $TRACING/uprobe_events"
check "an event on the new file" add_event
is "$(stat_count fc:lc_target "$prog" call 300)" 300 "the new file's event: 300 hits"

# --- written or truncated while running ---
echo 1 > "$TRACING/events/fc/enable"
start_spinner
out=$( (: > "$prog") 2>&1)
is "$?:${out##*: }" "1:Text file busy" "writing the running, probed program: ETXTBSY"
out=$(truncate -s 0 "$prog" 2>&1)
is "$?:${out##*: }" "1:Text file busy" "truncating it: ETXTBSY"
out=$(stop_spinner)
is "$(hits)" "$((300 + ${out#calls=}))" "the process ran on right and hit its probe every call"
echo 0 > "$TRACING/events/fc/enable"

# --- written while probed, nobody running it ---
echo 1 > "$TRACING/events/fc/enable"
cp "$WL/manyprobes" "$prog"
is "$(sha256sum < "$prog")" "$(sha256sum < "$WL/manyprobes")" "written while probed: the file holds exactly the new bytes"
cp "$WL/lifecycle" "$prog"
is "$(sha256sum < "$prog")" "$(sha256sum < "$WL/lifecycle")" "and again"
echo 0 > "$TRACING/events/fc/enable"
check "the event deletes" sh -c "echo '-:fc/lc_target' >> $TRACING/uprobe_events"
