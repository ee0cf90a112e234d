#!/bin/bash
# `make bench-scale`, guest side: probes at scale.  N trace events on
# distinct points of libc (function entries, then second instructions)
# while M sleeping processes map libc:
#   add      writing the N probe lines to uprobe_events (one write)
#   enable   echo 1 > events/scale/enable (one write: every event)
#   disable  echo 0 > events/scale/enable
#   exec     fork+exec+exit of workloads/exit0 (dynamic), probes off
#            and on: the cost of putting the breakpoints into a new mm
#   anon     anonymous kB per sleeping process in its libc mappings with
#            the probes on (smaps), and the drop of MemFree per process
# and `perf probe -x libc -a F1 -a F2 ...` of PERF_FUNCS functions.
# Writes "METRIC N M VALUE" lines to /results/bench-scale/results.txt:
# times in ns (guest instructions under -icount), memory in kB.
set -eu
export PATH=/usr/bin:/usr/sbin
T=/sys/kernel/tracing
sb=/opt/workloads/scalebench
out=/results/bench-scale
mkdir -p "$out"
: > "$out/results.txt"
libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
probes_list=${SCALE_PROBES:-100 1000 3000}
procs_list=${SCALE_PROCS:-1 50 200}
execs=${SCALE_EXECS:-20}
perf_funcs=${SCALE_PERF_FUNCS:-100}
work=/tmp/bench-scale
mkdir -p "$work"
cd "$work"

result() {
	echo "$1 $2 $3 $4" | tee -a "$out/results.txt"
}

# anon_kb PID...: Anonymous kB in the libc mappings of the PIDs, summed.
anon_kb() {
	local f=()
	for p in "$@"; do f+=("/proc/$p/smaps"); done
	awk -v lib="$libc" '
		/^[0-9a-f]+-[0-9a-f]+ / { in_lib = ($6 == lib) }
		in_lib && $1 == "Anonymous:" { kb += $2 }
		END { print kb + 0 }' "${f[@]}"
}

memfree_kb() {
	awk '$1 == "MemFree:" { print $2 }' /proc/meminfo
}

echo 1 > one
echo 0 > zero
sleepers=()
trap 'kill "${sleepers[@]}" 2> /dev/null || true; echo > $T/uprobe_events' EXIT

echo "# $(uname -r): probes at scale in $libc; ns (guest instructions under -icount), kB"
for m in $procs_list; do
	while [ "${#sleepers[@]}" -lt "$m" ]; do
		sleep 100000 &
		sleepers+=($!)
	done
	# every sleeper has mapped libc before the probes come
	for p in "${sleepers[@]}"; do
		until grep -q "$libc" "/proc/$p/maps" 2> /dev/null; do sleep 0.1; done
	done
	for n in $probes_list; do
		"$sb" points "$libc" "$n" |
			awk -v lib="$libc" '{ printf "p:scale/p%d %s:%s\n", NR, lib, $2 }' > probes
		result add "$n" "$m" "$("$sb" write $T/uprobe_events probes)"
		result exec-off "$n" "$m" "$("$sb" exec "$execs" /opt/workloads/exit0)"
		before=$(memfree_kb)
		result enable "$n" "$m" "$("$sb" write $T/events/scale/enable one)"
		enabled=$(grep -l 1 $T/events/scale/p*/enable | wc -l)
		[ "$enabled" = "$n" ] || echo "# only $enabled of $n events enabled"
		result enabled "$n" "$m" "$enabled"
		result anon-per-proc "$n" "$m" "$(( $(anon_kb "${sleepers[@]}") / m ))"
		result memfree-drop-per-proc "$n" "$m" "$(( (before - $(memfree_kb)) / m ))"
		result exec-on "$n" "$m" "$("$sb" exec "$execs" /opt/workloads/exit0)"
		result disable "$n" "$m" "$("$sb" write $T/events/scale/enable zero)"
		result anon-after "$n" "$m" "$(( $(anon_kb "${sleepers[@]}") / m ))"
		echo > $T/uprobe_events
	done
done

# perf probe of many libc functions in one command, and their deletion.
funcs=$("$sb" points "$libc" "$perf_funcs" | awk '$1 !~ /[@+]/ && !seen[$1]++ { printf " -a %s", $1 }')
t0=$(date +%s%N)
# shellcheck disable=SC2086
perf probe -q -x "$libc" $funcs > perf-probe.out 2>&1 || echo "# perf probe -a failed: $(head -n 3 perf-probe.out)"
t1=$(date +%s%N)
result perf-probe-add "$perf_funcs" 1 "$((t1 - t0))"
result perf-probe-events "$perf_funcs" 1 "$(grep -c '^p:probe_libc/' $T/uprobe_events || true)"
t0=$(date +%s%N)
perf probe -q -d 'probe_libc:*' > /dev/null 2>&1 || true
t1=$(date +%s%N)
result perf-probe-del "$perf_funcs" 1 "$((t1 - t0))"
