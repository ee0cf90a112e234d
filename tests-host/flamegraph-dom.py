#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# flamegraph-dom.py DOM_FILE: what a d3-flame-graph page shows after its
# scripts ran (headless Chromium's --dump-dom), one line per function:
#   NAME PERCENT
# PERCENT is the share of the root frame's width that the function's frames
# cover.  Frames of one name are merged as intervals, so a function met on
# several paths counts each path once and a recursive one is not counted
# twice: the share of the samples whose stack passes through it, what
# perf report --children says.  No frame drawn: nothing printed, exit 1.
import sys
from html.parser import HTMLParser


class Frames(HTMLParser):
    def __init__(self):
        super().__init__()
        self.frames = []    # (name, x, width)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag != "g" or "frame" not in (a.get("class") or "").split():
            return
        x = 0.0
        transform = a.get("transform") or ""
        if transform.startswith("translate("):
            x = float(transform[len("translate("):].split(",")[0])
        self.frames.append((a.get("name", ""), x, float(a.get("width", 0))))


def main():
    parser = Frames()
    with open(sys.argv[1], encoding="utf-8") as f:
        parser.feed(f.read())
    roots = [w for name, x, w in parser.frames if name == "all"]
    if not roots or len(parser.frames) < 2:
        return 1
    total = roots[0]
    spans = {}
    for name, x, w in parser.frames:
        spans.setdefault(name, []).append((x, x + w))
    for name in sorted(spans):
        covered, end = 0.0, None
        for lo, hi in sorted(spans[name]):
            if end is None or lo > end:
                covered += hi - lo
                end = hi
            elif hi > end:
                covered += hi - end
                end = hi
        print("{} {:.3f}".format(name.replace(" ", "_"), 100.0 * covered / total))
    return 0


sys.exit(main())
