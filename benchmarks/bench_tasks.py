"""What a task costs beside a plain call, and what finished tasks hold in memory.

Through the sans-IO engine (one Connection, calls run at once), a plain call is a
tools/call and its answer; a task's whole life is the tools/call answered with a
task, one tasks/get, and the result (inlined by tasks/get in the 2026-07-28
extension; fetched by tasks/result in the 2025-11-25 design). The ratio of the two
is the figure (the issue's bound: at most 3). Through a process, with every worker
busy in a long task, the time from sending a task-augmented call to its task is set
beside the lock-step round trip of a plain call on the idle server (the bound: at
most 2x; a task never waits for a free worker). Then 1,000 finished tasks are held
and the memory they add is measured with tracemalloc (the bound: 10 MiB).

    python benchmarks/bench_tasks.py [N]
"""

import json
import os
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {
            "extensions": {"io.modelcontextprotocol/tasks": {}}}}
PLAIN_META = dict(META, **{"io.modelcontextprotocol/clientCapabilities": {}})


def server():
    s = mcp_stdio.Server("bench", "1", max_tasks=100000)

    @s.tool(task="optional")
    def echo(text: str) -> str:
        """Echo."""
        return text

    @s.tool(task="optional")
    def hold(ctx: mcp_stdio.Context) -> str:
        """Holds a worker until cancelled."""
        ctx.sleep(60)
        return "held"
    return s


def feed(conn, out, msg):
    for item in conn.feed(json.dumps(msg).encode() + b"\n"):
        if type(item) is bytes:
            out.append(item)
        else:
            item.run()


def plain(conn, out, i):
    feed(conn, out, {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
        "name": "echo", "arguments": {"text": "hello %d" % i}, "_meta": PLAIN_META}})
    assert json.loads(out[0])["result"]["content"]      # a client reads its answer
    out.clear()


def task_life(conn, out, i):
    feed(conn, out, {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
        "name": "echo", "arguments": {"text": "hello %d" % i}, "_meta": META}})
    tid = json.loads(out[0])["result"]["taskId"]
    out.clear()
    feed(conn, out, {"jsonrpc": "2.0", "id": -i, "method": "tasks/get", "params": {
        "taskId": tid, "_meta": META}})
    assert json.loads(out[-1])["result"]["status"] == "completed"
    out.clear()


def timed(fn, n):
    out = []
    conn = server().connection(out.append)
    for i in range(1, 200):              # warm up
        fn(conn, out, i)
    start = time.perf_counter()
    for i in range(1000, 1000 + n):
        fn(conn, out, i)
    return (time.perf_counter() - start) / n


SERVER = """
import sys
sys.path.insert(0, %r)
import bench_tasks
raise SystemExit(bench_tasks.server().run(sys.argv[1:]))
""" % os.path.dirname(os.path.abspath(__file__))


def spawn(*args):
    import subprocess
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    p = subprocess.Popen([sys.executable, "-c", SERVER] + list(args), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, env=env)

    def ask(msg):
        p.stdin.write(json.dumps(msg).encode() + b"\n")
        p.stdin.flush()
        while True:
            answer = json.loads(p.stdout.readline())
            if answer.get("id") == msg["id"]:
                return answer
    return p, ask


def busy_creation(n, workers=2):
    """Median (seconds) from sending a task-augmented echo to its task, while every one of
    the server's workers is held by a long task."""
    import statistics
    p, ask = spawn("--workers", str(workers))
    held = [ask({"jsonrpc": "2.0", "id": "h%d" % k, "method": "tools/call", "params": {
        "name": "hold", "_meta": META}})["result"]["taskId"] for k in range(workers)]
    time.sleep(0.2)                     # both run on workers of their own by now
    times = []
    for i in range(1, n + 1):
        begin = time.perf_counter()
        r = ask({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
            "name": "echo", "arguments": {"text": "hello"}, "_meta": META}})["result"]
        times.append(time.perf_counter() - begin)
        assert r["resultType"] == "task" and r["status"] == "working"
    for k, tid in enumerate(held):
        ask({"jsonrpc": "2.0", "id": "c%d" % k, "method": "tasks/cancel", "params": {
            "taskId": tid, "_meta": META}})
    p.stdin.close()
    p.wait()
    return statistics.median(times)


def lock_step(n):
    """Medians (seconds) of a plain call and of a task's whole life, through a real process:
    each request waits for its answer, as most clients do."""
    import statistics
    p, ask = spawn()
    plain_times, task_times = [], []
    for i in range(1, n + 1):
        start = time.perf_counter()
        ask({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
            "name": "echo", "arguments": {"text": "hello"}, "_meta": PLAIN_META}})
        plain_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        tid = ask({"jsonrpc": "2.0", "id": -i, "method": "tools/call", "params": {
            "name": "echo", "arguments": {"text": "hello"}, "_meta": META}})["result"]["taskId"]
        while True:
            r = ask({"jsonrpc": "2.0", "id": "g%d" % i, "method": "tasks/get", "params": {
                "taskId": tid, "_meta": META}})["result"]
            if r["status"] == "completed":
                break
        task_times.append(time.perf_counter() - start)
    p.stdin.close()
    p.wait()
    return statistics.median(plain_times), statistics.median(task_times)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
    p = min(timed(plain, n) for _ in range(3))
    t = min(timed(task_life, n) for _ in range(3))
    print("in process: plain call %.1f us; a task's whole life %.1f us: %.2fx"
          % (p * 1e6, t * 1e6, t / p))
    p, t = lock_step(min(n, 2000))
    print("lock-step through a process (medians): plain call %.1f us; a task's whole life "
          "%.1f us: %.2fx" % (p * 1e6, t * 1e6, t / p))
    b = busy_creation(min(n, 500))
    print("every worker busy: a task-augmented call to its task %.1f us: %.2fx the idle plain "
          "call" % (b * 1e6, b / p))
    out = []
    conn = server().connection(out.append)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i in range(1, 1001):
        feed(conn, out, {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
            "name": "echo", "arguments": {"text": "hello %d" % i}, "_meta": META}})
        out.clear()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    print("1,000 finished tasks held: %.2f MiB (%d tasks in the store)"
          % (held / 1048576.0, len(conn.tasks.all())))


if __name__ == "__main__":
    main()
