#!/bin/bash
# make stress: STRESS_SECONDS (default 600) of everything at once, meant for
# KCONFIG=debug (KASAN, lockdep), where the runner fails on any report:
#  - threads, forks and execs calling a probed function while probes on it
#    (entry, return, arguments, several consumers) come and go;
#  - processes that take a probe hit and exit while their mapped file is
#    truncated (the per-mm hit cache against uprobe_munmap());
#  - threads stepping probed loads from a page a userfaultfd leaves
#    missing, while other probes of the process are hit and removed;
#  - multi-probe events whose deletion is tried while they are enabled.
# Every program must finish with its exact result, every refused deletion
# must leave its event working, and no probe may be left behind.
. /opt/perf-tests/lib/tap.sh
plan 6
trap clear_probes EXIT

seconds=${STRESS_SECONDS:-600}
lc=$WL/lifecycle
st=$WL/stall
lc_off=$(file_offset "$lc" lc_target)
rm -f stop
end=$(($(date +%s) + seconds))
diag "running for ${seconds}s"

# 1. load on lc_target: each job checks every run's exact result
. /opt/perf-tests/lib/load.sh
for job in threads fork exec; do
	lifecycle_load $job > "load-$job.out" &
done

# 2. exits against truncates of a file the exiting processes map
echo "p:soakx/st_0 $st:$(file_offset "$st" st_0)" >> "$TRACING/uprobe_events"
echo 1 > "$TRACING/events/soakx/enable"
: > /tmp/soak.data
"$st" truncate /tmp/soak.data "$seconds" > truncate.out &
(while [ ! -e stop ]; do "$st" exits /tmp/soak.data 100; done) > exits.out &

# 3. userfaultfd stalls: every st_N probed, 16 threads stalled in steps
func_offsets "$st" '^st_[1-9][0-9]*$' |
	awk -v bin="$st" '{ printf "p:soaks/%s %s:%s\n", $1, bin, $2 }' >> "$TRACING/uprobe_events"
echo 1 > "$TRACING/events/soaks/enable"
mkdir -p uffd
(while [ ! -e stop ]; do
	rm -f uffd/ready
	touch uffd/go
	"$st" uffd uffd 5 | grep -v '^stalled=16 bad=0 early=' || true
done) > uffd.out &

# 4. the probe churn, with multi-probe events deleted while enabled
rounds=0 errors=0 refused=0
while [ "$(date +%s)" -lt "$end" ]; do
	{
		echo "p:soak/a $lc:$lc_off"
		echo "r:soak/b $lc:$lc_off"
		echo "p:soak/c $lc:$lc_off %ax %di +0(%di):u64"
		echo "p:soakm/m $lc:$lc_off"
		echo "p:soakm/m $st:$(file_offset "$st" st_1)"
	} >> "$TRACING/uprobe_events" || errors=$((errors + 1))
	echo 1 > "$TRACING/events/soak/enable" || errors=$((errors + 1))
	echo 1 > "$TRACING/events/soakm/enable" || errors=$((errors + 1))
	sleep 0.1
	if echo '-:soakm/m' >> "$TRACING/uprobe_events" 2> /dev/null; then
		errors=$((errors + 1))	# an enabled event must not go
	else
		refused=$((refused + 1))
	fi
	echo 0 > "$TRACING/events/soak/a/enable" || errors=$((errors + 1))
	sleep 0.1
	echo 0 > "$TRACING/events/soak/enable"
	echo 0 > "$TRACING/events/soakm/enable"
	{
		echo '-:soak/a'
		echo '-:soak/b'
		echo '-:soak/c'
		echo '-:soakm/m'
	} >> "$TRACING/uprobe_events" || errors=$((errors + 1))
	rounds=$((rounds + 1))
done
touch stop
wait
echo 0 > "$TRACING/events/soakx/enable"
echo 0 > "$TRACING/events/soaks/enable"

is "$errors" 0 "$rounds rounds of add/enable/delete-while-enabled/disable/remove, no errors"
is "$refused" "$rounds" "every deletion of an enabled multi-probe event was refused"
is "$(cat load-*.out)" "" "threads, forks and execs computed exact results throughout"
is "$(sort -u exits.out)" "exits=100 failed=0" "every exiting child ran normally ($(wc -l < exits.out) batches, $(cat truncate.out))"
is "$(cat uffd.out)" "" "every userfaultfd-stalled run finished with right results"
echo > "$TRACING/uprobe_events"
is "$(cat "$TRACING/uprobe_events")" "" "no probe left behind"
