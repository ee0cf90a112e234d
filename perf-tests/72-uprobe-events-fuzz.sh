#!/bin/bash
# shellcheck disable=SC2034  # arrays used through pick's nameref
# uprobe_events fuzz: random and mutated lines from a corpus of valid ones,
# with a fixed seed (RANDOM=12345) so every run writes the same lines.
# Each line is written alone.  Accepted: exactly one new definition appears
# and "-:GROUP/EVENT" removes it.  Rejected: when the line is one the uprobe
# parser takes as its own (stock's rule: first word starts with p or r, a
# second word with a '/' whose last ':' is followed by a digit), error_log
# has a trace_uprobe entry (except stock's unlogged $comm:TYPE, TYPE not
# string); any other line may fail with -EINVAL unlogged.
# At the end nothing is left: uprobe_events empty, no new events/ groups.
# Every outcome (and error_log text less its timestamp) is kept in
# $RESULTS/outcomes.txt and, with the workloads' offsets named, compared
# with stock's (perf-tests/golden/72-outcomes.txt.gz, made by
# scripts/regen-golden.sh).
. /opt/perf-tests/lib/tap.sh
plan 10
trap clear_probes EXIT
cd "$TRACING" || exit 1

total=${FUZZ_LINES:-3000}
max_seconds=${FUZZ_SECONDS:-400}
bin=$WL/lifecycle
# Offsets as 0x%08x: the lines, so their random mutations, are the same
# for any build of the workloads (below 4 GiB); norm_offsets names them.
fixed() { printf '0x%08x' "$(($1))"; }
target=$(fixed "$(file_offset "$bin" lc_target)")
name=$(fixed "$(file_offset "$bin" lc_name)")
hits_off=$(fixed "$(file_offset "$WL/hits" main || echo 0x1000)")
uret_off=$(fixed "$(file_offset "$WL/uret" main || echo 0x1000)")
lib_off=$(fixed "$(file_offset "$WL/libmg.so" lib_leaf || echo 0x1100)")

# norm_offsets: each offset above, in any width, as <NAME>
norm_offsets() {
	local pair args=()
	for pair in "$target lc_target" "$name lc_name" "$hits_off hits_main" \
		"$uret_off uret_main" "$lib_off lib_leaf"; do
		args+=(-e "s/0x0*$(printf '%x' $((${pair% *})))([^0-9a-fA-F]|\$)/<${pair#* }>\\1/g")
	done
	sed -E "${args[@]}"
}

seeds=(
	"p:fz/e1 $bin:$target"
	"r:fz/e2 $bin:$target"
	"p $bin:$target"
	"r $bin:$name"
	"p:fz/e3 $bin:$target%return"
	"p:fz/e4 $bin:$target(0x10)"
	"p:fz/e5 $bin:$target(0x20) a=%ax b=%di:s64"
	"p:fz/e6 $bin:$target a=%ax b=%di:s64 c=\$stack d=\$stack2 e=\$comm f=+0(%di):string g=+8(%sp):u32 h=@+0x100:u64"
	"p:fz/e7 $bin:$target i=%di:x8 j=%si:s16 k=%dx:b4@2/8 l=%cx:x64 m=%r8:u16"
	"r:fz/e8 $bin:$target ret=\$retval:x64 comm=\$comm"
	"r:fz/e9 $bin:$target \$retval"
	"p:fz/e10 $bin:$name s=+0(%di):string u=+0(%di):ustring"
	"p:fz/e11 $bin:$target +0(+8(%sp)):u64 %r8 %r15 %flags %ip %bp %sp"
	"p:fz/e12 $bin:$target arr=+0(%sp):u8[4] st=\$stack0 st9=\$stack9"
	"p:fz/e13 $bin:$target x=@0x4000:s32 y=@+0x10(%di):u8 z=-8(%sp):x16"
	"p:fz/e14 $bin:$target bits=%ax:b1@63/64 c=\$comm:string"
	"p:fz_grp/ev_1 $bin:0x0"
	"p:fz/e15 $WL/hits:$hits_off"
	"r:fz/e16 $WL/uret:$uret_off"
	"p:fz/e17 $WL/libmg.so:$lib_off a=%di"
	"p:fz/e18 $WL/manyprobes:0x1000 %ax"
	"p:fz/e19 $bin:$target a=%ax a=%di"
	"p:sched/sched_switch $bin:$target"
	"p:fz/e20 $bin:$target +0(%di):string[2]"
	"-:fz/e1"
)
junk_chars=': / % @ ( ) + - $ = , . [ ] { } " '"'"' \ ~ ! ^ & * | ; < > ? 0 1 9 x a Z _'
read -r -a junk_chars <<< "$junk_chars"
junk_chars+=(" " "	" "#")
junk_tokens=(" %zz" " x=%ax" " \$retval" " +0(%di):string" " @0x10" " =%ax" " a=" " :u32"
	" 0x" "%return" "(0x10)" "(" ")" "//" " /non/exist:0x10" " \$stack999" " \$arg1"
	" %rax" " +0(" " :string" " a=\$comm:u8" " -:fz/e1" " \$" " %" " @" " +" " :"
	" b=+0(%di):ustring" " \$comm" " s=%di:symbol" " f=%ax:b65@0/64" " 1a=%ax")
