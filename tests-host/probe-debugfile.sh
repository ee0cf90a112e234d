#!/bin/bash
# A separate debug file is used only if it belongs to the build of the
# file probed.  A stale one (another build, found under the name the
# file's .gnu_debuglink gives) would give the other build's addresses,
# and the breakpoint would land inside an instruction of the program.
# With a build-id, the debug file must have the same; without one, the
# CRC-32 the link holds must match.  Either way perf probe must give the
# offsets of the file itself: those of the same program not stripped.
#
# Usage: probe-debugfile.sh   (env: OURS)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 38

cp "$(dirname "$0")/fixtures/t.c" "$tmp/t.c"
# the other build: other code before t_leaf, so other offsets
sed 's/x \* 3/x * 5 + 2/; s/s += t_leaf(i)/s -= t_leaf(i) * i/' \
	"$tmp/t.c" > "$tmp/t2.c"

# build ID: a build-id note or none; makes $tmp/ID/{ref,good/t,stale/t}
build() {
	local id=$1 opt=$2 d=$tmp/$1
	mkdir -p "$d/good" "$d/stale"
	gcc -O1 -g "$opt" -o "$d/ref" "$tmp/t.c"
	cp "$d/ref" "$d/good/t"
	objcopy --only-keep-debug "$d/good/t" "$d/good/t.debug"
	strip --strip-debug "$d/good/t"
	objcopy --add-gnu-debuglink="$d/good/t.debug" "$d/good/t"
	cp "$d/good/t" "$d/stale/t"
	gcc -O1 -g "$opt" -o "$d/t2" "$tmp/t2.c"
	objcopy --only-keep-debug "$d/t2" "$d/stale/t.debug"
}
build bid -Wl,--build-id
build nobid -Wl,--build-id=none
# a stale file at the first place the link is looked for, the right one
# at the next (DIR/.debug/NAME): the stale one must not hide it
for id in bid nobid; do
	mkdir -p "$tmp/$id/both/.debug"
	cp "$tmp/$id/stale/t" "$tmp/$id/stale/t.debug" "$tmp/$id/both/"
	cp "$tmp/$id/good/t.debug" "$tmp/$id/both/.debug/"
done

# as_ref ID BIN PROBE [OPTION]: -D PROBE on BIN (with OPTION) gives the
# offset it gives on ref
as_ref() {
	local d=$tmp/$1
	local -a opt=("${@:4}")
	run_probe "$OURS" "$tmp/r" -q -x "$d/ref" -D "$3"
	run_probe "$OURS" "$tmp/o" -q "${opt[@]}" -x "$d/$2" -D "$3"
	same_offset "$1 $2 ${opt[*]} -D '$3'" "$(probe_offset "$tmp/r")" "$tmp/o" \
		"as the unstripped file"
}

# a stale distro debuginfo file (/usr/lib/debug/PATH.debug, here under
# --symfs), which the DWARF lookup tries before the file's own link
for id in bid nobid; do
	mkdir -p "$tmp/root/usr/lib/debug$tmp/$id/good"
	cp "$tmp/$id/stale/t.debug" "$tmp/root/usr/lib/debug$tmp/$id/good/t.debug"
done
# and one for a program with its own DWARF but neither a build-id nor a
# .gnu_debuglink, which nothing can check: its own DWARF wins
cp "$tmp/nobid/stale/t.debug" "$tmp/root/usr/lib/debug$tmp/nobid/ref.debug"
for p in t_leaf t_loop; do
	as_ref nobid ref "$p" --symfs="$tmp/root"
done
# a program without DWARF, build-id or link, whose only symbols are its
# own .symtab: a distro debug file of another build under --symfs cannot
# be told from one of its build, and is not used
mkdir -p "$tmp/plain" "$tmp/root/usr/lib/debug$tmp/plain"
gcc -O1 -Wl,--build-id=none -o "$tmp/plain/ref" "$tmp/t.c"
gcc -O1 -Wl,--build-id=none -o "$tmp/plain/t2" "$tmp/t2.c"
objcopy --only-keep-debug "$tmp/plain/t2" "$tmp/root/usr/lib/debug$tmp/plain/ref.debug"
for p in t_leaf t_loop; do
	as_ref plain ref "$p" --symfs="$tmp/root"
done
# a miss loads the symbols twice (the second time to suggest names): the
# file not used is named once
run_probe "$OURS" "$tmp/m" --symfs="$tmp/root" -x "$tmp/plain/ref" -D t_nosuch
check "a miss names the debug file not used once ($(grep -c 'Not using' "$tmp/m.err" || true))" \
	test "$(grep -c 'Not using' "$tmp/m.err")" -eq 1

# the same program stripped of all symbols, with the right distro debug
# file: there is nothing else to use, and it is used
mkdir -p "$tmp/nosyms" "$tmp/root/usr/lib/debug$tmp/nosyms" "$tmp/root$tmp/nosyms"
cp "$tmp/plain/ref" "$tmp/nosyms/ref"
cp "$tmp/plain/ref" "$tmp/nosyms/t"
objcopy --only-keep-debug "$tmp/nosyms/t" "$tmp/root/usr/lib/debug$tmp/nosyms/t.debug"
strip -s "$tmp/nosyms/t"
cp "$tmp/nosyms/t" "$tmp/root$tmp/nosyms/t"
for p in t_leaf t_loop; do
	as_ref nosyms t "$p" --symfs="$tmp/root"
done

# a static program (no .dynsym in any file) without DWARF, stripped, its
# symbols in the debug file its link names: the offsets are the program's,
# not those of the debug file's program headers
mkdir -p "$tmp/static"
gcc -O1 -static -o "$tmp/static/ref" "$tmp/t.c"
cp "$tmp/static/ref" "$tmp/static/t"
objcopy --only-keep-debug "$tmp/static/t" "$tmp/static/t.debug"
strip "$tmp/static/t"
objcopy --add-gnu-debuglink="$tmp/static/t.debug" "$tmp/static/t"
for p in t_leaf t_loop; do
	as_ref static t "$p"
done

run_probe "$OURS" "$tmp/w" --symfs="$tmp/root" -x "$tmp/bid/good/t" -D t_leaf
check "a stale distro debuginfo file is not used, with a warning that says so" \
	grep -q "Not using .*/usr/lib/debug$tmp/bid/good/t.debug: it is the debuginfo of another build" "$tmp/w.err"
for id in bid nobid; do
	for p in t_leaf t_loop; do
		as_ref "$id" good/t "$p" --symfs="$tmp/root"
	done
	for b in good/t stale/t both/t; do
		for p in t_leaf 't_leaf%return' t_loop helper; do
			as_ref "$id" "$b" "$p"
		done
	done
done
done_testing
