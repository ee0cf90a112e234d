#!/bin/bash
# Return probes where returns are not simple: recursion (nested instances of
# one probe), a tail call (two probed functions sharing one return address),
# longjmp out of probed functions (their returns never happen and must not
# pile up), fork from inside a return-probed function (the child returns
# through the parent's hijacked addresses), and a program in seccomp strict
# mode (the fork's trampoline returns through a syscall of its own, which
# seccomp must let through), and a function returning with known values in
# every register and flag (the way back to the caller must restore them
# all, whatever path the kernel leaves by), and a return pending while its
# probe is replaced.  Counts are exact (trace buffer) and the
# program's results are unchanged.
. /opt/perf-tests/lib/tap.sh
plan 23
trap clear_probes EXIT

bin=$WL/uret
probe() {	# probe TYPE EVENT SYMBOL
	echo "$1:uret/$2 $bin:$(file_offset "$bin" "$3")" >> "$TRACING/uprobe_events"
}
hits() {	# hits EVENT: how many times EVENT is in the trace
	grep -c " $1: " "$TRACING/trace" || true
}
run() {		# run MODE N: the program's output with every uret probe enabled
	echo > "$TRACING/trace"
	echo 1 > "$TRACING/events/uret/enable"
	"$bin" "$1" "$2"
	echo 0 > "$TRACING/events/uret/enable"
}

probe p rec_entry uret_rec
probe r rec_ret uret_rec
probe r tail_a uret_tail_a
probe r tail_b uret_tail_b
probe r outer uret_outer
probe r mid uret_mid
probe r inner uret_inner
probe r forker uret_forker
probe r regs uret_regs
check "nine probes defined" test "$(grep -c '^[pr]:uret/' "$TRACING/uprobe_events")" = 9

is "$(run nest 100)" "nest 4200" "recursion: results unchanged"
is "$(hits rec_entry)" 500 "recursion: 500 entries"
is "$(hits rec_ret)" 500 "recursion: 500 nested returns"

is "$(run tail 100)" "tail 15050" "tail call: results unchanged"
is "$(hits tail_a)" 100 "tail call: the caller's return fires 100 times"
is "$(hits tail_b)" 100 "tail call: the tail-called function's return fires 100 times"

is "$(run regs 100)" "regs 0" "registers, flags and stack pointer unchanged by the return"
is "$(hits regs)" 100 "registers: 100 returns"

# 200 > the 64 return instances a task may hold: if the ones a longjmp
# orphaned were kept, later returns would go unreported.
is "$(run jump 200)" "jump 59700" "longjmp: results unchanged"
is "$(hits outer)" 200 "longjmp: the outer function's 200 returns fire"
is "$(hits mid)" 0 "longjmp: the skipped returns never fire (mid)"
is "$(hits inner)" 0 "longjmp: the skipped returns never fire (inner)"

is "$(run fork 50)" "fork 2100" "fork inside a return-probed function: parent and child correct"
is "$(hits forker)" 1 "fork: the forking function returns once (the child exits inside it)"
is "$(hits rec_ret)" 500 "fork: 250 returns each in parent and child"

is "$(run seccomp 50)" "seccomp 2100" "seccomp strict mode: returns work, results unchanged"
is "$(hits rec_ret)" 250 "seccomp strict mode: 250 returns"

# A return pending while its probe is deleted and a new one is made at the
# same place: the program returns right, and the new probe reports only the
# call made after it came (the pending return belongs to the old probe).
blocked_in_read() {	# blocked_in_read PID: wait until PID sits in read(0, ...)
	local _
	for _ in $(seq 100); do
		case $(cat "/proc/$1/syscall" 2> /dev/null) in "0 0x0 "*) return 0 ;; esac
		sleep 0.1
	done
	return 1
}
probe r wait uret_wait
echo > "$TRACING/trace"
echo 1 > "$TRACING/events/uret/wait/enable"
rm -f wait.fifo
mkfifo wait.fifo
"$bin" wait 1 < wait.fifo > wait.out &
pid=$!
exec 3> wait.fifo
check "pending return: the program blocks in the probed function" blocked_in_read "$pid"
echo 0 > "$TRACING/events/uret/wait/enable"
echo "-:uret/wait" >> "$TRACING/uprobe_events"
probe r wait uret_wait
echo 1 > "$TRACING/events/uret/wait/enable"
printf a >&3
check "pending return: the program calls the function again" blocked_in_read "$pid"
printf b >&3
exec 3>&-
wait "$pid"
rc=$?
echo 0 > "$TRACING/events/uret/wait/enable"
is "$rc $(cat wait.out)" "0 wait 97 98" "pending return across a probe replaced: the program returns right"
is "$(hits wait)" 1 "pending return across a probe replaced: the new probe reports only its own call"

# The trampoline's syscall is not for programs: from anywhere else it kills
# the caller with SIGILL (stock has no such syscall: ENOSYS).
"$bin" rogue 1 > rogue.out 2>&1
rc=$?
known_stock_limit "stock has no return trampoline syscall"
is "$rc" 132 "the trampoline syscall from outside the trampoline: SIGILL"
