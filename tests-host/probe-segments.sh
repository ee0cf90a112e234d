#!/bin/bash
# One address conversion for the DWARF and the symbol paths: a file offset
# is an address less the bias of the PT_LOAD segment that holds it.  Here
# far_fn sits in a section of its own, linked at 0x40000000 in a segment
# of its own, whose bias is not .text's: stock perf, and ours before,
# converted DWARF addresses with .text's bias and gave 0x40000000, past
# the end of the file, while the symbol path (a copy without DWARF) gave
# the right offset.
#
# Usage: probe-segments.sh   (env: OURS)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 6

cat > "$tmp/far.c" <<'CC'
__attribute__((noinline, section("far_text"))) int far_fn(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int near_fn(int x)
{
	return x + 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	return far_fn(argc) + near_fn(argc);
}
CC
gcc -O1 -g -Wl,--section-start=far_text=0x40000000 -o "$tmp/far" "$tmp/far.c"
cp "$tmp/far" "$tmp/far.nodwarf"
strip -g "$tmp/far.nodwarf"

# offset FUNC: its file offset by the segments readelf shows
offset() {
	local value
	value=$(readelf -sW "$tmp/far" | awk -v f="$1" '$8 == f { print $2; exit }')
	readelf -lW "$tmp/far" | awk -v v="$((16#$value))" '
		$1 == "LOAD" && v >= strtonum($3) && v < strtonum($3) + strtonum($6) {
			printf "0x%x\n", v - (strtonum($3) - strtonum($2)); exit }'
}

# at BIN PROBE FUNC: -D PROBE on BIN puts the probe at FUNC's offset
at() {
	run_probe "$OURS" "$tmp/o" -q -x "$tmp/$1" -D "$2"
	same_offset "$1 -D '$2'" "$(offset "$3")" "$tmp/o" \
		"the offset of the segment that holds it"
}

at far far_fn far_fn
at far 'far_fn x' far_fn
at far 'far_fn%return' far_fn
at far near_fn near_fn
at far.nodwarf far_fn far_fn
check "far_fn is in a segment of its own (the fixture is what it should be)" \
	test "$(offset far_fn)" != "$(offset near_fn)" -a "$(offset far_fn)" = 0x4000
done_testing
