#!/bin/bash
# -x NAME --target-pid PID for a library the process does not map (yet: it
# will dlopen() it): the file its loader would take.  The loader looks in
# the program's DT_RPATH (if it has no DT_RUNPATH), the process's own
# LD_LIBRARY_PATH, the program's DT_RUNPATH, then ld.so.cache and the
# default directories; $ORIGIN is the program's directory, a relative
# directory is in the process's working directory.  perf's own
# LD_LIBRARY_PATH does not count, and a library the process maps comes
# first.  Only for a process that sees our files; a file it maps that was
# replaced since is not taken for its new version; whatever a process puts
# in its LD_LIBRARY_PATH, perf opens no FIFO or device.
#
# Usage: probe-target-pid-loader.sh   (env: OURS)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 15
pids=()
trap 'kill "${pids[@]}" 2> /dev/null || true; rm -rf "$tmp"' EXIT

# four copies of libbar.so.1, told apart by their directory
printf 'int bar_fn(int x) { return x * 3; }\n' > "$tmp/bar.c"
for d in prog/lib1 lib2 lib3 cwd/rel; do
	mkdir -p "$tmp/$d"
	gcc -O1 -shared -fPIC -Wl,-soname,libbar.so.1 -o "$tmp/$d/libbar.so.1" "$tmp/bar.c"
done
printf '#include <unistd.h>\nint main(void) { sleep(60); return 0; }\n' > "$tmp/prog.c"
# shellcheck disable=SC2016	# $ORIGIN is the loader's
gcc -O1 -Wl,-rpath,'$ORIGIN/lib1' -Wl,--enable-new-dtags -o "$tmp/prog/runpath" "$tmp/prog.c"
# shellcheck disable=SC2016
gcc -O1 -Wl,-rpath,'$ORIGIN/lib1' -Wl,--disable-new-dtags -o "$tmp/prog/rpath" "$tmp/prog.c"

# start PROGRAM [ENV...]: run PROGRAM from $tmp/cwd, its pid in $started
start() {
	local prog=$1
	shift
	(cd "$tmp/cwd" && exec env "$@" "$prog") &
	started=$!
	pids+=("$started")
	for _ in $(seq 50); do
		grep -q "$prog" "/proc/$started/maps" 2> /dev/null && break
		sleep 0.1
	done
}

# takes DESC PID WANT_DIR [ENV...]: -x libbar --target-pid PID -D names
# WANT_DIR/libbar.so.1 (perf run with ENV)
takes() {
	local desc=$1 pid=$2 want=$3
	shift 3
	env "$@" "$OURS" probe -x libbar --target-pid "$pid" -D bar_fn \
		> "$tmp/o" 2> "$tmp/o.err" < /dev/null || true
	if grep -q "^p:probe_libbar/bar_fn $want/libbar.so.1:0x" "$tmp/o"; then
		result 0 "$desc: $want"
	else
		result 1 "$desc: not $want"
		show "$tmp/o" "$tmp/o.err"
	fi
}

start "$tmp/prog/runpath"
p_runpath=$started
takes "DT_RUNPATH \$ORIGIN/lib1" "$p_runpath" "$tmp/prog/lib1"
check "  ... and perf says it maps no libbar yet" \
	grep -q "maps no libbar yet: taking $tmp/prog/lib1/libbar.so.1" "$tmp/o.err"
takes "  ... not perf's own LD_LIBRARY_PATH" "$p_runpath" "$tmp/prog/lib1" \
	LD_LIBRARY_PATH="$tmp/lib3"

start "$tmp/prog/runpath" LD_LIBRARY_PATH="$tmp/lib2"
p_runpath_env=$started
takes "the process's LD_LIBRARY_PATH before DT_RUNPATH" "$p_runpath_env" "$tmp/lib2"

start "$tmp/prog/rpath" LD_LIBRARY_PATH="$tmp/lib2"
p_rpath_env=$started
takes "DT_RPATH before the process's LD_LIBRARY_PATH" "$p_rpath_env" "$tmp/prog/lib1"

start "$tmp/prog/runpath" LD_LIBRARY_PATH=rel
p_rel=$started
takes "a relative LD_LIBRARY_PATH is in the process's working directory" \
	"$p_rel" "$tmp/cwd/rel"

start "$tmp/prog/runpath" LD_PRELOAD="$tmp/lib3/libbar.so.1"
p_mapped=$started
takes "a libbar the process maps comes first" "$p_mapped" "$tmp/lib3"

run_probe "$OURS" "$tmp/n" -x libnone --target-pid "$p_runpath" -D nothing
if [ "$(cat "$tmp/n.rc")" != 0 ] && [ "$(wc -l < "$tmp/n.err")" -eq 1 ] &&
    grep -q "nor would its loader find one" "$tmp/n.err"; then
	result 0 "no libnone anywhere: one line ($(cat "$tmp/n.err")), exit $(cat "$tmp/n.rc")"
else
	result 1 "no libnone anywhere: exit $(cat "$tmp/n.rc")"
	show "$tmp/n.err"
fi

# a 32-bit process: its auxv (AT_SECURE) is in 4-byte words
mkdir -p "$tmp/lib32"
if gcc -m32 -O1 -shared -fPIC -Wl,-soname,libbar.so.1 -o "$tmp/lib32/libbar.so.1" \
	"$tmp/bar.c" 2> /dev/null &&
   gcc -m32 -O1 -o "$tmp/prog/prog32" "$tmp/prog.c" 2> /dev/null; then
	start "$tmp/prog/prog32" LD_LIBRARY_PATH="$tmp/lib32"
	takes "a 32-bit process's LD_LIBRARY_PATH" "$started" "$tmp/lib32"
