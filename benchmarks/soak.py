"""A soak of one server process: mixed traffic, then memory, descriptors and threads.

    python benchmarks/soak.py [MESSAGES] [--server "python -m mcp_stdio --workers 4"]

Sends echo and countdown calls, cancellations, broken JSON, stray response
messages and resource reads (fixed seed), and prints the server's RSS, open
file descriptors and threads five times along the way (Linux /proc), then its
exit status. Flat figures mean nothing leaks.
"""

import argparse
import json
import os
import random
import shlex
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def status(pid, key):
    with open("/proc/%d/status" % pid) as f:
        return int([line for line in f if line.startswith(key)][0].split()[1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("messages", type=int, nargs="?", default=100000)
    ap.add_argument("--server", default="%s -m mcp_stdio --workers 4" % sys.executable)
    a = ap.parse_args()
    p = subprocess.Popen(shlex.split(a.server), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, cwd=ROOT)
    answered = [0]

    def reader():
        for _ in p.stdout:
            answered[0] += 1
    threading.Thread(target=reader, daemon=True).start()
    r = random.Random(5)

    def send(m):
        p.stdin.write(m if isinstance(m, bytes) else json.dumps(m).encode())
        p.stdin.write(b"\n")
    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "soak", "version": "1"}}})
    step = max(1, a.messages // 5)
    for i in range(1, a.messages + 1):
        k = r.random()
        if k < 0.5:
            send({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                "name": "echo", "arguments": {"text": "x" * r.randrange(100)}}})
        elif k < 0.6:
            send({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                "name": "countdown", "arguments": {"seconds": 0.01}}})
        elif k < 0.7:
            send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                  "params": {"requestId": i - 1}})
        elif k < 0.8:
            send(b'{"jsonrpc":"2.0","id":%d,"method":"ping"' % i)      # broken JSON
        elif k < 0.9:
            send({"jsonrpc": "2.0", "id": "r%d" % i, "result": {}, "x": 1})
        else:
            send({"jsonrpc": "2.0", "id": i, "method": "resources/read",
                  "params": {"uri": "demo://greeting/a%d" % i}})
        if i % step == 0:
            p.stdin.flush()
            time.sleep(0.5)
            print("%7d sent: RSS %d MiB, %d fds, %d threads, %d lines answered" % (
                i, status(p.pid, "VmRSS") // 1024, len(os.listdir("/proc/%d/fd" % p.pid)),
                status(p.pid, "Threads"), answered[0]), flush=True)
    p.stdin.close()
    print("exit status %d" % p.wait(60))


if __name__ == "__main__":
    main()
