#!/bin/bash
# A fixed script of uprobe_events commands whose every output is compared
# with a golden copy made on the stock kernel (perf-tests/golden/73-compare/):
# uprobe_events, dynamic_events, uprobe_profile (one thread, exact), the
# format files, the trace of a workload run with known arguments, and each
# command's status and error_log text.  Normalized: the probe offsets (in the
# workload binary, they change with its build) become <lc_target> etc.; in
# the trace, pids, CPUs, timestamps and the user addresses (PIE, ASLR) are
# masked, and the need-resched flag (scheduling, it varies); in error_log, the timestamp; in format files, the event ID (a
# counter over the kernel's registered event types).  Nothing else.
. /opt/perf-tests/lib/tap.sh
plan 18
trap clear_probes EXIT
cd "$TRACING" || exit 1

bin=$WL/lifecycle
target=$(file_offset "$bin" lc_target)
name=$(file_offset "$bin" lc_name)
golden=/opt/perf-tests/golden/73-compare
out=$RESULTS/compare
rm -rf "$out"
mkdir -p "$out"
# The file offset of the string "lifecycle-call" (in .rodata), for @+OFFS.
str=$(grep -obUa 'lifecycle-call' "$bin" | head -n 1 | cut -d: -f1)
str=$(printf '0x%x' "$str")

main=$(file_offset "$bin" main)
long() { printf '0x%016x' "$1"; }
# The listings print offsets as 0x%016lx, the default names as 0x%lx.
norm_offsets() {
	sed -e "s/$(long "$target")\\b/<lc_target>/g" -e "s/$(long "$name")\\b/<lc_name>/g" \
		-e "s/$(long "$main")\\b/<main>/g" -e "s/$target\\b/<lc_target>/g" \
		-e "s/$name\\b/<lc_name>/g" -e "s/$main\\b/<main>/g" -e "s/$str\\b/<str>/g"
}

