#!/bin/bash
# Shared breakpointed text pages (issue 18).  A probe with no per-process
# filter (a trace event enabled in tracefs) needs the same int3s in every
# process, so every process maps ONE shared copy of each probed page: a
# page cache page of a hidden "shadow" file, which pagemap shows as a file
# page whose PFN is not the probed file's page cache page (text_kind
# "shared", lib/tap.sh).  Memory then grows with probed pages, not with
# probed pages x processes (make bench-scale), and nothing is copied per
# process.  A process with a filtered probe (perf -p) still gets its own
# anonymous copy, which holds the shared int3s too.
#   (a) 200 probes (mp_0, mp_5 .. mp_995 of sharedtext, every page of its
#       1000 functions) enabled as a group; 20 processes started then (so
#       exec'd while enabled) and one started before run the probed code:
#       every probed page of each is "shared", one PFN per page in all 21,
#       no Anonymous kB in their text mappings, the hit counts exact;
#   (b) the file reads its original bytes (sha256, read(), a MAP_SHARED
#       mapping, whose pages stay the page cache's);
#   (g) perf record -p on another probe of a probed page: that process
#       alone gets an anonymous copy, counts are exact, and once perf is
#       gone it maps the shared copy again;
#   (d) a child forked after enable maps the shared pages and counts
#       exactly; so does a process exec'd later;
#   (e) munmap and mmap of the probed text again: hits exact, shared pages;
#   (f) MADV_DONTNEED of the probed text: the shared pages come back at the
#       next fault, so the probes keep hitting (stock and per-process copies
#       lose the int3s: the copy is zapped and the page cache page refaults);
#   (h) the file touched (mtime): the copy is made again, and every probe
#       keeps hitting;
#   (c) disabled, then deleted: every process maps the page cache again, no
#       hit counts, and the shadow pages (Unevictable in /proc/meminfo while
#       they exist) are freed.
. /opt/perf-tests/lib/tap.sh
plan 34
recorder=
release() {
	# open and close the hold FIFO until no holder is left (a holder that
	# was not in open() yet at one round is released at the next)
	local end=$((SECONDS + 60)) pid alive
	while [ "$SECONDS" -lt "$end" ]; do
		alive=
		for pid in "$@"; do
			kill -0 "$pid" 2> /dev/null && alive=1
		done
		[ -n "$alive" ] || return 0
		timeout 2 sh -c ': > hold' 2> /dev/null
	done
}
cleanup() {
	[ -z "$recorder" ] || kill -INT "$recorder" 2> /dev/null
	exec 3>&- 2> /dev/null
	local left
	mapfile -t left < <(jobs -p)
	release "${left[@]}"
	wait 2> /dev/null
	clear_probes
}
trap cleanup EXIT

bin=$WL/sharedtext
nprocs=20
rounds=2
sum_before=$(sha256sum < "$bin")
ref=$("$bin" run $rounds)
ref1=$("$bin" run 1)

func_offsets "$bin" '^mp_[0-9]+$' |
	awk -v bin="$bin" '{ n = substr($1, 4) + 0 } n % 5 == 0 { printf "p:st/%s %s:%s\n", $1, bin, $2 }' > probes
