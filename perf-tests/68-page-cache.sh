#!/bin/bash
# A probe session leaves the file and its page cache untouched: the
# breakpoints live only in copies of the text pages, the process's own
# (anonymous) or one shared by every process of an unfiltered probe (a
# file page that is not the page cache's; text_kind in lib/tap.sh).
# While probed, reading the file shows the original bytes at every probed
# offset, while the probed process runs such copies of the pages that
# hold probes (/proc/PID/pagemap: the int3s are there, the page cache is
# untouched), which a debugger's views (/proc/PID/mem as gdb reads it,
# process_vm_readv as lldb does) show with the original bytes; after
# removal the process maps the page cache pages again.
# The sha256 of the binary is the same before, after (page cache) and after
# dropping the caches (a fresh read from disk).
. /opt/perf-tests/lib/tap.sh
plan 19
# go is a FIFO the waiting process sleeps on: opening it to write releases it.
trap 'timeout 2 sh -c ": > go" 2> /dev/null; clear_probes' EXIT

bin=$WL/manyprobes
nprobes=64	# mp_0 .. mp_63: 16 bytes apart, so many share a page
sum_before=$(sha256sum < "$bin")

first=$(($(file_offset "$bin" mp_0)))	# decimal: dd reads 0x12 as 0 x 12
: > probes
offsets=()
for i in $(seq 0 $((nprobes - 1))); do
	offsets+=($((first + 16 * i)))
	printf 'p:pc/mp_%d %s:0x%x\n' "$i" "$bin" $((first + 16 * i)) >> probes
done
is "$(printf '0x%x' "${offsets[$((nprobes - 1))]}")" "$(file_offset "$bin" mp_$((nprobes - 1)))" \
	"mp_N are 16 bytes apart (mp_$((nprobes - 1)))"
span=$((16 * nprobes))

# bytes FILE OFFSET: $span bytes of FILE from OFFSET, one hex byte a line.
bytes() { dd if="$1" bs=1 skip="$2" count=$span 2> /dev/null | od -An -v -tx1 | tr -s ' ' '\n' | grep .; }
# run_bytes PID ADDR: the same through process_vm_readv
run_bytes() { "$WL/peekmem" "$1" "$2" $span | sed 's/../&\n/g' | grep .; }
# copies PID ADDR: how many of the pages of [ADDR, ADDR + span) are copies
# that hold the int3s (text_kind anon, PID's own, or shared), "N of M";
# the others are the page cache pages or not mapped.
copies() {
	local p n=0 m=0
	for ((p = $2 / 4096; p <= ($2 + span - 1) / 4096; p++)); do
		m=$((m + 1))
		case $(text_kind "$1" $((p * 4096)) "$bin" $((first + p * 4096 - $2))) in
		anon | shared) n=$((n + 1)) ;;
		esac
	done
	echo "$n of $m"
}
# mem_addr PID: the address at which PID maps file offset $first of the binary.
mem_addr() {
	awk -v f="$bin" -v o="$first" '$6 == f && $2 ~ /x/ {
		split($1, r, "-"); s = strtonum("0x" r[1]); e = strtonum("0x" r[2]); p = strtonum("0x" $3)
		if (o >= p && o < p + e - s) { print s + o - p; exit } }' "/proc/$1/maps"
}
# compare EXPECT_CC: the process's bytes against the file's; with
# EXPECT_CC=1 the first byte of each probed function must be 0xcc.
compare() {
	paste -d ' ' file.bytes mem.bytes | awk -v cc="$1" '
		{ want = (cc && (NR - 1) % 16 == 0) ? "cc" : $1 }
		$2 != want { bad++; if (bad <= 5) printf "byte %d: file %s mem %s want %s\n", NR - 1, $1, $2, want }
		END { if (NR != '"$span"') { print "read " NR " bytes"; exit 1 } exit bad > 0 }'
}

bytes "$bin" "$first" > file.bytes
rm -f go go.ready.*
mkfifo go
"$bin" wait go 5 > early.out &
early=$!
for _ in $(seq 500); do
	[ -e "go.ready.$early" ] && break
	sleep 0.02
done
addr=$(mem_addr $early)
[ -n "$addr" ] || fail "find the text mapping of pid $early" "$(cat "/proc/$early/maps")"
bytes "/proc/$early/mem" "$addr" > mem.bytes
check "before probing, /proc/PID/mem shows the file's bytes" compare 0
pages=$(copies $early "$addr")
pages=${pages#* of }
is "$(copies $early "$addr")" "0 of $pages" "before probing, the process maps the page cache pages"

check "add $nprobes probes" sh -c "cat probes >> $TRACING/uprobe_events"
echo 1 > "$TRACING/events/pc/enable"
is "$(copies $early "$addr")" "$pages of $pages" "probed: the process (started before) runs copies of the probed pages (own or shared)"
bytes "/proc/$early/mem" "$addr" > mem.bytes
known_stock_limit "stock shows debuggers the int3s of uprobes"
check "probed: /proc/PID/mem shows a debugger the file's bytes" compare 0
run_bytes $early "$addr" > mem.bytes
known_stock_limit "stock shows debuggers the int3s of uprobes"
check "probed: process_vm_readv shows the file's bytes too" compare 0
bytes "$bin" "$first" > now.bytes
check "probed: the file reads the original bytes at every probed offset" cmp file.bytes now.bytes
is "$(sha256sum < "$bin")" "$sum_before" "probed: the file's sha256 is unchanged"
out=$("$bin" run 2)
is "$(printf '%s\n' "$out" | sed -n 's/.* bad=\([0-9]*\) .*/\1/p')" 0 "probed: a program run computes right results"
hits=$(awk '$2 ~ /^mp_/ && $3 == 2 { n++ } END { print n + 0 }' "$TRACING/uprobe_profile")
is "$hits" $nprobes "probed: each probe hit twice by the run"

echo 0 > "$TRACING/events/pc/enable"
is "$(copies $early "$addr")" "0 of $pages" "disabled: the process maps the page cache pages again"
echo 1 > "$TRACING/events/pc/enable"
is "$(copies $early "$addr")" "$pages of $pages" "re-enabled: copies with the int3s again"
echo 0 > "$TRACING/events/pc/enable"
check "remove the probes" sh -c "echo > $TRACING/uprobe_events"
bytes "/proc/$early/mem" "$addr" > mem.bytes
check "removed: /proc/PID/mem shows the file's bytes" compare 0
: > go
wait "$early"
is "$?.$(cat early.out)" "0.calls=5 bad=0" "the process probed and unprobed runs on correctly"

is "$(sha256sum < "$bin")" "$sum_before" "after the session: sha256 (page cache) unchanged"
sync
echo 3 > /proc/sys/vm/drop_caches
is "$(sha256sum < "$bin")" "$sum_before" "after drop_caches: sha256 (fresh read) unchanged"
bytes "$bin" "$first" > now.bytes
check "after drop_caches: the probed range reads the original bytes" cmp file.bytes now.bytes
