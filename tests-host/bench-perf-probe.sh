#!/bin/bash
# Host benchmark: time of our perf probe against stock perf 6.1 for
#   perf probe -x BIN -F                 (function list)
#   perf probe -x BIN -D FUNC%return     (ELF symbol -> offset)
#   perf probe -x BIN -D FUNC            (DWARF first when there is debuginfo)
# on large binaries: our perf binary itself and the biggest shared library
# of the system.  Each command runs RUNS times, stock and ours alternating
# after a warm-up run of each (page cache); the lowest wall time of each
# is kept, which is the least disturbed by other load on the machine, and
# ours/stock printed (goal: <= 0.5).  Nothing touches tracefs.
set -eu

OURS=${OURS:-/work/main/build/obj/perf-wt/perf}
STOCK=${STOCK:-/usr/bin/perf}
RUNS=${RUNS:-11}

biggest_lib() {
	find /usr/lib/x86_64-linux-gnu -maxdepth 1 -type f -name '*.so*' \
		-printf '%s %p\n' 2> /dev/null | sort -n | tail -n 1 | cut -d' ' -f2
}

# once_us PERF ARGS...: wall time of one perf probe ARGS in microseconds.
# The clock is bash's own EPOCHREALTIME: reading it with date(1) would add
# the start-up of two more processes (3-5 ms here) to every figure.
once_us() {
	local perf=$1 start end
	shift
	start=${EPOCHREALTIME/./}
	"$perf" probe -q "$@" > /dev/null 2>&1 || true
	end=${EPOCHREALTIME/./}
	echo $((end - start))
}

# min_pair ARGS...: "STOCK_US OURS_US", the lowest of RUNS alternating runs
min_pair() {
	local i t s=0 o=0
	once_us "$STOCK" "$@" > /dev/null
	once_us "$OURS" "$@" > /dev/null
	for i in $(seq "$RUNS"); do
		t=$(once_us "$STOCK" "$@")
		if [ "$i" -eq 1 ] || [ "$t" -lt "$s" ]; then s=$t; fi
		t=$(once_us "$OURS" "$@")
		if [ "$i" -eq 1 ] || [ "$t" -lt "$o" ]; then o=$t; fi
	done
	echo "$s $o"
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

bench() {
	local bin=$1 what=$2 s o
	shift 2
	read -r s o < <(min_pair -x "$bin" "$@")
	awk -v bin="$bin" -v what="$what" -v o="$o" -v s="$s" 'BEGIN {
		printf "%-48s %-22s stock %7.1f ms  ours %7.1f ms  ratio %.2f\n",
			bin, what, s / 1000, o / 1000, s ? o / s : 0 }'
}

echo "perf probe wall time, lowest of $RUNS runs each (ours: $OURS)"
lib=$(biggest_lib)
for bin in "$OURS" "$lib"; do
	fn=$(first_func "$bin")
	bench "$bin" "-F" -F
	bench "$bin" "-D $fn%return" -D "$fn%return"
	bench "$bin" "-D $fn" -D "$fn"
done
