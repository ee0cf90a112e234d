# SPDX-License-Identifier: GPL-2.0
# Bytes asked of malloc(), calloc() and realloc(), by call stack: a perf
# script for the perf.data of perf-tests/malloc-profile.sh (probes with the
# size arguments, recorded with -g).
#
#   perf script -i perf.data -s malloc-bytes.py -- \
#       --template d3-flamegraph-base.html -o flamegraph-bytes.html [--top 10]
#
# writes a flame graph whose frame widths are bytes, in the tree and the
# template of perf's flame graph report (scripts/python/flamegraph.py), and
# prints the stacks that ask for the most bytes.
#
# A request counts once: glibc's realloc(NULL, n) calls malloc(n), so a
# malloc() hit that follows, on the same thread, a realloc(NULL, n) hit of
# the same size is that request again and is left out.

import argparse
import io
import json
import os
import sys

SIZE_OF = {
    "probe_libc__malloc": lambda f: f["size"],
    "probe_libc__calloc": lambda f: f["nmemb"] * f["size"],
    "probe_libc__realloc": lambda f: f["size"],
}


class Frame:
    """A node of the flame graph: @value is the bytes of stacks ending here."""

    def __init__(self, name, libtype):
        self.name = name
        self.libtype = libtype
        self.value = 0
        self.children = {}

    def child(self, name, libtype):
        node = self.children.get(name)
        if node is None:
            node = self.children[name] = Frame(name, libtype)
        return node

    def to_json(self):
        # the keys of flamegraph.py's tree, which the template reads
        return {"n": self.name, "l": self.libtype, "v": self.value,
                "c": list(self.children.values())}


class MallocBytes:
    def __init__(self, args):
        self.args = args
        self.root = Frame("all", "root")
        self.stacks = {}        # innermost-first names -> [bytes, calls]
        self.calls = {}         # function probed -> calls
        self.total = 0
        self.realloc_null = {}  # tid -> size of its last realloc(NULL, size)
        self.left_out = 0
        self.missing = None     # an event recorded without its arguments

    def event(self, name, fields, sample):
        size_of = SIZE_OF.get(name)
        if size_of is None:
            return
        tid = sample["sample"]["tid"]
        try:
            size = size_of(fields)
        except KeyError as err:
            self.missing = (name, err.args[0])
            return
        pending = self.realloc_null.pop(tid, None)
        if name == "probe_libc__malloc" and pending == size:
            self.left_out += 1
            return
        if name == "probe_libc__realloc" and fields["ptr"] == 0:
            self.realloc_null[tid] = size

        func = name.split("__", 1)[1]
        self.calls[func] = self.calls.get(func, 0) + 1
        self.total += size
        chain = sample.get("callchain") or []
        names = tuple(entry.get("sym", {}).get("name", "[unknown]")
                      for entry in chain) or (func,)
        row = self.stacks.setdefault(names, [0, 0])
        row[0] += size
        row[1] += 1

        node = self.root.child("{} ({})".format(sample["comm"],
                                                sample["sample"]["pid"]), "")
        for frame in reversed(names):
            node = node.child(frame, "")
        node.value += size

    def table(self):
        out = ["{} bytes in {} calls ({})".format(
            self.total, sum(self.calls.values()),
            ", ".join("{} {}".format(f, n) for f, n in sorted(self.calls.items())))]
        if self.left_out:
            out.append("{} malloc() calls of realloc(NULL, n) counted once, "
                       "as realloc()".format(self.left_out))
        out.append("top {} stacks by bytes (innermost first):".format(self.args.top))
        out.append("{:>10} {:>6} {:>6}  stack".format("bytes", "%", "calls"))
        rows = sorted(self.stacks.items(), key=lambda r: (-r[1][0], r[0]))
        for names, (size, calls) in rows[:self.args.top]:
            share = 100.0 * size / self.total if self.total else 0.0
            out.append("{:>10} {:>6.2f} {:>6}  {}".format(size, share, calls,
                                                          ";".join(names)))
        return "\n".join(out) + "\n"

    def end(self):
        if self.missing:
            sys.stderr.write(
                "malloc-bytes.py: {} has no field '{}': record with "
                "perf-tests/malloc-profile.sh, whose probes have the size "
                "arguments\n".format(self.missing[0].replace("__", ":", 1),
                                      self.missing[1]))
            sys.stderr.flush()
            os._exit(1)
        table = self.table()
        sys.stdout.write(table)
        if self.args.table:
            with io.open(self.args.table, "w", encoding="utf-8") as out:
                out.write(table)
        if not self.args.output:
            return
        options = json.dumps({
            "colorscheme": "blue-green",
            "context": "Bytes asked of malloc, calloc and realloc, by call "
                       "stack: a frame's width is its bytes (shown as "
                       "\"samples\").\n\n" + table,
        })
        stacks = json.dumps(self.root, default=lambda f: f.to_json())
        try:
            with io.open(self.args.template, encoding="utf-8") as template:
                html = (template.read()
                        .replace("/** @options_json **/", options)
                        .replace("/** @flamegraph_json **/", stacks))
            with io.open(self.args.output, "w", encoding="utf-8") as out:
                out.write(html)
        except IOError as err:
            sys.exit("malloc-bytes.py: {}".format(err))


parser = argparse.ArgumentParser(
    description="Bytes asked of malloc, calloc and realloc, by call stack.")
parser.add_argument("--template", help="d3-flame-graph's d3-flamegraph-base.html")
parser.add_argument("-o", "--output", help="the flame graph HTML to write")
parser.add_argument("--table", help="also write the table to this file")
parser.add_argument("--top", type=int, default=10, help="stacks in the table")
cli_args = parser.parse_args()
if cli_args.output and not cli_args.template:
    parser.error("-o needs --template")
cli = MallocBytes(cli_args)


def trace_unhandled(event_name, context, fields, perf_sample_dict):
    cli.event(event_name, fields, perf_sample_dict)


def trace_end():
    cli.end()
