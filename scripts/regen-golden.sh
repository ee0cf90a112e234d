#!/bin/bash
# Remake the golden copies of 72 and 73 on the stock kernel: boot stock with
# those two tests and keep what they wrote (72's normalised outcomes, 73's
# compare/ folder) as perf-tests/golden/.  Run after changing the workloads
# or the tests' command lists, then read the diff before committing it: a
# golden copy is stock's behaviour, which ours must match.
#
# Usage: regen-golden.sh BZIMAGE INITRD CLIENTS_IMG   (make golden passes them)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/golden-stock
golden=$top/perf-tests/golden

# The comparisons fail against the old copies; the outputs are what counts.
"$top/qemu/run.sh" --kernel "$1" --initrd "$2" --clients "$3" --flavour stock \
	--mode check --out "$out" --tests '7[23]-*' || true
fuzz=$out/72-uprobe-events-fuzz/outcomes.norm
compare=$out/73-uprobe-events-compare/compare
if [ ! -s "$fuzz" ] || [ ! -d "$compare" ]; then
	echo "regen-golden: the tests left no outputs in $out" >&2
	exit 1
fi
gzip -9n < "$fuzz" > "$golden/72-outcomes.txt.gz"
rm -rf "$golden/73-compare"
cp -r "$compare" "$golden/73-compare"
echo "golden copies remade from stock; review: git diff --stat $golden"
