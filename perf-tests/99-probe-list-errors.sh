#!/bin/bash
# perf probe -l and -d fail when a step fails, instead of acting on part
# of the events: an allocation that fails while reading uprobe_events
# (LD_PRELOAD'ed failshim.so), or a short write of a deletion.  A list
# cut short would pass for the whole one; a deletion that wrote nothing
# must not say "Removed event".  Nothing is lost: the events stay.
# failshim notes each failure it makes: where a perf never reaches the
# failure asked for (another perf's code), the checks are skipped.
. /opt/perf-tests/lib/tap.sh
plan 14
trap clear_probes EXIT

shim=$WL/failshim.so
off=$(file_offset "$WL/lifecycle" lc_target)
# line 150 is longer than getline()'s first buffer (120 bytes): ten
# arguments
args="arg_a=%di:u64 arg_b=%si:u64 arg_c=%dx:u64 arg_d=%cx:u64 arg_e=%r8:u64"
args="$args arg_f=%r9:u64 arg_g=%ax:u64 arg_h=%bx:u64 arg_i=%bp:u64 arg_j=%sp:u64"
for i in $(seq 1 200); do
	if [ "$i" = 150 ]; then
		echo "p:probe_x/e$i $WL/lifecycle:$off $args"
	else
		echo "p:probe_x/e$i $WL/lifecycle:$off"
	fi
done > "$RESULTS/events"
check "200 uprobe events added" sh -c "cat '$RESULTS/events' >> '$TRACING/uprobe_events'"
is "$(perf probe -l 2> /dev/null | grep -c 'probe_x:')" 200 "perf probe -l lists them"

# inject VAR=VALUE ARGS...: perf probe ARGS with failshim's VAR set;
# sets out, rc and fired (whether the failure was made)
inject() {
	local setting=$1
	shift
	rm -f "$RESULTS/shim.log"
	out=$(env LD_PRELOAD="$shim" FAILSHIM_LOG="$RESULTS/shim.log" "$setting" \
		perf probe "$@" 2>&1) && rc=0 || rc=$?
	fired=$([ -s "$RESULTS/shim.log" ] && echo yes || echo no)
}

# not_reached DESC...: the failure asked for was never made.  Our perf
# makes each of these calls, so on the fork that is a failure of the
# test itself; stock's perf reads the files with other code: skipped.
not_reached() {
	local d
	for d in "$@"; do
		if [ "${PU_KERNEL:-fork}" = stock ]; then
			skip "$d" "stock's perf does not make that call"
		else
			fail "$d: the failure was never made" "$out"
		fi
	done
}

# list_fails DESC VAR=VALUE: perf probe -l, with failshim's VAR set,
# fails and lists none of the events
list_fails() {
	inject "$2" -l
	if [ "$fired" = yes ]; then
		check "-l, $1: the command fails (status $rc)" test "$rc" -ne 0
		is "$(printf '%s\n' "$out" | grep -c 'probe_x:')" 0 "  ... listing none of a partial table"
	else
		not_reached "-l, $1" "  ... listing none"
	fi
}

# the table of lines grows from 64 to 128 entries (1024 bytes) at line 65
list_fails "an allocation fails at line 65" FAILSHIM_REALLOC_SIZE=1024
list_fails "copying line 150 fails" "FAILSHIM_STRDUP_PREFIX=p:probe_x/e150 "
# getline() grows its buffer from 120 to 240 bytes for line 150
list_fails "reading the long line 150 fails" FAILSHIM_REALLOC_SIZE=240
list_fails "copying the name of line 150 fails" "FAILSHIM_STRNDUP_PREFIX=probe_x/e150 "

inject FAILSHIM_WRITE_SHORT=-:probe_x/e7 -d probe_x:e7
if [ "$fired" = yes ]; then
	known_stock_limit "stock takes a short write for a deletion"
	check "-d, the deletion's write is short: the command fails (status $rc)" test "$rc" -ne 0
	known_stock_limit "stock takes a short write for a deletion"
	if printf '%s\n' "$out" | grep -q 'Removed event'; then
		fail "  ... without saying it removed the event" "$out"
	else
		pass "  ... without saying it removed the event"
	fi
else
	not_reached "-d, the deletion's write is short" "  ... without saying"
fi

inject FAILSHIM_REALLOC_SIZE=1024 -d 'probe_x:*'
if [ "$fired" = yes ]; then
	check "-d 'probe_x:*', an allocation fails: the command fails (status $rc)" test "$rc" -ne 0
	is "$(grep -c '^p:probe_x/' "$TRACING/uprobe_events")" 200 "  ... deleting none of the 200"
else
	not_reached "-d 'probe_x:*', an allocation fails" "  ... deleting none"
fi