# run CMD: write CMD to uprobe_events; log its status and error_log text.
run() {
	local err
	echo > error_log
	err=$( (printf '%s\n' "$1" >> uprobe_events) 2>&1)
	err=${err##*: }
	{
		printf '$ %s\n' "$1"
		printf '=> %s\n' "${err:-ok}"
		sed 's/^\[ *[0-9.]*\] //' error_log
	} | norm_offsets >> "$out/commands.txt"
}

: > "$out/commands.txt"
# Valid definitions.
run "p:pu/lc_entry $bin:$target arg=%di:s64 ax=%ax:x64 comm=\$comm"
run "r:pu/lc_exit $bin:$target ret=\$retval:s64 comm=\$comm:string"
run "p:pu/lc_name $bin:$name name=+0(%di):string uname=+0(%di):ustring len=+0(%di):u8[4]"
run "p:pu/lc_str $bin:$name s=@+$str:string b=@+$str:x8 bits=+0(%di):b4@4/8"
run "p $bin:$target"
run "r $bin:$name"
run "p:pu/lc_ret $bin:$target%return r=\$retval:x32"
# A reference counter on an offset probed already without one: stock says
# -EINVAL and logs nothing (pr_info "Reference counter offset mismatch").
run "p:pu/lc_ref $bin:$target(0x10) a=%si:u16"
# On an offset of its own (never enabled: 0x10 is no counter).
run "p:pu/lc_ref2 $bin:$main(0x10) a=%si:u16"
run "p:pu/multi $bin:$target b=\$comm"
run "p:pu/multi $bin:$name b=\$comm"
run "p:pu/tmp $bin:$target"
run "-:pu/tmp"
# Errors.
run "p:pu/multi $bin:$name b=\$comm"
run "p:pu/multi $bin:$name a=%si:u32"
run "r:pu/multi $bin:$name b=\$comm"
run "p:pu/lc_entry $bin:$name"
run "p:pu/e1 /non/exist:0x10"
run "p:pu/e2 $WL:0x10"
run "p:pu/e3 $bin:0x10zz"
run "p:pu/e4 $bin:$target(0x10"
run "p:pu/e5 $bin:$target(0x10)x"
run "p:pu/e6 $bin:$target(zz)"
run "p:pu/e7 $bin:$target%ret"
run "p:pu/e8 $bin:$target %zz"
run "p:pu/e9 $bin:$target a=%di:u128"
run "r:pu/e10 $bin:$target \$stack"
run "p:pu/e11 $bin:$target \$retval"
run "p:pu/e12 $bin:$target a=%di a=%si"
run "p:pu/e13 $bin:$target +0(%di:string"
run "p:pu/e14 $bin:$target a=%di:b9@0/8"
run "p:pu/$(printf 'n%.0s' {1..64}) $bin:$target"
run "p:1pu/e15 $bin:$target"
run "p:pu/e-16 $bin:$target"
run "p:pu/ $bin:$target"
run "p:pu/e17 $bin:$target @symbol"
run "p:pu/e18 $bin:$target a=\$comm:u8"
run "x:pu/e19 $bin:$target"
run "-:pu/nonexistent"
run "-:"

norm_offsets < uprobe_events > "$out/uprobe_events.txt"
norm_offsets < dynamic_events > "$out/dynamic_events.txt"
for ev in lc_entry lc_exit lc_name lc_str lc_ret lc_ref lc_ref2 multi e10 "p_lifecycle_$target" "p_lifecycle_$name"; do
	f=events/pu/$ev/format
	[ "${ev#p_}" = "$ev" ] || f=events/uprobes/$ev/format
	{ cat "$f" 2>&1 || echo "(no $f)"; } | sed 's/^ID: [0-9]*$/ID: <id>/' | norm_offsets \
		> "$out/format.$(echo "$ev" | norm_offsets | tr -d '<>')"
done

echo > trace
# (not pu/e10: its $stack is a stack address)
enabled=(pu/lc_entry pu/lc_exit pu/lc_name pu/lc_str pu/lc_ret pu/multi
	"pu/p_lifecycle_$target" "uprobes/p_lifecycle_$target" "uprobes/p_lifecycle_$name")
for ev in "${enabled[@]}"; do echo 1 > "events/$ev/enable"; done
call_out=$("$bin" call 5)
for ev in "${enabled[@]}"; do echo 0 > "events/$ev/enable"; done
is "$call_out" "calls=5" "the workload ran"
norm_offsets < uprobe_profile > "$out/uprobe_profile.txt"
# Trace lines: "  COMM-PID  [CPU] FLAGS  TIMESTAMP: EVENT: (ADDR) ARGS" with a
# return probe's "(RET <- FUNC)".  Of FLAGS, need-resched varies by timing
# and the preempt depth by kernel config (PREEMPT_COUNT in KCONFIG=debug).
grep -v '^#' trace | sed -E \
	-e 's/^ *([^ ]+)-[0-9]+ +\[[0-9]+\] ([^ ]+) +[0-9]+\.[0-9]+: /\1-<pid> [<cpu>] \2 <ts>: /' \
	-e 's/ \[<cpu>\] (.).(.).(.)/ [<cpu>] \1?\2?\3/' \
	-e 's/\(0x[0-9a-f]+ <- 0x[0-9a-f]+\)/(<addr> <- <addr>)/' \
	-e 's/\(0x[0-9a-f]+\)/(<addr>)/' | norm_offsets > "$out/trace.txt"
cp trace "$RESULTS/trace.raw"

check "the golden copy is there" test -d "$golden"
for f in "$out"/*; do
	base=$(basename "$f")
	if [ ! -f "$golden/$base" ]; then
		fail "compare: $base" "no golden copy $golden/$base"
	elif d=$(diff -u "$golden/$base" "$f"); then
		pass "compare: $base"
	else
		fail "compare: $base" "$(printf '%s\n' "$d" | head -n 40)"
	fi
done
for f in "$golden"/*; do
	[ -e "$f" ] || continue
	[ -e "$out/$(basename "$f")" ] || fail "compare: $(basename "$f")" "not produced on this kernel"
done
