"""Cold start to the first tools/list answer, pinned to one CPU, as ratios to the bare loop.

    python benchmarks/bench_startup.py [RUNS]

Forms: the limit loop, the demo as a script and as a module, the 1- and 200-tool
user servers, and the 200-tool server's own part: the same file with its
decorators removed and the limit loop answering (its typing import, its compile,
its 200 functions; no mcp_stdio). Medians of RUNS (default 15), forms interleaved. Run
with bytecode caching on (unset PYTHONDONTWRITEBYTECODE) after one warm-up
start, as users' machines run.

Then the parts of the 200-tool start, each the minimum over RUNS fresh
processes: what the interpreter does anyway, and what the user's script and
mcp_stdio each add (compiling the script, which Python never caches for the
main module, typing, importing mcp_stdio, registering the tools, the first
tools/list).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OPENING = (json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}}) + "\n"
    '{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
    '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n').encode()


def _pin():
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def once(cmd):
    t = time.perf_counter()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, cwd=ROOT, preexec_fn=_pin)
    p.stdin.write(OPENING)
    p.stdin.flush()
    p.stdout.readline()
    p.stdout.readline()
    elapsed = time.perf_counter() - t
    p.stdin.close()
    p.wait()
    p.stdout.close()
    return elapsed


def without_mcp_stdio(folder):
    """many_tools_server.py answered by the limit loop instead: the user's part of its start."""
    with open(os.path.join(HERE, "many_tools_server.py"), encoding="utf-8") as f:
        src = f.read()
    for old, new in (("@server.tool\n", ""), ("import mcp_stdio  # noqa: E402", "import limit_loop"),
                     ('server = mcp_stdio.Server("many-tools", "1.0")', ""),
                     ("sys.exit(server.run())", "limit_loop.main()"),
                     ("os.path.dirname(os.path.abspath(__file__)), \"..\"", repr(HERE))):
        if old not in src:
            sys.exit("many_tools_server.py changed: cannot derive its form without mcp_stdio")
        src = src.replace(old, new)
    path = os.path.join(folder, "many_functions_no_mcp_stdio.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(src)
    return path


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    py = sys.executable
    tmp = tempfile.TemporaryDirectory()
    forms = {"limit loop": [py, os.path.join(HERE, "limit_loop.py")],
             "python mcp_stdio.py": [py, os.path.join(ROOT, "mcp_stdio.py")],
             "python -m mcp_stdio": [py, "-m", "mcp_stdio"],
             "1 tool": [py, os.path.join(HERE, "decorated_server.py")],
             "200 tools": [py, os.path.join(HERE, "many_tools_server.py")],
             "200 functions, no mcp": [py, without_mcp_stdio(tmp.name)]}
    _pin()
    for cmd in forms.values():
        once(cmd)                      # warm-up: bytecode caches written
    times = {name: [] for name in forms}
    for _ in range(runs):
        for name, cmd in forms.items():
            times[name].append(once(cmd))
    base = statistics.median(times["limit loop"])
    print("cold start, python %s, %d runs, pinned to one CPU" % (sys.version.split()[0], runs))
    for name, ts in times.items():
        m = statistics.median(ts)
        print("%-22s %7.1f ms  %5.2fx" % (name, m * 1000, m / base))


# Run in a fresh interpreter: time each part of the 200-tool server's start.
PARTS = r"""
import sys, time
t0 = time.perf_counter()
import json, re, threading
t1 = time.perf_counter()
import typing
t2 = time.perf_counter()
sys.path.insert(0, ROOT)
import mcp_stdio
t3 = time.perf_counter()
path = ROOT + "/benchmarks/many_tools_server.py"
src = open(path).read()
code = compile(src, path, "exec")
t4 = time.perf_counter()
ns = {"__name__": "bench", "__file__": path}
exec(code, ns)
t5 = time.perf_counter()
conn = ns["server"].connection(lambda line: None)
conn.feed(OPENING)
t6 = time.perf_counter()
print(t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5)
"""


def parts(runs):
    names = ("json, re, threading (the loop imports json too)", "typing (the user's import)",
             "import mcp_stdio (from bytecode)", "compile the user's script",
             "register 200 tools", "initialize and the first tools/list")
    best = [float("inf")] * len(names)
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", "ROOT = %r; OPENING = %r\n" % (ROOT, OPENING)
                              + PARTS], capture_output=True, check=True, preexec_fn=_pin)
        best = [min(b, float(x)) for b, x in zip(best, out.stdout.split())]
    print("parts of the 200-tool start (min of %d fresh processes):" % runs)
    for name, t in zip(names, best):
        print("  %-52s %6.1f ms" % (name, t * 1000))


if __name__ == "__main__":
    main()
    parts(int(sys.argv[1]) if len(sys.argv) > 1 else 15)
