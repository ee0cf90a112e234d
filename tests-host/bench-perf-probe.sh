#!/bin/bash
# Host benchmark: time of our perf against stock perf 6.1 for
#   perf probe -x BIN -F                 (function list)
#   perf probe -x BIN -D FUNC%return     (ELF symbol -> offset)
#   perf probe -x BIN -D FUNC            (DWARF first when there is debuginfo)
# on large binaries: our perf binary itself and the biggest shared library
# of the system, and for
#   perf report --stdio                  (symbols of large C++ libraries)
# on a profile of clang-format.  STOCK is perf built from the same tree
# with the same options as ours (make bench-perf builds it), so the ratio
# compares like with like; DEBIAN, Debian's perf, is shown beside it.
# Each command runs RUNS times, stock, ours and Debian's in turn after a
# warm-up run of each (page cache); the lowest wall time of each is kept,
# which is the least disturbed by other load on the machine, and
# ours/stock printed (goal: <= 0.5 for probe, <= 0.7 for report).
# "perf version" is measured too: the start-up that every row includes.
# Nothing touches tracefs.
set -eu

OURS=${OURS:-/work/main/build/obj/perf-fork/perf}
STOCK=${STOCK:-/work/main/build/obj/perf-stock/perf}
DEBIAN=${DEBIAN:-/usr/bin/perf}
RUNS=${RUNS:-11}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

biggest_lib() {
	find /usr/lib/x86_64-linux-gnu -maxdepth 1 -type f -name '*.so*' \
		-printf '%s %p\n' 2> /dev/null | sort -n | tail -n 1 | cut -d' ' -f2
}

# once_us PERF ARGS...: wall time of one perf ARGS in microseconds.
# The clock is bash's own EPOCHREALTIME: reading it with date(1) would add
# the start-up of two more processes (3-5 ms here) to every figure.
once_us() {
	local perf=$1 start end
	shift
	start=${EPOCHREALTIME/./}
	"$perf" "$@" > /dev/null 2>&1 || true
	end=${EPOCHREALTIME/./}
	echo $((end - start))
}

# min_times ARGS...: "STOCK_US OURS_US DEBIAN_US", the lowest of RUNS
# runs of each, in turn
min_times() {
	local i t p
	local -A best=()
	for p in STOCK OURS DEBIAN; do
		once_us "${!p}" "$@" > /dev/null
	done
	for i in $(seq "$RUNS"); do
		for p in STOCK OURS DEBIAN; do
			t=$(once_us "${!p}" "$@")
			if [ "$i" -eq 1 ] || [ "$t" -lt "${best[$p]}" ]; then
				best[$p]=$t
			fi
		done
	done
	echo "${best[STOCK]} ${best[OURS]} ${best[DEBIAN]}"
}

# first_func BIN: a global function of BIN (cmd_record for perf)
first_func() {
	if nm --defined-only "$1" 2> /dev/null | grep -q ' T cmd_record$'; then
		echo cmd_record
		return
	fi
	nm -D --defined-only "$1" 2> /dev/null |
		awk '$2 == "T" { sub(/@.*/, "", $3) } $2 == "T" && $3 ~ /^[a-z][a-z0-9_]+$/ { print $3; exit }'
}

# bench LABEL WHAT ARGS...: one row
bench() {
	local label=$1 what=$2 s o d
	shift 2
	read -r s o d < <(min_times "$@")
	awk -v bin="$label" -v what="$what" -v o="$o" -v s="$s" -v d="$d" 'BEGIN {
		printf "%-44s %-26s stock %7.1f ms  ours %7.1f ms  ratio %.2f  (debian %7.1f ms)\n",
			bin, what, s / 1000, o / 1000, s ? o / s : 0, d / 1000 }'
}

echo "perf wall time, lowest of $RUNS runs each (ours: $OURS, stock: $STOCK)"
# the floor under every row: starting perf (exec, dynamic linking), no work
bench "start-up only" "version" version
lib=$(biggest_lib)
for bin in "$OURS" "$lib"; do
	fn=$(first_func "$bin")
	bench "$bin" "probe -F" probe -q -x "$bin" -F
	bench "$bin" "probe -D $fn%return" probe -q -x "$bin" -D "$fn%return"
	bench "$bin" "probe -D $fn" probe -q -x "$bin" -D "$fn"
done
cat /usr/lib/llvm-*/include/llvm/IR/*.h > "$tmp/big.h" 2> /dev/null || true
if [ -s "$tmp/big.h" ] && command -v clang-format > /dev/null &&
    "$STOCK" record -q -F 2000 -o "$tmp/p.data" -- clang-format "$tmp/big.h" \
	> /dev/null 2>&1; then
	bench "clang-format profile" "report --stdio" report -i "$tmp/p.data" --stdio
else
	echo "# no clang-format profile: perf report not measured"
fi
