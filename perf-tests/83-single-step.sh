#!/bin/bash
# Single steps through probed instructions: a debugger stepping a task
# with PTRACE_SINGLESTEP must stop after every instruction, and a program
# that sets TF itself (popf) must trap after every instruction, whether
# the instruction carries a uprobe that the x86 layer emulates (push, mov,
# lea, nop, sub, add, pop, ret) or steps out of line (imul, movzbl, popf).
# An emulated instruction used to take no trap of its own, so a step went
# past two instructions, and a stepped popf lost the TF it popped.
. /opt/perf-tests/lib/tap.sh
plan 8
trap clear_probes EXIT

bin=$WL/sstep

# every instruction of ss_func and ss_self, probed
objdump -d --no-show-raw-insn "$bin" | awk '
	/^[0-9a-f]+ <ss_(func|self|self_traced)>:$/ { f = 1; next }
	/^[0-9a-f]+ <.*>:$/ { f = 0 }
	/^$/ { f = 0 }
	f { sub(":", "", $1); print $1 }' > insns.list
check "objdump lists the instructions of ss_func and ss_self ($(wc -l < insns.list))" \
	test "$(wc -l < insns.list)" -ge 18
while read -r addr; do
	echo "p:sstep/i_$addr $bin:$(vaddr_offset "$bin" "0x$addr")" >> "$TRACING/uprobe_events"
done < insns.list

for mode in ptrace self; do
	want=$("$bin" $mode)
	echo 1 > "$TRACING/events/sstep/enable"
	got=$("$bin" $mode)
	echo 0 > "$TRACING/events/sstep/enable"
	case $mode in
	ptrace) desc="a debugger's single steps stop after each probed instruction" ;;
	self) desc="a program's own TF traps after each probed instruction, popf included" ;;
	esac
	is "$got" "$want" "$desc"
done
hits=$(awk '$2 ~ /^i_/ { n += $3 } END { print n + 0 }' "$TRACING/uprobe_profile")
check "the probes were hit ($hits hits)" test "$hits" -gt 0

# A program's own int3 in an mm that has uprobes: the signal frame must
# carry the breakpoint's trap number and error code as without probes
# (Wine and debuggers read them); the core used to send SIGTRAP itself and
# leave whatever trap number the thread had before.
want=$("$bin" int3)
is "$want" "result 42 si_code 128 trapno 3 err 0 rip ss_int3+1" \
	"an int3 of the program's own, unprobed: SI_KERNEL, trap 3, error 0"
echo 1 > "$TRACING/events/sstep/enable"
got=$("$bin" int3)
echo 0 > "$TRACING/events/sstep/enable"
# stock (measured): trapno 0
known_stock_limit "stock sends SIGTRAP for the program's own int3 itself, without its trap number"
is "$got" "$want" "an int3 of the program's own in an mm with uprobes: the same signal frame"

# The same with int $3 (cd 03), which glib's g_error() runs: the trap
# leaves rip after the 03, which is not an int3; it is not a probe's
# removed int3 either (those are cc), so the program gets its SIGTRAP
# rather than being sent back to run the 03 as an instruction.
want=$("$bin" int3cd)
is "$want" "result 42 si_code 128 trapno 3 err 0 rip ss_int3cd+2" \
	"int \$3 of the program's own, unprobed: SI_KERNEL, trap 3, error 0"
echo 1 > "$TRACING/events/sstep/enable"
got=$("$bin" int3cd 2>&1)
echo 0 > "$TRACING/events/sstep/enable"
# stock (measured): the program printed nothing (it died running the 03)
known_stock_limit "stock reruns from the 03 of cd 03"
is "$got" "$want" "int \$3 of the program's own in an mm with uprobes: the same signal frame"
