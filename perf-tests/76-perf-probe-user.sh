#!/bin/bash
# perf probe's user-space targets (ours): a library by name, event-name
# collisions, and the one-line errors for a file that is not ELF and for a
# function that does not exist (nothing may be added then).  Stock perf has
# no library-by-name lookup and no "not an ELF file" message: those checks
# are TODO on stock.
. /opt/perf-tests/lib/tap.sh
plan 45
trap clear_probes EXIT

libc=/usr/lib/x86_64-linux-gnu/libc.so.6
known_stock_limit "stock perf needs a path for -x"
check "perf probe -x libc malloc (library by name)" perf probe -q -x libc malloc
line=$(grep 'probe_libc/malloc ' "$TRACING/uprobe_events" || true)
known_stock_limit "stock perf needs a path for -x"
case $line in
*" $libc:"*) pass "the name resolves to the real path ($line)" ;;
*) fail "the name resolves to the real path" "got: '$line'" ;;
esac
perf probe -q -d 'probe_libc:*' 2> /dev/null || true

check "perf probe -x $libc malloc" perf probe -q -x "$libc" malloc
is "$(($(uprobe_offset probe_libc/malloc)))" "$(($(file_offset /lib64/libc.so.6 malloc)))" \
	"the offset is malloc's file offset"
# As stock: a taken name is an error unless -f asks for a numbered one.
if perf probe -x "$libc" malloc > dup.err 2>&1; then
	fail "the same probe again without -f is refused"
else
	pass "the same probe again without -f is refused"
fi
check "... saying the event exists" grep -q 'event "malloc" already exists' dup.err
check "with -f it gets a new name" perf probe -q -f -x "$libc" malloc
check "... malloc_1" grep -q 'probe_libc/malloc_1 ' "$TRACING/uprobe_events"
n=$(stat_count probe_libc:malloc "$WL/lifecycle" call 10)
check "the probe fires (perf stat counted $n mallocs)" test "${n:-0}" -gt 0
check "perf probe -d probe_libc:* removes both" perf probe -q -d 'probe_libc:*'
is "$(cat "$TRACING/uprobe_events")" "" "uprobe_events is empty"

err=$(perf probe -x /etc/passwd foo 2>&1) && rc=0 || rc=$?
check "not an ELF file: perf probe fails (status $rc)" test "$rc" -ne 0
known_stock_limit "stock perf has no 'not an ELF file' message"
is "$(printf '%s\n' "$err" | head -n 1)" "/etc/passwd is not an ELF file" "not an ELF file: says so"
err=$(perf probe -x "$WL/hits" no_such_function 2>&1) && rc=0 || rc=$?
check "unknown function: perf probe fails (status $rc)" test "$rc" -ne 0
is "$(printf '%s\n' "$err" | head -n 1)" "Probe point 'no_such_function' not found." \
	"unknown function: says so"
is "$(cat "$TRACING/uprobe_events")" "" "failed requests add nothing"

# One listing and one deletion across kprobe_events and uprobe_events, in
# stock perf's format: kprobes first, then uprobes, each with its place;
# within a file in the order of the lines' text (stock lists them from a
# sorted string list).
check "kprobe on do_sys_openat2" perf probe -q -a do_sys_openat2
check "uprobes on malloc and free in libc" perf probe -q -x "$libc" -a malloc -a free
perf probe -l > list.out 2>&1 || true
cp list.out "$RESULTS/list.out"
check "perf probe -l lists the kprobe first" \
	grep -q '^  probe:do_sys_openat2 *(on do_sys_openat2' <(head -n 1 list.out)
is "$(grep probe_libc list.out)" "$(printf '  %-20s (on %s in %s)\n' \
	probe_libc:free free "$libc" probe_libc:malloc malloc "$libc")" \
	"perf probe -l shows the uprobes with their place, sorted as stock perf does"
