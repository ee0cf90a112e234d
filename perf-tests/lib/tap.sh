# shellcheck shell=bash
# TAP helpers for the guest tests; source it, don't run it.
#
#   plan N                               the script prints N results (the
#                                        runner fails a script that prints
#                                        another number, or has no plan)
#   pass DESC / fail DESC [DETAIL...]    one result
#   check DESC CMD...                    ok when CMD succeeds (its output shown on failure)
#   is GOT EXPECTED DESC                 ok when the two strings are equal
#   skip DESC REASON                     a test that cannot run here, with why
#   known_stock_limit REASON             the next result is "# TODO REASON" on the
#                                        stock kernel (a measured stock defect that
#                                        our series fixes); on fork it counts fully;
#                                        on stock the result must fail
#   known_stock_race REASON              the same for a stock race that shows
#                                        in some runs only (either result)
#   diag TEXT...                         a "# " diagnostic line
#   wait_for CMD...                      a handshake: until CMD succeeds (60 s)
#   wait_count FILE N                    until FILE (a workload's progress
#                                        count) reads N or more (60 s)
#   wait_lines FILE N                    until FILE has N lines or more (60 s)
#   wait_files GLOB N                    until N files match GLOB (60 s)
#   text_kind PID ADDR [FILE OFFSET]     what PID's text page at ADDR is:
#                                        anon, shared, file or none (below)
# Every test runs in its own scratch directory; $RESULTS is kept for the host.
export PATH=/usr/bin:/usr/sbin
TRACING=/sys/kernel/tracing
export WL=/opt/workloads
export LIBC=/lib64/libc.so.6
RESULTS=${RESULTS:-/results/$(basename "$0" .sh)}
mkdir -p "$RESULTS"
_todo=

plan() {
	echo "1..$1"
}

wait_for() {
	local end=$((SECONDS + 60))
	until "$@" 2> /dev/null; do
		if [ "$SECONDS" -ge "$end" ]; then
			diag "waited 60 s in vain for: $*"
			return 1
		fi
		sleep 0.05
	done
}

_count_reached() {
	local got
	got=$(cat "$1" 2> /dev/null) || return 1
	[ "${got:-0}" -ge "$2" ]
}

wait_count() {
	wait_for _count_reached "$1" "$2"
}

# (wait_for runs its command again each time: a "$(...)" in its arguments
# would be computed once, before the first try)
_lines_reached() {
	[ "$(wc -l < "$1")" -ge "$2" ]
}

wait_lines() {
	wait_for _lines_reached "$1" "$2"
}

_files_reached() {
	[ "$(compgen -G "$1" | wc -l)" -ge "$2" ]
}

wait_files() {
	wait_for _files_reached "$1" "$2"
}

diag() {
	local line
	printf '%s\n' "$@" | while IFS= read -r line; do printf '#   %s\n' "$line"; done
}

_result() {
	local status=$1 desc=$2
	if [ -n "$_todo" ]; then
		desc="$desc # TODO $_todo"
		_todo=
	fi
	echo "$status - $desc"
}

pass() { _result ok "$1"; }

