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

# private_copy PID ADDR: "yes" if PID's page at ADDR (decimal) is its own
# anonymous copy of the file page, from /proc/PID/pagemap (bit 63 present,
# bit 61 file page or shared); "no" otherwise.
private_copy() {
	local entry
	entry=$(dd if="/proc/$1/pagemap" bs=8 skip=$(($2 / 4096)) count=1 2> /dev/null |
		od -An -tx8 | tr -d ' \n')
	if [ -n "$entry" ] && (( (16#$entry >> 63) & 1 )) && ! (( (16#$entry >> 61) & 1 )); then
		echo yes
	else
		echo no
	fi
}

# mapped_byte PID FILE OFFSET: the byte at file OFFSET of PID's mapping of
# FILE as the CPU runs it, as far as a test sees it without a debugger's
# view: ptrace, /proc/PID/mem and process_vm_readv show the program's byte,
# so "cc" when the page is PID's private copy (in these tests only a
# uprobe's int3 makes one, and the last int3 of a page going drops it),
# else the file's byte; empty when not mapped.
mapped_byte() {
	local addr
	addr=$(mapped_addr "$@")
	[ -n "$addr" ] || return 0
	if [ "$(private_copy "$1" "$addr")" = yes ]; then
		echo cc
	else
		od -An -tx1 -j $(($3)) -N1 "$2" | tr -d ' \n'
	fi
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
