"""Middleware: timing every request on stderr, a rate limit per tool, and trace context.

Run it:  python3 examples/middleware_server.py
Call it: python3 mcp_stdio.py call greet name=Ada -- python3 examples/middleware_server.py

- timing writes one line per request on stderr (stdout belongs to the protocol);
- rate_limit lets each tool run at most 5 times in 10 s; past that the model reads an
  isError result saying when to try again;
- with OpenTelemetry installed (pip install opentelemetry-sdk), traced opens a span per
  tool call, child of the host's traceparent; mcp_stdio itself imports no telemetry.
"""

import collections
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402  (vendored: the single file next to your code)

server = mcp_stdio.Server("middleware-demo", "1.0")


@server.middleware
def timing(request, next):
    """Every request, outermost: how long it took, and how it ended."""
    start = time.perf_counter()
    try:
        result = next()
    except Exception as e:
        sys.stderr.write("%s failed (%s) in %.1f ms\n" % (
            request.name, type(e).__name__, (time.perf_counter() - start) * 1000))
        raise
    sys.stderr.write("%s %sin %.1f ms\n" % (
        request.name, "(isError) " if result.get("isError") else "",
        (time.perf_counter() - start) * 1000))
    return result


RATE, WINDOW = 5, 10.0                      # calls per tool, seconds
_calls = collections.defaultdict(collections.deque)
_lock = threading.Lock()                    # handlers (and middleware) run on worker threads


@server.middleware(kinds="tool")
def rate_limit(request, next):
    """At most RATE calls of each tool per WINDOW seconds; past it, an isError result."""
    now = time.monotonic()
    with _lock:
        recent = _calls[request.name]
        while recent and now - recent[0] > WINDOW:
            recent.popleft()
        if len(recent) >= RATE:
            raise mcp_stdio.ToolError("Rate limit: %s runs at most %d times in %g s; try again "
                                      "in %.0f s." % (request.name, RATE, WINDOW,
                                                      WINDOW - (now - recent[0])))
        recent.append(now)
    return next()


try:                                        # only when OpenTelemetry is installed
    from opentelemetry import trace as _otel
    from opentelemetry.propagate import extract as _extract
except ImportError:
    _otel = None

if _otel is not None:
    @server.middleware(kinds="tool")
    def traced(request, next):
        """A span per tool call, child of the host's traceparent (request.ctx.trace)."""
        parent = _extract(request.ctx.trace)
        with _otel.get_tracer("middleware-demo").start_as_current_span(
                "tools/call " + request.name, context=parent):
            return next()


@server.tool
def greet(name: str) -> str:
    """Greet someone.

    Args:
        name: Who to greet.
    """
    return "Hello, %s!" % name


if __name__ == "__main__":
    raise SystemExit(server.run())
