#!/bin/bash
# malloc-profile.sh [-o DIR] PROGRAM [ARG...]: every malloc(), calloc() and
# realloc() of PROGRAM with its call stack and the bytes it asks for, in
# DIR/perf.data (default ./malloc-profile).  In the guest (make shell):
#
#   /opt/perf-tests/malloc-profile.sh -o /results/mine /opt/workloads/malloc-graph
#
# then, on the host, the flame graphs of calls and of bytes and the table of
# the stacks asking for the most bytes:
#
#   scripts/flamegraphs.sh -o build/shell/mine build/shell/mine/perf.data
#
# The probes are libc's (LIBC, default /lib64/libc.so.6: x86-64 programs),
# named probe_libc:{malloc,calloc,realloc}; the script adds them and
# deletes them again, and refuses to run if a probe of that name is there
# already (perf probe -l; perf probe -d to remove it).
set -eu

libc=${LIBC:-/lib64/libc.so.6}
out=malloc-profile
if [ "${1:-}" = -o ]; then
	[ $# -ge 2 ] || { echo "malloc-profile.sh: -o needs a directory" >&2; exit 2; }
	out=$2
	shift 2
fi
if [ $# = 0 ]; then
	echo "usage: malloc-profile.sh [-o DIR] PROGRAM [ARG...]" >&2
	exit 2
fi

# The x86-64 calling convention: the arguments are in %di, %si, %dx.
probes=(
	"malloc size=%di:u64"
	"calloc nmemb=%di:u64 size=%si:u64"
	"realloc ptr=%di:u64 size=%si:u64"
)
events=(probe_libc:malloc probe_libc:calloc probe_libc:realloc)

for event in "${events[@]}"; do
	if perf probe -l "$event" 2>/dev/null | grep -q .; then
		echo "malloc-profile.sh: $event exists already; perf probe -d $event first" >&2
		exit 1
	fi
done

added=()
cleanup() {
	local event del=()

	for event in "${added[@]}"; do
		del+=(-d "$event")
	done
	[ ${#del[@]} = 0 ] || perf probe -q "${del[@]}" || true
}
trap cleanup EXIT

for i in "${!probes[@]}"; do
	# shellcheck disable=SC2086 # one word per argument of the probe
	perf probe -q -x "$libc" ${probes[$i]}
	added+=("${events[$i]}")
done

mkdir -p "$out"
perf record -q -g -e "$(IFS=,; echo "${events[*]}")" -o "$out/perf.data" -- "$@"
echo "malloc-profile.sh: $out/perf.data"
