#!/bin/bash
# perf report names a sample in a symbol nested in another (big holding
# inner) by the first symbol holding it on symbols__find()'s path from
# the root, so the tree's shape matters, not only its order: our loader
# creates user-space symbols in address order but must insert them in
# table order, as stock does.  Static programs whose .symtab lists big,
# inner and a few other functions in shuffled orders, each profiled once
# with stock perf: ours must report each profile as stock does.
#
# Usage: probe-report-overlap.sh   (env: OURS, STOCK)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

layouts=12
plan "$layouts"
# layout SEED: a program spinning in inner, nested in big, with the
# functions' .symtab order shuffled by SEED
layout() {
	python3 - "$1" <<'PY'
import random, sys
random.seed(int(sys.argv[1]))
n = random.randint(3, 200)
names = ['f%03d' % i for i in range(n)]
pos = random.randint(0, n)
decl = names + ['big', 'inner']
random.shuffle(decl)
out = ['.text'] + ['.type %s,@function' % s for s in decl]
out.append('.globl _start\n.type _start,@function\n_start:\n'
           ' mov $30000000, %rcx\n1: call inner\n dec %rcx\n jnz 1b\n'
           ' mov $60, %eax\n xor %edi, %edi\n syscall\n.size _start, .-_start')
out += ['%s: ret\n.size %s, 1' % (s, s) for s in names[:pos]]
out.append('big:\n nop\n nop\ninner:\n nop\n nop\n ret\n.size inner, .-inner\n'
           ' nop\n ret\n.size big, .-big')
out += ['%s: ret\n.size %s, 1' % (s, s) for s in names[pos:]]
print('\n'.join(out))
PY
}

for seed in $(seq "$layouts"); do
	layout "$seed" > "$tmp/p$seed.s"
	gcc -static -nostdlib -o "$tmp/p$seed" "$tmp/p$seed.s"
	if ! "$STOCK" record -q -e cpu-clock:u -o "$tmp/p$seed.data" \
		"$tmp/p$seed" > /dev/null 2>&1; then
		echo "ok $((tap_count + 1)) - layout $seed # SKIP perf record is not allowed here"
		tap_count=$((tap_count + 1))
		continue
	fi
	for who in OURS STOCK; do
		"${!who}" report -i "$tmp/p$seed.data" --stdio --sort sym 2> /dev/null |
			grep '%' > "$tmp/p$seed.$who" || true
	done
	check "layout $seed: $(awk '$NF == "big" || $NF == "inner" { print $1, $NF; exit }' \
		"$tmp/p$seed.STOCK") as stock" \
		cmp -s "$tmp/p$seed.STOCK" "$tmp/p$seed.OURS"
done
done_testing
