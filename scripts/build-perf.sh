#!/bin/bash
# Build perf from a tree's tools/perf and install it under DEST/usr.
#   build-perf.sh SRC_TREE OBJ_DIR DEST [python]
# "python" builds it with libpython, for perf script's Python scripts (the
# flame graph report of make demo); the guest's perf has no Python.
set -eu

src=$1
obj=$2
dest=$3
python=${4:-}
python_opts=(NO_LIBPYTHON=1)
features="libelf dwarf libunwind libslang"
if [ "$python" = python ]; then
	# Debian's (python3-dev), not the first python3-config in $PATH
	python_opts=(PYTHON=/usr/bin/python3 PYTHON_CONFIG=/usr/bin/python3-config)
	features="$features libpython"
fi
mkdir -p "$obj"
echo "PERF building $src/tools/perf into $obj"
start=$(date +%s)
# Start-up is a good part of a short perf command (perf probe -D is over in
# tens of ms), and most of start-up is page faults: packed relative
# relocations (DT_RELR) spare reading 460 KB of RELA entries, and without
# libcrypto (only MD5 build-ids of JIT dumps, random ids instead) its
# relocations go too; together 443 -> 317 faults for `perf --version`.
make -C "$src/tools/perf" O="$obj" CC="ccache gcc" -j"$(($(nproc) + 1))" \
	"${python_opts[@]}" NO_LIBPERL=1 NO_JVMTI=1 NO_LIBBABELTRACE=1 NO_LIBLLVM=1 \
	NO_LIBCRYPTO=1 EXTRA_CFLAGS="-Wl,-z,pack-relative-relocs" \
	prefix=/usr DESTDIR="$dest" install-bin > "$obj/build.log" 2>&1 || {
	grep -E -B2 -A8 'error|Error' "$obj/build.log" | head -n 60
	echo "PERF build failed; full log in $obj/build.log" >&2
	exit 1
}
for feature in $features; do
	"$obj/perf" version --build-options | grep -Eq "^ +$feature: \[ on +\]" || {
		echo "PERF was built without $feature" >&2
		exit 1
	}
done
echo "PERF done in $(( $(date +%s) - start ))s"
