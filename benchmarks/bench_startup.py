"""Cold start to the first tools/list answer, pinned to one CPU, as ratios to the bare loop.

    python benchmarks/bench_startup.py [RUNS]

Forms: the limit loop, the demo as a script and as a module, and the 1- and
200-tool user servers. Medians of RUNS (default 15), forms interleaved. Run
with bytecode caching on (unset PYTHONDONTWRITEBYTECODE) after one warm-up
start, as users' machines run.
"""

import json
import os
import statistics
import subprocess
import sys
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


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    py = sys.executable
    forms = {"limit loop": [py, os.path.join(HERE, "limit_loop.py")],
             "python mcp_stdio.py": [py, os.path.join(ROOT, "mcp_stdio.py")],
             "python -m mcp_stdio": [py, "-m", "mcp_stdio"],
             "1 tool": [py, os.path.join(HERE, "decorated_server.py")],
             "200 tools": [py, os.path.join(HERE, "many_tools_server.py")]}
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


if __name__ == "__main__":
    main()
