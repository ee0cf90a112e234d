#!/bin/bash
# What a debugger writes through /proc/PID/mem at a probed address, byte by
# byte, without a debugger.  The process waits on a copy of the probed page
# that holds the int3 (its own, or the one every process shares for an
# unfiltered probe), while /proc/PID/mem and process_vm_readv show the
# program's byte; an int3 written there is the writer's and reads back as
# written; the program's byte written back takes it out and keeps the
# probe's int3, and the probe counts every call.  Another instruction
# written over the probe's int3 is what runs and reads back, and the probed
# instruction written back brings the probe's int3 back: the probe counts
# every call.
. /opt/perf-tests/lib/tap.sh
plan 8
cleanup() { touch go; wait 2> /dev/null; clear_probes; }
trap cleanup EXIT
bin=$WL/lifecycle
target=$(file_offset "$bin" lc_target)
orig=$(od -An -tx1 -j $((target)) -N1 "$bin" | tr -d ' \n')
echo "p:pokes/lc_target $bin:$target" >> "$TRACING/uprobe_events"
echo 1 > "$TRACING/events/pokes/enable"
echo > "$TRACING/trace"
rm -f go go.ready.*
"$bin" wait go 100 > wait.out &
pid=$!
wait_for test -e "go.ready.$pid"
addr=$(mapped_addr $pid "$bin" "$target")
# views: the byte at addr through /proc/PID/mem (gdb) and process_vm_readv
views() {
	echo "$(dd if="/proc/$pid/mem" bs=1 skip="$addr" count=1 2> /dev/null |
		od -An -tx1 | tr -d ' \n') $("$WL/peekmem" $pid "$addr" 1)"
}
# poke HEX: write that byte at addr through /proc/PID/mem
poke() { printf '%b' "\\x$1" | dd of="/proc/$pid/mem" bs=1 seek="$addr" conv=notrunc status=none; }

kind=$(text_kind $pid "$addr" "$bin" "$target")
case $kind in anon | shared) kind=copy ;; esac
is "$kind" copy "the process waits on a copy of the probed page (its own or the shared one)"
known_stock_limit "stock shows debuggers the int3s of uprobes"
is "$(views)" "$orig $orig" "/proc/PID/mem and process_vm_readv show the program's byte there"
poke cc
is "$(views)" "cc cc" "an int3 written there reads back as written"
poke "$orig"
is "$(views)" "$orig $orig" "the program's byte written back reads back"
touch go
wait $pid
known_stock_limit "stock lets a debugger's write-back take the probe's int3 out"
is "$(cat wait.out) $(grep -c ' lc_target: ' "$TRACING/trace")" "calls=100 100" \
	"the program ran right; the probe's int3 stayed: it counted the 100 calls"

# another instruction over the int3 (a nop, which would break lc_target:
# the process waits, and runs once the probed instruction is back)
rm -f go go.ready.*
"$bin" wait go 10 > wait.out &
pid=$!
wait_for test -e "go.ready.$pid"
addr=$(mapped_addr $pid "$bin" "$target")
poke 90
is "$(views)" "90 90" "another instruction written over the probe's int3 reads back"
poke "$orig"
is "$(views)" "$orig $orig" "the probed instruction written back reads back"
echo > "$TRACING/trace"
touch go
wait $pid
known_stock_limit "stock loses the probe's int3 to a debugger's write"
is "$(cat wait.out) $(grep -c ' lc_target: ' "$TRACING/trace")" "calls=10 10" \
	"the program ran right; the probe's int3 came back: it counted the 10 calls"
