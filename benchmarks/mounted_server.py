"""One decorated echo tool, served directly or mounted in process behind a front server.

    python benchmarks/mounted_server.py            # a front server mounting it as "inner"
    python benchmarks/mounted_server.py --direct   # the same Server object served directly

instructions.py --in-process-mount counts an echo of each, both served processes fed
the same pipelined requests (the mounted one by its prefixed name): their ratio is
what an in-process mount costs a call of a tool as users write one.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import mcp_stdio  # noqa: E402 - after the path that finds it

inner = mcp_stdio.Server("inner", "1")


@inner.tool
def echo(text: str) -> str:
    """Echo the text back."""
    return text


if __name__ == "__main__":
    if "--direct" in sys.argv[1:]:
        raise SystemExit(inner.run([]))
    front = mcp_stdio.Server("front", "1")
    front.mount("inner", inner)
    raise SystemExit(front.run([]))
