"""Lock-step echo through one mounted hop, against the same echo served directly.

    python benchmarks/bench_mount.py [--rounds 7] [--calls 300]

The direct server is the demo (python -m mcp_stdio); the mounted hop is the proxy command
over a configuration of that same demo. Each round measures both, one after the other,
and reports the median call of each; the ratio is the median of the rounds' ratios (the
machine's noise moves both alike within a round). A third figure is the floor of any
proxy: a relay that only forwards the bytes both ways (the prefix taken off), with the
extra process and the two extra pipe hops and none of the work. A fourth is the floor of
a proxy that reads what it passes on: a relay that decodes each line and encodes it again
(mcp_stdio's codec), with the ids mapped, and nothing else. A fifth is the demo mounted in
process (server.mount with a Server object): no extra process, the two engines' work.
Where Linux's /proc is there, each figure also gets the CPU time every process spent per
call (all its threads, from schedstat) and its sum against the direct call's: on a machine
whose latency wanders, the work's own ratio, and which process does it.
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
# The demo mounted in process, in front of nothing else.
IN_PROCESS = """
import sys
sys.path.insert(0, sys.argv[1])
import mcp_stdio
mcp_stdio.Server("front", "1.0").mount("demo", mcp_stdio.demo_server()).run([])
"""
sys.path.insert(0, ROOT)
import mcp_stdio  # noqa: E402


def _processes(pid):
    """pid and its descendants, by /proc's children lists (empty where there is none)."""
    try:
        tids = os.listdir("/proc/%d/task" % pid)
    except OSError:
        return []
    found = [pid]
    for tid in tids:
        try:
            with open("/proc/%d/task/%s/children" % (pid, tid)) as f:
                children = f.read().split()
        except OSError:
            return []
        for child in children:
            found += _processes(int(child))
    return found


def _cpu(pids):
    """CPU seconds each process has spent, all its threads, by /proc's schedstat."""
    spent = []
    for pid in pids:
        total = 0
        for tid in os.listdir("/proc/%d/task" % pid):
            try:
                with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                    total += int(f.read().split()[0])
            except OSError:          # a thread that ended meanwhile
                pass
        spent.append(total / 1e9)
    return spent


def median_call(command, tool, calls, era):
    """The median lock-step call, and the CPU seconds per call of the client and of each
    server process (None without /proc)."""
    with mcp_stdio.Client(command, era=era, cwd=ROOT) as c:
        c.list_tools()
        params = {"name": tool, "arguments": {"text": "x"}}
        for _ in range(50):
            c.request("tools/call", params)
        pids = _processes(c._proc.pid)
        before, ours = _cpu(pids), time.process_time()
        spent = []
        for _ in range(calls):
            start = time.perf_counter()
            c.request("tools/call", params)
            spent.append(time.perf_counter() - start)
        after, now = _cpu(pids), time.process_time()
    cpu = None
    if pids:
        cpu = [(now - ours) / calls] + [
            (b - a) / calls for a, b in zip(before, after)]
    return statistics.median(spent), cpu


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--era", default="legacy", choices=("legacy", "modern"))
    a = p.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "servers.json")
        with open(config, "w") as f:
            json.dump({"mcpServers": {"demo": {"command": python, "args": [
                "-m", "mcp_stdio"], "env": {"PYTHONPATH": ROOT}}}}, f)
        relay, decoding, in_process = (os.path.join(tmp, name) for name in (
            "relay.py", "decoding_relay.py", "in_process.py"))
        for path, text in ((relay, RELAY), (decoding, DECODING_RELAY),
                           (in_process, IN_PROCESS)):
            with open(path, "w") as f:
                f.write(text)
        demo = [python, "-m", "mcp_stdio"]
        # name, command, tool, and what each of its processes is (the first is ours).
        setups = (("direct", demo, "echo", ("server",)),
                  ("mounted", demo + ["proxy", config], "demo_echo", ("proxy", "mount")),
                  ("bare relay", [python, relay] + demo, "demo_echo", ("relay", "server")),
                  ("decoding relay", [python, decoding, ROOT] + demo, "demo_echo",
                   ("relay", "server")),
                  ("in-process mount", [python, in_process, ROOT], "demo_echo", ("server",)))
        times = {name: [] for name, *_ in setups}
        cpus = {name: [] for name, *_ in setups}
        for _ in range(a.rounds):
            for name, command, tool, _ in setups:
                spent, cpu = median_call(command, tool, a.calls, a.era)
                times[name].append(spent)
                if cpu is not None:
                    cpus[name].append(cpu)
    def ratio(name):
        return [t / d for t, d in zip(times[name], times["direct"])]
    mounted = ratio("mounted")
    print("%s lock-step echo: direct %.0f us, through one mount %.0f us (medians of %d "
          "rounds); ratio %.2fx (median of the rounds' ratios, from %.2fx to %.2fx); a bare "
          "relay %.2fx, a decoding relay %.2fx; mounted in process %.2fx" % (
              a.era, statistics.median(times["direct"]) * 1e6,
              statistics.median(times["mounted"]) * 1e6, a.rounds,
              statistics.median(mounted), min(mounted), max(mounted),
              statistics.median(ratio("bare relay")),
              statistics.median(ratio("decoding relay")),
              statistics.median(ratio("in-process mount"))))
    if all(cpus.values()):
        print("CPU per call, all processes (medians of the rounds):")
        totals = {name: statistics.median(sum(c) for c in cpus[name]) for name in cpus}
        for name, _, _, processes in setups:
            spent = [statistics.median(c[i] for c in cpus[name]) * 1e6
                     for i in range(len(processes) + 1)]
            print("  %-17s %4.0f us, %.2fx direct: %s" % (
                name + ":", totals[name] * 1e6, totals[name] / totals["direct"], ", ".join(
                    "%s %.0f" % pair for pair in zip(("client",) + processes, spent))))

if __name__ == "__main__":
    main()
