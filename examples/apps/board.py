"""A task board with an MCP App view: hosts that render apps show the board, others its text.

Run it:  python3 examples/apps/board.py   (from any folder: the view's file is found beside
this one). Inspect it:  python3 mcp_stdio.py inspect -- python3 examples/apps/board.py

- show_board: the model calls it; the result is a text summary (every client) and
  structured data that the view draws.
- move_card: only the view calls it (visibility ["app"]); clients that do not render
  apps neither see nor can call it.
"""

import os
import sys
from typing import Literal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
import mcp_stdio  # noqa: E402  (vendored: the single file next to your code)
from mcp_stdio import ToolError  # noqa: E402

server = mcp_stdio.Server("board", "1.0", instructions="A small task board with a view.")

# The view is one HTML file; a relative path follows this file, not the working folder.
# bridge=True inlines mcp_stdio's view bridge (window.mcpApp), which board.html is written on.
server.app("ui://board/view", "board.html", name="board", title="Task board",
           description="The board, drawn as columns of cards.", prefers_border=True,
           bridge=True)

COLUMNS = ("todo", "doing", "done")
CARDS = {1: {"title": "Write the README", "column": "doing"},
         2: {"title": "Add a view", "column": "todo"},
         3: {"title": "Ship 1.0", "column": "todo"}}


def _board():
    return {"columns": [{"name": c, "cards": [dict(id=i, title=card["title"])
                                              for i, card in sorted(CARDS.items())
                                              if card["column"] == c]} for c in COLUMNS]}


def _summary(board):
    return "\n".join("%s: %s" % (col["name"], ", ".join(c["title"] for c in col["cards"]) or "-")
                     for col in board["columns"])


@server.tool(app="ui://board/view", annotations={"readOnlyHint": True})
def show_board() -> mcp_stdio.ToolResult:
    """Show the task board: its columns and their cards."""
    board = _board()
    # The text is what the model reads (and all a host without views shows); the
    # structured content is what the view draws.
    return mcp_stdio.ToolResult([mcp_stdio.text(_summary(board))], structured=board)


@server.tool(app="ui://board/view", visibility=["app"])
def move_card(card: int, column: Literal["todo", "doing", "done"]) -> mcp_stdio.ToolResult:
    """Move a card to another column (the view's buttons call it).

    Args:
        card: The card's id.
        column: Where it goes.
    """
    if card not in CARDS:
        raise ToolError("There is no card %d." % card)
    CARDS[card]["column"] = column
    board = _board()
    return mcp_stdio.ToolResult([mcp_stdio.text(_summary(board))], structured=board)


if __name__ == "__main__":
    raise SystemExit(server.run())
