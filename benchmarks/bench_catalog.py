"""A catalog of thousands of tools (or resources): start to the first page and to the whole
listing, against a loop that serves the same catalog prebuilt.

    python benchmarks/bench_catalog.py [--tools 10000] [--resources 0] [--runs 5]
                                       [--instructions]

It writes, in a folder of its own, a server of N decorated tools (one to four typed
parameters with defaults, a docstring with an Args section, one in five returning a
dict) and a loop that defines the same functions undecorated and holds the listing our
server gives as a literal, which it answers page by page (100 a page, as ours). Both are
started as modules (python -m), so that both start from cached bytecode as users'
servers do, after one unmeasured start: the server's, which lists the whole catalog for
the loop's literal, also leaves its listings kept for the next start, as a user's first
start does (--cold removes them before each measured start). With --resources N, N
decorated resources as well (their listing too).

A client sends initialize, then tools/list (and resources/list) page after page, each
after the previous page's answer. Reported, as medians of --runs interleaved starts:
the time to the first page and to the last, and peak RSS, each with its ratio to the
loop's. --instructions also counts CPU instructions with callgrind (valgrind), which the
machine's noise does not move: to the first page (initialize and one page, then EOF), for
the whole session, and what registering one entry costs (importing the module with its
decorators, less importing it without them).
"""

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PAGE = 100
TYPES = (("int", "0"), ("float", "1.5"), ("str", '"x"'), ("bool", "False"))


def functions(n, decorator, kind="tool"):
    """The source of n functions (tools, or resources), each after decorator (or none)."""
    r = random.Random(n)
    out = []
    for i in range(n):
        params = [(f"p{k}_{t}", t, d) for k, (t, d) in
                  enumerate(r.choice(TYPES) for _ in range(r.randint(1, 4)))]
        returns = "dict" if i % 5 == 0 else "str"
        if kind == "resource":
            name = f"resource_{i:05d}"
            head = f'@server.resource("cat://item/{i:05d}")\n' if decorator else ""
            out.append(f'{head}def {name}() -> str:\n    """Item {i} of the catalog, as '
                       f'text."""\n    return "item {i}"\n')
            continue
        sig = ", ".join([f"{p}: {t}" for p, t, _ in params[:1]] +
                        [f"{p}: {t} = {d}" for p, t, d in params[1:]])
        args = "".join(f"        {p}: The {t} parameter number {k} of tool {i}.\n"
                       for k, (p, t, _) in enumerate(params))
        body = f'return {{"tool": {i}}}' if returns == "dict" else 'return "ok"'
        out.append(f'{decorator}def tool_{i:05d}({sig}) -> {returns}:\n'
                   f'    """Do the work of tool number {i} on the given inputs.\n\n'
                   f'    Args:\n{args}    """\n    {body}\n')
    return "\n\n".join(out)


LOOP = '''
import json, sys

def serve():
    pages = {"tools/list": TOOLS, "resources/list": RESOURCES}
    out = sys.stdout
    for line in sys.stdin:
        m = json.loads(line)
        method = m.get("method")
        if method == "initialize":
            result = {"protocolVersion": "2025-11-25", "serverInfo": {"name": "loop",
                      "version": "1"}, "capabilities": {"tools": {}, "resources": {}}}
        elif method in pages:
            items = pages[method]
            start = int((m.get("params") or {}).get("cursor") or 0)
            result = {method.split("/")[0]: items[start:start + %d]}
            if start + %d < len(items):
                result["nextCursor"] = str(start + %d)
        else:
            continue
        out.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": result},
                             separators=(",", ":")) + "\\n")
        out.flush()

serve()
''' % (PAGE, PAGE, PAGE)


def write(folder, tools, resources):
    """The server and the loop, as modules of folder (the loop's catalog from the server)."""
    decorator = "@server.tool\n"
    with open(os.path.join(folder, "cat_server.py"), "w") as f:
        f.write("import mcp_stdio\n\nserver = mcp_stdio.Server('catalog', '1')\n\n\n" +
                functions(tools, decorator) + "\n\n" + functions(resources, True, "resource")
                + "\n\nraise SystemExit(server.run([]))\n")
    lists = {}
    for method, field, n in (("tools/list", "tools", tools), ("resources/list", "resources",
                                                                resources)):
        lists[field] = []
        if n:
            for page in session([sys.executable, "-m", "cat_server"], folder, [method])[1]:
                lists[field] += page["result"][field]
    with open(os.path.join(folder, "cat_loop.py"), "w") as f:
        f.write(functions(tools, "") + "\n\n" + functions(resources, "", "resource") +
                "\n\nTOOLS = %r\nRESOURCES = %r\n" % (lists["tools"], lists["resources"]) +
                LOOP)
    for name, decorator in (("cat_registered", "@server.tool\n"), ("cat_undecorated", "")):
        with open(os.path.join(folder, name + ".py"), "w") as f:   # registration alone
            f.write("import mcp_stdio\n\nserver = mcp_stdio.Server('catalog', '1')\n\n\n" +
                    functions(tools, decorator) + "\n\n" +
                    functions(resources, bool(decorator), "resource") + "\n")
    for name in ("cat_server", "cat_loop", "cat_registered", "cat_undecorated"):  # compiled
        # once, as users' imports are
        subprocess.run([sys.executable, "-c", "import " + name], cwd=folder,
                       env=dict(os.environ, PYTHONPATH=ROOT), check=True,
                       stdin=subprocess.DEVNULL)


