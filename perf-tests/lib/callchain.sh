# shellcheck shell=bash
# Callchain helpers for the malloc-graph tests; source after tap.sh.

# chains PERF_DATA: one line per sample of the workload, its callchain as
# "sym;sym;..." (innermost first, offsets dropped).
chains() {
	perf script -i "$1" -F comm,ip,sym --no-inline 2>/dev/null | awk '
		/^[^ \t]/ { if (c != "") print c; c = ""; comm = $1; next }
		/^[ \t]*$/ { if (c != "") print c; c = ""; next }
		{ s = $2; sub(/\+0x[0-9a-f]+$/, "", s); c = (c == "" ? s : c ";" s) }
		END { if (c != "") print c }'
}

# count_prefix CHAINS_FILE CHAIN: samples whose chain starts with CHAIN.
count_prefix() {
	awk -v p="$2" '$0 == p || index($0, p ";") == 1 { n++ } END { print n + 0 }' "$1"
}

# count_through CHAINS_FILE SYM: samples whose chain passes through SYM.
count_through() {
	awk -v s="$2" '{ n += (index(";" $0 ";", ";" s ";") > 0) } END { print n + 0 }' "$1"
}

# check_chains CHAINS_FILE EXPECT_FILE WHAT [stock-limit-reason]
# Every expected chain ("COUNT sym;sym;...") appears with exactly its count.
check_chains() {
	local chains=$1 expect=$2 what=$3 limit=${4:-} count chain got key
	while read -r count chain; do
		got=$(count_prefix "$chains" "$chain")
		[ -z "$limit" ] || known_stock_limit "$limit"
		is "$got" "$count" "$what: $count x $chain"
		if [ "$got" != "$count" ]; then
			key=$(printf '%s' "$chain" | cut -d';' -f3)
			diag "samples through $key, by chain:"
			grep -E "(^|;)$key(;|$)" "$chains" | cut -d';' -f1-6 | sort | uniq -c | head -n 5 |
				while read -r line; do diag "  $line"; done
		fi
	done < "$expect"
}
