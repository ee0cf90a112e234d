#!/bin/bash
# Every instruction of the ins_* functions (insns.S: branches, loops, calls
# direct and indirect, ret, push/pop, pushf/popf, enter/leave, string ops,
# %rip-relative loads/stores/rmw with implicit operands, SSE, and every
# emulated arithmetic form with the flags it leaves) probed at once:
# the program's output equals the unprobed run and each probe is hit exactly
# as often as its instruction runs.  A probe on a syscall instruction is
# refused.
. /opt/perf-tests/lib/tap.sh
plan 7
trap clear_probes EXIT

bin=$WL/insns
n=40
want=$("$bin" $n)

# vaddr_to_offset ADDR: file offset of a virtual address, from the LOAD segments.
mapfile -t loads < <(readelf -lW "$bin" | awk '$1 == "LOAD" { print $2, $3, $5 }')
vaddr_to_offset() {
	local a=$((16#$1)) seg off vaddr filesz
	for seg in "${loads[@]}"; do
		read -r off vaddr filesz <<< "$seg"
		if [ "$a" -ge $((vaddr)) ] && [ "$a" -lt $((vaddr + filesz)) ]; then
			printf '0x%x\n' $((a - vaddr + off))
			return 0
		fi
	done
	return 1
}

# Instructions of the straight-line functions, less the ud2s jumped over.
objdump -d --no-show-raw-insn "$bin" | awk '
	/^[0-9a-f]+ <ins_[a-z0-9]+>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
	/^$/ { fn = "" }
	fn != "" && fn != "ins_syscall" && $2 != "ud2" { sub(":", "", $1); print fn, $1 }' \
	> insns.list
count=$(wc -l < insns.list)
check "objdump lists the instructions of insns.S ($count)" test "$count" -gt 150

: > expected.list
while read -r fn addr; do
	off=$(vaddr_to_offset "$addr")
	echo "p:insn/i_$addr $bin:$off" >> "$TRACING/uprobe_events" || echo "add failed: $fn $addr"
	# ins_calls calls each helper twice
	case "$fn" in ins_helper|ins_helper2) echo "i_$addr $((2 * n)) $fn" ;; *) echo "i_$addr $n $fn" ;; esac >> expected.list
done < insns.list > add.err
is "$(cat add.err)" "" "every instruction accepted as a probe"
check "enable all $count probes" sh -c "echo 1 > $TRACING/events/insn/enable"

got=$("$bin" $n)
# Measured: stock's ins_stack result differs; it steps pushf out of line
# with TF set and leaves TF in the flags image pushf stores.
known_stock_limit "stock leaks TF into the flags a stepped pushf saves"
is "$got" "$want" "output with every instruction probed equals the unprobed run"
echo 0 > "$TRACING/events/insn/enable"

awk 'NR == FNR { want[$1] = $2; fn[$1] = $3; next }
     ($2 in want) { seen[$2] = 1; if ($3 != want[$2]) print fn[$2], $2, "hit", $3, "want", want[$2] }
     END { for (e in want) if (!(e in seen)) print fn[e], e, "missing from uprobe_profile" }' \
	expected.list "$TRACING/uprobe_profile" > mismatch.list
is "$(wc -l < mismatch.list)" 0 "each of the $count probes hit exactly as often as its instruction ran"
[ -s mismatch.list ] && diag "$(head -n 20 mismatch.list)"
echo > "$TRACING/uprobe_events"

# syscall cannot run out of line: the kernel refuses the probe.
sysoff=$(vaddr_to_offset "$(objdump -d "$bin" | awk '/<ins_syscall>:/ { f = 1 } f && /\tsyscall/ { sub(":", "", $1); print $1; exit }')")
echo "p:insn/sys $bin:$sysoff" >> "$TRACING/uprobe_events"
# Stock decodes only when the probe goes into a process, so with none
# running the enable succeeds and the probe is silently never installed.
known_stock_limit "stock decodes the instruction only when a process maps it"
if echo 1 > "$TRACING/events/insn/sys/enable" 2> enable.err; then
	fail "a probe on a syscall instruction is refused"
	echo 0 > "$TRACING/events/insn/sys/enable"
else
	pass "a probe on a syscall instruction is refused ($(sed 's/.*: //' enable.err))"
fi
is "$("$bin" syscall)" "pid ok" "the program still runs its syscall"
