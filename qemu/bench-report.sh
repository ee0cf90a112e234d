#!/bin/bash
# Put bench runs side by side:
#   bench-report.sh STOCK_DIR... -- FORK_DIR...
# Each DIR holds a results.txt of "CLASS NS_PER_HIT" lines from one boot;
# with several boots per kernel (alternated by `make bench`), the lowest
# value of each class is taken, which damps the emulator's noise.
set -eu
stock=() fork=()
side=stock
for d in "$@"; do
	if [ "$d" = -- ]; then side=fork; continue; fi
	if [ "$side" = stock ]; then stock+=("$d/results.txt"); else fork+=("$d/results.txt"); fi
done
lowest() {
	awk '{ if (!($1 in m) || $2 < m[$1]) m[$1] = $2 } END { for (c in m) print c, m[c] }' "$@" |
		sort
}
if [ "${BENCH_CLOCK:-wall}" = icount ]; then
	echo "guest instructions per probe hit (QEMU -icount: 1 ns = 1 instruction),"
	echo "trace-enabled uprobe; syscall = null syscall floor"
else
	echo "ns per probe hit (guest, TCG, host clock), trace-enabled uprobe; syscall = null syscall floor"
fi
echo "mapfork: per mmap+munmap (fork every 8th) with a probe in another file; mapfork-0: no probe"
echo "lowest of ${#stock[@]} stock and ${#fork[@]} fork boots, alternated"
printf '%-10s %12s %12s %8s\n' class stock fork fork/stock
join <(lowest "${stock[@]}") <(lowest "${fork[@]}") | while read -r name s f; do
	awk -v n="$name" -v s="$s" -v f="$f" \
		'BEGIN { printf "%-10s %12.1f %12.1f %8.2f\n", n, s, f, (s > 0 ? f / s : 0) }'
done
# Scaling: 2-thread/1-thread hit throughput (lea, a class stock steps)
# over the same ratio for the null syscall, within each boot (one guest:
# the four figures share its conditions); only meaningful with 2 vCPUs
# under multi-threaded TCG (TCG_THREADS=multi BENCH_CLOCK=wall).
scaling() {
	local f
	for f in "$@"; do
		awk '{ v[$1] = $2 }
			END { if (v["lea-2thr"] > 0 && v["syscall-2thr"] > 0)
				printf " %.2f", (v["lea"] / v["lea-2thr"]) / (v["syscall"] / v["syscall-2thr"]) }' "$f"
	done
}
echo "2-thread scaling of lea hits relative to the null syscall's, per boot:" \
	"stock$(scaling "${stock[@]}"), fork$(scaling "${fork[@]}")"
