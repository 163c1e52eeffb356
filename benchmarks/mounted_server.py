"""The demo's tools mounted in process behind a front server, echo served as echo.

    python benchmarks/instructions.py --server "python benchmarks/mounted_server.py"

counts a mounted echo (a Server object mounted in this process) as instructions.py
counts the demo's own: their ratio is what an in-process mount costs a call.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import mcp_stdio  # noqa: E402 - after the path that finds it

server = mcp_stdio.Server("front", "1")
server.mount("demo", mcp_stdio.demo_server(), rename={"echo": "echo"})

if __name__ == "__main__":
    raise SystemExit(server.run([]))