offsets=(0x "" 0xfffffffffffffffff -1 99999999999 1e3 0x10zz 0b1 010 18446744073709551615
	0x7fffffffffffffff 4096 0x0 x10 ": " "0x10%ret" "0x10%return%return" "0x10(0x)" "0x10(zz)"
	"0x10(0x8" "0x10(0x8)x")
regs=(%zz %eax %rax %r16 %xmm0 %ip0 %AX % %r0 %di:zz)
types=(:u128 :s3 :string[2] :b0@0/8 :b9@0/8 :x :symbol :u8[0] :u8[65] :x32[3] :b8@0/8 :u64:u64 "")
paths=(/opt/workloads /non/exist opt/workloads/lifecycle /dev/null "$WL/hits" /proc/self/exe
	"$bin/" "//opt//workloads//lifecycle" "$WL/../workloads/lifecycle" "$WL/libmg.so")
firsts=(p r x P R - "" "p:" "r:" "p:/" "r:x/" "p:fz/" "p:/e" pp rr "p:fz/a/b" "p:fz:e")
names=(a 1abc a-b a.b _x "$(printf 'n%.0s' {1..63})" "$(printf 'n%.0s' {1..64})"
	"$(printf 'n%.0s' {1..65})" "$(printf 'g%.0s' {1..100})" "$(printf 'L%.0s' {1..200})" "")

