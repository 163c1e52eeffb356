"""CPU instructions per echo tools/call, measured with callgrind (deterministic, unlike time).

A real server process is fed N and then N + 2000 pipelined echo requests from a
file; the difference of the two instruction counts divided by 2000 is the cost
of one message, with start-up cancelled out. Every mode first runs the server once,
unmeasured, so that its bytecode is cached as on users' machines (a run that compiled
would count the compile). Needs valgrind.

    python benchmarks/instructions.py [--modern] [--lock-step] [--server "python -m mcp_stdio"]
    python benchmarks/instructions.py --in-process-mount [--modern]

With --lock-step the client waits for each answer before it sends the next
request, as most clients do: each echo then takes its own read and write (the
difference of 300 and 1,300 echoes). The server's watchdog thread polls every
5 ms of wall time while calls arrive, and valgrind slows the server about 50
times, so this overstates each echo by the watchdog's share (a few thousand).

With --in-process-mount it counts a decorated echo tool's Server served directly
and served by a front server that mounts it in its process, as inner_echo
(benchmarks/mounted_server.py), both as served processes, and prints their ratio:
what an in-process mount costs a call. (Until 0.11.3 it compared the demo's echo,
which takes the general path both ways, so it hid that a mount lost the plain text
tool's fast path: 1.005x there, 1.44x for a decorated echo.)

With --start it counts whole starts instead: the process fed the opening of a
session (initialize, initialized, tools/list; or one modern tools/list) and
EOF, from exec to exit, for the limit loop and the 1- and 200-tool servers,
each also as a ratio to the loop: cold start without the machine's noise (it
leaves out what the kernel spends, which is about the same for all).
"""

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def messages(n, modern, tool="echo"):
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}
    out = []
    if not modern:
        out.append({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"}}})
        out.append({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for i in range(1, n + 1):
        params = {"name": tool, "arguments": {"text": "hello %d" % i}}
        if modern:
            params["_meta"] = meta
        out.append({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": params})
    return b"".join(json.dumps(m).encode() + b"\n" for m in out)


def warm(command, data):
    """Run command once on data, unmeasured: the bytecode it imports is compiled and cached
    before callgrind counts (else the first run after an edit counts a compile)."""
    subprocess.run(command, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))


def instructions(command, data):
    with tempfile.TemporaryFile() as f:
        f.write(data)
        f.seek(0)
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
                           + command, stdin=f, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, cwd=ROOT, env=dict(
                               os.environ, PYTHONPATH=ROOT))
    m = re.search(rb"Collected : (\d+)", r.stderr)
    if m is None:
        sys.exit("callgrind failed: %s" % r.stderr[-500:].decode(errors="replace"))
    return int(m.group(1))


def lock_step(command, modern):
    """Instructions per echo when each request waits for the previous answer."""
    from bench_stdio import Session
    counts = []
    warm(command, messages(1, modern))
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "callgrind.log")
        for n in (300, 1300):
            s = Session(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                         "--log-file=" + log] + command, modern)
            s.handshake()
            for i in range(n):
                s.write(s.echo_line(100 + i, "hello %d" % i))
                s.answer()
            s.close()
            with open(log, encoding="utf-8") as f:
                m = re.search(r"Collected : (\d+)", f.read())
            if m is None:
                sys.exit("callgrind failed: see %s" % log)
            counts.append(int(m.group(1)))
    return (counts[1] - counts[0]) // 1000


def starts(modern):
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}
    opening = [{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}]
    if not modern:
        opening = messages(0, False).splitlines() + [
            b'{"jsonrpc":"2.0","id":1,"method":"tools/list"}']
    data = b"".join((m if isinstance(m, bytes) else json.dumps(m).encode()) + b"\n"
                    for m in opening)
    base = None
    for name in ("limit_loop.py", "decorated_server.py", "many_tools_server.py"):
        warm([sys.executable, os.path.join(HERE, name)], data)
        n = instructions([sys.executable, os.path.join(HERE, name)], data)
        base = base or n
        print("%-22s %s: %12d instructions  %.2fx" % (
            name, "modern" if modern else "legacy", n, n / base))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--modern", action="store_true", help="2026-07-28 requests (default legacy)")
    ap.add_argument("--server", default="%s -m mcp_stdio" % sys.executable,
                    help="the server command (default: python -m mcp_stdio)")
    ap.add_argument("--base", type=int, default=200, help="requests of the shorter run")
    ap.add_argument("--start", action="store_true", help="count whole starts (see above)")
    ap.add_argument("--lock-step", action="store_true",
                    help="one request at a time, each after the previous answer (see above)")
    ap.add_argument("--in-process-mount", action="store_true",
                    help="the ratio of a mounted echo to the direct one (see above)")
    a = ap.parse_args()
    if a.in_process_mount:
        script = [sys.executable, os.path.join(HERE, "mounted_server.py")]
        direct = per_echo(script + ["--direct"], a.base, a.modern)
        mounted = per_echo(script, a.base, a.modern, tool="inner_echo")
        print("%s: direct %d, mounted in process %d instructions per echo: %.3fx" % (
            "modern" if a.modern else "legacy", direct, mounted, mounted / direct))
        return
    if a.start:
        starts(a.modern)
        return
    if a.lock_step:
        print("%s, %s, lock-step: %d instructions per echo" % (
            a.server, "modern" if a.modern else "legacy",
            lock_step(shlex.split(a.server), a.modern)))
        return
    env_note = "" if os.environ.get("PYTHONDONTWRITEBYTECODE") is None else \
        " (PYTHONDONTWRITEBYTECODE is set: start-up compiles, the difference is unaffected)"
    print("%s, %s: %d instructions per echo%s" % (
        a.server, "modern" if a.modern else "legacy",
        per_echo(shlex.split(a.server), a.base, a.modern), env_note))


def per_echo(cmd, base, modern, tool="echo"):
    """Instructions per pipelined echo of the server cmd (the difference of two runs)."""
    warm(cmd, messages(1, modern, tool))
    small = instructions(cmd, messages(base, modern, tool))
    large = instructions(cmd, messages(base + 2000, modern, tool))
    if large <= small:      # a run that compiled (the source changed meanwhile), or cut short
        sys.exit("the longer run counted no more instructions than the shorter one (%d, %d): "
                 "one compiled the source (was it edited meanwhile?) or was cut short; run "
                 "again" % (large, small))
    return (large - small) // 2000


if __name__ == "__main__":
    main()
