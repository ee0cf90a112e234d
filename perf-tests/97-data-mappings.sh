#!/bin/bash
# A read-only mapping of a probed binary is data, not code: a process that
# maps the file to read it (libelf, gdb, indexers, ld.so's first look at a
# library) must read the file's bytes, not a probe's int3, and keeps
# sharing the page cache.  Once it makes the mapping executable
# (mprotect), the mapping is code and gets the probe.
. /opt/perf-tests/lib/tap.sh
plan 8
reader=
# the reader ends at the end of its commands
trap 'exec 3>&- 2> /dev/null; [ -z "$reader" ] || wait "$reader"; clear_probes' EXIT

bin=$WL/manyprobes
off=$(file_offset "$bin" mp_5)
file_byte=$(od -An -tx1 -j $((off)) -N1 "$bin" | tr -d ' \n')
check "add and enable p:ro/mp_5" sh -c \
	"echo 'p:ro/mp_5 $bin:$off' >> $TRACING/uprobe_events && echo 1 > $TRACING/events/ro/enable"

rm -f cmd
mkfifo cmd
"$WL/mapfile" "$bin" < cmd > map.out &
reader=$!
exec 3> cmd
wait_for grep -q mapped map.out
addr=$(mapped_addr "$reader" "$bin" "$off")

# ask CMD, wait for the N-th line of its answers, print that line
ask() {
	echo "$1" >&3
	wait_lines map.out "$2"
	sed -n "$2p" map.out
}

known_stock_limit "stock puts int3s into read-only mappings of a probed file"
is "$(ask "b $off" 2)" "$file_byte" "the read-only mapping reads the file's byte at the probe ($file_byte)"
known_stock_limit "stock puts int3s into read-only mappings of a probed file"
is "$(text_kind "$reader" "$addr" "$bin" "$off")" file "... and maps the page cache page itself"
is "$("$bin" run 1 | sed 's/ sum=.*//')" "rounds=1 calls=1000 bad=0" "a run of the program meanwhile is right"
is "$(awk '$2 == "mp_5" { print $3 }' "$TRACING/uprobe_profile")" 1 "... and hits the probe once"

is "$(ask x 3)" exec "the reader makes its mapping executable"
byte=$(ask "b $off" 4)
kind=$(text_kind "$reader" "$addr" "$bin" "$off")
case $kind in anon | shared) kind=copy ;; esac
is "$byte $kind" "cc copy" \
	"then the mapping holds the probe's int3, in a copy of the page (its own or the shared one)"
echo 0 > "$TRACING/events/ro/enable"
is "$(ask "b $off" 5) $(text_kind "$reader" "$addr" "$bin" "$off")" "$file_byte file" \
	"disabled: the file's byte again, and the page cache page"
