#!/bin/bash
# Build the guest's second disk: an ext4 image of the tracing clients that
# are too big for the initramfs (bpftrace loads LLVM and clang, ~200 MB;
# gdb needs Python's standard library), at their host paths.
#
#   mkclients.sh OUT.img
#
# The guest mounts it read-only at /clients and links what it lacks into
# its own tree (qemu/init).  Made from the host's Debian packages (make
# deps installs them); rebuilt when this script changes.
set -eu

out=$1
top=$(cd "$(dirname "$0")/.." && pwd)
stage=$out.d

rm -rf "$stage"
mkdir -p "$stage"
# shellcheck source=qemu/stage-lib.sh
. "$top/qemu/stage-lib.sh"

echo "CLIENTS bpftrace, bpftool, gdb"
for tool in /usr/bin/bpftrace /usr/sbin/bpftool /usr/bin/gdb; do
	[ -x "$tool" ] || { echo "mkclients.sh: $tool is missing (make deps)" >&2; exit 1; }
	add "$tool"
done
echo "CLIENTS Python's standard library for gdb, gdb's data"
add_tree /usr/lib/python3.11 -not -path '*/test/*' -not -path '*/tests/*' \
	-not -path '*/idlelib/*' -not -path '*/tkinter/*' -not -path '*/ensurepip/*'
add_tree /usr/share/gdb

echo "CLIENTS packing $out"
size_mb=$(du -sm "$stage" | cut -f1)
rm -f "$out.tmp"
truncate -s "$((size_mb * 5 / 4 + 64))M" "$out.tmp"
mkfs.ext4 -q -F -L pu-clients -d "$stage" "$out.tmp"
mv "$out.tmp" "$out"
rm -rf "$stage"
du -sh --apparent-size "$out"
