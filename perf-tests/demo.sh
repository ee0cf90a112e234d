#!/bin/bash
# `make demo`: the seed's session on malloc-graph, in the guest.
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
run perf probe -d probe_libc:malloc
