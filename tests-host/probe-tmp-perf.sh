#!/bin/bash
# A program under /tmp/perf-SOMETHING/ is an ELF file like any other: only
# /tmp/perf-PID.map is a JIT's symbol map.  Stock perf took every name
# starting with /tmp/perf- for a map, and found no symbol in the program.
#
# Usage: probe-tmp-perf.sh   (env: OURS)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 2
dir=$(mktemp -d /tmp/perf-uprobe-XXXXXX)
trap 'rm -rf "$tmp" "$dir"' EXIT
gcc -O1 -o "$dir/t" "$(dirname "$0")/fixtures/t.c"
want=$(nm "$dir/t" | awk '$3 == "t_leaf" { print $1 }')
run_probe "$OURS" "$tmp/f" -q -x "$dir/t" -F
check "-F lists the program's functions ($(wc -l < "$tmp/f") names)" \
	grep -qx t_leaf "$tmp/f"
run_probe "$OURS" "$tmp/d" -q -x "$dir/t" -D t_leaf
same_offset "-D t_leaf" "0x$(printf '%x' "$((16#$want))")" "$tmp/d" "its symbol"
done_testing
