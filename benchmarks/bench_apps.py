"""A view's resources/read against a plain resource of the same size, in one process.

    python benchmarks/bench_apps.py [--size BYTES] [--rounds N]

Both are read through a Connection (feed, run, the encoded answer), by a client that
declares MCP Apps (the view's contents then carry its _meta.ui, and so do the plain
resource's, given explicitly) and by one that does not; the ratio view/resource is
what matters (the bound: a view costs no more than any resource of its size).
"""

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402

CAPS = {"extensions": {mcp_stdio.APPS_KEY: {"mimeTypes": [mcp_stdio.APP_MIME]}}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=20000)
    args = ap.parse_args()
    doc = "<!DOCTYPE html><html><body>" + "x" * args.size + "</body></html>"
    server = mcp_stdio.Server("bench", "1")
    server.app("ui://view", html=doc, csp={"connectDomains": ["https://api.example.com"]})
    ui = server.resources["ui://view"].ui

    def page(uri, ctx):
        if ctx.renders_apps:
            return mcp_stdio.ResourceContents([{"uri": uri, "mimeType": "text/html",
                                                "text": doc, "_meta": {"ui": ui}}])
        return doc
    server.add(mcp_stdio.Resource("file://page", page, mime_type="text/html"))
    for who, caps in (("apps", CAPS), ("plain", {})):
        conn = server.connection(lambda line: None)      # answers written nowhere
        conn.feed(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": caps,
            "clientInfo": {"name": "b", "version": "1"}}}).encode() + b"\n")
        conn.feed(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        best = {}
        for _ in range(3):
            for uri in ("file://page", "ui://view"):
                line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "resources/read",
                                   "params": {"uri": uri}}).encode() + b"\n"
                t = time.perf_counter()
                for _ in range(args.rounds):
                    for item in conn.feed(line):
                        if type(item) is not bytes:
                            conn.run(item)
                per = (time.perf_counter() - t) / args.rounds
                best[uri] = min(best.get(uri, per), per)
        print("%-6s client: resource %8.2f us, view %8.2f us per read: view / resource %.2fx"
              % (who, best["file://page"] * 1e6, best["ui://view"] * 1e6,
                 best["ui://view"] / best["file://page"]))


if __name__ == "__main__":
    main()
