#!/bin/bash
# The seed's commands, verbatim: probe libc's malloc, list functions, record.
. /opt/perf-tests/lib/tap.sh
plan 6
trap clear_probes EXIT

out=$(perf probe -x /lib64/libc.so.6 malloc 2>&1)
if printf '%s\n' "$out" | grep -q '^  probe_libc:malloc '; then
	pass "perf probe -x /lib64/libc.so.6 malloc prints probe_libc:malloc"
else
	fail "perf probe -x /lib64/libc.so.6 malloc prints probe_libc:malloc" "$out"
fi

want=$(file_offset "$LIBC" malloc)
got=$(uprobe_offset probe_libc/malloc)
if [ -n "$want" ] && [ -n "$got" ] && [ $((want)) = $((got)) ]; then
	pass "uprobe_events offset $got is malloc's file offset from readelf"
else
	fail "uprobe_events offset is malloc's file offset from readelf" \
		"expected: $want" "saw:      $got" "$(cat "$TRACING/uprobe_events")"
fi
is "$(awk '/probe_libc\/malloc/ { print $2 }' "$TRACING/uprobe_events" | cut -d: -f1)" \
	/usr/lib/x86_64-linux-gnu/libc.so.6 "the probe names libc by its real path"

if perf probe -F -x /lib64/libc.so.6 2>&1 | grep -qx malloc; then
	pass "perf probe -F -x /lib64/libc.so.6 lists malloc"
else
	fail "perf probe -F -x /lib64/libc.so.6 lists malloc"
fi

if out=$(perf record -e probe_libc:malloc -aR -o "$RESULTS/perf.data" sleep 1 2>&1); then
	pass "perf record -e probe_libc:malloc -aR sleep 1 succeeds"
else
	fail "perf record -e probe_libc:malloc -aR sleep 1 succeeds" "$out"
fi
n=$(perf script -i "$RESULTS/perf.data" 2>/dev/null | grep -c 'probe_libc:malloc')
if [ "$n" -gt 0 ]; then
	pass "the recording holds malloc hits ($n)"
else
	fail "the recording holds malloc hits" "perf script shows none"
fi
