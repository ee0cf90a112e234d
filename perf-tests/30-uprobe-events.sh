#!/bin/bash
# uprobe_events by hand: p and r probes with fetch-args, exact counts in
# uprobe_profile and in the trace, -: deletes, bad lines fail with an error_log
# entry and change nothing.
. /opt/perf-tests/lib/tap.sh
plan 32
trap clear_probes EXIT
cd "$TRACING" || exit 1

bin=$WL/lifecycle
target=$(file_offset "$bin" lc_target)
name=$(file_offset "$bin" lc_name)
calls=1000

add() { echo "$1" >> uprobe_events; }
check "p probe with %ip, %ax, %di" add "p:pu/lc_entry $bin:$target ip=%ip ax=%ax arg=%di:s64"
check "r probe with \$retval" add "r:pu/lc_exit $bin:$target ret=\$retval:s64"
check "p probe with a string fetch-arg" add "p:pu/lc_name $bin:$name name=+0(%di):string"
is "$(grep -c '^[pr]:pu/' uprobe_events)" 3 "uprobe_events lists the three probes"
check "events/pu/ exists with the three events" test -f events/pu/lc_entry/enable -a \
	-f events/pu/lc_exit/format -a -f events/pu/lc_name/id

echo > trace
echo 1 > events/pu/enable
out=$("$bin" call $calls)
echo 0 > events/pu/enable
is "$out" "calls=$calls" "the probed program runs correctly"
hits() { awk -v e="$1" '$2 == e { print $3 }' uprobe_profile; }
is "$(hits lc_entry)" $calls "uprobe_profile: lc_entry hit $calls times"
is "$(hits lc_exit)" $calls "uprobe_profile: lc_exit hit $calls times"
is "$(hits lc_name)" 1 "uprobe_profile: lc_name hit once"
cp trace "$RESULTS/trace"
is "$(grep -c ' lc_entry: ' trace)" $calls "trace: $calls lc_entry records"
is "$(grep -c ' lc_exit: ' trace)" $calls "trace: $calls lc_exit records"
# lc_target(i) is called with i = 0 .. calls-1; the argument is %di.
is "$(grep ' lc_entry: ' trace | sed -n 's/.* arg=\([0-9-]*\).*/\1/p' | sort -n | uniq | wc -l)" \
	$calls "trace: lc_entry saw every argument 0..$((calls - 1)) once"
is "$(grep ' lc_entry: ' trace | tail -n 1 | sed -n 's/.* arg=\([0-9-]*\).*/\1/p')" \
	$((calls - 1)) "trace: the last lc_entry argument is $((calls - 1))"
# lc_target returns the running sum of its arguments.
is "$(grep ' lc_exit: ' trace | tail -n 1 | sed -n 's/.* ret=\([0-9-]*\).*/\1/p')" \
	$((calls * (calls - 1) / 2)) "trace: \$retval of the last call is the sum"
# The breakpoint address and the file offset share their offset in the page.
first=$(grep ' lc_entry: ' trace | head -n 1)
ip=$(printf '%s\n' "$first" | sed -n 's/.* ip=\(0x[0-9a-f]*\).*/\1/p')
if [ -n "$ip" ] && [ $((ip & 0xfff)) = $((target & 0xfff)) ]; then
	pass "trace: %ip is the probed address"
else
	fail "trace: %ip is the probed address" "offset $target, page offset $((target & 0xfff))" "$first"
fi
is "$(grep ' lc_name: ' trace | sed -n 's/.* name="\([^"]*\)".*/\1/p')" lifecycle-call \
	"trace: the string fetch-arg reads \"lifecycle-call\""

check "-: deletes one probe" add "-:pu/lc_name"
is "$(grep -c 'pu/lc_name' uprobe_events)" 0 "lc_name is gone from uprobe_events"
check "events/pu/lc_name is gone" test ! -e events/pu/lc_name

before=$(cat uprobe_events)
bad_lines=(
	"p:pu/bad1 $bin:$target %zz"
	"p:pu/bad2 /non_exist_file:0x10"
	"p:pu/bad3 $bin:0x10zz"
	"p:pu/bad4 $bin:$target @symbol"
	"r:pu/bad5 $bin:$target%hoge"
	"x:pu/bad6 $bin:$target"
)
for line in "${bad_lines[@]}"; do
	echo > error_log
	if echo "$line" >> uprobe_events 2> /dev/null; then
		fail "rejected: $line" "the write succeeded"
	else
		pass "rejected: $line"
	fi
	if [ "${line:0:1}" = x ]; then
		continue	# an unknown command is not the uprobe parser's to log
	fi
	if grep -q 'trace_uprobe' error_log; then
		pass "error_log entry for: $line"
	else
		fail "error_log entry for: $line" "error_log: $(cat error_log)"
	fi
done
is "$(cat uprobe_events)" "$before" "bad lines left uprobe_events unchanged"

echo > uprobe_events
is "$(cat uprobe_events)" "" "truncating uprobe_events removes every probe"
