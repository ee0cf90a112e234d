#!/bin/bash
# The malloc flame graphs in a real browser.
#   flamegraph-browser.sh DATA_DIR OUT_DIR
# DATA_DIR is what the guest's 22-malloc-profile (or make demo) left:
# perf.data (the seed session's calls of malloc-graph), children.txt (its
# perf report --children) and profile/perf.data (perf-tests/malloc-profile.sh
# of malloc-graph --allocators).
#
# The flame graphs are made with scripts/flamegraphs.sh into OUT_DIR.  The
# bytes of each stack must be exactly what malloc-graph asks for, the
# malloc() calls glibc's realloc() makes counted once.  Each page is opened
# in headless Chromium with every host name unresolvable, and the frames it
# draws are read back from its DOM: malloc-graph's functions must be there,
# as wide as the text reports say (perf report --children for calls, the
# bytes of every stack for bytes) within 0.1 point.  The HTML files, the
# bytes table and screenshots (PNG) stay in OUT_DIR, what the test read in
# OUT_DIR/flamegraph-check.  Ends with "N passed, N failed"; exits 1 on any
# failure.  Env: WORKLOADS (malloc-graph), CHROMIUM, and flamegraphs.sh's.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
data=$1
mkdir -p "$2"
out=$(realpath "$2")
WORKLOADS=${WORKLOADS:-$top/build/workloads}
CHROMIUM=${CHROMIUM:-chromium}
funcs="alloc_leaf alloc_mid thread_leaf lib_leaf rec_leaf"
work=$out/flamegraph-check
rm -rf "$work"
mkdir -p "$work"

count=0 failed=0 finished=
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
# a run that stops early (set -e, or the render failing) fails
finish() {
	[ -n "$finished" ] || result 1 "the test ran to its end"
	echo "1..$count"
	echo "$((count - failed)) passed, $failed failed"
	[ "$failed" = 0 ] && exit 0
	exit 1
}
trap finish EXIT

# browser FILE ARGS...: headless Chromium on FILE, no network
browser() {
	local file=$1
	shift
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$work/chromium-profile" \
		--host-resolver-rules="MAP * ~NOTFOUND" --window-size=1200,420 \
		--virtual-time-budget=10000 "$@" "file://$file" 2> /dev/null
}

# near WANT GOT: both numbers, within 0.1
near() {
	awk -v w="${1:-x}" -v g="${2:-y}" 'BEGIN {
		exit !(w ~ /^[0-9.]+$/ && g ~ /^[0-9.]+$/ && w - g <= 0.1 && g - w <= 0.1) }'
}

if ! "$top/scripts/flamegraphs.sh" -o "$out" --calls "$data/perf.data" \
	"$data/profile/perf.data" > "$work/flamegraphs.log" 2>&1; then
	result 1 "scripts/flamegraphs.sh writes both flame graphs" \
		"$(tail -n 5 "$work/flamegraphs.log")"
	exit 1
fi
result 0 "scripts/flamegraphs.sh writes both flame graphs"

# Bytes: every stack ("BYTES<tab>CALLS<tab>STACK") against what the program
# asks for.
stacks=$out/bytes-stacks.txt
"$WORKLOADS/malloc-graph" --expect-bytes --allocators > "$work/expect-bytes"
while read -r bytes chain; do
	got=$(awk -F '\t' -v p="$chain" '$3 == p || index($3, p ";") == 1 { n += $1 }
		END { print n + 0 }' "$stacks")
	status=0
	[ "$got" = "$bytes" ] || status=1
	result $status "bytes: $bytes through $chain" "saw $got"
done < "$work/expect-bytes"

# realloc(NULL, n) is one request: glibc's realloc() jumps to malloc() for
# it, and that hit is left out, once per round of malloc-graph's realloc
# chain (a third of its calls).
rounds=$(("$("$WORKLOADS/malloc-graph" --expect --allocators |
	awk '$2 ~ /^realloc;/ { print $1 }')" / 3))
through=$(awk -F '\t' 'index($3, "malloc;") == 1 && index($3, ";path_realloc;")' "$stacks")
status=0
[ -z "$through" ] || status=1
result $status "bytes: no malloc() of its own through path_realloc" "$through"
status=0
grep -qx "$rounds malloc() calls made by realloc() counted once, as realloc()" \
	"$out/bytes-top10.txt" || status=1
result $status "bytes: the table says the $rounds malloc() calls of realloc(NULL, n) were counted once" \
	"$(sed -n 2p "$out/bytes-top10.txt")"

# The table's total is every stack's, and its rows are the biggest stacks.
total=$(awk -F '\t' '{ n += $1 } END { print n + 0 }' "$stacks")
status=0
head -n 1 "$out/bytes-top10.txt" | grep -q "^$total bytes in " || status=1
result $status "bytes: the table's total is the stacks' ($total)" \
	"$(head -n 1 "$out/bytes-top10.txt")"

# The share of each function in the text reports.
awk '$3 == "[.]" { sub(/%$/, "", $1); print $4, $1 }' "$data/children.txt" > "$work/calls.expect"
awk -F '\t' '{
		total += $1; n = split($3, f, ";"); split("", seen)
		for (i = 1; i <= n; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; b[f[i]] += $1 }
	}
	END { for (s in b) printf "%s %.3f\n", s, 100 * b[s] / total }' \
	"$stacks" > "$work/bytes.expect"

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
		near "$want" "$got" || status=1
		result $status "$kind: $f is ${want:-missing}% wide in the report, ${got:-not drawn}% in the browser"
	done

	# the page with its root frame alone is about 6 KB, a drawn graph 20 KB
	png=$out/flamegraph-$kind.png
	rm -f "$png"
	browser "$html" --screenshot="$png" > /dev/null || true
	status=0
	[ "$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] &&
		[ "$(stat -c %s "$png")" -gt 8000 ] || status=1
	result $status "$kind: screenshot $png, not blank"
done
rm -rf "$work/chromium-profile"
finished=1
