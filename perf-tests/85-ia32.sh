#!/bin/bash
# Probes in 32-bit (ia32) tasks (workloads/ia32, gcc -m32): each class of
# ia32.S probed at once, entry and return probes, forked children.  The
# probes are registered while the only process mapping the file is a
# 64-bit reader (workloads/mapfile, a read-only private mapping as libelf
# or gdb make): the instructions are still 32-bit code for ia32 tasks.
. /opt/perf-tests/lib/tap.sh
plan 37
bin=$WL/ia32
reader=

cleanup() {
	exec 3>&- 2>/dev/null
	[ -z "$reader" ] || wait "$reader" 2>/dev/null
	clear_probes
}
trap cleanup EXIT

# sym_off SYMBOL: the file offset of SYMBOL (ia32.S names some places inside
# functions, so not only FUNC symbols)
sym_off() {
	local value
	value=$(readelf -Ws "$bin" | awk -v s="$1" '$8 == s { print $2; exit }')
	[ -n "$value" ] && vaddr_offset "$bin" "0x$value"
}

# the instruction of each class: the first one, or the one named *_at
point() {
	case $1 in
	dec|jcc|lea) echo "ia32_$1_at" ;;
	*) echo "ia32_$1" ;;
	esac
}

hits_of() {
	grep -c " ia32_$1: " "$TRACING/trace"
}

mkfifo hold
"$WL/mapfile" "$bin" < hold > mapped.out &
reader=$!
exec 3> hold
for _ in $(seq 100); do
	grep -q mapped mapped.out && break
	sleep 0.1
done
is "$(cat mapped.out)" mapped "a 64-bit reader maps the 32-bit file before any probe"

classes=$("$bin" --list 2>&1)
is "$(echo "$classes" | wc -l)" 8 "the 32-bit program runs and lists its 8 classes"
ok=1
for c in $classes; do
	off=$(sym_off "$(point "$c")") || { ok=0; diag "no symbol for $c"; continue; }
	echo "p:ia32/ia32_$c $bin:$off" >> "$TRACING/uprobe_events" || ok=0
done
is "$ok" 1 "probes on $(echo "$classes" | wc -w) ia32 classes registered"
echo 1 > "$TRACING/events/ia32/enable"

for c in $classes; do
	echo > "$TRACING/trace"
	out=$("$bin" "$c" 500 2>&1)
	rc=$?
	# stock (measured): abs dies with SIGSEGV after one hit (8b 05 taken
	# as %rip-relative); push, dec and call happen to come out right
	[ "$c" != abs ] || known_stock_limit "stock decodes a 32-bit file as the first mm that maps it runs"
	is "$rc:$out" "0:$c calls=500" "ia32 $c: the program's results are right while probed"
	[ "$c" != abs ] || known_stock_limit "stock decodes a 32-bit file as the first mm that maps it runs"
	is "$(hits_of "$c")" 500 "ia32 $c: 500 hits"
done
# the reader goes; the probes stay right for the next 32-bit run
exec 3>&-
wait "$reader"
reader=
echo > "$TRACING/trace"
is "$("$bin" fork jcc 4 250 | sort | uniq -c | awk '{ print $1, $2, $3 }')" \
	"4 jcc calls=250" "ia32 fork: 4 children x 250 calls right while probed"
is "$(hits_of jcc)" 1000 "ia32 fork: 1000 hits"

# Signals: a SIGALRM every millisecond whose handler calls the probed
# function too, so signals come during hits and steps, and hits nest.
for c in push lea jcc; do
	echo > "$TRACING/trace"
	out=$("$bin" signal "$c" 3000 2>&1)
	rc=$?
	calls=$(printf '%s\n' "$out" | sed -n "s/^$c handler calls=//p")
	is "$rc:$(printf '%s\n' "$out" | head -n 1)" "0:$c calls=3000" \
		"ia32 $c, SIGALRM every ms: the program's results are right while probed"
	is "$(hits_of "$c")" "$((3000 + ${calls:-0}))" \
		"ia32 $c, SIGALRM every ms: a hit per call, the handler's ${calls:-0} too"
done
echo 0 > "$TRACING/events/ia32/enable"

# perf record -g through a probe in an ia32 task: frame-pointer chains.
check "perf probe -x ia32 chain_leaf" perf probe -q -x "$bin" chain_leaf
perf record -q -e probe_ia32:chain_leaf -g -o chain.data -- "$bin" chain 100 > chain.out 2>&1
is "$(cat chain.out)" "chain calls=100" "ia32 perf record -g: the program ran right"
perf script -i chain.data -F ip,sym 2> /dev/null |
	awk 'NF == 0 { if (s != "") print s; s = ""; next } { s = s (s == "" ? "" : ";") $2 }
	     END { if (s != "") print s }' > chain.txt
cp chain.txt "$RESULTS/" 2> /dev/null
is "$(grep -c '^chain_leaf;\(chain_mid;\)\?main' chain.txt)" 100 \
	"ia32 perf record -g: 100 samples chain_leaf <- ... <- main"
# (stock, measured, has the immediate caller here too)
is "$(grep -c '^chain_leaf;chain_mid;main' chain.txt)" 100 \
	"ia32 perf record -g: with the immediate caller, chain_leaf <- chain_mid <- main"
check "perf probe -d probe_ia32:chain_leaf" perf probe -q -d probe_ia32:chain_leaf

# Return probes in an ia32 task return through the int3 of the trampoline.
echo "r:ia32/ia32_push_ret $bin:$(sym_off ia32_push) ret=\$retval:s32" >> "$TRACING/uprobe_events"
echo > "$TRACING/trace"
echo 1 > "$TRACING/events/ia32/enable"
out=$("$bin" push 300 2>&1)
rc=$?
echo 0 > "$TRACING/events/ia32/enable"
is "$rc:$out" "0:push calls=300" "ia32 return probe: the program's results are right"
is "$(grep -c 'ia32_push_ret: .* ret=' "$TRACING/trace")" 300 "ia32 return probe: 300 returns"
is "$(grep -c 'ia32_push: ' "$TRACING/trace")" 300 "ia32 entry probe with a return probe on the same place: 300 hits"
is "$(grep 'ia32_push_ret: ' "$TRACING/trace" | tail -n 1 | sed 's/.* ret=//')" 300 \
	"ia32 return probe: \$retval of the last call is 300"

# An ELF object of another architecture (e_machine EM_AARCH64, 183): its
# instructions are not x86 code in either mode, so a probe on it is refused
# when enabled, not decoded as whatever mm maps the file first.
cp "$bin" other-arch
printf '\267\000' | dd of=other-arch bs=1 seek=18 conv=notrunc 2> /dev/null
echo "p:ia32/other_arch $PWD/other-arch:$(sym_off ia32_push)" >> "$TRACING/uprobe_events"
# stock (measured): enabled, and decoded for the first mm that maps it
known_stock_limit "stock decodes any file as x86 code"
refused=yes
if echo 1 2> /dev/null > "$TRACING/events/ia32/other_arch/enable"; then
	refused=no
fi
is "$refused" yes "a probe on an ELF object of another architecture is refused"
echo 0 > "$TRACING/events/ia32/other_arch/enable"
