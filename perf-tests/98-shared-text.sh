#!/bin/bash
# The probed text pages of many processes (issues 18 and 34).  A probe
# with no per-process filter (a trace event enabled in tracefs) needs the
# same int3s in every process.  Each process maps its own anonymous copy of
# each probed page (text_kind "anon", lib/tap.sh), an ordinary COW page
# that every mm path knows (issue 34; sharing identical copies is its step
# 3), made at mmap, at enable, or at the fault that maps the page again
# after mm dropped the copy.
#   (a) 200 probes (mp_0, mp_5 .. mp_995 of sharedtext, every page of its
#       1000 functions) enabled as a group; 20 processes started then (so
#       exec'd while enabled) and one started before run the probed code:
#       every probed page of each is its own copy (a PFN of its own, not
#       the page cache's, 4 kB Anonymous per page in its text mapping), the
#       hit counts exact;
#   (b) the file reads its original bytes (sha256, read(), a MAP_SHARED
#       mapping, whose pages stay the page cache's);
#   (g) perf record -p on another probe of a probed page: counts exact, and
#       the other processes' copies are left as they were;
#   (d) a child forked after enable maps its parent's copies (COW: the same
#       PFNs) and counts exactly; so does a process exec'd later, on copies
#       of its own;
#   (e) munmap and mmap of the probed text again: hits exact, own copies;
#   (f) MADV_DONTNEED of the probed text: the copies are zapped, and the
#       next fault makes them again with the int3s, so the probes keep
#       hitting (stock loses the int3s: the page cache page refaults);
#   (h) the file touched (mtime), then MADV_DONTNEED again: the same, the
#       file's bytes decide, not its mtime;
#   (c) disabled, then deleted: every process maps the page cache again, no
#       Anonymous kB in any text mapping, no hit counts.
. /opt/perf-tests/lib/tap.sh
plan 33
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
# on_common PID: "A anon, C common": how many of PID's probed pages are its
# own copies, and how many map the PFN that $common_pid maps there ("pfns
# common" holds those)
on_common() {
	pages "$1" > "pages.$1"
	awk 'NR == FNR { ref[$1] = $3; next } $2 == "anon" { a++ } $3 == ref[$1] { c++ }
	     END { printf "%d anon, %d common\n", a, c }' common "pages.$1"
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
cp "pages.$early" common
is "$(cat pages.* | awk '$2 == "anon" { n++ } END { print n + 0 }')" $(((nprocs + 1) * npages)) \
	"every probed page of the 21 processes is its own copy (text_kind anon)"
awk '$2 != "anon" { print FILENAME ": " $0 }' pages.* | head -n 5 | while read -r line; do diag "$line"; done
printf '%s\n' "$cache_pfns" > cache.pfns
is "$(cat pages.* | awk '$3 != "-" { print $1, $3 }' | sort -u | wc -l) PFNs, $(cat pages.* | awk '$3 != "-" { print $3 }' | grep -cxFf cache.pfns) of the page cache" \
	"$(((nprocs + 1) * npages)) PFNs, 0 of the page cache" "a PFN of its own for each probed page of each of the 21"
for pid in "${holders[@]}" "$early"; do
	kb=$(text_anon_kb "$pid")
	[ "$kb" = $((npages * 4)) ] || echo "pid $pid: $kb kB"
done > anon.kb
is "$(wc -l < anon.kb)" 0 "smaps: $((npages * 4)) kB Anonymous in the text mapping of each of the 21 ($npages pages)"
[ -s anon.kb ] && diag "$(head -n 3 anon.kb)"
known_stock_race "stock's uprobe_profile counter loses concurrent hits"
is "$(gained hits.a $(((nprocs + 1) * rounds)))" 200 \
	"uprobe_profile: each probe hit $((nprocs + 1)) x $rounds times"

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
# anon_on_fpage: how many of the 20 holders map their own copy at fpage
anon_on_fpage() {
	local pid n=0
	for pid in "${holders[@]}"; do
		[ "$(text_kind "$pid" "$(mapped_addr "$pid" "$bin" "$fpage")" "$bin" "$fpage")" = anon ] && n=$((n + 1))
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
is "$(text_kind $early "$(mapped_addr $early "$bin" "$fpage")" "$bin" "$fpage") $(anon_on_fpage)" "anon $nprocs" \
	"the filtered process has its own copy of the page, and so do the 20 others"
snap hits.g
ask "r $rounds"
kill -INT "$recorder"
wait "$recorder"
recorder=
perf script -i filtered.data -F event 2> /dev/null > script.out
is "$(grep -c fmp_501 script.out) $(awk '$2 == "fmp_501" { print $3 }' "$TRACING/uprobe_profile") $(gained hits.g $rounds)" \
	"$rounds $rounds 200" "perf counted its $rounds calls, uprobe_profile too, and the 200 others $rounds each"
ask "r 1"
is "$(on_common $early)" "$npages anon, $npages common" \
	"perf gone: the process keeps its copies, with the other probes' int3s"

# (d) fork: a child of the running process, and a process exec'd now
snap hits.d
ask "f hold $rounds" 2
child=$(printf '%s\n' "$answer" | sed -n 's/^forked //p')
child_run=$(printf '%s\n' "$answer" | sed -n 's/^child [0-9]* //p')
is "$(on_common "$child")" "$npages anon, $npages common" \
	"a child forked after enable maps its parent's copies (pid $child)"
is "$child_run / $(gained hits.d $rounds)" "$ref / 200" "the child's run is right and counts exactly"
"$bin" hold 1 hold > exec.out 2>&1 &
late=$!
wait_for test -e "hold.ready.$late"
is "$(on_common $late)" "$npages anon, 0 common" "a process exec'd later maps copies of its own"

# (e) munmap and mmap again
ask m
remapped=$answer
snap hits.e
ask "r $rounds"
is "$remapped / $answer / $(gained hits.e $rounds)" "remapped / $ref / 200" \
	"the probed text unmapped and mapped again: the run is right and counts exactly"
is "$(on_common $early | sed 's/,.*//')" "$npages anon" "... on copies of its own"

# (f) MADV_DONTNEED
ask d
dontneed=$answer
snap hits.f
ask "r $rounds"
known_stock_limit "stock loses the int3s of a probed page that MADV_DONTNEED zaps"
is "$dontneed / $answer / $(gained hits.f $rounds)" "dontneed / $ref / 200" \
	"MADV_DONTNEED of the probed text: the run is right and still counts exactly"
known_stock_limit "stock loses the int3s of a probed page that MADV_DONTNEED zaps"
is "$(on_common $early | sed 's/,.*//')" "$npages anon" "... on copies made again at the fault"

# (h) the file's mtime changes (touch), then the copies are zapped again:
# the file still holds the probed bytes, so the faults make them again with
# the int3s, in the running process and in one exec'd now
check "touch the probed file" touch "$bin"
ask d
known_stock_limit "stock loses the int3s of a probed page that MADV_DONTNEED zaps"
is "$(kinds $early)" "$(all anon)" "touched and zapped: the running process maps copies again"
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
for pid in "${holders[@]}" "$early"; do
	kb=$(text_anon_kb "$pid")
	[ "$kb" = 0 ] || echo "pid $pid: $kb kB"
done > anon.kb
is "$(wc -l < anon.kb)" 0 "disabled: no Anonymous kB left in the text mapping of any of the 21"
[ -s anon.kb ] && diag "$(head -n 3 anon.kb)"
check "delete the events" sh -c "echo > $TRACING/uprobe_events"
is "$(file_or_none)" "$((nprocs * npages))" "deleted: the page cache again"

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
