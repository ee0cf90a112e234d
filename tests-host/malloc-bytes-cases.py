#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# malloc-bytes-cases.py MALLOC_BYTES_PY TEMPLATE WORKDIR: scripts/malloc-bytes.py
# fed made-up hits, the cases a recording of malloc-graph does not hold:
# how realloc()'s own malloc() is told from the program's, calloc's
# product, a chain at perf's stack limit, and names the page must escape.
# One "ok N - ..." or "not ok N - ..." line per case.
import contextlib
import io
import os
import subprocess
import sys

script, template, work = sys.argv[1:4]
count = 0


def run(hits, html=None):
    """The table malloc-bytes.py prints for @hits, and the HTML if asked"""
    argv = ["malloc-bytes.py", "--stacks", os.path.join(work, "stacks")]
    if html:
        argv += ["--template", template, "-o", html]
    sys.argv = argv
    env = {"__name__": "__main__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(open(script).read(), script, "exec"), env)
        for func, tid, fields, chain in hits:
            sample = {"comm": "prog", "sample": {"pid": 1, "tid": tid},
                      "callchain": [{"sym": {"name": n}} for n in chain]}
            env["trace_unhandled"]("probe_libc__" + func, None, fields, sample)
        env["trace_end"]()
    return out.getvalue()


def case(desc, ok, detail=""):
    global count
    count += 1
    print("{}ok {} - {}".format("" if ok else "not ", count, desc))
    if not ok and detail:
        for line in detail.splitlines():
            print("#   " + line)


def first_line(table):
    return table.splitlines()[0] if table else ""


up = ["f", "main"]
# realloc(NULL, 40) jumps to malloc(40): the kernel leaves f out of the
# malloc hit's chain, or keeps it
for name, mchain in (("less its first caller", ["malloc", "main"]),
                     ("with the same callers", ["malloc", "f", "main"])):
    t = run([("realloc", 1, {"ptr": 0, "size": 40}, ["realloc"] + up),
             ("malloc", 1, {"size": 40}, mchain)])
    case("realloc(NULL, 40)'s own malloc(40), " + name + ", counted once",
         first_line(t).startswith("40 bytes in 1 calls (realloc 1)"), t)

# at perf's stack limit the malloc hit's chain holds one frame more
deep = ["d%d" % i for i in range(200)]
t = run([("realloc", 1, {"ptr": 0, "size": 40}, ["realloc"] + deep[:126]),
         ("malloc", 1, {"size": 40}, ["malloc"] + deep[1:127])])
case("realloc(NULL, 40) 127 frames deep, counted once",
     first_line(t).startswith("40 bytes in 1 calls (realloc 1)"), t)

# the program's own malloc(40) right after: counted
t = run([("realloc", 1, {"ptr": 0, "size": 40}, ["realloc"] + up),
         ("malloc", 1, {"size": 40}, ["malloc"] + up[1:]),
         ("malloc", 1, {"size": 40}, ["malloc"] + up)])
case("a malloc(40) of the program after realloc(NULL, 40)'s own: counted",
     first_line(t).startswith("80 bytes in 2 calls (malloc 1, realloc 1)"), t)

# another thread's malloc(40) between the two: both threads right
t = run([("realloc", 1, {"ptr": 0, "size": 40}, ["realloc"] + up),
         ("malloc", 2, {"size": 40}, ["malloc", "main"]),
         ("malloc", 1, {"size": 40}, ["malloc", "main"])])
case("another thread's malloc(40) in between is counted, the realloc's is not",
     first_line(t).startswith("80 bytes in 2 calls (malloc 1, realloc 1)"), t)

# realloc(p, 100) moving a block calls malloc(100) itself
t = run([("realloc", 1, {"ptr": 0x1000, "size": 100}, ["realloc"] + up),
         ("malloc", 1, {"size": 100}, ["malloc", "__libc_realloc"] + up)])
case("realloc(p, 100)'s own malloc(100) counted once",
     first_line(t).startswith("100 bytes in 1 calls (realloc 1)"), t)

# a function of the program named realloc, with no realloc() hit before
t = run([("malloc", 1, {"size": 100}, ["malloc", "realloc"] + up)])
case("malloc() from a function named realloc, no realloc() hit before: counted",
     first_line(t).startswith("100 bytes in 1 calls (malloc 1)"), t)

t = run([("calloc", 1, {"nmemb": 3, "size": 24}, ["calloc"] + up)])
case("calloc(3, 24) is 72 bytes", first_line(t).startswith("72 bytes in 1 calls"), t)

# names that would end the page's script, or hold a placeholder
html = os.path.join(work, "names.html")
odd = ["</script><b>x", "/** @options_json **/", "operator new(unsigned long)"]
run([("malloc", 1, {"size": 8}, ["malloc"] + odd)], html)
page = open(html, encoding="utf-8").read()
tail = page[page.index("const stacks"):]
case("names are escaped for the page's script, each filled in once",
     "</script><b>" not in page and tail.count("const options = [{") == 1 and
     '"n": "/** @options_json **/"' in tail and
     '"n": "operator new(unsigned long)"' in tail and
     "\\u003c/script>\\u003cb>x" in page, tail[:400])

# no hit at all: an error, not an empty picture (malloc-bytes.py leaves
# with os._exit(): an exception would make perf abort)
child = subprocess.run(
    [sys.executable, "-c",
     "import sys; sys.argv = ['malloc-bytes.py']; env = {'__name__': '__main__'}; "
     "exec(compile(open(sys.argv_script).read(), 'm', 'exec'), env); env['trace_end']()"
     .replace("sys.argv_script", repr(script))],
    capture_output=True, text=True, check=False)
case("no hit: exit status 1 and a message",
     child.returncode == 1 and "no hit of probe_libc" in child.stderr,
     "status {}: {}".format(child.returncode, child.stderr))

print("1..{}".format(count))
