#!/bin/bash
# The files our kernel series writes in place of upstream's keep their
# licence and their copyright lines (issue 35): for each file the series
# replaces (kernel-patches/replaces) and kernel/trace/trace_uprobe.c, the
# fork tree's SPDX line is stock's, and every holder and author that
# stock's header names is named in the fork's header.
# Env: FORK_SRC, STOCK_SRC (the trees make prepare makes).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
# shellcheck source=tests-host/lib.sh
. "$here/lib.sh"
FORK_SRC=${FORK_SRC:-$top/build/fork/linux}
STOCK_SRC=${STOCK_SRC:-$top/build/src/linux-source-6.1}

files=$(sed 's/#.*//' "$top/kernel-patches/replaces" | awk 'NF')
files="$files kernel/trace/trace_uprobe.c"
plan $(($(echo "$files" | wc -w) * 2))

# header FILE: the file's first lines, where its copyright lines are
header() {
	head -n 20 "$1"
}

# names FILE: one line per copyright holder or author in FILE's header:
# what follows "Copyright (C) [years]" (without the years), and the name
# on an "Author:" line or on the lines after "Authors:"
names() {
	header "$1" | awk '
		# a comment line: " * text"; anything else ends a list of authors
		!/^[ \t]*\*([ \t]|$)/ { authors = 0; next }
		{ sub(/^[ \t]*\*[ \t]*/, "") }
		/Copyright/ {
			sub(/.*Copyright \([Cc]\)[ \t]*/, "")
			sub(/^[0-9]+(-[0-9]+)?,?[ \t]*/, ""); sub(/,?[ \t]*[0-9]+(-[0-9]+)?$/, "")
			n = split($0, part, /, (Inc\.,? )?|: /)
			for (i = 1; i <= n; i++) if (part[i] != "") print part[i]
			authors = 0; next
		}
		/^Authors?:/ { sub(/^Authors?:[ \t]*/, ""); authors = 1; if ($0 == "") next }
		!NF { authors = 0 }
		authors { sub(/[ \t]*<.*/, ""); if ($0 != "") print $0 }'
}

for f in $files; do
	spdx_stock=$(head -n 1 "$STOCK_SRC/$f")
	spdx_fork=$(head -n 1 "$FORK_SRC/$f")
	status=0
	[ -n "$spdx_stock" ] && [ "$spdx_fork" = "$spdx_stock" ] || status=1
	result $status "$f: stock's licence line ($spdx_stock), ours: $spdx_fork"
	missing=
	while IFS= read -r who; do
		header "$FORK_SRC/$f" | grep -qF "$who" || missing="$missing${missing:+, }$who"
	done < <(names "$STOCK_SRC/$f")
	status=0
	[ -z "$missing" ] && [ -n "$(names "$STOCK_SRC/$f")" ] || status=1
	result $status "$f: names stock's copyright holders and authors${missing:+ (missing: $missing)}"
done
done_testing
