#!/bin/bash
# perf probe -x NAME finds a library by name as the dynamic loader would:
# LD_LIBRARY_PATH, then /etc/ld.so.cache, then the default directories,
# trying NAME, NAME.so.N (the highest N) and NAME.so, and skipping what
# is not an ELF object of the right kind (glibc's libc.so and libm.so are
# linker scripts).  -v says which file was chosen.
#
# Usage: probe-libname.sh   (env: OURS)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

LIBDIR=/usr/lib/x86_64-linux-gnu
plan 12

# run_probe_in DIR ARGS...: run_probe ARGS with DIR as the current directory
run_probe_in() {
	local dir=$1
	shift
	(cd "$dir" && run_probe "$@")
}

# same_def DESC REF_ARGS -- ARGS: -D output of ARGS equals that of REF_ARGS
# (run_probe's files $tmp/ref and $tmp/o)
same_def() {
	local desc=$1
	if [ -s "$tmp/ref" ] && [ "$(cat "$tmp/o.rc")" = 0 ] &&
	    cmp -s "$tmp/ref" "$tmp/o"; then
		result 0 "$desc: $(head -n 1 "$tmp/o")"
	else
		result 1 "$desc: exit $(cat "$tmp/o.rc")"
		show "$tmp/o" "$tmp/o.err"
	fi
}

# A library of our own in a directory the loader only knows through
# LD_LIBRARY_PATH, with the usual symlinks: libfoo.so.1 -> libfoo.so.1.2
mkdir -p "$tmp/lib"
printf 'int foo_fn(int x) { return x * 7; }\n' > "$tmp/foo.c"
gcc -O1 -shared -fPIC -Wl,-soname,libfoo.so.1 -o "$tmp/lib/libfoo.so.1.2" "$tmp/foo.c"
ln -s libfoo.so.1.2 "$tmp/lib/libfoo.so.1"
# an older one, lower in version order
gcc -O1 -shared -fPIC -Wl,-soname,libfoo.so.0 -o "$tmp/lib/libfoo.so.0" "$tmp/foo.c"
# and a linker script as libfoo.so, as -dev packages install it
echo 'INPUT(libfoo.so.1)' > "$tmp/lib/libfoo.so"
# ELF files that are not versions of it: a separate debug file and a
# package manager's leftovers, all sorting above libfoo.so.1.2
objcopy --only-keep-debug "$tmp/lib/libfoo.so.1.2" "$tmp/lib/libfoo.so.1.2.debug"
cp "$tmp/lib/libfoo.so.0" "$tmp/lib/libfoo.so.1.dpkg-new"
cp "$tmp/lib/libfoo.so.0" "$tmp/lib/libfoo.so.1~"

run_probe "$OURS" "$tmp/ref" -q -x "$LIBDIR/libc.so.6" -D malloc
run_probe "$OURS" "$tmp/o" -q -x libc.so -D malloc
same_def "-x libc.so (a linker script in $LIBDIR) is libc.so.6" 
run_probe "$OURS" "$tmp/o" -q -x libc -D malloc
same_def "-x libc is libc.so.6"

run_probe "$OURS" "$tmp/ref" -q -x "$LIBDIR/libm.so.6" -D sin
# Without /etc/ld.so.cache (a container, a minimal root): the directories
if unshare -m true 2> /dev/null; then
	echo > "$tmp/empty-cache"
	# shellcheck disable=SC2016	# $0 and $1 are the inner shell's
	unshare -m sh -c 'mount --bind "$1" /etc/ld.so.cache && shift &&
		"$@" > "$0" 2> "$0.err"; echo $? > "$0.rc"' \
		"$tmp/o" "$tmp/empty-cache" "$OURS" probe -q -x libm -D sin
	same_def "-x libm without ld.so.cache is libm.so.6"
	# shellcheck disable=SC2016
	unshare -m sh -c 'mount --bind "$1" /etc/ld.so.cache && shift &&
		"$@" > "$0" 2> "$0.err"; echo $? > "$0.rc"' \
		"$tmp/o" "$tmp/empty-cache" "$OURS" probe -q -x libm.so -D sin
	same_def "-x libm.so (a linker script) without ld.so.cache is libm.so.6"
