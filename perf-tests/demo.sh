#!/bin/bash
# `make demo`: the seed's session on malloc-graph, in the guest, then the
# allocation profile (malloc-profile.sh) its flame graphs are made of on
# the host (scripts/flamegraphs.sh).
set -eu
export PATH=/usr/bin:/usr/sbin
out=/results/demo
mkdir -p "$out"
cd "$out"
run() {
	echo "guest# $*"
	"$@"
}
run perf probe -x /lib64/libc.so.6 malloc
run perf record -e probe_libc:malloc -g -o perf.data -- /opt/workloads/malloc-graph
run perf report -i perf.data --stdio --no-children -g caller,0.5,callee --percent-limit 2 2>&1 |
	tee report.txt
# what the calls flame graph's widths are checked against
perf report -i perf.data --stdio --children --sort sym -g none > children.txt 2>&1
run perf probe -d probe_libc:malloc
run /opt/perf-tests/malloc-profile.sh -o profile /opt/workloads/malloc-graph --allocators
