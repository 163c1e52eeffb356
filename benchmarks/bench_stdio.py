"""Measure MCP stdio servers over real pipes, as ratios to a minimal stdlib loop.

    python benchmarks/bench_stdio.py [--modern] [--runs 3] [--server NAME=COMMAND ...] [--only]

It measures the demo run as a script (python mcp_stdio.py, compiled on every
start), the demo run as a module (python -m mcp_stdio, cached bytecode),
benchmarks/decorated_server.py (a user's server: one decorated echo, importing
mcp_stdio) and benchmarks/many_tools_server.py (200 decorated tools with
realistic signatures and docstrings), plus any --server command (--only: just
those). --pin runs the client and every server on one CPU: otherwise lock-step
latency is ruled by wake-ups across CPUs. Measure with bytecode caching on
(unset PYTHONDONTWRITEBYTECODE), as users run. For each server: cold start (spawn to the first tools/list answer; legacy
handshake first, or modern per-request _meta with --modern), lock-step echo
latency (p50, p99) and calls/s, pipelined echo responses/s (a writer thread and a
reader thread; every id must be answered once), 512 KiB echo MB/s, peak RSS, and
the time to exit after stdin closes. The minimal loop (benchmarks/limit_loop.py)
runs in the same session and every figure is also printed as a ratio to it.
Each figure is the median of --runs runs, servers interleaved.
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MODERN_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {}}


class Session:
    """One server process and a tiny line-oriented client."""

    def __init__(self, cmd, modern, pin=False):
        self.modern = modern
        self.t0 = time.perf_counter()
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, bufsize=0, cwd=ROOT,
                                  preexec_fn=_pin if pin else None)
        self.fd_in = self.p.stdin.fileno()
        self.fd_out = self.p.stdout.fileno()
        self.buf = bytearray()
        self.pos = 0

    def write(self, data):
        view = memoryview(data)
        while view:
            n = os.write(self.fd_in, view)
            view = view[n:]

    def answer(self):
        """Read the next response line and fail loudly on an error response."""
        line = self.readline()
        if b'"error"' in line[:200] and "error" in json.loads(line):
            raise RuntimeError("server error: %s" % json.loads(line)["error"].get("message"))
        return line

    def readline(self):
        # A bytearray and a read position: slicing the rest off a bytes buffer per
        # line would cost the client time quadratic in the lines per read.
        buf, scan = self.buf, self.pos
        while True:
            i = buf.find(b"\n", scan)
            if i >= 0:
                line = bytes(buf[self.pos:i])
                self.pos = i + 1
                if self.pos == len(buf):
                    buf.clear()
                    self.pos = 0
                return line
            scan = len(buf) - self.pos         # the part already searched
            del buf[:self.pos]
            self.pos = 0
            chunk = os.read(self.fd_out, 1 << 20)
            if not chunk:
                raise RuntimeError("server closed stdout")
            buf += chunk

    def request(self, rid, method, params=None):
        params = dict(params or {})
        if self.modern:
            params["_meta"] = MODERN_META
        msg = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
        self.write(json.dumps(msg, separators=(",", ":")).encode() + b"\n")
        while True:
            reply = json.loads(self.readline())
            if reply.get("id") == rid:
                if "error" in reply:
                    raise RuntimeError("server error: %s" % reply["error"].get("message"))
                return reply["result"]

    def handshake(self):
        if not self.modern:
            self.request(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                           "clientInfo": {"name": "bench", "version": "1"}})
            self.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        return self.request(1, "tools/list")

    def echo_line(self, rid, text):
        params = {"name": "echo", "arguments": {"text": text}}
        if self.modern:
            params["_meta"] = MODERN_META
        return json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                           "params": params}, separators=(",", ":")).encode() + b"\n"

    def peak_rss_kib(self):
        try:
            with open("/proc/%d/status" % self.p.pid) as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            return None

    def close(self):
        t = time.perf_counter()
        self.p.stdin.close()
        try:
            self.p.wait(30)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return float("inf")
        return time.perf_counter() - t


def _pin():
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def measure(cmd, modern, calls, pipelined, big_kib, big_calls, pin=False):
    s = Session(cmd, modern, pin)
    s.handshake()
    cold = time.perf_counter() - s.t0
    # lock-step
    lat = []
    for i in range(calls):
        line = s.echo_line(100 + i, "hello %d" % i)
        t = time.perf_counter()
        s.write(line)
        s.answer()
        lat.append(time.perf_counter() - t)
    lat.sort()
    lock_rate = calls / sum(lat)
    # pipelined
    lines = [s.echo_line(1000000 + i, "p%d" % i) for i in range(pipelined)]
    seen = set()
    errors = []

    def reader():
        try:
            for _ in range(pipelined):
                reply = json.loads(s.readline())
                if "result" not in reply:
                    raise RuntimeError("error response: %s" % reply.get("error"))
                seen.add(reply["id"])
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    th = threading.Thread(target=reader)
    t = time.perf_counter()
    th.start()
    chunk = 256
    for i in range(0, pipelined, chunk):
        s.write(b"".join(lines[i:i + chunk]))
    th.join()
    pipe_rate = pipelined / (time.perf_counter() - t)
    if errors or len(seen) != pipelined:
        raise RuntimeError("pipelined run lost responses (%d of %d)" % (len(seen), pipelined))
    # large payload
    text = "x" * (big_kib * 1024)
    t = time.perf_counter()
    for i in range(big_calls):
        s.write(s.echo_line(2000000 + i, text))
        s.answer()
    big_rate = big_calls * len(text) / (time.perf_counter() - t) / 1e6
    rss = s.peak_rss_kib()
    exit_time = s.close()
    return {"cold_ms": cold * 1000, "p50_us": lat[len(lat) // 2] * 1e6,
            "p99_us": lat[int(len(lat) * 0.99)] * 1e6, "lock_per_s": lock_rate,
            "pipe_per_s": pipe_rate, "big_mb_s": big_rate,
            "rss_mib": rss / 1024 if rss else float("nan"), "exit_ms": exit_time * 1000}


FIELDS = [("cold_ms", "cold start ms", False), ("p50_us", "lock-step p50 us", False),
          ("p99_us", "lock-step p99 us", False), ("lock_per_s", "lock-step calls/s", True),
          ("pipe_per_s", "pipelined responses/s", True), ("big_mb_s", "512 KiB echo MB/s", True),
          ("rss_mib", "peak RSS MiB", False), ("exit_ms", "exit after EOF ms", False)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modern", action="store_true", help="use 2026-07-28 per-request _meta")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--calls", type=int, default=2000, help="lock-step calls per run")
    ap.add_argument("--pipelined", type=int, default=20000, help="pipelined calls per run")
    ap.add_argument("--big-kib", type=int, default=512)
    ap.add_argument("--big-calls", type=int, default=20)
    ap.add_argument("--server", action="append", default=[], metavar="NAME=COMMAND",
                    help="another server to measure (repeatable)")
    ap.add_argument("--only", action="store_true",
                    help="measure only the loop and the --server commands")
    ap.add_argument("--json", action="store_true", help="print the medians as JSON")
    ap.add_argument("--pin", action="store_true", help="run client and servers on one CPU")
    a = ap.parse_args()
    if a.pin:
        _pin()
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set: imports compile every start; unset it "
              "to measure as users run", file=sys.stderr)
    py = sys.executable
    # A 512 KiB echo needs limits above the default limits (256 KiB of
    # params; 1 MiB of response, and the demo echo returns the text twice).
    limits = ["--max-params", "1048576", "--max-response", "4194304"]
    servers = [("limit loop", [py, os.path.join(HERE, "limit_loop.py")]),
               # The demo as a script (compiled on every start) and as a module (cached).
               ("mcp_stdio.py", [py, os.path.join(ROOT, "mcp_stdio.py")] + limits),
               ("-m mcp_stdio", [py, "-m", "mcp_stdio"] + limits),
               # A user's server: a decorated echo in its own file that imports mcp_stdio.
               ("1 tool", [py, os.path.join(HERE, "decorated_server.py")] + limits),
               ("200 tools", [py, os.path.join(HERE, "many_tools_server.py")] + limits)]
    if a.only:
        servers = [s for s in servers if s[0] == "limit loop"]
    for spec in a.server:
        name, _, cmd = spec.partition("=")
        servers.append((name, shlex.split(cmd)))
    runs = {name: [] for name, _ in servers}
    for r in range(a.runs):
        for name, cmd in servers:
            runs[name].append(measure(cmd, a.modern, a.calls, a.pipelined, a.big_kib,
                                      a.big_calls, a.pin))
    med = {name: {k: statistics.median(x[k] for x in rs) for k, _, _ in FIELDS}
           for name, rs in runs.items()}
    if a.json:
        print(json.dumps(med, indent=2))
        return
    base = med["limit loop"]
    print("era: %s; runs: %d; python %s%s" % ("modern" if a.modern else "legacy", a.runs,
                                             sys.version.split()[0],
                                             "; pinned to one CPU" if a.pin else ""))
    names = [n for n, _ in servers]
    print("%-24s" % "figure" + "".join("%20s" % n for n in names))
    for key, label, higher in FIELDS:
        cells = []
        for n in names:
            v = med[n][key]
            ratio = v / base[key] if base[key] else float("nan")
            cells.append("%11s (%4.2fx)" % ("{:,.1f}".format(v) if v < 1000 else
                                           "{:,.0f}".format(v), ratio))
        print("%-24s" % label + "".join("%20s" % c for c in cells))
    print("ratios are server / limit loop (higher is better for calls/s, responses/s, MB/s)")


if __name__ == "__main__":
    main()
