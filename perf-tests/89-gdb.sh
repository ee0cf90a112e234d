#!/bin/bash
# gdb (from the clients disk) single-steps through probed instructions:
# stepi into ins_stack, whose probed push is emulated, and ins_sse, whose
# probed movq is stepped out of line, lands on the next instruction each
# time (the debugger's trap comes after the probed instruction, as without
# the probe); gdb sees no SIGTRAP of the probes'; the program's results and
# the probes' hit counts are exact.
. /opt/perf-tests/lib/tap.sh
plan 5
trap clear_probes EXIT
bin=$WL/insns
"$bin" 3 > want.out
for fn in ins_stack ins_sse; do
	echo "p:gdbt/$fn $bin:$(file_offset "$bin" "$fn")" >> "$TRACING/uprobe_events"
done
echo 1 > "$TRACING/events/gdbt/enable"
echo > "$TRACING/trace"
# A breakpoint on main's indirect call of each ins_* function; at each stop
# stepi into the callee and, in the two probed ones, two more stepi: the
# offsets reached from the function's start.
cat > steps.py <<'PY'
import gdb, re
gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("set startup-with-shell off")
gdb.execute("starti 3")
for line in gdb.execute("disassemble main", to_string=True).splitlines():
    m = re.search(r"(0x[0-9a-f]+) <\+\d+>:\s+call\s+\*", line)
    if m:
        gdb.execute("break *" + m.group(1), to_string=True)
        break
seen = []
while True:
    try:
        gdb.execute("continue", to_string=True)
        gdb.selected_frame()
    except gdb.error:
        break
    gdb.execute("stepi", to_string=True)
    fn = gdb.selected_frame().name()
    if fn not in ("ins_stack", "ins_sse"):
        continue
    start = int(gdb.selected_frame().pc())
    offs = []
    for i in range(2):
        gdb.execute("stepi", to_string=True)
        offs.append(int(gdb.selected_frame().pc()) - start)
    seen.append("%s:%s" % (fn, ",".join(map(str, offs))))
print("SEEN " + " ".join(seen))
PY
timeout 300 gdb -batch -nx -x steps.py --args "$bin" > gdb.out 2> gdb.err
rc=$?
cp gdb.out gdb.err "$RESULTS/"
is "$rc" 0 "gdb ran the program to its end"
# push %rbp (1 byte), mov %rsp,%rbp (3); movq %rdi,%xmm0 (5), movdqu (8)
is "$(grep '^SEEN' gdb.out)" \
	"SEEN ins_stack:1,4 ins_stack:1,4 ins_stack:1,4 ins_sse:5,13 ins_sse:5,13 ins_sse:5,13" \
	"stepi through the probed push (emulated) and movq (stepped) lands on the next instruction"
is "$(grep -c SIGTRAP gdb.out)" 0 "gdb sees no SIGTRAP of the probes"
is "$(grep -E '^ins_[a-z0-9]+ [0-9a-f]+$' gdb.out | tr '\n' ' ')" "$(tr '\n' ' ' < want.out)" \
	"the program's results under gdb with the probes are as without both"
is "$(grep -c ' ins_stack: ' "$TRACING/trace") $(grep -c ' ins_sse: ' "$TRACING/trace")" "3 3" \
	"each probe hit once per call (3 and 3)"
