#!/bin/bash
# A symbol table or PLT relocation section whose sh_entsize is 0: perf
# divided by it (SIGFPE, in stock too).  perf probe -F and -D on such a
# file must end with an exit status, not a signal.
#
# Usage: probe-bad-symtab.sh   (env: OURS, STOCK)
set -eu
# shellcheck source=tests-host/lib.sh
. "$(dirname "$0")/lib.sh"

plan 4
# zero_entsize FILE SECTION: set SECTION's sh_entsize in FILE to 0
zero_entsize() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
f = open(sys.argv[1], 'r+b')
elf = f.read()
shoff, = struct.unpack_from('<Q', elf, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', elf, 0x3a)
strtab, = struct.unpack_from('<Q', elf, shoff + shstrndx * shentsize + 0x18)
for i in range(shnum):
    sh = shoff + i * shentsize
    name, = struct.unpack_from('<I', elf, sh)
    end = elf.index(b'\0', strtab + name)
    if elf[strtab + name:end].decode() == sys.argv[2]:
        f.seek(sh + 0x38)
        f.write(struct.pack('<Q', 0))
        sys.exit(0)
sys.exit(1)
PY
}

# no build-id: no copy of it in a build-id cache to read instead
# lived STATUS: whether exit status STATUS is not that of a fatal signal
lived() {
	case $1 in
	132 | 134 | 135 | 136 | 139) return 1 ;;
	*) return 0 ;;
	esac
}

gcc -O1 -Wl,--build-id=none -o "$tmp/t" "$(dirname "$0")/fixtures/t.c"
for section in .symtab .rela.plt; do
	cp "$tmp/t" "$tmp/t$section"
	zero_entsize "$tmp/t$section" "$section"
	run_probe "$OURS" "$tmp/f" -q -x "$tmp/t$section" -F
	check "-F, $section sh_entsize 0: exit $(cat "$tmp/f.rc"), no signal" \
		lived "$(cat "$tmp/f.rc")"
	run_probe "$OURS" "$tmp/d" -q -x "$tmp/t$section" -D t_leaf
	check "-D t_leaf, $section sh_entsize 0: exit $(cat "$tmp/d.rc"), no signal" \
		lived "$(cat "$tmp/d.rc")"
done
done_testing