# the probed pages: file offsets (decimal) of the pages the probes are on
mapfile -t page_offs < <(awk -F: '{ printf "%d\n", int(strtonum($NF) / 4096) * 4096 }' probes | sort -nu)
npages=${#page_offs[@]}
first=$(($(file_offset "$bin" mp_0)))
span=$(($(file_offset "$bin" mp_995) + 16 - first))
is "$(wc -l < probes)" 200 "200 probes: mp_0, mp_5 .. mp_995, on $npages pages (${page_offs[*]})"
orig_hex=$(od -An -v -tx1 -j "$first" -N "$span" "$bin" | tr -d ' \n')
cache_pfns=$(for off in "${page_offs[@]}"; do "$WL/pfnof" "$bin" "$off"; done)
check "add the 200 probes in one write" sh -c "cat probes >> $TRACING/uprobe_events"

# pages PID: one line per probed page, "OFFSET KIND PFN" (text_kind; PFN
# "-" when not present)
pages() {
	local off addr pfn
	for off in "${page_offs[@]}"; do
		addr=$(mapped_addr "$1" "$bin" "$off")
		if [ -z "$addr" ]; then
			echo "$off unmapped -"
			continue
		fi
		pfn=$(page_pfn "$1" "$addr")
		echo "$off $(text_kind "$1" "$addr" "$bin" "$off") ${pfn:--}"
	done
}
# kinds PID: the kinds of PID's probed pages, in order, on one line
kinds() { pages "$1" | awk '{ printf "%s%s", (NR > 1 ? " " : ""), $2 } END { print "" }'; }
# all KIND: $npages times KIND, as kinds prints it
all() { local i out=; for ((i = 0; i < npages; i++)); do out="$out${out:+ }$1"; done; echo "$out"; }
# on_common PID: "S shared, C common": how many of PID's probed pages are
# shared, and how many map the PFN that the first process of (a) maps there
on_common() {
	pages "$1" > "pages.$1"
	awk 'NR == FNR { ref[$1] = $3; next } $2 == "shared" { s++ } $3 == ref[$1] { c++ }
	     END { printf "%d shared, %d common\n", s, c }' common "pages.$1"
}
# snap FILE: the hits of every st probe (uprobe_profile "FILE EVENT HITS")
snap() { awk '$2 ~ /^mp_[0-9]+$/ { print $2, $3 }' "$TRACING/uprobe_profile" | sort > "$1"; }
# gained BEFORE N: how many of the 200 probes gained exactly N hits since
# the snapshot BEFORE
gained() {
	snap hits.now
	join "$1" hits.now | awk -v n="$2" '$3 - $2 == n { k++ } END { print k + 0 }'
}
# text_anon_kb PID: the Anonymous kB of PID's executable mappings of $bin
text_anon_kb() {
	awk -v f="$bin" '/^[0-9a-f]+-[0-9a-f]+ / { on = ($6 == f && $2 ~ /x/) }
		on && $1 == "Anonymous:" { kb += $2 } END { print kb + 0 }' "/proc/$1/smaps"
}
unevictable() {
	echo 1 > /proc/sys/vm/stat_refresh 2> /dev/null	# fold the per-CPU counts
	awk '$1 == "Unevictable:" { print $2 }' /proc/meminfo
}

# A process started before the probes, driven line by line (sharedtext
# cmd): ask CMD [N] sends CMD and leaves its N (1) answer lines in $answer.
rm -f cmds hold hold.ready.*
mkfifo cmds hold
"$bin" cmd < cmds > early.out 2> early.err &
early=$!
exec 3> cmds
lines=0
ask() {
	local n=${2:-1}
	echo "$1" >&3
	lines=$((lines + n))
	wait_lines early.out "$lines"
	answer=$(sed -n "$((lines - n + 1)),${lines}p" early.out)
}
ask "r 1"
is "$(kinds $early)" "$(all file)" "before enabling, a process that ran the code maps the page cache pages"

uv_before=$(unevictable)
check "enable the group in one write" sh -c "echo 1 > $TRACING/events/st/enable"

# (a) 20 processes exec'd now run the probed code, then hold; and the early one
snap hits.a
holders=()
for i in $(seq $nprocs); do
	"$bin" hold $rounds hold > "out.$i" 2>&1 &
	holders+=($!)
done
wait_files 'hold.ready.*' $nprocs
ask "r $rounds"
early_run=$answer
for pid in "${holders[@]}" "$early"; do
	pages "$pid" > "pages.$pid"
done
cp "pages.${holders[0]}" common
known_stock_limit "stock gives every process its own copy of a probed page"
is "$(cat pages.* | awk '$2 == "shared" { n++ } END { print n + 0 }')" $(((nprocs + 1) * npages)) \
	"every probed page of the 21 processes is the shared copy (text_kind shared)"
awk '$2 != "shared" { print FILENAME ": " $0 }' pages.* | head -n 5 | while read -r line; do diag "$line"; done
known_stock_limit "stock gives every process its own copy of a probed page"
is "$(cat pages.* | awk '$3 != "-" { print $1, $3 }' | sort -u | wc -l) PFNs, $(cat pages.* | awk '$3 != "-"' | wc -l) present" \
	"$npages PFNs, $(((nprocs + 1) * npages)) present" "one PFN per probed page, the same in all 21 processes"
for pid in "${holders[@]}" "$early"; do
	kb=$(text_anon_kb "$pid")
	[ "$kb" = 0 ] || echo "pid $pid: $kb kB"
done > anon.kb
known_stock_limit "stock gives every process its own copy of a probed page"
is "$(wc -l < anon.kb)" 0 "smaps: no Anonymous kB in the text mapping of any of the 21"
[ -s anon.kb ] && diag "$(head -n 3 anon.kb)"
known_stock_race "stock's uprobe_profile counter loses concurrent hits"
is "$(gained hits.a $(((nprocs + 1) * rounds)))" 200 \
	"uprobe_profile: each probe hit $((nprocs + 1)) x $rounds times"
uv_on=$(unevictable)

# (b) the file and its page cache are only read
is "$(sha256sum < "$bin")" "$sum_before" "probed: the file's sha256 is unchanged"
is "$("$WL/pfnof" "$bin" "$first" "$span" | sed -n 2p) $(for off in "${page_offs[@]}"; do "$WL/pfnof" "$bin" "$off"; done | tr '\n' ' ')" \
	"$orig_hex $(printf '%s\n' "$cache_pfns" | tr '\n' ' ')" \
	"probed: a MAP_SHARED mapping reads the original bytes, from the same page cache pages"
is "$(od -An -v -tx1 -j "$first" -N "$span" "$bin" | tr -d ' \n')" "$orig_hex" \
	"probed: read() of the file gives the original bytes at every probed offset"

# (g) a filtered probe: perf record -p on another function of a probed page
foff=$(file_offset "$bin" mp_501)
fpage=$((foff / 4096 * 4096))
check "add p:stf/fmp_501 (not enabled in tracefs)" \
	sh -c "echo 'p:stf/fmp_501 $bin:$foff' >> $TRACING/uprobe_events"
# shared_on_fpage: how many of the 20 holders map the shared copy at fpage
shared_on_fpage() {
	local pid n=0
	for pid in "${holders[@]}"; do
		[ "$(text_kind "$pid" "$(mapped_addr "$pid" "$bin" "$fpage")" "$bin" "$fpage")" = shared ] && n=$((n + 1))
	done
	echo "$n"
}
rm -f ctl ack
mkfifo ctl ack
# -D -1: the events start disabled; "enable" on ctl enables them, and the
# "ack" that follows says perf has its event on the process
perf record -q -D -1 --control fifo:ctl,ack -e stf:fmp_501 -p $early -o filtered.data > perf.out 2>&1 &
recorder=$!
if timeout 60 sh -c 'echo enable > ctl' && [ "$(timeout 60 head -n 1 ack)" = ack ]; then
	pass "perf record -p (pid $early) has its event on"
else
	fail "perf record -p (pid $early) has its event on" "$(cat perf.out)"
fi
known_stock_limit "stock gives every process its own copy of a probed page"
is "$(text_kind $early "$(mapped_addr $early "$bin" "$fpage")" "$bin" "$fpage") $(shared_on_fpage)" "anon $nprocs" \
	"the filtered process gets its own copy of the page; the 20 others keep the shared one"
snap hits.g
ask "r $rounds"
kill -INT "$recorder"
wait "$recorder"
recorder=
perf script -i filtered.data -F event 2> /dev/null > script.out
is "$(grep -c fmp_501 script.out) $(awk '$2 == "fmp_501" { print $3 }' "$TRACING/uprobe_profile") $(gained hits.g $rounds)" \
	"$rounds $rounds 200" "perf counted its $rounds calls, uprobe_profile too, and the 200 shared probes $rounds each"
ask "r 1"
known_stock_limit "stock gives every process its own copy of a probed page"
is "$(on_common $early)" "$npages shared, $npages common" \
	"perf gone: the process maps the shared copies again"

# (d) fork: a child of the running process, and a process exec'd now
snap hits.d
ask "f hold $rounds" 2
child=$(printf '%s\n' "$answer" | sed -n 's/^forked //p')
child_run=$(printf '%s\n' "$answer" | sed -n 's/^child [0-9]* //p')
known_stock_limit "stock gives every process its own copy of a probed page"
is "$(on_common "$child")" "$npages shared, $npages common" \
	"a child forked after enable maps the same shared pages (pid $child)"
is "$child_run / $(gained hits.d $rounds)" "$ref / 200" "the child's run is right and counts exactly"
"$bin" hold 1 hold > exec.out 2>&1 &
late=$!
wait_for test -e "hold.ready.$late"
known_stock_limit "stock gives every process its own copy of a probed page"
is "$(on_common $late)" "$npages shared, $npages common" "a process exec'd later maps the same shared pages"

# (e) munmap and mmap again
ask m
remapped=$answer
snap hits.e
ask "r $rounds"
is "$remapped / $answer / $(gained hits.e $rounds)" "remapped / $ref / 200" \
	"the probed text unmapped and mapped again: the run is right and counts exactly"
known_stock_limit "stock gives every process its own copy of a probed page"
is "$(on_common $early)" "$npages shared, $npages common" "... on the same shared pages"

# (f) MADV_DONTNEED
ask d
dontneed=$answer
snap hits.f
ask "r $rounds"
known_stock_limit "stock loses the int3s of a probed page that MADV_DONTNEED zaps"
is "$dontneed / $answer / $(gained hits.f $rounds)" "dontneed / $ref / 200" \
	"MADV_DONTNEED of the probed text: the run is right and still counts exactly"
known_stock_limit "stock loses the int3s of a probed page that MADV_DONTNEED zaps"
is "$(on_common $early)" "$npages shared, $npages common" "... on the same shared pages, faulted in again"

# (h) the file's mtime changes (touch; a write in place would too): the
# shared copy may be stale then, so faults map the page cache until a
# kworker has made the copy again from the file (the first fault that sees
# it queues that); then every probe hits again, in the running process and
# in one exec'd now.  Before that fix, the other probes stayed out for good.
all_shared_again() { [ "$(kinds $early)" = "$(all shared)" ]; }
check "touch the probed file" touch "$bin"
ask d
known_stock_limit "stock loses the int3s of a probed page that MADV_DONTNEED zaps"
check "touched: the running process maps shared copies again, made anew" wait_for all_shared_again
snap hits.h
ask "r $rounds"
known_stock_limit "stock loses the int3s of a probed page that MADV_DONTNEED zaps"
is "$answer / $(gained hits.h $rounds)" "$ref / 200" \
	"touched: the running process's run is right and counts exactly"
snap hits.h2
is "$("$bin" run $rounds) / $(gained hits.h2 $rounds)" "$ref / 200" \
	"touched: a process exec'd now counts exactly"

# (c) disabled, then deleted
# file_or_none: how many probed pages of the holders map the page cache or nothing
file_or_none() {
	local pid
	for pid in "${holders[@]}"; do
		pages "$pid"
	done | awk '$2 == "file" || $2 == "none" { n++ } END { print n + 0 }'
}
echo 0 > "$TRACING/events/st/enable"
snap hits.c
ask "r 1"
is "$(file_or_none) / $(kinds $early) / $answer / $(gained hits.c 0)" \
	"$((nprocs * npages)) / $(all file) / $ref1 / 200" \
	"disabled: every process maps the page cache again (or nothing yet), a run counts nothing"
uv_off=$(unevictable)
diag "Unevictable: $uv_before kB before, $uv_on kB enabled, $uv_off kB disabled"
known_stock_limit "stock gives every process its own copy of a probed page"
check "Unevictable grew by the shadow pages while enabled (at least $npages x 4 kB)" \
	test $((uv_on - uv_before)) -ge $((npages * 4))
check "Unevictable is back to its value before enabling (8 kB either way)" \
	test $((uv_off - uv_before)) -le 8 -a $((uv_before - uv_off)) -le 8
check "delete the events" sh -c "echo > $TRACING/uprobe_events"
uv_gone=$(unevictable)
is "$(file_or_none) / $((uv_gone - uv_before <= 8 && uv_before - uv_gone <= 8))" "$((nprocs * npages)) / 1" \
	"deleted: the page cache again, and Unevictable as before ($uv_gone kB)"

release "${holders[@]}" "$late" "$child"
failed=0
for pid in "${holders[@]}" "$late"; do
	wait "$pid" || failed=$((failed + 1))
done
ask w
exec 3>&-
wait "$early"
rc=$?
is "$failed / $(sort -u out.* | tr '\n' ' ')/ $(cat exec.out) / $answer / $rc $early_run" \
	"0 / $ref / $ref1 / child exit 0 / 0 $ref" \
	"every process ran right and exits 0"
is "$(sha256sum < "$bin")" "$sum_before" "after the session: the file's sha256 is unchanged"
cp pages.* common "$RESULTS/" 2> /dev/null
