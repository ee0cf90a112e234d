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
# malloc() calls glibc's realloc() makes counted once (and, on made-up hits,
# tests-host/malloc-bytes-cases.py's cases).  Each page is opened
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
		[ $# = 0 ] || printf '%s\n' "$@" | sed 's/^/#   /'
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

# malloc-bytes.py on made-up hits: what malloc-graph's recording lacks
python3 "$here/malloc-bytes-cases.py" "$top/scripts/malloc-bytes.py" \
	"${TEMPLATE:-$top/build/d3-flame-graph/d3-flamegraph-base.html}" "$work" \
	> "$work/cases.tap" 2>&1 || true
cases=0 pending='' detail=''
flush_case() {
	[ -z "$pending" ] || result "${pending%% *}" "malloc-bytes.py: ${pending#* }" "$detail"
	pending='' detail=''
}
while IFS= read -r line; do
	case $line in
	"ok "* | "not ok "*)
		flush_case
		cases=$((cases + 1))
		status=0
		[ "${line%% *}" = ok ] || status=1
		pending="$status ${line#* - }" ;;
	"#   "*) detail="${detail:+$detail
}${line#\#   }" ;;
	esac
done < "$work/cases.tap"
flush_case
status=0
grep -qx "1..$cases" "$work/cases.tap" && [ "$cases" -gt 0 ] || status=1
result $status "malloc-bytes.py: every made-up case ran ($cases)" "$(tail -n 5 "$work/cases.tap")"

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
"$WORKLOADS/malloc-graph" --expect --allocators > "$work/expect-calls"
while read -r bytes chain; do
	calls=$(awk -v p="$chain" '$2 == p { print $1 }' "$work/expect-calls")
	got=$(awk -F '\t' -v p="$chain" '$3 == p || index($3, p ";") == 1 { n += $1; c += $2 }
		END { print n + 0, c + 0 }' "$stacks")
	status=0
	[ "$got" = "$bytes $calls" ] || status=1
	result $status "bytes: $bytes in $calls calls through $chain" "saw (bytes calls) $got"
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
total=$(awk -F '\t' '{ n += $1; c += $2 } END { print n + 0 " bytes in " c + 0 " calls" }' "$stacks")
status=0
head -n 1 "$out/bytes-top10.txt" | grep -q "^$total " || status=1
result $status "bytes: the table's total is the stacks' ($total)" \
	"$(head -n 1 "$out/bytes-top10.txt")"
awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+\.[0-9][0-9]$/ && $3 ~ /^[0-9]+$/ {
		stack = $0; sub(/^ *[0-9]+ +[0-9.]+ +[0-9]+  /, "", stack)
		print $1 "\t" $3 "\t" stack
	}' "$out/bytes-top10.txt" > "$work/table.rows"
status=0
rows=$(wc -l < "$work/table.rows")
[ "$rows" -gt 0 ] && head -n "$rows" "$stacks" | cmp -s - "$work/table.rows" || status=1
result $status "bytes: the table's $rows rows are the biggest stacks" \
	"$(diff <(head -n "$rows" "$stacks") "$work/table.rows" | head -n 6)"

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

	# the picture holds the root frame's red and the other frames' green
	# Headless Chromium may write its screenshot before the first frame is
	# drawn, a blank page, now and then (seen once in CI: "root 0 frames 0"
	# while the DOM of the same page held every frame): each shot waits for
	# the compositor, and a blank one is taken again, up to 3 shots.
	png=$out/flamegraph-$kind.png
	shots='' status=1
	for shot in 1 2 3; do
		rm -f "$png"
		browser "$html" --run-all-compositor-stages-before-draw \
			--screenshot="$png" > /dev/null || true
		colors=$(python3 "$here/png-colors.py" "$png" 2>&1 || true)
		shots="${shots:+$shots
}shot $shot: $colors"
		if printf '%s\n' "$colors" |
			awk '$1 == "root" && $2 >= 10000 && $3 == "frames" && $4 >= 10000 { ok = 1 }
				END { exit !ok }'; then
			status=0
			break
		fi
	done
	[ "$shot" = 1 ] || echo "# $kind: $shot screenshots taken: $(printf '%s; ' "$shots")"
	result $status "$kind: screenshot $png shows the flame graph" "$shots"
done
rm -rf "$work/chromium-profile"
finished=1