else
	result 0 "a 32-bit process's LD_LIBRARY_PATH # SKIP no gcc -m32"
fi

# ${ORIGIN}, and an empty LD_LIBRARY_PATH, which is no directory (not the
# working directory, where another libbar waits)
# shellcheck disable=SC2016
gcc -O1 -Wl,-rpath,'${ORIGIN}/lib1' -Wl,--enable-new-dtags -o "$tmp/prog/braces" "$tmp/prog.c"
cp "$tmp/lib2/libbar.so.1" "$tmp/cwd/libbar.so.1"
start "$tmp/prog/braces" LD_LIBRARY_PATH=
takes "\${ORIGIN}/lib1, and LD_LIBRARY_PATH= empty" "$started" "$tmp/prog/lib1"
rm "$tmp/cwd/libbar.so.1"

# a FIFO and a device where the process says to look: not opened, no hang
mkdir -p "$tmp/fifo" "$tmp/dev"
mkfifo "$tmp/fifo/libbar.so.1"
ln -s /dev/zero "$tmp/dev/libbar.so.1"
start "$tmp/prog/runpath" LD_LIBRARY_PATH="$tmp/fifo:$tmp/dev"
SECONDS=0
env timeout 20 "$OURS" probe -x libbar --target-pid "$started" -D bar_fn \
	> "$tmp/o" 2> "$tmp/o.err" < /dev/null || true
if grep -q "^p:probe_libbar/bar_fn $tmp/prog/lib1/libbar.so.1:0x" "$tmp/o"; then
	result 0 "a FIFO and /dev/zero in its LD_LIBRARY_PATH: passed over (${SECONDS}s)"
else
	result 1 "a FIFO and /dev/zero in its LD_LIBRARY_PATH: passed over"
	show "$tmp/o" "$tmp/o.err"
fi

# set-user-ID: AT_SECURE, so its loader ignores LD_LIBRARY_PATH
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	chmod 755 "$tmp" "$tmp/cwd" "$tmp/prog" "$tmp/prog/lib1" "$tmp/lib2"
	cp "$tmp/prog/runpath" "$tmp/prog/suid"
	chmod 4755 "$tmp/prog/suid"
	(cd "$tmp/cwd" && exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		env LD_LIBRARY_PATH="$tmp/lib2" "$tmp/prog/suid") &
	started=$!
	pids+=("$started")
	for _ in $(seq 50); do
		grep -q "prog/suid" "/proc/$started/maps" 2> /dev/null && break
		sleep 0.1
	done
	takes "set-user-ID (AT_SECURE): not its LD_LIBRARY_PATH" "$started" "$tmp/prog/lib1"
else
	result 0 "set-user-ID (AT_SECURE) # SKIP not root, or no setpriv"
fi

# its own mount namespace: another libbar where we have ours; perf cannot
# tell which the loader will see, and says so
if unshare -m true 2> /dev/null; then
	mkdir -p "$tmp/ns"
	cp "$tmp/lib2/libbar.so.1" "$tmp/ns/"
	# shellcheck disable=SC2016	# $0, $1 are the inner shell's
	unshare -m --propagation private sh -c 'mount -t tmpfs none "$0" &&
		cp "$1" "$0/libbar.so.1" && cd "$2" &&
		LD_LIBRARY_PATH="$0" exec "$3"' "$tmp/ns" "$tmp/lib3/libbar.so.1" \
		"$tmp/cwd" "$tmp/prog/runpath" &
	started=$!
	pids+=("$started")
	for _ in $(seq 50); do
		grep -q "prog/runpath" "/proc/$started/maps" 2> /dev/null && break
		sleep 0.1
	done
	run_probe "$OURS" "$tmp/m" -x libbar --target-pid "$started" -D bar_fn
	if [ "$(cat "$tmp/m.rc")" != 0 ] && grep -q "give -x the path" "$tmp/m.err"; then
		result 0 "its own mount namespace: refused ($(cat "$tmp/m.err"))"
	else
		result 1 "its own mount namespace: refused"
		show "$tmp/m" "$tmp/m.err"
	fi
else
	result 0 "its own mount namespace # SKIP no unshare -m"
fi

# a libbar it maps, replaced on disk since: not the new file
mkdir -p "$tmp/upg"
cp "$tmp/lib2/libbar.so.1" "$tmp/upg/"
start "$tmp/prog/runpath" LD_PRELOAD="$tmp/upg/libbar.so.1" LD_LIBRARY_PATH="$tmp/upg"
rm "$tmp/upg/libbar.so.1"
cp "$tmp/lib3/libbar.so.1" "$tmp/upg/libbar.so.1"
run_probe "$OURS" "$tmp/u" -x libbar --target-pid "$started" -D bar_fn
if [ "$(cat "$tmp/u.rc")" != 0 ] && grep -q "deleted or replaced" "$tmp/u.err"; then
	result 0 "a libbar replaced since it was mapped: refused ($(cat "$tmp/u.err"))"
else
	result 1 "a libbar replaced since it was mapped: refused"
	show "$tmp/u" "$tmp/u.err"
fi

# -F through the same lookup
run_probe "$OURS" "$tmp/f" -x libbar --target-pid "$p_runpath" -F
check "-F -x libbar --target-pid lists the functions of the one it would load" \
	grep -qx bar_fn "$tmp/f"
done_testing
