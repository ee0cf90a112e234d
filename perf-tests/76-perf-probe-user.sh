#!/bin/bash
# perf probe's user-space targets (ours): a library by name, event-name
# collisions, and the one-line errors for a file that is not ELF and for a
# function that does not exist (nothing may be added then).  Stock perf has
# no library-by-name lookup and no "not an ELF file" message: those checks
# are TODO on stock.
. /opt/perf-tests/lib/tap.sh
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
