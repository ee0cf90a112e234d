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
# - Its probed instruction rewritten in place (same inode, same first byte):
#   a new process runs the new instruction unprobed, with a warning (the
#   probe decoded the old one); the event made anew probes the new one.
. /opt/perf-tests/lib/tap.sh
plan 27
trap spin_cleanup EXIT

prog=$PWD/prog
off=$(file_offset "$WL/lifecycle" lc_target)
hits() { awk '$2 == "lc_target" { print $3 }' "$TRACING/uprobe_profile"; }
add_event() { echo "p:fc/lc_target $prog:$off" >> "$TRACING/uprobe_events"; }

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
spin_start "$prog"
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
spin_start "$prog"
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
spin_start "$prog"
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

# --- the probed instruction rewritten in place ---
cp "$WL/lifecycle" "$prog"
check "an event on a fresh copy" add_event
echo 1 > "$TRACING/events/fc/enable"
is "$("$prog" sum 10)" "$("$WL/lifecycle" sum 10)" "probed: the program's sum is right"
insn=$(od -An -tx1 -j $((off)) -N3 "$prog" | tr -d ' \n')
check "lc_target starts with mov disp(%rip),%rax (48 8b 05: $insn)" test "$insn" = 488b05
# mov $42,%rax: the same first byte (48), another instruction
printf '\110\307\300\052\000\000\000' | dd of="$prog" bs=1 seek=$((off)) conv=notrunc 2> /dev/null
cp "$prog" plain	# the same bytes in another file: nothing probes it
want=$("$PWD/plain" sum 100)
dmesg -c > /dev/null
got=$("$prog" sum 100)
# stock (measured): sum=166650 for 9150, computed with the old load
known_stock_limit "stock installs the int3 where the first byte matches and runs the old instruction"
is "$got" "$want" "rewritten in place under the probe: a new process computes what the file says now"
known_stock_limit "stock has no such warning"
warned=$(dmesg | grep -c 'the file changed since the probe was made')
check "and the kernel says the file changed, not probing it (once per mapping: $warned)" \
	test "$warned" -gt 0
echo 0 > "$TRACING/events/fc/enable"
check "the old event deletes" sh -c "echo '-:fc/lc_target' >> $TRACING/uprobe_events"
check "an event made anew on the rewritten file" add_event
echo 1 > "$TRACING/events/fc/enable"
is "$("$prog" sum 100)" "$want" "the new event: the program computes what the file says"
is "$(hits)" 100 "the new event: 100 hits"
echo 0 > "$TRACING/events/fc/enable"
check "the event deletes" sh -c "echo '-:fc/lc_target' >> $TRACING/uprobe_events"
