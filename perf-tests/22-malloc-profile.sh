#!/bin/bash
# The data of make demo's flame graphs: perf-tests/malloc-profile.sh probes
# libc's malloc, calloc and realloc with their size arguments and records
# malloc-graph --allocators with -g; the bytes each probe sees through each
# chain are exactly what the program asks for (malloc-graph --expect-bytes).
# It leaves no probe behind and refuses to replace a probe of the same
# name.  Its perf.data, and the calls' (as the seed session records them)
# with their text report, stay in $RESULTS for the host's flame graph test
# (tests-host/flamegraph-browser.sh).
. /opt/perf-tests/lib/tap.sh
plan 12
. /opt/perf-tests/lib/callchain.sh
trap clear_probes EXIT

profile=/opt/perf-tests/malloc-profile.sh
# The second thread's name goes into the flame graph's page as it is: one
# that would end the page's script if written there unescaped.
tname='</script>mg'

# The calls, as make demo's seed session records them, and the text report
# the flame graph's widths are checked against.
perf probe -q -x "$LIBC" malloc
check "perf record -e probe_libc:malloc -g -- malloc-graph" \
	perf record -q -e probe_libc:malloc -g -o "$RESULTS/perf.data" -- \
	"$WL/malloc-graph" --thread-name "$tname"
perf report -i "$RESULTS/perf.data" --stdio --children --sort sym -g none \
	> "$RESULTS/children.txt" 2>&1
perf probe -q -d probe_libc:malloc

# A probe of the same name is there: refused, and left as it was.
perf probe -q -x "$LIBC" malloc
before=$(cat "$TRACING/uprobe_events")
if out=$("$profile" -o refused "$WL/malloc-graph" 2>&1); then
	fail "malloc-profile.sh refuses when probe_libc:malloc exists" "$out"
else
	is "$(printf '%s\n' "$out" | grep -c 'probe_libc:malloc exists already')" 1 \
		"malloc-profile.sh refuses when probe_libc:malloc exists"
fi
is "$(cat "$TRACING/uprobe_events")" "$before" "the probe that was there is left as it was"
perf probe -q -d probe_libc:malloc

check "malloc-profile.sh -o DIR malloc-graph --allocators" \
	"$profile" -o "$RESULTS/profile" "$WL/malloc-graph" --allocators --thread-name "$tname"
is "$(perf probe -l 2>/dev/null | grep -c 'probe_libc:')" 0 \
	"malloc-profile.sh deleted its probes"

# Bytes per chain from perf script's own fields: "size=N" (calloc's
# nmemb times size), the chain as chains() makes it, its first frame named
# after the probe (glibc's calloc is __libc_calloc to perf).  The malloc()
# that glibc's realloc(NULL, n) makes is a hit of its own here.
perf script -i "$RESULTS/profile/perf.data" -F event,trace,ip,sym --no-inline 2>/dev/null | awk '
	function flush() { if (c != "") print n, c; c = "" }
	$1 ~ /^probe_libc:/ {
		flush()
		probed = $1; sub(/^probe_libc:/, "", probed); sub(/:$/, "", probed)
		n = 0; nmemb = 1; first = 1
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^size=/) n = substr($i, 6)
			if ($i ~ /^nmemb=/) nmemb = substr($i, 7)
		}
		n *= nmemb
		next
	}
	/^[ \t]*$/ { flush(); next }
	{
		s = $2; sub(/\+0x[0-9a-f]+$/, "", s)
		if (first) { s = probed; first = 0 }
		c = (c == "" ? s : c ";" s)
	}
	END { flush() }' > sized.txt
cp sized.txt "$RESULTS/sized-chains"
"$WL/malloc-graph" --expect-bytes --allocators > expect
while read -r bytes chain; do
	got=$(awk -v p="$chain" '$2 == p || index($2, p ";") == 1 { n += $1 } END { print n + 0 }' sized.txt)
	# as in 20-malloc-graph-fp: stock's chain has no immediate caller
	known_stock_limit "stock drops the immediate caller at a function-entry probe"
	is "$got" "$bytes" "$bytes bytes through $chain"
done < expect