is "$(perf probe -l 'probe_libc:m*' 2>&1)" "$(printf '  %-20s (on malloc in %s)' probe_libc:malloc "$libc")" \
	"perf probe -l GRP:EVENT-glob lists only what matches"
out=$(perf probe -d '*:*e*' 2>&1) || true
is "$out" "$(printf 'Removed event: %s\n' probe:do_sys_openat2 probe_libc:free)" \
	"perf probe -d GRP:EVENT-glob deletes from both files and says what"
is "$(perf probe -l 2>&1)" "$(printf '  %-20s (on malloc in %s)' probe_libc:malloc "$libc")" \
	"... and leaves the rest"
err=$(perf probe -d 'nothing:here' 2>&1) && rc=0 || rc=$?
check "perf probe -d with no match fails (status $rc)" test "$rc" -ne 0
is "$(printf '%s\n' "$err" | head -n 1)" '"nothing:here" does not hit any event.' \
	"... saying it hit no event"
perf probe -q -d '*:*' 2> /dev/null || true

# --hits: how often each event was hit, from uprobe_profile / kprobe_profile
check "uprobe on lc_target" perf probe -q -x "$WL/lifecycle" lc_target
echo 1 > "$TRACING/events/probe_lifecycle/lc_target/enable"
"$WL/lifecycle" call 37 > /dev/null
echo 0 > "$TRACING/events/probe_lifecycle/lc_target/enable"
out=$(perf probe --hits -l 'probe_lifecycle:*' 2>&1) || true
known_stock_limit "stock perf has no --hits"
case $out in
"  probe_lifecycle:lc_target (on lc_target"*" in $WL/lifecycle) [hits: 37]")
	pass "perf probe -l --hits counts 37 hits of lc_target" ;;
*) fail "perf probe -l --hits counts 37 hits of lc_target" "got: '$out'" ;;
esac
check "kprobe on do_sys_openat2" perf probe -q -a do_sys_openat2
echo 1 > "$TRACING/events/probe/do_sys_openat2/enable"
cat /dev/null /dev/null /dev/null
echo 0 > "$TRACING/events/probe/do_sys_openat2/enable"
out=$(perf probe --hits -l 'probe:*' 2>&1) || true
known_stock_limit "stock perf has no --hits"
case $out in
*"[hits: "[1-9]*", missed: 0]") pass "perf probe -l --hits counts kprobe hits and misses ($out)" ;;
*) fail "perf probe -l --hits counts kprobe hits and misses" "got: '$out'" ;;
esac
perf probe -q -d '*:*' 2> /dev/null || true

# -x NAME --target-pid PID: the library that process maps, through its root
sleep 300 &
pid=$!
known_stock_limit "stock perf has no --target-pid"
check "perf probe -x libc --target-pid $pid malloc" perf probe -q -x libc --target-pid "$pid" malloc
line=$(grep 'probe_libc/malloc ' "$TRACING/uprobe_events" || true)
known_stock_limit "stock perf has no --target-pid"
case $line in
*" $libc:"*) pass "--target-pid: the name resolves to the file the process maps ($line)" ;;
*) fail "--target-pid: the name resolves to the file the process maps" "got: '$line'" ;;
esac
perf probe -q -d 'probe_libc:*' 2> /dev/null || true
known_stock_limit "stock perf has no --target-pid"
check "--target-pid before -x works too" perf probe -q --target-pid "$pid" -x libc -D malloc
kill "$pid"
wait "$pid" 2> /dev/null || true
err=$(perf probe -x libc --target-pid "$pid" malloc 2>&1) && rc=0 || rc=$?
check "--target-pid of a process that is gone: fails (status $rc)" test "$rc" -ne 0
known_stock_limit "stock perf has no --target-pid"
is "$(printf '%s\n' "$err" | head -n 1)" "Process $pid does not exist" "... saying so"
err=$(perf probe -x libnope --target-pid $$ malloc 2>&1) && rc=0 || rc=$?
check "--target-pid with a library the process does not map: fails (status $rc)" test "$rc" -ne 0
known_stock_limit "stock perf has no --target-pid"
is "$(printf '%s\n' "$err" | head -n 1)" "Process $$ maps no file named libnope" "... saying so"
is "$(cat "$TRACING/uprobe_events")" "" "failed --target-pid requests add nothing"

