#!/bin/bash
# bpftrace on the kernel under test: BPF programs on uprobes through the
# uprobe PMU.  uprobe and uretprobe on libc's malloc with user stacks over
# malloc-graph, exact per call chain; a library named as bpftrace users
# name it; a usdt probe whose semaphore the kernel sets in a running
# process; -p PID, which counts that process only.  bpftool perf lists
# the attachments (BPF_TASK_FD_QUERY) with their file, offset and type.
# bpftrace, bpftool and their libraries come from the clients disk.
. /opt/perf-tests/lib/tap.sh
plan 20
. /opt/perf-tests/lib/callchain.sh
bt_pid=
cleanup() {
	[ -z "$bt_pid" ] || kill -INT "$bt_pid" 2>/dev/null
	touch hold go1 go2 go3
	wait 2>/dev/null
}
trap cleanup EXIT

# bt_start OUT ARGS...: bpftrace in the background, once its probes are on
# (its BEGIN probe runs after they are attached and prints "ready").
bt_start() {
	local out=$1
	shift
	bpftrace "$@" > "$out" 2>&1 &
	bt_pid=$!
	for _ in $(seq 1200); do
		grep -q '^ready$' "$out" && return 0
		kill -0 "$bt_pid" 2>/dev/null || break
		sleep 0.1
	done
	diag "bpftrace did not start: $(head -c 600 "$out")"
	return 1
}

# bt_stop: end bpftrace as Ctrl-C does; it prints its maps (within 60 s,
# or it is killed and the maps are missing).  bpftrace (0.17) can miss a
# SIGINT that comes as it goes back into epoll_wait(): its handler ran,
# and it sleeps there with nothing pending (seen under load).  So, as a
# user would press Ctrl-C again, the signal is sent every 10 s.
bt_stop() {
	local i
	for i in $(seq 600); do
		[ $((i % 100)) != 1 ] || kill -INT "$bt_pid" 2>/dev/null
		kill -0 "$bt_pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -KILL "$bt_pid" 2>/dev/null && diag "bpftrace did not stop on SIGINT"
	wait "$bt_pid" 2>/dev/null
	bt_pid=
}

# stacks OUT MAP: the entries of MAP (keyed by ustack) as chains, one line
# per count ("sym;sym;...", innermost first, offsets dropped).
stacks() {
	awk -v map="@$2[" '
		$0 == map { in_map = 1; c = ""; next }
		in_map && /^\]: [0-9]+$/ {
			for (i = 0; i < $2; i++) print c
			in_map = 0; next
		}
		in_map { s = $1; sub(/\+[0-9]+$/, "", s); c = (c == "" ? s : c ";" s) }' "$1"
}

# value OUT MAP: a map of one value ("@MAP: N")
value() {
	awk -v m="@$2:" '$1 == m { print $2 }' "$1"
}

check "bpftrace and bpftool are installed (clients disk)" \
	sh -c 'bpftrace --version && bpftool version'

# uprobe and uretprobe on malloc, user stacks, while malloc-graph runs; it
# waits once done, so bpftrace (which names frames from /proc/TID/maps when
# it prints) can name those of both threads.
"$WL/malloc-graph" --expect > expect
sed 's/ malloc;/ /' expect > expect-ret
rm -f hold
bt_start bt-malloc.out -e '
BEGIN { printf("ready\n"); }
uprobe:'"$LIBC"':malloc /comm == "malloc-graph"/ { @entry[ustack] = count(); @entries = count(); }
uretprobe:'"$LIBC"':malloc /comm == "malloc-graph"/ { @ret[ustack] = count(); @returns = count(); }'
"$WL/malloc-graph" --hold hold > mg.out &
mg=$!
for _ in $(seq 600); do
	grep -q 'malloc-graph: done' mg.out && break
	sleep 0.1
done
# bpftool perf: the two attachments, with libc's path and malloc's offset
off=$(file_offset "$LIBC" malloc)
bpftool perf show > bpftool.out 2>&1
while read -r line; do diag "bpftool perf: $line"; done < bpftool.out
is "$(awk -v off="$((off))" '$(NF - 4) ~ /^u(ret)?probe$/ && $(NF) == off { print $(NF - 4), $(NF - 2) }' bpftool.out |
	while read -r type path; do echo "$type $(readlink -f "$path")"; done | sort | tr '\n' ' ')" \
	"uprobe $(readlink -f "$LIBC") uretprobe $(readlink -f "$LIBC") " \
	"bpftool perf: a uprobe and a uretprobe on libc at malloc's offset"
bt_stop
touch hold
wait "$mg"
cp bt-malloc.out "$RESULTS/bt-malloc.out"
stacks bt-malloc.out entry > entry.chains
stacks bt-malloc.out ret > ret.chains
check_chains entry.chains expect "bpftrace uprobe ustack" \
	"stock drops the immediate caller at a function-entry probe"
check_chains ret.chains expect-ret "bpftrace uretprobe ustack"
entries=$(value bt-malloc.out entries)
is "$(value bt-malloc.out returns)" "$entries" "every malloc entry has its return ($entries)"

# The library by name, as bpftrace users write it
bt_start bt-name.out -e '
BEGIN { printf("ready\n"); }
uprobe:libc:malloc /comm == "malloc-graph"/ { @n = count(); }'
"$WL/malloc-graph" > /dev/null
bt_stop
is "$(value bt-name.out n)" "$entries" "uprobe:libc:malloc counts what the path did"

# usdt with a semaphore, the process already running: the kernel sets the
# semaphore (ref_ctr_offset), so the site runs
rm -f go1 go1.ready.*
"$WL/usdt" wait go1 500 > usdt.out &
usdt=$!
wait_for test -e "go1.ready.$usdt"
bt_start bt-usdt.out -e '
BEGIN { printf("ready\n"); }
usdt:'"$WL"'/usdt:pu:tick { @t = count(); @last = arg0; }'
touch go1
wait "$usdt"
bt_stop
is "$(cat usdt.out)" "fired=500" "usdt: the semaphore was set in the running process"
is "$(value bt-usdt.out t)" 500 "usdt: 500 hits"
is "$(value bt-usdt.out last)" 499 "usdt: arg0 of the last hit"

# -p PID on a process already running, while another runs the same
# program: bpftrace 0.17 attaches uprobes to the file (both processes get
# the breakpoint) and -p does not filter them; the predicate does.
rm -f go2
"$WL/lifecycle" wait go2 300 > lc-target.out &
target=$!
"$WL/lifecycle" wait go2 200 > lc-other.out &
other=$!
bt_start bt-pid.out -p "$target" -e '
BEGIN { printf("ready\n"); }
uprobe:'"$WL"'/lifecycle:lc_target { @all = count(); }
uprobe:'"$WL"'/lifecycle:lc_target /pid == '"$target"'/ { @c = count(); }'
touch go2
wait "$target" "$other"
bt_stop
is "$(cat lc-target.out lc-other.out | tr '\n' ' ')" "calls=300 calls=200 " "-p: both programs ran correctly"
is "$(value bt-pid.out c)" 300 "-p PID: the 300 calls of that process"
is "$(value bt-pid.out all)" 500 "-p PID: and the 500 calls of both"
