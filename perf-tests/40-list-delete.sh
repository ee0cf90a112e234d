#!/bin/bash
# One kprobe and two uprobes in different binaries: perf probe -l lists all
# three, perf probe -d 'probe*:*' removes them all from both files.
. /opt/perf-tests/lib/tap.sh
plan 13
trap clear_probes EXIT

check "kprobe on a kernel function" perf probe -q -a do_sys_openat2
check "uprobe in lifecycle" perf probe -q -x "$WL/lifecycle" lc_target
check "uprobe in libc" perf probe -q -x "$LIBC" free

list=$(perf probe -l 2>&1)
printf '%s\n' "$list" > "$RESULTS/list"
for ev in probe:do_sys_openat2 probe_lifecycle:lc_target probe_libc:free; do
	if printf '%s\n' "$list" | grep -q "^  $ev "; then
		pass "perf probe -l lists $ev"
	else
		fail "perf probe -l lists $ev" "$list"
	fi
done
if printf '%s\n' "$list" | grep -q "probe_libc:free .*(on free in /usr/lib/x86_64-linux-gnu/libc.so.6)"; then
	pass "perf probe -l says where the uprobe is"
else
	fail "perf probe -l says where the uprobe is" "$list"
fi

out=$(perf probe -d 'probe*:*' 2>&1)
for ev in probe:do_sys_openat2 probe_lifecycle:lc_target probe_libc:free; do
	if printf '%s\n' "$out" | grep -q "Removed event: $ev"; then
		pass "perf probe -d says it removed $ev"
	else
		fail "perf probe -d says it removed $ev" "$out"
	fi
done
is "$(cat "$TRACING/kprobe_events")" "" "kprobe_events is empty"
is "$(cat "$TRACING/uprobe_events")" "" "uprobe_events is empty"
is "$(perf probe -l 2>/dev/null)" "" "perf probe -l lists nothing"
