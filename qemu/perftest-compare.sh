#!/bin/bash
# perftest-compare.sh BASELINE RESULTS [--update]
# RESULTS holds "Ok|FAILED|Skip ID DESCRIPTION" lines from perf-tests/perftest.sh.
# Every test in BASELINE (the "ID DESCRIPTION" of the tests that pass on
# stock) must pass in RESULTS.  --update rewrites BASELINE from RESULTS.
set -eu
baseline=$1 results=$2 update=${3:-}
[ -s "$results" ] || { echo "perftest: no results in $results" >&2; exit 1; }
ok=$(mktemp)
trap 'rm -f "$ok"' EXIT
sed -n 's/^Ok //p' "$results" | LC_ALL=C sort -u > "$ok"
if [ "$update" = --update ]; then
	{
		echo "# perf test entries that pass on the stock kernel (make perftest KERNEL=stock PERFTEST_UPDATE=1)"
		cat "$ok"
	} > "$baseline"
	echo "perftest: baseline rewritten with $(wc -l < "$ok") passing tests"
	exit 0
fi
missing=$(grep -v '^#' "$baseline" | LC_ALL=C sort -u | LC_ALL=C comm -23 - "$ok")
nok=$(wc -l < "$ok")
nfail=$(grep -c '^FAILED' "$results" || true)
nskip=$(grep -c '^Skip' "$results" || true)
echo "perftest: $nok ok, $nfail failed, $nskip skipped"
if [ -n "$missing" ]; then
	echo "perftest: these pass on stock but not here:"
	printf '%s\n' "$missing" | sed 's/^/  /'
	exit 1
fi
echo "perftest: every test that passes on stock passes here"
