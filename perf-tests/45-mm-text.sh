#!/bin/bash
# Probed text pages under the memory-management paths of a distribution
# kernel (issue 34; KCONFIG=mm has them, the other configs skip the
# cases whose features they lack).  Probes on libmmtext.so: mt_a and mt_b,
# 256 KiB apart, and mt_c, whose instruction crosses a page boundary;
# every case runs mmtext processes started while the probes are enabled
# and counts every hit:
#   (a) the file's mtime changes (touch, bytes unchanged) after a process
#       ran mt_a: mt_b, faulted in afterwards, hits every call;
#   (b) another process holds the file open O_RDWR, writing nothing: the
#       same;
#   (c) the file truncated and rewritten with the same bytes: an existing
#       mapping hits every call afterwards (stock loses them for good);
#   (d) MADV_HWPOISON of one process's probed page: the other processes
#       keep running and hitting, the recovery is not "Failed", and a
#       process started afterwards hits every call;
#   (e) MADV_SOFT_OFFLINE of a probed page moves it and keeps its hits;
#   (f) move_pages of a probed page to the other NUMA node moves it and
#       keeps its hits (KCONFIG=mm boots with numa=fake=2);
#   (g) a process under mlockall keeps its probed pages resident when the
#       probes are enabled and when they are disabled (stock: not after
#       disable);
#   (h) enable and disable while 4 threads fault the probed page in before
#       every call: no stray int3, and every hit after;
#   (i) the file truncated and rewritten with the probed instruction
#       changed only in its part on the next page: not probed again;
#   (j) a probe in the last bytes of a page and of the file (a blob of
#       code on tmpfs, mmtext --blob): its page dropped (MADV_DONTNEED)
#       and faulted in again keeps the int3 (only the instruction's own
#       bytes decide, not 16 from the file);
#   (k) a page of the blob registered with a userfaultfd (missing pages)
#       after the probes came, before it ran: it hits every call;
#   (l) the same for minor faults, which a monitor thread resolves with
#       UFFDIO_CONTINUE (the page cache page): every call hits, and the
#       monitor saw no fault (the copy was there before it was armed);
#   (m) a page dropped (MADV_DONTNEED) and faulted in while registered
#       for missing pages comes back without its int3, as on stock; once
#       unregistered, the page is probed again: every call hits.
# The library's bytes are the same at the end.  (d), (e) and (f) need
# memory failure and NUMA: make check runs this test again under
# KCONFIG=mm, which has them (the normal config skips those cases).
. /opt/perf-tests/lib/tap.sh
plan 47
pids=()
cleanup() {
	local fd
	for fd in 3 4 5 6 7 8 9; do eval "exec $fd>&-" 2> /dev/null; done
	[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2> /dev/null
	wait 2> /dev/null
	clear_probes
	umount blobfs 2> /dev/null || true
}
trap cleanup EXIT
# a process that died must not take the script with it (SIGPIPE at ask)
trap "" PIPE

cp "$WL/mmtext" "$WL/libmmtext.so" .
cp libmmtext.so lib.orig
lib=$PWD/libmmtext.so
sum=$(sha256sum < lib.orig)
offa=$(file_offset "$lib" mt_a)
offb=$(file_offset "$lib" mt_b)
offc=$(file_offset "$lib" mt_c)
check "add p:mmt/a, p:mmt/b and p:mmt/c, enable them" sh -c \
	"printf 'p:mmt/a %s:%s\np:mmt/b %s:%s\np:mmt/c %s:%s\n' $lib $offa $lib $offb $lib $offc >> $TRACING/uprobe_events &&
	 echo 1 > $TRACING/events/mmt/enable"

# hits EVENT: uprobe_profile's count of mmt/EVENT
hits() { awk -v e="$1" '$2 == e { print $3 }' "$TRACING/uprobe_profile"; }

# start NAME FD: an mmtext process fed through FIFO NAME.in on descriptor FD
declare -A fd_of lines_of pid_of
start() {
	rm -f "$1.in"
	mkfifo "$1.in"
	./mmtext < "$1.in" > "$1.out" 2> "$1.err" &
	pid_of[$1]=$!
	pids+=($!)
	eval "exec $2> $1.in"
	fd_of[$1]=$2
	lines_of[$1]=0
}
# ask NAME CMD: process NAME's answer line to CMD in $answer ("dead" if
# none); not in a subshell, which would lose the count of its lines
answer=
ask() {
	local n=$1
	answer=dead
	{ echo "$2" >&"${fd_of[$n]}"; } 2> /dev/null || return 0
	lines_of[$n]=$((lines_of[$n] + 1))
	wait_for _answered "$n" || return 0
	answer=$(sed -n "${lines_of[$n]}p" "$n.out")
	[ -n "$answer" ] || answer=dead
}
# _answered NAME: NAME printed its latest answer, or is gone (no 60 s wait)
_answered() {
	[ "$(wc -l < "$1.out")" -ge "${lines_of[$1]}" ] || ! kill -0 "${pid_of[$1]}"
}
# gained EVENT CMD NAME: run CMD in NAME; $answer becomes "ANSWER, +HITS"
gained() {
	local before
	before=$(hits "$1")
	ask "$3" "$2"
	answer="$answer, +$(($(hits "$1") - before))"
}
# finish NAME: $answer becomes its exit status after q
finish() {
	local st=0
	{ echo q >&"${fd_of[$1]}"; } 2> /dev/null
	eval "exec ${fd_of[$1]}>&-"
	wait "${pid_of[$1]}" || st=$?
	answer=$st
}

# (a) mtime
start ta 3
gained a "a 10" ta
is "$answer" "a 10 bad=0, +10" "(a) a process started while probed hits mt_a"
# stock puts the int3 in at mmap, so the page is there; we put it in at the
# page's first fault, which (a) is about
ask ta "present b"
diag "(a) mt_b's page before the touch: $answer"
touch "$lib"
gained b "b 1000" ta
is "$answer" "b 1000 bad=0, +1000" "(a) touched: mt_b, faulted in now, hits every call"
finish ta
is "$answer" 0 "(a) the process exits 0"

# (b) open for writing
start tb 3
gained a "a 10" tb
is "$answer" "a 10 bad=0, +10" "(b) a new process hits mt_a"
exec 9<> "$lib"
gained b "b 1000" tb
is "$answer" "b 1000 bad=0, +1000" "(b) the file open O_RDWR elsewhere: mt_b hits every call"
exec 9>&-
finish tb
is "$answer" 0 "(b) the process exits 0"

# (c) truncate and rewrite with the same bytes
start tc 3
gained b "b 100" tc
is "$answer" "b 100 bad=0, +100" "(c) a new process hits mt_b"
cat lib.orig > "$lib"
known_stock_limit "stock's truncate drops the private copy and never puts the int3 back"
gained b "b 100" tc
is "$answer" "b 100 bad=0, +100" "(c) truncated and rewritten alike: mt_b hits every call at once"
# its exit status is not asserted: the truncate also dropped its copies of
# the library's relocated data, which the rewrite does not bring back
finish tc
diag "(c) the process exited $answer"

# (d) memory failure of one process's probed page
if [ ! -w /proc/sys/vm/memory_failure_recovery ]; then
	for _ in 1 2 3 4 5; do skip "(d) memory failure" "no CONFIG_MEMORY_FAILURE"; done
else
	start victim 3
	start other 4
	ask victim "a 1"
	ask other "a 1"
	dmesg -c > /dev/null
	ask victim "poison a"
	is "$answer" "poison 0" "(d) MADV_HWPOISON of the victim's probed page"
	gained a "a 1000" other
	is "$answer" "a 1000 bad=0, +1000" "(d) another process that maps the page runs on and hits every call"
	finish other
	is "$answer" 0 "(d) ... and exits 0"
	ask victim "a 1"
	v=$answer
	finish victim
	diag "victim after the poison: $v (exit $answer)"
	dmesg | grep -i "recovery action" | while read -r l; do diag "$l"; done
	is "$(dmesg | grep -ci 'recovery action.*failed')" 0 "(d) no recovery action failed"
	start late 3
	gained a "a 1000" late
	is "$answer" "a 1000 bad=0, +1000" "(d) a process started afterwards hits every call"
	finish late
fi

# (e) soft offline
if [ ! -w /proc/sys/vm/memory_failure_recovery ]; then
	for _ in 1 2 3; do skip "(e) soft offline" "no CONFIG_MEMORY_FAILURE"; done
else
	start soft 3
	ask soft "a 1"
	ask soft "pfn a"
	pfn0=$answer
	ask soft "soft a"
	is "$answer" "soft 0" "(e) MADV_SOFT_OFFLINE of a probed page"
	ask soft "pfn a"
	pfn1=$answer
	is "$([ "$pfn1" != "$pfn0" ] && [ "$pfn1" != "pfn -" ] && echo moved)" moved "(e) the page moved ($pfn0 -> $pfn1)"
	gained a "a 1000" soft
	is "$answer" "a 1000 bad=0, +1000" "(e) ... and hits every call"
	finish soft
fi

# (f) NUMA migration
if [ ! -d /sys/devices/system/node/node1 ]; then
	for _ in 1 2 3; do skip "(f) move_pages" "one NUMA node"; done
else
	start numa 3
	ask numa "a 1"
	ask numa "node a"
	n0=${answer#node }
	to=$((1 - n0))
	ask numa "move a $to"
	is "$answer" "move $to" "(f) move_pages of a probed page from node $n0 to $to"
	ask numa "node a"
	is "$answer" "node $to" "(f) ... it is there"
	gained a "a 1000" numa
	is "$answer" "a 1000 bad=0, +1000" "(f) ... and hits every call"
	finish numa
fi

# (g) mlockall
echo 0 > "$TRACING/events/mmt/enable"
start locked 3
ask locked "a 1"
ask locked "b 1"
ask locked mlock
is "$answer" "mlock 0" "(g) mlockall(MCL_CURRENT | MCL_FUTURE)"
echo 1 > "$TRACING/events/mmt/enable"
ask locked "present a"
both=$answer
ask locked "present b"
is "$both $answer" "present 1 present 1" "(g) enabled: both probed pages stay resident"
gained b "b 100" locked
is "$answer" "b 100 bad=0, +100" "(g) ... and mt_b hits every call"
echo 0 > "$TRACING/events/mmt/enable"
known_stock_limit "stock unmaps a locked process's page at disable"
ask locked "present a"
both=$answer
ask locked "present b"
is "$both $answer" "present 1 present 1" "(g) disabled: both stay resident"
finish locked
is "$answer" 0 "(g) the process exits 0"

# (h) enable and disable while threads fault the probed page in again and
# again: no int3 is left without its probe (SIGTRAP), none is lost after
start storm 3
( for _ in $(seq 40); do
	echo 0 > "$TRACING/events/mmt/b/enable"
	echo 1 > "$TRACING/events/mmt/b/enable"
done ) &
toggler=$!
ask storm "storm 1500"
wait "$toggler"
is "$answer" "storm 1500 bad=0" "(h) 4 threads fault mt_b's page in before each call while mmt/b is enabled and disabled 40 times"
known_stock_limit "stock loses the int3s of a probed page that MADV_DONTNEED zaps"
gained b "b 1000" storm
is "$answer" "b 1000 bad=0, +1000" "(h) ... then mt_b hits every call"
finish storm
is "$answer" 0 "(h) the process exits 0"

# (i) truncated and rewritten with mt_c's instruction changed only in its
# part on the next page: the file no longer holds what the probe decoded,
# so the page faulted in again is not probed (a hit would run the old
# instruction), as stock never probes it again either
echo 1 > "$TRACING/events/mmt/c/enable"	# (g) disabled it
start ti 3
gained c "c 10" ti
is "$answer" "c 10 add=305419896, +10" "(i) a new process hits mt_c, whose lea crosses a page boundary"
cp lib.orig lib.new
printf '\0\0\0' | dd of=lib.new bs=1 seek=$((offc + 3)) conv=notrunc 2> /dev/null
cat lib.new > "$lib"
gained c "c 10" ti
is "$answer" "c 10 add=120, +0" "(i) rewritten as lea 0x78 (the displacement's upper bytes, on the next page, zeroed): the new code runs, unprobed"
finish ti
diag "(i) the process exited $answer"
cat lib.orig > "$lib"

is "$(sha256sum < "$lib")" "$sum" "the library's bytes are unchanged"

# (j) to (m): a blob of code on tmpfs (shmem: userfaultfd takes its
# mappings), y at its start, x in its last 4 bytes, at the end of its
# second page
mkdir -p blobfs
mount -t tmpfs tmpfs blobfs
blob=$PWD/blobfs/blob
./mmtext --blob "$blob"
printf 'p:mmt/x %s:0x1ff8\np:mmt/y %s:0x0\n' "$blob" "$blob" >> "$TRACING/uprobe_events"
echo 1 > "$TRACING/events/mmt/x/enable"
echo 1 > "$TRACING/events/mmt/y/enable"
start tj 3
ask tj "blob $blob"
is "$answer" "blob 0" "(j) a process maps the blob, x at its end (0x1ffc bytes)"
gained x "x 100" tj
is "$answer" "x 100 bad=0, +100" "(j) x, 4 bytes before the end of the file, hits every call"
ask tj "dontneed x"
is "$answer" "dontneed 0" "(j) MADV_DONTNEED of x's page"
known_stock_limit "stock loses the int3s of a probed page that MADV_DONTNEED zaps"
gained x "x 100" tj
is "$answer" "x 100 bad=0, +100" "(j) ... faulted in again: x hits every call"
finish tj
is "$answer" 0 "(j) the process exits 0"

start tk 3
ask tk "blob $blob"
ask tk "uffd y"
is "$answer" "uffd 0" "(k) y's page registered with a userfaultfd before it ran"
gained y "y 100" tk
is "$answer" "y 100 bad=0, +100" "(k) ... y hits every call"
finish tk
is "$answer" 0 "(k) the process exits 0"

start tl 3
ask tl "blob $blob"
ask tl "uffdminor y"
is "$answer" "uffdminor 0" "(l) y's page registered for minor faults before it ran"
gained y "y 100" tl
is "$answer" "y 100 bad=0, +100" "(l) ... y hits every call"
ask tl uffdfaults
is "$answer" "uffdfaults 0" "(l) ... and the monitor resolved no fault: the copy was there"
finish tl
is "$answer" 0 "(l) the process exits 0"

start tm 3
ask tm "blob $blob"
ask tm "uffd y"
is "$answer" "uffd 0" "(m) y's page registered for missing pages"
ask tm "dontneed y"
gained y "y 10" tm
diag "(m) dropped and faulted in while registered: $answer (no int3 there, as on stock)"
ask tm unuffd
is "$answer" "unuffd 0" "(m) ... unregistered"
known_stock_limit "stock leaves the page mapped while registered without its int3"
gained y "y 100" tm
is "$answer" "y 100 bad=0, +100" "(m) ... then y hits every call"
finish tm
is "$answer" 0 "(m) the process exits 0"
