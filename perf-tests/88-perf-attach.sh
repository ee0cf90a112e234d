#!/bin/bash
# perf record -p PID on a process that is already running, then perf goes
# while the process goes on: samples while attached, no int3 left in the
# process's text afterwards (the byte at the probed address reads as the
# file's), and the process finishes normally.
. /opt/perf-tests/lib/tap.sh
plan 9
spinner=
trap spin_cleanup EXIT

bin=$WL/lifecycle
spin_start "$bin"
check "probe lc_target" perf probe -q -x "$bin" lc_target
off=$(uprobe_offset probe_lifecycle/lc_target)

# byte_at PID: the byte at the probed address of PID's text, in hex
byte_at() { mapped_byte "$1" "$bin" "$off"; }
want=$(dd if="$bin" bs=1 skip=$((off)) count=1 2> /dev/null | od -An -tx1 | tr -d ' ')
is "$(byte_at "$spinner")" "$want" "before perf: the probed byte reads as the file's ($want)"
data=$RESULTS/attach.data
# perf record runs until SIGINT (as Ctrl-C ends it).  Its event counts only
# once perf has enabled it, which may come long after the int3 is in (perf
# first writes its header and the process's maps: seconds on a loaded
# host), so it starts disabled (-D -1) and the "ack" to "enable" on its
# control FIFO says it counts.
rm -f ctl ack
mkfifo ctl ack
perf record -q -D -1 --control fifo:ctl,ack -e probe_lifecycle:lc_target \
	-p "$spinner" -o "$data" > perf.out 2>&1 &
recorder=$!
if timeout 60 sh -c 'echo enable > ctl' && [ "$(timeout 60 head -n 1 ack)" = ack ]; then
	pass "perf record -p PID has its event enabled"
else
	fail "perf record -p PID has its event enabled" "$(cat perf.out)"
fi
seen=48
for _ in $(seq 300); do
	seen=$(byte_at "$spinner")
	[ "$seen" = cc ] && break
	sleep 0.1
done
is "$seen" cc "while perf records: the process's copy of the page has the int3"
wait_count stop.count $(($(cat stop.count) + 2000))
kill -INT "$recorder"
wait "$recorder"
rc=$?
# perf record re-raises the SIGINT that ended it: 130
check "perf record -p PID, ended by SIGINT ($rc)" test "$rc" = 0 -o "$rc" = 130
samples=$(perf script -i "$data" 2>/dev/null | grep -c lc_target)
check "samples while attached ($samples)" test "$samples" -gt 0
is "$(byte_at "$spinner")" "$want" "after perf: no int3 left at the probed address"
check "the process still runs" kill -0 "$spinner"
touch stop
wait "$spinner"
rc=$?
spinner=
is "$rc:$(sed 's/[0-9]*$/N/' spin.out)" "0:calls=N" "the process finished normally"
