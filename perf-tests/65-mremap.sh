#!/bin/bash
# Probed library text that moves and goes away.  remap dlopens libremap.so
# and calls the probed rl_target K times (phase 1), mremaps the r-x mapping
# to another address and calls it there K times (phase 2), munmaps it, maps
# the same file range again and calls it K times (phase 3).
#
# Right answer: K hits in every phase.  A breakpoint lives in the process's
# private copy of the text page; mremap moves the vma with its pages and its
# file offset, so the moved text keeps the breakpoint and a hit there still
# resolves to the probe (file, offset).  A fresh mapping of the file range
# gets the breakpoint at mmap time.  The argument (%di) tells the phases
# apart: 1000000 + i, 2000000 + i, 3000000 + i.
. /opt/perf-tests/lib/tap.sh
plan 12
trap clear_probes EXIT

bin=$WL/remap
lib=$WL/libremap.so
k=500
sum_before=$(sha256sum < "$lib")

ref=$("$bin" $k "$lib")
is "$(printf '%s\n' "$ref" | grep -c " calls=$k bad=0 ")" 3 "unprobed run: three correct phases"
off=$(file_offset "$lib" rl_target)
check "add p:remap/rl_target at $off" \
	sh -c "echo 'p:remap/rl_target $lib:$off x=%di:s64' >> $TRACING/uprobe_events"
echo > "$TRACING/trace"
echo 1 > "$TRACING/events/remap/rl_target/enable"
out=$("$bin" $k "$lib")
rc=$?
echo 0 > "$TRACING/events/remap/rl_target/enable"
cp "$TRACING/trace" "$RESULTS/trace"
is "$rc" 0 "the probed program exits 0 (no crash)"
is "$out" "$ref" "the probed program prints what the unprobed one does (results right)"

# phase_hits P: trace records of rl_target with x in [P000000, P000000 + k).
phase_hits() {
	sed -n 's/.* rl_target: .* x=\([0-9-]*\).*/\1/p' "$TRACING/trace" |
		awk -v lo=$(($1 * 1000000)) -v k=$k '$1 >= lo && $1 < lo + k { n++ } END { print n + 0 }'
}
is "$(phase_hits 1)" $k "phase 1 (dlopen'd text): $k hits"
is "$(phase_hits 2)" $k "phase 2 (text mremap'd to a new address): $k hits"
is "$(phase_hits 3)" $k "phase 3 (munmap'd, mapped again): $k hits"
is "$(grep -c ' rl_target: ' "$TRACING/trace")" $((3 * k)) "no other hits: $((3 * k)) in all"
# Each phase's hits carry every argument once, in order.
is "$(sed -n 's/.* rl_target: .* x=\([0-9-]*\).*/\1/p' "$TRACING/trace" | md5sum)" \
	"$(for p in 1 2 3; do seq $((p * 1000000)) $((p * 1000000 + k - 1)); done | md5sum)" \
	"the hits' arguments are the calls' arguments, in order"

check "remove the probe" sh -c "echo '-:remap/rl_target' >> $TRACING/uprobe_events"
is "$("$bin" $k "$lib")" "$ref" "after removal the program runs unprobed, correctly"
is "$(sha256sum < "$lib")" "$sum_before" "the library's checksum is unchanged"
