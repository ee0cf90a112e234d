#!/bin/bash
# Our perf's changes to the shared symbol layer (ELF mapping, debuglink
# checks) must not change what perf report and perf script say: a
# profile of clang-format (libclang-cpp, libLLVM: large C++ libraries)
# is recorded once and read by stock perf and ours, and the outputs
# must be byte-identical.
#
# Usage: probe-report-diff.sh   (env: OURS, STOCK)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 3
cat /usr/lib/llvm-*/include/llvm/IR/*.h > "$tmp/big.h" 2> /dev/null || true
[ -s "$tmp/big.h" ] || cat /usr/include/*.h > "$tmp/big.h"
"$STOCK" record -q -g -F 2000 -o "$tmp/p.data" -- \
	clang-format "$tmp/big.h" > /dev/null 2> "$tmp/rec.err" ||
	{ echo "Bail out! perf record failed: $(head -n 1 "$tmp/rec.err")"; exit 1; }

# same DESC ARGS...: perf ARGS on the profile, stock and ours
same() {
	local desc=$1 p
	shift
	for p in STOCK OURS; do
		"${!p}" "$@" -i "$tmp/p.data" 2> /dev/null |
			grep -v -e '^# (Tip' -e '^$' > "$tmp/$p.out" || true
	done
	if [ -s "$tmp/OURS.out" ] && cmp -s "$tmp/STOCK.out" "$tmp/OURS.out"; then
		result 0 "$desc: $(wc -l < "$tmp/OURS.out") lines as stock"
	else
		result 1 "$desc: not as stock"
		diff "$tmp/STOCK.out" "$tmp/OURS.out" | head -n 8 | sed 's/^/#   /'
	fi
}
same "report --sort dso,sym" report --stdio --sort dso,sym -g none
same "report with call graphs" report --stdio --sort sym -g caller,0.5,callee
same "script -F ip,sym,dso" script -F ip,sym,dso
done_testing
