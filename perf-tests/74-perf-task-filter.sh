#!/bin/bash
# perf's per-task filter: a uprobe event used only by a perf session on
# process B must trap in B alone.  Process A runs the same binary and calls
# the probed function all along; while B's session is open A's text must hold
# the original byte (no breakpoint), B's the int3; B's count is exact, and
# uprobe_profile counts only B's hits.  Once with perf stat, once with perf
# record.
. /opt/perf-tests/lib/tap.sh
plan 18
cleanup() {
	touch stopA goB goC
	[ -z "${apid:-}" ] || wait "$apid" 2> /dev/null
	clear_probes
}
trap cleanup EXIT

bin=$WL/lifecycle
target=$(file_offset "$bin" lc_target)
calls=2000

text_byte() { mapped_byte "$1" "$bin" "$target"; }
byte_is() { [ "$(text_byte "$1")" = "$2" ]; }
wait_byte() { wait_for byte_is "$1" "$2"; }

hits() { awk '$2 == "lc_target" { print $3 }' "$TRACING/uprobe_profile"; }

orig=$(od -An -tx1 -j $((target)) -N1 "$bin" | tr -d ' \n')
diag "lc_target at file offset $target, original byte $orig"
check "the original byte is not an int3" test "$orig" != cc
check "add p:pt/lc_target" sh -c "echo 'p:pt/lc_target $bin:$target' >> $TRACING/uprobe_events"

rm -f stopA stopA.count goB goC
"$bin" spin stopA > a.out &
apid=$!
wait_count stopA.count 1000
is "$(text_byte "$apid")" "$orig" "A (pid $apid) runs lc_target unprobed before any session"

# --- perf stat on B ---
perf stat -x, -e pt:lc_target -o stat.out -- "$bin" wait goB $calls > b.out 2>&1 &
spid=$!
bpid=
for ((i = 0; i < 300; i++)); do
	bpid=$(pgrep -P "$spid" -x lifecycle) && break
	sleep 0.1
done
if [ -n "$bpid" ] && wait_byte "$bpid" cc; then
	pass "stat: B (pid $bpid) waits with the int3 at lc_target"
else
	fail "stat: B waits with the int3 at lc_target" "B pid '${bpid}', byte '$( [ -z "$bpid" ] || text_byte "$bpid")'"
fi
is "$(text_byte "$apid")" "$orig" "stat: A keeps its original byte while B's session is open"
a_before=$(hits)
wait_count stopA.count $(($(cat stopA.count) + 2000))
is "$(hits)" "$a_before" "stat: A took no hit in 2000 calls more (uprobe_profile)"
touch goB
wait "$spid"
is "$(cat b.out)" "calls=$calls" "stat: B ran correctly"
is "$(awk -F, '$3 == "pt:lc_target" { print $1 }' stat.out)" $calls "stat: B counted exactly $calls"
is "$(hits)" $calls "stat: uprobe_profile counts only B's $calls hits"
is "$(text_byte "$apid")" "$orig" "stat: A's byte is original after the session"
cp stat.out "$RESULTS/" 2> /dev/null

# --- perf record on C ---
perf record -q -e pt:lc_target -o perf.data -- "$bin" wait goC $calls > c.out 2>&1 &
rpid=$!
cpid=
for ((i = 0; i < 300; i++)); do
	cpid=$(pgrep -P "$rpid" -x lifecycle) && break
	sleep 0.1
done
if [ -n "$cpid" ] && wait_byte "$cpid" cc; then
	pass "record: C (pid $cpid) waits with the int3 at lc_target"
else
	fail "record: C waits with the int3 at lc_target" "C pid '${cpid}'"
fi
is "$(text_byte "$apid")" "$orig" "record: A keeps its original byte while C's session is open"
touch goC
wait "$rpid"
is "$(grep -c calls= c.out)" 1 "record: C ran correctly"
perf script -i perf.data -F comm,pid,event 2> /dev/null > script.out
is "$(grep -c 'lc_target' script.out)" $calls "record: perf script shows exactly $calls samples"
is "$(awk '{ print $2 }' script.out | sort -u)" "$cpid" "record: every sample is from C"
is "$(hits)" $((calls * 2)) "record: uprobe_profile counts only B's and C's hits"
cp script.out "$RESULTS/" 2> /dev/null

touch stopA
wait "$apid"
apid=
if grep -q '^calls=[0-9]' a.out; then
	pass "A ran on unharmed ($(cat a.out))"
else
	fail "A ran on unharmed" "$(cat a.out)"
fi
echo > "$TRACING/uprobe_events"
is "$(cat "$TRACING/uprobe_events")" "" "the probe is deleted"
