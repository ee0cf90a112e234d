#!/bin/bash
# Shared by the tests-host/probe-*.sh scenarios: TAP results and perf
# probe runs.  Each scenario sources this, calls plan N, then result.
# shellcheck disable=SC2034	# OURS, STOCK and tmp are the scenarios'

OURS=${OURS:-/work/main/build/obj/perf-fork/perf}
STOCK=${STOCK:-/usr/bin/perf}
WORKLOADS=${WORKLOADS:-/work/main/build/workloads}
export LC_ALL=C

tap_count=0
tap_failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan() {
	echo "1..$1"
	tap_planned=$1
}

result() {	# result STATUS(0 ok) DESCRIPTION
	tap_count=$((tap_count + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_count - $2"
	else
		tap_failed=$((tap_failed + 1))
		echo "not ok $tap_count - $2"
	fi
}

# check DESCRIPTION COMMAND...: one result from a command's status
check() {
	local desc=$1
	shift
	if "$@"; then
		result 0 "$desc"
	else
		result 1 "$desc"
	fi
}

# run_probe PERF OUT ARGS...: perf probe ARGS; stdout in OUT, stderr in
# OUT.err, the exit status in OUT.rc
run_probe() {
	local perf=$1 out=$2 rc=0
	shift 2
	"$perf" probe "$@" > "$out" 2> "$out.err" < /dev/null || rc=$?
	echo "$rc" > "$out.rc"
}

# show FILE...: a diagnostic copy of files
show() {
	local f
	for f in "$@"; do
		sed "s|^|# $(basename "$f"): |" "$f" | head -n 8
	done
}

# wait_file FILE: wait up to 5 s for FILE to exist (a process's "ready")
wait_file() {
	local i
	for i in $(seq 50); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	echo "# waited 5 s for $1 (try $i)"
}

# probe_offset OUT: the offset of the (first) probe perf probe -D wrote to OUT
probe_offset() {
	sed -n 's/.*:\(0x[0-9a-f]*\).*/\1/p' "$1" | head -n 1
}

# same_offset DESC WANT OUT [WHY]: one result, ok when the probe in OUT is
# at WANT (WHY says what WANT is); else OUT and its stderr are shown
same_offset() {
	local got
	got=$(probe_offset "$3")
	if [ -n "$2" ] && [ "$2" = "$got" ]; then
		result 0 "$1: $got${4:+, $4}"
	else
		result 1 "$1: '$got' instead of $2"
		show "$3" "$3.err"
	fi
}

# usage WHAT OUT CMD...: CMD with stdout in OUT (stderr dropped); prints
# its peak RSS in KiB (WHAT maxrss) or its user and system time in ms
# (WHAT cpu_ms)
usage() {
	python3 -c '
import resource, subprocess, sys
with open(sys.argv[2], "w") as out:
    subprocess.run(sys.argv[3:], stdin=subprocess.DEVNULL, stdout=out,
                   stderr=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_maxrss if sys.argv[1] == "maxrss" else
      int((r.ru_utime + r.ru_stime) * 1000))' "$@"
}

done_testing() {
	if [ "$tap_count" -ne "${tap_planned:-0}" ]; then
		echo "# planned ${tap_planned:-0} results, ran $tap_count"
		exit 1
	fi
	[ "$tap_failed" -eq 0 ]
}
