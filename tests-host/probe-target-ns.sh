#!/bin/bash
# --target-ns PID: the -x file is the one the process's mount namespace
# has at that path, wherever --target-ns is given on the command line.
# Here a process in its own mount namespace sees another build of the
# program at the path, with t_leaf at another offset.
#
# And a library whose symbols are only in the build-id cache (~/.debug),
# which the process's namespace does not see: the cache is read in ours,
# as perf's loader does, and is not taken for another build's file.
#
# Usage: probe-target-ns.sh   (env: OURS)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 5
if ! unshare -m true 2> /dev/null; then
	for i in 1 2 3 4 5; do result 0 "# SKIP no mount namespace here ($i)"; done
	done_testing
	exit 0
fi

cat > "$tmp/t.c" <<'CC'
static int __attribute__((noinline)) helper(int x) { return x * 3; }
int __attribute__((noinline)) t_leaf(int x) { return helper(x) + 1; }
int main(int argc, char **argv) { (void)argv; return t_leaf(argc); }
CC
sed 's/x \* 3/x * 5 + 2/' "$tmp/t.c" > "$tmp/t2.c"
mkdir -p "$tmp/ns"
gcc -O1 -o "$tmp/ns/t" "$tmp/t.c"
gcc -O1 -o "$tmp/t2" "$tmp/t2.c"
run_probe "$OURS" "$tmp/r" -q -x "$tmp/t2" -D t_leaf
want=$(probe_offset "$tmp/r")
run_probe "$OURS" "$tmp/h" -q -x "$tmp/ns/t" -D t_leaf
here=$(probe_offset "$tmp/h")

# the process: in its own mount namespace, t2 mounted over ns/t
# shellcheck disable=SC2016
unshare -m --propagation private sh -c \
	'mount --bind "$0" "$1" && touch "$1.ready" && exec sleep 60' \
	"$tmp/t2" "$tmp/ns/t" &
pid=$!
wait_file "$tmp/ns/t.ready"

run_probe "$OURS" "$tmp/a" -q --target-ns "$pid" -x "$tmp/ns/t" -D t_leaf
run_probe "$OURS" "$tmp/b" -q -x "$tmp/ns/t" -D t_leaf --target-ns "$pid"
kill "$pid" 2> /dev/null || true
wait "$pid" 2> /dev/null || true

check "the builds differ here ($here) and there ($want)" \
	test -n "$want" -a -n "$here" -a "$want" != "$here"
check "--target-ns before -x: the namespace's build ($(cat "$tmp/a"))" \
	grep -q ":$want\$" "$tmp/a"
check "--target-ns after the event: the same ($(cat "$tmp/b") $(head -n 1 "$tmp/b.err"))" \
	grep -q ":$want\$" "$tmp/b"

# hidden_fn is local: stripped from the library, in its debug file only,
# which is in the build-id cache of $tmp/home
cat > "$tmp/b.c" <<'CC'
static int __attribute__((noinline)) hidden_fn(int x) { return x * 7; }
int pub_fn(int x) { return hidden_fn(x) + 1; }
CC
mkdir -p "$tmp/lib" "$tmp/home"
gcc -O1 -shared -fPIC -Wl,--build-id -o "$tmp/lib/libbid.so" "$tmp/b.c"
run_probe "$OURS" "$tmp/r" -q -x "$tmp/lib/libbid.so" -D hidden_fn
want=$(probe_offset "$tmp/r")
bid=$(readelf -n "$tmp/lib/libbid.so" | awk '/Build ID/ { print $3 }')
mkdir -p "$tmp/home/.debug/.build-id/${bid:0:2}/${bid:2}"
objcopy --only-keep-debug "$tmp/lib/libbid.so" \
	"$tmp/home/.debug/.build-id/${bid:0:2}/${bid:2}/debug"
strip "$tmp/lib/libbid.so"
# shellcheck disable=SC2016
unshare -m --propagation private sh -c \
	'mount -t tmpfs none "$0" && touch "$1" && exec sleep 60' \
	"$tmp/home" "$tmp/lib/ready" &
pid=$!
wait_file "$tmp/lib/ready"
HOME=$tmp/home run_probe "$OURS" "$tmp/c" --target-ns "$pid" \
	-x "$tmp/lib/libbid.so" -D hidden_fn
kill "$pid" 2> /dev/null || true
wait "$pid" 2> /dev/null || true
check "a local function of a stripped library, from the build-id cache ($want)" \
	test -n "$want" -a "$(probe_offset "$tmp/c")" = "$want"
check "  ... without a warning ($(head -n 1 "$tmp/c.err"))" \
	test ! -s "$tmp/c.err"
done_testing
