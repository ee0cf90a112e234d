#!/bin/bash
# Prepare the source trees under build/:
#   build/src/linux-source-6.1   stock: the pristine extract of Debian's tarball
#   build/fork/linux             fork: a git working copy of stock, minus the files
#                                in kernel-patches/replaces, plus our two series
# The fork tree is re-made when the series, a patch or the replaces list changes.
# It refuses to throw away work: uncommitted changes, or commits not exported
# with `make export-patches`, stop it with a message.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
tarball=/usr/src/linux-source-6.1.tar.xz
stock=$build/src/linux-source-6.1
base=$build/src/base.git
fork=$build/fork/linux
stamp=$build/fork/prepared

inputs_hash() {
	(cd "$top" && cat kernel-patches/series kernel-patches/replaces \
		tools-perf-patches/series &&
	 for p in $(series_files); do cat "$p"; done) | sha256sum | cut -d' ' -f1
}

series_files() {
	local dir name
	for dir in kernel-patches tools-perf-patches; do
		sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/$dir/series" |
		while read -r name; do
			printf '%s\n' "$dir/$name"
		done
	done
}

if [ ! -f "$stock/.extracted" ]; then
	echo "PREPARE extracting $tarball (stock tree)"
	rm -rf "$stock"
	mkdir -p "$build/src"
	tar -xJf "$tarball" -C "$build/src"
	touch "$stock/.extracted"
fi

if [ ! -f "$base/committed" ]; then
	echo "PREPARE recording the stock tree in $base (once)"
	rm -rf "$base"
	git init -q --bare "$base"
	export GIT_DIR="$base" GIT_WORK_TREE="$stock"
	git add -A -f .
	git rm -q --cached .extracted
	git -c user.name=perf-uprobes -c user.email=perf-uprobes@localhost \
		commit -q -m "linux-source-6.1 (Debian) as extracted"
	git tag stock
	unset GIT_DIR GIT_WORK_TREE
	touch "$base/committed"
fi

want=$(inputs_hash)
if [ "${1:-}" = --stamp-only ]; then
	echo "$want" > "$stamp"
	exit 0
fi
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -d "$fork/.git" ]; then
	exit 0
fi

if [ -d "$fork/.git" ] && [ "${FORCE:-0}" != 1 ]; then
	if [ -n "$(git -C "$fork" status --porcelain)" ]; then
		echo "prepare-tree: $fork has uncommitted changes; commit and run" \
		     "'make export-patches', or FORCE=1 to discard them" >&2
		exit 1
	fi
	if git -C "$fork" rev-parse -q --verify applied >/dev/null &&
	   [ "$(git -C "$fork" rev-parse HEAD)" != "$(git -C "$fork" rev-parse applied)" ]; then
		echo "prepare-tree: $fork has commits not exported; run" \
		     "'make export-patches', or FORCE=1 to discard them" >&2
		exit 1
	fi
fi

echo "PREPARE fork tree $fork"
if [ -d "$fork/.git" ]; then
	# Reset rather than re-clone: files that do not change keep their
	# modification times, so the next kernel build recompiles only what the
	# new series touches.
	cd "$fork"
	git am --abort >/dev/null 2>&1 || true
	git checkout -q -f --detach upstream
	git clean -q -fdx
	git branch -q -f fork upstream
	git checkout -q fork
else
	rm -rf "$fork"
	mkdir -p "$(dirname "$fork")"
	git clone -q --shared "$base" "$fork"
	cd "$fork"
	git config user.name perf-uprobes
	git config user.email perf-uprobes@localhost
	git tag -f upstream >/dev/null
	git checkout -q -b fork
fi

removed=0
while read -r path; do
	path=${path%%#*}
	path=$(printf '%s' "$path" | tr -d '[:space:]')
	[ -n "$path" ] || continue
	git rm -q -- "$path"
	removed=1
done < "$top/kernel-patches/replaces"
if [ "$removed" = 1 ]; then
	git commit -q -m "perf-uprobes: remove the upstream files our series replaces"
fi
git tag -f base >/dev/null

for patch in $(series_files); do
	echo "PREPARE   applying $patch"
	git am -q --whitespace=nowarn "$top/$patch"
done
git tag -f applied >/dev/null
echo "$want" > "$stamp"
