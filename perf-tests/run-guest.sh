#!/bin/bash
# Guest side of `make check`: run each test script whose name matches one of
# the globs in $TESTS, ours (/opt/perf-tests) then the extra ones
# (/opt/extra-tests), in order.
# A script that exits non-zero, prints no result, or leaves probe events
# behind gets a failing result of its own, so a broken test cannot pass.
set -u
export PATH=/usr/bin:/usr/sbin
TESTS=${TESTS:-*}
per_test_timeout=${PU_TEST_TIMEOUT:-900}
mkdir -p /results/logs

for script in /opt/perf-tests/[0-9]*.sh /opt/extra-tests/*.sh; do
	[ -f "$script" ] || continue
	name=$(basename "$script" .sh)
	# TESTS: globs separated by spaces
	match=
	set -f
	for pattern in $TESTS; do
		# shellcheck disable=SC2254
		case "$name" in $pattern) match=1 ;; esac
	done
	set +f
	[ -n "$match" ] || continue
	echo "# file $name"
	work=/tmp/work/$name
	mkdir -p "$work"
	log=/results/logs/$name.log
	(cd "$work" && RESULTS=/results/$name timeout -k 5 "$per_test_timeout" \
		bash "$script") 2>&1 | tee "$log" | grep -E '^(not )?ok|^#'
	rc=${PIPESTATUS[0]}
	results=$(grep -cE '^(not )?ok' "$log")
	planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | head -n 1)
	if [ "$rc" != 0 ]; then
		echo "not ok - script exited with status $rc (124: timed out after ${per_test_timeout}s)"
		tail -n 15 "$log" | sed 's/^/#   /'
	elif [ "$results" = 0 ]; then
		echo "not ok - script printed no result"
	elif [ -z "$planned" ]; then
		echo "not ok - script declared no plan (plan N in lib/tap.sh)"
	elif [ "$results" != "$planned" ]; then
		echo "not ok - script printed $results results, its plan says $planned"
	fi
	left=$(cat /sys/kernel/tracing/uprobe_events /sys/kernel/tracing/kprobe_events)
	if [ -n "$left" ]; then
		echo "not ok - left probe events behind"
		printf '%s\n' "$left" | sed 's/^/#   /'
		echo > /sys/kernel/tracing/uprobe_events
		echo > /sys/kernel/tracing/kprobe_events
	fi
	rm -rf "$work"
done
