#!/bin/bash
# The guest is what the other tests assume: perf with its libraries, tracefs,
# the seed's /lib64/libc.so.6, loopback.
. /opt/perf-tests/lib/tap.sh
plan 11

opts=$(perf version --build-options 2>&1)
for feature in libelf dwarf libunwind libslang; do
	if printf '%s\n' "$opts" | grep -Eq "^ +$feature: \[ on +\]"; then
		pass "perf built with $feature"
	else
		fail "perf built with $feature" "perf version --build-options said:" "$opts"
	fi
done
check "tracefs at /sys/kernel/tracing" test -f "$TRACING/uprobe_events"
check "/sys/kernel/debug/tracing works" test -f /sys/kernel/debug/tracing/uprobe_events
check "/lib64/libc.so.6 is glibc" readelf -h "$LIBC"
is "$(realpath "$LIBC")" /usr/lib/x86_64-linux-gnu/libc.so.6 "/lib64/libc.so.6 resolves to the real libc"
check "loopback is up (ping 127.0.0.1)" ping -c 1 -W 2 127.0.0.1
is "$(uname -r | grep -c -- -pu)" 1 "running the rig's kernel ($(uname -r))"
# the tests' races and scaling figures assume two CPUs (qemu/run.sh -smp 2)
is "$(nproc)" 2 "two CPUs online"
