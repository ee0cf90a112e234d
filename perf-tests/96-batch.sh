#!/bin/bash
# Breakpoints of many probes enabled or disabled in one write (a group's
# enable file), which the fork installs and removes together, per mm and
# page, before the write returns to user space:
# (a) 1000 probes on mp_0 .. mp_999 of manyprobes, plus mp_xbegin, which is
#     refused: the group's enable reports it and enables the 1000 others;
#     20 processes that mapped the program before see every probe exactly
#     as often as they call it; a process that waits meanwhile maps copies
#     of the probed pages that hold the int3s (its own or the shared ones)
#     while they are on, and shares the page cache again once they are off;
# (b) the group enabled and disabled 20 times while programs start and
#     exit under it: every one runs exactly as unprobed, and afterwards the
#     probes count exactly again.
. /opt/perf-tests/lib/tap.sh
plan 14
trap 'touch stop; clear_probes' EXIT

bin=$WL/manyprobes
nprocs=20
rounds=2
sum_before=$(sha256sum < "$bin")
ref=$("$bin" run $rounds)

func_offsets "$bin" '^mp_[0-9]+$|^mp_xbegin$' |
	awk -v bin="$bin" '{ printf "p:mpb/%s %s:%s\n", $1, bin, $2 }' > probes
is "$(wc -l < probes)" 1001 "1001 probe lines: mp_0 .. mp_999 and mp_xbegin"
check "1001 probes added in one write" sh -c "cat probes >> $TRACING/uprobe_events"

rm -f go go.ready.* idle idle.ready.*
mkfifo go idle
pids=()
for i in $(seq $nprocs); do
	"$bin" waitrun go $rounds > "out.$i" 2>&1 &
	pids+=($!)
done
"$bin" wait idle 1 > idle.out 2>&1 &
idler=$!
wait_files 'go.ready.*' $nprocs
wait_for test -e "idle.ready.$idler"
off0=$(file_offset "$bin" mp_0)
off999=$(file_offset "$bin" mp_999)
mp0=$(mapped_addr "$idler" "$bin" "$off0")
mp999=$(mapped_addr "$idler" "$bin" "$off999")
# kinds: what the idler maps at mp_0 and mp_999 (text_kind), with anon and
# shared (a copy that holds the int3s) as "copy", file and none as "cache"
kinds() {
	local k out=
	for k in "$(text_kind "$idler" "$mp0" "$bin" "$off0")" "$(text_kind "$idler" "$mp999" "$bin" "$off999")"; do
		case $k in
		anon | shared) k=copy ;;
		file | none) k=cache ;;
		esac
		out="$out${out:+ }$k"
	done
	echo "$out"
}

known_stock_limit "stock accepts a probe on xbegin (see 78-insn-safety)"
if echo 1 > "$TRACING/events/mpb/enable" 2> enable.err; then
	fail "enabling the group reports the refused probe"
else
	pass "enabling the group reports the refused probe ($(sed 's/.*: //' enable.err))"
fi
on=$(grep -l 1 "$TRACING"/events/mpb/mp_*/enable | wc -l)
known_stock_limit "stock accepts a probe on xbegin (see 78-insn-safety)"
is "$on" 1000 "the 1000 others are enabled"
is "$(kinds)" "copy copy" \
	"a waiting process maps copies of the first and last probed page (own or shared)"

exec 3> go	# releases every waiter
exec 3>&-
failed=0
for pid in "${pids[@]}"; do
	wait "$pid" || failed=$((failed + 1))
done
is "$failed" 0 "all $nprocs processes exit 0"
is "$(sort -u out.*)" "$ref" "all print the unprobed run's result ($ref)"
# uprobe_profile: "FILE EVENT HITS MISSES"; the runs made after enable
# returned, so every call of every process is counted.
want=$((nprocs * rounds))
is "$(awk -v w=$want '$2 ~ /^mp_[0-9]+$/ && $3 == w { n++ } END { print n + 0 }' "$TRACING/uprobe_profile")" \
	1000 "uprobe_profile: each of the 1000 probes hit $nprocs x $rounds = $want times"
bad=$(awk -v w=$want '$2 ~ /^mp_[0-9]+$/ && $3 != w { print $2 "=" $3 }' "$TRACING/uprobe_profile" | head -n 5)
[ -z "$bad" ] || diag "miscounted: $bad"

check "disable the group in one write" sh -c "echo 0 > $TRACING/events/mpb/enable"
is "$(kinds)" "cache cache" \
	"the waiting process shares the page cache again"
exec 3> idle
exec 3>&-
wait "$idler"
is "$(cat idle.out)" "calls=1 bad=0" "the waiting process then runs unprobed"

# (b) programs start and exit while the group goes on and off.
ref1=$("$bin" run 1)
rm -f stop churn.bad
(
	n=0
	until [ -e stop ]; do
		out=$("$bin" run 1)
		rc=$?
		[ "$rc" = 0 ] && [ "$out" = "$ref1" ] || echo "run $n: exit $rc: $out" >> churn.bad
		n=$((n + 1))
	done
	echo "$n" > churn.count
) &
churn=$!
for _ in $(seq 20); do
	echo 1 > "$TRACING/events/mpb/enable" 2> /dev/null
	echo 0 > "$TRACING/events/mpb/enable"
done
touch stop
wait "$churn"
is "$(cat churn.bad 2> /dev/null)" "" \
	"programs starting and exiting under 20 enables run as unprobed ($(cat churn.count) runs)"

hits() {
	awk '$2 ~ /^mp_[0-9]+$/ { print $2, $3 }' "$TRACING/uprobe_profile" | sort
}
echo 1 > "$TRACING/events/mpb/enable" 2> /dev/null
hits > hits.before
"$bin" run 1 > /dev/null
echo 0 > "$TRACING/events/mpb/enable"
hits > hits.after
is "$(join hits.before hits.after | awk '$3 - $2 == 1 { n++ } END { print n + 0 }')" 1000 \
	"afterwards one run counts once on each of the 1000 probes"
is "$(sha256sum < "$bin")" "$sum_before" "the program's file is unchanged"
