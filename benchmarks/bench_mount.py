"""Lock-step echo through one mounted hop, against the same echo served directly.

    python benchmarks/bench_mount.py [--rounds 7] [--calls 300]

The direct server is the demo (python -m mcp_stdio); the mounted hop is the proxy command
over a configuration of that same demo. Each round measures both, one after the other,
and reports the median call of each; the ratio is the median of the rounds' ratios (the
machine's noise moves both alike within a round). A third figure is the floor of any
proxy: a relay that only forwards the bytes both ways (the prefix taken off), with the
extra process and the two extra pipe hops and none of the work. A fourth is the floor of
a proxy that reads what it passes on: a relay that decodes each line and encodes it again
(mcp_stdio's codec), with the ids mapped, and nothing else.
"""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The relay: one thread forwards stdin to the server, the main thread its answers back.
RELAY = """
import os, subprocess, sys, threading
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

def up():
    while True:
        data = os.read(0, 65536)
        if not data:
            p.stdin.close()
            return
        os.write(p.stdin.fileno(), data.replace(b'"demo_', b'"'))
threading.Thread(target=up, daemon=True).start()
while True:
    data = os.read(p.stdout.fileno(), 65536)
    if not data:
        break
    os.write(1, data)
"""

# The decoding relay: each message decoded and encoded again; requests get ids of its own.
DECODING_RELAY = """
import os, subprocess, sys, threading
sys.path.insert(0, sys.argv[1])
from mcp_stdio import LineSplitter, decode_message, encode_message
p = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
ours, lock = {}, threading.Lock()

def up():
    split, n = LineSplitter(), 0
    while True:
        data = os.read(0, 65536)
        if not data:
            p.stdin.close()
            return
        for line in split.feed(data):
            m = decode_message(line)
            if "method" in m and "id" in m:
                n += 1
                with lock:
                    ours[n] = m["id"]
                m["id"] = n
                if m["method"] == "tools/call":
                    m["params"]["name"] = m["params"]["name"][len("demo_"):]
            os.write(p.stdin.fileno(), encode_message(m))
threading.Thread(target=up, daemon=True).start()
split = LineSplitter()
while True:
    data = os.read(p.stdout.fileno(), 65536)
    if not data:
        break
    for line in split.feed(data):
        m = decode_message(line, 128, unique_keys=False)
        if "method" not in m:
            with lock:
                m["id"] = ours.pop(m["id"])
        os.write(1, encode_message(m))
"""
sys.path.insert(0, ROOT)
import mcp_stdio  # noqa: E402


def median_call(command, tool, calls, era):
    with mcp_stdio.Client(command, era=era, cwd=ROOT) as c:
        c.list_tools()
        params = {"name": tool, "arguments": {"text": "x"}}
        for _ in range(50):
            c.request("tools/call", params)
        spent = []
        for _ in range(calls):
            start = time.perf_counter()
            c.request("tools/call", params)
            spent.append(time.perf_counter() - start)
    return statistics.median(spent)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--era", default="legacy", choices=("legacy", "modern"))
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "servers.json")
        with open(config, "w") as f:
            json.dump({"mcpServers": {"demo": {"command": sys.executable, "args": [
                "-m", "mcp_stdio"], "env": {"PYTHONPATH": ROOT}}}}, f)
        relay, decoding = (os.path.join(tmp, name) for name in ("relay.py",
                                                                "decoding_relay.py"))
        for path, text in ((relay, RELAY), (decoding, DECODING_RELAY)):
            with open(path, "w") as f:
                f.write(text)
        direct, mounted, ratios, floors, reads = [], [], [], [], []
        for _ in range(a.rounds):
            d = median_call([sys.executable, "-m", "mcp_stdio"], "echo", a.calls, a.era)
            m = median_call([sys.executable, "-m", "mcp_stdio", "proxy", config], "demo_echo",
                            a.calls, a.era)
            r = median_call([sys.executable, relay, sys.executable, "-m", "mcp_stdio"],
                            "demo_echo", a.calls, a.era)
            j = median_call([sys.executable, decoding, ROOT, sys.executable, "-m",
                             "mcp_stdio"], "demo_echo", a.calls, a.era)
            direct.append(d)
            mounted.append(m)
            ratios.append(m / d)
            floors.append(r / d)
            reads.append(j / d)
    print("%s lock-step echo: direct %.0f us, through one mount %.0f us (medians of %d "
          "rounds); ratio %.2fx (median of the rounds' ratios, from %.2fx to %.2fx); a bare "
          "relay %.2fx, a decoding relay %.2fx" % (
              a.era, statistics.median(direct) * 1e6, statistics.median(mounted) * 1e6,
              a.rounds, statistics.median(ratios), min(ratios), max(ratios),
              statistics.median(floors), statistics.median(reads)))


if __name__ == "__main__":
    main()
