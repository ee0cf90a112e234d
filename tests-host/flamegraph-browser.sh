#!/bin/bash
# The malloc flame graphs in a real browser.
#   flamegraph-browser.sh DATA_DIR OUT_DIR
# DATA_DIR is what the guest's 22-malloc-profile (or make demo) left:
# perf.data (the seed session's calls), children.txt (its perf report
# --children) and profile/perf.data (perf-tests/malloc-profile.sh).  The
# flame graphs are made with scripts/flamegraphs.sh into OUT_DIR, opened in
# headless Chromium with every host name unresolvable, and the frames it
# draws are read back from its DOM: malloc-graph's functions must be there,
# as wide as the text reports say (perf report --children for calls, the
# bytes table for bytes) within one percentage point.  The bytes table must
# hold exactly the bytes malloc-graph asks for.  The HTML files, the bytes
# table and screenshots (PNG) stay in OUT_DIR, what the test read in
# OUT_DIR/flamegraph-check.  Ends with "N passed, N failed"; exits 1 on any
# failure.
# Env: WORKLOADS (malloc-graph), CHROMIUM, and flamegraphs.sh's.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
data=$1
out=$2
WORKLOADS=${WORKLOADS:-$top/build/workloads}
CHROMIUM=${CHROMIUM:-chromium}
funcs="alloc_leaf alloc_mid thread_leaf lib_leaf rec_leaf"
work=$out/flamegraph-check
rm -rf "$work"
mkdir -p "$work"

count=0 failed=0
result() {	# result STATUS(0 ok) DESCRIPTION [DIAGNOSTIC...]
	local status=$1 desc=$2
	count=$((count + 1))
	if [ "$status" -eq 0 ]; then
		echo "ok $count - $desc"
	else
		failed=$((failed + 1))
		echo "not ok $count - $desc"
		shift 2
		[ $# = 0 ] || printf '#   %s\n' "$@"
	fi
}
finish() {
	echo "1..$count"
	echo "$((count - failed)) passed, $failed failed"
	[ "$failed" = 0 ]
}
trap 'finish' EXIT

# chromium WHAT ARGS... FILE: headless, no network, no profile left behind
browser() {
	local file=$1
	shift
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$work/chromium-profile" \
		--host-resolver-rules="MAP * ~NOTFOUND" --window-size=1200,420 \
		--virtual-time-budget=10000 "$@" "file://$file" 2> /dev/null
}

if ! "$top/scripts/flamegraphs.sh" -o "$out" --calls "$data/perf.data" \
	"$data/profile/perf.data" > "$work/flamegraphs.log" 2>&1; then
	result 1 "scripts/flamegraphs.sh writes both flame graphs" \
		"$(tail -n 5 "$work/flamegraphs.log")"
	exit 1
fi
result 0 "scripts/flamegraphs.sh writes both flame graphs"

# The bytes table's rows as "BYTES<tab>STACK", against what the program
# asks for.
awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+\.[0-9][0-9]$/ && $3 ~ /^[0-9]+$/ {
		stack = $0; sub(/^ *[0-9]+ +[0-9.]+ +[0-9]+  /, "", stack)
		print $1 "\t" stack
	}' "$out/bytes-top10.txt" > "$work/bytes.rows"
"$WORKLOADS/malloc-graph" --expect-bytes > "$work/expect-bytes"
while read -r bytes chain; do
	got=$(awk -F '\t' -v p="$chain" '$2 == p || index($2, p ";") == 1 { n += $1 }
		END { print n + 0 }' "$work/bytes.rows")
	status=0
	[ "$got" = "$bytes" ] || status=1
	result $status "bytes table: $bytes bytes through $chain" "saw $got"
done < "$work/expect-bytes"

# The share of each function in the text reports.
awk '$3 == "[.]" { sub(/%$/, "", $1); print $4, $1 }' "$data/children.txt" > "$work/calls.expect"
awk -F '\t' '{
		total += $1; n = split($2, f, ";"); split("", seen)
		for (i = 1; i <= n; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; b[f[i]] += $1 }
	}
	END { for (s in b) printf "%s %.3f\n", s, 100 * b[s] / total }' \
	"$work/bytes.rows" > "$work/bytes.expect"

for kind in calls bytes; do
	html=$out/flamegraph-$kind.html
	refs=$(grep -oE '(src|href)="?(https?:)?//[^" >]*' "$html" | sort -u || true)
	status=0
	[ -z "$refs" ] || status=1
	result $status "$kind: the HTML loads nothing from the network" "$refs"

	browser "$html" --dump-dom > "$work/$kind.dom" || true
	if python3 "$here/flamegraph-dom.py" "$work/$kind.dom" > "$work/$kind.drawn"; then
		result 0 "$kind: Chromium draws the flame graph"
	else
		result 1 "$kind: Chromium draws the flame graph" \
			"$(grep -c 'class="frame"' "$work/$kind.dom" || true) frames in the DOM"
	fi
	for f in $funcs; do
		want=$(awk -v f="$f" '$1 == f { print $2 }' "$work/$kind.expect")
		got=$(awk -v f="$f" '$1 == f { print $2 }' "$work/$kind.drawn")
		status=0
		awk -v w="${want:-x}" -v g="${got:-y}" 'BEGIN {
			exit !(w ~ /^[0-9.]+$/ && g ~ /^[0-9.]+$/ && w - g <= 1 && g - w <= 1) }' ||
			status=1
		result $status "$kind: $f is ${want:-missing}% wide in the report, ${got:-not drawn}% in the browser"
	done

	rm -f "$out/flamegraph-$kind.png"
	browser "$html" --screenshot="$out/flamegraph-$kind.png" > /dev/null || true
	status=0
	[ "$(head -c 8 "$out/flamegraph-$kind.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = \
		89504e470d0a1a0a ] || status=1
	result $status "$kind: screenshot $out/flamegraph-$kind.png"
done
rm -rf "$work/chromium-profile"
