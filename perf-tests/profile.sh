#!/bin/bash
# `make bench-profile`, guest side: windows of probed calls for the host's
# QEMU plugin (qemu/insn-profile.so), which snapshots its per-block
# instruction counts whenever the kernel runs ksys_sync().  Each window is
# one sync before and one after PROFILE_CALLS calls of a `hits` class; its
# name and call count go to /results/profile/windows, in order.  Nothing
# else here may call sync(2).
set -eu
export PATH=/usr/bin:/usr/sbin
T=/sys/kernel/tracing
hits=/opt/workloads/hits
n=${PROFILE_CALLS:-20000}
out=/results/profile
mkdir -p "$out"
: > "$out/windows"

off() {
	readelf -Ws "$hits" | awk -v s="hit_$1" '$8 == s { print "0x" $2; exit }'
}

# window NAME CLASS [PROBE-TYPE]: calls of hit_CLASS, probed with a trace
# event of PROBE-TYPE (p or r), or unprobed without one.
window() {
	local name=$1 class=$2 type=${3:-}
	if [ -n "$type" ]; then
		echo "$type:profile/hit $hits:$(off "$class")" > "$T/uprobe_events"
		echo 1 > "$T/events/profile/hit/enable"
	fi
	"$hits" "$class" 100 1 > /dev/null	# first hit: XOL area, caches
	sync
	"$hits" "$class" "$n" 1 > /dev/null
	sync
	echo "$name $n" >> "$out/windows"
	if [ -n "$type" ]; then
		echo 0 > "$T/events/profile/hit/enable"
		echo > "$T/uprobe_events"
		echo > "$T/trace"
	fi
}

window unprobed-nop nop
for class in $("$hits" --list); do
	window "$class" "$class" p
done
window uretprobe nop r
echo "profile: $(wc -l < "$out/windows") windows of $n calls"
