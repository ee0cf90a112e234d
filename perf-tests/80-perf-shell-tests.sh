#!/bin/bash
# perf's own shell tests for uprobes, from the tree, run as `perf test` runs
# them: status 0 passes, 2 skips, anything else fails.
. /opt/perf-tests/lib/tap.sh
plan 2
trap clear_probes EXIT

dir=/usr/libexec/perf-core/tests/shell
for t in record+probe_libc_inet_pton.sh test_uprobe_from_different_cu.sh; do
	desc=$(sed -n '2s/^# //p' "$dir/$t")
	out=$(cd /tmp && bash "$dir/$t" 2>&1)
	rc=$?
	printf '%s\n' "$out" > "$RESULTS/$t.log"
	if [ "$t" = record+probe_libc_inet_pton.sh ]; then
		# It expects getaddrinfo, inet_pton's immediate caller, in a
		# frame-pointer callchain taken at inet_pton's first instruction.
		known_stock_limit "stock drops the immediate caller at a function-entry probe"
	fi
	case $rc in
	0) pass "$t: $desc" ;;
	2) skip "$t: $desc" "$(printf '%s\n' "$out" | tail -n 1)" ;;
	*) fail "$t: $desc (status $rc)" "$(printf '%s\n' "$out" | tail -n 15)" ;;
	esac
done
