"""An echo server written the way users write theirs: a decorated function, the file imported.

bench_stdio.py can run it beside the demo (``--server "decorated=python
benchmarks/decorated_server.py"``): its start-up is that of an imported module
(cached bytecode), and each call goes through the decorator's argument
conversion and a structured result.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402

server = mcp_stdio.Server("decorated-echo", "1.0")


@server.tool
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


if __name__ == "__main__":
    sys.exit(server.run())
