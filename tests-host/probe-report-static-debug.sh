#!/bin/bash
# perf report of a stripped static program whose symbols are in a
# separate debug file (.gnu_debuglink).  A static program has no .dynsym,
# so perf took the debug file for its runtime image too, and placed the
# symbols through the debug file's program headers: every sample was
# named after the wrong symbol (stock: "step2_jumps.7+0xff...c00026" for
# a program spinning in spin_here).  Ours must name the samples as the
# unstripped program does.  And a dynamic program must still take its
# own file for its code, even when a file without a .dynsym that holds
# code (here another, static program) is found first at a distro debug
# path (a first version of the fix took that one: no symbol).
#
# Usage: probe-report-static-debug.sh   (env: OURS, STOCK)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 3
cat > "$tmp/s.c" <<'C'
volatile unsigned long sink;
void __attribute__((noinline)) spin_here(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i;
}
int main(void)
{
	spin_here(100000000UL);
	return 0;
}
C
mkdir -p "$tmp/ref" "$tmp/run"
gcc -O1 -static -o "$tmp/ref/s" "$tmp/s.c"
cp "$tmp/ref/s" "$tmp/run/s"
objcopy --only-keep-debug "$tmp/run/s" "$tmp/run/s.debug"
strip "$tmp/run/s"
objcopy --add-gnu-debuglink="$tmp/run/s.debug" "$tmp/run/s"

if ! "$STOCK" record -q -N -e cpu-clock:u -o "$tmp/s.data" "$tmp/run/s" > /dev/null 2>&1; then
	for i in 1 2 3; do result 0 "# SKIP perf record is not allowed here ($i)"; done
	done_testing
	exit
fi
# report_syms PERF: the samples by symbol, from the program's file (the
# rows: perf's random "Tip:" comment line may hold a % too)
report_syms() {
	"$1" report -i "$tmp/s.data" --stdio --sort sym 2> /dev/null |
		grep -v '^#' | grep '%' || true
}
report_syms "$OURS" > "$tmp/ours"
# the reference: the unstripped program in the stripped one's place
cp "$tmp/run/s" "$tmp/stripped"
cp "$tmp/ref/s" "$tmp/run/s"
report_syms "$STOCK" > "$tmp/ref.txt"
cp "$tmp/stripped" "$tmp/run/s"

check "samples in $(awk '{ print $NF; exit }' "$tmp/ours"), as in the unstripped program" \
	grep -q ' spin_here$' "$tmp/ours"
check "the whole report is the unstripped program's ($(wc -l < "$tmp/ref.txt") lines)" \
	cmp -s "$tmp/ref.txt" "$tmp/ours"

# a stripped dynamic program without build-id, its functions in .dynsym;
# under --symfs, the stripped static program at /usr/lib/debug/PATH
mkdir -p "$tmp/dyn"
gcc -O1 -rdynamic -Wl,--build-id=none -o "$tmp/dyn/d" "$tmp/s.c"
strip "$tmp/dyn/d"
"$STOCK" record -q -N -e cpu-clock:u -o "$tmp/d.data" "$tmp/dyn/d" > /dev/null 2>&1
root=$tmp/root
mkdir -p "$root$tmp/dyn" "$root/usr/lib/debug$tmp/dyn"
cp "$tmp/dyn/d" "$root$tmp/dyn/d"
cp "$tmp/run/s" "$root/usr/lib/debug$tmp/dyn/d"
"$OURS" report -i "$tmp/d.data" --symfs="$root" --stdio --sort sym 2> /dev/null |
	grep -v '^#' | grep '%' > "$tmp/dyn.ours" || true
check "a dynamic program with a static one at its debug path: $(awk '{ print $NF; exit }' "$tmp/dyn.ours")" \
	grep -q ' spin_here$' "$tmp/dyn.ours"
done_testing
