#!/bin/bash
# Scale: (a) 1000 probes in one binary, added in one write, each hit exactly
# once per round; (b) one probe on a binary that 200 waiting processes have
# mapped when it is added and enabled: every process's calls are hits.
. /opt/perf-tests/lib/tap.sh
plan 20
trap clear_probes EXIT

bin=$WL/manyprobes
rounds=3
nprocs=200
per_proc=10
sum_before=$(sha256sum < "$bin")

# mp_N's file offsets, from one pass over readelf's symbols and segments.
func_offsets "$bin" '^mp_[0-9]+$' |
	awk -v bin="$bin" '{ printf "p:mp/%s %s:%s\n", $1, bin, $2 }' > probes
is "$(wc -l < probes)" 1000 "1000 probe lines, one per mp_N"
is "$(sed -n 's/^p:mp\/\(mp_5\) .*:/\1 /p' probes)" "mp_5 $(file_offset "$bin" mp_5)" \
	"the one-pass offsets agree with file_offset (mp_5)"
is "$(sed -n 's/^p:mp\/\(mp_999\) .*:/\1 /p' probes)" "mp_999 $(file_offset "$bin" mp_999)" \
	"the one-pass offsets agree with file_offset (mp_999)"

ref=$("$bin" run $rounds)
check "1000 probes added in one write" sh -c "cat probes >> $TRACING/uprobe_events"
is "$(grep -c '^p:mp/mp_' "$TRACING/uprobe_events")" 1000 "uprobe_events lists 1000 probes"
check "enable the mp group" sh -c "echo 1 > $TRACING/events/mp/enable"
out=$("$bin" run $rounds)
rc=$?
echo 0 > "$TRACING/events/mp/enable"
cp "$TRACING/uprobe_profile" "$RESULTS/uprobe_profile.a"
is "$rc" 0 "the program exits 0 under 1000 probes"
is "$out" "$ref" "its output equals the unprobed run's ($ref)"
# uprobe_profile: "FILE EVENT HITS MISSES"; one thread, so the counts are exact.
is "$(awk -v r=$rounds '$2 ~ /^mp_[0-9]+$/ && $3 == r { n++ } END { print n + 0 }' "$TRACING/uprobe_profile")" \
	1000 "uprobe_profile: each of the 1000 probes hit exactly $rounds times"
bad=$(awk -v r=$rounds '$2 ~ /^mp_[0-9]+$/ && $3 != r { print $2 "=" $3 }' "$TRACING/uprobe_profile" | head -n 5)
[ -z "$bad" ] || diag "miscounted: $bad"
check "remove the 1000 probes" sh -c "echo > $TRACING/uprobe_events"
is "$(grep -c . "$TRACING/uprobe_events")" 0 "uprobe_events is empty again"
is "$("$bin" run $rounds)" "$ref" "after removal the program runs correctly"

# (b) 200 processes mapped the binary before the probe exists.
rm -f go go.ready.*
mkfifo go	# the processes sleep in open() until we open it to write
pids=()
for i in $(seq $nprocs); do
	"$bin" wait go $per_proc > "out.$i" 2>&1 &
	pids+=($!)
done
for _ in $(seq 6000); do
	[ "$(find . -maxdepth 1 -name 'go.ready.*' | wc -l)" -ge $nprocs ] && break
	sleep 0.1
done
is "$(find . -maxdepth 1 -name 'go.ready.*' | wc -l)" $nprocs "$nprocs processes are waiting"
off=$(file_offset "$bin" mp_5)
check "add p:mp/mp_5 at $off" sh -c "echo 'p:mp/mp_5 $bin:$off' >> $TRACING/uprobe_events"
echo > "$TRACING/trace"
echo 1 > "$TRACING/events/mp/mp_5/enable"
exec 3> go	# releases every reader; closing gives them EOF
exec 3>&-
failed=0
for pid in "${pids[@]}"; do
	wait "$pid" || failed=$((failed + 1))
done
echo 0 > "$TRACING/events/mp/mp_5/enable"
cp "$TRACING/trace" "$RESULTS/trace.b"
is "$failed" 0 "all $nprocs processes exit 0"
is "$(cat out.* | grep -c "^calls=$per_proc bad=0\$")" $nprocs "all $nprocs report $per_proc correct calls"
is "$(grep -c ' mp_5: ' "$TRACING/trace")" $((nprocs * per_proc)) \
	"trace: $nprocs x $per_proc = $((nprocs * per_proc)) hits"
is "$(grep ' mp_5: ' "$TRACING/trace" | awk '{ print $1 }' | sort | uniq -c | awk -v n=$per_proc '$1 == n' | wc -l)" \
	$nprocs "trace: each of the $nprocs processes hit $per_proc times"
check "remove the probe" sh -c "echo '-:mp/mp_5' >> $TRACING/uprobe_events"
is "$(sha256sum < "$bin")" "$sum_before" "the binary's checksum is unchanged"
