"""A long-running tool that reports progress, honours cancellation, and an async tool.

Run it:  python examples/progress_server.py
"""

import asyncio
import hashlib
import os
import sys
from typing import Annotated

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402
from mcp_stdio import Context, Field  # noqa: E402

server = mcp_stdio.Server("progress", "1.0")


@server.tool(timeout=120)
def hash_rounds(text: str, rounds: Annotated[int, Field(minimum=1, maximum=2000000)],
                ctx: Context) -> dict:
    """Hash text with SHA-256 many times, reporting progress every 10,000 rounds.

    Args:
        text: The text to hash.
        rounds: How many times to hash.
    """
    digest = text.encode()
    for i in range(1, rounds + 1):
        digest = hashlib.sha256(digest).digest()
        if i % 10000 == 0:
            if ctx.is_cancelled:
                break
            ctx.progress(i, rounds, "%d of %d rounds" % (i, rounds))
    ctx.log("info", "hashed %d rounds" % i)
    return {"rounds": i, "digest": digest.hex()}


@server.tool
async def wait_then_echo(text: str, seconds: Annotated[float, Field(minimum=0, maximum=5)] = 0.1
                         ) -> str:
    """Wait (asynchronously), then return text.

    Args:
        text: What to echo.
        seconds: How long to wait first.
    """
    await asyncio.sleep(seconds)
    return text


if __name__ == "__main__":
    raise SystemExit(server.run())
