"""The minimal stdlib MCP loop: readline, json.loads, json.dumps, write, flush; no checks.

This is the measuring stick of bench_stdio.py: no real server can be faster than
this loop on the same machine, so every figure is reported as a ratio to it.
"""

import json
import sys

TOOLS = [{"name": "echo", "description": "Echo text.",
          "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}},
                          "required": ["text"]}}]


def main():
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        msg = json.loads(line)
        if "id" not in msg:
            continue
        method = msg.get("method")
        if method == "initialize":
            result = {"protocolVersion": msg["params"].get("protocolVersion", "2025-11-25"),
                      "capabilities": {"tools": {}},
                      "serverInfo": {"name": "limit-loop", "version": "0"}}
        elif method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call":
            result = {"content": [{"type": "text", "text": msg["params"]["arguments"]["text"]}]}
        else:
            result = {}
        out.write(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}).encode() + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
