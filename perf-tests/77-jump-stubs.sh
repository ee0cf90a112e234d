#!/bin/bash
# Trap-free hits: at a site whose instruction the kernel emulates and that
# is at least 5 bytes long, the first hit replaces the int3 with a jump to
# a stub that enters the kernel by syscall.  Checked here: every such kind
# of instruction gives the results plain C computes, with live data in the
# red zone and in the registers the syscall spends (%rcx, %r11, flags);
# every hit is counted; the jump and its stub are there while the probe
# is, in the child of a fork too; deleting the probe puts the file's bytes
# back; a program in seccomp strict mode gets through the stub; and the
# stub's syscall from anywhere else gets SIGILL.
. /opt/perf-tests/lib/tap.sh
trap clear_probes EXIT

bin=$WL/jumps
sites="load lea add subrsp call jcc nop5 redzone regs"
site_offset() {		# site_offset NAME: file offset of jmp_NAME_site
	local value
	value=$(readelf -Ws "$bin" | awk -v s="jmp_$1_site" '$8 == s { print $2; exit }')
	[ -n "$value" ] && vaddr_offset "$bin" "0x$value"
}
hits() {		# hits NAME: how many times jumps/NAME is in the trace
	grep -c " $1: " "$TRACING/trace" || true
}
for s in $sites; do
	echo "p:jumps/$s $bin:$(site_offset "$s")" >> "$TRACING/uprobe_events"
done
check "nine probes defined" test "$(grep -c '^p:jumps/' "$TRACING/uprobe_events")" = 9

echo > "$TRACING/trace"
echo 1 > "$TRACING/events/jumps/enable"
is "$("$bin" run 300)" "run 300 bad 0" "results unchanged under probes at every kind of site"
bad=''
for s in $sites; do
	[ "$(hits "$s")" = 300 ] || bad="$bad $s:$(hits "$s")"
done
is "$bad" "" "every site reports its 300 hits"

echo > "$TRACING/trace"
is "$("$bin" seccomp 50)" "seccomp 50 bad 0" "seccomp strict mode: hits go through"
is "$(hits lea)" 50 "seccomp strict mode: every hit reported"

# site_bytes PID NAME: the first 5 bytes at jmp_NAME_site in PID, in hex.
site_vaddr() {
	local off start pgoff
	off=$(($(site_offset "$2")))
	read -r start pgoff < <(awk -v f="$bin" '$6 == f && $2 ~ /x/ {
			split($1, r, "-"); print r[1], $3; exit }' "/proc/$1/maps")
	[ -n "$start" ] || return 1
	echo $((16#$start + off - 16#$pgoff))
}
site_bytes() {
	dd if="/proc/$1/mem" bs=1 skip="$(site_vaddr "$1" "$2")" count=5 2> /dev/null |
		od -An -tx1 | tr -d ' \n'
}
file_bytes() {
	dd if="$bin" bs=1 skip=$(($(site_offset "$1"))) count=5 2> /dev/null |
		od -An -tx1 | tr -d ' \n'
}
# jumps_to_stub PID NAME: the site holds a jmp rel32 into [uprobes-stubs]
jumps_to_stub() {
	local b at rel target start end
	b=$(site_bytes "$1" "$2")
	[ "${b:0:2}" = e9 ] || { echo "site $2: $b"; return 1; }
	at=$(site_vaddr "$1" "$2")
	rel=$((16#${b:8:2}${b:6:2}${b:4:2}${b:2:2}))
	[ "$rel" -lt $((1 << 31)) ] || rel=$((rel - (1 << 32)))
	target=$((at + 5 + rel))
	read -r start end < <(awk '/\[uprobes-stubs\]/ { split($1, r, "-"); print r[1], r[2]; exit }' \
		"/proc/$1/maps")
	if [ -z "$start" ] || [ "$target" -lt $((16#$start)) ] ||
	   [ "$target" -ge $((16#$end)) ]; then
		echo "site $2 jumps to $target, stubs at ${start:-none}"
		return 1
	fi
}
all_jump() {		# all_jump PID: every site of PID jumps to its stub
	local s
	for s in $sites; do
		jumps_to_stub "$1" "$s" || return 1
	done
}
blocked_in_read() {	# blocked_in_read PID: wait until PID sits in read(0, ...)
	local _
	for _ in $(seq 100); do
		case $(cat "/proc/$1/syscall" 2> /dev/null) in "0 0x0 "*) return 0 ;; esac
		sleep 0.1
	done
	return 1
}

echo > "$TRACING/trace"
rm -f wait.fifo
mkfifo wait.fifo
"$bin" wait 40 < wait.fifo > wait.out &
pid=$!
exec 3> wait.fifo
check "the program blocks after its first 40 rounds" blocked_in_read "$pid"
known_stock_limit "stock has no jumps to stubs"
check "after the first hit, each site jumps to its stub" all_jump "$pid"
printf a >&3
check "the program blocks again, after the fork" blocked_in_read "$pid"
echo 0 > "$TRACING/events/jumps/enable"
is "$(hits lea)" 120 "parent and forked child: every hit reported"
echo > "$TRACING/uprobe_events"
bad=''
for s in $sites; do
	[ "$(site_bytes "$pid" "$s")" = "$(file_bytes "$s")" ] || bad="$bad $s"
done
is "$bad" "" "probes deleted: every site holds the file's bytes again"
printf b >&3
exec 3>&-
wait "$pid"
is "$? $(cat wait.out)" "0 wait 40 bad 0 child 0" "the program's results stay right throughout"

"$bin" rogue 1 > rogue.out 2>&1
rc=$?
known_stock_limit "stock has no stub syscall"
is "$rc" 132 "the stub syscall from outside a stub: SIGILL"
