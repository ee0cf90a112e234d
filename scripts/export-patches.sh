#!/bin/bash
# Regenerate kernel-patches/ and tools-perf-patches/ from the fork tree's
# commits after the "base" tag: a commit touching only tools/perf/ and the
# libraries perf is built from (tools/lib/) belongs to the perf series, every
# other one to the kernel series.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
fork=$top/build/fork/linux
cd "$fork"
if [ -n "$(git status --porcelain)" ]; then
	echo "export-patches: commit your changes in $fork first" >&2
	exit 1
fi

for dir in kernel-patches tools-perf-patches; do
	rm -f "$top/$dir"/*.patch
	: > "$top/$dir/series"
done

knr=0
pnr=0
for commit in $(git rev-list --reverse base..HEAD); do
	if git diff-tree --no-commit-id --name-only -r "$commit" | grep -qvE '^tools/(perf|lib)/'; then
		dir=kernel-patches
		knr=$((knr + 1))
		nr=$knr
	else
		dir=tools-perf-patches
		pnr=$((pnr + 1))
		nr=$pnr
	fi
	file=$(git format-patch --start-number "$nr" -o "$top/$dir" -1 "$commit")
	basename "$file" >> "$top/$dir/series"
done
git tag -f applied >/dev/null
"$top/scripts/prepare-tree.sh" --stamp-only
echo "exported $knr kernel and $pnr perf patches"