else
	result 0 "# SKIP no mount namespace here"
	result 0 "# SKIP no mount namespace here"
fi

run_probe "$OURS" "$tmp/ref" -q -x "$tmp/lib/libfoo.so.1.2" -D foo_fn
LD_LIBRARY_PATH=$tmp/lib run_probe "$OURS" "$tmp/o" -q -x libfoo -D foo_fn
same_def "LD_LIBRARY_PATH: -x libfoo is libfoo.so.1 (not .so.0, not the script)"
LD_LIBRARY_PATH=/nonexistent:$tmp/lib run_probe "$OURS" "$tmp/o" -q -x libfoo.so -D foo_fn
same_def "LD_LIBRARY_PATH: -x libfoo.so is libfoo.so.1"
LD_LIBRARY_PATH=$tmp/lib run_probe "$OURS" "$tmp/o" -q -x libfoo.so.0 -D foo_fn
check "LD_LIBRARY_PATH: -x libfoo.so.0 is that file" \
	grep -q "p:probe_libfoo/foo_fn $tmp/lib/libfoo.so.0:0x" "$tmp/o"

LD_LIBRARY_PATH=/nonexistent::/nonexistent2 run_probe_in "$tmp/lib" "$OURS" "$tmp/o" -q -x libfoo -D foo_fn
same_def "LD_LIBRARY_PATH: an empty element is the current directory"

LD_LIBRARY_PATH=$tmp/lib run_probe "$OURS" "$tmp/o" -v -x libfoo -D foo_fn
check "-v names the file chosen and why" \
	grep -q "^-x libfoo: $tmp/lib/libfoo.so.1.2 (LD_LIBRARY_PATH)" "$tmp/o.err"

# ld.so.cache entries for some CPUs only (glibc-hwcaps): ld.so picks one
# by the CPU, so perf takes the baseline build and says so
if unshare -m true 2> /dev/null && [ -x /sbin/ldconfig ]; then
	mkdir -p "$tmp/hw/glibc-hwcaps/x86-64-v2"
	gcc -O1 -shared -fPIC -Wl,-soname,libhwx.so.1 -o "$tmp/hw/libhwx.so.1" "$tmp/foo.c"
	cp "$tmp/hw/libhwx.so.1" "$tmp/hw/glibc-hwcaps/x86-64-v2/"
	/sbin/ldconfig -C "$tmp/hw.cache" -f /dev/null -n "$tmp/hw" 2> /dev/null || true
	/sbin/ldconfig -C "$tmp/hw.cache" -f /dev/null "$tmp/hw" 2> /dev/null || true
	# shellcheck disable=SC2016
	unshare -m sh -c 'mount --bind "$1" /etc/ld.so.cache && shift &&
		"$@" > "$0" 2> "$0.err"; echo $? > "$0.rc"' \
		"$tmp/o" "$tmp/hw.cache" "$OURS" probe -x libhwx -D foo_fn
	check "glibc-hwcaps builds in ld.so.cache: the baseline one, with a warning" \
		grep -q "p:probe_libhwx/foo_fn $tmp/hw/libhwx.so.1:0x" "$tmp/o"
	check "  ... the warning names glibc-hwcaps" grep -q "glibc-hwcaps" "$tmp/o.err"
else
	result 0 "# SKIP no mount namespace or ldconfig here"
	result 0 "# SKIP no mount namespace or ldconfig here"
fi

run_probe "$OURS" "$tmp/o" -x libnosuch -D foo
check "-x libnosuch: exit 254 ($(cat "$tmp/o.rc")), one line naming it" \
	test "$(cat "$tmp/o.rc")" = 254 -a "$(wc -l < "$tmp/o.err")" -eq 1 -a \
	-n "$(grep libnosuch "$tmp/o.err")"
done_testing
