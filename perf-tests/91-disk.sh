#!/bin/bash
# Probed programs on a real disk: the workloads on an ext4 virtio disk
# (run.sh --data), whose page cache drop_caches really empties.  A probe
# pins no page of its file: after drop_caches none of the program or the
# library is cached, and the next run reads them from the disk again and
# hits every probe.  A process running across the eviction keeps its
# probe.  The probes hold the mount while they exist; once they are gone
# it unmounts, and the host then checks the file system and every file's
# bytes (run.sh's "data disk" verdicts).
. /opt/perf-tests/lib/tap.sh
plan 20
mnt=/mnt/data
cleanup() {
	[ -z "${early:-}" ] || { touch go; wait "$early"; }
	clear_probes
	umount "$mnt" 2> /dev/null
}
trap cleanup EXIT

dev=
for d in /sys/block/vd*; do
	[ "$(cat "$d/serial" 2> /dev/null)" = pudata ] && dev=/dev/${d##*/}
done
check "the data disk is attached (virtio serial pudata)" test -n "$dev"
mkdir -p "$mnt"
check "mount it read-write as ext4" mount -t ext4 "$dev" "$mnt"
bin=$mnt/lifecycle
lib=$mnt/libmg.so
sum_bin=$(sha256sum < "$bin")
sum_lib=$(sha256sum < "$lib")

# cached FILE: how many of FILE's pages are in the page cache
cached() { fincore --noheadings --raw --output PAGES "$1"; }
evict() { sync && echo 3 > /proc/sys/vm/drop_caches; }

check "perf probe on the disk's program (lifecycle:lc_target)" perf probe -q -x "$bin" lc_target
check "perf probe on the disk's library (libmg.so:lib_leaf)" perf probe -q -x "$lib" lib_leaf
evict
is "$(cached "$bin")" 0 "probed: drop_caches leaves no page of the program cached"
is "$(cached "$lib")" 0 "probed: drop_caches leaves no page of the library cached"
is "$(stat_count probe_lifecycle:lc_target "$bin" call 500)" 500 "the program read again from the disk: 500 hits"
is "$(stat_count probe_libmg:lib_leaf "$mnt/malloc-graph")" 60 "the library read again from the disk: 60 hits"
check "the page cache holds the program again" test "$(cached "$bin")" -gt 0
evict
is "$(cached "$bin")" 0 "after hits: drop_caches leaves no page of the program cached"
is "$(stat_count probe_lifecycle:lc_target "$bin" call 500)" 500 "and the next run reads it again: 500 hits"

# A process that maps the program before the eviction and calls after it.
rm -f go go.ready.*
"$bin" wait go 300 > early.out &
early=$!
wait_for test -e "go.ready.$early"
ev=$TRACING/events/probe_lifecycle/lc_target
echo > "$TRACING/trace"
echo 1 > "$ev/enable"
evict
touch go
wait "$early"
early=
echo 0 > "$ev/enable"
is "$(cat early.out)" "calls=300" "a process running across drop_caches runs correctly"
is "$(grep -c 'lc_target:' "$TRACING/trace")" 300 "and hits its probe 300 times"

is "$(sha256sum < "$bin")" "$sum_bin" "the program reads unchanged"
is "$(sha256sum < "$lib")" "$sum_lib" "the library reads unchanged"
evict
is "$(sha256sum < "$bin")" "$sum_bin" "the program reads unchanged from the disk"
is "$(sha256sum < "$lib")" "$sum_lib" "the library reads unchanged from the disk"

# The probe events hold the files' paths, so the mount, as on stock.
if out=$(umount "$mnt" 2>&1); then
	fail "umount while the probes exist is refused" "it unmounted"
else
	pass "umount while the probes exist is refused ($out)"
fi
check "perf probe -d both" perf probe -q -d 'probe_lifecycle:*' -d 'probe_libmg:*'
check "umount once the probes are gone: nothing holds the files" umount "$mnt"
