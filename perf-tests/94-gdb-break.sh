#!/bin/bash
# gdb breakpoints at an address that also has an enabled uprobe (issue 17).
# gdb reads the program's byte there, not the probe's int3, stops at its
# breakpoint each time the program gets there (3 calls of ins_stack), and
# the probe counts each call once: its handlers run at gdb's trap, and
# gdb's step over the instruction is no second hit, whether gdb steps a
# copy elsewhere (displaced stepping, gdb's default) or the instruction in
# place with its breakpoint out.  The program's results are as without
# both.  Then the probe is disabled while gdb is stopped at its breakpoint:
# gdb goes on stopping there and the probe counts no more.  Last, children
# forked under gdb's breakpoint (gdb detaches them, taking its breakpoint
# out of their copy of the text) keep the probe and count exactly.
# On stock gdb reads the probe's int3 as the program's, takes the address
# for a permanent breakpoint, and never stops (the probe takes every trap).
. /opt/perf-tests/lib/tap.sh
plan 16
trap clear_probes EXIT
bin=$WL/insns
off=$(file_offset "$bin" ins_stack)
"$bin" 3 > want.out
want_byte=$(dd if="$bin" bs=1 skip=$((off)) count=1 2> /dev/null | od -An -tx1 | tr -d ' \n')
echo "p:gdbb/ins_stack $bin:$off" >> "$TRACING/uprobe_events"
cat > brk.py <<'PY'
import gdb, os
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set startup-with-shell off")
if os.environ.get("DISPLACED"):
    gdb.execute("set displaced-stepping " + os.environ["DISPLACED"])
gdb.execute("starti " + os.environ.get("ARGS", "3"))
addr = int(gdb.parse_and_eval("(long)&" + os.environ.get("FN", "ins_stack")))
print("BYTE %02x" % int(gdb.parse_and_eval("*(unsigned char *)%d" % addr)))
gdb.execute("break *%d" % addr, to_string=True)
disable_at = int(os.environ.get("DISABLE_AT", "0"))
stops = other = 0
while True:
    try:
        gdb.execute("continue", to_string=True)
        frame = gdb.selected_frame()
    except gdb.error:
        break
    if int(frame.pc()) == addr:
        stops += 1
        if stops == disable_at:
            with open(os.environ["TRACING"] + "/events/gdbb/enable", "w") as f:
                f.write("0\n")
    else:
        other += 1
print("STOPS %d OTHER %d" % (stops, other))
PY
# run_gdb OUT [BIN]: gdb runs "BIN $ARGS" (insns 3) under brk.py; its status
run_gdb() {
	timeout 300 gdb -batch -nx -x brk.py --args "${2:-$bin}" > "$1" 2> "$1.err"
	local rc=$?
	cp "$1" "$1.err" "$RESULTS/"
	return $rc
}
results() { grep -E '^ins_[a-z0-9]+ [0-9a-f]+$' "$1" | tr '\n' ' '; }
hits() { grep -c ' ins_stack: ' "$TRACING/trace"; }

echo 1 > "$TRACING/events/gdbb/enable"
echo > "$TRACING/trace"
run_gdb on.out
is "$?" 0 "probe on: gdb ran the program to its end"
known_stock_limit "stock shows debuggers the int3s of uprobes"
is "$(sed -n 's/^BYTE //p' on.out)" "$want_byte" "probe on: gdb reads the program's byte at the probed address"
known_stock_limit "stock's probe takes the debugger's breakpoint trap"
is "$(grep '^STOPS' on.out)" "STOPS 3 OTHER 0" "probe on: gdb stopped at its breakpoint each time (3), nowhere else"
is "$(results on.out)" "$(tr '\n' ' ' < want.out)" "probe on: the program's results are as without gdb and the probe"
is "$(hits)" 3 "probe on: the probe counted each call once (3)"

echo > "$TRACING/trace"
DISPLACED=off run_gdb inplace.out
is "$?" 0 "probe on, gdb steps in place: gdb ran the program to its end"
known_stock_limit "stock's probe takes the debugger's breakpoint trap"
is "$(grep '^STOPS' inplace.out)" "STOPS 3 OTHER 0" "probe on, gdb steps in place: gdb stopped at its breakpoint each time (3)"
is "$(results inplace.out)" "$(tr '\n' ' ' < want.out)" "probe on, gdb steps in place: the program's results are right"
is "$(hits)" 3 "probe on, gdb steps in place: the probe counted each call once (3)"

echo 1 > "$TRACING/events/gdbb/enable"
echo > "$TRACING/trace"
DISABLE_AT=2 TRACING=$TRACING run_gdb off.out
is "$?" 0 "probe disabled at gdb's 2nd stop: gdb ran the program to its end"
known_stock_limit "stock's probe takes the debugger's breakpoint trap"
is "$(grep '^STOPS' off.out)" "STOPS 3 OTHER 0" "probe disabled at gdb's 2nd stop: gdb still stopped each time (3)"
is "$(results off.out)" "$(tr '\n' ' ' < want.out)" "probe disabled at gdb's 2nd stop: the program's results are right"
known_stock_limit "stock's probe takes the debugger's breakpoint trap"
is "$(hits)" 2 "probe disabled at gdb's 2nd stop: the probe counted the calls up to it (2)"

lc=$WL/lifecycle
echo "p:gdbb/lc_target $lc:$(file_offset "$lc" lc_target)" >> "$TRACING/uprobe_events"
echo 1 > "$TRACING/events/gdbb/lc_target/enable"
echo > "$TRACING/trace"
FN=lc_target ARGS="fork 2 3" run_gdb fork.out "$lc"
is "$?" 0 "forked under gdb's breakpoint: gdb ran the program to its end"
is "$(grep -E '^(calls=|STOPS)' fork.out | tr '\n' ' ')" "calls=6 STOPS 0 OTHER 0 " \
	"forked under gdb's breakpoint: the 2 children made their 6 calls, gdb (following the parent) stopped nowhere"
is "$(grep -c ' lc_target: ' "$TRACING/trace")" 6 "forked under gdb's breakpoint: the probe counted the children's 6 calls"
