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

# once_ns PERF ARGS...: wall time of one perf probe ARGS in nanoseconds
once_ns() {
	local perf=$1 start end
	shift
	start=$(date +%s%N)
	"$perf" probe -q "$@" > /dev/null 2>&1 || true
	end=$(date +%s%N)
	echo $((end - start))
}

# min_pair ARGS...: "STOCK_MS OURS_MS", the lowest of RUNS alternating runs
min_pair() {
	local i t s=0 o=0
	once_ns "$STOCK" "$@" > /dev/null
	once_ns "$OURS" "$@" > /dev/null
	for i in $(seq "$RUNS"); do
		t=$(once_ns "$STOCK" "$@")
		if [ "$i" -eq 1 ] || [ "$t" -lt "$s" ]; then s=$t; fi
		t=$(once_ns "$OURS" "$@")
		if [ "$i" -eq 1 ] || [ "$t" -lt "$o" ]; then o=$t; fi
	done
	echo "$((s / 1000000)) $((o / 1000000))"
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
	printf '%-48s %-22s stock %6d ms  ours %6d ms  ratio %s\n' \
		"$bin" "$what" "$s" "$o" \
		"$(awk -v o="$o" -v s="$s" 'BEGIN { printf "%.2f", s ? o / s : 0 }')"
}

echo "perf probe wall time, lowest of $RUNS runs each (ours: $OURS)"
lib=$(biggest_lib)
for bin in "$OURS" "$lib"; do
	fn=$(first_func "$bin")
	bench "$bin" "-F" -F
	bench "$bin" "-D $fn%return" -D "$fn%return"
	bench "$bin" "-D $fn" -D "$fn"
done