pick() { local -n _arr=$1; REPLY=${_arr[RANDOM % ${#_arr[@]}]}; }

# mutate LINE: one random mutation of LINE into REPLY.
mutate() {
	local l=$1 n=${#1} p op
	p=$(( n > 0 ? RANDOM % n : 0 ))
	op=$((RANDOM % 16))
	case $op in
	0) REPLY=${l:0:p}${l:p+1} ;;
	1) REPLY=${l:0:p}${l:p:1}${l:p} ;;
	2) REPLY=${l:0:p}${l:p+1:1}${l:p:1}${l:p+2} ;;
	3) REPLY=${l:0:p} ;;
	4) pick junk_chars; REPLY=${l:0:p}$REPLY${l:p} ;;
	5) pick junk_tokens; REPLY=${l:0:p}$REPLY${l:p} ;;
	6) pick junk_tokens; REPLY=$l$REPLY ;;
	7) pick names; local nm=$REPLY
	   if [[ $l == [pr]:*/*\ * ]]; then
		   local head=${l%% *} rest=${l#* }
		   if ((RANDOM % 2)); then REPLY="${head%%/*}/$nm $rest"
		   else REPLY="${head:0:2}$nm/${head#*/} $rest"; fi
	   else REPLY="p:fz/$nm ${l#* }"; fi ;;
	8) pick offsets; local off=$REPLY
	   if [[ $l =~ ^([^ ]*\ [^ ]*:)(0x[0-9a-f]+)(.*)$ ]]; then
		   REPLY=${BASH_REMATCH[1]}$off${BASH_REMATCH[3]}
	   else REPLY=$l; fi ;;
	9) pick regs; local r=$REPLY
	   if [[ $l =~ ^(.*)%[a-z0-9]+(.*)$ ]]; then
		   REPLY=${BASH_REMATCH[1]}$r${BASH_REMATCH[2]}
	   else REPLY="$l x=$r"; fi ;;
	10) local k cnt=$((126 + RANDOM % 5))
	    REPLY=$l
	    for ((k = 0; k < cnt; k++)); do REPLY+=" a$k=%ax"; done ;;
	11) pick types; local t=$REPLY
	    if [[ $l =~ ^(.*)(:[usxb][0-9@/]+|:string|:ustring)(.*)$ ]]; then
		    REPLY=${BASH_REMATCH[1]}$t${BASH_REMATCH[3]}
	    else REPLY="$l y=%di$t"; fi ;;
	12) pick firsts
	    if [[ $l == *\ * ]]; then REPLY="$REPLY ${l#* }"; else REPLY=$REPLY$l; fi ;;
	13) pick paths; local pa=$REPLY
	    if [[ $l =~ ^([^ ]*\ )(/[^:]*)(:.*)$ ]]; then
		    REPLY=${BASH_REMATCH[1]}$pa${BASH_REMATCH[3]}
	    else REPLY="$l"; fi ;;
	14) REPLY="${l// /  }" ;;
	15) local a=${l%% *}; REPLY="$a	${l#* }" ;;
	esac
}

