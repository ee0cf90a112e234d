#!/bin/bash
# check-host: the differential test, every probe-*.sh scenario and the
# tree-*.sh checks of the kernel tree, each
# with its TAP output under LOGDIR; prints one line per scenario and the
# total, and fails if any of them failed.
#
# Usage: run.sh LOGDIR   (env: OURS, STOCK, WORKLOADS, passed through)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
logdir=$1
mkdir -p "$logdir"

passed=0
failed=0
bad=0
for t in "$here/perf-probe-diff.sh" "$here"/probe-*.sh "$here"/tree-*.sh; do
	name=$(basename "$t" .sh)
	rc=0
	"$t" > "$logdir/$name.log" 2>&1 || rc=$?
	p=$(grep -c '^ok ' "$logdir/$name.log" || true)
	f=$(grep -c '^not ok ' "$logdir/$name.log" || true)
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$rc" -ne 0 ]; then
		bad=$((bad + 1))
		echo "HOST $name: $p passed, $f failed (exit $rc)"
		grep -v '^ok ' "$logdir/$name.log" | tail -n 20
		# a scenario that died before its results still counts
		[ "$f" -gt 0 ] || failed=$((failed + 1))
	else
		echo "HOST $name: $p passed"
	fi
done
echo "$passed passed, $failed failed"
[ "$bad" -eq 0 ]
