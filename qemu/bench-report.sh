#!/bin/bash
# Put two bench runs side by side: bench-report.sh STOCK_DIR FORK_DIR
set -eu
stock=$1/results.txt
fork=$2/results.txt
echo "ns per probe hit (guest, TCG), trace-enabled uprobe; syscall = null syscall floor"
printf '%-10s %12s %12s %8s\n' class stock fork fork/stock
join <(sort "$stock") <(sort "$fork") | while read -r name s f; do
	awk -v n="$name" -v s="$s" -v f="$f" \
		'BEGIN { printf "%-10s %12.1f %12.1f %8.2f\n", n, s, f, (s > 0 ? f / s : 0) }'
done