# -x NAME --target-pid PID of a process chrooted into a directory we see:
# /proc/PID/maps already gives our path of its files, and the event must
# name that file, so that -l still says where it is once the process is
# gone (not /proc/PID/root/..., nor that prefix doubled)
croot=$RESULTS/chroot
mkdir -p "$croot/bin" "$croot/lib64" "$croot/usr/lib/x86_64-linux-gnu"
cp "$(command -v sleep)" "$croot/bin/sleep"
cp -L /lib64/ld-linux-x86-64.so.2 "$croot/lib64/"
cp -L /usr/lib/x86_64-linux-gnu/libc.so.6 "$croot/usr/lib/x86_64-linux-gnu/"
chroot "$croot" /bin/sleep 300 &
cpid=$!
for _ in $(seq 50); do
	grep -q libc "/proc/$cpid/maps" 2> /dev/null && break
	sleep 0.1
done
known_stock_limit "stock perf has no --target-pid"
check "chrooted process: perf probe -x libc --target-pid $cpid malloc" \
	perf probe -q -x libc --target-pid "$cpid" malloc
line=$(grep 'probe_libc/malloc ' "$TRACING/uprobe_events" || true)
known_stock_limit "stock perf has no --target-pid"
case $line in
*" $croot/usr/lib/x86_64-linux-gnu/libc.so.6:"*)
	pass "  ... the event names the chroot's libc as we see it ($line)" ;;
*) fail "  ... the event names the chroot's libc as we see it" "got: '$line'" ;;
esac
n=$(stat_count probe_libc:malloc chroot "$croot" /bin/sleep 0 || echo 0)
known_stock_limit "stock perf has no --target-pid"
check "  ... and counts the mallocs of a program run in the chroot ($n)" test "${n:-0}" -gt 0
kill "$cpid"
wait "$cpid" 2> /dev/null || true
list=$(perf probe -l 'probe_libc:malloc' 2>&1)
known_stock_limit "stock perf has no --target-pid"
case $list in
*"(on malloc in $croot/usr/lib/x86_64-linux-gnu/libc.so.6)"*)
	pass "  ... perf probe -l still says where, with the process gone" ;;
*) fail "  ... perf probe -l still says where, with the process gone" "$list" ;;
esac
perf probe -q -d 'probe_libc:*' 2> /dev/null || true

# A function in a PT_LOAD segment of its own, whose bias is not .text's:
# its DWARF address becomes a file offset through that segment, and -l
# turns the offset back into the DWARF place.  Stock converts both ways
# with .text's bias (0x40000000 for 0x4000): a stock defect we fix.
far=$WL/farsection
check "perf probe -x farsection far_fn (DWARF, far_fn in a segment of its own)" \
	perf probe -q -x "$far" far_fn
known_stock_limit "stock perf converts DWARF addresses with .text's bias"
is "$(($(uprobe_offset probe_farsection/far_fn)))" "$(($(file_offset "$far" far_fn)))" \
	"  ... at far_fn's file offset, through its own segment"
n=$(stat_count probe_farsection:far_fn "$far")
known_stock_limit "stock perf converts DWARF addresses with .text's bias"
is "${n:-0}" 10 "  ... which the program's 10 calls hit"
list=$(perf probe -l 'probe_farsection:*' 2>&1)
known_stock_limit "stock perf converts DWARF addresses with .text's bias"
case $list in
*"(on far_fn@"*" in $far)"*) pass "  ... and -l names its DWARF place ($list)" ;;
*) fail "  ... and -l names its DWARF place" "$list" ;;
esac
perf probe -q -d 'probe_farsection:*' 2> /dev/null || true
