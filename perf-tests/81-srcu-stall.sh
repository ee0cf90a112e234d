#!/bin/bash
# Threads stalled in user-mode page faults must not stall probe removal,
# and XOL slots of probes that are gone are reused.  1100 probes on st_N
# of the stall workload, each on a load the x86 layer steps out of line:
# (a) one process hits all of them, each exactly as often as it runs (more
# stepped probes than one XOL page has per-probe slots);
# (b) a process takes every per-probe slot of its XOL area with st_0 ..
# st_110, then 16 of its threads step loads from a page a userfaultfd
# leaves missing, which holds every scratch slot (no privilege needed:
# user-mode-only userfaultfd).  The st_0 .. st_110 probes are removed, and
# the process hits 101 other stepped probes: they must get the slots the
# removed probes left, not wait for a scratch slot until the stall ends.
# Meanwhile an unrelated probe is disabled and removed, through
# uprobe_events and through perf probe -d: each must finish within
# seconds.  (A hit that waits for a slot, or faults, inside the probe
# core's global SRCU read side holds up every removal in the system.)
. /opt/perf-tests/lib/tap.sh
plan 14
trap clear_probes EXIT

bin=$WL/stall
rounds=3
stall_secs=40
limit=10

# st_0 .. st_110 in group sta, the others in group st
func_offsets "$bin" '^st_[0-9]+$' |
	awk -v bin="$bin" '{ g = substr($1, 4) + 0 <= 110 ? "sta" : "st"
			     printf "p:%s/%s %s:%s\n", g, $1, bin, $2 }' > probes
is "$(wc -l < probes)" 1100 "1100 probe lines, one per st_N"
is "$(sed -n 's/^p:sta\/\(st_7\) .*:/\1 /p' probes)" "st_7 $(file_offset "$bin" st_7)" \
	"the one-pass offsets agree with file_offset (st_7)"

# (a) every stepped probe of one process, exact counts
check "1100 probes added" sh -c "cat probes >> $TRACING/uprobe_events"
check "enable them" sh -c "echo 1 > $TRACING/events/sta/enable && echo 1 > $TRACING/events/st/enable"
out=$("$bin" run $rounds)
is "$out" "calls=$((rounds * 1100)) bad=0" "the program's results are right under 1100 stepped probes"
is "$(awk -v r=$rounds '$2 ~ /^st_[0-9]+$/ && $3 == r { n++ } END { print n + 0 }' "$TRACING/uprobe_profile")" \
	1100 "uprobe_profile: each of the 1100 probes hit exactly $rounds times"
bad=$(awk -v r=$rounds '$2 ~ /^st_[0-9]+$/ && $3 != r { print $2 "=" $3 }' "$TRACING/uprobe_profile" | head -n 5)
[ -z "$bad" ] || diag "miscounted: $bad"

# (b) two unrelated probes, enabled, then taken away during the stall
other=$WL/hits
echo "p:other/a $other:$(file_offset "$other" main)" >> "$TRACING/uprobe_events"
echo "p:other/b $other:$(file_offset "$other" main)" >> "$TRACING/uprobe_events"
echo 1 > "$TRACING/events/other/enable"

mkdir -p sync
rm -f sync/ready sync/go
"$bin" uffd sync $stall_secs > uffd.out 2>&1 &
pid=$!
for _ in $(seq 600); do
	[ -e sync/ready ] && break
	sleep 0.1
done
check "16 threads are stalled in a user-mode fault" test -e sync/ready
check "remove the probes that own the XOL slots" \
	sh -c "echo 0 > $TRACING/events/sta/enable && grep '^p:sta/' $TRACING/uprobe_events | sed 's/^p:/-:/; s/ .*//' >> $TRACING/uprobe_events"
touch sync/go
sleep 2		# the process hits the other probes now

# seconds since the epoch, to the hundredth
now() { date +%s.%N | cut -c1-13; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

t0=$(now)
echo 0 > "$TRACING/events/other/a/enable"
echo '-:other/a' >> "$TRACING/uprobe_events"
t1=$(now)
took=$(elapsed "$t0" "$t1")
check "disable and remove other/a through uprobe_events in ${took}s (limit ${limit}s)" \
	awk -v t="$took" -v l=$limit 'BEGIN { exit !(t < l) }'

t0=$(now)
echo 0 > "$TRACING/events/other/b/enable"
perf probe -q -d other:b
t1=$(now)
took=$(elapsed "$t0" "$t1")
check "disable other/b and perf probe -d it in ${took}s (limit ${limit}s)" \
	awk -v t="$took" -v l=$limit 'BEGIN { exit !(t < l) }'
is "$(grep -c '^p:other/' "$TRACING/uprobe_events")" 0 "both unrelated probes are gone"

wait "$pid"
rc=$?
out=$(cat uffd.out)
is "$rc/${out% early=*}" "0/stalled=16 bad=0" "the stalled program finishes with right results"
is "${out##* }" "early=yes" "its hits after the removal step from freed slots, not after the stall"
is "$(awk '$2 ~ /^st_(2[0-9][0-9]|1099)$/ { n += $3 } END { print n + 0 }' "$TRACING/uprobe_profile")" \
	$((rounds * 101 + 101)) "those 101 probes counted each hit"
echo 0 > "$TRACING/events/st/enable"
