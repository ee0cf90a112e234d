#!/bin/bash
# SDT semaphores (a uprobe's ref_ctr_offset): while a probe naming the
# semaphore is enabled, each process mapping the binary sees it at exactly 1;
# before and after, 0.  Covers a process running before the probe was
# enabled, one started while it is enabled (the kernel maps text before data
# and must set the counter once the data is mapped), two processes at once
# (1 each, not 2), a child forked while enabled (1, not 2), and
# disable/re-enable/removal.  The program calls the probed sdt_fn only when
# it sees the semaphore set, as an SDT site does; those calls are the hits.
. /opt/perf-tests/lib/tap.sh
plan 27
trap 'touch a/stop b/stop c/stop c/child/stop d/stop e/stop 2> /dev/null; clear_probes' EXIT

bin=$WL/sdt
sum_before=$(sha256sum < "$bin")

# The semaphore's file offset: vaddr - p_vaddr + p_offset of its LOAD segment.
sema_offset() {
	local value
	value=$(readelf -Ws "$bin" | awk '$4 == "OBJECT" && $8 == "sdt_sema" { print $2; exit }')
	[ -n "$value" ] || return 1
	vaddr_offset "$bin" "0x$value"
}

# ask DIR: make the watcher in DIR read its semaphore; print what it saw.
ask() {
	local d=$1
	rm -f "$d/a"
	touch "$d/q"
	for _ in $(seq 1000); do
		[ -e "$d/a" ] && break
		sleep 0.01
	done
	[ -e "$d/a" ] || { echo "no answer"; return 1; }
	tail -n 1 "$d/out" | sed -n 's/^sema=//p'
}
# start_value DIR: what the watcher in DIR saw first thing in main.
start_value() {
	local d=$1
	for _ in $(seq 1000); do
		[ -s "$d/out" ] && break
		sleep 0.01
	done
	sed -n 's/^start sema=//p' "$d/out"
}
start() { mkdir -p "$1"; "$bin" watch "$@" & }

func=$(file_offset "$bin" sdt_fn)
sema=$(sema_offset)
if [ -z "$sema" ]; then
	fail "find the semaphore's file offset" "$(readelf -Ws "$bin" | grep sdt_sema)"
	exit 0
fi
diag "sdt_fn at $func, sdt_sema at file offset $sema"
ev=$TRACING/events/sdt/ev

start a
is "$(start_value a)" 0 "a process started before the probe sees 0 at start"
is "$(ask a)" 0 "... and 0 when asked"
check "add p:sdt/ev $bin:$func($sema)" sh -c "echo 'p:sdt/ev $bin:$func($sema)' >> $TRACING/uprobe_events"
is "$(ask a)" 0 "added but not enabled: still 0"
echo > "$TRACING/trace"
echo 1 > "$ev/enable"
is "$(ask a)" 1 "enabled: the running process sees 1"
start b
is "$(start_value b)" 1 "a process started while enabled sees 1 from its start"
is "$(ask b)" 1 "... and 1 when asked"
is "$(ask a)" 1 "two processes: the first still sees exactly 1"
start c fork
is "$(start_value c)" 1 "a process started while enabled, then forking: parent 1 at start"
is "$(start_value c/child)" 1 "... the fork child sees 1 at its start"
is "$(ask c)" 1 "... parent sees 1 after the fork (not 2)"
is "$(ask c/child)" 1 "... child sees 1 (not 2)"
echo 0 > "$ev/enable"
is "$(ask a)" 0 "disabled: the first process sees 0"
is "$(ask b)" 0 "disabled: the process started while enabled sees 0"
is "$(ask c)" 0 "disabled: the forking parent sees 0"
is "$(ask c/child)" 0 "disabled: the fork child sees 0"
is "$(grep -c ' ev: ' "$TRACING/trace")" 5 "the 5 answers given while enabled made 5 hits"

echo 1 > "$ev/enable"
is "$(ask a)" 1 "re-enabled: 1 again"
is "$(ask c/child)" 1 "re-enabled: the child sees 1 again"
start d
is "$(start_value d)" 1 "re-enabled: a new process sees 1 from its start"
echo 0 > "$ev/enable"
check "remove the probe" sh -c "echo '-:sdt/ev' >> $TRACING/uprobe_events"
is "$(ask a)" 0 "removed: the first process sees 0"
is "$(ask c/child)" 0 "removed: the child sees 0"
is "$(ask d)" 0 "removed: the last process sees 0"
start e
is "$(start_value e)" 0 "a process started after removal sees 0"

touch a/stop b/stop c/stop c/child/stop d/stop e/stop
failed=0
for _ in a b c d e; do
	wait -n || failed=$((failed + 1))
done
is "$failed" 0 "every watcher exits 0"
is "$(sha256sum < "$bin")" "$sum_before" "the binary's checksum is unchanged"
