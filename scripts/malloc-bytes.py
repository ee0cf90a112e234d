# SPDX-License-Identifier: GPL-2.0
# Bytes asked of malloc(), calloc() and realloc(), by call stack: a perf
# script for the perf.data of perf-tests/malloc-profile.sh (probes with the
# size arguments, recorded with -g).
#
#   perf script -i perf.data -s malloc-bytes.py -- \
#       --template d3-flamegraph-base.html -o flamegraph-bytes.html \
#       [--table FILE] [--stacks FILE] [--top 10]
#
# writes a flame graph whose frame widths are bytes, in the tree and the
# template of perf's flame graph report (scripts/python/flamegraph.py), and
# prints the stacks that ask for the most bytes (--stacks: all of them, as
# "BYTES<tab>CALLS<tab>STACK").  A stack's innermost frame is named after
# the function probed (glibc names calloc __libc_calloc).
#
# A request counts once.  glibc's realloc() calls malloc() for realloc(NULL,
# n), with a jump: that malloc() hit follows the realloc() hit on the same
# thread, with the same size and the same callers (or those less the
# first), and is left out; and with a call when it moves a block: a
# malloc() hit right after a realloc() hit on its thread, called from
# realloc(), is left out too.

import argparse
import io
import json
import os
import re
import sys

# what the template's script must not see inside a string: "</script>"
JSON_ESCAPES = {ord("<"): "\\u003c"}

REALLOC_NAMES = ("realloc", "__libc_realloc")

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
        self.last_realloc = {}  # tid -> (ptr, size, callers) of a realloc()
                                # hit that was the thread's last hit
        self.left_out = 0
        self.missing = None     # an event recorded without its arguments

    def event(self, name, fields, sample):
        size_of = SIZE_OF.get(name)
        if size_of is None:
            return
        tid = sample["sample"]["tid"]
        try:
            size = size_of(fields)
            ptr = fields["ptr"] if name == "probe_libc__realloc" else None
        except KeyError as err:
            self.missing = (name, err.args[0])
            return
        func = name.split("__", 1)[1]
        chain = sample.get("callchain") or []
        callers = tuple(entry.get("sym", {}).get("name", "[unknown]")
                        for entry in chain[1:])

        last = self.last_realloc.pop(tid, None)
        if func == "malloc" and self.made_by_realloc(last, size, callers):
            self.left_out += 1
            return
        if func == "realloc":
            self.last_realloc[tid] = (ptr, size, callers)

        self.calls[func] = self.calls.get(func, 0) + 1
        self.total += size
        names = (func,) + callers
        row = self.stacks.setdefault(names, [0, 0])
        row[0] += size
        row[1] += 1

        node = self.root.child("{} ({})".format(sample["comm"],
                                                sample["sample"]["pid"]), "")
        for frame in reversed(names):
            node = node.child(frame, "")
        node.value += size

    @staticmethod
    def made_by_realloc(last, size, callers):
        """Is this malloc() hit part of the realloc() hit just before it?"""
        if last is None:
            return False
        ptr, realloc_size, realloc_callers = last
        if ptr != 0:
            # a block moved: realloc() calls malloc() itself
            return bool(callers) and callers[0] in REALLOC_NAMES
        if realloc_size != size:
            return False

        # realloc(NULL, n) jumps to malloc(), so the caller at the top of
        # the stack is realloc()'s; a kernel that checks it for a call of
        # malloc() leaves it out (ours, and stock, which always does), and
        # a chain at perf's stack limit then holds one frame more: the two
        # must agree where both have frames
        def agree(a, b):
            n = min(len(a), len(b))
            return a[:n] == b[:n]
        return agree(callers, realloc_callers) or agree(callers, realloc_callers[1:])

    def rows(self):
        return sorted(self.stacks.items(), key=lambda r: (-r[1][0], r[0]))

    def table(self):
        out = ["{} bytes in {} calls ({})".format(
            self.total, sum(self.calls.values()),
            ", ".join("{} {}".format(f, n) for f, n in sorted(self.calls.items())))]
        if self.left_out:
            out.append("{} malloc() calls made by realloc() counted once, "
                       "as realloc()".format(self.left_out))
        out.append("top {} stacks by bytes (innermost first):".format(self.args.top))
        out.append("{:>10} {:>6} {:>6}  stack".format("bytes", "%", "calls"))
        for names, (size, calls) in self.rows()[:self.args.top]:
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
        if not self.calls:
            sys.stderr.write("malloc-bytes.py: no hit of probe_libc:malloc, "
                             "calloc or realloc in the data\n")
            sys.stderr.flush()
            os._exit(1)
        table = self.table()
        sys.stdout.write(table)
        try:
            if self.args.table:
                with io.open(self.args.table, "w", encoding="utf-8") as out:
                    out.write(table)
            if self.args.stacks:
                with io.open(self.args.stacks, "w", encoding="utf-8") as out:
                    for names, (size, calls) in self.rows():
                        out.write("{}\t{}\t{}\n".format(size, calls,
                                                        ";".join(names)))
            if self.args.output:
                self.write_html(table)
        except IOError as err:
            sys.stderr.write("malloc-bytes.py: {}\n".format(err))
            sys.stderr.flush()
            os._exit(1)

    def write_html(self, table):
        fill = {
            "/** @options_json **/": json.dumps({
                "colorscheme": "blue-green",
                "context": "Bytes asked of malloc, calloc and realloc, by "
                           "call stack: a frame's width is its bytes (shown "
                           "as \"samples\").\n\n" + table,
            }).translate(JSON_ESCAPES),
            "/** @flamegraph_json **/": json.dumps(
                self.root, default=lambda f: f.to_json()).translate(JSON_ESCAPES),
        }
        with io.open(self.args.template, encoding="utf-8") as template:
            text = template.read()
        # one pass: a name holding a placeholder's text is not filled in
        pattern = "|".join(re.escape(mark) for mark in fill)
        with io.open(self.args.output, "w", encoding="utf-8") as out:
            out.write(re.sub(pattern, lambda m: fill[m.group(0)], text))


parser = argparse.ArgumentParser(
    description="Bytes asked of malloc, calloc and realloc, by call stack.")
parser.add_argument("--template", help="d3-flame-graph's d3-flamegraph-base.html")
parser.add_argument("-o", "--output", help="the flame graph HTML to write")
parser.add_argument("--table", help="also write the table to this file")
parser.add_argument("--stacks", help="write every stack to this file")
parser.add_argument("--top", type=int, default=10, help="stacks in the table")
cli_args = parser.parse_args()
if cli_args.output and not cli_args.template:
    parser.error("-o needs --template")
cli = MallocBytes(cli_args)


def trace_unhandled(event_name, context, fields, perf_sample_dict):
    cli.event(event_name, fields, perf_sample_dict)


def trace_end():
    cli.end()
