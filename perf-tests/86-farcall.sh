#!/bin/bash
# A 64-bit program far-calls 32-bit code of its own file (workloads/farcall).
# Probes on that code are decoded as the file's instruction set, x86-64; met
# in 32-bit mode, the instruction can be neither emulated nor stepped as
# decoded.  The program must run on unharmed: the breakpoint leaves the
# process with a warning, no handler runs for a hit that cannot complete,
# and no return address is swapped for a trampoline a 32-bit stack cannot
# hold.
. /opt/perf-tests/lib/tap.sh
plan 12
trap clear_probes EXIT
bin=$WL/farcall

out=$("$bin" 200 2>&1)
is "$?:$out" "0:calls=200" "the program runs its 32-bit code unprobed"
off=$(vaddr_offset "$bin" "0x$(readelf -Ws "$bin" | awk '$8 == "far32_add" { print $2; exit }')")
check "entry and return probes on the 32-bit code" \
	sh -c "echo 'p:far/far32_add $bin:$off' >> $TRACING/uprobe_events &&
	       echo 'r:far/far32_ret $bin:$off' >> $TRACING/uprobe_events"
echo > "$TRACING/trace"
dmesg -c > /dev/null
echo 1 > "$TRACING/events/far/enable"
out=$("$bin" 200 2>&1)
rc=$?
# stock (measured): writes the low 32 bits of its trampoline's address as
# the return address, and the program dies of SIGSEGV (139), after one
# entry hit and with no warning
known_stock_limit "stock swaps a 32-bit return address for a 64-bit trampoline"
is "$rc:$out" "0:calls=200" "32-bit code of a 64-bit file, probed at entry and return: the program's results are right"
is "$(grep -c 'far32_ret: ' "$TRACING/trace")" 0 "no return probe hit in 32-bit mode"
known_stock_limit "stock runs the handlers of a hit it cannot complete"
is "$(grep -c 'far32_add: ' "$TRACING/trace")" 0 "no entry probe hit in 32-bit mode"
known_stock_limit "stock has no such warning"
is "$(dmesg | grep -c 'cannot run the probed instruction')" 1 "one warning for the process"
# a new process maps the file again: the breakpoint is back, and goes again
out=$("$bin" 50 2>&1)
rc=$?
echo 0 > "$TRACING/events/far/enable"
known_stock_limit "stock swaps a 32-bit return address for a 64-bit trampoline"
is "$rc:$out" "0:calls=50" "a second process: the program's results are right"

# LDT code (Wine, DOSEMU): ip is an offset in the segment, not an address.
# farcall ldt runs an int3 at the LDT segment offset that is add64's
# address, which has a probe: the trap is the program's own all the same.
out=$("$bin" ldt 100 2>&1)
is "$?:$out" "0:calls=100 traps=100" "an int3 in LDT code, unprobed: the program's own SIGTRAP each time"
off=$(vaddr_offset "$bin" "0x$(readelf -Ws "$bin" | awk '$8 == "add64" { print $2; exit }')")
check "a probe on add64" \
	sh -c "echo 'p:far/add64 $bin:$off' >> $TRACING/uprobe_events"
echo > "$TRACING/trace"
dmesg -c > /dev/null
echo 1 > "$TRACING/events/far/add64/enable"
out=$("$bin" ldt 100 2>&1)
rc=$?
echo 0 > "$TRACING/events/far/add64/enable"
# stock (measured): takes the LDT int3 for add64's probe, counts a hit and
# steps add64's first instruction; the program dies of SIGSEGV (139) after
# 2 hits
known_stock_limit "stock takes an int3 in LDT code for the probe at its ip - 1"
is "$rc:$out" "0:calls=100 traps=100" "an int3 in LDT code at an offset that is a probed address: the program's own SIGTRAP each time"
known_stock_limit "stock takes an int3 in LDT code for the probe at its ip - 1"
is "$(grep -c 'add64: ' "$TRACING/trace")" 100 "add64's probe hit once per call, never from the LDT code"
is "$(dmesg | grep -c 'cannot run the probed instruction')" 0 "no warning about the probe"
