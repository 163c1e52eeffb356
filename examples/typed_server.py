"""A server that uses the public names the README shows, checked by pyright in strict mode.

Run it:  python3 examples/typed_server.py   (CI checks it: pyright --strict, from npm)
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402  (vendored: the single file next to your code)
from mcp_stdio import Context, Server  # noqa: E402

server = Server("typed", "1.0", instructions="Notes in memory: add_note, then read them.")
NOTES: "dict[str, str]" = {}


@server.tool
def add_note(name: str, text: str) -> str:
    """Add a note."""
    NOTES[name] = text
    return "added " + name


@server.tool(title="Count the notes", annotations={"readOnlyHint": True}, pinned=True,
             search_hint="how many notes")
def count_notes(ctx: Context) -> int:
    """Count the notes, reporting progress."""
    ctx.progress(1, 1, "counted")
    ctx.log("info", "counting in %s request %s" % (ctx.era, ctx.request_id))
    if ctx.is_cancelled or ctx.deadline is not None and ctx.deadline < 0:
        raise mcp_stdio.ToolError("cancelled")
    return len(NOTES)


@server.tool(task="optional")
def slow_sum(numbers: "list[float]", ctx: Context) -> float:
    """Add numbers, slowly; may run as a task."""
    total = 0.0
    for n in numbers:
        if ctx.sleep(0.01):                     # True: cancelled meanwhile
            raise mcp_stdio.ToolError("cancelled")
        total += n
    return total


@server.resource("notes://index", mime_type="text/plain")
def index() -> str:
    """Every note's name."""
    return "\n".join(sorted(NOTES))


@server.resource_template("notes://note/{name}")
def note(name: str) -> str:
    """One note."""
    if name not in NOTES:
        raise mcp_stdio.ResourceNotFound("notes://note/" + name)
    return NOTES[name]


@server.prompt
def summarize(style: str = "short") -> str:
    """Ask for a summary of every note."""
    return "Summarize these notes (%s):\n%s" % (style, "\n".join(NOTES.values()))


board_view = server.app("ui://notes/board", html="<!doctype html><title>Notes</title>")


@server.tool(app="ui://notes/board")
def board() -> "dict[str, list[str]]":
    """The notes on a board (a view where the client shows views)."""
    return {"names": sorted(NOTES)}


inner = Server("inner", "1.0")


@inner.tool
def shout(text: str) -> str:
    """Shout."""
    return text.upper()


server.mount("loud", inner)


def check() -> None:
    """The in-process client, as tests use it."""
    with mcp_stdio.InProcessClient(server, era="legacy") as client:
        names = [t["name"] for t in client.list_tools()]
        result = client.call_tool("add_note", {"name": "a", "text": "hello"})
        index = client.read_resource("notes://index")["contents"]
        prompt = client.get_prompt("summarize", {"style": "short"})["messages"]
        text = mcp_stdio.text("x")
        print(names, result["content"], index, len(prompt), text["text"])
    tool: mcp_stdio.Tool = mcp_stdio.tool_from_function(add_note)
    problems: "list[str]" = mcp_stdio.compile_schema({"type": "object"}).errors([])
    line: bytes = mcp_stdio.encode_message({"jsonrpc": "2.0", "method": "ping"})
    print(tool.name, problems, line)


if __name__ == "__main__":
    sys.exit(server.run())
