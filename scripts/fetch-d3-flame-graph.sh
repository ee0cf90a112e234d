#!/bin/bash
# The flame graph template of perf's flame graph report, from the npm
# registry's d3-flame-graph at a pinned version, checked against its sha256.
#   fetch-d3-flame-graph.sh VERSION SHA256 DEST_DIR
# leaves DEST_DIR/d3-flamegraph-base.html (one file, its scripts inline: a
# flame graph made from it opens from disk, without a network) and the
# stamp DEST_DIR/.version-VERSION.  5.0.0 no longer ships the template.
set -eu

version=$1
sha256=$2
dest=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the tarball npm itself would fetch ("npm pack d3-flame-graph@VERSION"),
# without needing npm
url=https://registry.npmjs.org/d3-flame-graph/-/d3-flame-graph-$version.tgz
tgz=$tmp/d3-flame-graph-$version.tgz
echo "D3-FLAME-GRAPH $version from $url"
curl -fsSL --retry 3 -o "$tgz" "$url"
echo "$sha256  $tgz" | sha256sum -c --quiet || {
	echo "fetch-d3-flame-graph.sh: d3-flame-graph-$version.tgz is not the one pinned" >&2
	exit 1
}
tar -xzf "$tgz" -C "$tmp" package/dist/templates/d3-flamegraph-base.html
mkdir -p "$dest"
# whole or not at all: make takes the stamp for the file being there
cp "$tmp/package/dist/templates/d3-flamegraph-base.html" "$dest/.d3-flamegraph-base.html.tmp"
mv "$dest/.d3-flamegraph-base.html.tmp" "$dest/d3-flamegraph-base.html"
rm -f "$dest"/.version-*
touch "$dest/.version-$version"
