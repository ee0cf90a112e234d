#!/bin/bash
# A -x target that cannot be found is one error, whatever the order of
# the options and whether -x names a path or a library: the same exit
# status, the same single line on stderr, and no usage text.
#
# Usage: probe-exit-codes.sh   (env: OURS)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 10

# same_failure DESC FIRST_OUT OUT: OUT failed as FIRST_OUT did
same_failure() {
	local desc=$1 ref=$2 out=$3 lines
	lines=$(wc -l < "$out.err")
	if [ "$(cat "$out.rc")" = 254 ] && [ "$lines" -eq 1 ] &&
	    cmp -s "$ref.err" "$out.err"; then
		result 0 "$desc: exit 254, one line: $(cat "$out.err")"
	else
		result 1 "$desc: exit $(cat "$out.rc"), $lines lines on stderr"
		show "$out.err"
	fi
}

run_probe "$OURS" "$tmp/ref" -x nosuchlib -D foo
same_failure "-x nosuchlib -D foo" "$tmp/ref" "$tmp/ref"
run_probe "$OURS" "$tmp/o" -D foo -x nosuchlib
same_failure "-D foo -x nosuchlib" "$tmp/ref" "$tmp/o"
run_probe "$OURS" "$tmp/o" -x nosuchlib -a foo
same_failure "-x nosuchlib -a foo" "$tmp/ref" "$tmp/o"
run_probe "$OURS" "$tmp/o" -x nosuchlib -F
same_failure "-x nosuchlib -F" "$tmp/ref" "$tmp/o"
run_probe "$OURS" "$tmp/o" -F -x nosuchlib
same_failure "-F -x nosuchlib" "$tmp/ref" "$tmp/o"
run_probe "$OURS" "$tmp/o" -x nosuchlib foo
same_failure "-x nosuchlib foo (event as an argument)" "$tmp/ref" "$tmp/o"

# A path that does not exist: the same status and one line (its own)
run_probe "$OURS" "$tmp/p" -x /nonexistent/libfoo.so -D foo
check "-x /nonexistent/libfoo.so -D foo: exit 254 ($(cat "$tmp/p.rc")), one line" \
	test "$(cat "$tmp/p.rc")" = 254 -a "$(wc -l < "$tmp/p.err")" -eq 1
run_probe "$OURS" "$tmp/p2" -D foo -x /nonexistent/libfoo.so
check "-D foo -x /nonexistent/libfoo.so: exit 254 ($(cat "$tmp/p2.rc")), the same line" \
	cmp -s "$tmp/p.err" "$tmp/p2.err"

# A good target after a bad one: the last -x counts, as before
run_probe "$OURS" "$tmp/g" -x nosuchlib -x /usr/lib/x86_64-linux-gnu/libc.so.6 -D malloc
check "-x nosuchlib -x libc.so.6 -D malloc: the last -x counts (exit $(cat "$tmp/g.rc"))" \
	grep -q '^p:probe_libc/malloc ' "$tmp/g"
# Still one line with -v (no usage text)
run_probe "$OURS" "$tmp/v" -v -x nosuchlib -D foo
check "-v -x nosuchlib -D foo: exit 254 ($(cat "$tmp/v.rc")), no usage text" \
	test "$(cat "$tmp/v.rc")" = 254 -a -z "$(grep -e 'Usage:' -e '    -x, --exec' "$tmp/v.err")"
done_testing