# uprobe_line LINE: does stock's parser take LINE as a uprobe definition
# (so that any rejection of it must be logged)?
uprobe_line() {
	local l=${1%%#*} w
	read -r -a w <<< "$l"
	[ "${#w[@]}" -ge 2 ] || return 1
	[[ ${w[0]} == [pr]* ]] || return 1
	[[ ${w[1]} == */* ]] || return 1
	[[ ${w[1]} =~ :[0-9][^:]*$ ]] || return 1
	# Stock quirk, kept: a $comm argument with a type other than string,
	# or an array, fails with -EINVAL and no error_log entry.
	for w in "${w[@]:2}"; do
		w=${w#*=}
		if [[ $w == [$]comm:* || $w == [$]COMM:* ]] && [ "${w#*:}" != string ]; then
			return 1
		fi
	done
	return 0
}

exec 3> "$RESULTS/outcomes.txt"
groups_before=$(ls events)
accepted=0 rejected=0 unlogged_ok=0 bad_accept=0 bad_remove=0 bad_log=0 bad_state=0
offenders_accept=() offenders_remove=() offenders_log=() offenders_state=()
RANDOM=12345
start=$SECONDS
for ((i = 0; i < total; i++)); do
	if ((SECONDS - start > max_seconds)); then
		diag "stopped after $i lines: over ${max_seconds}s"
		break
	fi
	pick seeds
	line=$REPLY
	case $((RANDOM % 8)) in
	0) ;;
	1|2|3) mutate "$line"; line=$REPLY ;;
	4|5) mutate "$line"; mutate "$REPLY"; line=$REPLY ;;
	6) mutate "$line"; mutate "$REPLY"; mutate "$REPLY"; line=$REPLY ;;
	7) line=""; for ((k = RANDOM % 5; k >= 0; k--)); do
		   pick junk_tokens; line+=$REPLY; pick junk_chars; line+=$REPLY
	   done; [ $((RANDOM % 2)) = 0 ] || line="p:fz/r$i $bin:$line" ;;
	esac
	line=${line//$'\n'/ }
	printf '' > error_log
	if printf '%s\n' "$line" >> uprobe_events 2> /dev/null; then
		mapfile -t defs < uprobe_events
		stripped=${line%%#*}
		if [ "${#defs[@]}" = 1 ]; then
			accepted=$((accepted + 1))
			ev=${defs[0]%% *}
			ev=${ev#?:}
			printf 'A %s\n  => %s\n' "$line" "${defs[0]}" >&3
			if ! printf '%s\n' "-:$ev" >> uprobe_events 2> /dev/null ||
				[ -s uprobe_events ]; then
				bad_remove=$((bad_remove + 1))
				offenders_remove+=("$line => ${defs[0]}")
				printf '' > uprobe_events
			fi
		elif [ "${#defs[@]}" = 0 ] && [[ -z ${stripped//[[:space:]]/} ]]; then
			accepted=$((accepted + 1))
			printf 'A %s\n  => (blank)\n' "$line" >&3
		else
			bad_accept=$((bad_accept + 1))
			offenders_accept+=("$line => ${#defs[@]} definitions: ${defs[*]}")
			printf 'A %s\n  => %d definitions\n' "$line" "${#defs[@]}" >&3
			printf '' > uprobe_events
		fi
	else
		rejected=$((rejected + 1))
		mapfile -t log < error_log
		log[0]=${log[0]#\[*\] }
		printf 'R %s\n' "$line" >&3
		[ "${#log[@]}" = 0 ] || printf '  | %s\n' "${log[@]}" >&3
		if [ "${#log[@]}" -gt 0 ] && [[ ${log[0]} == trace_uprobe:* ]]; then
			:
		elif uprobe_line "$line"; then
			bad_log=$((bad_log + 1))
			offenders_log+=("$line => error_log: ${log[*]:-(empty)}")
		else
			unlogged_ok=$((unlogged_ok + 1))
		fi
		if [ -s uprobe_events ]; then
			bad_state=$((bad_state + 1))
			offenders_state+=("$line => left: $(cat uprobe_events)")
			printf '' > uprobe_events
		fi
	fi
done
exec 3>&-
done_lines=$i
diag "$done_lines lines in $((SECONDS - start))s: $accepted accepted, $rejected rejected" \
	"($unlogged_ok of them not uprobe lines, unlogged)"

is "$done_lines" "$total" "fuzz: all $total lines written within ${max_seconds}s"
norm_offsets < "$RESULTS/outcomes.txt" > "$RESULTS/outcomes.norm"
golden=/opt/perf-tests/golden/72-outcomes.txt.gz
if d=$(gzip -dc "$golden" | diff -u - "$RESULTS/outcomes.norm"); then
	pass "fuzz: each line's outcome and error_log text are stock's (golden copy)"
else
	fail "fuzz: each line's outcome and error_log text are stock's (golden copy)" \
		"$(printf '%s\n' "$d" | head -n 40)"
fi
if [ "$accepted" -gt 50 ] && [ "$rejected" -gt 50 ]; then
	pass "fuzz: $accepted accepted and $rejected rejected lines (both > 50)"
else
	fail "fuzz: both outcomes are exercised" "accepted $accepted, rejected $rejected"
fi
report() {
	local desc=$1 n=$2
	shift 2
	if [ "$n" = 0 ]; then
		pass "$desc"
	else
		fail "$desc" "$n offenders, the first ones:" "${@:1:5}"
	fi
}
report "fuzz: every accepted line added exactly one definition" "$bad_accept" "${offenders_accept[@]}"
report "fuzz: every accepted line is removable with -:GROUP/EVENT" "$bad_remove" "${offenders_remove[@]}"
report "fuzz: every rejected uprobe line has a trace_uprobe error_log entry" "$bad_log" "${offenders_log[@]}"
report "fuzz: every rejected line left uprobe_events unchanged" "$bad_state" "${offenders_state[@]}"
is "$(cat uprobe_events)" "" "fuzz: uprobe_events is empty at the end"
is "$(ls events)" "$groups_before" "fuzz: no event group left behind under events/"
is "$(ls -d events/fz* 2> /dev/null)" "" "fuzz: no events/fz* directory left"
printf '' > error_log
