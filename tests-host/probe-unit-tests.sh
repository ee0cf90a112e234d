#!/bin/bash
# perf's own unit tests of the layers our perf patches touch (DSO data,
# maps, demanglers, SDT probes), run with our perf on the host.
#
# Usage: probe-unit-tests.sh   (env: OURS)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

tests=("DSO data read" "DSO data cache" "DSO data reopen" "maps__merge_in"
	"Demangle Java" "Demangle OCaml" "Probe SDT events" "kallsyms parsing"
	"Demangle in threads" "Symbol insertion in address order"
	"strfilter rules without globbing")
plan ${#tests[@]}
"$OURS" test list > "$tmp/list" 2>&1
for t in "${tests[@]}"; do
	nr=$(awk -F: -v t="$t" '{ sub(/^ +/, "", $2) } $2 == " " t || $2 == t { sub(/^ +/, "", $1); print $1; exit }' "$tmp/list")
	if [ -z "$nr" ]; then
		result 1 "perf test '$t': not in perf test list"
		continue
	fi
	"$OURS" test "$nr" > "$tmp/out" 2>&1 || true
	if grep -q ": Ok$" "$tmp/out"; then
		result 0 "perf test $nr ($t): Ok"
	else
		result 1 "perf test $nr ($t): $(tail -n 1 "$tmp/out")"
	fi
done
done_testing
