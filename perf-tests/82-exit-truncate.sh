#!/bin/bash
# A process that took a probe hit exits while another truncates a file it
# maps.  The truncate reaches the probe core (uprobe_munmap()) for every
# mm mapping the file, holding only the file's i_mmap_rwsem, and an exiting
# mm frees its probe state before its mappings are gone: the per-mm hit
# cache must outlive every such call.  Any user can own such a file.  A
# use-after-free here is silent on a normal kernel; under KCONFIG=debug
# KASAN reports it and the runner fails.
. /opt/perf-tests/lib/tap.sh
plan 2
trap clear_probes EXIT

bin=$WL/stall
secs=60
file=/tmp/exit-truncate.data

echo "p:xt/st_0 $bin:$(file_offset "$bin" st_0)" >> "$TRACING/uprobe_events"
echo 1 > "$TRACING/events/xt/enable"
: > "$file"
"$bin" truncate "$file" $secs > truncate.out &
tpid=$!
# two exit loops, one per vCPU beside the truncates
n=0
end=$(($(date +%s) + secs - 5))
while [ "$(date +%s)" -lt "$end" ]; do
	"$bin" exits "$file" 200 > exits.1 &
	"$bin" exits "$file" 200 > exits.2
	wait $!
	n=$((n + 400))
	if ! grep -qx 'exits=200 failed=0' exits.1 ||
	   ! grep -qx 'exits=200 failed=0' exits.2; then
		break
	fi
done
wait "$tpid"
echo 0 > "$TRACING/events/xt/enable"
diag "$n exits against $(cat truncate.out)"
is "$(sort -u exits.1 exits.2)" "exits=200 failed=0" "every child exited normally"
hits=$(awk '$2 == "st_0" { print $3 }' "$TRACING/uprobe_profile")
is "$hits" "$n" "each child's probe hit counted"
