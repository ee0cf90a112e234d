#!/bin/bash
# The malloc flame graphs of a guest's perf.data, made on the host:
#   flamegraphs.sh -o OUT_DIR [--calls CALLS_DATA] PROFILE_DATA
#
# PROFILE_DATA is what perf-tests/malloc-profile.sh recorded (libc's malloc,
# calloc and realloc with their size arguments, -g).  It writes
#   OUT_DIR/flamegraph-calls.html  calls by call stack: perf's own flame
#                                  graph report (scripts/python/flamegraph.py)
#                                  of CALLS_DATA, or of PROFILE_DATA
#   OUT_DIR/flamegraph-bytes.html  bytes asked for, by call stack
#                                  (scripts/malloc-bytes.py, same template)
#   OUT_DIR/bytes-top10.txt        the stacks asking for the most bytes
#   OUT_DIR/bytes-stacks.txt       every stack: BYTES<tab>CALLS<tab>STACK
#
# The calls graph counts the hits of every probe in its data: glibc's
# realloc(NULL, n) is a realloc() and a malloc() there, one request in the
# bytes graph.
#
# Environment (make demo sets them):
#   PERF       a perf built with libpython (build/obj/perf-py/perf)
#   PERF_CORE  its libexec/perf-core (flamegraph.py)
#   SYMFS      the guest's root, for its binaries' symbols
#   TEMPLATE   d3-flame-graph's d3-flamegraph-base.html
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
PERF=${PERF:-$top/build/obj/perf-py/perf}
PERF_CORE=${PERF_CORE:-$top/build/obj/perf-py-install/usr/libexec/perf-core}
SYMFS=${SYMFS:-$top/build/guest-fork.cpio.d}
TEMPLATE=${TEMPLATE:-$top/build/d3-flame-graph/d3-flamegraph-base.html}

usage() {
	echo "usage: flamegraphs.sh -o OUT_DIR [--calls CALLS_DATA] PROFILE_DATA" >&2
	exit 2
}

out='' calls=''
while [ $# -gt 1 ]; do
	case $1 in
	-o) out=$2 ;;
	--calls) calls=$2 ;;
	*) usage ;;
	esac
	shift 2
done
if [ $# != 1 ] || [ -z "$out" ]; then
	usage
fi
profile=$1
calls=${calls:-$profile}
for f in "$profile" "$calls" "$TEMPLATE" "$PERF" "$PERF_CORE/scripts/python/flamegraph.py"; do
	[ -e "$f" ] || { echo "flamegraphs.sh: $f: no such file" >&2; exit 1; }
done
[ -d "$SYMFS/usr" ] || {
	echo "flamegraphs.sh: SYMFS=$SYMFS is not the guest's root (no usr/ in it)" >&2
	exit 1
}
mkdir -p "$out"
out=$(realpath "$out")
PERF=$(realpath "$PERF")
PERF_CORE=$(realpath "$PERF_CORE")
SYMFS=$(realpath "$SYMFS")
TEMPLATE=$(realpath "$TEMPLATE")

# flamegraph.py reads the header for its "Context" pane with
# "perf report --header-only", of ./perf.data with the perf in $PATH: run
# it where perf.data is the calls' file, with this perf first in $PATH.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -s "$(realpath "$calls")" "$work/perf.data"

# The guest's libc is the host's, but the guest has no debug files: look
# at the guest's root with the host's /usr/lib/debug added (libc6-dbg), so
# that the frames of libc's own functions (start_thread, and
# __libc_start_call_main below main) have their names.  Files are found
# by build-id there, so a libc of another build finds nothing.
symfs=$SYMFS
if [ -d /usr/lib/debug/.build-id ] && [ ! -e "$SYMFS/usr/lib/debug" ] &&
   [ -d "$SYMFS/usr/lib" ] && [ ! -L "$SYMFS/usr" ] && [ ! -L "$SYMFS/usr/lib" ]; then
	symfs=$work/symfs
	mkdir -p "$symfs/usr/lib"
	for dir in "" /usr /usr/lib; do
		for entry in "$SYMFS$dir"/*; do
			case $entry in "$SYMFS/usr" | "$SYMFS/usr/lib") continue ;; esac
			# a relative link (lib -> usr/lib) points into the view,
			# an absolute one at the host's file, as it did before
			if [ -L "$entry" ]; then
				cp -P "$entry" "$symfs$dir/"
			else
				ln -s "$entry" "$symfs$dir/"
			fi
		done
	done
	ln -s /usr/lib/debug "$symfs/usr/lib/debug"
fi
mkdir "$work/bin"
ln -s "$PERF" "$work/bin/perf"

(cd "$work" && PATH="$work/bin:$PATH" PERF_EXEC_PATH=$PERF_CORE \
	perf script --symfs "$symfs" -s "$PERF_CORE/scripts/python/flamegraph.py" -- \
	--template "$TEMPLATE" -o "$out/flamegraph-calls.html" > /dev/null)

PERF_EXEC_PATH=$PERF_CORE "$PERF" script -i "$profile" --symfs "$symfs" \
	-s "$top/scripts/malloc-bytes.py" -- --template "$TEMPLATE" \
	-o "$out/flamegraph-bytes.html" --table "$out/bytes-top10.txt" \
	--stacks "$out/bytes-stacks.txt" > /dev/null

cat "$out/bytes-top10.txt"
echo "flame graphs: $out/flamegraph-calls.html $out/flamegraph-bytes.html"
