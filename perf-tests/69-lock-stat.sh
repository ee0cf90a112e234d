#!/bin/bash
# Locks a probe hit takes (CONFIG_LOCK_STAT kernels: KCONFIG=debug).  The
# same run of hit_nop is made unprobed and with a trace-enabled uprobe;
# every lock class whose acquisitions grow by at least half a lock per hit
# is taken by the hit path.  RCU, SRCU and seqcount read sides show up in
# lock_stat too (lockdep tracks them) but write nothing shared, so they are
# listed apart.  The probed instruction is a nop: an emulated one that
# touches user memory (push) would add the mmap_lock annotation of
# might_fault(), which lock_stat counts although no lock is taken.  Ours
# must take no lock; stock takes the mm's mmap_lock, the global tree lock
# and the probe's consumer rwsem on each hit.  The classes and counts are
# printed either way.
. /opt/perf-tests/lib/tap.sh
trap clear_probes EXIT

if [ ! -r /proc/lock_stat ]; then
	plan 1
	skip "locks taken per probe hit" "no /proc/lock_stat (CONFIG_LOCK_STAT: make check KCONFIG=debug)"
	exit 0
fi
plan 2
bin=$WL/hits
n=5000

# acquisitions FILE: "CLASS ACQUISITIONS" for every lock class in FILE (a
# copy of /proc/lock_stat).  A class line is "NAME: con-bounces contentions
# 4 wait times acq-bounces acquisitions ..."; -R/-W name the read and
# write sides of a rwsem.
acquisitions() {
	awk '/^ *[^ ].*: +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+/ {
		line = $0
		sub(/^ +/, "", line)
		name = substr(line, 1, match(line, /: +[0-9]+ +[0-9]+ /) - 1)
		gsub(/ /, "_", name)
		split(substr(line, RSTART + 1), f, " +")
		print name, f[9]
	}' "$1"
}

# locks_per_run FILE: the lock_stat of one run of hit_nop ($n calls)
locks_per_run() {
	echo 0 > /proc/lock_stat
	"$bin" nop "$n" > /dev/null
	cat /proc/lock_stat > "$1"
}

locks_per_run unprobed.txt
echo "p:lockstat/hit $bin:$(file_offset "$bin" hit_nop)" > "$TRACING/uprobe_events"
echo 1 > "$TRACING/events/lockstat/hit/enable"
locks_per_run probed.txt
echo 0 > "$TRACING/events/lockstat/hit/enable"
# uprobe_profile: "PATH EVENT HITS", the event without its group
hits=$(awk '$2 == "hit" { print $3 }' "$TRACING/uprobe_profile")
echo > "$TRACING/uprobe_events"
cp unprobed.txt probed.txt "$RESULTS/"
is "$hits" "$n" "uprobe_profile counts the $n hits"

join -a 2 -e 0 -o 0,1.2,2.2 <(acquisitions unprobed.txt | sort) \
	<(acquisitions probed.txt | sort) |
	awk -v n="$n" '{ d = $3 - $2; if (d >= n / 2) printf "%s %.2f\n", $1, d / n }' |
	sort -k2 -rn > all.txt
grep -v -i -E 'rcu|seqcount' all.txt > per-hit.txt || true
cp all.txt per-hit.txt "$RESULTS/"
diag "lock classes per hit (acquisitions per hit):" "$(cat per-hit.txt)" \
	"RCU, SRCU and seqcount read sides per hit:" \
	"$(grep -i -E 'rcu|seqcount' all.txt)"
known_stock_limit "stock takes mmap_lock, uprobes_treelock and the consumer rwsem per hit"
is "$(wc -l < per-hit.txt)" 0 "a probe hit takes no lock"
