"""The demo server with one empty middleware around every request, for instructions.py.

    python benchmarks/instructions.py --server "python benchmarks/middleware_server.py"
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402

server = mcp_stdio.demo_server()


@server.middleware
def passthrough(request, next):
    return next()


if __name__ == "__main__":
    raise SystemExit(server.run())
