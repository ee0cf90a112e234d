#!/bin/bash
# Probe hits under a signal storm: the main thread calls a probed function
# while a 100us timer and a second thread keep signalling it, and the signal
# handler calls the probed function too (often while the interrupted hit is
# being handled).  Every call is one hit, no more, no less; results are right.
# Once with a first instruction that is single-stepped out of line (a
# %rip-relative load), once with one that is emulated (push %rbp).
. /opt/perf-tests/lib/tap.sh
plan 21
trap clear_probes EXIT

bin=$WL/sigstorm
n=10000
sum_before=$(sha256sum < "$bin")

add() { echo "$1" >> "$TRACING/uprobe_events"; }
# overruns: events the trace buffer dropped (a count from it would be short).
overruns() { cat "$TRACING"/per_cpu/cpu*/stats | awk '$1 == "overrun:" { s += $2 } END { print s + 0 }'; }
# field NAME LINE: the value of NAME=... in a "main=.. handler=.." line.
field() { printf '%s\n' "$2" | sed -n "s/.*\\<$1=\\([0-9]*\\).*/\\1/p"; }

for mode in step push; do
	case $mode in
	step) fn=ss_step what="single-stepped %rip-relative load" ;;
	push) fn=ss_push what="emulated push %rbp" ;;
	esac
	ref=$("$bin" "$mode" $n)
	off=$(file_offset "$bin" "$fn")
	check "$fn ($what): add p:sig/$fn at $off" add "p:sig/$fn $bin:$off"
	echo > "$TRACING/trace"
	echo 1 > "$TRACING/events/sig/$fn/enable"
	out=$("$bin" "$mode" $n)
	rc=$?
	echo 0 > "$TRACING/events/sig/$fn/enable"
	cp "$TRACING/trace" "$RESULTS/trace.$mode"
	is "$rc" 0 "$fn: the probed program exits 0 (no crash, no wrong result)"
	diag "unprobed: $ref" "probed:   $out"
	is "$(field main "$out")" $n "$fn: main made $n calls"
	is "$(field bad "$out")" 0 "$fn: every result right, in main and in the handlers"
	is "$(field sum "$out")" "$(field sum "$ref")" "$fn: the checksum equals the unprobed run's"
	handler=$(field handler "$out")
	if [ -n "$handler" ] && [ "$handler" -ge $((n / 64)) ]; then
		pass "$fn: the handlers called it $handler times (>= $((n / 64)))"
	else
		fail "$fn: the handlers called it at least $((n / 64)) times" "$out"
	fi
	is "$(overruns)" 0 "$fn: the trace buffer dropped nothing"
	is "$(grep -c " $fn: " "$TRACING/trace")" $((n + ${handler:-0})) \
		"$fn: trace: hits == main calls + handler calls ($n + ${handler:-?})"
	is "$(awk -v e="$fn" '$2 == e { print $3 }' "$TRACING/uprobe_profile")" \
		$((n + ${handler:-0})) "$fn: uprobe_profile: hits == main calls + handler calls"
	check "$fn: remove the probe" add "-:sig/$fn"
done
is "$(sha256sum < "$bin")" "$sum_before" "the binary's checksum is unchanged"
