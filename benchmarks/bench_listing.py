"""tools/list of a 1,000-tool catalog, against json.dumps of the same list, in one process.

    python benchmarks/bench_listing.py [--tools 1000] [--runs 7]

For each era it times, through a Connection (bytes in, bytes out): the first
listing after start (the listing objects are built then), a repeat (cached),
and the first listing after a catalog change (built again). The reference is
json.dumps of the same result dict in the same process. Figures are medians of
--runs fresh servers.
"""

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}


def catalog(n):
    """n tools with a few typed parameters each, as a real catalog has."""
    tools = []
    for i in range(n):
        props = {"query": {"type": "string", "description": "What to look for in item %d." % i},
                 "limit": {"type": "integer", "minimum": 1, "default": 10},
                 "exact": {"type": "boolean", "default": False}}
        tools.append(mcp_stdio.Tool("tool_%04d" % i, lambda a, c: "ok",
                                    description="Search the items of collection %d." % i,
                                    input_schema={"type": "object", "properties": props,
                                                  "required": ["query"],
                                                  "additionalProperties": False},
                                    annotations={"readOnlyHint": True}))
    return tools


def listing(conn, rid, modern):
    params = {"_meta": META} if modern else {}
    line = json.dumps({"jsonrpc": "2.0", "id": rid, "method": "tools/list",
                       "params": params}).encode() + b"\n"
    t = time.perf_counter()
    out = conn.feed(line)
    return time.perf_counter() - t, out[0]


def run(n, modern):
    server = mcp_stdio.Server("listing", "1", tools=catalog(n), live=True, page_size=n)
    conn = server.connection(lambda line: None, report=lambda *a: None)
    if not modern:
        conn.feed(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "b", "version": "1"}}}).encode() + b"\n")
    first, line = listing(conn, 1, modern)
    repeat, _ = listing(conn, 2, modern)
    server.add(mcp_stdio.Tool("tool_new", lambda a, c: "ok"))
    changed, _ = listing(conn, 3, modern)
    result = json.loads(line)["result"]
    t = time.perf_counter()
    json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}).encode()
    dumps = time.perf_counter() - t
    return {"first": first, "repeat": repeat, "changed": changed, "dumps": dumps,
            "bytes": len(line)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    for modern in (False, True):
        runs = [run(a.tools, modern) for _ in range(a.runs)]
        med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
        print("%s, %d tools, %d bytes: json.dumps %.2f ms; first listing %.2f ms (%.2fx), "
              "repeat %.2f ms (%.2fx), after a change %.2f ms (%.2fx)" % (
                  "modern" if modern else "legacy", a.tools, med["bytes"], med["dumps"] * 1e3,
                  med["first"] * 1e3, med["first"] / med["dumps"], med["repeat"] * 1e3,
                  med["repeat"] / med["dumps"], med["changed"] * 1e3,
                  med["changed"] / med["dumps"]))


if __name__ == "__main__":
    main()
