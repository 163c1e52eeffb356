"""A notes server: tools to add and search notes, each note a resource, and a prompt.

Run it:  python3 examples/notes_server.py [--notes-dir DIR]   (default $NOTES_DIR, or notes/
beside this file)
"""

import os
import sys
from typing import Annotated, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402  (vendored: the single file next to your code)
from mcp_stdio import Field, ToolError  # noqa: E402

# The default folder sits beside this file, wherever the host starts the server from;
# $NOTES_DIR and --notes-dir, typed by a person, follow the working folder.
NOTES = os.path.abspath(os.environ.get("NOTES_DIR") or
                        os.path.join(os.path.dirname(os.path.abspath(__file__)), "notes"))
# live=True: the catalog changes while serving (each note is a listed resource), and
# clients that subscribe to a note hear when it changes.
server = mcp_stdio.Server("notes", "1.0", instructions="Keeps short plain-text notes.",
                          live=True)


def _list_note(name):
    """Offer a note as a resource of its own, so that resources/list shows it."""
    uri = "notes://" + name
    if uri not in server.resources:
        server.add(mcp_stdio.Resource(uri, lambda uri, ctx: read_note(uri[len("notes://"):]),
                                      name=name, mime_type="text/plain"))
    return uri


def _path(slug):
    if not slug.replace("-", "").isalnum():
        raise ToolError("A note name uses letters, digits and '-' only.")
    return os.path.join(NOTES, slug + ".txt")


@server.tool(annotations={"destructiveHint": False, "idempotentHint": True})
def add_note(name: Annotated[str, Field(min_length=1, max_length=40)],
             text: Annotated[str, Field(max_length=10000)]) -> dict:
    """Save a note, replacing any note of the same name.

    Args:
        name: Letters, digits and '-' (it becomes the resource notes://NAME).
        text: The note's text.
    """
    os.makedirs(NOTES, exist_ok=True)
    with open(_path(name), "w", encoding="utf-8") as f:
        f.write(text)
    uri = _list_note(name)
    server.notify_resource_updated(uri)      # subscribers read it again
    return {"uri": uri, "characters": len(text)}


@server.tool(annotations={"destructiveHint": True, "idempotentHint": True})
def delete_note(name: Annotated[str, Field(min_length=1, max_length=40)]) -> str:
    """Delete a note.

    Args:
        name: The note to delete.
    """
    try:
        os.remove(_path(name))
    except FileNotFoundError:
        raise ToolError("There is no note %r." % name)
    uri = "notes://" + name
    if uri in server.resources:
        server.remove_resource(uri)
    server.notify_resource_updated(uri)
    return "Deleted %s." % uri


@server.tool(annotations={"readOnlyHint": True})
def search_notes(query: str, limit: Optional[Annotated[int, Field(minimum=1)]] = None) -> dict:
    """Find notes whose text contains query (case-insensitive).

    Args:
        query: Text to look for.
        limit: The most results to return.
    """
    hits = []
    for name in sorted(os.listdir(NOTES)) if os.path.isdir(NOTES) else []:
        with open(os.path.join(NOTES, name), encoding="utf-8") as f:
            if query.lower() in f.read().lower():
                hits.append(name[:-4])
    return {"matches": hits if limit is None else hits[:limit]}


@server.resource_template("notes://{name}", mime_type="text/plain",
                          complete=lambda arg, value, known: [
                              n[:-4] for n in sorted(os.listdir(NOTES))
                              if n.startswith(value)] if os.path.isdir(NOTES) else [])
def read_note(name: str):
    """A saved note."""
    try:
        with open(_path(name), encoding="utf-8") as f:
            return f.read()
    except (OSError, ToolError):
        raise mcp_stdio.ResourceNotFound("notes://" + name)


@server.prompt
def summarize_note(name: str) -> str:
    """Ask for a summary of one note.

    Args:
        name: The note to summarize.
    """
    return "Summarize the note notes://%s in three bullet points." % name


def list_saved_notes():
    """Offer every note already saved in NOTES as a resource."""
    for name in sorted(os.listdir(NOTES)) if os.path.isdir(NOTES) else []:
        if name.endswith(".txt"):
            _list_note(name[:-4])


if __name__ != "__main__":
    list_saved_notes()       # imported: $NOTES_DIR or the default folder
else:
    # Options of our own come first; the rest are the server's (--workers, --help, ...).
    import argparse
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--notes-dir")
    mine, rest = parser.parse_known_args()
    if mine.notes_dir:
        NOTES = os.path.abspath(mine.notes_dir)
    list_saved_notes()       # only the folder in use: --notes-dir wins over $NOTES_DIR
    raise SystemExit(server.run(rest, own_options=[
        "  --notes-dir DIR     where the notes are kept (default $NOTES_DIR or notes/ here)"]))
