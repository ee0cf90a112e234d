#!/bin/bash
# --target-pid PID: -x NAME is looked up among the files process PID
# maps.  Where it would change nothing it is refused, with one line and
# a non-zero status, rather than silently ignored; --pid is its old,
# deprecated name (elsewhere in perf, --pid means "only this process").
#
# Usage: probe-target-pid.sh   (env: OURS)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

libc=/usr/lib/x86_64-linux-gnu/libc.so.6
plan 16
# a process that maps a library of its own, which only it can name
mkdir -p "$tmp/lib"
printf 'int foo_fn(int x) { return x * 7; }\n' > "$tmp/foo.c"
gcc -O1 -shared -fPIC -Wl,-soname,libfoo.so.1 -o "$tmp/lib/libfoo.so.1" "$tmp/foo.c"
LD_PRELOAD=$tmp/lib/libfoo.so.1 sleep 60 &
pid=$!
trap 'kill "$pid" 2> /dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do
	grep -q libfoo "/proc/$pid/maps" 2> /dev/null && break
	sleep 0.1
done

run_probe "$OURS" "$tmp/o" -q -x libfoo --target-pid "$pid" -D foo_fn
check "-x libfoo --target-pid: the libfoo it maps ($(cat "$tmp/o"))" \
	grep -q "^p:probe_libfoo/foo_fn $tmp/lib/libfoo.so.1:0x" "$tmp/o"
run_probe "$OURS" "$tmp/o" -q -x libfoo -D foo_fn
check "  ... which -x libfoo alone does not find (exit $(cat "$tmp/o.rc"))" \
	test "$(cat "$tmp/o.rc")" != 0
run_probe "$OURS" "$tmp/ref" -q -x "$libc" -D malloc

# refused DESC ARGS...: one line, naming --target-pid, a non-zero status
refused() {
	local desc=$1
	shift
	run_probe "$OURS" "$tmp/r" "$@"
	if [ "$(cat "$tmp/r.rc")" != 0 ] && [ "$(wc -l < "$tmp/r.err")" -eq 1 ] &&
	    grep -q -- '--target-pid' "$tmp/r.err"; then
		result 0 "$desc: refused ($(cat "$tmp/r.err"))"
	else
		result 1 "$desc: exit $(cat "$tmp/r.rc")"
		show "$tmp/r.err"
	fi
}
refused "--target-pid with -x PATH" -x "$libc" --target-pid "$pid" -D malloc
refused "--target-pid without -x" --target-pid "$pid" -D vfs_read
refused "--target-pid with -m" -m ext4 --target-pid "$pid" -D ext4_sync_fs
refused "--target-pid with -l" --target-pid "$pid" -l
refused "--target-pid with -d" --target-pid "$pid" -d 'probe_libc:*'
refused "--target-pid with --target-ns" --target-ns "$pid" -x libc --target-pid "$pid" -D malloc
run_probe "$OURS" "$tmp/o" -x libfoo --target-pid "$pid" -F
check "-F -x libfoo --target-pid lists its functions" grep -qx foo_fn "$tmp/o"
# where a -x NAME is still looked up, it is no mistake
run_probe "$OURS" "$tmp/o" -q -x /bin/ls -x libfoo --target-pid "$pid" -D foo_fn
check "-x PATH then -x NAME: the NAME is looked up (exit $(cat "$tmp/o.rc"))" \
	grep -q "$tmp/lib/libfoo.so.1:0x" "$tmp/o"
run_probe "$OURS" "$tmp/o" -q -m ext4 -x libfoo --target-pid "$pid" -D foo_fn
check "-m then -x NAME: accepted (exit $(cat "$tmp/o.rc"))" \
	grep -q "$tmp/lib/libfoo.so.1:0x" "$tmp/o"

# a process in its own mount namespace (a container) that maps another
# build of libfoo at the path where we have ours: its file, reached
# through /proc/PID/root, not ours
if unshare -m true 2> /dev/null; then
	mkdir -p "$tmp/mnt" "$tmp/other"
	# another build: another function first, so foo_fn is elsewhere
	printf 'int pad_fn(int x) { return x * x - 3; }\n' > "$tmp/foo2.c"
	sed 's/x \* 7/x * 9 + 5/' "$tmp/foo.c" >> "$tmp/foo2.c"
	gcc -O1 -shared -fPIC -Wl,-soname,libfoo.so.1 -o "$tmp/other/libfoo.so.1" "$tmp/foo2.c"
	cp "$tmp/lib/libfoo.so.1" "$tmp/mnt/libfoo.so.1"
	# shellcheck disable=SC2016	# $0, $1 are the inner shell's
	unshare -m --propagation private sh -c 'mount -t tmpfs none "$0" &&
		cp "$1" "$0/libfoo.so.1" && touch "$0/ready" &&
		LD_PRELOAD="$0/libfoo.so.1" exec sleep 60' "$tmp/mnt" "$tmp/other/libfoo.so.1" &
	cpid=$!
	for _ in $(seq 50); do
		grep -q libfoo "/proc/$cpid/maps" 2> /dev/null && break
		sleep 0.1
	done
	run_probe "$OURS" "$tmp/r" -q -x "$tmp/other/libfoo.so.1" -D foo_fn
	want=$(sed -n 's/.*:\(0x[0-9a-f]*\)$/\1/p' "$tmp/r")
	run_probe "$OURS" "$tmp/o" -q -x libfoo --target-pid "$cpid" -D foo_fn
	kill "$cpid" 2> /dev/null || true
	check "a container's libfoo: its build's offset $want ($(cat "$tmp/o"))" \
		grep -q ":$want\$" "$tmp/o"
	check "  ... reached through /proc/PID/root" \
		grep -q " /proc/$cpid/root$tmp/mnt/libfoo.so.1:" "$tmp/o"
else
	result 0 "# SKIP no mount namespace here"
	result 0 "# SKIP no mount namespace here"
fi

run_probe "$OURS" "$tmp/o" -x libc --pid "$pid" -D malloc
check "--pid: still works" grep -q "^p:probe_libc/malloc $libc:" "$tmp/o"
check "  ... with a warning that it is --target-pid" \
	grep -q -- '--pid is deprecated: it is --target-pid' "$tmp/o.err"
run_probe "$OURS" "$tmp/o" -q -x libc --pid "$pid" -D malloc
check "  ... which -q silences" test ! -s "$tmp/o.err"
done_testing