fail() {
	_result "not ok" "$1"
	shift
	[ $# -eq 0 ] || diag "$@"
}

check() {
	local desc=$1 output
	shift
	if output=$("$@" 2>&1); then
		pass "$desc"
	else
		fail "$desc" "command failed: $*" "$output"
	fi
}

is() {
	if [ "$1" = "$2" ]; then
		pass "$3"
	else
		fail "$3" "expected: $2" "saw:      $1"
	fi
}

skip() {
	_todo=
	echo "ok - $1 # SKIP $2"
}

known_stock_limit() {
	[ "${PU_KERNEL:-fork}" = stock ] && _todo=$1
	return 0
}

known_stock_race() {
	[ "${PU_KERNEL:-fork}" = stock ] && _todo="stock race, either way: $1"
	return 0
}

# vaddr_offset BINARY VADDR: the file offset of a virtual address, from the
# program headers of its LOAD segment (vaddr - p_vaddr + p_offset).
vaddr_offset() {
	local bin=$1 value=$(($2)) type off vaddr filesz
	while read -r type off vaddr _ filesz _; do
		[ "$type" = LOAD ] || continue
		if [ "$value" -ge $((vaddr)) ] && [ "$value" -lt $((vaddr + filesz)) ]; then
			printf '0x%x\n' $((value - vaddr + off))
			return 0
		fi
	done < <(readelf -lW "$bin")
	return 1
}

# file_offset BINARY SYMBOL: the file offset of function SYMBOL, computed from
# readelf's symbol table and program headers (independently of perf).
file_offset() {
	local value
	value=$(readelf -Ws --dyn-syms "$1" 2>/dev/null |
		awk -v s="$2" '$4 ~ /FUNC/ && ($8 == s || index($8, s "@") == 1) { print $2; exit }')
	[ -n "$value" ] || return 1
	vaddr_offset "$1" "0x$value"
}

# func_offsets BINARY REGEX: "NAME 0xOFFSET" for every function whose name
# matches REGEX, in one pass over readelf's symbols and segments.
func_offsets() {
	readelf -lW "$1" > "$RESULTS/phdrs.$$"
	readelf -Ws "$1" |
		awk 'NR == FNR { if ($1 == "LOAD") { n++; off[n] = strtonum($2); va[n] = strtonum($3); sz[n] = strtonum($5) } next }
		     $4 == "FUNC" && $8 ~ re {
			v = strtonum("0x" $2)
			for (i = 1; i <= n; i++)
				if (v >= va[i] && v < va[i] + sz[i]) { printf "%s 0x%x\n", $8, v - va[i] + off[i]; break }
		     }' re="$2" "$RESULTS/phdrs.$$" -
	rm -f "$RESULTS/phdrs.$$"
}

# uprobe_offset EVENT: the offset uprobe_events holds for GROUP/EVENT.
uprobe_offset() {
	awk -v e="$1" '$1 ~ "^[pr]:" e "$" { n = split($2, a, ":"); print a[n]; exit }' \
		"$TRACING/uprobe_events"
}

# stat_count EVENT CMD...: how many times EVENT fired while CMD ran (perf stat).
stat_count() {
	local event=$1
	shift
	perf stat -x, -e "$event" -o "$RESULTS/stat.$$" -- "$@" > /dev/null 2>&1 || return 1
	awk -F, -v e="$event" '$3 == e { print $1 }' "$RESULTS/stat.$$"
}

# mapped_addr PID FILE OFFSET: the address (decimal) at which PID maps file
# OFFSET of FILE; empty when not mapped.
mapped_addr() {
	local pid=$1 file=$2 target=$(($3)) range off path start end
	while read -r range _ off _ _ path; do
		[ "$path" = "$file" ] || continue
		start=$((16#${range%-*}))
		end=$((16#${range#*-}))
		off=$((16#$off))
		if [ "$target" -ge "$off" ] && [ "$target" -lt $((off + end - start)) ]; then
			echo $((start + target - off))
			return 0
		fi
	done < "/proc/$pid/maps"
}

# pagemap_entry PID ADDR: PID's /proc/PID/pagemap entry for the page at
# ADDR (decimal), 16 hex digits; empty when it cannot be read.  Bit 63:
# present; 61: a file page (or shared anonymous); 0-54: the PFN (root only).
pagemap_entry() {
	dd if="/proc/$1/pagemap" bs=8 skip=$(($2 / 4096)) count=1 2> /dev/null |
		od -An -tx8 | tr -d ' \n'
}

# page_pfn PID ADDR: the PFN (decimal) of the page PID maps at ADDR;
# empty when the page is not present.
page_pfn() {
	local entry
	entry=$(pagemap_entry "$1" "$2")
	[ -n "$entry" ] && (( (16#$entry >> 63) & 1 )) || return 0
	echo $(( 16#$entry & ((1 << 55) - 1) ))
}

# text_kind PID ADDR [FILE OFFSET]: what PID maps at ADDR (decimal), from
# /proc/PID/pagemap, for text that file OFFSET of FILE backs:
#   anon     present, not a file page: PID's own copy (a filtered probe's
#            or a debugger's write made it)
#   shared   present file page that is not the page cache page of FILE
#            OFFSET (workloads/pfnof): the shared breakpointed copy
#   file     present, the page cache page itself
#   none     not present, even after a read of PID's byte there through
#            /proc/PID/mem, which faults it in as PID running it would
#            (enabling or disabling probes may unmap the page: the next
#            fault maps the shared copy or the page cache page)
# Without FILE OFFSET they come from the mapping of ADDR in /proc/PID/maps
# (its path and file offset); "unknown" for a present file page that no
# file mapping of /proc/PID/maps backs.
text_kind() {
	local pid=$1 addr=$2 file=${3:-} offset=${4:-} entry range off path start end cache
	entry=$(pagemap_entry "$pid" "$addr")
	if [ -n "$entry" ] && ! (( (16#$entry >> 63) & 1 )); then
		# not mapped now: fault it in as PID would when it runs it (a
		# read through /proc/PID/mem faults in PID's mm), then look
		dd if="/proc/$pid/mem" bs=1 skip="$addr" count=1 of=/dev/null 2> /dev/null
		entry=$(pagemap_entry "$pid" "$addr")
	fi
	if [ -z "$entry" ] || ! (( (16#$entry >> 63) & 1 )); then
		echo none
		return 0
	fi
	if ! (( (16#$entry >> 61) & 1 )); then
		echo anon
		return 0
	fi
	if [ -z "$file" ]; then
		while read -r range _ off _ _ path; do
			start=$((16#${range%-*}))
			end=$((16#${range#*-}))
			if [ "$addr" -ge "$start" ] && [ "$addr" -lt "$end" ]; then
				[ "${path:0:1}" = / ] || break
				file=$path
				offset=$((16#$off + addr - start))
				break
			fi
		done < "/proc/$pid/maps"
		if [ -z "$file" ]; then
			echo unknown
			return 0
		fi
	fi
	cache=$("$WL/pfnof" "$file" "$offset" 2> /dev/null) || {
		echo unknown
		return 0
	}
	if [ "$(( 16#$entry & ((1 << 55) - 1) ))" = "$cache" ]; then
		echo file
	else
		echo shared
	fi
}

# private_copy PID ADDR: "yes" if PID's page at ADDR (decimal) is its own
# anonymous copy of the file page (text_kind anon), "no" otherwise.  For
# "our int3s are in what PID runs", which a shared copy satisfies too, ask
# text_kind for anon or shared.
private_copy() {
	local entry
	entry=$(pagemap_entry "$1" "$2")
	if [ -n "$entry" ] && (( (16#$entry >> 63) & 1 )) && ! (( (16#$entry >> 61) & 1 )); then
		echo yes
	else
		echo no
	fi
}

# mapped_byte PID FILE OFFSET: the byte at file OFFSET of PID's mapping of
# FILE as the CPU runs it, as far as a test sees it without a debugger's
# view: ptrace, /proc/PID/mem and process_vm_readv show the program's byte,
# so "cc" when the page is PID's own copy or the shared breakpointed copy
# (text_kind anon or shared: in these tests only uprobes' int3s make those,
# and the last int3 of a page going drops them), else the file's byte;
# empty when not mapped.  A shared copy reads "cc" at any offset of the
# page: tests ask it only at the probed offset.
mapped_byte() {
	local addr
	addr=$(mapped_addr "$@")
	[ -n "$addr" ] || return 0
	case $(text_kind "$1" "$addr" "$2" "$3") in
	anon | shared) echo cc ;;
	*) od -An -tx1 -j $(($3)) -N1 "$2" | tr -d ' \n' ;;
	esac
}

# spin_start BIN: "BIN spin stop" (workloads/lifecycle) in the background,
# its pid in $spinner, once it has made 1000 calls
spin_start() {
	rm -f stop stop.count
	"$1" spin stop > spin.out &
	spinner=$!
	wait_count stop.count 1000
}

# spin_cleanup: an EXIT trap for spin_start's users: the spinner stopped and
# waited for, every probe removed
spin_cleanup() {
	touch stop
	[ -z "${spinner:-}" ] || wait "$spinner" 2> /dev/null
	clear_probes
}

# Remove every probe event, whatever made it.
clear_probes() {
	echo 0 > "$TRACING/events/enable" 2>/dev/null
	echo > "$TRACING/trace"
	echo > "$TRACING/uprobe_events" 2>/dev/null
	echo > "$TRACING/kprobe_events" 2>/dev/null
	return 0
}
