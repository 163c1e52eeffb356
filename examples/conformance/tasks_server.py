"""The tools the official conformance suite's tasks scenarios ask of a server.

Written only on mcp_stdio's public API: each tool says whether it may run as a
task, and the handlers are the same plain functions as any tool's. Serve it
behind the gateway next to this file::

    python examples/conformance/http_gateway.py --port 3003 -- \\
        python examples/conformance/tasks_server.py
    npx @modelcontextprotocol/conformance server --url http://localhost:3003/mcp \\
        --scenario tasks-lifecycle
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

import mcp_stdio  # noqa: E402
from mcp_stdio import Context, Form  # noqa: E402

server = mcp_stdio.Server("conformance-tasks", "1.0")


@server.tool
def greet(name: str) -> str:
    """Greet someone, at once (never a task)."""
    return "Hello, %s!" % name


@server.tool(task="optional")
def slow_compute(seconds: float, ctx: Context, label: str = "") -> str:
    """Work for some seconds; a task when the client can take one."""
    steps = int(seconds * 10)
    for step in range(steps):
        if ctx.sleep(0.1):
            return "stopped"
        ctx.progress(step + 1, steps)
    return "Computed after %g seconds." % seconds


@server.tool(task="required")
def failing_job(ctx: Context) -> str:
    """Fail as a tool does (an isError result) after a second."""
    ctx.sleep(1)
    raise mcp_stdio.ToolError("The job failed.")


@server.tool(task="optional")
def protocol_error_job() -> str:
    """Fail with a JSON-RPC error."""
    raise mcp_stdio.ProtocolError(-32603, "The job hit an internal error.")


def _form(**properties):
    return {"type": "object", "properties": properties, "required": list(properties)}


@server.tool(task="optional")
def confirm_delete(ctx: Context, filename: str = "notes.txt") -> str:
    """Ask the user to confirm, then delete (pretend)."""
    answer = ctx.elicit("Delete %s?" % filename, _form(confirm={"type": "boolean"}))
    return "Deleted %s." % filename if answer.accepted and answer.content.get("confirm") \
        else "Kept %s." % filename


@server.tool(task="optional")
def multi_input(ctx: Context) -> str:
    """Ask two questions at once: the names of two people."""
    answers = ctx.ask(first=Form("The first name?", _form(name={"type": "string"})),
                      second=Form("The second name?", _form(name={"type": "string"})))
    return "%s and %s." % (answers["first"].content.get("name"),
                           answers["second"].content.get("name"))


@server.tool(task="required", task_start="handler")
def test_tool_with_task(ctx: Context) -> str:
    """Ask the user's name first, then go on as a task."""
    answer = ctx.elicit("What is your name?", _form(name={"type": "string"}), key="user_name")
    ctx.start_task()
    return "Hello, %s, from a task." % answer.content.get("name")


if __name__ == "__main__":
    raise SystemExit(server.run())