def forget(folder):
    """Remove the listings a server in folder kept (its next start describes them again)."""
    cache = os.path.join(folder, "__pycache__")
    for name in os.listdir(cache) if os.path.isdir(cache) else ():
        if name.endswith(".mcp-listings"):
            os.unlink(os.path.join(cache, name))


def session(cmd, folder, methods, keep=True):
    """Run cmd through a whole listing of methods: (seconds to the first page, the pages
    (keep=False: none, so that this process does not grow while it measures), seconds to
    the last, peak RSS in KiB, the requests sent)."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, cwd=folder, env=env)
    sent = []

    def ask(msg):
        line = (json.dumps(msg) + "\n").encode()
        sent.append(line)
        p.stdin.write(line)
        p.stdin.flush()
        return json.loads(p.stdout.readline())
    ask({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"}}})
    first, pages, rid = None, [], 1
    for method in methods:
        cursor = None
        while True:
            params = {"cursor": cursor} if cursor else {}
            page = ask({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
            rid += 1
            first = first or time.perf_counter() - start
            if keep:
                pages.append(page)
            cursor = page["result"].get("nextCursor")
            if cursor is None:
                break
    last = time.perf_counter() - start
    peak = peak_rss(p.pid)
    p.stdin.close()
    _, status, usage = os.wait4(p.pid, 0)
    p.stdout.close()
    return first, pages, last, peak or usage.ru_maxrss, sent


def peak_rss(pid):
    """The peak RSS in KiB of a live process since its exec (VmHWM), or None without /proc.

    Not wait4's ru_maxrss: a child forked from this benchmark, which holds every
    page it read, starts its count at this process's size before its exec.
    """
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        return None


def instructions(cmd, folder, lines):
    """CPU instructions of cmd fed lines (a whole session) and EOF, from exec to exit."""
    with tempfile.TemporaryFile() as f:
        f.write(b"".join(lines))
        f.seek(0)
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
                           + cmd, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           cwd=folder, env=dict(os.environ, PYTHONPATH=ROOT))
    m = re.search(rb"Collected : (\d+)", r.stderr)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", type=int, default=10000)
    ap.add_argument("--resources", type=int, default=0)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--cold", action="store_true", help="start without kept listings")
    a = ap.parse_args()
    methods = (["tools/list"] if a.tools else []) + (["resources/list"] if a.resources else [])
    with tempfile.TemporaryDirectory() as folder:
        write(folder, a.tools, a.resources)
        forms = {"loop": [sys.executable, "-m", "cat_loop"],
                 "server": [sys.executable, "-m", "cat_server"]}
        got = {k: [] for k in forms}
        for _ in range(a.runs):
            for name, cmd in forms.items():             # interleaved: the same noise
                if a.cold:
                    forget(folder)
                got[name].append(session(cmd, folder, methods, keep=False))
        med = {k: [statistics.median(x[i] for x in v) for i in (0, 2, 3)]
               for k, v in got.items()}
        print("%d tools, %d resources; medians of %d runs" % (a.tools, a.resources, a.runs))
        for i, what in enumerate(("first page", "whole listing", "peak RSS")):
            loop, ours = med["loop"][i], med["server"][i]
            unit = "KiB" if i == 2 else "ms"
            scale = 1 if i == 2 else 1000
            print("  %-14s loop %9.1f %s   server %9.1f %s   %.2fx" % (
                what, loop * scale, unit, ours * scale, unit, ours / loop))
        if a.instructions:
            for what, upto in (("to first page", 2), ("whole session", None)):
                counts = {}
                for k, cmd in forms.items():       # initialize and the first page, then EOF
                    if a.cold:
                        forget(folder)
                    counts[k] = instructions(cmd, folder, got[k][0][4][:upto])
                print("  %-14s loop %9.1f M    server %9.1f M    %.2fx   (instructions)" % (
                    what, counts["loop"] / 1e6, counts["server"] / 1e6,
                    counts["server"] / counts["loop"]))
            alone = [instructions([sys.executable, "-c", "import " + name], folder, [])
                     for name in ("cat_registered", "cat_undecorated")]
            print("  registering one entry: %.0f instructions (the module with its decorators "
                  "less the same without)" % ((alone[0] - alone[1]) / (a.tools + a.resources)))


if __name__ == "__main__":
    main()
