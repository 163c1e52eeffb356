#!/usr/bin/env python3
"""mcp_stdio: a Model Context Protocol server on stdin/stdout, in one standard-library file.

Serve tools, resources and prompts to AI clients of both MCP eras: modern clients
(revision 2026-07-28, per-request ``_meta``, ``server/discover``) and legacy
clients (the ``initialize`` handshake, revisions 2024-11-05 through 2025-11-25).

Run the demo server::

    python mcp_stdio.py

Serve your own tools::

    import mcp_stdio

    server = mcp_stdio.Server("calc", "1.0")

    @server.tool()
    def add(a: float, b: float) -> dict:
        "Add two numbers."
        return {"sum": a + b}

    if __name__ == "__main__":
        raise SystemExit(server.run())

Test it without a process: ``with mcp_stdio.InProcessClient(server) as c:
c.call_tool("add", {"a": 1, "b": 2})``. Inspect any stdio server:
``python mcp_stdio.py inspect -- COMMAND [ARGS...]``; see a tool's MCP App
view in your browser: ``python mcp_stdio.py preview TOOL -- COMMAND``; print a
client configuration: ``python mcp_stdio.py config claude-desktop -- server.py``.

The file is organised in sections, each opened by a banner comment, read from the
top: each names only what a section above it defines, so the library comes first,
layer on layer, the server last, and the commands after it:

- Revisions: the revisions served and the table of what each has (a new modern
  revision is one entry), the _meta keys and the error codes;
- Wire: the JSON-RPC codec and line splitter;
- Extension points: the tables of hooks and kinds the engine and the catalog
  read, empty until the Extensions section fills them;
- Catalog: tools and their results (Tool, and _tool_answer, which makes every
  tool's wire result); Catalog: resources, prompts and the kinds table (a new
  kind is one row);
- Authoring API: functions, fields and results from values (a handler made of a
  function); Large catalogs (a function's tool described at first use, listings
  kept between starts); then Authoring API: the decorators;
- Outcomes: every answer's wire form, and the table of what each failure becomes;
- Asking the client: questions, answers, request-state signing;
- Protocol engine (sans-IO): calls and methods (each method beside its route
  row: a new method is one function and one row, and the era rules);
  Middleware (code around every request); then Protocol engine (sans-IO): the
  era machine and Connection (input, admission, dispatch, settling);
- Client: errors and the shapes of answers, which the client and the extensions'
  client sides check;
- the extensions, each a section of its own: Tasks (long-running tool calls,
  core in 2025-11-25, an extension from 2026-07-28), Skills (folders of Agent
  Skills), MCP Apps (tools that show an HTML view) and Tool search; then
  Extensions: how to add one, and the table of what each adds, its methods,
  kinds and hooks (a new extension is a section and one row);
- Stdio runtime: threads, waiting, the handler Context;
- Platforms: what to start, and how, on Linux, macOS and Windows;
- Client; Mounting (another server served as part of this one);
- Server: identity, catalog and the options table (a new option is one row);
- Appendices, libraries of their own: the JSON Schema 2020-12 subset checker,
  schemas from type hints, and the strict reader of the YAML subset front
  matter uses;
- then, after the Commands banner, what `python mcp_stdio.py COMMAND` runs:
  Proxy (a host's file served as one server), Client commands on a terminal
  (questions asked, results shown), Client commands (inspect, call, read, get),
  MCP Apps preview, Host setup (the hosts and the doctor; config and install),
  Demo catalog, and Command line: the table of commands (a new command is one
  row and one handler) and main(). The library above the banner needs nothing
  below it.

The file's rules, each held by a structural test:

- only the revision table decides by date: code asks it for a feature by name,
  and a new modern revision is one string appended to MODERN_VERSIONS (the hosts
  the doctor models name the revision each sends, as data);
- the engine does no I/O and reads only the clocks it is given (files are read
  by calls of their own, run where handlers run);
- a feature is rows and hooks, never a branch in Connection, which names no
  feature (no extension, app, view, mount or middleware); nothing but the era
  rules and the era machine branches on an era, and nothing compares dates;
- a section holds at most 1,200 lines and defines at most 45 names (the
  appendices excepted: libraries of their own);
- no section uses anything defined below it, at import time or at run time (the
  appendices excepted: any section may use them).

Words this file uses in a sense of its own:

- a source: what adds entries to a server's catalog while it serves (a mount);
- the audience of a listing: the extensions the client takes up that change what
  it is listed (MCP Apps, tool search), for which listings are kept apart; an
  extension's hooks are named for what they do to it (takes: a client takes the
  extension up; grants, checks, hides, lists, marks: see _Extension);
- a keeper: what keeps a call's outcome when an extension took the call over
  (a task), call.keeper;
- the lead: the stdio runtime's reading thread, which runs quick calls itself
  and hands the reading to a new thread when a call runs long (leader/follower);
- parked: the runtime's watchdog while nothing runs (it sleeps until a call
  comes); and a legacy mount's question to a modern client, which waits for the
  client's retry that carries the answer.

Imports: only what serving needs is imported at the top. Anything else (inspect,
typing, asyncio, hashlib, base64, traceback, ...) is imported inside the function
that needs it, so that start-up pays only for what every server uses, and a cold
path costs nothing until it runs.
"""

from __future__ import annotations     # annotations stay text: the start never reads them

import json
import os
import re
import sys
import threading
from functools import partial as _partial     # imported by re already
from operator import attrgetter as _attrgetter   # imported by re already too
from time import monotonic as _monotonic

__version__ = "0.13.0"

# True for a type checker only: what it reads under "if TYPE_CHECKING:" (typing and the
# decorators' overloads) costs the start nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, TypeVar, overload
    _Fn = TypeVar("_Fn", bound=Callable[..., Any])
    _Client = TypeVar("_Client", bound="Client")
    _JSON = Dict[str, Any]        # a JSON object as the client returns it

__all__ = [
    "SchemaError", "Validator", "compile_schema", "validate",
    "Tool", "ToolError", "ToolResult", "Resource", "ResourceContents", "ResourceTemplate",
    "ResourceNotFound",
    "Prompt", "ProtocolError", "CatalogError", "Server", "Connection", "Context", "Call",
    "Field", "tool_from_function", "text", "image", "audio", "resource_link",
    "embedded_resource", "Client", "InProcessClient", "ClientError", "ServerError",
    "MalformedResult", "PendingRequest",
    "ElicitResult", "SampleResult", "Question", "Form", "OpenURL", "Sample", "Roots", "Content",
    "encode_message", "decode_message", "LineSplitter", "serve_stdio", "main",
]


_PATTERNS = {}


def _pattern(source):
    """The regular expression source, compiled on first use: start-up compiles none."""
    rx = _PATTERNS.get(source)
    if rx is None:
        rx = _PATTERNS[source] = re.compile(source)
    return rx


###############################################################################
# Revisions: versions, features, keys and error codes #########################
###############################################################################

# The revisions served: legacy ones (the initialize handshake) and modern ones
# (per-request _meta), oldest first. A new modern revision is one more entry of
# MODERN_VERSIONS; it has every feature of the revision table that has no end
# (rows it adds or ends are rows of their own, with its date).
LEGACY_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_VERSIONS = ("2026-07-28",)
LATEST_LEGACY = LEGACY_VERSIONS[-1]
FIRST_MODERN = MODERN_VERSIONS[0]         # where the modern era begins, whatever follows
REVISIONS = LEGACY_VERSIONS + MODERN_VERSIONS

# What each protocol revision added (or, with an end, later removed), from the
# changelogs of the specification: each row gives the date a feature starts and the
# first revision without it, never "the latest" (a later revision must not move
# them). Every "does this revision have X?" question in this file asks _has(); no
# other code compares revision dates.
_REVISION_TABLE = {
    # feature: (first revision that has it, first revision that no longer has it)
    "audio": ("2025-03-26", None),                   # audio content blocks
    "tool_annotations": ("2025-03-26", None),        # Tool.annotations
    "progress_message": ("2025-03-26", None),        # notifications/progress "message"
    "completions": ("2025-03-26", None),             # the completions capability
    "batches": ("2025-03-26", "2025-06-18"),         # JSON-RPC batches
    "titles": ("2025-06-18", None),                  # "title" on tools, prompts, arguments...
    "structured_content": ("2025-06-18", None),      # outputSchema, structuredContent
    "resource_links": ("2025-06-18", None),          # resource_link content blocks
    "content_meta": ("2025-06-18", None),            # _meta on content, contents and listings
    "last_modified": ("2025-06-18", None),           # annotations.lastModified
    "elicitation": ("2025-06-18", None),             # elicitation/create
    "icons": ("2025-11-25", None),                   # icons on tools, resources, links...
    "implementation_details": ("2025-11-25", None),  # Implementation description, websiteUrl
    "elicitation_mode": ("2025-11-25", None),        # elicitation "mode": "form"
    "elicitation_url": ("2025-11-25", None),         # URL-mode elicitation
    "elicitation_id": ("2025-11-25", FIRST_MODERN),  # elicitationId, .../elicitation/complete
    "sampling_tools": ("2025-11-25", None),          # tools in sampling/createMessage
    "cache_hints": (FIRST_MODERN, None),             # ttlMs and cacheScope on results
    "request_meta": (FIRST_MODERN, None),            # each request's _meta: revision, client
    # Methods that exist only in some revisions (the routes name them):
    "ping": ("2024-11-05", FIRST_MODERN),            # ping (the modern era has none)
    "log_level": ("2024-11-05", FIRST_MODERN),       # logging/setLevel (modern: per request)
    "subscribe": ("2024-11-05", FIRST_MODERN),       # resources/(un)subscribe
    "discover": (FIRST_MODERN, None),                # server/discover
    "listen": (FIRST_MODERN, None),                  # subscriptions/listen
    "tasks": ("2025-11-25", None),                   # tasks/get, tasks/cancel
    "tasks_core": ("2025-11-25", FIRST_MODERN),      # tasks in the core: params.task, tasks/result
    "tasks_extension": (FIRST_MODERN, None),         # the tasks extension: resultType "task"
}


def _features_of(revisions):
    """{revision: the names of the revision table it has}."""
    return {rev: frozenset(name for name, (since, until) in _REVISION_TABLE.items()
                           if since <= rev and (until is None or rev < until))
            for rev in revisions}


_FEATURES = _features_of(REVISIONS)


def _has(revision, feature):
    """Return True when protocol revision has feature (a name of the revision table)."""
    return feature in _FEATURES[revision]

# The _meta keys of the protocol, and the eras of a connection.
PV_KEY = "io.modelcontextprotocol/protocolVersion"
CAPS_KEY = "io.modelcontextprotocol/clientCapabilities"
INFO_KEY = "io.modelcontextprotocol/clientInfo"
LEVEL_KEY = "io.modelcontextprotocol/logLevel"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
SUB_KEY = "io.modelcontextprotocol/subscriptionId"
UNLOCKED, LEGACY, MODERN = "unlocked", "legacy", "modern"

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
RESOURCE_NOT_FOUND_LEGACY = -32002
MISSING_CLIENT_CAPABILITY = -32021
UNSUPPORTED_VERSION = -32022
# Our own codes lie outside -32768..-32000, which JSON-RPC reserves: MCP gives
# -32000..-32019 to legacy implementations (new ones should not use them) and
# -32020..-32099 to the specification alone.
TOO_MANY_TASKS = -31000       # a task-augmented call past --max-tasks (data says the bound)

class ProtocolError(Exception):
    """A JSON-RPC error to send back: code, one-sentence message, optional data.

    Handlers may raise it for protocol-level failures (for example -32021 when
    a client capability is missing); ordinary tool failures use ToolError.
    Codes of your own belong outside -32768..-32000, which JSON-RPC and MCP reserve.
    """

    request_id = None    # set by decode_message(): the id to answer a refused line with

    def __init__(self, code: Any, message: str, data: Any = None) -> None:
        Exception.__init__(self, message)
        self.code = code
        self.message = message
        self.data = data


class _Unknown(ProtocolError):
    """-32602 for a name that no entry has (yet: a mount that is starting may add it)."""


###############################################################################
# Wire: JSON-RPC codec and line splitter ######################################
###############################################################################

# The largest integer id: JavaScript clients read JSON numbers as doubles, which
# hold integers exactly only up to 2^53 - 1.
_MAX_ID = 2 ** 53 - 1
_BOM = b"\xef\xbb\xbf"
# The most messages in one batch: each member's response may be as large as the
# response limit, and a batch's answers are held until its last one is ready.
_MAX_BATCH = 100
# Strings longer than this are "large": quoted by the fast path of the large
# encoder, and a result holding one is encoded with it.
_LARGE_STRING = 4096


def _valid_id(rid):
    """Return True for a usable request id: a string, or an integer within +/-(2^53-1)."""
    t = type(rid)
    return t is str or (t is int and -_MAX_ID <= rid <= _MAX_ID)


# Integers longer than this are refused: CPython's default limit for int/str
# conversion (its cost grows with the square of the length), applied here on
# every version, whatever the interpreter is set to.
_MAX_INT_DIGITS = 4300
_INF = float("inf")


def _pairs_hook(pairs):
    d = dict(pairs)
    if len(d) != len(pairs):
        raise ValueError("duplicate object key")
    return d


def _no_constant(name):
    raise ValueError("%s is not valid JSON" % name)


def _not_json(value):
    raise TypeError("%s is not JSON serializable" % type(value).__name__)


def _strict_float(text):
    f = float(text)
    if f == _INF or f == -_INF:
        raise ValueError("number overflows")
    return f


_decoder = json.JSONDecoder(object_pairs_hook=_pairs_hook, parse_constant=_no_constant,
                            parse_float=_strict_float)
_scan_once = _decoder.scan_once         # raw_decode() without its Python frame
# The same without the duplicate-key check, which costs a Python call per object.
_scan_last_wins = json.JSONDecoder(parse_constant=_no_constant,
                                   parse_float=_strict_float).scan_once
_encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False)
_eb = json.encoder.encode_basestring     # a str as a JSON string, non-ASCII kept
try:
    # One C encoder for the process: JSONEncoder.encode() builds a new one per call.
    # Without the circular-reference markers a cycle ends in RecursionError instead.
    from json.encoder import c_make_encoder as _c_make_encoder
    _c_encode = _c_make_encoder(None, _not_json, _eb, None, ":", ",", False, False, False)
except (ImportError, TypeError):
    _c_encode = None

_SAFE_ASCII = bytes(b for b in range(0x20, 0x7f) if b not in b'"\\')


def _large_encoder():
    """A C encoder for one message that carries long strings.

    Long ASCII strings that need no escaping are just quoted: the C escaper goes
    character by character, this check several times faster. A long
    string met twice (as text and in structuredContent) is quoted once.
    """
    quoted = {}         # id -> (the string, kept alive so its id stays its own; JSON text)

    def quote(s):
        if len(s) <= _LARGE_STRING:
            return _eb(s)
        seen = quoted.get(id(s))
        if seen is not None and seen[0] is s:
            return seen[1]
        if s.isascii() and not s.encode("ascii").translate(None, _SAFE_ASCII):
            q = '"' + s + '"'
        else:
            q = _eb(s)
        quoted[id(s)] = (s, q)
        return q
    return _c_make_encoder(None, _not_json, quote, None, ":", ",", False, False, False)

_SURROGATE_RE = "[\ud800-\udfff]"
# A string, or an unterminated one up to the line's end: each loop starts where the
# previous one cannot, and the last part matches whatever follows, so nothing backtracks
# (the plain '"(?:[^"\\]|\\.)*"' retries from every quote: quadratic on a deep line).
_STRING_RE = rb'"[^"\\]*(?:\\[\s\S][^"\\]*)*(?:"|\\?\Z)'
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")


def _nesting(line):
    """Return the deepest nesting of arrays and objects in a JSON text (strings skipped).

    Exact for JSON; for other bytes only a guess, which the decoder then settles.
    """
    if line.find(b'"') >= 0:
        line = _pattern(_STRING_RE).sub(b"", line)
    depth = deepest = 0
    for c in line.translate(None, _NOT_BRACKETS):
        if c == 91 or c == 123:
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


# What a line may start with before its JSON value: whitespace, or a byte order mark.
_ODD_STARTS = frozenset((" ", "\t", "\r", "\ufeff"))

# Every input line is of exactly one class, and each class has one answer:
#   over the line limit    -32600 without id (the splitter drops it; nothing can be read)
#   not JSON               -32700 without id, whatever a scan could read in it: RFC 8259's
#                          grammar fails (invalid UTF-8, NaN, a truncated value, a second
#                          value or trailing bytes on the line)
#   JSON we refuse         -32600, with the id when the top-level object has exactly one
#                          valid "id" and a "method": a duplicate key, a lone surrogate,
#                          an integer over _MAX_INT_DIGITS, a number that overflows, or
#                          nesting over the limit
#   shaped like a response never answered with its id (it is in the server's id space)
#   a notification         never answered
#   a request              answered once, with its id
# decode_message() sorts out the first three; the engine the rest. An error is
# raised as ProtocolError whose .request_id is the id to answer with (None: no id).


def decode_message(line: Any, max_depth: int = 32, unique_keys: bool = True) -> Any:
    """Decode one line (bytes, without its LF) strictly into a JSON value.

    Raises ProtocolError: -32700 (id None) for a line that is not JSON in UTF-8,
    -32600 for JSON we refuse, with .request_id set to the request's id when it can be
    known for certain (see the line classes above). unique_keys=False lets a later
    duplicate key replace an earlier one, as most JSON parsers do.
    """
    if line.count(b"[") + line.count(b"{") > max_depth and _nesting(line) > max_depth:
        return _decode_deep(_line_text(line), max_depth)
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or text[:1] in _ODD_STARTS:
        text = _line_text(line)      # leading whitespace; or -32700 for bad UTF-8 or a stray BOM
    try:
        value, end = (_scan_once if unique_keys else _scan_last_wins)(text, 0)
    except StopIteration as e:
        raise ProtocolError(PARSE_ERROR, "Parse error: Expecting value at column %d"
                            % (e.value + 1))
    except json.JSONDecodeError as e:
        raise ProtocolError(PARSE_ERROR, "Parse error: %s at column %d" % (e.msg, e.colno))
    except (ValueError, RecursionError):
        return _decode_refused(text, max_depth)      # a hook or a limit refused something
    if end != len(text) and text[end:].strip(" \t\r"):
        raise ProtocolError(PARSE_ERROR, "Parse error: extra data after the JSON value at "
                            "column %d" % (end + 1))
    # find(), not "in": bytes.__contains__ formats and discards a TypeError first.
    if line.find(b"\\") >= 0 and (line.find(b"\\ud") >= 0 or line.find(b"\\uD") >= 0) \
            and _has_surrogate(value):
        return _decode_refused(text, max_depth)
    if len(line) > _MAX_INT_DIGITS and not _int_limit_in_force() and \
            _pattern("(?<![0-9])[0-9]{%d}" % (_MAX_INT_DIGITS + 1)).search(text):
        return _decode_refused(text, max_depth)
    return value


def _line_text(line):
    """The line as text for the decoder; -32700 for invalid UTF-8 or a misplaced BOM."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ProtocolError(PARSE_ERROR, "Parse error: invalid UTF-8 at byte %d" % e.start)
    if text[:1] in _ODD_STARTS:
        if text[0] == "\ufeff":
            raise ProtocolError(PARSE_ERROR, "Parse error: unexpected byte order mark at "
                                "column 1")
        text = text.lstrip(" \t\r")
    return text


def _int_limit_in_force():
    """Return True when the interpreter itself refuses integers over _MAX_INT_DIGITS."""
    get = getattr(sys, "get_int_max_str_digits", None)      # 3.9.14 and later
    return get is not None and 0 < get() <= _MAX_INT_DIGITS


def _has_surrogate(v):
    if isinstance(v, str):
        return _pattern(_SURROGATE_RE).search(v) is not None
    if isinstance(v, dict):
        return any(_has_surrogate(k) or _has_surrogate(x) for k, x in v.items())
    if isinstance(v, list):
        return any(_has_surrogate(x) for x in v)
    return False


# -- JSON we refuse: the slow path -------------------------------------------------

class _Refused:
    """A value the lenient decoder kept in place of one we refuse, with the reason."""

    __slots__ = ("why",)

    def __init__(self, why):
        self.why = why


class _Duplicates(dict):
    """An object with a repeated key (the last value kept), and which keys repeat."""

    __slots__ = ("repeated",)


def _lenient_pairs(pairs):
    d = dict(pairs)
    if len(d) == len(pairs):
        return d
    d = _Duplicates(pairs)
    seen = set()
    d.repeated = [k for k, _ in pairs if k in seen or seen.add(k)]
    return d


def _lenient_int(text):
    digits = len(text) - (text[0] == "-")
    if digits <= _MAX_INT_DIGITS:
        try:
            return int(text)
        except ValueError:      # the author set the interpreter's limit lower
            pass
    return _Refused("an integer of %d digits (the limit is %d)" % (
        digits, _MAX_INT_DIGITS if not _int_limit_in_force() else sys.get_int_max_str_digits()))


def _lenient_float(text):
    f = float(text)
    if f == _INF or f == -_INF:
        return _Refused("a number too large for a double")
    return f


def _decode_refused(text, max_depth):
    """Decode text that the strict decoder refused: -32700, -32600 with a reason, or its value.

    The lenient decoder keeps what we refuse in place, so the whole line is
    first proven to be JSON; only then is its id read.
    """
    lenient = json.JSONDecoder(object_pairs_hook=_lenient_pairs, parse_constant=_no_constant,
                               parse_float=_lenient_float, parse_int=_lenient_int)
    try:
        value, end = lenient.raw_decode(text)
    except json.JSONDecodeError as e:
        raise ProtocolError(PARSE_ERROR, "Parse error: %s at column %d" % (e.msg, e.colno))
    except RecursionError:      # deeper than the interpreter decodes: prove it without recursion
        return _decode_deep(text, max_depth)
    except ValueError as e:
        raise ProtocolError(PARSE_ERROR, "Parse error: %s" % (str(e).split(":")[0][:80],))
    if text[end:].strip(" \t\r"):
        raise ProtocolError(PARSE_ERROR, "Parse error: extra data after the JSON value at "
                            "column %d" % (end + 1))
    found = _first_refused(value)
    if found is None:
        return value             # nothing refused after all (a long run of digits in a string)
    why, where = found
    members = list(value.items()) if isinstance(value, dict) else None
    if type(value) is _Duplicates:
        members = [(k, _Refused("repeated") if k in value.repeated else v)
                   for k, v in members]
    raise _refusal("%s at %s" % (why, where), members)


def _refusal(what, members):
    """The -32600 error for JSON we refuse; members are the top-level (key, value) pairs, or None."""
    rid = None
    if members is not None:
        ids = [v for k, v in members if k == "id"]
        if len(ids) == 1 and _valid_id(ids[0]) and not (type(ids[0]) is str and _has_surrogate(
                ids[0])) and any(k == "method" for k, _ in members):
            rid = ids[0]
    e = ProtocolError(INVALID_REQUEST, "Invalid Request: " + what)
    e.request_id = rid
    return e


def _first_refused(value):
    """(reason, JSON pointer) of the first value we refuse in document order, or None."""
    stack = [(value, ())]
    while stack:
        v, loc = stack.pop()
        t = type(v)
        if t is str:
            if _has_surrogate(v):
                return "a lone surrogate escape", _pointer(loc)
        elif t is _Refused:
            return v.why, _pointer(loc)
        elif t is list:
            stack.extend((x, loc + (i,)) for i, x in reversed(list(enumerate(v))))
        elif t is dict or t is _Duplicates:
            if t is _Duplicates:
                return "duplicate key %s" % _short(_shown(v.repeated[0]), 40), _pointer(loc)
            for k in v:
                if _has_surrogate(k):
                    return "a lone surrogate escape in a key", _pointer(loc)
            stack.extend((x, loc + (_shown(k),)) for k, x in reversed(list(v.items())))
    return None


def _shown(key):
    """A key as a message may show it: a lone surrogate becomes U+FFFD."""
    return key.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


# -- Deep lines: a grammar check without recursion ---------------------------------

# Every token costs time linear in its length: a string is the unrolled loop (a '+'
# inside a '*' retries every way to split a string that cannot end, exponential in
# its length), and the last two alternatives match whatever may follow the blanks,
# so no attempt ever fails and backtracks over them.
_TOKEN_RE = (r'[ \t\n\r]*(?:(\[+)|(\{)|(\]+)|(\})|(,)|(:)'
             r'|("[^"\\\x00-\x1f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\x00-\x1f]*)*")'
             r'|(-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)'
             r'|(true|false|null)|([^ \t\n\r])|\Z)')
# States of the grammar check: what may come next.
_VALUE, _VALUE_OR_CLOSE, _KEY, _KEY_OR_CLOSE, _COLON, _AFTER = range(6)


def _decode_deep(text, max_depth):
    """Refuse text nested too deep to decode: -32700 unless it is JSON, then -32600.

    The grammar is checked token by token with an explicit stack (no value is
    built, no recursion), so the cost is linear in the line, which the line
    limit bounds; the top-level members are kept to find the id.
    """
    depth, members = _grammar(text)
    if depth > max_depth:
        raise _refusal("nesting depth %d exceeds the limit of %d" % (depth, max_depth), members)
    raise _refusal("nesting depth %d is more than this interpreter decodes" % depth, members)


def _grammar(text):
    """Check that text is one JSON value; return its deepest nesting and top-level members.

    members is the top-level object's list of (key, value) pairs, values other
    than scalars left as _Refused; None when the value is not an object.
    """
    stack, state, deepest, pos = [], _VALUE, 0, 0
    members, key = None, None
    for m in _pattern(_TOKEN_RE).finditer(text):
        kind = m.lastindex
        if kind is None:                                # blanks up to the end
            continue
        if m.start() != pos or kind == 10 or (not stack and state == _AFTER):
            break                                       # a stray byte, or a second value
        pos = m.start(kind)
        if kind <= 2:                                   # [ (a run) or {
            if state != _VALUE and state != _VALUE_OR_CLOSE:
                break
            if not stack and kind == 2:
                members = []
            elif len(stack) == 1 and key is not None:
                members.append((key, _Refused("a container")))
                key = None
            if kind == 1:
                stack.extend("[" * (m.end(1) - m.start(1)))
                state = _VALUE_OR_CLOSE
            else:
                stack.append("{")
                state = _KEY_OR_CLOSE
            if len(stack) > deepest:
                deepest = len(stack)
        elif kind <= 4:                                 # ] (a run) or }
            n, opener = (m.end(3) - m.start(3), "[") if kind == 3 else (1, "{")
            if not (state == _AFTER or state == _VALUE_OR_CLOSE and kind == 3 or
                    state == _KEY_OR_CLOSE and kind == 4) or stack[-n:].count(opener) != n:
                break
            del stack[-n:]
            state = _AFTER
        elif kind == 5:                                 # ,
            if state != _AFTER or not stack:
                break
            state = _VALUE if stack[-1] == "[" else _KEY
        elif kind == 6:                                 # :
            if state != _COLON:
                break
            state = _VALUE
        elif state == _KEY or state == _KEY_OR_CLOSE:   # a key
            if kind != 7:
                break
            if len(stack) == 1:
                key = json.loads(m.group(7))
            state = _COLON
        elif state == _VALUE or state == _VALUE_OR_CLOSE:   # a string, number or literal
            if len(stack) == 1 and key is not None:
                members.append((key, _scalar(m.group(kind), kind)))
                key = None
            state = _AFTER
        else:
            break
        pos = m.end()
    else:
        if not stack and state == _AFTER and not text[pos:].strip(" \t\r\n"):
            return deepest, members
        pos = len(text) if stack or state != _AFTER else pos + len(text[pos:]) - len(
            text[pos:].lstrip(" \t\r\n"))
    raise ProtocolError(PARSE_ERROR, "Parse error: not a single JSON value (stopped at "
                        "column %d)" % (pos + 1))


def _scalar(token, kind):
    """The value of a top-level scalar token (only an id needs it exactly)."""
    if kind == 7:
        return json.loads(token)
    if kind == 8 and token.lstrip("-").isdigit():
        return int(token) if len(token) <= 20 else _Refused("a long integer")
    return _Refused("not an id")


def encode_message(message: Any, large: bool = False) -> bytes:
    """Encode a message as one canonical line: compact UTF-8 JSON ending in LF.

    large=True suits messages that carry long strings (it quotes clean ones
    without re-escaping them).
    """
    chunks = _chunks(message, large)
    return ((chunks[0] if len(chunks) == 1 else "".join(chunks)) + "\n").encode("utf-8")


def _chunks(value, large=False):
    """The compact JSON text of value as a sequence of str (see encode_message)."""
    if _c_encode is None:
        return (_encoder.encode(value),)
    return (_large_encoder() if large else _c_encode)(value, 0)


class LineSplitter:
    """Split a byte stream into lines on LF, with bounded memory.

    feed() returns complete lines (one trailing CR stripped, blank lines skipped,
    a BOM at the very start of the stream dropped) and OVERSIZED for each line
    longer than max_line, which is discarded up to its LF.
    """

    OVERSIZED = None

    def __init__(self, max_line: Any = 1 << 20) -> None:
        self.max_line = max_line
        self._buf = []          # pieces of an incomplete line
        self._held = 0          # their total length
        self._discarding = False
        self._at_start = True

    def feed(self, data: Any) -> Any:
        if not self._buf and not self._discarding and not self._at_start:
            # One whole line per read, as a client waiting for each answer sends it.
            end = len(data) - 1
            if data.find(b"\n") == end and 0 < end <= self.max_line:
                line = data[:-2] if data[end - 1] == 13 else data[:-1]      # CR LF
                return [line] if line and not line.isspace() else []
        out = []
        if self._discarding:
            i = data.find(b"\n")
            if i < 0:
                return out
            self._discarding = False
            data = data[i + 1:]
        if self._buf:
            if data.find(b"\n") < 0 and len(data) + self._held <= self.max_line + 1:
                self._buf.append(data)          # still no LF: keep the pieces, copy once
                self._held += len(data)
                return out
            self._buf.append(data)
            data = b"".join(self._buf)
            self._buf = []
            self._held = 0
        if self._at_start:
            if len(data) < 3 and _BOM.startswith(data):
                self._buf, self._held = [data], len(data)
                return out
            self._at_start = False
            if data.startswith(_BOM):
                data = data[3:]
        limit = self.max_line
        parts = data.split(b"\n")
        tail = parts.pop()                 # what follows the last LF: an incomplete line
        if data.find(b"\r") >= 0:
            parts = [p[:-1] if p[-1:] == b"\r" else p for p in parts]
        if len(data) - len(tail) <= limit:
            out = [p for p in parts if p and not p.isspace()]
        else:
            out = [p if len(p) <= limit else None for p in parts
                   if p and (len(p) > limit or not p.isspace())]
        rest = len(tail)
        if rest > limit + 1:
            out.append(None)
            self._discarding = True
        elif rest:
            self._buf, self._held = [tail], rest
        return out

    def pending(self) -> bool:
        """Return True when a partial, non-blank line is buffered (or being discarded)."""
        return self._discarding or bool(b"".join(self._buf).strip())


###############################################################################
# Extension points: the tables extensions fill ################################
###############################################################################
#
# The engine, the catalog and the classes read these tables, and never name an
# extension: each is empty here and filled by _extend(), once for each row of the
# Extensions section (and _KINDS first with the catalog's own kinds). A table read
# at start-up or per request is a list, walked as it is.


class _Extension:
    """One extension's row: its identifier, its methods, and the engine's hooks it needs.

    What it adds (each optional):
    - routes: {method: _Route} for its methods; kinds: the rows of _KINDS it adds
      (skills), each with its list method;
    - shapes(): the result shapes the client checks for
      its methods ({method: JSON Schema}); tool_fields: the keywords it adds to
      every way of making a tool ({name: default}), checked by
      tool_check(owner, fields); inspects: what the command line declares for it,
      so that inspect sees all it adds (a host's view).

    The hooks the engine calls (each optional):
    - serves(server): whether a server serves its kind of entries;
    - connect(conn, wall_clock), close(conn): a connection opens, ends;
    - declare(server, revision, capabilities): the server says what it offers;
    - admit(conn, call, tool): a tools/call is admitted: it may refuse (raise
      ProtocolError), and returns what takes the call over at once
      (take(conn, call), which answers it, a task's) or None;
    - listen(conn, call, filter, honoured): what a subscriptions/listen asks of it;
    - lists(entry, revision, listing, audience): what it adds to a listed entry
      (returns the listing, or None where the entry is not listed);
    - takes(server, call): whether the request's client takes it up in a way that
      shapes its listings (its key then joins the audience listings are cached for);
    - hides(conn, call, tool): whether a tool is not there for this request (it
      answers as an unknown tool would);
    - offers(server, catalog): the capability the catalog makes it offer, or None;
    - grants(server, tables): what the grants imply beyond their names (it may
      change the granted tables); checks(server): what a catalog must hold when
      serving starts and after every change (raises CatalogError);
    - refresh(server): before a request reads what its entries are made of (a
      listing of its kind, a read of its files), off the reading thread;
      warns(server): the warning lines said when serving starts;
    - on the client's side: offer(client, params, task) shapes a tools/call,
      follow(client, result, timeout, on_status, on_progress) follows an answer it
      made (a task, polled to its end; None when the answer is not its own), and
      marks(field, entry, report) names for inspect what it adds to a listed entry
      ("problem: ..." for what breaks its rules).

    The keeper of a call it took over (call.keeper, its task) is asked:
    settled(conn, call, message) when the call settles, under the connection's
    lock, its outcome still a value ({"result": ...} or {"error": ...}, None when
    cancelled; what a middleware would see); after(conn, what) with its answer
    once the lock is released; related(params) for what is sent about it; and
    progress(conn, call, progress, total, message) and logs(call) for what a
    handler says (progress returns None to send it as for any call).
    """

    __slots__ = ("key", "routes", "kinds", "serves", "connect", "close", "declare", "admit",
                 "listen", "lists", "takes", "hides", "offers", "grants", "checks", "offer",
                 "follow", "marks", "shapes", "tool_fields", "tool_check", "inspects",
                 "refresh", "warns")

    def __init__(self, key, routes=None, kinds=(), serves=None, connect=None, close=None,
                 declare=None, admit=None, listen=None, lists=None, takes=None, hides=None,
                 offers=None, grants=None, checks=None, offer=None, follow=None, marks=None,
                 shapes=None, tool_fields=None, tool_check=None, inspects=None, refresh=None,
                 warns=None):
        self.key, self.routes, self.kinds = key, routes or {}, kinds
        self.serves = serves or (lambda server: True)   # whether a server serves it
        self.connect, self.close, self.declare = connect, close, declare
        self.admit, self.listen, self.offer, self.follow = admit, listen, offer, follow
        self.lists, self.takes, self.hides = lists, takes, hides
        self.offers, self.grants, self.checks = offers, grants, checks
        self.shapes, self.marks, self.inspects = shapes, marks, inspects
        self.refresh, self.warns = refresh, warns
        self.tool_fields, self.tool_check = tool_fields or {}, tool_check


# The hooks of every extension, in the order of their rows (see _Extension).
_CONNECT_HOOKS, _CLOSE_HOOKS, _ADMIT_HOOKS, _LISTEN_HOOKS = [], [], [], []
_REFRESH_HOOKS, _WARN_HOOKS, _LIST_HOOKS, _HIDE_HOOKS = [], [], [], []
_GRANT_HOOKS, _CHECK_HOOKS, _OFFER_HOOKS, _FOLLOW_HOOKS, _MARK_HOOKS = [], [], [], [], []
_SHAPE_HOOKS = []
_HOOK_TABLES = (("connect", _CONNECT_HOOKS), ("close", _CLOSE_HOOKS),
                ("admit", _ADMIT_HOOKS), ("listen", _LISTEN_HOOKS),
                ("refresh", _REFRESH_HOOKS), ("warns", _WARN_HOOKS), ("lists", _LIST_HOOKS),
                ("hides", _HIDE_HOOKS), ("grants", _GRANT_HOOKS), ("checks", _CHECK_HOOKS),
                ("offer", _OFFER_HOOKS), ("follow", _FOLLOW_HOOKS), ("marks", _MARK_HOOKS),
                ("shapes", _SHAPE_HOOKS))
_TAKE_HOOKS = []        # (key, takes): a client that takes it up joins the audience
_TOOL_CHECKS = []       # (the tool fields that call it, tool_check), run when one is given
_EXTENSION_TOOL_FIELDS = []     # the fields extensions add to a tool (app, ...)
_INSPECTS = {}          # what the command line declares of each, to see all it adds
# Every kind of catalog entry (_Kind), the core ones first; by attr; by class (the first
# kind of a class).
_KINDS, _KIND_BY_ATTR, _KIND_OF = [], {}, {}


def _add_kinds(kinds):
    """Add rows of kinds to _KINDS and its indexes."""
    for k in kinds:
        _KINDS.append(k)
        _KIND_BY_ATTR[k.attr] = k
        _KIND_OF.setdefault(k.cls, k)


def _extend(row):
    """Add an extension's row (an _Extension) to the tables."""
    for attr, table in _HOOK_TABLES:
        hook = getattr(row, attr)
        if hook is not None:
            table.append(hook)
    if row.takes is not None:
        _TAKE_HOOKS.append((row.key, row.takes))
    _EXTENSION_TOOL_FIELDS.extend(row.tool_fields)
    if row.tool_check is not None:
        _TOOL_CHECKS.append((frozenset(row.tool_fields) | {"meta"}, row.tool_check))
    if row.inspects is not None:
        _INSPECTS[row.key] = row.inspects
    _add_kinds(row.kinds)


###############################################################################
# Catalog: tools and results ##################################################
###############################################################################

class ToolError(Exception):
    """Raise in a tool handler to return an actionable isError result with this message."""


class CatalogError(ValueError):
    """A tool or server definition is invalid; the message names the tool and the problem."""


_TOOL_NAME_RE = r"^[A-Za-z0-9_.\-]{1,128}\Z"
_BASE64_RE = r"^[A-Za-z0-9+/]*={0,2}\Z"
_LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
_LEVEL_RANK = {name: i for i, name in enumerate(_LEVELS)}


# How a tool may run as a task (Tool(task=...)): never, when the client asks, always.
_TASK_MODES = ("forbidden", "optional", "required")


# The fields an author gives a tool beside its name, handler and schemas, with their
# defaults: Tool(), server.tool() and tool_from_function() all take exactly these
# keywords, checked in one place (_checked_tool_fields).
_TOOL_FIELDS = {"title": None, "description": None, "annotations": None, "icons": None,
                "timeout": None, "meta": None, "task": "forbidden", "task_start": "call",
                "pinned": False, "search_hint": None}
# The fields of a tool given only its task mode, as decorators give them (not to be
# changed; the Extensions section adds the fields extensions add).
_TASK_FIELDS = {mode: dict(_TOOL_FIELDS, task=mode) for mode in _TASK_MODES}
# What a listed tool's _meta tells a host that searches tools on its own (Claude Code):
# keep this one loaded (a pinned tool), and a phrase for its search.
ALWAYS_LOAD_KEY, SEARCH_HINT_KEY = "anthropic/alwaysLoad", "anthropic/searchHint"
_TOOL_ANNOTATIONS = ("title", "readOnlyHint", "destructiveHint", "idempotentHint",
                     "openWorldHint")


class _ResultInvalid(Exception):
    """A handler's result failed its own checks; the message names the problem."""


def _check_tool_name(name):
    """Raise CatalogError unless name is a tool name: 1-128 of A-Z, a-z, 0-9, _, - and '.'."""
    if not isinstance(name, str) or not (       # an ASCII identifier is the usual name
            name.isidentifier() and name.isascii() and len(name) <= 128 or
            _pattern(_TOOL_NAME_RE).match(name)):
        raise CatalogError("tool %r: the name must be 1-128 characters of A-Z, a-z, 0-9, "
                           "'_', '-' or '.'" % (name,))


def _tool_keywords(who, fields):
    """Raise TypeError, as a signature would, for a keyword no tool takes."""
    for k in fields:
        if k not in _TOOL_FIELDS:
            raise TypeError("%s() got an unexpected keyword argument %r" % (who, k))


def _checked_tool_fields(name, fields):
    """fields with every default filled in, checked (per tool at start-up: kept cheap)."""
    if len(fields) == 1 and fields.get("task") in _TASK_MODES:    # what a decorator gives
        return _TASK_FIELDS[fields["task"]]
    _tool_keywords("Tool", fields)
    out = _TOOL_FIELDS.copy()
    out.update(fields)
    owner = "tool %r" % (name,)
    timeout = out["timeout"]
    if timeout is not None and (not _is_number(timeout) or timeout <= 0):
        raise CatalogError("%s: timeout must be a positive number of seconds" % owner)
    if type(out["pinned"]) is not bool:
        raise CatalogError("%s: pinned must be True or False" % owner)
    hint = out["search_hint"]
    if hint is not None and (not isinstance(hint, str) or not hint.strip()):
        raise CatalogError("%s: search_hint must be a phrase (a non-empty string)" % owner)
    if out["task"] not in _TASK_MODES or out["task_start"] not in ("call", "handler"):
        raise CatalogError("%s: task must be 'forbidden', 'optional' or 'required', "
                           "and task_start 'call' or 'handler'" % owner)
    annotations = out["annotations"]
    _check_meta_fields(owner, out["title"], out["description"], annotations, out["icons"])
    if annotations and any(k not in _TOOL_ANNOTATIONS for k in annotations):
        raise CatalogError("%s: unknown annotation(s): %s (known: %s)" % (
            owner, ", ".join(sorted(set(annotations) - set(_TOOL_ANNOTATIONS))),
            ", ".join(_TOOL_ANNOTATIONS)))
    for names, check in _TOOL_CHECKS:    # the fields extensions add (a view's link)
        if not names.isdisjoint(fields):
            check(owner, out)
    return out


_HANDLER = object()      # _tool_answer's value while the call's handler has still to run


def _tool_answer(call, ctx=None, value=_HANDLER):
    """(call's CallToolResult, large): of value, or of what its tool's handler returns
    (with ctx) when no value is given; large when its text is for the large encoder.

    This is a tool's work (Tool.work): text, the common result, comes back as the
    result's JSON text, made at once, unless long (the large encoder quotes it
    faster), kept by a task or read by middleware (which keep and read values).
    Raises _ResultInvalid when the value fails the tool's own checks.
    """
    tool = call.target
    if value is _HANDLER:
        value = tool.handler(call.arguments, ctx)
    if type(value) is str and tool.output_schema is None and call.keeper is None and \
            "tools/call" not in call.conn._chains and len(value) <= _LARGE_STRING:
        return '{"content":[{"type":"text","text":%s}]}' % _eb(value), False
    revision = call.revision
    structured = _MISSING
    if isinstance(value, ToolResult):
        content, is_error, checked = value.content, value.is_error, False
        if not is_error and value.structured is not None:
            structured = value.structured
    elif type(value) is str:          # content built here needs no checking
        content, is_error, checked = [{"type": "text", "text": value}], False, True
    elif value is None and tool.output_schema is None:
        content, is_error, checked = [], False, True
    elif tool.output_schema is None and _looks_like_content(value):
        content, is_error, checked = list(value), False, False
    else:
        content, is_error, checked, structured = None, False, False, value
    validator = tool.output_validator
    if structured is not _MISSING:
        if content is None:
            try:
                content = [{"type": "text", "text": _encoder.encode(structured)}]
            except (TypeError, ValueError, UnicodeEncodeError, RecursionError) as e:
                raise _ResultInvalid(_not_json_problem(e))
            checked = True
        if not isinstance(structured, dict):     # a list or a number: one shape, every era
            structured = {"result": structured}
        if validator is not None:
            problems = validator.errors(structured)
            if problems:
                raise _ResultInvalid("structuredContent does not match outputSchema: "
                                     + problems[0])
    elif validator is not None and not is_error:
        raise _ResultInvalid("the tool declares an outputSchema but returned no "
                             "structured content")
    features = _FEATURES[revision]
    if not checked:
        problem = _check_content(content)
        if problem:
            raise _ResultInvalid(problem)
        if "resource_links" not in features or "icons" not in features:
            content = [_down_level_block(b, revision) for b in content]
    if is_error:
        result = {"content": content, "isError": True}
    elif structured is not _MISSING and "structured_content" in features:
        result = {"content": content, "structuredContent": structured}
    else:
        result = {"content": content}
    for b in content:
        if len(b.get("text", "")) > _LARGE_STRING:
            return result, True
    return result, False


class _AtFirstUse:
    """An attribute made when first read, by make(obj, attr), which sets it on obj.

    A non-data descriptor, not __getattr__: what it sets is read from then on,
    and the object's other attributes are read as any object's, quickly.
    """

    __slots__ = ("attr", "make")

    def __init__(self, attr, make):
        self.attr, self.make = attr, make

    def __get__(self, obj, cls=None):
        return self if obj is None else self.make(obj, self.attr)


def _compiled(tool, attr):
    """Compile a validator of a tool made with lazy=True (its schemas known to be valid)."""
    which = "input" if attr == "input_validator" else "output"
    schema = getattr(tool, which + "_schema")
    validator = None if schema is None else _compile_for("tool %r: %s" % (tool.name, which),
                                                         schema)
    setattr(tool, attr, validator)
    return validator


class Tool:
    """A tool: a name, a handler(arguments, ctx) and its schemas and metadata.

    The handler returns a str (text content), a JSON value (structured content
    with a JSON text copy), a list of content blocks, or a ToolResult; it raises
    ToolError for failures the model should see. input_schema may be a pydantic
    model class: the handler then gets the validated model instead of the
    arguments dict; an output_schema model means the handler returns instances.
    """

    def __init__(self, name: str, handler: Callable[..., Any], *,
                 input_schema: Dict[str, Any] | None = None,
                 output_schema: Dict[str, Any] | None = None, lazy: bool = False,
                 **fields: Any) -> None:
        """fields: the keywords of _TOOL_FIELDS (title, description, annotations, icons,
        timeout, meta, task, task_start, pinned, search_hint, app, visibility)."""
        f = _checked_tool_fields(name, fields)
        _check_tool_name(name)
        if not callable(handler):
            raise CatalogError("tool %r: the handler is missing or not callable" % name)
        if _is_model(input_schema) or _is_model(output_schema):     # pydantic model classes
            input_schema, output_schema, handler = _model_tool(name, handler, input_schema,
                                                               output_schema)
        if input_schema is None:
            input_schema = {"type": "object", "additionalProperties": False}
        if not isinstance(input_schema, dict) or input_schema.get("type") != "object":
            raise CatalogError("tool %r: inputSchema must be a JSON Schema object with "
                               "\"type\": \"object\" at its root" % name)
        output_schema = _output_schema(output_schema)
        if not lazy:      # lazy=True: schemas known to be valid, compiled on first use
            self.input_validator = _compile_for("tool %r: input" % name, input_schema)
            self.output_validator = (None if output_schema is None
                                     else _compile_for("tool %r: output" % name, output_schema))
        self.handler = handler
        self.input_schema = input_schema
        self.output_schema = output_schema
        self.nullable = frozenset()    # optional parameters for which null means "absent"
        self.uses_context = True       # False: the handler ignores its ctx (it gets None)
        self.description = f["description"]
        self._set_fields(name, f)

    if TYPE_CHECKING:      # what a type checker reads of a tool's attributes
        name: str
        handler: Callable[..., Any]
        input_schema: Dict[str, Any]
        output_schema: Dict[str, Any] | None
        title: str | None
        description: str | None
        annotations: Dict[str, Any] | None
        icons: List[Dict[str, Any]] | None
        timeout: float | None
        meta: Dict[str, Any] | None
        task: str
        task_start: str
        pinned: bool
        search_hint: str | None

    # A tool's fields default to the class's, which a decorated function's tool keeps
    # (_set_fields): a catalog of thousands sets ten attributes fewer a tool. Extensions
    # add theirs (app, ...) as they are added (the Extensions section).
    title = description = annotations = icons = timeout = meta = None
    task, task_start, pinned, search_hint = "forbidden", "call", False, None
    forwards = None        # a tool that calls another: forwards(arguments) -> (its name, its
                           # arguments) (tool search's call_tool)
    # A tool made with lazy=True compiles its validators when first used.
    input_validator = _AtFirstUse("input_validator", _compiled)
    output_validator = _AtFirstUse("output_validator", _compiled)

    # What runs a call: work(call, ctx) -> (result, large), the handler's value shaped
    # (read as the function, not a method; a mount's tool relays instead).
    work = staticmethod(_tool_answer)

    def _set_fields(self, name, f):
        self.name = name
        task = f["task"]
        if f is _TASK_FIELDS.get(task):      # a decorator's: every field the class's default
            if task != "forbidden":          # but the server's task_support
                self.task = task
            return
        self.title, self.annotations, self.icons = f["title"], f["annotations"], f["icons"]
        self.timeout, self.meta, self.pinned = f["timeout"], f["meta"], f["pinned"]
        self.search_hint = f["search_hint"]
        # May it run as a task (the client polls it), and does the task start with the
        # call, or when the handler says (ctx.start_task(), after asking what it needs)?
        self.task, self.task_start = f["task"], f["task_start"]
        for k in _EXTENSION_TOOL_FIELDS:     # app, visibility (MCP Apps), ...
            setattr(self, k, f[k])

    def describe(self, revision: str, audience: Any = frozenset()) -> Any:
        """Return the Tool object of tools/list, shaped for a protocol revision.

        audience: the extensions the client takes up that shape listings (MCP
        Apps). None for a client that cannot call it (an extension's listing hook
        decides: a required task before tasks, a tool only a view may call).
        """
        features = _FEATURES[revision]
        d = {"name": self.name}
        if self.title is not None and "titles" in features:
            d["title"] = self.title
        if self.description is not None:
            d["description"] = self.description
        d["inputSchema"] = self.input_schema
        if self.output_schema is not None and "structured_content" in features:
            d["outputSchema"] = self.output_schema
        if self.annotations is not None and "tool_annotations" in features:
            d["annotations"] = self.annotations
        if self.icons is not None and "icons" in features:
            d["icons"] = self.icons
        meta = self.meta
        if (self.pinned or self.search_hint is not None) and "content_meta" in features:
            meta = dict(meta or ())          # what a host that searches on its own reads
            if self.pinned:
                meta[ALWAYS_LOAD_KEY] = True
            if self.search_hint is not None:
                meta[SEARCH_HINT_KEY] = self.search_hint
        if meta is not None and "content_meta" in features:
            d["_meta"] = meta
        return _listed(self, revision, d, audience)


def _model_tool(name, handler, input_model, output_model):
    """(input schema, output schema, handler) of a tool whose schemas are pydantic models."""
    owner = "tool %r" % name
    convert = None
    if _is_model(input_model):
        input_model, convert = _SchemaBuilder(owner).model(input_model, "arguments")
    if _is_model(output_model):
        output_model = _SchemaBuilder(owner, output=True).model(output_model, "output")[0]

    def call(arguments, ctx):
        if convert is not None:
            try:
                arguments = convert(arguments)
            except _Invalid as e:
                raise ToolError(_invalid_arguments(name, e.problems))
        value = handler(arguments, ctx)
        return _to_json(value) if _is_model(type(value)) else value
    return input_model, output_model, call


def _invalid_arguments(tool, problems, under=()):
    """The isError text for arguments that fail: one line per (path, message)."""
    return "Invalid arguments for tool %r:\n%s" % (tool, "\n".join(
        "- %s: %s" % (_pointer(under + path), message) for path, message in problems))


def _compile_for(owner, schema):
    try:
        return compile_schema(schema)
    except SchemaError as e:
        raise CatalogError("%s schema rejected: %s" % (owner, e))


def _output_schema(schema):
    """An output schema as a tool lists it: one whose root is not an object, wrapped."""
    return _wrapped_schema(schema) if schema is not None and not _object_rooted(schema) \
        else schema


def _object_rooted(schema):
    return isinstance(schema, dict) and schema.get("type") == "object"


def _wrapped_schema(schema):
    """The output schema of a result that is not an object: {"result": value}.

    Structured content must be an object in 2025-06-18 and 2025-11-25, so a
    list or a number is wrapped, in every revision alike; $defs and $schema
    stay at the root, where references find them.
    """
    if not isinstance(schema, dict):
        return schema            # not a schema: compiling it says so
    inner = {k: v for k, v in schema.items() if k not in ("$defs", "$schema")}
    out = {k: schema[k] for k in ("$schema",) if k in schema}
    out.update({"type": "object", "properties": {"result": inner}, "required": ["result"],
                "additionalProperties": False})
    if "$defs" in schema:
        out["$defs"] = schema["$defs"]
    return out


class ToolResult:
    """An explicit tool result: content blocks, optional structured content, isError."""

    __slots__ = ("content", "structured", "is_error")

    def __init__(self, content: Any = (), structured: Any = None,
                 is_error: bool = False) -> None:
        self.content = list(content)
        self.structured = structured
        self.is_error = is_error


def text(value: str, annotations: _JSON | None = None) -> _JSON:
    """Return a text content block."""
    block = {"type": "text", "text": value}
    if annotations:
        block["annotations"] = annotations
    return block


_CONTENT_FIELDS = {
    "text": (("text", str),),
    "image": (("data", str), ("mimeType", str)),
    "audio": (("data", str), ("mimeType", str)),
    "resource": (("resource", dict),),
    "resource_link": (("uri", str), ("name", str)),
}


def _check_content(blocks):
    """Return None when blocks is a valid content list, else the reason."""
    if not isinstance(blocks, list):
        return "content must be a list"
    for i, b in enumerate(blocks):
        if not isinstance(b, dict):
            return "content[%d] is not an object" % i
        if b.get("type") == "text" and type(b.get("text")) is str:
            continue                     # the common case
        fields = _CONTENT_FIELDS.get(b.get("type"))
        if fields is None:
            return "content[%d] has an unknown type" % i
        for f, kind in fields:
            if not isinstance(b.get(f), kind):
                return "content[%d] (%s) needs a %s %r" % (i, b["type"], kind.__name__, f)
        if b["type"] in ("image", "audio") and (len(b["data"]) % 4 or
                                                 not _pattern(_BASE64_RE).match(b["data"])):
            return "content[%d] (%s) data is not base64" % (i, b["type"])
        if b["type"] == "resource":
            r = b["resource"]
            if not isinstance(r.get("uri"), str) or not (
                    isinstance(r.get("text"), str) or isinstance(r.get("blob"), str)):
                return "content[%d] (resource) needs a uri and a text or blob" % i
    return None


def _down_level_block(b, revision):
    """Return content block b in a form that protocol revision knows."""
    t = b["type"]
    features = _FEATURES[revision]
    if "resource_links" not in features:
        if t == "resource_link":
            return {"type": "text", "text": "Resource: %s (%s)" % (b.get("name"), b.get("uri"))}
        if "_meta" in b or "lastModified" in b.get("annotations", ()):
            b = dict(b)
            b.pop("_meta", None)
            if "annotations" in b:
                b["annotations"] = {k: v for k, v in b["annotations"].items()
                                    if k != "lastModified"}
    if t == "audio" and "audio" not in features:
        return {"type": "text", "text": "[audio content (%s) is not supported by protocol %s]"
                % (b.get("mimeType"), revision)}
    if t == "resource_link" and "icons" not in features and "icons" in b:
        b = {k: v for k, v in b.items() if k != "icons"}
    return b


def _check_meta_fields(owner, title, description, annotations, icons):
    if title is None and annotations is None and icons is None and \
            (description is None or type(description) is str):
        return                                # what most entries give: nothing to check
    for field, value in (("title", title), ("description", description)):
        if value is not None and not isinstance(value, str):
            raise CatalogError("%s: %s must be a string" % (owner, field))
    if annotations is not None and not isinstance(annotations, dict):
        raise CatalogError("%s: annotations must be an object" % owner)
    if icons is not None and (not isinstance(icons, list) or any(
            not isinstance(i, dict) or not isinstance(i.get("src"), str) for i in icons)):
        raise CatalogError("%s: icons must be a list of objects with a \"src\"" % owner)


def _listed(entry, revision, d, audience):
    """d, the listing of entry, with what each extension adds (None: not listed there)."""
    for lists in _LIST_HOOKS:
        d = lists(entry, revision, d, audience)
        if d is None:
            return None
    return d


def _looks_like_content(value):
    return isinstance(value, list) and bool(value) and all(
        isinstance(b, dict) and b.get("type") in _CONTENT_FIELDS for b in value)


def _not_json_problem(exc):
    """Say why encoding failed, without the value that made it fail."""
    if isinstance(exc, UnicodeEncodeError):
        return "it holds a string that is not valid Unicode (a lone surrogate)"
    if isinstance(exc, TypeError):        # our own message: "<type> is not JSON serializable"
        return "it holds a value JSON cannot carry (%s)" % str(exc)[:100]
    if isinstance(exc, RecursionError):
        return "it is nested too deeply or contains a cycle"
    return "it holds a number JSON cannot carry (NaN or infinity)"


def _first_line(text, width=100):
    """The first line of text (none for what is not text), cut at a word boundary."""
    text = text.strip() if isinstance(text, str) else ""
    line = text.splitlines()[0] if text else ""
    if len(line) <= width:
        return line
    return line[:width].rsplit(" ", 1)[0] + " ..."


def _type_of(schema, root, depth=0):
    """A short readable type for a JSON Schema: enums, unions, arrays, refs."""
    if not isinstance(schema, dict) or depth > 4:
        return "any"
    if "$ref" in schema and isinstance(schema["$ref"], str):
        ref = schema["$ref"]
        target = root
        for tok in ref.lstrip("#/").split("/") if ref.startswith("#/") else ():
            target = target.get(_unescape_token(tok), {}) if isinstance(target, dict) else {}
        name = ref.rsplit("/", 1)[-1]
        inner = _type_of(target, root, depth + 1) if target is not root else "object"
        return name if inner == "object" else inner
    if "enum" in schema and isinstance(schema["enum"], list):
        return "|".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"][:8]) + (
            "|..." if len(schema["enum"]) > 8 else "")
    if "const" in schema:
        return json.dumps(schema["const"], ensure_ascii=False)
    for k in ("anyOf", "oneOf"):
        if isinstance(schema.get(k), list):
            return "|".join(_type_of(x, root, depth + 1) for x in schema[k])
    t = schema.get("type")
    if isinstance(t, list):
        return "|".join(str(x) for x in t)
    if t == "array":
        return "array of %s" % _type_of(schema.get("items"), root, depth + 1) \
            if isinstance(schema.get("items"), dict) else "array"
    if t == "object" and isinstance(schema.get("properties"), dict) and \
            schema["properties"] and depth <= 2:       # a nested object: its shape
        return "{%s}" % _signature_of(schema, root, depth + 1)[1:-1]
    if t == "string" and isinstance(schema.get("format"), str):
        return "string<%s>" % schema["format"][:40]
    return t if isinstance(t, str) else "any"


def _signature_of(schema, root=None, depth=0):
    schema = schema if isinstance(schema, dict) else {}      # any JSON a server sent
    props = schema.get("properties")
    props = props if isinstance(props, dict) else {}
    required = schema.get("required")
    required = {r for r in required if isinstance(r, str)} if isinstance(required, list) \
        else ()
    parts = []
    for k, v in props.items():
        part = "%s%s: %s" % (k, "" if k in required else "?",
                             _type_of(v, schema if root is None else root, depth))
        if isinstance(v, dict) and "default" in v:
            part += " = %s" % json.dumps(v["default"], ensure_ascii=False)
        parts.append(part)
    return "(%s)" % ", ".join(parts)


###############################################################################
# Catalog: resources, prompts and the kinds of entry ##########################
###############################################################################

class ResourceNotFound(Exception):
    """Raise in a resource or template handler when the URI names nothing."""

    def __init__(self, uri: str) -> None:
        Exception.__init__(self, "resource not found: %s" % uri)
        self.uri = uri


def _describe(obj, revision, first, audience):
    """The listing object of a resource, template or prompt, shaped for a revision."""
    d = dict(first)
    d["name"] = obj.name
    features = _FEATURES[revision]
    if obj.title is not None and "titles" in features:
        d["title"] = obj.title
    if obj.description is not None:
        d["description"] = obj.description
    for attr, key in (("mime_type", "mimeType"), ("size", "size"),
                      ("annotations", "annotations")):
        value = getattr(obj, attr, None)
        if value is not None:
            d[key] = value
    if getattr(obj, "arguments", None):
        d["arguments"] = [a if "titles" in features else
                          {k: v for k, v in a.items() if k != "title"} for a in obj.arguments]
    if obj.icons is not None and "icons" in features:
        d["icons"] = obj.icons
    if obj.meta is not None and "content_meta" in features:
        d["_meta"] = obj.meta
    if "annotations" in d and "last_modified" not in features:
        d["annotations"] = {k: v for k, v in d["annotations"].items() if k != "lastModified"}
    return _listed(obj, revision, d, audience)


class ResourceContents(list):
    """Resource contents given explicitly: {"uri", "text" or "blob", "mimeType"?} objects.

    A decorated resource function returns one to serve several contents (or a
    blob already in base64); any other list it returns is JSON data.
    """


class Resource:
    """A fixed resource: a URI and a handler(uri, ctx) returning its contents.

    The handler returns a str (text), bytes (sent as a base64 blob), or a list of
    contents objects ({"uri", "text" or "blob", "mimeType"?}), such as ResourceContents.
    """

    def __init__(self, uri: str, handler: Callable[..., Any], *, name: str | None = None,
                 title: str | None = None, description: str | None = None,
                 mime_type: str | None = None, size: int | None = None,
                 annotations: Dict[str, Any] | None = None, icons: Any = None,
                 meta: Dict[str, Any] | None = None, ttl_ms: int = 0,
                 cache_scope: str = "private") -> None:
        _check_uri(uri)
        if not callable(handler):
            raise CatalogError("resource %r: the handler is missing or not callable" % uri)
        _check_meta_fields("resource %r" % uri, title, description, annotations, icons)
        if size is not None and (not isinstance(size, int) or size < 0):
            raise CatalogError("resource %r: size must be a non-negative integer" % uri)
        if cache_scope not in ("public", "private") or not isinstance(ttl_ms, int) or ttl_ms < 0:
            raise CatalogError("resource %r: ttl_ms must be >= 0 and cache_scope 'public' or "
                               "'private'" % uri)
        self.uri, self.handler = uri, handler
        self.name = name if name is not None else uri
        self.title, self.description, self.mime_type, self.size = title, description, mime_type, size
        self.annotations, self.icons, self.meta = annotations, icons, meta
        self.ttl_ms, self.cache_scope = ttl_ms, cache_scope

    # Defaults on the class: a decorated resource sets only its URI, function (or handler),
    # name and description (a catalog of thousands stores nine fields fewer each).
    title = description = mime_type = size = annotations = icons = meta = None
    ttl_ms, cache_scope = 0, "private"

    def describe(self, revision: str, audience: Any = frozenset()) -> Any:
        return _describe(self, revision, {"uri": self.uri}, audience)


def _check_uri(uri):
    """Raise CatalogError for a resource URI no read could match."""
    if not isinstance(uri, str) or ":" not in uri:
        raise CatalogError("resource %r: the URI must be a string with a scheme" % (uri,))
    if uri.isprintable() and " " not in uri and "{" not in uri and "}" not in uri:
        return      # the expression finds nothing: white space but " " is not printable
    bad = _pattern(_NOT_IN_URI_RE).search(uri)
    if bad is not None:        # never matched by a read: a template's braces, say
        raise CatalogError("resource %r: a URI holds no %s%s" % (
            uri, "braces" if bad.group() in "{}" else "space or control character",
            "; for a family of URIs use resource_template" if "{" in uri else ""))


# What no URI holds (RFC 3986): braces (a template's), white space and control characters.
_NOT_IN_URI_RE = r"[{}\s\x00-\x1f\x7f]"
# An RFC 6570 expression: an operator, the variables, an explode mark.
_TEMPLATE_EXPR_RE = r"\{([+/?]?)([A-Za-z0-9_]+(?:,[A-Za-z0-9_]+)*)(\*?)\}"
# The kinds of variable a template holds, by the expression's operator and explode mark.
_VARIABLE_KINDS = {("", ""): "simple", ("+", ""): "reserved", ("/", "*"): "segments",
                   ("?", ""): "query"}


def _leaves_folder(value, windows=os.name == "nt"):
    """True when a path value joined to a folder could name a file outside it, with "/"
    or "\\" alike: a NUL, a ".." segment, a root (/x, \\x), a share (\\\\host\\x) or a
    drive (C:\\x, C:/x); on Windows (windows), a drive at all (C:x is relative to C:'s
    current folder, and a join drops the folder for it)."""
    v = value.replace("\\", "/")
    return "\0" in v or v[:1] == "/" or ".." in v.split("/") or (
        v[1:2] == ":" and v[:1].isalpha() and (windows or v[2:3] == "/"))


class ResourceTemplate:
    """A family of resources: an RFC 6570 URI template and a handler.

    The expressions: {var} (one segment, percent-decoded) and {+var} (may hold
    slashes) anywhere, {/var*} (path segments) at the end of the path and
    {?a,b} (a form-style query, each variable optional, in any order) at the
    end. handler(uri, variables, ctx) returns contents like a Resource handler;
    it may raise ResourceNotFound. complete(argument, value, context_arguments)
    may return suggestions for a variable.
    """

    def __init__(self, uri_template: str, handler: Callable[..., Any], *, name: str,
                 title: str | None = None, description: str | None = None,
                 mime_type: str | None = None, annotations: Dict[str, Any] | None = None,
                 icons: Any = None, meta: Dict[str, Any] | None = None,
                 complete: Callable[..., Any] | None = None, ttl_ms: int = 0,
                 cache_scope: str = "private") -> None:
        owner = "resource template %r" % (uri_template,)
        if not isinstance(uri_template, str) or ":" not in uri_template:
            raise CatalogError("%s: the template must be a string with a scheme" % owner)
        if not callable(handler):
            raise CatalogError("%s: the handler is missing or not callable" % owner)
        if not isinstance(name, str) or not name:
            raise CatalogError("%s: a name is required" % owner)
        _check_meta_fields(owner, title, description, annotations, icons)
        literals, names, self._query = _parse_template(uri_template, owner)
        self.variables = tuple(n for n, _ in names) + (self._query or ())
        self._literals, self._names = literals, names
        # A regular expression when each variable's end is plain (the next literal starts
        # with a character a {var} cannot hold, or only the tail follows): it cannot
        # backtrack. Otherwise ({a}-{b}, {+a}/{b}) _split() finds the same values in
        # linear time, where the expression would take a power of the URI's length.
        if all(i == len(names) - 1 or kind == "simple" and literals[i + 1][:1] in "/?#" and
               literals[i + 1] for i, (_, kind) in enumerate(names)):
            self._regex = re.compile("".join(
                re.escape(lit) + ("" if i == len(names) else _VARIABLE_RE[names[i][1]])
                for i, lit in enumerate(literals)) + r"\Z")
        else:
            self._regex = None
        self.uri_template, self.handler, self.name = uri_template, handler, name
        self.title, self.description, self.mime_type = title, description, mime_type
        self.annotations, self.icons, self.meta, self.complete = annotations, icons, meta, complete
        self.ttl_ms, self.cache_scope = ttl_ms, cache_scope

    def match(self, uri: str) -> Dict[str, str] | None:
        """Return the variables of uri when it matches the template, else None.

        Values that could walk a file tree do not match (the client gets "not
        found"): in any variable, what _leaves_folder() finds (a NUL, a ".."
        segment, a root, a drive or a share, with either slash); and a "/" or
        "\\" in a simple {var} or in one of {/var*}'s segments once
        percent-decoded (encoded slashes are how traversal arrives). A {+var}
        may hold slashes, for a relative path; {/var*} is its segments decoded
        and joined by "/". With a {?...} query the URI's query starts at its first
        "?"; a query variable the URI leaves out is not among the variables.
        """
        query = None
        if self._query is not None:
            uri, _, query = uri.partition("?")
        if self._regex is not None:
            m = self._regex.match(uri)
            values = None if m is None else m.groups()
        else:
            values = self._split(uri)
        if values is None:
            return None
        from urllib.parse import unquote
        variables = {}
        for (name, kind), value in zip(self._names, values):
            if kind == "segments":
                if value and value[0] != "/":
                    return None
                parts = [unquote(v) for v in value[1:].split("/")] if value else []
                if any("/" in v or "\\" in v for v in parts):
                    return None
                decoded = "/".join(parts)
            else:
                decoded = unquote(value)
            if _leaves_folder(decoded) or kind == "simple" and (
                    "/" in decoded or "\\" in decoded):
                return None
            variables[name] = value if kind == "reserved" else decoded
        if query:
            for pair in query.split("&"):
                key, _, value = pair.partition("=")
                value = unquote(value)
                if key not in self._query or key in variables or "\0" in value:
                    return None           # a key the template does not name, or twice
                variables[key] = value
        return variables

    def _split(self, uri):
        """The variables' values as the lazy expression would find them, in linear time.

        From the end: ok[p] says a variable may start at p with the rest matching;
        a variable ends at the first place the next literal starts and the rest can
        follow, without passing a character it cannot hold (/?# for {var}, a line
        break for {+var}).
        """
        literals, n = self._literals, len(uri)
        names = [(name, kind == "reserved") for name, kind in self._names]
        if not uri.startswith(literals[0]):
            return None
        stops = {}
        for stop_chars in ("/?#", "\n"):
            reach, nearest = [n] * (n + 1), n
            for p in range(n - 1, -1, -1):
                if uri[p] in stop_chars:
                    nearest = p
                reach[p] = nearest
            stops[stop_chars] = reach
        after = [False] * (n + 2)
        after[n] = True                          # past the last literal: the end
        nexts = []
        for i in range(len(names) - 1, -1, -1):
            lit, reach = literals[i + 1], stops["\n" if names[i][1] else "/?#"]
            nxt, nearest = [n + 1] * (n + 2), n + 1
            for q in range(n, -1, -1):
                if after[min(q + len(lit), n + 1)] and uri.startswith(lit, q):
                    nearest = q
                nxt[q] = nearest
            ok = [False] * (n + 2)
            for p in range(n):
                ok[p] = nxt[p + 1] <= reach[p]
            nexts.append((nxt, reach))
            after = ok
        p = len(literals[0])
        if not after[p] and names:
            return None
        values = []
        for i, (nxt, reach) in enumerate(reversed(nexts)):
            q = nxt[p + 1]
            values.append(uri[p:q])
            p = q + len(literals[i + 1])
        return values

    def expand(self, **variables: Any) -> str:
        """Return the URI for these variable values (simple expansion percent-encodes;
        {/var*} takes a list of segments or a path; a {?...} variable not given, or None,
        is left out)."""
        from urllib.parse import quote

        def sub(m):
            op, names = m.group(1), m.group(2).split(",")
            if op == "?":
                given = [(n, variables[n]) for n in names if variables.get(n) is not None]
                return "?" + "&".join("%s=%s" % (n, quote(str(v), safe="-._~"))
                                      for n, v in given) if given else ""
            v = variables[names[0]]
            if op == "/":
                parts = v.split("/") if isinstance(v, str) else list(v)
                return "".join("/" + quote(str(x), safe="-._~") for x in parts if x != "")
            return str(v) if op == "+" else quote(str(v), safe="-._~")
        return _pattern(_TEMPLATE_EXPR_RE).sub(sub, self.uri_template)

    def describe(self, revision: str, audience: Any = frozenset()) -> Any:
        return _describe(self, revision, {"uriTemplate": self.uri_template}, audience)


# What each kind of variable matches, as the template's regular expression reads it.
_VARIABLE_RE = {"simple": "([^/?#]+?)", "reserved": "(.+?)", "segments": "((?:/[^/?#]*)*)"}


def _parse_template(template, owner):
    """(literals, [(name, kind)] of the path, the query's names or None) of a URI
    template, or CatalogError naming what it cannot serve."""
    literals, names, query, pos = [], [], None, 0
    matches = list(_pattern(_TEMPLATE_EXPR_RE).finditer(template))
    for i, m in enumerate(matches):
        literal, pos = template[pos:m.start()], m.end()
        kind = _VARIABLE_KINDS.get((m.group(1), m.group(3)))
        listed = m.group(2).split(",")
        if kind is None or kind != "query" and len(listed) > 1:
            raise CatalogError("%s: %s is not supported; use {var}, {+var}, {/var*} or "
                               "{?a,b}" % (owner, m.group()))
        last = i == len(matches) - 1 and pos == len(template)
        if kind == "query":
            if not last:
                raise CatalogError("%s: a {?...} query ends the template" % owner)
            query, pos = tuple(listed), m.start()   # its literal ends the path
            continue
        literals.append(literal)
        if kind == "segments" and not (last or i == len(matches) - 2 and pos ==
                                       matches[-1].start() and matches[-1].group(1) == "?"):
            raise CatalogError("%s: {/%s*} ends the path (only a {?...} query may follow)"
                               % (owner, listed[0]))
        names.append((listed[0], kind))
    literals.append(template[pos:] if query is None else literal)
    if any("{" in x or "}" in x for x in literals):
        raise CatalogError("%s: a brace outside {var}, {+var}, {/var*} or {?a,b}" % owner)
    if query is not None and "?" in "".join(literals):
        raise CatalogError("%s: a {?...} query cannot follow a '?' of the template" % owner)
    every = [n for n, _ in names] + list(query or ())
    if len(set(every)) != len(every):
        raise CatalogError("%s: a variable appears twice" % owner)
    return literals, names, query


class Prompt:
    """A prompt: a name, declared arguments and a handler(arguments, ctx).

    arguments is a list of {"name", "description"?, "title"?, "required"?}. The
    handler returns a str (one user message), a list of messages ({"role",
    "content"}), or {"description"?, "messages"}. complete(argument, value,
    context_arguments) may return suggestions for an argument.
    """

    def __init__(self, name: str, handler: Callable[..., Any], *, title: str | None = None,
                 description: str | None = None, arguments: Any = (), icons: Any = None,
                 meta: Dict[str, Any] | None = None,
                 complete: Callable[..., Any] | None = None) -> None:
        if not isinstance(name, str) or not name:
            raise CatalogError("prompt %r: the name must be a non-empty string" % (name,))
        if not callable(handler):
            raise CatalogError("prompt %r: the handler is missing or not callable" % name)
        _check_meta_fields("prompt %r" % name, title, description, None, icons)
        args = []
        for a in arguments:
            if isinstance(a, str):
                a = {"name": a}
            if not isinstance(a, dict) or not isinstance(a.get("name"), str) or \
                    set(a) - {"name", "title", "description", "required"}:
                raise CatalogError("prompt %r: each argument needs a \"name\" and may have "
                                   "\"title\", \"description\" and \"required\"" % name)
            args.append(dict(a))
        if len(set(a["name"] for a in args)) != len(args):
            raise CatalogError("prompt %r: an argument is declared twice" % name)
        self.name, self.handler, self.title, self.description = name, handler, title, description
        self.arguments, self.icons, self.meta, self.complete = args, icons, meta, complete
        self.annotations = None

    def describe(self, revision: str, audience: Any = frozenset()) -> Any:
        return _describe(self, revision, {}, audience)


def _contents_of(value, uri, mime_type, revision):
    """Turn a resource handler's return value into checked contents for a revision."""
    if isinstance(value, str):
        c = {"uri": uri, "text": value}
        if mime_type:
            c["mimeType"] = mime_type
        return [c]
    if isinstance(value, (bytes, bytearray)):
        import base64
        c = {"uri": uri, "blob": base64.b64encode(bytes(value)).decode("ascii")}
        if mime_type:
            c["mimeType"] = mime_type
        return [c]
    if not isinstance(value, list) or not value:
        raise _ResultInvalid("a resource handler must return str, bytes or a non-empty list "
                             "of contents")
    out = []
    for i, c in enumerate(value):
        if not isinstance(c, dict) or not isinstance(c.get("uri"), str) or \
                (isinstance(c.get("text"), str)) == (isinstance(c.get("blob"), str)):
            raise _ResultInvalid("contents[%d] needs a uri and exactly one of text or blob" % i)
        if "blob" in c and (len(c["blob"]) % 4 or not _pattern(_BASE64_RE).match(c["blob"])):
            raise _ResultInvalid("contents[%d] blob is not base64" % i)
        if "_meta" in c and not _has(revision, "content_meta"):
            c = {k: v for k, v in c.items() if k != "_meta"}
        out.append(c)
    return out


def _prompt_result(prompt, value, revision):
    """Turn a prompt handler's return value into a checked GetPromptResult."""
    description = prompt.description
    if isinstance(value, str):
        messages = [{"role": "user", "content": {"type": "text", "text": value}}]
    elif isinstance(value, dict) and "messages" in value:
        messages, description = value["messages"], value.get("description", description)
    else:
        messages = value
    if not isinstance(messages, list):
        raise _ResultInvalid("a prompt handler must return str, a list of messages or "
                             "{\"messages\": [...]}")
    out = []
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in ("user", "assistant"):
            raise _ResultInvalid("messages[%d] needs a role of 'user' or 'assistant'" % i)
        problem = _check_content([m.get("content")])
        if problem:
            raise _ResultInvalid("messages[%d]: %s" % (i, problem))
        content = _down_level_block(m["content"], revision)
        out.append({"role": m["role"], "content": content})
    result = {"messages": out}
    if isinstance(description, str):
        result = {"description": description, "messages": out}
    return result


class _Kind:
    """One kind of catalog entry, and every name the protocol and the API give it."""

    __slots__ = ("attr", "cls", "noun", "key", "list_method", "field", "grant", "changed",
                 "flag", "capability", "extension", "shown", "served_by", "listed")

    def __init__(self, attr, cls, noun, key, list_method, field, grant, changed, flag,
                 capability, extension=None, shown=None, served_by=(), listed=None):
        self.attr, self.cls, self.noun, self.key = attr, cls, noun, key
        self.list_method, self.field, self.grant = list_method, field, grant
        self.changed, self.flag, self.capability = changed, flag, capability
        self.extension = extension      # an extension's kind: offered when the server serves it
        self.shown = shown              # inspect's row of a listed entry (a tuple of text)
        self.served_by = served_by      # the methods that serve an entry (its middleware's)
        self.listed = listed or key     # the member of a listing that names its entry


def _copied(entry, **fields):
    """A copy of a catalog entry with some fields changed (a mount serves another server's
    entries as its own): its schemas, validators and handler unless given."""
    import copy
    out = copy.copy(entry)
    for k, v in fields.items():
        setattr(out, k, v)
    return out


# The kinds of catalog entries: the Server and catalog table (attr), the class,
# the noun of messages, the key attribute, the list method and its result field,
# the grant option, the list_changed notification, the subscriptions/listen
# flag that asks for it, the capability that offers the kind, the extension
# that defines it (its listings are described afresh each time: files change),
# the methods that serve an entry of it, and its listing's member that names it. A
# new kind is one row; an extension's kinds are rows of its own (_Extension.kinds),
# and _KINDS, every kind, is made where the table of extensions is.
_CORE_KINDS = (
    _Kind("tools", Tool, "tool", "name", "tools/list", "tools", "grant",
          "notifications/tools/list_changed", "toolsListChanged", "tools",
          served_by=("tools/call",), shown=lambda t: (
              t["name"], _signature_of(t.get("inputSchema")), _first_line(t.get("description")))),
    _Kind("resources", Resource, "resource", "uri", "resources/list", "resources",
          "grant_resources", "notifications/resources/list_changed", "resourcesListChanged",
          "resources", served_by=("resources/read",), shown=lambda r: (
              r["uri"], r.get("name", ""), r.get("mimeType", ""),
              _first_line(r.get("description")))),
    _Kind("templates", ResourceTemplate, "resource template", "uri_template",
          "resources/templates/list", "resourceTemplates", "grant_resources",
          "notifications/resources/list_changed", "resourcesListChanged", "resources",
          served_by=("resources/read", "completion/complete"), listed="uriTemplate",
          shown=lambda r: (r["uriTemplate"], r.get("name", ""), r.get("mimeType", ""),
                           _first_line(r.get("description")))),
    _Kind("prompts", Prompt, "prompt", "name", "prompts/list", "prompts", "grant_prompts",
          "notifications/prompts/list_changed", "promptsListChanged", "prompts",
          served_by=("prompts/get", "completion/complete"), shown=lambda p: (
              p["name"], "(%s)" % ", ".join(a["name"] + ("" if a.get("required") else "?")
                                            for a in p.get("arguments") or []),
              _first_line(p.get("description")))),
)
_add_kinds(_CORE_KINDS)


def _fnmatch_any(patterns):
    """One regular expression matching any of patterns (shell-style), or None for None."""
    if patterns is None:
        return None
    import fnmatch
    return re.compile("|".join("(?:%s)" % fnmatch.translate(p) for p in patterns) or "(?!)")


_MATCHERS = {}      # names (a tuple) -> their matcher: a grant's is asked at every change


def _matcher(names):
    """A test of a name against names, each a name or a shell-style pattern (fnmatch)."""
    key = tuple(names)
    test = _MATCHERS.get(key)
    if test is None:
        exact = frozenset(key)
        wild = [n for n in key if any(c in n for c in "*?[")]
        rx = _fnmatch_any(wild) if wild else None
        test = _MATCHERS[key] = exact.__contains__ if rx is None else \
            (lambda name: name in exact or rx.match(name) is not None)
    return test


def _unmatched(names, table):
    """The names or patterns of names that match no key of table, sorted."""
    return sorted(n for n in set(names) if n not in table and not any(
        _matcher((n,))(k) for k in table))


###############################################################################
# Authoring API: functions, fields and results from values ####################
###############################################################################
#
#     server = mcp_stdio.Server("notes", "1.0")
#
#     @server.tool()
#     def add(a: float, b: float) -> dict:
#         """Add two numbers.
#
#         Args:
#             a: The first number.
#             b: The second number.
#         """
#         return {"sum": a + b}
#
# The input schema comes from the signature (typing only when annotations need
# it), flat and closed; descriptions come from the docstring; arguments are
# converted to the annotated types; the return annotation gives the output
# schema. pydantic models, annotated-types and msgspec constraints are read by
# their public attributes: none of those libraries is imported here.

class Field:
    """Constraints and a description for a parameter: ``Annotated[int, Field(minimum=0)]``.

    alias is the argument's name on the wire (a parameter resource_uri exposed
    as resourceUri); extra holds further keywords the checker carries as
    annotations ({"x-unit": "cm"}).
    """

    _KEYS = {"description": "description", "title": "title", "minimum": "minimum",
             "maximum": "maximum", "exclusive_minimum": "exclusiveMinimum",
             "exclusive_maximum": "exclusiveMaximum", "multiple_of": "multipleOf",
             "min_length": "minLength", "max_length": "maxLength", "pattern": "pattern",
             "min_items": "minItems", "max_items": "maxItems", "examples": "examples",
             "format": "format", "deprecated": "deprecated", "read_only": "readOnly",
             "write_only": "writeOnly"}

    def __init__(self, *, alias: str | None = None, extra: Any = None,
                 **constraints: Any) -> None:
        unknown = set(constraints) - set(self._KEYS)
        if unknown:
            raise CatalogError("Field: unknown constraint(s): %s (use %s, alias or extra)" % (
                ", ".join(sorted(unknown)), ", ".join(sorted(self._KEYS))))
        if alias is not None and (not isinstance(alias, str) or not alias):
            raise CatalogError("Field: alias must be a non-empty string")
        self.alias = alias
        self.schema = {self._KEYS[k]: v for k, v in constraints.items() if v is not None}
        if extra:
            if not isinstance(extra, dict) or not all(isinstance(k, str) for k in extra):
                raise CatalogError("Field: extra must be a dict of schema keywords")
            self.schema.update(extra)


class Content(dict):
    """A content block. As a return annotation (-> Content, -> list[Content]) it says the
    tool returns content blocks (text(), image(), resource_link(), ...): never structured
    output, whatever the values look like."""


def image(data: Any, mime_type: str = "image/png",
          annotations: Dict[str, Any] | None = None) -> _JSON:
    """Return an image content block from raw bytes."""
    return _binary_block("image", data, mime_type, annotations)


def audio(data: Any, mime_type: str = "audio/wav",
          annotations: Dict[str, Any] | None = None) -> _JSON:
    """Return an audio content block from raw bytes."""
    return _binary_block("audio", data, mime_type, annotations)


def _binary_block(kind, data, mime_type, annotations):
    import base64
    if not isinstance(data, (bytes, bytearray)):
        raise TypeError("%s() takes bytes" % kind)
    block = {"type": kind, "data": base64.b64encode(bytes(data)).decode("ascii"),
             "mimeType": mime_type}
    if annotations:
        block["annotations"] = annotations
    return block


def resource_link(uri: str, name: str, *, title: str | None = None,
                  description: str | None = None, mime_type: str | None = None,
                  size: int | None = None) -> _JSON:
    """Return a resource_link content block (a URI the client may read)."""
    block = {"type": "resource_link", "uri": uri, "name": name}
    for key, value in (("title", title), ("description", description),
                       ("mimeType", mime_type), ("size", size)):
        if value is not None:
            block[key] = value
    return block


def embedded_resource(uri: str, text: str | None = None, *, blob: Any = None,
                      mime_type: str | None = None) -> _JSON:
    """Return an embedded resource content block with text or binary (bytes) contents."""
    contents = {"uri": uri}
    if (text is None) == (blob is None):
        raise TypeError("embedded_resource() takes text or blob")
    if text is not None:
        contents["text"] = text
    else:
        import base64
        contents["blob"] = base64.b64encode(bytes(blob)).decode("ascii")
    if mime_type is not None:
        contents["mimeType"] = mime_type
    return {"type": "resource", "resource": contents}


def _read_function(fn, tool_name, owner, listing=True, call=True):
    """({part: value} of _FUNCTION_PARTS, those of its listing, of a call or both, as fn's
    signature, annotations and docstring make them; True when its schemas carry the
    author's constraints)."""
    params, ret, hints = _signature(fn, owner)
    summary, docs = _parse_docstring(fn.__doc__) if listing else (None, {})
    builder = _SchemaBuilder(owner)
    props, required, convs, nullable, names, fill, ctx_name = _describe_parameters(
        params, hints, docs, builder, owner)
    output_schema, structured, constrained = _describe_return(hints.get("return", ret), owner)
    parts = {}
    if listing:
        parts.update(input_schema=_object_schema(props, required),
                     output_schema=_output_schema(output_schema), description=summary)
    if call:
        is_async = _is_coroutine_function(fn)
        renamed = any(wire != pname for wire, pname in names.items())
        parts.update(handler=_decorated_handler(fn, tool_name, convs, renamed, names, fill,
                                                nullable, ctx_name, structured, is_async),
                     nullable=frozenset(nullable), uses_context=ctx_name is not None or is_async)
    return parts, constrained or builder.constrained


def _describe_parameters(params, hints, docs, builder, owner):
    """The input side of a decorated tool: (properties, required, conversions, nullable,
    {wire name: parameter}, {parameter: default maker}, the ctx parameter or None)."""
    props, required, convs, nullable = {}, [], {}, set()
    ctx_name = None
    names, fill = {}, {}             # wire name -> parameter; parameter -> default maker
    for pname, kind, default, ann in params:
        ann = hints.get(pname, ann)
        if pname == "ctx" or _is_context(ann):
            ctx_name = pname
            continue
        if kind == _VAR_POSITIONAL or kind == _VAR_KEYWORD:
            raise CatalogError("%s: parameter %r: *args and **kwargs cannot be described; "
                               "name each parameter" % (owner, pname))
        if kind == _POSITIONAL_ONLY:
            raise CatalogError("%s: parameter %r is positional-only" % (owner, pname))
        if ann is _EMPTY:
            raise CatalogError("%s: parameter %r needs a type annotation" % (owner, pname))
        plain = _plain_parameter(ann, default)
        if plain is not None:
            # The common case (str, int, float, bool, a JSON default, or None for an
            # Optional one), without the general path's checks.
            props[pname] = _plain_property(plain, default, docs.get(pname))
            if default is _EMPTY:
                required.append(pname)
            elif default is None:
                nullable.add(pname)           # explicit null means "not given"
            if plain[1] is not _identity:
                convs[pname] = plain[1]
            names[pname] = pname
            continue
        if _is_field_info(default):   # x: int = pydantic.Field(10, ge=0), as FastMCP users write
            import typing
            ann = typing.Annotated[ann, default]
            default, fill[pname] = _field_info_default(default)
        optional_none = default is None and _is_optional(ann)
        schema_ann = _without_none(ann) if optional_none else ann
        schema, conv = builder.build(schema_ann, "parameter %r" % pname)
        if pname in docs and "description" not in schema:
            schema = dict(schema)
            schema["description"] = docs[pname]
        wire = _alias(ann) or pname
        if wire in names or (wire != pname and any(wire == q[0] for q in params)):
            raise CatalogError("%s: parameter %r: the name %r is taken" % (owner, pname, wire))
        names[wire] = pname
        if default is _EMPTY:
            required.append(wire)
        elif default is not None and default is not _MISSING:     # _MISSING: a factory
            schema = _with_default(schema, default)
        if optional_none:
            nullable.add(wire)        # explicit null means "not given"
        props[wire] = schema
        convs[wire] = conv
    if fill:
        fill = {k: v for k, v in fill.items() if v is not None}
    return props, required, convs, nullable, names, fill, ctx_name


def _describe_return(ret, owner):
    """The output side of a decorated tool: (output schema or None, structured, constrained)."""
    if ret is _EMPTY:
        return None, False, False
    _check_return(ret, owner)
    if ret is None or ret is type(None) or not _wants_structure(ret):
        return None, False, False
    builder = _SchemaBuilder(owner)
    output_schema, _ = builder.build(ret, "return value")
    return output_schema, True, builder.constrained


def _decorated_handler(fn, tool_name, convs, renamed, names, fill, nullable, ctx_name,
                       structured, is_async):
    """The handler(arguments, ctx) of a decorated tool: converts, calls fn, shapes its value."""
    as_given = not (convs or renamed or fill or nullable)    # arguments need no work

    def handler(arguments, ctx):
        if as_given:
            kwargs = dict(arguments)
        else:
            kwargs = {}
            try:
                for k, v in arguments.items():
                    if v is None and k in nullable:
                        continue
                    kwargs[names[k] if renamed else k] = convs[k](v) if k in convs else v
            except _Invalid as e:
                raise ToolError(_invalid_arguments(tool_name, e.problems, (k,)))
            for pname, make in fill.items():
                if pname not in kwargs:
                    kwargs[pname] = make()
        if ctx_name is not None:
            kwargs[ctx_name] = ctx
        value = fn(**kwargs)
        if is_async:
            value = _run_coroutine(value, ctx)
        return value if type(value) is str else _tool_value(value, structured)
    return handler


def _is_field_info(value):
    """True for a pydantic FieldInfo (what pydantic.Field() returns), by its module and name."""
    cls = type(value)
    return cls.__name__ == "FieldInfo" and (cls.__module__ or "").startswith("pydantic")


def _field_info_default(info):
    """(the schema default or _EMPTY when required, a maker of the call's default or None)."""
    factory = getattr(info, "default_factory", None)
    if factory is not None:
        return _MISSING, factory
    default = info.default
    if type(default).__name__ == "PydanticUndefinedType":
        return _EMPTY, None
    return default, lambda: default


def _alias(ann):
    """The wire name an Annotated parameter's Field (ours or pydantic's) gives it, or None."""
    if type(ann) is type:
        return None
    import typing
    if typing.get_origin(ann) is not typing.Annotated:
        return None
    for extra in typing.get_args(ann)[1:]:
        alias = getattr(extra, "alias", None) if isinstance(extra, Field) or \
            _is_field_info(extra) else None
        if alias:
            return alias
    return None


def _enum_module():
    # enum is loaded by the interpreter at start-up; this just avoids an import per value.
    return sys.modules.get("enum") or __import__("enum")


def _is_optional(ann):
    """True for Optional[T] (possibly inside Annotated)."""
    if type(ann) is type:
        return False
    import typing
    ann = _strip_annotated(ann)
    return _union_origin(typing.get_origin(ann)) and type(None) in typing.get_args(ann)


def _strip_annotated(ann):
    if type(ann) is type:                  # a plain class: typing is not needed
        return ann
    import typing
    while typing.get_origin(ann) is typing.Annotated:
        ann = typing.get_args(ann)[0]
    return ann


def _without_none(ann):
    import typing
    extras = ()
    if typing.get_origin(ann) is typing.Annotated:
        extras = typing.get_args(ann)[1:]
        ann = typing.get_args(ann)[0]
    members = [a for a in typing.get_args(ann) if a is not type(None)]
    inner = members[0] if len(members) == 1 else typing.Union[tuple(members)]
    return typing.Annotated[(inner,) + extras] if extras else inner


def _check_return(ret, owner):
    """Raise CatalogError for a return annotation whose values could not be sent."""
    if ret in (str, int, float, bool, dict, list, tuple, None, type(None), ToolResult):
        return
    import typing
    base = _strip_annotated(ret)
    origin = typing.get_origin(base)
    if _union_origin(origin):
        for member in typing.get_args(base):
            _check_return(member, owner)
        return
    if base in (typing.Any, None, type(None), str, int, float, bool, dict, list, tuple,
                Content) or \
            origin in (dict, list, tuple, typing.Literal) or _is_abc_mapping(origin) or \
            _is_abc_sequence(origin) or _is_typeddict(base) or _is_dataclass(base) or \
            base is ToolResult or (isinstance(base, type) and (
                issubclass(base, _enum_module().Enum) or _is_model(base) or
                (base is not bytes and _value_type(base) is not None))):
        return
    raise CatalogError("%s: return annotation %s: its values cannot be sent as JSON; return "
                       "str, a dict, a dataclass, a TypedDict, a pydantic model or content "
                       "blocks (-> mcp_stdio.Content)" % (owner, _type_name(base)))


def _wants_structure(ret):
    """True when a return annotation calls for structuredContent and an outputSchema."""
    if ret in (str, int, float, bool, None, type(None), ToolResult, Content):
        return False
    if ret is dict or ret is list:
        return True
    import typing
    ret = _strip_annotated(ret)
    origin = typing.get_origin(ret)
    if _union_origin(origin):
        members = [a for a in typing.get_args(ret) if a is not type(None)]
        return len(members) == 1 and _wants_structure(members[0])
    if origin in (list, tuple) or _is_abc_sequence(origin):
        if any(_strip_annotated(a) is Content for a in typing.get_args(ret)):
            return False                       # content blocks, never structured output
    return ret in (dict, list) or origin in (dict, list) or _is_typeddict(ret) or \
        _is_dataclass(ret) or _is_abc_mapping(origin) or _is_model(ret)


def _tool_value(value, structured):
    """Map a decorated tool's return value to what _tool_answer accepts."""
    if isinstance(value, ToolResult) or isinstance(value, str) or value is None:
        return value
    if isinstance(value, dict) and value.get("type") in _CONTENT_FIELDS and not structured:
        return [value]
    if isinstance(value, (bytes, bytearray)):
        raise _ResultInvalid("it is bytes: wrap them with mcp_stdio.image() or "
                             "mcp_stdio.audio()")
    try:
        if structured or isinstance(value, dict) or _is_dataclass(type(value)) or \
                _is_model(type(value)):
            data = _to_json(value)
            return ToolResult([{"type": "text", "text": _encoder.encode(data)}], structured=data)
        if _looks_like_content(value):
            return value
        data = _to_json(value)
    except TypeError as e:
        raise _ResultInvalid("%s; return str, a dict, a list, a dataclass, a pydantic model or "
                             "content blocks (mcp_stdio.text(), image(), ...)" % e)
    return data if isinstance(data, str) else _encoder.encode(data)


_LOOP = threading.local()


def _run_coroutine(coro, ctx=None):
    """Run a coroutine to completion on this thread's own event loop.

    When the request is cancelled or times out, the coroutine's task is
    cancelled, so an awaiting handler gives its thread back at once.
    """
    import asyncio
    loop = getattr(_LOOP, "loop", None)
    if loop is None or loop.is_closed():
        loop = _LOOP.loop = asyncio.new_event_loop()
    task = loop.create_task(coro)
    when_cancelled = getattr(ctx, "when_cancelled", None)     # a Context's (None: no ctx)
    if when_cancelled is not None:
        when_cancelled(lambda: loop.call_soon_threadsafe(task.cancel))
    return loop.run_until_complete(task)


def _wrap_handler(fn, owner, allowed, convert=None):
    """Return call(values, ctx) that calls fn with the allowed names it declares.

    Parameters named ctx (or annotated Context) get the context; any other
    parameter must be one of allowed or have a default.
    """
    params, _, hints = _signature(fn, owner)
    names, ctx_name = [], None
    for pname, kind, default, _ in params:
        if pname == "ctx" or _is_context(hints.get(pname)):
            ctx_name = pname
        elif pname in allowed:
            names.append(pname)
        elif default is _EMPTY and kind != _VAR_KEYWORD and kind != _VAR_POSITIONAL:
            raise CatalogError("%s: parameter %r is not one of %s" % (
                owner, pname, ", ".join(sorted(allowed)) or "(none)"))
    is_async = _is_coroutine_function(fn)
    convert = convert or {}

    def call(values, ctx):
        kwargs = {n: (convert[n](values[n]) if n in convert else values[n])
                  for n in names if n in values}
        if ctx_name is not None:
            kwargs[ctx_name] = ctx
        result = fn(**kwargs)
        return _run_coroutine(result, ctx) if is_async else result
    return call


def _resource_value(value, uri, mime_type):
    """What a decorated resource function returned, as a Resource handler's value.

    str and bytes are the contents; ResourceContents are contents as given;
    anything else is JSON data, sent as application/json text (a list of
    objects included: contents are never guessed from their shape).
    """
    if value is None:
        raise _ResultInvalid("the resource handler returned None; return str, bytes or JSON "
                             "data, or raise ResourceNotFound")
    if isinstance(value, (str, bytes, bytearray, ResourceContents)):
        return value
    return [{"uri": uri, "text": _encoder.encode(_to_json(value)),
             "mimeType": mime_type or "application/json"}]


def _author_path(path):
    """An absolute path for a path an author gave the library in source code.

    A relative one follows the source file that made the call (the first caller
    outside this file), never the working folder: hosts start servers from
    folders of their own. Without a source file (python -c, a REPL) it is the
    working folder's. Paths typed on a command line are not author paths.
    """
    path = os.fspath(path)
    if os.path.isabs(path):
        return os.path.normpath(path)
    here = _author_path.__code__.co_filename
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename == here:
        frame = frame.f_back
    source = frame.f_code.co_filename if frame is not None else ""
    if source.startswith("<") or not os.path.isfile(source):
        return os.path.abspath(path)
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(source)), path))


class _ConversionError(ValueError):
    """A template variable does not convert to its annotated type."""


def _without_none_or(ann):
    import typing
    if _union_origin(typing.get_origin(ann)):
        members = [a for a in typing.get_args(ann) if a is not type(None)]
        if len(members) == 1:
            return members[0]
    return ann


def _checked_conversion(builder, annotation, where):
    """A converter from a URI template string to the annotated type, checked by schema."""
    schema, convert = builder.build(annotation, where)
    kind = schema.get("type")
    validator = compile_schema(schema)

    def conv(text):
        value = text
        if kind == "integer":
            if not re.match(r"^-?[0-9]{1,18}\Z", text):
                raise _ConversionError(where)
            value = int(text)
        elif kind == "number":
            try:
                value = float(text)
            except ValueError:
                raise _ConversionError(where)
        if validator.errors(value):
            raise _ConversionError(where)
        return convert(value)
    return conv


###############################################################################
# Large catalogs: functions described at first use ############################
###############################################################################
#
# A catalog of thousands starts without reading what no client asked for yet. A
# decorated function that cannot fail to describe (plain parameters, a plain
# return: _plain_signature) is checked at registration and described at its
# first listing (schemas, description) and its first call (handler); a
# resource function that takes nothing is wrapped at its first read. What can
# fail is still described at registration, and fails there. What a serve
# described is kept for the next start (_KeptListings).

_UNSEEN = object()         # a listing object not made yet (_Catalog.page)


def _any_other(entries, attr, value):
    """Whether any of entries has an attr other than value (the catalog's scans at
    serving start read it in C: a Python loop costs thousands of tools milliseconds)."""
    values = list(map(_attrgetter(attr), entries))
    return values.count(value) != len(values)


def _any_a(cls, entries):
    """Whether any of entries is a cls (isinstance), asking their few classes, not each."""
    return any(issubclass(c, cls) for c in set(map(type, entries)))


# The return annotations of a tool described at first use (_plain_signature).
_PLAIN_RETURNS = frozenset((str, int, float, bool, dict, list, type(None), ToolResult))


def _plain_signature(fn, params=None):
    """True when nothing in fn can fail to describe its tool, which is then described at
    first use; params, a list, then gets (name, _PLAIN_SCHEMAS entry, default) of each
    of its parameters but its context.

    That is a def (no generator, *args, **kwargs or positional-only parameter)
    whose parameters are plain (_plain_parameter) and whose return annotation is
    one of _PLAIN_RETURNS or none.
    """
    if type(fn) is not _FUNCTION:
        return False
    code = fn.__code__
    if code.co_flags & _NOT_PLAIN_FLAGS or code.co_posonlyargcount:
        return False
    ann = fn.__annotations__
    ret = ann.get("return")
    if ret is not None and (type(ret) is not type or ret not in _PLAIN_RETURNS):
        return False
    n_pos = code.co_argcount
    defaults = fn.__defaults__ or ()
    first = n_pos - len(defaults)             # the first positional parameter with a default
    i = 0
    for pname in code.co_varnames[:n_pos + code.co_kwonlyargcount]:
        # _plain_parameter(), inline: this runs for each parameter of thousands of tools.
        default = (_EMPTY if i < first else defaults[i - first] if i < n_pos else
                   (fn.__kwdefaults__ or {}).get(pname, _EMPTY))
        i += 1
        if pname == "ctx":
            continue
        a = ann.get(pname)
        plain = _PLAIN_SCHEMAS.get(a) if type(a) is type else None
        if plain is None:
            plain = _optional_plain(a) if default is None else None
            if plain is None:
                return False
        elif default is not _EMPTY and type(default) not in _SCALAR_DEFAULTS and not (
                type(default) is float and default - default == 0):     # _is_finite()
            return False
        if params is not None:
            params.append((pname, plain, default))
    return True


# The parts of a _DescribedTool describes at first use, by what first needs
# them: its listing, or a call (a catalog that is only listed keeps no handlers).
_FUNCTION_PARTS = {"input_schema": "listing", "output_schema": "listing",
                   "description": "listing", "handler": "call", "nullable": "call",
                   "uses_context": "call"}


_DESCRIBING = threading.Lock()


def _describe_function(tool, attr):
    """Set the parts of a _DescribedTool that attr's use needs, once, but none
    it has (an author's description, a mount's handler on its copy)."""
    fn, name, _ = tool._function
    with _DESCRIBING:
        have = tool.__dict__
        if attr in have:
            return                            # another thread described it meanwhile
        parts = _plain_listing(fn) if _FUNCTION_PARTS[attr] == "listing" else \
            _read_function(fn, name, "tool %r" % name, listing=False)[0]
        for k, v in parts.items():
            if k not in have:
                have[k] = v


def _described(tool, attr):
    _describe_function(tool, attr)
    return tool.__dict__[attr]


class _DescribedTool(Tool):
    """The Tool of a function _plain_signature() passed, described at first use.

    Nothing in such a function can fail to describe, so only the fields are
    checked when it is made: a catalog of thousands starts without reading
    docstrings, and keeps no handler for a tool never called.
    """

    _function = None       # (function, name, description from its docstring?)

    @classmethod
    def of_function(cls, fn, name, fields):
        """The tool of fn, named name, with fields (a tool's keywords)."""
        f = _checked_tool_fields(name, fields)
        if f is _TASK_FIELDS.get(f["task"]):      # a decorator's: every field the class's
            return cls.of_plain(fn, name, f["task"])
        _check_tool_name(name)
        self = cls.__new__(cls)
        from_doc = f["description"] is None       # the docstring's summary, at first use
        self._function = (fn, name, from_doc)
        if not from_doc:
            self.description = f["description"]
        self._set_fields(name, f)
        return self

    @classmethod
    def of_plain(cls, fn, name, task):
        """of_function() of a function given no field but its task (@server.tool's usual
        case, thousands at a start: kept short)."""
        if not (type(name) is str and name.isidentifier() and name.isascii() and
                len(name) <= 128):               # _check_tool_name()'s usual case, inline
            _check_tool_name(name)
        self = cls.__new__(cls)
        self._function = (fn, name, True)
        self.name = name
        if task != "forbidden":                   # the class's
            self.task = task
        return self


for _k in _FUNCTION_PARTS:
    setattr(_DescribedTool, _k, _AtFirstUse(_k, _described))
del _k
_KIND_OF[_DescribedTool] = _KIND_OF[Tool]


def _share_keys(cls):
    """Give cls's instances every attribute name a tool takes, on one instance made first.

    CPython keeps the attributes of a class's instances in a compact array while their
    names are the class's shared keys, which stop taking new names once a few dozen
    instances exist: a name first set after that (the parts of a tool described at
    first use, at its listing) gives each instance a dictionary of its own, 800
    bytes more a tool.
    """
    tool = cls.__new__(cls)
    for name in ("_function", "name", "title", "annotations", "icons", "timeout", "meta",
                 "pinned", "search_hint", "task", "task_start") + tuple(
                     _EXTENSION_TOOL_FIELDS) + tuple(
                     _FUNCTION_PARTS) + ("input_validator", "output_validator"):
        setattr(tool, name, None)


# Some hosts cut a tool's description and the server's instructions at this length.
_HOSTS_CUT_AT = 2048
# What a server with mounts gives as instructions at most, its own and its mounts' (more
# is cut by some hosts; the first thing a host that searches tools shows its model).
_COMPOSED_LIMIT = _HOSTS_CUT_AT


def _fair_description(tool):
    """True when a _DescribedTool surely has a description hosts take whole, as
    the first line of its docstring tells (it is then not described to know)."""
    later = tool._function if type(tool) is _DescribedTool else None
    if later is None or not later[2]:
        return False                      # known already: the caller reads it
    doc = later[0].__doc__
    if not doc or len(doc) > _HOSTS_CUT_AT or "\t" in doc:     # tabs: expanded, longer
        return False
    first = doc.lstrip().partition("\n")[0].rstrip()
    # A first line that may start a section (Args:, :param x:) may leave no summary; ""
    # and ":" are both in ":".
    return first[:1] not in ":" and first[-1] != ":"


def _plain_listing(fn):
    """The listing parts of a _DescribedTool (input and output schema, description)."""
    params = []
    _plain_signature(fn, params)
    summary, docs = _parse_docstring(fn.__doc__)
    props, required = {}, []
    for pname, plain, default in params:
        props[pname] = _plain_property(plain, default, docs.get(pname))
        if default is _EMPTY:
            required.append(pname)
    ret = fn.__annotations__.get("return")
    output = _describe_return(ret, "")[0] if ret is dict or ret is list else None  # no fault
    return {"input_schema": _object_schema(props, required),
            "output_schema": _output_schema(output), "description": summary}


class _FunctionReader:
    """A decorated resource function as a handler(uri, ctx) (see _resource_value).

    call, the function called with the names it declares (_wrap_handler), is
    made at the first read for a function that takes nothing (nothing to check
    then): a catalog of thousands keeps none it never reads.
    """

    __slots__ = ("fn", "mime_type", "call")

    def __init__(self, fn, mime_type):
        self.fn, self.mime_type, self.call = fn, mime_type, None

    def __call__(self, uri, ctx):
        call = self.call
        if call is None:
            call = self.call = _wrap_handler(self.fn, "resource %r" % uri, {"uri"})
        return _resource_value(call({"uri": uri}, ctx), uri, self.mime_type)


def _first_reader(resource, attr):
    """The handler of a _DescribedResource: the reader of its function, made at its first
    read and then set on it."""
    resource.handler = reader = _FunctionReader(resource._function, None)
    return reader


class _DescribedResource(Resource):
    """The Resource of a function decorated with only its URI: every other field the
    class's, and its handler made at its first read when it takes nothing (there is
    nothing to check then: a catalog of thousands keeps no handler it never reads)."""

    handler = _AtFirstUse("handler", _first_reader)     # a handler set on one wins

    @classmethod
    def of_function(cls, uri, fn):
        """The resource of fn at uri."""
        handler = None if _takes_nothing(fn) else _reader_of(fn, uri, None)
        name, description = fn.__name__, _parse_docstring(fn.__doc__)[0]
        _check_uri(uri)
        self = cls.__new__(cls)
        self.uri, self.name = uri, name
        if handler is None:
            self._function = fn             # read by _first_reader
        else:
            self.handler = handler
        if description is not None:
            self.description = description
        return self


_KIND_OF[_DescribedResource] = _KIND_OF[Resource]


def _reader_of(fn, uri, mime_type):
    """A decorated resource function as its handler; one that takes parameters is checked
    now."""
    reader = _FunctionReader(fn, mime_type)
    if not _takes_nothing(fn):
        reader.call = _wrap_handler(fn, "resource %r" % uri, {"uri"})
    return reader


def _takes_nothing(fn):
    """True for a def or lambda without parameters."""
    if type(fn) is not _FUNCTION:
        return False
    code = fn.__code__
    return not (code.co_argcount or code.co_kwonlyargcount or
                code.co_flags & (_CO_VARARGS | _CO_VARKEYWORDS))


# Listings kept between starts. A host starts its stdio servers at each connection, and
# a catalog of thousands would read every docstring and build every schema again each
# time. So the listing parts of a function described at first use are kept, as JSON
# text, in a file beside its module's bytecode: written when a serve ends as Python
# writes bytecode (not under -B or PYTHONDONTWRITEBYTECODE, at sys.pycache_prefix when
# set), read when the next starts (by the stdio runtime: the engine reads no file). A
# function's parts are found by all they are made of (_listing_key): an edited function
# finds none and is described afresh, so nothing listed is stale. The file is trusted as
# its neighbour the bytecode is (marshal, written whole by os.replace).

# The largest file of kept listings read, tens of thousands of tools' (a larger catalog
# is described at first use, as without a file): nothing larger is read into memory.
_KEPT_LIMIT = 64 << 20
# Entries are kept in chunks of this many, in the order of their listing, and a chunk is
# decoded when its first tool is listed: a first page decodes one, not the whole file.
_KEPT_CHUNK = 100
# A file holding this many entries more than its server has plain tools keeps only theirs
# when next written: an edited catalog's old entries do not pile up.
_KEPT_SPARE = 256
# A server of fewer plain tools describes them at each start: opening and reading the
# file costs about what describing a dozen does.
_KEPT_FEWEST = 16
# The names a decorated function's Tool has before anything but its own parts is set on
# it: a Tool with any other (a title, a schema set by hand) is described as usual.
_AS_MADE = frozenset(("name", "_function", "task", "handler", "nullable", "uses_context"))


class _KeptListings:
    """The listing parts of plain functions, kept in a file between starts.

    kept: {_listing_key(fn): _listing_parts(its Tool)}, from the file's chunks
    decoded so far (chunks: each chunk's bytes, None once decoded); made: the
    entries this serve described; listed: every key it listed, in order.
    """

    def __init__(self, server, path, chunks):
        self.server, self.path, self.chunks = server, path, chunks
        self.unread = len(chunks)
        self.kept, self.made, self.listed = {}, {}, {}

    @classmethod
    def open(cls, server):
        """The kept listings for the plain tools a server serves, beside the module of the
        first (the file's chunks when it has them), or None where no file can keep them."""
        plain = (t._function[0] for t in server.catalog.tools.values()
                 if type(t) is _DescribedTool)
        fns = [fn for _, fn in zip(range(_KEPT_FEWEST), plain)]
        if len(fns) < _KEPT_FEWEST or not os.path.isfile(fns[0].__code__.co_filename):
            return None                     # a few tools; "<string>", made by exec
        from importlib.util import cache_from_source
        try:
            path = os.path.splitext(cache_from_source(os.path.abspath(
                fns[0].__code__.co_filename)))[0] + ".mcp-listings"
        except (NotImplementedError, ValueError):    # an interpreter without a cache tag
            return None
        chunks = _read_kept(path)
        if not chunks and sys.dont_write_bytecode:
            return None                 # nothing to read, nothing to be written
        return cls(server, path, chunks)

    def listing(self, tool, revision, audience, memo, at=0):
        """tool's listing as JSON text (a tuple of str to join), None where it is not
        listed, or _UNSEEN: describe() lists it (it is not a plain function's Tool as
        made). memo: _added_text's; at: its index in the catalog, which tells the chunk
        that keeps it."""
        if tool._function is None or not tool.__dict__.keys() <= _AS_MADE:
            return _UNSEEN
        fn = tool._function[0]
        key = _listing_key(fn)
        if key is None:
            parts = _listing_parts(_plain_listing(fn))
        else:
            parts = self.kept.get(key) or self.made.get(key)
            if parts is None and self.unread:
                parts = self._find(key, at // _KEPT_CHUNK)
            if type(parts) is not tuple or len(parts) != 2:
                # Described here, not on the Tool: its schemas are made again if it is
                # called.
                parts = self.made[key] = _listing_parts(_plain_listing(fn))
            self.listed[key] = None
        # What Tool.describe() lists of a Tool as made, in its order: its name, the parts,
        # and what the extensions add, which for such a Tool depends on its task alone
        # (every other field is the class's).
        added = _added_text(tool, revision, audience, memo, (Tool, tool.task))
        if added is None:
            return None                 # not listed in this revision, to this audience
        # A tuple of str, joined in its page: the parts stay shared with kept.
        return '{"name":', _eb(tool.name), parts[0], \
            parts[1] if "structured_content" in _FEATURES[revision] else "", added

    def _find(self, key, chunk):
        """The parts kept for key: from the chunk its place tells, else from any."""
        if chunk < len(self.chunks):
            self._decode(chunk)
            if key in self.kept:
                return self.kept[key]
        for i in range(len(self.chunks)):       # the catalog changed: read them all
            self._decode(i)
        return self.kept.get(key)

    def _decode(self, i):
        data, self.chunks[i] = self.chunks[i], None       # its bytes go once decoded
        if data is not None:
            self.unread -= 1
            self.kept.update(_decoded_chunk(data))

    def save(self):
        """Write the entries this serve listed, in its order, then the file's others
        (nothing under -B, nor when nothing was described)."""
        try:
            if not self.made or sys.dont_write_bytecode:
                return
            old = {}
            for data in _read_kept(self.path):  # as this or another serve left it
                old.update(_decoded_chunk(data))
            entries = {k: self.made.get(k) or self.kept.get(k) for k in list(self.listed)}
            for k, v in old.items():
                entries.setdefault(k, v)
            plain = [t._function[0] for t in self.server.tools.values()
                     if type(t) is _DescribedTool]
            if len(entries) > len(plain) + _KEPT_SPARE:     # what no tool reads any more
                current = set(map(_listing_key, plain))
                entries = {k: v for k, v in entries.items() if k in current}
            _write_kept(self.path, entries)
        except Exception:    # noqa: BLE001 - a listing kept nowhere is never an error
            pass


def _listing_parts(parts):
    """The JSON text of what a Tool as made lists of _plain_listing()'s parts, in two: its
    description and input schema, and its output schema (or "")."""
    d, out = parts["description"], parts["output_schema"]
    return (("" if d is None else ',"description":' + "".join(_chunks(d))) +
            ',"inputSchema":' + "".join(_chunks(parts["input_schema"])),
            "" if out is None else ',"outputSchema":' + "".join(_chunks(out)))


def _added_text(entry, revision, audience, memo, shape):
    """What the extensions add to the listing of an entry as made, as the JSON text that
    ends it ("}" when nothing), or None where it is not listed. Every entry of a shape
    (its class and the fields the class does not give) has the same: memo keeps it."""
    key = (shape, revision, audience)
    added = memo.get(key)
    if added is None:
        d = _listed(entry, revision, {}, audience)
        added = memo[key] = False if d is None else "".join(
            ["," + _eb(k) + ":" + "".join(_chunks(v)) for k, v in d.items()]) + "}"
    return added or None


def _listing_text(entry, revision, audience, memo, kept=None, at=0):
    """The listing of an entry as made (a plain function's Tool, a Resource with no field
    but its URI, name and description) as JSON text (a str, or a tuple of str to join),
    None where it is not listed, or _UNSEEN: describe() lists it. The JSON of a Tool's
    schemas is read from kept (a serve's _KeptListings), and made there when not yet
    kept."""
    cls = type(entry)
    if cls is _DescribedTool:
        return _UNSEEN if kept is None else kept.listing(entry, revision, audience, memo, at)
    if cls is not _DescribedResource and cls is not Resource or entry.title is not None or entry.mime_type is not None or \
            entry.size is not None or entry.annotations is not None or \
            entry.icons is not None or entry.meta is not None:
        return _UNSEEN      # more (fields read, not vars(), which makes a dict of each)
    # What Resource.describe() lists of one as made, in its order, then what the extensions
    # add (which read none of a Resource's fields: theirs are a Tool's and a View's).
    added = memo.get((Resource, revision, audience)) or _added_text(   # its memo first:
        entry, revision, audience, memo, Resource)                     # a call less each
    if added is None:
        return None
    description = entry.description
    return "".join(('{"uri":', _eb(entry.uri), ',"name":', _eb(entry.name),     # one str:
                    "" if description is None else ',"description":' + _eb(description),
                    added))                       # less memory than the dict it stands for


def _kept_header():
    # Another version may describe differently: its file is not read.
    return ("mcp_stdio %s listings\n" % __version__).encode("ascii")


def _read_kept(path):
    """The chunks of a file of kept listings (bytes each), or [] for a missing, damaged or
    foreign one."""
    import marshal
    header = _kept_header()
    try:
        with open(path, "rb") as f:
            # The header, the index's length, the index (each chunk's length), the chunks,
            # each read on its own: one is let go once decoded.
            head = f.read(len(header) + 4)
            n = int.from_bytes(head[len(header):], "big")
            if not head.startswith(header) or len(head) < len(header) + 4 or \
                    n > _KEPT_LIMIT:
                return []
            sizes = marshal.loads(f.read(n))
            if type(sizes) is not list or not all(type(k) is int and k > 0 for k in sizes) \
                    or sum(sizes) > _KEPT_LIMIT:
                return []
            chunks = [f.read(k) for k in sizes]
            if any(len(c) != k for c, k in zip(chunks, sizes)) or f.read(1):
                return []                   # cut short, or more than it says
    except Exception:    # noqa: BLE001 - a file unreadable or damaged is one not read
        return []
    return chunks


def _decoded_chunk(data):
    """The entries of one chunk, or {} for a damaged one."""
    import marshal
    try:
        entries = marshal.loads(data)
    except Exception:    # noqa: BLE001 - a damaged chunk is one not read
        return {}
    return entries if type(entries) is dict else {}


def _write_kept(path, entries):
    """Write entries ({key: parts}, in order) to path in chunks, whole or not at all."""
    import marshal
    items = list(entries.items())
    chunks = [marshal.dumps(dict(items[i:i + _KEPT_CHUNK]))
              for i in range(0, len(items), _KEPT_CHUNK)]
    index = marshal.dumps([len(c) for c in chunks])
    body = len(index).to_bytes(4, "big") + index + b"".join(chunks)
    tmp = "%s.%d.tmp" % (path, os.getpid())
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as f:          # replaced whole: a reader never sees half
            f.write(_kept_header() + body)
        os.replace(tmp, path)
    except OSError:                         # a folder not ours to write in: kept nowhere
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _listing_key(fn):
    """A digest of all that _plain_listing() reads of fn (equal digests, equal listings), or
    None when that cannot be said (a docstring that is not a str)."""
    doc = fn.__doc__
    if doc is not None and type(doc) is not str:
        return None
    code, ann = fn.__code__, fn.__annotations__
    try:
        try:
            names = "\x1e".join(map(_ANNOTATION_NAMES.__getitem__, ann.values()))
        except KeyError:        # a name the table lacks: its repr, which gives its module
            names = "\x1e".join([_ANNOTATION_NAMES.get(a) or repr(a) for a in ann.values()])
    except Exception:    # noqa: BLE001 - an annotation not hashable, or its repr failed
        return None
    n = code.co_argcount          # the parameters before it take the defaults
    # Fields apart by \x1f, items by \x1e, the docstring last: no two functions read
    # alike. repr tells a default True from 1 and 1.0. A digest, not the text: the
    # file and the memory keep 16 bytes, not a copy of each docstring.
    text = "\x1f".join(("\x1e".join(code.co_varnames[:n + code.co_kwonlyargcount]), str(n),
                        repr(fn.__defaults__), repr(fn.__kwdefaults__), "\x1e".join(ann),
                        names, "" if doc is None else "d" + doc))
    return _blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def _blake2b(data, digest_size):
    """hashlib.blake2b(data, digest_size=...), without starting OpenSSL as importing hashlib
    does (a cost a start would notice): at its first call it puts the class in its own
    place."""
    global _blake2b
    try:
        from _blake2 import blake2b as _blake2b     # hashlib's, without OpenSSL's start
    except ImportError:
        from hashlib import blake2b as _blake2b
    return _blake2b(data, digest_size=digest_size)


# The annotations of plain parameters, by a name that is the same in every process.
_ANNOTATION_NAMES = {int: "int", float: "float", str: "str", bool: "bool", dict: "dict",
                     list: "list", None: "None"}


###############################################################################
# Authoring API: the decorators ###############################################
###############################################################################


def tool_from_function(fn: Callable[..., Any], *, name: str | None = None,
                       **fields: Any) -> Tool:
    """Return a Tool whose schemas come from fn's signature, annotations and docstring.

    fields are a tool's keywords (title, description, annotations, icons, timeout,
    meta, task, task_start, app, visibility; the docstring's summary is the default
    description).
    A parameter named ctx (or annotated Context) receives the handler context.
    Raises CatalogError naming the parameter it cannot express.
    """
    _tool_keywords("tool_from_function", fields)
    return _function_tool(fn, name, fields)


def _function_tool(fn, name, fields):
    """tool_from_function(fn, name=name, **fields), fields' keywords known."""
    if _plain_signature(fn):
        return _DescribedTool.of_function(fn, name or fn.__name__, fields)
    owner = "tool %r" % (name or getattr(fn, "__name__", fn),)
    if _is_generator_function(fn):
        raise CatalogError("%s: a generator cannot be a tool: return the whole result, and "
                           "report steps with ctx.progress()" % owner)
    tool_name = name or fn.__name__
    parts, constrained = _read_function(fn, tool_name, owner)
    if fields.get("description") is None:
        fields["description"] = parts["description"]
    tool = Tool(tool_name, parts["handler"], input_schema=parts["input_schema"],
                output_schema=parts["output_schema"],
                # Schemas made here are valid by construction, unless they carry the author's
                # constraints (a pattern, bounds): those are checked now, the rest on first use.
                lazy=not constrained, **fields)
    tool.nullable, tool.uses_context = parts["nullable"], parts["uses_context"]
    return tool


def _decorator(register, fn):
    # Allow both @server.tool and @server.tool(...)
    return register(fn) if fn is not None else register


class _Decorators:
    """The decorator half of Server: sugar over Server.add()."""

    if TYPE_CHECKING:       # what a decorated function keeps: its own type
        @overload
        def tool(self, fn: _Fn, *, name: str | None = None, **fields: Any) -> _Fn: ...
        @overload
        def tool(self, fn: None = None, *, name: str | None = None,
                 **fields: Any) -> Callable[[_Fn], _Fn]: ...
        @overload
        def middleware(self, fn: _Fn, *, kinds: Any = None) -> _Fn: ...
        @overload
        def middleware(self, fn: None = None, *,
                       kinds: Any = None) -> Callable[[_Fn], _Fn]: ...
        @overload
        def prompt(self, fn: _Fn, *, name: str | None = None, title: str | None = None,
                   description: str | None = None, icons: Any = None, meta: Any = None,
                   complete: Any = None) -> _Fn: ...
        @overload
        def prompt(self, fn: None = None, *, name: str | None = None, title: str | None = None,
                   description: str | None = None, icons: Any = None, meta: Any = None,
                   complete: Any = None) -> Callable[[_Fn], _Fn]: ...

    def tool(self, fn: Any = None, *, name: str | None = None, **fields: Any) -> Any:
        """Register a function as a tool; its signature and docstring give the schema.

        fields are a tool's keywords, as tool_from_function() takes them. Annotation
        hints may be given as annotations={"readOnlyHint": True, ...}.
        task="optional" or "required" lets it run as a task (default: the server's
        task_support option); task_start="handler" starts the task when the
        handler calls ctx.start_task() instead of with the call. app="ui://..."
        names the MCP App view that shows its result (see app()); visibility=
        ["app"] makes it a tool only views call, hidden from the model.
        """
        if fn is not None and name is None and not fields:     # @server.tool, thousands
            task = self.task_support
            if _plain_signature(fn):
                name = fn.__name__
                return self._placed(self.tools, name, _DescribedTool.of_plain(fn, name, task), fn)
            return self._added(_function_tool(fn, None, {"task": task}), fn)
        if fields.get("task") is None:
            fields["task"] = self.task_support
        if len(fields) > 1:                   # more than the task: some may be unknown
            _tool_keywords("tool", fields)

        def register(f):
            return self._added(_function_tool(f, name, fields), f)
        return _decorator(register, fn)

    def _added(self, entry, fn):
        """Add the entry a decorator made of fn, and return fn (add(fn) is then a no-op)."""
        kind = _KIND_OF.get(type(entry))
        if kind is None:                  # an author's subclass of an entry
            self.add(entry)
            self._decorated.append(fn)
            return fn
        return self._placed(getattr(self, kind.attr), getattr(entry, kind.key), entry, fn)

    def _placed(self, table, key, entry, fn):
        """_added() of an entry whose table and key are known: add(), for the usual case of
        thousands, quickly."""
        lock = self._lock      # acquire() and release(), not "with", which costs twice as
        lock.acquire()         # much in CPython 3.11: a catalog of thousands takes it for each
        try:
            if not self._frozen and key not in table:
                table[key] = entry
                entry = None
        finally:
            lock.release()
        if entry is not None:
            self.add(entry)
        self._decorated.append(fn)
        return fn

    def middleware(self, fn: Any = None, *, kinds: Any = None) -> Any:
        """Register fn(request, next) around every request, or those of some kinds only.

        request is the request's Call (method, params, kind, name, ctx, era,
        revision, client_capabilities); next() serves it with request.params and
        returns its result, which fn returns (or another). kinds:
        some of MIDDLEWARE_KINDS ("tool", "resource", "prompt", "list",
        "completion", "request"). The first registered is outermost. A ToolError
        raised around a tools/call is an isError result; a ProtocolError refuses
        any request; anything else is an incident, as from a handler. An async
        def fn awaits next().
        """
        if kinds is not None:
            kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
            unknown = [k for k in kinds if k not in MIDDLEWARE_KINDS]
            if unknown:
                raise CatalogError("middleware: unknown kind(s) %s (known: %s)" % (
                    ", ".join(map(repr, unknown)), ", ".join(MIDDLEWARE_KINDS)))

        def register(f):
            if not callable(f):
                raise CatalogError("middleware: %r is not a function" % (f,))
            if self._frozen:
                raise CatalogError("server %r: middleware cannot be added once it serves "
                                   "(connections already follow it)" % self.name)
            self._middleware.append((f, kinds))
            return f
        return _decorator(register, fn)

    def resource(self, uri: str, *, name: str | None = None, title: str | None = None,
                 description: str | None = None, mime_type: str | None = None,
                 size: int | None = None, annotations: Any = None, icons: Any = None,
                 meta: Any = None, ttl_ms: int = 0,
                 cache_scope: str = "private") -> Callable[[_Fn], _Fn]:
        """Register a function returning a resource's contents (str, bytes or JSON data).

        The function may take uri and ctx.
        """
        # A partial, not a closure over eleven names: a catalog of thousands makes one each.
        if name is None and title is None and description is None and mime_type is None and \
                size is None and annotations is None and icons is None and meta is None and \
                ttl_ms == 0 and cache_scope == "private":   # the usual @server.resource(uri)
            return _partial(_Decorators._plain_resource, self, uri)   # no bound method
        return _partial(self._resource_of, uri, name, title, description, mime_type, size,
                        annotations, icons, meta, ttl_ms, cache_scope)

    def _resource_of(self, uri, name, title, description, mime_type, size, annotations,
                     icons, meta, ttl_ms, cache_scope, f):
        """Register f as resource() was asked to, and return it."""
        resource = Resource(uri, _reader_of(f, uri, mime_type), name=name or f.__name__,
                            title=title, description=description if description is not None
                            else _parse_docstring(f.__doc__)[0], mime_type=mime_type,
                            size=size, annotations=annotations, icons=icons, meta=meta,
                            ttl_ms=ttl_ms, cache_scope=cache_scope)
        return self._added(resource, f)

    def _plain_resource(self, uri, f):
        """Register f as resource(uri) was asked to, every keyword its default."""
        return self._placed(self.resources, uri, _DescribedResource.of_function(uri, f), f)

    def resource_template(self, uri_template: str, *, name: str | None = None,
                          title: str | None = None, description: str | None = None,
                          mime_type: str | None = None, annotations: Any = None,
                          icons: Any = None, meta: Any = None, complete: Any = None,
                          ttl_ms: int = 0,
                          cache_scope: str = "private") -> Callable[[_Fn], _Fn]:
        """Register a function serving the resources of a URI template such as notes://{id}.

        The function takes the template's variables by name (converted to their
        annotated types: str, int, float, Enum, Literal), and may take uri and ctx.
        Values that could walk a file tree never reach it: a "/" or "\\" in a
        {var} (even percent-encoded), and in any variable a ".." path segment, a
        NUL, a root (/x), a drive (C:\\, and on Windows C:x) or a share
        (\\\\host) make the URI "not found". Declare {+var} for a value that may
        hold slashes (a relative path), or {/var*} for path segments. A {?a,b} query's variables may be left
        out of a URI, so their parameters need defaults.
        """
        def register(f):
            owner = "resource template %r" % uri_template
            _, path, query = _parse_template(uri_template, owner)
            variables = {n for n, _ in path} | set(query or ())
            params, _, hints = _signature(f, owner)
            for pname, _, default, _ in params:
                if pname in (query or ()) and default is _EMPTY:
                    raise CatalogError("%s: parameter %r needs a default: a URI may leave "
                                       "out the query's %r" % (owner, pname, pname))
            builder, convert = _SchemaBuilder(owner), {}
            for v in variables:
                if v in hints:
                    convert[v] = _checked_conversion(builder, hints[v], "variable %r" % v)
            call = _wrap_handler(f, owner, variables | {"uri"}, convert)
            summary = _parse_docstring(f.__doc__)[0]

            def handler(uri, values, ctx):
                try:
                    return _resource_value(call(dict(values, uri=uri), ctx), uri, mime_type)
                except (ValueError, _ConversionError):
                    raise ResourceNotFound(uri)
            template = ResourceTemplate(uri_template, handler, name=name or f.__name__,
                                        title=title,
                                        description=description if description is not None
                                        else summary, mime_type=mime_type,
                                        annotations=annotations, icons=icons, meta=meta,
                                        complete=complete, ttl_ms=ttl_ms, cache_scope=cache_scope)
            return self._added(template, f)
        return register

    def prompt(self, fn: Any = None, *, name: str | None = None, title: str | None = None,
               description: str | None = None, icons: Any = None, meta: Any = None,
               complete: Any = None) -> Any:
        """Register a function as a prompt; its parameters (strings) are the arguments.

        Parameters without a default are required; descriptions come from the
        docstring. It returns a str (one user message), messages, or
        {"description", "messages"}.
        """
        def register(f):
            owner = "prompt %r" % (name or f.__name__)
            params, _, hints = _signature(f, owner)
            summary, docs = _parse_docstring(f.__doc__)
            arguments = []
            for pname, _, default, ann in params:
                ann = hints.get(pname, ann)
                if pname == "ctx" or _is_context(ann):
                    continue
                base = _strip_annotated(ann)
                if base is not _EMPTY and base is not str and \
                        _without_none_or(base) is not str:
                    raise CatalogError("%s: parameter %r: prompt arguments are strings; "
                                       "annotate it str" % (owner, pname))
                arg = {"name": pname}
                if pname in docs:
                    arg["description"] = docs[pname]
                if default is _EMPTY:
                    arg["required"] = True
                arguments.append(arg)
            call = _wrap_handler(f, owner, {a["name"] for a in arguments})
            prompt = Prompt(name or f.__name__, lambda args, ctx: call(args, ctx), title=title,
                            description=description if description is not None else summary,
                            arguments=arguments, icons=icons, meta=meta, complete=complete)
            return self._added(prompt, f)
        return _decorator(register, fn)


# What kind each method is, for middleware registered for some kinds only.
MIDDLEWARE_KINDS = ("tool", "resource", "prompt", "list", "completion", "request")

###############################################################################
# Outcomes: results and errors on the wire ####################################
###############################################################################
#
# What a request produced (a result dict, a tool's return value, or an
# exception) becomes one wire line here, shaped for the revision in use.
# Nothing else in the file builds a response line. What the client is not told
# (an incident's traceback, a mount's failure) is a line on stderr, written by
# the diagnostics at the end of this section.


def _b64(data):
    import base64
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text):
    import base64
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _binding_digest(binding):
    """[method, target, digest of the arguments]: what a requestState is bound to."""
    import hashlib
    method, name, args = binding
    digest = hashlib.sha256(json.dumps(args, sort_keys=True, separators=(",", ":"),
                                       ensure_ascii=False).encode("utf-8", "surrogatepass"))
    return [method, name, digest.hexdigest()[:32]]


class _TimedOut(Exception):
    """A call ran past its time limit."""

    def __init__(self, seconds):
        Exception.__init__(self, seconds)
        self.seconds = seconds


class _Busy(Exception):
    """No worker could take a call; the message says why."""


class _InputRequired(BaseException):
    """Unwinds a modern handler that needs answers it does not have yet.

    A BaseException so that a handler's own ``except Exception`` cannot swallow it.
    requests maps each key to its input request ({"method", "params"}).
    """

    def __init__(self, requests):
        BaseException.__init__(self, requests)
        self.requests = requests


class _BadAnswer(BaseException):
    """Unwinds a modern handler whose retry carries a malformed answer (-32602)."""


def _error_line(rid, code, message, data=None, null_id=False):
    """The line of a JSON-RPC error; rid None means the request id is unknown."""
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    if rid is None:
        # The 2025-11-25 and later schemas allow an error without "id"; strict
        # JSON-RPC peers may ask for "id": null instead.
        if null_id:
            return encode_message({"jsonrpc": "2.0", "id": None, "error": err})
        return encode_message({"jsonrpc": "2.0", "error": err})
    return encode_message({"jsonrpc": "2.0", "id": rid, "error": err})


def _notification_line(method, params):
    if params is None:
        return encode_message({"jsonrpc": "2.0", "method": method})
    return encode_message({"jsonrpc": "2.0", "method": method, "params": params})


def _result_line(rid, result, stamp=None, large=False):
    """The line of a JSON-RPC result; raises _ResultInvalid when JSON cannot carry it.

    result is a dict, or the JSON text of one (a str) already encoded. stamp is
    the (members, meta) pair of a modern server (resultType and the serverInfo
    _meta every modern result carries) or None for legacy.
    """
    members = None
    encoded = type(result) is str
    if stamp is not None:
        if encoded or result and not large and "resultType" not in result and \
                "_meta" not in result:
            members = stamp[0]
        else:
            if "resultType" not in result:
                result["resultType"] = "complete"
            meta = result.get("_meta")
            if meta is None:
                result["_meta"] = stamp[1]
            else:
                meta.setdefault(SERVER_INFO_KEY, stamp[1][SERVER_INFO_KEY])
    try:
        # The envelope is fixed: only the id and the result need encoding.
        head = '{"jsonrpc":"2.0","id":%s,"result":' % (
            rid if type(rid) is int else "".join(_chunks(rid)))
        body = (result,) if encoded else _chunks(result, large)
        if members is None:
            line = "".join((head, *body, "}\n"))
        else:                    # the result without its "}", then the usual members
            line = "".join((head, "".join(body)[:-1], members, "}\n"))
        return line.encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError, RecursionError) as e:
        raise _ResultInvalid(_not_json_problem(e))


def _stamp(server, revision):
    """The (members, meta) stamp of modern results of a revision for server, encoded once."""
    meta = {SERVER_INFO_KEY: server._implementation(revision)}
    # Long keys cost more to escape than the rest of a small result.
    return ',"resultType":"complete","_meta":%s}' % "".join(_chunks(meta)), meta


def _error_result(message):
    return {"content": [{"type": "text", "text": message}], "isError": True}


def _ask_for_input(conn, call, requests):
    """The InputRequiredResult asking requests ({key: request}), with a signed state.

    The state carries the answers given so far to what the handler asked,
    so a retry need only answer this round.
    """
    if call.keeper is not None:       # a task keeps its answers itself: no state to sign
        return {"resultType": "input_required", "inputRequests": requests}
    answers = {k: v for k, v in (call.answers or {}).items() if k in call.asked}
    return {"resultType": "input_required", "inputRequests": requests,
            "requestState": conn._signer.sign(_binding_digest(call.binding), answers)}


# What the client sees for each outcome that is not a result: exception type ->
# shape(conn, call, exc), returning a JSON-RPC error as (code, message, data),
# or a result (an exception again) to answer with instead. The most specific
# type of an exception's MRO decides. A tool's failure is an isError result the model can read (tool
# errors belong in results, says the specification); anything else that fails
# is a JSON-RPC error.

def _incident_outcome(incident):
    """The JSON-RPC error of an incident: its number, and nothing of what failed."""
    return INTERNAL_ERROR, "Internal error (incident %s)" % incident, {"incident": incident}


def _protocol_outcome(conn, call, e):
    return e.code, e.message, e.data


def _tool_error_outcome(conn, call, e):
    if call.kind == "tool":
        return _error_result(str(e))
    return INVALID_PARAMS, str(e), None


def _not_found_outcome(conn, call, e):
    return call.rules.not_found, "Resource not found", {"uri": e.uri}


def _input_outcome(conn, call, e):
    return _ask_for_input(conn, call, e.requests)


def _bad_answer_outcome(conn, call, e):
    return e.args[0]


def _timed_out_outcome(conn, call, e):
    if call.kind == "tool":
        return _error_result("Tool %r timed out after %g seconds." % (call.name, e.seconds))
    return INTERNAL_ERROR, "Internal error: %s %r timed out after %g seconds" % (
        call.kind, call.name, e.seconds), None


def _busy_outcome(conn, call, e):
    if call.kind == "tool":
        return _error_result(str(e))
    return INTERNAL_ERROR, str(e), None


def _failure_outcome(conn, call, e):
    """Anything else: an incident, reported on stderr with its traceback."""
    what = "method %s" % _short(call.method, 40) if call.kind is None else \
        "%s %s" % (call.kind, _short(call.name, 80))
    incident = conn._incident(what, e)
    if call.kind != "tool":
        return _incident_outcome(incident)
    if isinstance(e, _ResultInvalid):
        text = "Tool %r returned an invalid result: %s (incident %s)." % (call.name, e, incident)
    else:
        name = type(e).__name__
        if conn.server.error_details:
            name = "%s: %s" % (name, _short_text(e))
        text = "Tool %r failed: %s (incident %s); the details are in the server log." % (
            call.name, name, incident)
    return _error_result(text)


_OUTCOMES = {
    ProtocolError: _protocol_outcome,
    ToolError: _tool_error_outcome,
    ResourceNotFound: _not_found_outcome,
    _InputRequired: _input_outcome,
    _BadAnswer: _bad_answer_outcome,
    _TimedOut: _timed_out_outcome,
    _Busy: _busy_outcome,
    BaseException: _failure_outcome,
}


def _shaped(conn, call, outcome):
    """outcome (an exception) shaped by the most specific row of _OUTCOMES for its type."""
    for cls in type(outcome).__mro__:
        shape = _OUTCOMES.get(cls)
        if shape is not None:
            return shape(conn, call, outcome)


def _format_traceback(exc):
    """The traceback of exc as Python prints it: chained exceptions and source lines.

    A failure path must not depend on resources it may not get (an import can
    fail when the process is out of file descriptors): without the traceback
    module, the same chain is written plainly, with the source lines that can
    still be read.
    """
    try:
        import traceback
        return "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    except BaseException:   # noqa: B902 - an import, or the author's __str__, failed
        return _plain_traceback(exc)


def _plain_traceback(exc):
    """What traceback.format_exception writes, without importing anything."""
    chain, seen = [], set()
    while exc is not None and id(exc) not in seen:     # the newest last, as Python prints
        seen.add(id(exc))
        cause, context = exc.__cause__, exc.__context__
        link = None
        if cause is not None:
            link = "\nThe above exception was the direct cause of the following exception:\n\n"
        elif context is not None and not exc.__suppress_context__:
            link = "\nDuring handling of the above exception, another exception occurred:\n\n"
        chain.append((exc, link))
        exc = cause if cause is not None else context if link else None
    lines, sources = [], {}
    for exc, link in reversed(chain):
        if link:
            lines.append(link)
        lines.append("Traceback (most recent call last):\n")
        tb = exc.__traceback__
        while tb is not None:
            code = tb.tb_frame.f_code
            lines.append('  File "%s", line %d, in %s\n' % (code.co_filename, tb.tb_lineno,
                                                            code.co_name))
            source = _source_line(sources, code.co_filename, tb.tb_lineno)
            if source:
                lines.append("    %s\n" % source)
            tb = tb.tb_next
        try:
            detail = str(exc)
        except Exception:   # noqa: BLE001 - a broken __str__ must not hide the incident
            detail = "(the exception cannot be shown)"
        lines.append("%s: %s\n" % (type(exc).__name__, detail) if detail else
                     "%s\n" % type(exc).__name__)
    return "".join(lines)


def _source_line(sources, filename, number):
    """Line number of a source file, stripped, or "" when it cannot be read."""
    if filename not in sources:
        try:
            with open(filename, encoding="utf-8", errors="replace") as f:
                sources[filename] = f.read().splitlines()
        except (OSError, ValueError):
            sources[filename] = ()
    lines = sources[filename]
    return lines[number - 1].strip() if 0 < number <= len(lines) else ""


def _short_text(exc):
    try:
        text = _short(str(exc), 200)      # one line: JSON escapes newlines and controls
    except Exception:   # noqa: BLE001 - a broken __str__ must not hide the incident
        return "(the exception cannot be shown)"
    text = text[1:-1] if text.endswith('"') else text[1:]     # the JSON string's quotes
    if isinstance(exc, KeyError) and len(text) > 1 and text[0] == text[-1] == "'":
        text = text[1:-1]                 # a KeyError's words are its key's repr
    return text



# "prefix" names who speaks: the library's own commands are mcp_stdio, a server its
# Server name (a host that merges the stderr of several servers must tell them apart).
_DIAG_STATE = {"last": None, "at": 0.0, "repeats": 0, "prefix": "mcp_stdio"}


# One diagnostic line is cut at this many characters: diagnostics say what
# happened, they never carry payloads.
_DIAG_WIDTH = 1000


def _diag(line):
    """Write one diagnostic line to stderr (never request payloads).

    A line identical to the previous one within a second is counted instead of
    written, so hostile input cannot flood a client that does not drain stderr.
    """
    st = _DIAG_STATE
    now = _monotonic()
    if line == st["last"] and now - st["at"] < 1.0:
        st["repeats"] += 1
        return
    text = "%s: %s\n" % (st["prefix"], line.replace("\n", " ")[:_DIAG_WIDTH])
    if st["repeats"]:
        text = "%s: (the message before was repeated %d more times)\n%s" % (
            st["prefix"], st["repeats"], text)
    st["last"], st["at"], st["repeats"] = line, now, 0
    _log_line(text, raw=True)


def _log_line(text, raw=False):
    """Write one line to stderr as it is (the author's own log lines are never folded)."""
    try:
        sys.stderr.write(text if raw else text.replace("\n", " ")[:_DIAG_WIDTH] + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):   # None: started without stderr
        pass


def _report(line, detail=None):
    """Report a diagnostic line, and a multi-line detail (a traceback) when given."""
    _diag(line)
    if detail:
        _log_line(detail, raw=True)


def _speak_as(server):
    """Start stderr lines with server's name from now on; return the prefix it replaces."""
    saved = _DIAG_STATE["prefix"]
    _DIAG_STATE["prefix"] = str(server.name).replace("\n", " ")[:80] or "mcp_stdio"
    return saved


# A position cursor holds a file name at most (255 bytes, hex-encoded).
_MAX_POSITION_CURSOR = 1024


def _position_cursor(kind, position):
    """A cursor naming where the next page of kind starts (a task's seq, a child's name)."""
    return ("%s:%s" % (kind, position)).encode("utf-8", "surrogatepass").hex()


def _cursor_position(call, kind):
    """The position call's cursor names (None: the first page); -32602 for any other cursor.

    A null cursor counts as absent, as on the catalog's lists.
    """
    cursor = call.params.get("cursor") if call.params else None
    if cursor is None:
        return None
    if type(cursor) is str and 0 < len(cursor) <= _MAX_POSITION_CURSOR:
        try:
            k, _, position = bytes.fromhex(cursor).decode("utf-8").partition(":")
        except (ValueError, UnicodeDecodeError):
            k = position = None
        if k == kind and _position_cursor(kind, position) == cursor:
            return position
    raise ProtocolError(INVALID_PARAMS, "Invalid params: invalid cursor")


###############################################################################
# Asking the client: questions and answers ####################################
###############################################################################
#
# A handler asks with ctx.ask(key=Question, ...) or the one-question helpers
# (ctx.elicit, ctx.elicit_url, ctx.sample, ctx.roots). Each question knows its
# request, the client capability it needs, and how to read the answer; the
# engine decides how it travels (an InputRequiredResult round for modern
# clients, server-to-client requests for legacy ones).

# Trace context (W3C Trace Context and Baggage in a request's _meta, SEP-414): read
# when asked for (ctx.trace), never on the reading thread's path, and carried on
# unchanged on the requests the server sends for the call. A malformed value is
# ignored, never an error; mcp_stdio makes no spans of its own.
_TRACEPARENT_RE = r"([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-[^\s]*)?\Z"
_TRACESTATE_KEY_RE = (r"([a-z0-9][_0-9a-z*/-]{0,255}|"
                      r"[a-z0-9][_0-9a-z*/-]{0,240}@[a-z][_0-9a-z*/-]{0,13})\Z")
_TRACESTATE_VALUE_RE = r"[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]\Z"
_BAGGAGE_KEY_RE = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z"
_BAGGAGE_VALUE_RE = r"[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*\Z"
# The W3C limits: a tracestate of at most 32 members and (what every vendor must
# carry) 512 characters; a baggage of at most 8,192 bytes and 64 members.
_MAX_TRACESTATE_MEMBERS, _MAX_TRACESTATE = 32, 512
_MAX_BAGGAGE, _MAX_BAGGAGE_MEMBERS = 8192, 64


def _trace_context(meta):
    """The valid trace context in a request's _meta: {key: value}, the malformed left out."""
    if not isinstance(meta, dict):
        return {}
    out = {}
    parent = meta.get("traceparent")
    if _valid_traceparent(parent):
        out["traceparent"] = parent
        state = meta.get("tracestate")         # read only beside a valid traceparent
        if _valid_tracestate(state):
            out["tracestate"] = state
    baggage = meta.get("baggage")
    if _valid_baggage(baggage):
        out["baggage"] = baggage
    return out


def _valid_traceparent(value):
    m = _pattern(_TRACEPARENT_RE).match(value) if type(value) is str else None
    if m is None or m.group(1) == "ff" or m.group(1) == "00" and m.group(5):
        return False
    return m.group(2) != "0" * 32 and m.group(3) != "0" * 16


def _valid_tracestate(value):
    if type(value) is not str or len(value) > _MAX_TRACESTATE:
        return False
    members = [m.strip(" \t") for m in value.split(",")]
    members = [m for m in members if m]
    keys = [m.partition("=")[0] for m in members]
    return 0 < len(members) <= _MAX_TRACESTATE_MEMBERS and len(set(keys)) == len(keys) and all(
        "=" in m and _pattern(_TRACESTATE_KEY_RE).match(m.partition("=")[0]) and
        _pattern(_TRACESTATE_VALUE_RE).match(m.partition("=")[2]) for m in members)


def _valid_baggage(value):
    if type(value) is not str or len(value.encode("utf-8", "replace")) > _MAX_BAGGAGE:
        return False
    members = value.split(",")
    if not 0 < len(members) <= _MAX_BAGGAGE_MEMBERS:
        return False
    for member in members:
        parts = [p.strip(" \t") for p in member.split(";")]
        key, eq, val = parts[0].partition("=")
        if not eq or not _pattern(_BAGGAGE_KEY_RE).match(key.strip(" \t")) or \
                not _pattern(_BAGGAGE_VALUE_RE).match(val.strip(" \t")):
            return False
        for prop in parts[1:]:
            k, eq, v = prop.partition("=")
            if not _pattern(_BAGGAGE_KEY_RE).match(k.strip(" \t")) or eq and \
                    not _pattern(_BAGGAGE_VALUE_RE).match(v.strip(" \t")):
                return False
    return True


def _trace_out(call):
    """The trace context the server's own requests for call carry: the author's, or the call's."""
    trace = getattr(call, "trace", None)       # set by ctx.propagate()
    return trace if trace is not None else _trace_context(call.meta)


class ElicitResult:
    """The user's answer to an elicitation: action is "accept", "decline" or "cancel".

    For a URL question, "accept" means the user agreed to open the URL, not
    that the interaction there has finished; content is then None.
    """

    __slots__ = ("action", "content")

    def __init__(self, action: Any, content: Any = None) -> None:
        self.action, self.content = action, content

    @property
    def accepted(self):
        return self.action == "accept"

    def __eq__(self, other):
        return isinstance(other, ElicitResult) and \
            (self.action, self.content) == (other.action, other.content)

    def __repr__(self):
        return "ElicitResult(%r, %r)" % (self.action, self.content)


class SampleResult:
    """What the client's model answered a Sample question: role, content, model, stop_reason."""

    __slots__ = ("role", "content", "model", "stop_reason")

    def __init__(self, role: Any, content: Any, model: Any, stop_reason: Any = None) -> None:
        self.role, self.content, self.model = role, content, model
        self.stop_reason = stop_reason

    @property
    def text(self):
        """The text of the answer (its text blocks joined), or "" when it has none."""
        blocks = self.content if isinstance(self.content, list) else [self.content]
        return "".join(b["text"] for b in blocks
                       if isinstance(b, dict) and b.get("type") == "text" and
                       isinstance(b.get("text"), str))

    def __repr__(self):
        return "SampleResult(%r, %r, %r, %r)" % (self.role, self.content, self.model,
                                                 self.stop_reason)


class Question:
    """Something a handler asks the client; see Form, OpenURL, Sample and Roots."""

    method = None
    prefix = None       # of the key a question asked without one gets: "elicit-1"

    def params(self, revision: str, random: Callable[..., Any]) -> Any:
        """The request's params for protocol revision (random(n) gives n random bytes)."""
        raise NotImplementedError

    def needs(self) -> Any:
        """The client capabilities this question needs, as names ("sampling", "elicitation.url")."""
        raise NotImplementedError

    def answer(self, value: Any, where: Any) -> Any:
        """Read the client's answer; raise ValueError saying what is wrong with it."""
        raise NotImplementedError


class Form(Question):
    """Ask the user to fill a form: a flat object schema of primitive properties."""

    method = "elicitation/create"
    prefix = "elicit"

    def __init__(self, message: str, schema: Dict[str, Any]) -> None:
        _check_elicitation_schema(schema)
        self.message, self.schema = message, schema

    def params(self, revision: str, random: Callable[..., Any]) -> Any:
        if _has(revision, "elicitation_mode"):
            return {"mode": "form", "message": self.message, "requestedSchema": self.schema}
        return {"message": self.message, "requestedSchema": self.schema}

    def needs(self) -> Any:
        return ["elicitation.form"]

    def answer(self, value: Any, where: Any) -> Any:
        action = _elicit_action(value, where)
        if action != "accept":
            return ElicitResult(action)
        content = value.get("content")
        problems = validate(self.schema, content if content is not None else {})
        if problems:
            raise ValueError("%s does not match the requested schema: %s" % (where, problems[0]))
        return ElicitResult(action, content)


class OpenURL(Question):
    """Ask the user to open a URL (sign-in, payment, secrets: what a form must not ask).

    Needs revision 2025-11-25 or later and the client's elicitation.url
    capability. In 2025-11-25 the request carries elicitation_id (made here
    unless given); send ctx.elicitation_complete(question) when the
    interaction at the URL has finished.
    """

    method = "elicitation/create"
    prefix = "elicit"

    def __init__(self, message: str, url: str, elicitation_id: Any = None) -> None:
        if not isinstance(url, str) or "://" not in url:
            raise ValueError("OpenURL needs an absolute URL, not %r" % (url,))
        self.message, self.url, self.elicitation_id = message, url, elicitation_id

    def params(self, revision: str, random: Callable[..., Any]) -> Any:
        params = {"mode": "url", "message": self.message, "url": self.url}
        if _has(revision, "elicitation_id"):
            if self.elicitation_id is None:
                self.elicitation_id = _b64(random(12))
            params["elicitationId"] = self.elicitation_id
        return params

    def needs(self) -> Any:
        return ["elicitation.url"]

    def answer(self, value: Any, where: Any) -> Any:
        return ElicitResult(_elicit_action(value, where))


class Sample(Question):
    """Ask the client's model for a message (sampling/createMessage).

    messages is a prompt string or a list of SamplingMessage dicts; other
    keywords are the request's optional fields (system_prompt, temperature,
    stop_sequences, model_preferences, include_context, metadata, tools,
    tool_choice). Deprecated in revision 2026-07-28, still valid there.
    """

    method = "sampling/createMessage"
    prefix = "sample"

    _FIELDS = {"system_prompt": "systemPrompt", "temperature": "temperature",
               "stop_sequences": "stopSequences", "model_preferences": "modelPreferences",
               "include_context": "includeContext", "metadata": "metadata",
               "tools": "tools", "tool_choice": "toolChoice"}

    def __init__(self, messages: Any, max_tokens: int = 1000, **options: Any) -> None:
        if isinstance(messages, str):
            messages = [{"role": "user", "content": {"type": "text", "text": messages}}]
        if not isinstance(messages, list) or not messages:
            raise ValueError("Sample needs a prompt string or a non-empty list of messages")
        if type(max_tokens) is not int or max_tokens < 1:
            raise ValueError("max_tokens must be a positive integer")
        unknown = sorted(set(options) - set(self._FIELDS))
        if unknown:
            raise TypeError("Sample() got unknown options: %s" % ", ".join(unknown))
        self.request = {"messages": messages, "maxTokens": max_tokens}
        for name, value in options.items():
            if value is not None:
                self.request[self._FIELDS[name]] = value

    def params(self, revision: str, random: Callable[..., Any]) -> Any:
        return self.request

    def needs(self) -> Any:
        needs = ["sampling"]
        if "tools" in self.request:
            needs.append("sampling.tools")
        if self.request.get("includeContext", "none") != "none":
            needs.append("sampling.context")
        return needs

    def answer(self, value: Any, where: Any) -> Any:
        if not isinstance(value, dict) or value.get("role") not in ("user", "assistant") or \
                not isinstance(value.get("content"), (dict, list)) or \
                not isinstance(value.get("model"), str):
            raise ValueError("%s is not a CreateMessageResult (role, content and model)" % where)
        reason = value.get("stopReason")
        return SampleResult(value["role"], value["content"], value["model"],
                            reason if isinstance(reason, str) else None)


class Roots(Question):
    """Ask for the client's roots: the answer is a list of {"uri", "name"?} dicts."""

    method = "roots/list"
    prefix = "roots"

    def params(self, revision: str, random: Callable[..., Any]) -> Any:
        return {}

    def needs(self) -> Any:
        return ["roots"]

    def answer(self, value: Any, where: Any) -> Any:
        roots = value.get("roots") if isinstance(value, dict) else None
        if not isinstance(roots, list) or not all(
                isinstance(r, dict) and isinstance(r.get("uri"), str) for r in roots):
            raise ValueError("%s is not a ListRootsResult (roots, each with a uri)" % where)
        return [{k: r[k] for k in ("uri", "name") if isinstance(r.get(k), str)} for r in roots]


_PRIMITIVE_TYPES = ("string", "number", "integer", "boolean")


def _check_elicitation_schema(schema):
    """Raise ValueError unless schema is a flat object of primitive properties."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or \
            not isinstance(schema.get("properties"), dict):
        raise ValueError("a form needs {\"type\": \"object\", \"properties\": {...}}")
    for name, prop in schema["properties"].items():
        if not isinstance(prop, dict) or (prop.get("type") not in _PRIMITIVE_TYPES and
                                          not (prop.get("type") == "array" and "items" in prop)):
            raise ValueError("form property %r must be a string, number, integer or "
                             "boolean (elicitation forms are flat)" % name)
    _cached_validator(schema)     # a handler asks again on each modern round: compiled once


def _elicit_action(value, where):
    if not isinstance(value, dict) or value.get("action") not in ("accept", "decline", "cancel"):
        raise ValueError("%s is not an ElicitResult (action accept, decline or cancel)" % where)
    return value["action"]


# Client capabilities that exist only from a revision on (sampling and roots
# are in every revision).
_CAPABILITY_FEATURES = {"elicitation": "elicitation", "elicitation.form": "elicitation",
                        "elicitation.url": "elicitation_url", "sampling.tools": "sampling_tools"}


def _missing_capabilities(names, caps, revision):
    """The ClientCapabilities object naming what caps (of revision) lacks of names, or None.

    Names are "sampling", "roots", "elicitation", or a capability and its
    sub-capability ("elicitation.url", "sampling.tools"). An empty elicitation
    capability means form mode.
    """
    out = {}
    for name in names:
        top, _, sub = name.partition(".")
        have = caps.get(top)
        feature = _CAPABILITY_FEATURES.get(name)
        if isinstance(have, dict) and (feature is None or _has(revision, feature)) and (
                not sub or sub in have or (sub == "form" and "url" not in have)):
            continue
        need = out.setdefault(top, {})
        if sub and sub != "form" or (sub == "form" and isinstance(have, dict)):
            need[sub] = {}
    return out or None


def _questions_missing(call, questions):
    """What call's client lacks of the capabilities questions need (ClientCapabilities), or None."""
    return _missing_capabilities([n for q in questions.values() for n in q.needs()],
                                 call.client_capabilities or {}, call.revision)


def _why_missing(missing, call):
    """Why a client cannot be asked: it lacks capabilities, or its revision predates them."""
    declared = call.client_capabilities or {}
    too_old = {}
    for top, subs in missing.items():
        for sub in list(subs) or [""]:
            name = top + "." + sub if sub else top
            feature = _CAPABILITY_FEATURES.get(name)
            if isinstance(declared.get(top), dict) and (not sub or sub in declared[top]) and \
                    feature is not None and not _has(call.revision, feature):
                too_old[name] = _REVISION_TABLE[feature][0]
    if too_old:
        return "protocol %s has no %s (it needs %s or later)" % (
            call.revision, " and ".join(sorted(too_old)), max(too_old.values()))
    return "the client does not support %s" % _capability_names(missing)


def _capability_names(caps):
    """ "roots, sampling and elicitation.url": the names in a ClientCapabilities object."""
    names = [top + "." + sub if sub else top
             for top, subs in caps.items() for sub in (list(subs) or [""])]
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _questions(args, kw):
    """The {key: Question} of ctx.ask()'s arguments, checked."""
    if len(args) > 1 or (args and not isinstance(args[0], dict)):
        raise TypeError("ask() takes one dict of questions, or questions as keywords")
    questions = dict(args[0]) if args else {}
    for key, q in kw.items():
        if key in questions:
            raise ValueError("question %r is given twice" % key)
        questions[key] = q
    if not questions:
        raise ValueError("ask() needs at least one question")
    for key, q in questions.items():
        if not isinstance(key, str) or not key:
            raise ValueError("question keys must be non-empty strings, not %r" % (key,))
        if not isinstance(q, Question):
            raise TypeError("question %r must be a Form, OpenURL, Sample or Roots, not %s"
                            % (key, type(q).__name__))
    return questions


def _asked_params(call, q, conn):
    """The params of a question asked for call, carrying the call's trace context on."""
    params = q.params(call.revision, conn._random)
    trace = _trace_out(call)
    if trace:
        params = dict(params, _meta=dict(params.get("_meta") or {}, **trace))
    return params


def _note_question(call, key):
    """Record that call asked key; a key asked twice in one request is a handler's bug."""
    if call.asked is None:
        call.asked = set()
    if key in call.asked:
        raise ValueError("question %r was already asked during this request; each "
                         "question needs its own key" % key)
    call.asked.add(key)


def _ask_by_rounds(conn, call, questions, by_requests=False):
    """Return {key: answer} from what a modern retry carries; raise _InputRequired for the rest.

    Questions the client's capabilities do not allow are -32021 naming
    them; a malformed answer is -32602 naming its key. by_requests: the
    answers are responses to requests of the server's (a 2025-11-25 task),
    where a failed or malformed one is a ToolError, as for any legacy question.
    """
    missing = _questions_missing(call, questions)
    if missing:
        call.rules.refuse(call, missing)
    answers, out, ask = call.answers or {}, {}, {}
    for key, q in questions.items():
        _note_question(call, key)
        value = answers.get(key)
        if value is None:
            ask[key] = {"method": q.method, "params": _asked_params(call, q, conn)}
            continue
        if by_requests:
            if type(value) is _NoAnswer:
                raise ToolError(value)
            try:
                out[key] = q.answer(value, "the answer to %r" % key)
            except ValueError as e:
                raise ToolError("The client sent an invalid answer: %s" % e)
            continue
        try:
            out[key] = q.answer(value, "inputResponses[%s]" % json.dumps(key))
        except ValueError as e:
            raise _BadAnswer(ProtocolError(INVALID_PARAMS, "Invalid params: %s" % e))
    if ask:
        raise _InputRequired(ask)
    return out


def _no_answer_to(key, msg):
    """Why the response msg (None: the connection closed) to question key holds no answer."""
    if msg is None:
        return "The client closed the connection before answering %r." % key
    err = msg["error"] if isinstance(msg["error"], dict) else {}
    return "The client could not answer %r: %s" % (key, _short(err.get("message"), 200))


class _NoAnswer(str):
    """A 2025-11-25 task's question that the client answered with an error (the reason)."""

    __slots__ = ()


class _ServerRequest:
    """A request the server sent to the client, waiting for its response."""

    __slots__ = ("key", "on_answer", "response")

    def __init__(self, rid, on_answer):
        self.key = (True, rid)
        self.on_answer = on_answer
        self.response = None     # the response message, or None if the connection closed


class _Outgoing:
    """The requests a connection sent to its client (legacy asking), until answered."""

    def __init__(self, conn):
        self._conn = conn
        self._waiting = {}       # key -> _ServerRequest
        self._seq = 0

    def ask(self, call, questions, on_answer):
        """Send each question as a server-to-client request; return {key: _ServerRequest}.

        on_answer() runs once per question when its response (or the end of
        input) comes. Raises ToolError when the client cannot be asked.
        """
        conn = self._conn
        missing = _questions_missing(call, questions)
        if missing:
            raise ToolError("This %s needs to ask the client, but %s." % (
                call.kind or "request", _why_missing(missing, call)))
        for key in questions:
            _note_question(call, key)
        requests = [(key, q.method, _asked_params(call, q, conn))
                    for key, q in questions.items()]
        pending = {}
        with conn._lock:
            if call.settled:
                raise ToolError("The request is no longer in flight.")
            for key, method, params in requests:
                self._seq += 1
                q = _ServerRequest("mcp-%s-%d" % (method.partition("/")[0], self._seq),
                                   on_answer)
                self._waiting[q.key] = pending[key] = q
                conn.emit(encode_message({"jsonrpc": "2.0", "id": q.key[1], "method": method,
                                          "params": params}))
        return pending

    def send(self, method, params, on_answer):
        """Send one request of the server's (with the lock held); on_answer(request) gets it."""
        conn = self._conn
        self._seq += 1
        request = _ServerRequest("mcp-%s-%d" % (method.partition("/")[0], self._seq), None)
        request.on_answer = lambda: on_answer(request)
        self._waiting[request.key] = request
        conn.emit(encode_message({"jsonrpc": "2.0", "id": request.key[1], "method": method,
                                  "params": params}))
        return request

    def ask_alone(self, question, on_answer):
        """Send question as a request of the server's own, tied to no call (a mounted
        server's roots/list); on_answer(answer, or None: an error or the end of input) runs
        once. Return False, sending nothing, where the client is asked by input rounds or
        lacks what question needs."""
        conn = self._conn
        rules = conn.rules
        if rules is None or rules.input_rounds or _missing_capabilities(
                question.needs(), conn.client_capabilities or {}, conn.revision):
            return False

        def answered(request):
            msg, value = request.response, None
            if msg is not None and "error" not in msg:
                try:
                    value = question.answer(msg.get("result"), "the answer")
                except ValueError:
                    pass
            on_answer(value)
        with conn._lock:
            self.send(question.method, question.params(conn.revision, conn._random), answered)
        return True

    def forget(self, pending):
        """Stop waiting for the responses of pending questions (later ones are ignored)."""
        for q in pending.values():
            self._waiting.pop(q.key, None)

    def receive(self, msg, out=None):
        """Deliver a response message; return False when no request of ours waits for it.

        A Call that on_answer returns (a task's next round) goes to out, to be run.
        """
        rid = msg["id"]
        request = self._waiting.pop((type(rid) is str, rid), None)
        if request is None:
            return False
        request.response = msg
        more = request.on_answer()
        if more is not None and out is not None:
            out.append(more)
        return True

    def close(self):
        """Release every waiting request: the client is gone."""
        waiting, self._waiting = list(self._waiting.values()), {}
        for q in waiting:
            q.on_answer()           # response None

    @staticmethod
    def answers(pending, questions):
        """The answers in the responses of pending questions; raises ToolError for anything else."""
        out = {}
        for key, question in pending.items():
            msg = question.response
            if msg is None or "error" in msg:
                raise ToolError(_no_answer_to(key, msg))
            try:
                out[key] = questions[key].answer(msg.get("result"), "the answer to %r" % key)
            except ValueError as e:
                raise ToolError("The client sent an invalid answer: %s" % e)
        return out


# A requestState is honoured this long after it was made (seconds): long enough
# for a person to answer a question, short enough that a leaked one goes stale.
_STATE_TTL = 600


class _StateSigner:
    """Signs and verifies a connection's modern requestState (HMAC-SHA256).

    One key per connection, made on first use unless the server has one (a
    restart voids old states); made under the lock, since two handlers asking
    at once must sign with the same key.
    """

    def __init__(self, key, random, wall_clock, lock):
        self._key, self._random, self._wall, self._lock = key, random, wall_clock, lock

    def key(self):
        if self._key is None:
            with self._lock:
                if self._key is None:
                    self._key = self._random(32)
        return self._key

    def sign(self, binding, answers):
        """The requestState carrying answers, bound to binding (a _binding_digest)."""
        import hmac
        import hashlib
        payload = {"b": binding, "a": answers, "e": int(self._wall()) + _STATE_TTL}
        body = _b64(json.dumps(payload, separators=(",", ":"), ensure_ascii=False)
                    .encode("utf-8"))
        mac = hmac.new(self.key(), body.encode("ascii"), hashlib.sha256).digest()
        return body + "." + _b64(mac)

    def verify(self, binding, state):
        """Return the answers a requestState carries, or raise -32602."""
        import hmac
        import hashlib
        bad = ProtocolError(INVALID_PARAMS, "Invalid params: requestState is invalid, expired "
                            "or made for another request; send the original request again "
                            "without requestState")
        if len(state) > 1 << 20 or state.count(".") != 1:
            raise bad
        body, mac = state.split(".")
        want = hmac.new(self.key(), body.encode("ascii", "replace"), hashlib.sha256).digest()
        try:
            if not hmac.compare_digest(_unb64(mac), want):
                raise bad
            payload = json.loads(_unb64(body))
        except (ValueError, TypeError):
            raise bad
        if payload.get("b") != binding or payload.get("e", 0) < self._wall() or \
                type(payload.get("a")) is not dict:
            raise bad
        return payload["a"]


###############################################################################
# Protocol engine (sans-IO): calls and methods ################################
###############################################################################
#
# A request admitted becomes a Call; each method is one handler beside its row of
# _ROUTES (a new method is one function and one row), and the era rules say what
# differs between the eras (how to ask, refuse, and tell of changes). The era
# machine and Connection, in the next section, admit requests and dispatch them
# here; nothing here reads a stream or a clock of its own.


def _as_value(outcome):
    """A work's outcome as middleware reads it: a result the work wrote as JSON text (a
    tool's text on its fast path) read back as a value."""
    return json.loads(outcome) if type(outcome) is str else outcome


class Call:
    """One admitted request: what it asks and whether it has been answered.

    Connection.feed() returns the Calls whose work may take time (tools/call,
    resources/read, prompts/get); run each with run() on any thread. The
    handler receives a Context made for the call.
    """

    __slots__ = ("conn", "id", "key", "method", "params", "era", "revision",
                 "client_capabilities", "client_info", "meta", "log_level", "batch", "kind",
                 "name", "timeout", "deadline", "progress_token", "target", "arguments",
                 "work", "context", "answers", "binding", "asked", "settled", "cancelled",
                 "last_progress", "on_cancel", "keeper", "keep",
                 "trace",       # set only by ctx.propagate(): read it with getattr
                 # a request with middleware: (chain, work, admitted params), and the
                 # chain's position, ctx and large flag while it runs
                 "mw", "mw_at", "mw_ctx", "mw_large")

    def __init__(self, conn, rid, key, method, params, era, revision, caps, info, meta,
                 level, batch):
        self.conn = conn
        self.id = rid
        self.key = key
        self.method = method
        self.params = params
        self.era = era
        self.revision = revision
        self.client_capabilities = caps
        self.client_info = info
        self.meta = meta
        self.log_level = level
        self.batch = batch
        self.kind = self.name = self.answers = None
        # What keeps its outcome when an extension took it over (its task), and what one
        # would keep it for if it may take it over later (a task's TTL), else None.
        self.keeper = self.keep = None
        self.settled = False

    def start(self, kind: Any, name: str, work: Any, timeout: float,
              context: bool = True) -> Any:
        """Make this request a call of kind ("tool", "resource" or "prompt"); return it.

        work(call, ctx) returns (result dict, large) and runs in run(); context=False
        means work never uses its ctx, which is then None.
        """
        self.kind = kind
        self.name = name
        self.work = work
        self.context = context
        self.timeout = timeout
        self.deadline = None if timeout is None else self.conn._clock() + timeout
        self.asked = None            # the keys of the questions asked so far
        self.cancelled = False
        self.last_progress = self.on_cancel = None
        meta = self.meta
        token = meta.get("progressToken") if meta else None
        if token is not None and (type(token) is not str and
                                  (type(token) is not int or abs(token) > _MAX_ID)):
            token = None
        self.progress_token = token
        return self

    def run(self, ctx: Any = None) -> Any:
        """Run the handler and send its answer (unless the call is already settled)."""
        self.conn.run(self, ctx)

    @property
    def is_cancelled(self):
        return self.cancelled

    @property
    def rules(self):
        """What differs in the call's era (its row of _ERA_RULES)."""
        return _ERA_RULES[self.era]

    # -- what middleware sees of it (see Server.middleware) -------------------
    @property
    def ctx(self):
        """The request's Context, made when first asked for (middleware)."""
        if self.mw_ctx is None:
            self.mw_ctx = self.conn._context(self)
        return self.mw_ctx

    def next(self) -> Any:
        """Serve the rest of the middleware chain, then the request; return its result."""
        at = self.mw_at
        chain, work, admitted = self.mw
        if at == len(chain) and work is not None and self.params is admitted:
            ctx = self.mw_ctx                # the innermost: the work left, at once
            if ctx is None and self.context:
                ctx = self.ctx
            try:
                r, self.mw_large = work(self, ctx)
            except ToolError as e:
                if self.kind != "tool":
                    raise
                return _error_result(str(e))
            return _as_value(r)
        self.mw_at = at + 1
        try:
            if at < len(chain):
                fn, is_async = chain[at]
                if is_async:
                    return _run_coroutine(fn(self, self._anext), self.mw_ctx)
                return fn(self, self.next)
            return _served_alone(self)
        except ToolError as e:              # what a tool's refusal is: a result
            if self.kind != "tool":
                raise
            return _error_result(str(e))
        finally:
            self.mw_at = at

    async def _anext(self):
        # An async middleware awaits next(); the rest of the chain runs meanwhile on a
        # thread of its own (it may run an async handler, on an event loop of its own).
        import asyncio
        at = self.mw_at
        return await asyncio.get_running_loop().run_in_executor(None, self._next_from, at)

    def _next_from(self, at):
        self.mw_at = at
        return self.next()


class _Route:
    """How a method is served: its handler, the revision feature and the capability it needs."""

    __slots__ = ("handler", "feature", "capability")

    def __init__(self, handler, feature=None, capability=None):
        self.handler, self.feature, self.capability = handler, feature, capability


class _Notice:
    """A method's answer that is a notification now, its response coming later."""

    __slots__ = ("method", "params")

    def __init__(self, method, params):
        self.method, self.params = method, params


class _Batch:
    """Collects the responses of one 2025-03-26 batch and emits them as one array.

    The array obeys the response limit like any line: responses go in, in the
    order they are ready, while they fit; one that would not becomes a -32603
    error for its id. Room for such an error is kept for every member until
    its response arrives, so the error itself always fits. Its methods are
    called with the connection's lock held.
    """

    __slots__ = ("emit", "parts", "waiting", "size", "limit", "reserved", "null_id")

    def __init__(self, emit, members, limit, null_id):
        self.emit, self.limit, self.null_id = emit, limit, null_id
        self.parts = []
        self.waiting = 1     # held until every element was admitted
        self.size = 1        # "[", then each part with its "," or the closing "]"
        self.reserved = sum(self.room(m.get("id") if type(m) is dict else None)
                            for m in members)

    def room(self, rid):
        """The most a member's response may need if it must become the error."""
        if not _valid_id(rid):
            return 256       # an error without id: a fixed message of ours
        return len(self.too_large(rid, 10 ** 15))

    def too_large(self, rid, size):
        return _error_line(rid, INTERNAL_ERROR, "Internal error: the response does not fit in "
                           "the batch's answer", {"size": size, "limit": self.limit},
                           self.null_id)[:-1]

    def add(self, line, rid=None, done=True):
        if line is not None:
            part = line[:-1]
            self.reserved -= self.room(rid)
            grown = self.size + len(part) + 1
            if grown + self.reserved > self.limit and _valid_id(rid):
                part = self.too_large(rid, grown)
            self.size += len(part) + 1
            self.parts.append(part)
        if done:
            self.waiting -= 1
        if self.waiting == 0 and self.parts is not None:
            parts, self.parts = self.parts, None
            if parts:
                self.emit(b"[" + b",".join(parts) + b"]\n")


class _NoLock:
    """The lock of a connection used from one thread only."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# -- what differs between the eras ---------------------------------------------

def _legacy_changes(conn, methods, uris):
    """Change notifications of a legacy connection: after initialized, of the kinds it has
    listed, to subscribers."""
    if not conn.initialized:
        return []
    listed = conn.changes.listed
    return [_notification_line(m, None) for m in methods if m in listed] + [
        _notification_line("notifications/resources/updated", {"uri": u})
        for u in uris if u in conn.subscribed]


# The subscriptions/listen flag that asks for each list_changed notification.
_FILTER_OF = {k.changed: k.flag for k in _CORE_KINDS}


def _modern_changes(conn, methods, uris):
    """Change notifications of a modern connection: on the listen streams that asked."""
    lines = []
    for rid, honoured, _ in conn.listens.values():
        meta = {"_meta": {SUB_KEY: rid}}
        lines += [_notification_line(m, meta) for m in methods if honoured.get(_FILTER_OF[m])]
        lines += [_notification_line("notifications/resources/updated",
                                     {"uri": u, "_meta": {SUB_KEY: rid}})
                  for u in uris if u in honoured.get("resourceSubscriptions", ())]
    return lines


def _refuse_by_error(call, missing):
    raise ProtocolError(MISSING_CLIENT_CAPABILITY, "Missing required client capability",
                        {"requiredCapabilities": missing})


def _refuse_by_tool_error(call, missing):
    raise ToolError(_undeclared(call.kind, missing))


def _undeclared(kind, missing):
    """The words of a legacy refusal for missing (ClientCapabilities) of a request of kind."""
    names = _capability_names(missing)
    return "This %s needs the client's %s %s, which the client did not declare." % (
        kind or "request", names, "capabilities" if " and " in names else "capability")


class _EraRow:
    """What differs between the eras once a connection is locked: one row of _ERA_RULES each."""

    __slots__ = ("not_found", "input_rounds", "request_log_level", "ask", "refuse", "changes")

    def __init__(self, *, not_found, input_rounds, request_log_level, ask, refuse, changes):
        self.not_found, self.input_rounds = not_found, input_rounds
        self.request_log_level, self.ask, self.refuse = request_log_level, ask, refuse
        self.changes = changes


# not_found: the code of "Resource not found"; input_rounds: the server asks by an
# InputRequiredResult and a signed requestState (else by requests of its own);
# request_log_level: each request's _meta sets the log level (else logging/setLevel);
# ask(ctx, call, questions): how a handler's questions travel; refuse(call, missing):
# a client lacking capabilities; changes(conn, methods, uris): change notifications.
_ERA_RULES = {
    LEGACY: _EraRow(not_found=RESOURCE_NOT_FOUND_LEGACY, input_rounds=False,
                      request_log_level=False,
                      ask=lambda ctx, call, questions: _ask_by_rounds(call.conn, call, questions,
                                                                      by_requests=True)
                      if call.keeper is not None else ctx._ask_by_requests(call, questions),
                      refuse=_refuse_by_tool_error, changes=_legacy_changes),
    MODERN: _EraRow(not_found=INVALID_PARAMS, input_rounds=True, request_log_level=True,
                      ask=lambda ctx, call, questions: _ask_by_rounds(call.conn, call,
                                                                      questions),
                      refuse=_refuse_by_error, changes=_modern_changes),
}


# -- methods ---------------------------------------------------------------------

def _admit_round_trip(conn, call, name, args):
    """Note what a modern request targets; verify a requestState and collect answers.

    Raises -32602 for malformed inputResponses or a state that fails
    verification (tampered, expired, or made for another request).
    """
    if not _ERA_RULES[call.era].input_rounds:
        call.binding = None
        return
    call.binding = (call.method, name, args)      # digested only when a state is involved
    responses, state = call.params.get("inputResponses"), call.params.get("requestState")
    if responses is None and state is None:
        return
    if (state is not None and type(state) is not str) or (
            responses is not None and type(responses) is not dict):
        raise ProtocolError(INVALID_PARAMS, "Invalid params: requestState must be the string "
                            "it was given, and inputResponses an object")
    # Answers without a state are taken as they come: they are the client's
    # word either way, and the handler checks each against its question.
    answers = {} if state is None else conn._signer.verify(_binding_digest(call.binding),
                                                           state)
    answers.update(responses or {})
    call.answers = answers


def _discover(conn, call):
    s = conn.server
    result = {"supportedVersions": list(MODERN_VERSIONS),
              "capabilities": s._capabilities(call.revision)}
    instructions = s.composed_instructions()
    if instructions is not None:
        result["instructions"] = instructions
    result["ttlMs"] = s.ttl_ms
    result["cacheScope"] = "public"
    return result


def _ping(conn, call):
    return {}


def _set_level(conn, call):
    level = call.params.get("level") if call.params else None
    if type(level) is not str or level not in _LEVEL_RANK:
        raise ProtocolError(INVALID_PARAMS, "Invalid params: level must be one of %s"
                            % ", ".join(_LEVELS))
    conn.log_level = level
    return {}


def _list(conn, call, kind):
    """One page of a kind's list (kind: a row of _KINDS).

    Skills are described from their files (digests, a live folder's rescan): that
    reading is a Call's work, run where handlers run, never inside feed().
    """
    if kind.extension is not None:
        return _with_files(conn, call, kind.list_method, lambda: _page(conn, call, kind))
    return _page(conn, call, kind)


def _with_files(conn, call, name, serve):
    """A Call whose work is serve(): what needs the file system runs off the reading thread,
    after each extension's refresh (a live folder notices a change)."""
    def work(call, ctx):
        for refresh in _REFRESH_HOOKS:
            refresh(conn.server)
        return serve(), False
    return call.start("request", name, work, conn.server.timeout, False)


def _page(conn, call, kind):
    s = conn.server
    conn.changes.listing(kind)
    catalog = s.catalog           # one catalog for the whole page, even if it changes now
    cursor = call.params.get("cursor") if call.params else None
    start = 0 if cursor is None else catalog.offset(kind.attr, cursor)
    if kind.extension is not None:          # entries are large: a page also fits the limit
        items = [x for x in catalog.described(kind.attr, call.revision, _audience(s, call))
                 if x is not None]
        end = _page_end(items, start, start + s.page_size, s.max_response // 2)
        page, end = items[start:end], end if end < len(items) else None
    else:
        page, end = catalog.page(kind.attr, call.revision, _audience(s, call), start,
                                 s.page_size, s._kept_listings)
    result = {kind.field: page}
    if end is not None:
        result["nextCursor"] = catalog.cursor(kind.attr, end)
    if _has(call.revision, "cache_hints"):
        result["ttlMs"] = s.ttl_ms
        result["cacheScope"] = "public"
    if tuple in map(type, page) or str in map(type, page):     # listings as JSON text
        return _page_text(result, kind.field)
    return result


def _page_text(result, field):
    """The JSON text of a list's result whose listings (the items of result[field]) may be
    JSON text already: a str, or the tuple of str that joined make it."""
    items = ",".join([x if type(x) is str else "".join(x if type(x) is tuple else _chunks(x))
                      for x in result[field]])
    rest = "".join(_chunks({k: v for k, v in result.items() if k != field}))
    return "".join(('{"%s":[' % field, items, "]," + rest[1:] if len(rest) > 2 else "]}"))


def _audience(server, call):
    """The extensions a request's client takes up that shape its listings (MCP Apps)."""
    if not _TAKE_HOOKS:
        return _NOBODY
    keys = [key for key, takes in _TAKE_HOOKS if takes(server, call)]
    return frozenset(keys) if keys else _NOBODY


_NOBODY = frozenset()      # the audience of a client that takes up no such extension


def _page_end(items, start, end, budget):
    """Where a page from start ends so that its entries' JSON stays within budget bytes.

    A page holds at least one entry, and never splits one.
    """
    size, k = 0, start
    while k < min(end, len(items)):
        size += len(encode_message(items[k]))
        if size > budget and k > start:
            break
        k += 1
    return k


def _named(call, table, noun, conn=None):
    """Return (name, entry, arguments) of a tools/call or prompts/get, or raise -32602.

    An entry that is not granted is reported exactly like one that does not exist,
    and so is a tool this client could not run (conn given: the extensions decide).
    """
    params = call.params
    name = params.get("name") if params else None
    if type(name) is not str:
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: %s needs a string "name"'
                            % call.method)
    entry = table.get(name)
    if entry is not None and conn is not None:
        for hides in conn.server._hiding:
            if hides(conn, call, entry):
                entry = None
                break
    if entry is None:
        raise _Unknown(INVALID_PARAMS, "Unknown %s: %s" % (noun, _short(name, 80)))
    args = params.get("arguments")
    if args is None:                 # null counts as absent (Go marshals a nil map so)
        args = {}
    elif type(args) is not dict:
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: "arguments" must be an object')
    return name, entry, args


def _call_tool(conn, call):
    s = conn.server
    name, tool, args = _named(call, s.catalog.tools, "tool", conn)
    if tool.forwards is not None:      # a tool that calls another by name
        return _forwarded(conn, call, tool, args)
    if tool.nullable:
        args = {k: v for k, v in args.items() if v is not None or k not in tool.nullable}
    if _ERA_RULES[call.era].input_rounds:
        _admit_round_trip(conn, call, name, args)
    take = None
    for admit in _ADMIT_HOOKS:         # an extension may take the call over (a task)
        take = admit(conn, call, tool) or take
    timeout = tool.timeout if tool.timeout is not None else s.timeout
    problems = tool.input_validator.errors(args)
    if problems:
        refusal = _error_result("Invalid arguments for tool %r:\n%s" % (
            name, "\n".join("- " + p for p in problems)))
        if take is None:
            return refusal
        # A call taken over gets what takes it (a task), which ends with the refusal (a
        # client that asked for a task cannot read a plain result).
        call.start("tool", name, lambda call, ctx: (refusal, False), timeout, False)
    else:
        call.start("tool", name, tool.work, timeout, tool.uses_context)
    call.target, call.arguments = tool, args
    return call if take is None else take(conn, call)


def _forwarded(conn, call, tool, args):
    """A call of a tool that calls another by name (tool.forwards), admitted as a call of
    that one: its answer is the other's, but a name no tool of this client's has is an
    isError result (the forwarding tool's own call succeeded)."""
    problems = tool.input_validator.errors(args)
    if problems:
        return _error_result("Invalid arguments for tool %r:\n%s" % (
            tool.name, "\n".join("- " + p for p in problems)))
    try:
        name, arguments = tool.forwards(args)     # _Unknown for a name it does not call
        call.params = dict(call.params, name=name, arguments=arguments)
        target = conn.server.catalog.tools.get(name)
        if target is not None and target.forwards is not None:
            raise _Unknown(INVALID_PARAMS, "Unknown tool: %s" % _short(name, 80))
        return _call_tool(conn, call)
    except _Unknown as e:
        if any(source.pending() is not None for source in conn.server.sources):
            raise                       # it may still come: the request waits for it
        return _error_result(e.message)


def _read_resource(conn, call):
    s = conn.server
    uri = call.params.get("uri") if call.params else None
    if type(uri) is not str:
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: resources/read needs a string '
                            '"uri"')
    _admit_round_trip(conn, call, uri, {})
    resource, variables = s.catalog.find_resource(uri, files=False)
    if resource is None and variables is None:
        raise ResourceNotFound(uri)

    def work(call, ctx):
        found, found_variables = (resource, variables) if resource is not None else \
            s.catalog.find_resource(uri)        # an extension entry's file: looked up here
        if found is None:
            raise ResourceNotFound(uri)
        result = _read(found, uri, found_variables, ctx, call.revision)
        return result, any(len(c.get("text") or c.get("blob") or "") > _LARGE_STRING
                           for c in result["contents"])
    return call.start("resource", uri, work, s.timeout)


def _read_for(conn, call, uri, ctx):
    """What resources/read of uri returns, read for a running call's handler."""
    resource, variables = conn.server.catalog.find_resource(uri)
    if resource is None:
        raise ResourceNotFound(uri)
    return _read(resource, uri, variables, ctx, call.revision)


def _subscribe(conn, call):
    uri = _subscription_uri(conn, call)
    with conn._lock:
        conn.subscribed.add(uri)
    return {}


def _unsubscribe(conn, call):
    uri = _subscription_uri(conn, call)
    with conn._lock:
        conn.subscribed.discard(uri)
    return {}


def _subscription_uri(conn, call):
    if not conn.server.live:    # nothing changes: no update would ever be sent
        raise ProtocolError(METHOD_NOT_FOUND, "Method not found")
    uri = call.params.get("uri") if call.params else None
    if type(uri) is not str:
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: needs a string "uri"')
    if not conn.server.catalog.knows_uri(uri):
        raise ResourceNotFound(uri)
    return uri


def _get_prompt(conn, call):
    s = conn.server
    name, prompt, args = _named(call, s.catalog.prompts, "prompt")
    if any(type(v) is not str for v in args.values()):
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: "arguments" must be an object '
                            'of strings')
    _admit_round_trip(conn, call, name, args)
    missing = [a["name"] for a in prompt.arguments if a.get("required") and
               a["name"] not in args]
    if missing:
        raise ProtocolError(INVALID_PARAMS, "Invalid params: missing required argument(s) "
                            "for prompt %r: %s" % (name, ", ".join(missing)))
    revision = call.revision

    def work(call, ctx):
        return _prompt_result(prompt, prompt.handler(args, ctx), revision), False
    return call.start("prompt", name, work, s.timeout)


# The specification caps completion/complete at 100 values per answer.
_MAX_COMPLETIONS = 100


def _complete(conn, call):
    s = conn.server
    params = call.params or {}
    ref, argument = params.get("ref"), params.get("argument")
    if type(ref) is not dict or type(argument) is not dict or \
            type(argument.get("name")) is not str or type(argument.get("value")) is not str:
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: completion/complete needs '
                            '"ref" and "argument" {name, value}')
    context = params.get("context")
    known = context.get("arguments") if type(context) is dict else None
    known = known if type(known) is dict else {}
    catalog = s.catalog
    if ref.get("type") == "ref/prompt":
        name = ref.get("name")
        target = catalog.prompts.get(name) if type(name) is str else None
        if target is None:
            raise _Unknown(INVALID_PARAMS, "Unknown prompt: %s" % _short(ref.get("name"), 80))
    elif ref.get("type") == "ref/resource":
        uri = ref.get("uri")
        target = (catalog.templates.get(uri) or catalog.resources.get(uri)) \
            if type(uri) is str else None
        if target is None:
            raise _Unknown(INVALID_PARAMS, "Unknown resource or template: %s"
                           % _short(uri, 80), {"uri": uri})
    else:
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: ref.type must be "ref/prompt" '
                            'or "ref/resource"')
    complete = getattr(target, "complete", None)
    if complete is None:
        return {"completion": {"values": [], "total": 0, "hasMore": False}}
    name, value = argument["name"], argument["value"]

    def work(call, ctx):           # author code: run like a tool, never on the reader alone
        values = [v for v in complete(name, value, known) if type(v) is str]
        return {"completion": {"values": values[:_MAX_COMPLETIONS], "total": len(values),
                               "hasMore": len(values) > _MAX_COMPLETIONS}}, False
    return call.start("completion", name, work, s.timeout)


def _listen(conn, call):
    filt = call.params.get("notifications")
    if type(filt) is not dict:
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: subscriptions/listen needs a '
                            '"notifications" object')
    subs = filt.get("resourceSubscriptions")
    if subs is not None and (type(subs) is not list or
                             any(type(u) is not str for u in subs)):
        raise ProtocolError(INVALID_PARAMS, "Invalid params: resourceSubscriptions must be "
                            "an array of URIs")
    # Only what will really be sent is acknowledged: what extensions honour, and
    # changes, on a live server.
    honoured = {}
    for listen in _LISTEN_HOOKS:
        listen(conn, call, filt, honoured)
    server = conn.server
    if server.live:
        for k in _KINDS:
            if filt.get(k.flag) is True and k.capability in server._offered:
                honoured[k.flag] = True
        if subs:
            honoured["resourceSubscriptions"] = [u for u in subs
                                                 if server.catalog.knows_uri(u)]
    with conn._lock:
        conn.listens[call.key] = (call.id, honoured, call.revision)
    return _Notice("notifications/subscriptions/acknowledged",
                   {"_meta": {SUB_KEY: call.id}, "notifications": honoured})


class _AndRun:
    """A method's answer, and a Call to run after it (a task's next round)."""

    __slots__ = ("result", "call")

    def __init__(self, result, call):
        self.result, self.call = result, call


class _Deferred:
    """A method answered later (tasks/result waiting for its task's end)."""

    __slots__ = ()


def _read(resource, uri, variables, ctx, revision):
    """Run a resource (or template) handler; return the ReadResourceResult for revision."""
    value = (resource.handler(uri, ctx) if variables is None
             else resource.handler(uri, variables, ctx))
    result = {"contents": _contents_of(value, uri, resource.mime_type, revision)}
    if _has(revision, "cache_hints"):
        result["ttlMs"] = resource.ttl_ms
        result["cacheScope"] = resource.cache_scope
    return result


# How each method is served: its handler(conn, call), the revision feature it
# exists from (None: every revision), and the capability the server must offer.
# A method missing here, absent from the request's revision, or whose capability
# is not offered, is -32601. The list methods come from the kinds table.
_ROUTES = {
    "server/discover": _Route(_discover, "discover"),
    "ping": _Route(_ping, "ping"),
    "logging/setLevel": _Route(_set_level, "log_level", "logging"),
    "tools/call": _Route(_call_tool, None, "tools"),
    "resources/read": _Route(_read_resource, None, "resources"),
    "resources/subscribe": _Route(_subscribe, "subscribe", "resources"),
    "resources/unsubscribe": _Route(_unsubscribe, "subscribe", "resources"),
    "prompts/get": _Route(_get_prompt, None, "prompts"),
    "completion/complete": _Route(_complete, None, "completions"),
    "subscriptions/listen": _Route(_listen, "listen"),
}


def _list_route(kind):
    """The route of a kind's list method."""
    return _Route(lambda conn, call: _list(conn, call, kind), None, kind.capability)


_ROUTES.update((k.list_method, _list_route(k)) for k in _CORE_KINDS)


_ANSWERED_LATER = "left"      # call.mw_large of a request answered later, by what it waits for


def _served_alone(call):
    """The request served as without middleware, on this thread: its result (a dict)."""
    conn = call.conn
    chain, work, admitted = call.mw
    if work is None or call.params is not admitted:     # admitted here, with these params
        if call.keeper is not None:
            raise ValueError("a middleware cannot change the params of a task's call")
        hook = call.on_cancel               # a middleware's ctx may wait on it
        r = _ROUTES[call.method].handler(conn, call)
        if call.on_cancel is None:
            call.on_cancel = hook
        if type(r) is _AndRun:              # a task: answered with it now; it runs here
            with conn._lock:
                conn.inflight.pop(call.key, None)
                conn.emit(conn._answer(call, r.result))
            r = r.call
        if type(r) is _Deferred or type(r) is _Notice:
            if type(r) is _Notice:
                with conn._lock:
                    conn.emit(_notification_line(r.method, r.params))
            call.mw_large = _ANSWERED_LATER
            return None
        if type(r) is not Call:
            return _as_value(r)
        work = r.work
    ctx = call.mw_ctx
    if ctx is None and call.context:
        ctx = call.ctx
    r, call.mw_large = work(call, ctx)
    return _as_value(r)


def _after_sources(server, timeout):
    """timeout (None: none) with what the server's sources may still take to list on top:
    a request's wait for them is not its own time (read while feeding: no clock)."""
    bounds = [b for b in (s.pending() for s in server.sources) if b is not None]
    return timeout if timeout is None or not bounds else timeout + max(bounds)


###############################################################################
# Middleware: code around every request #######################################
###############################################################################
#
# server.middleware(fn) wraps fn around requests: fn(request, next) sees the
# request's Call (method, params, kind, name, ctx), may change its params, calls next()
# for the result of the rest of the chain (the request served as without
# middleware), and returns a result, perhaps another; or it refuses by raising.
# The first registered is outermost. A request with middleware is a Call, run
# where handlers run (never on the reading thread), admission included: a tool
# call with middleware becomes a task only there, so its task waits for a free
# worker like its handler does.

_METHOD_KINDS = {"tools/call": "tool", "resources/read": "resource", "prompts/get": "prompt",
                 "completion/complete": "completion"}
_LIST_METHODS = frozenset(k.list_method for k in _KINDS)


class _Left(BaseException):
    """A request the chain saw that is answered later, by what it waits for."""


def _method_kind(method):
    kind = _METHOD_KINDS.get(method)
    if kind is None:
        kind = "list" if method in _LIST_METHODS else "request"
    return kind


# The handshake is the engine's own: its answers say what the server is.
_UNWRAPPED = ("initialize", "server/discover")
# The kinds whose requests are admitted as without middleware (on the reading thread:
# a task is created at once) before their middleware runs around the work.
_ADMITTED_FIRST = ("tool", "resource", "prompt")


def _chains(middleware):
    """{method: (admitted first, ((fn, is async), ...))} for every routed method some
    middleware wraps, outermost first."""
    chains = {}
    for method in _ROUTES:
        if method in _UNWRAPPED:
            continue
        kind = _method_kind(method)
        fns = tuple((fn, _is_coroutine_function(fn)) for fn, kinds in middleware
                    if kinds is None or kind in kinds)
        if fns:
            chains[method] = (kind in _ADMITTED_FIRST, fns)
    return chains


def _through(conn, call, chain, answer):
    """A request with middleware as a Call that runs its chain where handlers run.

    A tool call, a read or a prompt get is admitted as without middleware (an
    unknown tool is answered at once, a task created at once) and the engine
    wraps its work; this makes the Call of any other request, served inside the
    chain off the reading thread, and of an answer given at admission (answer:
    arguments refused), which the middleware still sees.
    """
    kind = _method_kind(call.method)
    if answer is None:
        timeout = conn.server.timeout
        if kind == "list" and conn.server.sources:    # a list waits for them first
            timeout = _after_sources(conn.server, timeout)
        call.start(kind, call.method, _chain_work, timeout, False)
        call.mw = (chain, None, call.params)
        return call
    call.start(kind, (call.params or {}).get("name") or call.method,
               lambda c, ctx: (answer, False), conn.server.timeout, False)
    call.mw = (chain, call.work, call.params)
    call.work = _chain_work
    return call


def _chain_work(call, ctx):
    """The work of a request with middleware: its outermost middleware, around the rest."""
    call.mw_ctx = ctx
    call.mw_large = False
    call.mw_at = 1
    fn, is_async = call.mw[0][0]
    try:
        result = fn(call, call.next) if not is_async else \
            _run_coroutine(fn(call, call._anext), ctx)
    except ToolError as e:              # what a tool's refusal is: a result
        if call.kind != "tool":
            raise
        result = _error_result(str(e))
    finally:
        # The context refers to its call: kept, the pair would wait for the cycle
        # collector (most of what an empty middleware cost each echo).
        call.mw_ctx = None
    large = call.mw_large
    if large is _ANSWERED_LATER:
        raise _Left()
    if type(result) is not dict:
        raise _ResultInvalid("a middleware must return the result (a dict), not %s"
                             % type(result).__name__)
    return result, large


def _serve_admitted(call, ctx):
    """Admit call again and serve it here, around no middleware: (result, large); raises
    _Left for one answered later (a work of its own that admits a request anew)."""
    call.mw, call.mw_ctx, call.mw_large = ((), None, None), ctx, False
    try:
        result = _served_alone(call)
    finally:
        call.mw_ctx = None            # it refers to its call: not left to the collector
    if call.mw_large is _ANSWERED_LATER:
        raise _Left()
    return result, call.mw_large


###############################################################################
# Protocol engine (sans-IO): the era machine and Connection ###################
###############################################################################
#
# A Connection turns inbound bytes into outbound lines and Calls; it reads no
# stream, writes none, starts no thread and never waits. What it needs from
# the world comes in as arguments: emit(line) for lines produced later, a
# lock, clock() and wall_clock() for deadlines and request states, random(n)
# for incident numbers and keys, report(line, detail) for diagnostics, and
# context(call) making the object a handler receives.
#
# Threading contract: feed() and close() are called by one reading thread at a
# time. run(), settle(), expire(), reject(), cancel(), notify(), progress(),
# log() and the elicitation methods may be called from any thread: they
# settle a call or emit under the given lock, and a call is answered at most
# once. Catalog reads use the server's tables as they are when a request is
# admitted.


def _cancelled(conn, method, params):
    """notifications/cancelled: the call it names is cancelled, or its listen stream ends."""
    rid = params.get("requestId") if type(params) is dict else None
    if _valid_id(rid):
        key = (type(rid) is str, rid)
        call = conn.inflight.get(key)
        if call is not None:
            conn.cancel(call)
        elif key in conn.listens:
            del conn.listens[key]


def _initialized(conn, method, params):
    if conn.revision is not None:        # after the handshake, as it must come
        conn.initialized = True
        _heard_by_server(conn, method, params)


def _heard_by_server(conn, method, params):
    """Any other notification is for what serves beside the engine (a mount hears that
    the client's roots changed)."""
    conn.server.heard(conn, method, params)


def _may_arrive(conn, call, error):
    """What a request refused at admission for naming no entry gets while the server's
    sources have still to list (a mount starting): a Call that waits for them and is then
    admitted again (a client that kept an earlier listing calls at once, and the entry may
    be theirs); else the refusal, error."""
    if type(error) is not _Unknown and type(error) is not ResourceNotFound or \
            all(s.pending() is None for s in conn.server.sources):
        return error
    return call.start(_method_kind(call.method), (call.params or {}).get("name") or
                      call.method, _admitted_again, _after_sources(conn.server,
                                                                   conn.server.timeout))


def _admitted_again(call, ctx):
    """The work of a request that waited for the server's sources: admitted again once
    they have listed, and served here as it would have been at once."""
    for source in call.conn.server.sources:
        source.wait()
    if call.settled:                  # cancelled, or timed out, meanwhile
        raise _Left()
    return _serve_admitted(call, ctx)


# How each client notification is heard: its handler(conn, method, params); one not
# listed goes to _heard_by_server. Notifications are never answered.
_NOTICES = {"notifications/cancelled": _cancelled, "notifications/initialized": _initialized,
            "initialized": _initialized}


# The era of a connection, as a state machine: (era, event) -> (action, era after).
# Events: "initialize" (the legacy handshake), "modern" (a request whose _meta
# names a protocol version), "discover" (server/discover with that _meta),
# "modern_initialize" (initialize with that _meta: a method the modern
# revisions removed), "ping", "plain_discover" and "plain" (requests without it).
# The era after applies only when the action admits the request: a refused
# message changes nothing. server/discover never locks, because real clients
# probe with it and then send initialize. Each action is a function
# (conn, rid, key, method, params, meta, after, out, batch) appending to out.
_PLAIN_EVENTS = {"initialize": "initialize", "ping": "ping", "server/discover": "plain_discover"}


def _serve_legacy(conn, rid, key, method, params, meta, after, out, batch):
    route = _ROUTES.get(method)
    if route is None or route.feature is not None and not _has(conn.revision, route.feature):
        out.append(conn._error(rid, METHOD_NOT_FOUND, "Method not found"))
        return
    conn._dispatch(route, Call(conn, rid, key, method, params, LEGACY, conn.revision,
                               conn.client_capabilities, conn.client_info, meta, None, batch),
                   out)


def _serve_modern(conn, rid, key, method, params, meta, after, out, batch, removed=False):
    """Admit a request by its modern _meta; removed: the method is one modern revisions lack."""
    version = meta[PV_KEY]
    if type(version) is not str:
        out.append(conn._error(rid, INVALID_PARAMS, "Invalid params: _meta %s must be "
                               "a string" % PV_KEY))
        return
    if version not in MODERN_VERSIONS:
        out.append(conn._error(rid, UNSUPPORTED_VERSION, "Unsupported protocol version",
                               {"supported": list(MODERN_VERSIONS), "requested": version}))
        return
    caps = meta.get(CAPS_KEY)
    if type(caps) is not dict:
        out.append(conn._error(rid, INVALID_PARAMS, "Invalid params: missing required "
                               "_meta key %s (an object)" % CAPS_KEY))
        return
    level = meta.get(LEVEL_KEY)
    if level is not None and (type(level) is not str or level not in _LEVEL_RANK):
        out.append(conn._error(rid, INVALID_PARAMS, "Invalid params: _meta %s must be "
                               "one of %s" % (LEVEL_KEY, ", ".join(_LEVELS))))
        return
    conn.era = after
    route = None if removed else _ROUTES.get(method)
    if route is None or route.feature is not None and not _has(version, route.feature):
        out.append(conn._error(rid, METHOD_NOT_FOUND, "Method not found"))
        return
    info = meta.get(INFO_KEY)
    conn._dispatch(route, Call(conn, rid, key, method, params, MODERN, version, caps,
                               info if type(info) is dict else None, meta, level, None), out)


def _removed_method(conn, rid, key, method, params, meta, after, out, batch):
    _serve_modern(conn, rid, key, method, params, meta, after, out, batch, removed=True)


def _handshake(conn, rid, key, method, params, meta, after, out, batch):
    """initialize: lock the connection to the legacy era at the negotiated revision."""
    params = params or {}
    caps, info = params.get("capabilities"), params.get("clientInfo")
    if type(caps) is not dict or type(info) is not dict:
        out.append(conn._error(rid, INVALID_PARAMS, 'Invalid params: initialize needs '
                               '"capabilities" and "clientInfo" objects'))
        return
    requested = params.get("protocolVersion")
    # The requested legacy version is echoed; anything else gets the latest
    # legacy one, since a client that sends initialize speaks the handshake.
    rev = requested if requested in LEGACY_VERSIONS else LATEST_LEGACY
    conn.era, conn.revision = after, rev
    conn.client_capabilities, conn.client_info = caps, info
    s = conn.server
    result = {"protocolVersion": rev, "capabilities": s._capabilities(rev),
              "serverInfo": s._implementation(rev)}
    instructions = s.composed_instructions()
    if instructions is not None:
        result["instructions"] = instructions
    out.append(conn._result(rid, result))


def _pong(conn, rid, key, method, params, meta, after, out, batch):
    out.append(conn._result(rid, {}))


def _needs_handshake(conn, rid, key, method, params, meta, after, out, batch):
    out.append(conn._error(rid, INVALID_PARAMS, "Invalid params: missing required _meta; "
                           "send initialize first, or per-request _meta with %s" % PV_KEY))


def _missing_meta(conn, rid, key, method, params, meta, after, out, batch):
    out.append(conn._error(rid, INVALID_PARAMS, "Invalid params: missing required _meta key "
                           "%s" % PV_KEY))


def _already_initialized(conn, rid, key, method, params, meta, after, out, batch):
    out.append(conn._error(rid, INVALID_REQUEST, "Invalid Request: already initialized "
                           "(protocol %s)" % conn.revision,
                           {"reason": "already-initialized", "era": LEGACY,
                            "negotiatedVersion": conn.revision}))


def _modern_refuses_initialize(conn, rid, key, method, params, meta, after, out, batch):
    versions = ", ".join(MODERN_VERSIONS)
    out.append(conn._error(rid, INVALID_REQUEST, "Invalid Request: this connection uses "
                           "protocol %s with per-request _meta; initialize is not available "
                           "(supported: %s)" % (versions, versions),
                           {"reason": "era-mismatch", "era": MODERN,
                            "supported": list(MODERN_VERSIONS)}))


def _mismatch(conn, rid, what):
    return conn._error(rid, INVALID_REQUEST, "Invalid Request: this connection was initialized "
                       "with protocol %s; %s" % (conn.revision, what),
                       {"reason": "era-mismatch", "era": LEGACY,
                        "negotiatedVersion": conn.revision})


def _legacy_refuses_meta(conn, rid, key, method, params, meta, after, out, batch):
    out.append(_mismatch(conn, rid, "per-request _meta (protocol %s) cannot be mixed in"
                         % ", ".join(MODERN_VERSIONS)))


def _legacy_refuses_discover(conn, rid, key, method, params, meta, after, out, batch):
    out.append(_mismatch(conn, rid, "server/discover belongs to protocol %s"
                         % ", ".join(MODERN_VERSIONS)))


_ERA_MACHINE = {
    (UNLOCKED, "initialize"): (_handshake, LEGACY),
    (UNLOCKED, "modern"): (_serve_modern, MODERN),
    (UNLOCKED, "discover"): (_serve_modern, UNLOCKED),
    (UNLOCKED, "modern_initialize"): (_removed_method, UNLOCKED),
    (UNLOCKED, "ping"): (_pong, UNLOCKED),
    (UNLOCKED, "plain_discover"): (_needs_handshake, UNLOCKED),
    (UNLOCKED, "plain"): (_needs_handshake, UNLOCKED),
    (LEGACY, "initialize"): (_already_initialized, LEGACY),
    (LEGACY, "modern"): (_legacy_refuses_meta, LEGACY),
    (LEGACY, "discover"): (_legacy_refuses_meta, LEGACY),
    (LEGACY, "modern_initialize"): (_already_initialized, LEGACY),
    (LEGACY, "ping"): (_serve_legacy, LEGACY),
    (LEGACY, "plain_discover"): (_legacy_refuses_discover, LEGACY),
    (LEGACY, "plain"): (_serve_legacy, LEGACY),
    (MODERN, "initialize"): (_modern_refuses_initialize, MODERN),
    (MODERN, "modern"): (_serve_modern, MODERN),
    (MODERN, "discover"): (_serve_modern, MODERN),
    (MODERN, "modern_initialize"): (_removed_method, MODERN),
    (MODERN, "ping"): (_missing_meta, MODERN),
    (MODERN, "plain_discover"): (_missing_meta, MODERN),
    (MODERN, "plain"): (_missing_meta, MODERN),
}


class Connection:
    """The protocol state machine of one stdio connection (sans-IO).

    feed(data) takes raw bytes and returns a list whose items are bytes (lines
    to write now, in order) or Call objects (to run, on any thread). Lines
    produced later (answers of calls, progress, logs, requests to the client)
    go to emit(line), which defaults to appending to self.outbox. Make one with
    Server.connection(), which supplies the clock, randomness and reporting.
    """

    def __init__(self, server, emit=None, *, clock, wall_clock, random, report, context,
                 lock=None, schedule=None, state=None):
        self.server = server
        self.outbox = []
        self.emit = emit if emit is not None else self.outbox.append
        self._lock = lock if lock is not None else _NoLock()
        self._clock, self._random = clock, random
        self._report, self._context = report, context
        self.changes = _Changes(self, schedule)     # change notifications, coalesced
        self.subscribed = set()     # URIs of a legacy client's resources/subscribe
        self.era = UNLOCKED
        self.revision = None
        self.initialized = False
        self.client_capabilities = None
        self.client_info = None
        self.state = state          # what this serve's lifespan setup made (ctx.state)
        self.log_level = None
        self.inflight = {}
        self.listens = {}
        self.outgoing = _Outgoing(self)     # requests sent to the client, awaiting answers
        self._signer = _StateSigner(server.state_key, random, wall_clock, self._lock)
        self.splitter = LineSplitter(server.max_line)
        self._method_chars = server.max_method // 4    # a name this short always fits
        self._max_params, self._max_response = server.max_params, server.max_response
        self._null_id = server.null_error_id
        self._stamps = {rev: _stamp(server, rev) for rev in MODERN_VERSIONS}
        self._chains = server._chains       # {method: its chain}, empty without any
        for connect in _CONNECT_HOOKS:
            connect(self, wall_clock)

    @property
    def rules(self):
        """What differs in the connection's era (its row of _ERA_RULES); None until locked."""
        return _ERA_RULES.get(self.era)

    # -- input ----------------------------------------------------------------
    def feed(self, data: Any) -> Any:
        """Accept raw bytes from the client; return lines to write and Calls to run."""
        out = []
        for line in self.splitter.feed(data):
            if line is None:
                out.append(self._error(None, INVALID_REQUEST, "Invalid Request: message "
                                       "line exceeds the limit of %d bytes"
                                       % self.server.max_line))
            else:
                self.receive_line(line, out)
        return out

    def receive_line(self, line: Any, out: Any = None) -> Any:
        """Handle one complete line (bytes, no LF); return the out list."""
        if out is None:
            out = []
        try:
            msg = decode_message(line, self.server.max_depth)
        except ProtocolError as e:          # not JSON, or JSON we refuse (see decode_message)
            out.append(self._error(e.request_id, e.code, e.message))
            return out
        mark = len(out)
        try:
            if type(msg) is list:
                self._receive_batch(msg, out, len(line))
            else:
                self._receive(msg, out, len(line), None)
        except BaseException as e:   # noqa: B902 - a bug here must not stop the connection
            for item in out[mark:]:
                if type(item) is Call:
                    self.inflight.pop(item.key, None)
            del out[mark:]
            rid = msg.get("id") if type(msg) is dict and "method" in msg else None
            out.append(self._incident_error(rid if _valid_id(rid) else None, "the engine", e))
        return out

    def _receive_batch(self, msgs, out, size):
        if self.revision is None or not _has(self.revision, "batches"):   # legacy ones only
            out.append(self._error(None, INVALID_REQUEST, "Invalid Request: batches are "
                                   "only accepted on a 2025-03-26 connection"))
            return
        if not msgs:
            out.append(self._error(None, INVALID_REQUEST, "Invalid Request: empty batch"))
            return
        if len(msgs) > _MAX_BATCH:
            out.append(self._error(None, INVALID_REQUEST, "Invalid Request: a batch of %d "
                                   "messages exceeds the limit of %d" % (len(msgs), _MAX_BATCH)))
            return
        batch = _Batch(self.emit, msgs, self._max_response, self._null_id)
        if batch.reserved + batch.size > self._max_response:
            out.append(self._error(None, INVALID_REQUEST, "Invalid Request: the answers to "
                                   "this batch could not fit in a response of %d bytes"
                                   % self._max_response))
            return
        for m in msgs:
            sub = []
            # Only a well-formed initialize request is refused for being batched; any
            # other member (an id-less one, a bad envelope) is judged as it is alone.
            if type(m) is dict and m.get("method") == "initialize" and \
                    m.get("jsonrpc") == "2.0" and _valid_id(m.get("id")):
                sub.append(self._error(m["id"], INVALID_REQUEST,
                                       "Invalid Request: initialize must not be batched"))
            else:
                self._receive(m, sub, size, batch)
            for item in sub:
                if type(item) is bytes:
                    with self._lock:      # the id the line carries, if any
                        batch.add(item, json.loads(item).get("id"), done=False)
                else:
                    with self._lock:
                        batch.waiting += 1
                    out.append(item)
        with self._lock:
            batch.add(None)

    def _receive(self, msg, out, size, batch):
        if type(msg) is not dict:
            out.append(self._error(None, INVALID_REQUEST,
                                   "Invalid Request: a message must be a JSON object"))
            return
        rid = msg.get("id")
        t = type(rid)
        id_ok = t is str or (t is int and -_MAX_ID <= rid <= _MAX_ID)     # _valid_id, inlined
        method = msg.get("method")
        if not id_ok or type(method) is not str or msg.get("jsonrpc") != "2.0":
            self._receive_other(msg, rid, id_ok, method, out)
            return
        # A request with a valid envelope.
        if len(method) > self._method_chars and self._refuse_long_method(rid, method, out):
            return
        params = msg.get("params")
        if params is not None and type(params) is not dict:
            out.append(self._error(rid, INVALID_PARAMS,
                                   'Invalid params: "params" must be an object'))
            return
        if size > self._max_params and params:
            n = len(encode_message(params)) - 1
            if n > self._max_params:
                out.append(self._error(rid, INVALID_PARAMS, "Invalid params: params of %d "
                                       "bytes exceed the limit of %d" % (n, self._max_params)))
                return
        key = (t is str, rid)
        if key in self.inflight:
            out.append(self._error(rid, INVALID_REQUEST, "Invalid Request: id is already "
                                   "in use by a request in flight"))
            return
        # The era machine's event, then its action (inline: no call of its own per message).
        meta = params.get("_meta") if params else None
        if type(meta) is not dict:
            meta = None
        if meta is not None and PV_KEY in meta:
            event = "discover" if method == "server/discover" else \
                "modern_initialize" if method == "initialize" else "modern"
        else:
            event = _PLAIN_EVENTS.get(method, "plain")
        action, after = _ERA_MACHINE[self.era, event]
        action(self, rid, key, method, params, meta, after, out, batch)

    def _receive_other(self, msg, rid, id_ok, method, out):
        """Everything but a well-formed request: notifications, responses, bad envelopes."""
        if "method" not in msg and ("result" in msg or "error" in msg):
            # Shaped like a response: its id is in the server's own id space, so an
            # error carrying it would read as the answer to a request of the client's.
            if id_ok and msg.get("jsonrpc") == "2.0" and \
                    ("result" in msg) != ("error" in msg) and len(msg) == 3:
                self._receive_response(msg, out)
            else:
                out.append(self._error(None, INVALID_REQUEST,
                                       "Invalid Request: malformed response message"))
            return
        has_id = id_ok or "id" in msg
        reply_id = rid if id_ok else None
        if msg.get("jsonrpc") != "2.0":
            out.append(self._error(reply_id, INVALID_REQUEST,
                                   'Invalid Request: "jsonrpc" must be "2.0"'))
            return
        if "method" not in msg:
            out.append(self._error(reply_id, INVALID_REQUEST,
                                   'Invalid Request: a request needs a "method"'))
            return
        if type(method) is not str:
            out.append(self._error(reply_id, INVALID_REQUEST,
                                   'Invalid Request: "method" must be a string'))
            return
        if has_id:
            out.append(self._error(None, INVALID_REQUEST, 'Invalid Request: "id" must be '
                                   'a string or an integer within +/-(2^53-1)'))
            return
        if len(method) > self._method_chars and self._refuse_long_method(None, method, out):
            return
        self._receive_notification(method, msg.get("params"))

    def _refuse_long_method(self, rid, method, out):
        """Answer a method name longer than the limit in UTF-8 bytes; return True if it was."""
        if len(method.encode("utf-8", "surrogatepass")) <= self.server.max_method:
            return False
        out.append(self._error(rid, INVALID_REQUEST, "Invalid Request: method name "
                               "exceeds %d bytes" % self.server.max_method))
        return True

    # -- the era state machine ------------------------------------------------
    def _dispatch(self, route, call, out):
        capability = route.capability
        if capability is not None and capability not in self.server._offered:
            out.append(self._error(call.id, METHOD_NOT_FOUND, "Method not found"))
            return
        chain = self._chains.get(call.method) if self._chains else None
        if chain is not None and not chain[0]:    # served inside its chain
            r = _through(self, call, chain[1], None)
        else:
            try:
                r = route.handler(self, call)
            except BaseException as e:   # noqa: B902 - ProtocolError, or a bug: never the end
                r = e if not self.server.sources else _may_arrive(self, call, e)
            if chain is not None:                 # its chain wraps the work admitted
                c = r.call if type(r) is _AndRun else r
                if type(c) is Call:
                    c.mw, c.work = (chain[1], c.work, c.params), _chain_work
                elif not isinstance(r, BaseException):  # a refusal is answered as without
                    r = _through(self, call, chain[1], r)
        if type(r) is Call:
            self.inflight[call.key] = r
            out.append(r)
        elif type(r) is _AndRun:             # an answer, then a Call to run after it
            out.append(self._answer(call, r.result))
            out.append(r.call)
        elif type(r) is _Deferred:           # answered later, by what it waits for
            with self._lock:                 # unless that came between: then it is answered
                if not call.settled:
                    self.inflight[call.key] = call
        elif type(r) is _Notice:
            out.append(_notification_line(r.method, r.params))
        else:
            out.append(self._answer(call, r))

    # -- notifications and responses ------------------------------------------
    def _receive_notification(self, method, params):
        """Hear a notification (never answered), by its row of _NOTICES."""
        _NOTICES.get(method, _heard_by_server)(self, method, params)

    def _receive_response(self, msg, out=None):
        if not self.outgoing.receive(msg, out):
            self._report("ignored a response message with no matching server request", None)

    def close(self) -> Any:
        """End the connection: release waiting questions, tell the close hooks; return
        lines that close open subscription streams."""
        self.outgoing.close()
        for close in _CLOSE_HOOKS:
            close(self)
        self.server._closed(self)
        out = []
        for rid, _, revision in list(self.listens.values()):    # answered: nothing after it
            out.append(self._result(rid, {"_meta": {SUB_KEY: rid}}, revision))
        self.listens.clear()
        return out

    # -- calls: running and settling ------------------------------------------
    def run(self, call: Any, ctx: Any = None) -> Any:
        """Run call's handler with ctx (a new Context when None) and send its answer."""
        if call.settled:
            return
        large = False
        try:
            if ctx is None and call.context:
                ctx = self._context(call)
            outcome, large = call.work(call, ctx)
        except BaseException as e:   # noqa: B902 - a handler must never take the server down
            if type(e) is _Left:         # its chain saw it; what it waits for answers it
                return
            outcome = e
        finally:
            call.work = call.arguments = None   # freed even if the handler keeps its ctx
        if call.settled:
            return
        if call.answers is not None and call.kind == "resource" and type(outcome) is dict:
            outcome["ttlMs"], outcome["cacheScope"] = 0, "private"   # a retry: never cache
        self._settle(call, self._answer(call, outcome, large) if call.keeper is None else
                     self._kept(call, outcome, large))

    def settle(self, call: Any, outcome: Any) -> Any:
        """Answer call with outcome (a result dict or an exception) unless already settled."""
        if not call.settled:
            self._settle(call, self._answer(call, outcome) if call.keeper is None else
                         self._kept(call, outcome))

    # Each settles first and then tells the handler: a handler woken by its
    # cancellation must find its call already answered.
    def cancel(self, call: Any) -> Any:
        """Settle call without an answer (the client cancelled it); tell the handler."""
        self._settle(call, None)
        self._mark_cancelled(call)

    def expire(self, call: Any) -> Any:
        """Settle call with its timeout answer; tell the handler."""
        self.settle(call, _TimedOut(call.timeout))
        self._mark_cancelled(call)

    def reject(self, call: Any, message: str) -> Any:
        """Settle call at once with message (for example: the server is busy)."""
        self.settle(call, _Busy(message))
        self._mark_cancelled(call)

    @staticmethod
    def _mark_cancelled(call):
        call.cancelled = True
        on_cancel = call.on_cancel       # read once: a call answered later may clear it
        if on_cancel is not None:
            on_cancel()

    def _settle(self, call, line):
        """Settle call with its answer: the line to send, None when cancelled, or for a kept
        call the message its keeper keeps (from _kept)."""
        with self._lock:
            if call.settled:
                return
            call.settled = True
            self.inflight.pop(call.key, None)
            keeper = call.keeper
            if keeper is not None:           # a kept call: its outcome is the keeper's
                after = keeper.settled(self, call, line)
            elif call.batch is not None:
                call.batch.add(line, call.id)
                return
            elif line is not None:
                self.emit(line)
                return
            else:
                return
        keeper.after(self, after)

    # -- what a running handler sends -----------------------------------------
    def notify(self, call: Any, method: str, params: Dict[str, Any]) -> bool:
        """Emit a notification about call while it is in flight; return True if sent."""
        with self._lock:
            if call.settled:
                return False
            if call.keeper is not None:
                params = call.keeper.related(params)
            self.emit(_notification_line(method, params))
            return True

    def progress(self, call: Any, progress: float, total: float | None = None,
                 message: str | None = None) -> Any:
        """Send notifications/progress for call when the client asked for it."""
        if call.keeper is not None:
            said = call.keeper.progress(self, call, progress, total, message)
            if said is not None:
                return said
        if call.progress_token is None or call.settled or not _is_number(progress):
            return False
        if call.last_progress is not None and progress <= call.last_progress:
            return False
        call.last_progress = progress
        params = {"progressToken": call.progress_token, "progress": progress}
        if _is_number(total):
            params["total"] = total
        if isinstance(message, str) and _has(call.revision, "progress_message"):
            params["message"] = message
        return self.notify(call, "notifications/progress", params)

    def log(self, call: Any, level: str, message: str, data: Any = None) -> Any:
        """Send a log message for call when the client asked for this level; return True if sent."""
        if level not in _LEVEL_RANK:
            raise ValueError("unknown log level %r; use one of %s" % (level, ", ".join(_LEVELS)))
        if call.keeper is not None and not call.keeper.logs(call):
            return False
        threshold = call.log_level if _ERA_RULES[call.era].request_log_level else self.log_level
        if threshold is None or _LEVEL_RANK[level] < _LEVEL_RANK[threshold]:
            return False
        payload = message if data is None else {"message": message, "data": data}
        return self.notify(call, "notifications/message",
                           {"level": level, "logger": call.name, "data": payload})

    # -- answers ----------------------------------------------------------------
    def _result(self, rid, result, revision=None):
        return _result_line(rid, result, self._stamps.get(revision))

    def _error(self, rid, code, message, data=None):
        return _error_line(rid, code, message, data, self._null_id)

    def _answer(self, call, outcome, large=False):
        """The line answering call with outcome: a result dict, or an exception.

        A result is checked against the response limit; an exception is shaped
        by the outcomes table (_OUTCOMES), which decides what the client sees.
        """
        if type(outcome) is dict or type(outcome) is str:
            try:
                line = _result_line(call.id, outcome, self._stamps.get(call.revision), large)
            except _ResultInvalid as e:
                return self._answer(call, e)
            if len(line) > self._max_response + 1:
                return self._error(call.id, *self._too_large(line))
            return line
        shaped = _shaped(self, call, outcome)
        return self._error(call.id, *shaped) if type(shaped) is tuple else \
            self._answer(call, shaped)

    def _kept(self, call, outcome, large=False):
        """What the keeper of call keeps of outcome: {"result": dict} or {"error": dict},
        checked as _answer checks a line (encodable, within the response limit)."""
        if type(outcome) is str:         # JSON text, encoded before the call was kept
            outcome = json.loads(outcome)
        while type(outcome) is not dict:
            outcome = _shaped(self, call, outcome)
            if type(outcome) is tuple:
                code, message, data = outcome
                error = {"code": code, "message": message}
                if data is not None:
                    error["data"] = data
                return {"error": error}
        try:
            line = _result_line(call.id, outcome, None, large)
        except _ResultInvalid as e:
            return self._kept(call, e)
        if len(line) > self._max_response + 1:
            return self._kept(call, ProtocolError(*self._too_large(line)))
        return {"result": outcome}

    def _too_large(self, line):
        return INTERNAL_ERROR, "Internal error: the result is too large to send", {
            "size": len(line) - 1, "limit": self._max_response}

    def _incident(self, what, exc):
        """Report exc (with its traceback) under a new incident number; return the number."""
        incident = self._random(4).hex()
        if isinstance(exc, _ResultInvalid):
            self._report("incident %s: %s returned an invalid result: %s" % (incident, what, exc),
                         None)
        else:
            self._report("incident %s in %s: %s" % (incident, what, type(exc).__name__),
                         _format_traceback(exc))
        return incident

    def _incident_error(self, rid, what, exc):
        return self._error(rid, *_incident_outcome(self._incident(what, exc)))

class _Changes:
    """A connection's change notifications: noted from any thread, sent soon, coalesced."""

    def __init__(self, conn, schedule):
        self._conn, self._schedule = conn, schedule
        self._pending = set()       # not yet sent: ("list", kind) or ("updated", uri)
        # The list_changed methods of the kinds the client has listed: a legacy client
        # that has not listed a kind has nothing to refresh (a proxy's mounts add entries
        # at start); a modern one asks on its listen stream.
        self.listed = set()

    def catalog_changed(self, kinds):
        """Note that lists of these kinds changed (any thread); notify soon, coalesced."""
        self._note({("list", k) for k in kinds})

    def listing(self, kind):
        """The client is answered a list of kind (a row of _KINDS) now: what changed before
        is in it, and its kind's changes are told from now on."""
        changed = kind.changed
        with self._conn._lock:
            self.listed.add(changed)
            self._pending = {p for p in self._pending
                             if p[0] != "list" or _KIND_BY_ATTR[p[1]].changed != changed}

    def resource_updated(self, uri):
        """Note that the resource at uri changed (any thread); notify its subscribers soon."""
        self._note({("updated", uri)})

    def _note(self, changes):
        with self._conn._lock:
            idle = not self._pending
            self._pending |= changes
        if idle:
            if self._schedule is None:
                self.flush()
            else:
                self._schedule(self.flush)

    def flush(self):
        """Send the change notifications noted since the last flush (one per kind or URI)."""
        conn = self._conn
        with conn._lock:
            pending, self._pending = self._pending, set()
            methods = sorted({_KIND_BY_ATTR[k].changed for what, k in pending if what == "list"})
            uris = sorted(u for what, u in pending if what == "updated")
            rules = conn.rules          # an unlocked connection hears nothing
            for line in rules.changes(conn, methods, uris) if rules else ():
                conn.emit(line)


###############################################################################
# Client: errors and the shapes of answers ####################################
###############################################################################
#
# What a client raises, and the shapes of the results it reads (JSON Schemas, from
# the specification): the Client below, and each extension's client side, check
# what a server answers against them.


class ClientError(Exception):
    """Anything a client call raises: the server misbehaved, exited, did not answer in time,
    or answered with an error (then a ServerError)."""


class ServerError(ProtocolError, ClientError):
    """The server answered with a JSON-RPC error: .code, .message and .data.

    Both a ClientError (whatever went wrong with a call) and a ProtocolError
    (the same fields as the errors a handler raises).
    """


class MalformedResult(ClientError):
    """The server answered with a result whose shape breaks the specification (.method)."""

    def __init__(self, method: str, problems: Any) -> None:
        ClientError.__init__(self, "the server's %s result is malformed: %s"
                             % (method, "; ".join(problems[:3])))
        self.method = method


def _checked(method, result):
    """Return result when it has the shape this client reads for method; else raise
    MalformedResult saying where (a server's mistake must not become a traceback)."""
    if method == "tools/call" and _text_only(result):
        return result                 # the usual answer, sure to fit its shape
    if not _COMPILED_SHAPES:      # made whole, then added at once: no thread sees it half made
        _COMPILED_SHAPES.update({m: compile_schema(s) for m, s in _result_shapes().items()})
    problems = _COMPILED_SHAPES[method].errors(result)
    if problems:
        raise MalformedResult(method, problems)
    return result


_COMPILED_SHAPES = {}     # method -> its compiled shape, made on first use


def _text_only(result):
    """True for a tool result of text blocks only (and an isError that is a boolean)."""
    content = result.get("content") if type(result) is dict else None
    if type(content) is not list or type(result.get("isError", False)) is not bool:
        return False
    for b in content:
        if type(b) is not dict or b.get("type") != "text" or type(b.get("text")) is not str:
            return False
    return True


# The pieces of the result shapes (JSON Schemas): a text, an object, a count, a text
# that may be null, an object with required fields, a list, a page of a list.
_STRING, _OBJECT, _COUNT = {"type": "string"}, {"type": "object"}, {"type": "integer"}
_MAYBE = {"type": ["string", "null"]}


def _shape(required, **properties):
    return {"type": "object", "required": list(required), "properties": properties}


def _list_of(item):
    return {"type": "array", "items": item}


def _page_of(field, item):
    return _shape([field], **{field: _list_of(item), "nextCursor": _MAYBE})


def _result_shapes():
    """What this client (and the inspector's printing) relies on in each result, by method:
    the fields it reads and their types, from the specification (an extension's from its
    row). Optional texts may be null, as some servers send them; unknown fields and content
    types are welcome."""
    text, obj, count, maybe = _STRING, _OBJECT, _COUNT, _MAYBE
    shape, listed, page = _shape, _list_of, _page_of
    contents = dict(shape(["uri"], uri=text, mimeType=maybe, text=text, blob=text),
                    anyOf=[{"required": ["text"]}, {"required": ["blob"]}])
    block = dict(shape(["type"], type=text), allOf=[
        {"if": shape(["type"], type={"const": kind}), "then": then}
        for kind, then in (("text", shape(["text"], text=text)),
                           ("image", shape(["data"], data=text, mimeType=maybe)),
                           ("audio", shape(["data"], data=text, mimeType=maybe)),
                           ("resource_link", shape(["uri"], uri=text, name=maybe)),
                           ("resource", shape(["resource"], resource=contents)))])
    capabilities = shape([], extensions=obj)
    shapes = {
        "initialize": shape(["protocolVersion", "capabilities", "serverInfo"],
                            protocolVersion=text, capabilities=capabilities,
                            serverInfo=shape(["name"], name=text, version=maybe, title=maybe),
                            instructions=maybe),
        "server/discover": shape([], capabilities=capabilities, instructions=maybe,
                                 _meta=shape([], **{SERVER_INFO_KEY: shape(
                                     ["name"], name=text, version=maybe, title=maybe)})),
        "tools/list": page("tools", shape(["name", "inputSchema"], name=text,
                                          description=maybe, inputSchema=obj)),
        "resources/list": page("resources", shape(["uri"], uri=text, name=maybe,
                                                  description=maybe, mimeType=maybe)),
        "resources/templates/list": page("resourceTemplates", shape(
            ["uriTemplate"], uriTemplate=text, name=maybe, description=maybe, mimeType=maybe)),
        "prompts/list": page("prompts", shape(["name"], name=text, description=maybe,
                                              arguments=listed(shape(["name"], name=text)))),
        "tools/call": shape(["content"], content=listed(block), isError={"type": "boolean"}),
        "resources/read": shape(["contents"], contents=listed(contents)),
        "prompts/get": shape(["messages"], description=maybe, messages=listed(
            shape(["role", "content"], role=text, content=block))),
        "completion/complete": shape(["completion"], completion=shape(
            ["values"], values=listed(text), total=count, hasMore={"type": "boolean"})),
    }
    for more in _SHAPE_HOOKS:
        shapes.update(more())
    return shapes


###############################################################################
# Tasks: long-running tool calls the client polls #############################
###############################################################################
#
# A tool call may become a task: answered at once with a task id, its work goes
# on, and the client polls (tasks/get), waits (tasks/result, 2025-11-25), answers
# its questions (tasks/update, 2026-07-28) or cancels it. Tasks are core in
# 2025-11-25 and the io.modelcontextprotocol/tasks extension from 2026-07-28.

TASKS_KEY = "io.modelcontextprotocol/tasks"
# The extension has no progress notifications: a modern task's last progress, as
# numbers, rides in the _meta of its Task object (tasks/get, notifications/tasks)
# under this key of ours, beside the statusMessage every client can show.
TASK_PROGRESS_KEY = "mcp-stdio/progress"
RELATED_TASK_KEY = "io.modelcontextprotocol/related-task"
# A task's status, as a state machine: status -> the statuses it may move to.
# The terminal ones move nowhere: a cancelled task stays cancelled even if its
# work finishes.
_TASK_MOVES = {
    "working": frozenset(("input_required", "completed", "failed", "cancelled")),
    "input_required": frozenset(("working", "completed", "failed", "cancelled")),
    "completed": frozenset(), "failed": frozenset(), "cancelled": frozenset(),
}
# How often a client should poll a task (milliseconds): prompt enough for a person
# watching, rare enough to cost nothing.
_TASK_POLL_MS = 500


def _task_times(revision):
    """The names of a Task's TTL and poll interval (milliseconds) in revision."""
    if revision in _FEATURES and _has(revision, "tasks_extension"):
        return "ttlMs", "pollIntervalMs"
    return "ttl", "pollInterval"


class _Task:
    """One task: its status, timestamps, work and outcome."""

    __slots__ = ("id", "status", "message", "created", "updated", "ttl_ms", "call", "result",
                 "error", "requests", "answers", "waiters", "arguments", "stamps", "seq",
                 "last_progress")

    def __init__(self, task_id, now, ttl_ms, call, seq):
        self.id, self.status, self.message, self.seq = task_id, "working", None, seq
        self.created = self.updated = now
        self.stamps = [_iso(now)] * 2      # createdAt and lastUpdatedAt, as written
        self.ttl_ms, self.call, self.arguments = ttl_ms, call, call.arguments
        self.result = self.error = self.requests = self.last_progress = None
        self.answers = {}
        self.waiters = []         # tasks/result requests (2025-11-25) waiting for the end

    @property
    def terminal(self):
        return not _TASK_MOVES[self.status]

    # What the engine asks of the keeper of a call (see _Extension).
    def settled(self, conn, call, message):
        """The work ended with message (None: cancelled); return the waiters to answer."""
        return conn.tasks.settled(call, message)

    def after(self, conn, waiters):
        """Answer the tasks/result requests that waited for this task's end (lock not held)."""
        for waiter in waiters:
            conn._settle(waiter, conn._answer(waiter, _task_outcome(self)))

    def related(self, params):
        """params with the related-task _meta (2025-11-25: every message about a task MUST)."""
        return dict(params, _meta={RELATED_TASK_KEY: {"taskId": self.id}})

    def progress(self, conn, call, progress, total, message):
        """Say progress in the statusMessage where the extension has no progress notifications
        (seen in tasks/get and notifications/tasks); None: sent as for any call."""
        if not _has(call.revision, "tasks_extension"):
            return None
        with conn._lock:
            if call.settled or not _is_number(progress):
                return False
            text = message if isinstance(message, str) else "%g%s" % (
                progress, "/%g" % total if _is_number(total) else "")
            self.last_progress = {"progress": progress}
            if _is_number(total):
                self.last_progress["total"] = total
            return conn.tasks.move(self, self.status, text)

    def logs(self, call):
        """The extension has no log notifications on tasks."""
        return not _has(call.revision, "tasks_extension")


_ISO_SECOND = [None, ""]      # the last whole second written, and its text


def _iso(t):
    """Unix time t as an ISO 8601 timestamp in UTC, to the millisecond."""
    second = int(t)
    if _ISO_SECOND[0] != second:     # one formatting per second: tasks change often
        import datetime
        moment = datetime.datetime.fromtimestamp(second, datetime.timezone.utc)
        _ISO_SECOND[:] = [second, moment.strftime("%Y-%m-%dT%H:%M:%S")]
    return _ISO_SECOND[1] + ".%03dZ" % (int(t * 1000) % 1000)


class _Tasks:
    """The tasks of one connection: a bounded store, their moves and their notifications.

    Its methods run with the connection's lock held unless they say otherwise.
    """

    def __init__(self, conn, wall_clock):
        self._conn, self._wall = conn, wall_clock
        self._tasks = {}          # id -> _Task, oldest first
        self._due = None          # when the soonest task expires (None: none will)
        self._made = 0            # tasks made so far: each one's seq, which cursors name

    def wants(self, call, tool):
        """The TTL (ms) of the task call should become, None for a plain call; or raise."""
        mode = tool.task
        if _has(call.revision, "tasks_extension"):
            ext = (call.client_capabilities or {}).get("extensions")
            if mode != "forbidden" and isinstance(ext, dict) and TASKS_KEY in ext:
                return self._conn.server.task_ttl_ms
            if mode == "required":
                raise ProtocolError(MISSING_CLIENT_CAPABILITY, "Missing required client "
                                    "capability", {"requiredCapabilities": {
                                        "extensions": {TASKS_KEY: {}}}})
            return None
        if not _has(call.revision, "tasks_core"):
            return None
        asked = call.params.get("task")
        if asked is None:
            if mode == "required":
                raise ProtocolError(METHOD_NOT_FOUND, "Tool %r requires task augmentation "
                                    '(params.task)' % tool.name)
            return None
        if type(asked) is not dict:
            raise ProtocolError(INVALID_PARAMS, 'Invalid params: "task" must be an object')
        if mode == "forbidden":
            raise ProtocolError(METHOD_NOT_FOUND, "Tool %r does not support task augmentation"
                                % tool.name)
        ttl, limit = asked.get("ttl"), self._conn.server.task_ttl_ms
        return min(ttl, limit) if type(ttl) is int and ttl > 0 else limit

    def full(self):
        self.expire()
        return len(self._tasks) >= self._conn.server.max_tasks

    def create(self, call):
        """Make call a task: record it and return its CreateTaskResult (call's answer)."""
        conn = self._conn
        self._made += 1
        task = _Task(conn._random(16).hex(), self._wall(), call.keep, call, self._made)
        self._tasks[task.id] = task
        if task.ttl_ms is not None:
            ends = task.created + task.ttl_ms / 1000.0
            self._due = ends if self._due is None else min(self._due, ends)
        conn.inflight.pop(call.key, None)
        call.key, call.keeper = ("task", task.id), task
        conn.inflight[call.key] = call
        if _has(call.revision, "tasks_extension"):
            return dict(self.describe(task, call.revision), resultType="task")
        return {"task": self.describe(task, call.revision)}

    def describe(self, task, revision, detailed=False):
        """The Task object of a revision; detailed adds what its status carries (modern)."""
        d = {"taskId": task.id, "status": task.status}
        if task.message is not None:
            d["statusMessage"] = task.message
        d["createdAt"], d["lastUpdatedAt"] = task.stamps
        ttl, poll = _task_times(revision)
        d[ttl], d[poll] = task.ttl_ms, _TASK_POLL_MS
        if _has(revision, "tasks_extension"):
            if task.last_progress is not None:   # the numbers the statusMessage says
                d["_meta"] = {TASK_PROGRESS_KEY: dict(task.last_progress)}
            if detailed:
                if task.status == "input_required":
                    d["inputRequests"] = task.requests
                elif task.status == "completed":
                    d["result"] = task.result
                elif task.status == "failed":
                    d["error"] = task.error
        return d

    def move(self, task, status, message=None):
        """Move task to status (if the machine allows) and tell the client; return True if moved."""
        if status != task.status and status not in _TASK_MOVES[task.status]:
            return False
        task.status, task.updated = status, self._wall()
        task.stamps = [task.stamps[0], _iso(task.updated)]
        if message is not None:
            task.message = message
        self.announce(task)
        return True

    def announce(self, task):
        conn, call = self._conn, task.call
        if _has(call.revision, "tasks_core"):
            conn.emit(_notification_line("notifications/tasks/status",
                                         self.describe(task, call.revision)))
            return
        for rid, honoured, revision in conn.listens.values():
            if task.id in honoured.get("taskIds", ()):
                params = self.describe(task, revision, detailed=True)
                params.setdefault("_meta", {})[SUB_KEY] = rid
                conn.emit(_notification_line("notifications/tasks", params))

    def settled(self, call, message):
        """The work of call's task ended with message ({"result"} or {"error"}; None:
        cancelled); return the waiters to answer."""
        task = call.keeper
        if message is None:
            return self.end(task, "cancelled")
        result, error = message.get("result"), message.get("error")
        if result is None:
            task.error = error
            return self.end(task, "failed", str(error.get("message") or "")[:_TASK_MESSAGE])
        if result.get("resultType") == "input_required":
            task.answers = dict(call.answers or {})
            task.requests = result["inputRequests"]
            self.move(task, "input_required")
            if not _has(call.revision, "tasks_extension"):
                self.ask_client(task)
            return []
        result.pop("resultType", None)
        task.result = result
        if result.get("isError") is True and not _has(call.revision, "tasks_extension"):
            return self.end(task, "failed", _result_text(result)[:_TASK_MESSAGE])
        return self.end(task, "completed")

    def end(self, task, status, message=None):
        """Move task to a final status (unless it has one); return the tasks/result requests
        to answer now. A failed task says why (what the plain call would show the model)."""
        self.move(task, status, message)
        waiters, task.waiters = task.waiters, []
        return waiters

    def ask_client(self, task):
        """Send a 2025-11-25 task's questions as requests of the server's; run it again when
        every one is answered (no thread waits meanwhile)."""
        conn, left = self._conn, set(task.requests)
        questions = dict(task.requests)

        def on_answer(key, request):
            with conn._lock:
                msg = request.response
                if task.terminal:
                    return None
                if msg is not None:             # the handler runs again and sees the answer
                    task.answers[key] = (_NoAnswer(_no_answer_to(key, msg)) if "error" in msg
                                         else msg.get("result"))
                    left.discard(key)
                    if left:
                        return None
                    self.move(task, "working")
                    return _rerun(conn, task)
                # The connection closed: nothing runs again. The task ends as its
                # handler would have, had it not caught the error of its question.
                task.result = _error_result(_no_answer_to(key, None))
                waiters = self.end(task, "failed")
            task.after(conn, waiters)
            return None
        for key, ask in questions.items():
            params = dict(ask.get("params") or {})
            params["_meta"] = dict(params.get("_meta") or {}, **{
                RELATED_TASK_KEY: {"taskId": task.id}})
            conn.outgoing.send(ask["method"], params,
                               lambda request, key=key: on_answer(key, request))

    def get(self, call):
        """The task a tasks/* request names, or raise -32602."""
        task_id = call.params.get("taskId") if call.params else None
        if type(task_id) is not str:
            raise ProtocolError(INVALID_PARAMS, 'Invalid params: %s needs a string "taskId"'
                                % call.method)
        self.expire()
        task = self._tasks.get(task_id)
        if task is None:
            raise ProtocolError(INVALID_PARAMS, "Invalid params: unknown task %s"
                                % _short(task_id, 80))
        return task

    def expire(self):
        """Drop the tasks past their TTL, results and all (a running one is cancelled)."""
        now = self._wall()
        if self._due is None or now <= self._due:
            return                        # nothing is due: no pass over the store
        self._due = None
        for task in list(self._tasks.values()):
            if task.ttl_ms is None:
                continue
            ends = task.created + task.ttl_ms / 1000.0
            if now > ends and not task.waiters:    # one waited on is kept until it ends
                del self._tasks[task.id]
                if not task.terminal and not task.call.settled:
                    self._conn._mark_cancelled(task.call)
            else:
                self._due = ends if self._due is None else min(self._due, ends)

    def all(self):
        self.expire()
        return list(self._tasks.values())


def _require_tasks_extension(call):
    """-32021 for a modern tasks/* request whose client did not declare the extension."""
    if _has(call.revision, "tasks_extension"):
        ext = (call.client_capabilities or {}).get("extensions")
        if not (isinstance(ext, dict) and TASKS_KEY in ext):
            raise ProtocolError(MISSING_CLIENT_CAPABILITY, "Missing required client capability",
                                {"requiredCapabilities": {"extensions": {TASKS_KEY: {}}}})


# The longest statusMessage a failed task carries: a status line, not the whole result.
_TASK_MESSAGE = 1000


def _result_text(result):
    """The text of a result's first text block ("" when it has none)."""
    for block in result.get("content") or ():
        if isinstance(block, dict) and block.get("type") == "text":
            return block.get("text") or ""
    return ""


def _tasks_get(conn, call):
    _require_tasks_extension(call)
    with conn._lock:
        task = conn.tasks.get(call)
        detailed = _has(call.revision, "tasks_extension")
        return conn.tasks.describe(task, call.revision, detailed)


def _tasks_cancel(conn, call):
    _require_tasks_extension(call)
    with conn._lock:
        task = conn.tasks.get(call)
        modern = _has(call.revision, "tasks_extension")
        if task.terminal:
            if modern:
                return {}                 # an acknowledgement, whatever the status
            raise ProtocolError(INVALID_PARAMS, "Invalid params: task %s is already %s"
                                % (task.id, task.status))
        work = task.call
        waiters = conn.tasks.end(task, "cancelled") if work.settled else None
    if waiters is None:
        conn.cancel(work)                 # settles the work: the task is cancelled
    else:                                 # it waits for input: no work runs to settle
        task.after(conn, waiters)
    with conn._lock:
        return {} if modern else conn.tasks.describe(task, call.revision)


def _tasks_update(conn, call):
    _require_tasks_extension(call)
    responses = call.params.get("inputResponses")
    if type(responses) is not dict:
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: tasks/update needs an '
                            '"inputResponses" object')
    with conn._lock:
        task = conn.tasks.get(call)
        if task.status != "input_required":
            return {}                     # nothing outstanding: answers are ignored
        outstanding = dict(task.requests)
        for key in outstanding:
            if key in responses:
                task.answers[key] = responses[key]
        left = {k: v for k, v in outstanding.items() if k not in task.answers}
        if left:
            task.requests = left          # a partial answer: still waiting for the rest
            return {}
        work = _rerun(conn, task)
        conn.tasks.move(task, "working")
    return _AndRun({}, work)


def _rerun(conn, task):
    """A new run of a task's tool with the answers gathered so far (handlers start again)."""
    old = task.call
    call = Call(conn, old.id, ("task", task.id), old.method, old.params, old.era, old.revision,
                old.client_capabilities, old.client_info, old.meta, old.log_level, None)
    call.start("tool", old.name, Tool.work, old.timeout, old.context)
    call.target, call.arguments, call.keep = old.target, task.arguments, task.ttl_ms
    call.binding = getattr(old, "binding", None)       # set only where states are signed
    call.answers, call.keeper = dict(task.answers), task
    task.call = call
    conn.inflight[call.key] = call
    return call


def _tasks_result(conn, call):
    with conn._lock:
        task = conn.tasks.get(call)
        if not task.terminal:
            task.waiters.append(call)
            return _Deferred()
    return _task_outcome(task)


def _task_outcome(task):
    """What tasks/result answers for a finished task (2025-11-25)."""
    related = {RELATED_TASK_KEY: {"taskId": task.id}}
    if task.status == "cancelled":
        return ProtocolError(INVALID_REQUEST, "Invalid Request: task %s was cancelled"
                             % task.id, {"taskId": task.id})
    if task.error is not None:
        e = task.error
        return ProtocolError(e.get("code", INTERNAL_ERROR), e.get("message", ""),
                             dict(e["data"], **related) if isinstance(e.get("data"), dict)
                             else related)
    result = dict(task.result)
    result["_meta"] = dict(result.get("_meta") or {}, **related)
    return result


def _tasks_list(conn, call):
    """One page of the connection's tasks, oldest first; a cursor names the next one's seq."""
    position = _cursor_position(call, "tasks")
    if position is not None and not position.isdigit():
        raise ProtocolError(INVALID_PARAMS, "Invalid params: invalid cursor")
    first, size = int(position or 0), conn.server.page_size
    with conn._lock:
        tasks = [t for t in conn.tasks.all() if t.seq >= first]
        result = {"tasks": [conn.tasks.describe(t, call.revision) for t in tasks[:size]]}
    if len(tasks) > size:
        result["nextCursor"] = _position_cursor("tasks", tasks[size].seq)
    return result


class _TasksContext:
    """What tasks add to a handler's Context (the row's context side)."""

    __slots__ = ()

    def start_task(self) -> Any:
        """Go on as a task: the call is answered with one, and the client polls it.

        For a tool registered with task_start="handler": what the handler asked
        before this was an ordinary round of questions (in 2025-11-25, whose
        task-augmented call is answered with its task at once, they were the
        task's). Returns False when the client cannot take a task here (the call
        goes on as a plain one).
        """
        call = self._call
        if call.keeper is not None:
            return True
        if call.keep is None:
            return False
        return _start_task(call.conn, call)


def _start_task(conn, call):
    """Answer call with a new task (its CreateTaskResult); its work goes on as the task."""
    with conn._lock:
        if call.settled or call.keeper is not None:
            return call.keeper is not None
        conn.emit(conn._answer(call, conn.tasks.create(call)))
        return True


def _tasks_admit(conn, call, tool):
    """A tools/call that may become a task: its TTL kept on the call, or -31000 when the
    server holds enough; returns _take_task when the call becomes its task at once."""
    if tool.task != "forbidden" or "task" in call.params:
        call.keep = conn.tasks.wants(call, tool)
        if call.keep is not None and conn.tasks.full():
            s = conn.server
            raise ProtocolError(TOO_MANY_TASKS, "Too many tasks: the server holds %d already; "
                                "try again when one has ended" % s.max_tasks,
                                {"reason": "too-many-tasks", "maxTasks": s.max_tasks})
        if call.keep is not None and _task_at_once(call, tool):
            return _take_task
    return None


def _take_task(conn, call):
    """The admitted call as its new task: answered with it now, its work run after."""
    with conn._lock:                   # the task exists before its work waits for a worker
        return _AndRun(conn.tasks.create(call), call)


def _task_at_once(call, tool):
    """True when call becomes its task on admission (else only when its handler says so).

    A 2025-11-25 task-augmented call has no answer but its task; a tool of the
    extension may choose to start its task from the handler (task_start="handler").
    """
    return tool.task_start == "call" or not _has(call.revision, "tasks_extension")


def _tasks_listen(conn, call, filt, honoured):
    """subscriptions/listen's taskIds: checked, and the known ones honoured."""
    task_ids = filt.get("taskIds")
    if task_ids is None:
        return
    _require_tasks_extension(call)
    if type(task_ids) is not list or any(type(t) is not str for t in task_ids):
        raise ProtocolError(INVALID_PARAMS, "Invalid params: taskIds must be an array of "
                            "task ids")
    if task_ids:
        with conn._lock:
            known = {t.id for t in conn.tasks.all()}
        honoured["taskIds"] = [t for t in task_ids if t in known]


def _tasks_connect(conn, wall_clock):
    conn.tasks = _Tasks(conn, wall_clock)


def _tasks_close(conn):
    """A task ends with its connection."""
    with conn._lock:
        running = [t.call for t in conn.tasks.all() if not t.terminal]
    for call in running:
        conn.cancel(call)


def _declare_tasks(server, revision, caps):
    if "tasks" in server._offered and _has(revision, "tasks_core"):
        caps["tasks"] = {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}
    elif "tasks" in server._offered and _has(revision, "tasks_extension"):
        caps.setdefault("extensions", {})[TASKS_KEY] = {}


def _task_hidden(conn, call, tool):
    """A tool that must run as a task is not there where tasks are not."""
    return tool.task == "required" and not _has(call.revision, "tasks")


def _task_offers(server, catalog):
    # A server with sources (mounts) offers tasks from the start: a mount lists its task
    # tools only after the handshake, which cannot wait for it.
    return "tasks" if server.sources or _any_other(catalog.tools.values(), "task",
                                                   "forbidden") else None


def _task_listing(entry, revision, d, audience):
    """A listed tool's task support (execution.taskSupport, 2025-11-25); a tool that must run
    as a task is not listed where tasks are not (its client could never run it)."""
    task = getattr(entry, "task", "forbidden")
    if task == "forbidden":
        return d
    if task == "required" and not _has(revision, "tasks"):
        return None
    if _has(revision, "tasks_core"):
        d["execution"] = {"taskSupport": task}
    return d


def _task_shapes():
    """What the client reads in task results (see _result_shapes)."""
    interval = {"type": ["integer", "null"]}
    task = _shape(["taskId", "status"], taskId=_STRING, status=_STRING, statusMessage=_MAYBE,
                  pollInterval=interval, pollIntervalMs=interval, inputRequests=_OBJECT,
                  result=_OBJECT, error=_shape(["code", "message"], code=_COUNT, message=_STRING))
    return {"tasks/get": task,
            "task": {"if": _shape(["resultType"], resultType={"const": "task"}),  # a call
                     "then": task, "else": _shape(["task"], task=task)}}          # answered so


def _task_marks(field, entry, report):
    """inspect's marks for a listed tool that may run as a task."""
    support = (entry.get("execution") or {}).get("taskSupport") if field == "tools" else None
    return ["task %s" % support] if support in ("optional", "required") else []


def _offer_task(client, params, task):
    """task=True (or {"ttl": ms}) asks a 2025-11-25 server for a task (params.task)."""
    if task and client._speaks("tasks_core"):
        params["task"] = dict(task) if isinstance(task, dict) else {}


def _follow_task(client, result, timeout, on_status, on_progress):
    """Poll the task a tools/call was answered with, and return its result (None: no task).

    The client's side of tasks: answers what a modern task asks, cancels it on an
    interrupt (KeyboardInterrupt), and gives up after its TTL.
    """
    if result.get("resultType") != "task" and "task" not in result:
        return None
    created = _checked("task", result)
    import time
    modern = created.get("resultType") == "task"
    first = created if modern else created["task"]
    tid = first["taskId"]
    ttl_name, poll_name = _task_times(client.revision)
    ttl = first.get(ttl_name)
    # The task's TTL bounds the wait (its result is gone after it), or else 24 hours.
    give_up = _monotonic() + (ttl / 1000.0 if isinstance(ttl, int) and ttl > 0 else 86400)
    seen = heard = told = None
    try:
        while True:
            if _monotonic() > give_up:
                raise ClientError("task %s did not finish within its TTL" % tid)
            t = _checked("tasks/get", client.request("tasks/get", {"taskId": tid}, timeout))
            status, message = t.get("status"), t.get("statusMessage")
            said = (t.get("_meta") or {}).get(TASK_PROGRESS_KEY) if modern else None
            progressed = on_progress is not None and isinstance(said, dict) and \
                said != heard and _is_number(said.get("progress"))
            # One report a step: a message that progress carries is heard with it alone;
            # the last step is heard before the task's end.
            last = progressed and status in ("completed", "failed", "cancelled")
            if last:
                on_progress(said["progress"], said.get("total"), message)
            if on_status is not None and (status, message) != seen:
                if not progressed or seen is None or status != seen[0]:
                    on_status(status, None if progressed or message == told else message)
                seen = (status, message)
            if progressed:
                heard, told = said, message
                if not last:
                    on_progress(said["progress"], said.get("total"), message)
            if modern and status == "input_required":
                answers = {}
                for key, ask in (t.get("inputRequests") or {}).items():
                    ask = ask if isinstance(ask, dict) else {}
                    answer = client._answer_for(ask.get("method"), ask.get("params") or {})
                    if answer is None:
                        raise ClientError("the task asks %s (%s), which this client cannot "
                                          "answer" % (_short(key, 40), ask.get("method")))
                    answers[key] = answer
                client.request("tasks/update", {"taskId": tid, "inputResponses": answers},
                             timeout)
                continue
            if status in ("completed", "failed", "cancelled"):
                break
            interval = t.get(poll_name) or _TASK_POLL_MS
            time.sleep(min(2.0, max(0.05, interval / 1000.0)))
    except KeyboardInterrupt:
        try:
            client.request("tasks/cancel", {"taskId": tid}, 5.0)
        finally:
            raise
    if not modern:
        return client.request("tasks/result", {"taskId": tid}, timeout)
    if status == "completed":
        return t.get("result") or {}
    if status == "failed":
        e = t.get("error") or {}
        raise ServerError(e.get("code"), str(e.get("message")), e.get("data"))
    raise ClientError("the task %s was cancelled" % tid)


###############################################################################
# Skills: front matter and folders (the skills extension) #####################
###############################################################################
#
# serve_skills(folder) publishes Agent Skills: each folder holding a SKILL.md
# is a skill, served as skill://<skill-path>/<file-path> resources and listed
# by skills/list. SKILL.md starts with YAML front matter, read by the strict
# reader of the appendix (the subset front matter uses, YAML 1.2 core types).


def _read_flags(system):
    """The os.open() flags of a skill file's read, of what system (the os module) has:
    binary (Windows would read text: CRLF as LF, an end at byte 0x1A), a link not
    followed, a FIFO not waited on."""
    return system.O_RDONLY | getattr(system, "O_BINARY", 0) | \
        getattr(system, "O_NOFOLLOW", 0) | getattr(system, "O_NONBLOCK", 0)


def _read_regular(path):
    """(bytes, stat) of the regular file at path, or None: not one (a link, a FIFO, a
    folder), gone, unreadable, or larger than a skill may be."""
    try:                            # a link is not followed, a FIFO put there not waited on
        fd = os.open(path, _read_flags(os))
    except OSError:
        return None
    try:                            # plain reads: no buffered file object
        st = os.fstat(fd)
        if st.st_mode & 0o170000 != 0o100000 or st.st_size > _MAX_SKILL_BYTES:
            return None             # (a sparse file of terabytes is never read)
        data = os.read(fd, st.st_size + 1)    # a short read of a regular file is its end
        while st.st_size < len(data) <= _MAX_SKILL_BYTES:    # it grew since its fstat
            more = os.read(fd, 1 << 16)
            if not more:
                break
            data += more
    except OSError:
        return None
    finally:
        os.close(fd)
    if not hasattr(os, "O_NOFOLLOW") and os.path.islink(path):
        return None
    return data, st


# The limits of one skill, from the extension's specification: clients need not
# accept more files or more bytes than this.
_MAX_SKILL_FILES = 512
_MAX_SKILL_BYTES = 16 << 20
# A skill's name: 1-64 lowercase letters, digits and hyphens, no hyphen at either
# end or twice in a row (the Agent Skills naming rule).
_SKILL_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")
# The Agent Skills format's bound on a description: a longer one is still served
# (real collections hold some) but reported, as clients may refuse it.
_MAX_SKILL_DESCRIPTION = 1024
# The Agent Skills specification's bound on the compatibility field.
_MAX_SKILL_COMPATIBILITY = 500


def _skill_field_problems(front):
    """(field, what is wrong) for each optional field the Agent Skills specification defines
    and front breaks; fields it does not define pass through as written."""
    out = []
    if "license" in front and not isinstance(front["license"], str):
        out.append(("license", "must be a string"))
    if "compatibility" in front:
        c = front["compatibility"]
        if not isinstance(c, str) or not 0 < len(c) <= _MAX_SKILL_COMPATIBILITY:
            out.append(("compatibility", "must be a string of 1-%d characters"
                        % _MAX_SKILL_COMPATIBILITY))
    if "metadata" in front:
        m = front["metadata"]
        if not isinstance(m, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in m.items()):
            out.append(("metadata", "must map strings to strings (quote numbers: "
                        "version: \"1.0\")"))
    if "allowed-tools" in front and not isinstance(front["allowed-tools"], str):
        out.append(("allowed-tools", "must be one string of space-separated tools, not a list"))
    return out
SKILLS_KEY = "io.modelcontextprotocol/skills"


class SkillFolder:
    """A folder of Agent Skills served by a Server (made by Server.serve_skills).

    Every folder below it that holds a SKILL.md is a skill; hidden files and
    folders (a leading dot) and symbolic links are not served. refresh() reads
    the folder again (a live server does so on each skills/list and skills/get).
    """

    # A live server reads the folder again at most this often (seconds): a burst of
    # listings costs one scan.
    RESCAN = 1.0

    def __init__(self, server, path, directory_read=True):
        self.server, self.path = server, _author_path(path)
        self.directory_read = bool(directory_read)
        self.skills = {}          # uri -> Skill
        self.problems = []        # what was refused, one line each
        self._scanned = None      # (monotonic time, what the scan saw)

    def scan(self):
        """Read the folder: {uri: Skill} of the valid skills; problems are kept in .problems."""
        if not os.path.isdir(self.path):
            raise CatalogError("skills: %s is not a folder" % self.path)
        skills, problems, seen, skipped = {}, [], [], []
        for folder, files, folders in _skill_folders(self.path, skipped):
            rel = folder[len(self.path):].lstrip(os.sep).replace(os.sep, "/")  # walked from it
            skill_path = rel or os.path.basename(self.path)
            source = os.path.join(folder, "SKILL.md")
            try:
                skill, mtime = self._skill(folder, skill_path, source, files, folders)
            except (FrontMatterError, OSError, UnicodeDecodeError) as e:
                problems.append("skills: %s" % _short_text(e))
                continue
            except Exception as e:   # noqa: BLE001 - one skill must not stop the others
                problems.append("skills: %s: could not be read (%s); not served"
                                % (source, type(e).__name__))
                continue
            seen.append((source, mtime, tuple(files), tuple(folders)))
            skills[skill.uri] = skill
            if len(skill.frontmatter["description"]) > _MAX_SKILL_DESCRIPTION:
                problems.append("skills: %s: the description has %d characters, over the Agent "
                                "Skills limit of %d (served; a client may refuse the skill)"
                                % (source, len(skill.frontmatter["description"]),
                                   _MAX_SKILL_DESCRIPTION))
        self.problems = skipped + problems
        self._scanned = (_monotonic(), seen)
        return skills

    def _skill(self, folder, skill_path, source, files, folders):
        got = _read_regular(source)
        if got is None:
            raise FrontMatterError("%s: not a regular file of at most %d bytes that can be "
                                   "read" % (source, _MAX_SKILL_BYTES))
        data, st = got
        front = read_front_matter(data.decode("utf-8"), source)
        name, description = front.get("name"), front.get("description")
        if not (isinstance(name, str) and 0 < len(name) <= 64 and name.strip("-") == name and
                "--" not in name and _SKILL_NAME_CHARS.issuperset(name)):
            raise FrontMatterError("%s: name must be 1-64 lowercase letters, digits and "
                                   "hyphens, without a hyphen at either end or twice in a row"
                                   % source)
        if name != os.path.basename(folder):
            raise FrontMatterError("%s: name %r must equal the skill's folder name %r"
                                   % (source, name, os.path.basename(folder)))
        if not isinstance(description, str) or not description.strip():
            raise FrontMatterError("%s: description must be a non-empty string" % source)
        for field, problem in _skill_field_problems(front):
            raise FrontMatterError("%s: %s %s (the Agent Skills specification)"
                                   % (source, field, problem))
        if len(files) > _MAX_SKILL_FILES:
            raise FrontMatterError("%s: the skill has %d files; a skill has at most %d"
                                   % (source, len(files), _MAX_SKILL_FILES))
        stat, sep = os.stat, os.sep
        total = sum(stat(folder + sep + f.replace("/", sep)).st_size for f in files)
        if total > _MAX_SKILL_BYTES:
            raise FrontMatterError("%s: the skill's files hold %d bytes; a skill holds at most "
                                   "%d" % (source, total, _MAX_SKILL_BYTES))
        uri = "skill://%s/SKILL.md" % _quote_path(skill_path)
        skill = Skill(uri, folder, skill_path, front, files, folders)
        skill._digested("SKILL.md", data, st)   # read once: its digest is known already
        return skill, st.st_mtime_ns

    def changed(self):
        """True when the folder may have changed since the last scan (cheap: names and times)."""
        if self._scanned is None:
            return True
        seen = []
        try:
            for folder, files, folders in _skill_folders(self.path):
                source = os.path.join(folder, "SKILL.md")
                seen.append((source, os.stat(source).st_mtime_ns, tuple(files), tuple(folders)))
        except OSError:
            return True
        return sorted(seen) != sorted(self._scanned[1])

    def refresh(self):
        """Read the folder again and serve what it holds now; return True if that changed.

        Clients are told, as for any catalog change: serving, this needs a
        server made with live=True.
        """
        server = self.server
        with server._lock:
            known = self.problems
            try:
                new = self.scan()
            except (CatalogError, OSError) as e:    # gone or unreadable: serve nothing
                new, self._scanned = {}, (_monotonic(), [])     # until it is back
                why = str(e) if isinstance(e, CatalogError) else "skills: %s: %s" % (
                    self.path, e.strerror or e)
                self.problems = [why + "; no skills are served until it can be read"]
            for line in self.problems:
                if line not in known:               # each problem once, not at every scan
                    _report("warning: " + line)
            old = self.skills
            if sorted((u, s.frontmatter, s.files, s.folders) for u, s in old.items()) == \
                    sorted((u, s.frontmatter, s.files, s.folders) for u, s in new.items()):
                return False
            for uri in old:
                if uri not in new:
                    server._remove("skills", uri)
                    server._remove("resources", uri)
            self.skills = new
            server.add(*_skill_entries(new), replace=True)
            return True

    def due(self):
        """On a live server, read the folder again when RESCAN seconds passed and it changed."""
        if self.server.live and (self._scanned is None or
                                 _monotonic() - self._scanned[0] >= self.RESCAN):
            if self.changed():
                self.refresh()
            else:
                self._scanned = (_monotonic(), self._scanned[1])


def _skill_entries(skills):
    """The catalog entries of skills: each Skill, and its SKILL.md as a listed resource."""
    return list(skills.values()) + [s.resource(s.uri) for s in skills.values()]


def _skill_folders(root, problems=None):
    """(folder, its files, its sub-folders; both relative to it) of every skill below root.

    One pass over the tree, in a stable order. A file or folder belongs to every
    skill above it: a nested skill is supporting content of the skills that
    enclose it, whose file lists are complete (SEP-2640). Hidden
    names and symbolic links are left out (regular files and folders only), and
    so are names no skill:// URI can carry (not UTF-8, or with a backslash) and
    folders that cannot be read: those are said in problems, when given.
    """
    walked, skills, stack, skipped = [], set(), [root], []
    while stack:
        folder = stack.pop()
        names, subfolders = [], []
        try:
            with os.scandir(folder) as entries:
                for e in entries:
                    name = e.name
                    if name.startswith("."):
                        continue
                    if not name.isascii() and not _utf8(name) or "\\" in name:
                        skipped.append((e.path, "no skill:// URI can name it (not UTF-8, or "
                                                 "a backslash); not served"))
                        continue
                    if e.is_dir(follow_symlinks=False):
                        stack.append(e.path)
                        subfolders.append(name)
                    elif e.is_file(follow_symlinks=False):
                        names.append(name)
        except OSError as e:
            if folder == root:
                raise
            skipped.append((folder, "cannot be read (%s); not served" % (e.strerror or e)))
            continue
        if "SKILL.md" in names:
            skills.add(folder)
        walked.append((folder, names, subfolders))
    owned = {f: ([], []) for f in skills}
    for folder, names, subfolders in walked:
        owner = folder
        while len(owner) >= len(root):
            if owner in skills:
                prefix = folder[len(owner) + 1:].replace(os.sep, "/")
                files, folders = owned[owner]
                files += [prefix + "/" + n if prefix else n for n in names]
                folders += [prefix + "/" + n if prefix else n for n in subfolders]
            if len(owner) == len(root):
                break
            owner = os.path.dirname(owner)
    out = []
    for f in sorted(skills):
        names, folders = sorted(owned[f][0]), sorted(owned[f][1])
        names.remove("SKILL.md")              # first: the skill's own file
        out.append((f, ["SKILL.md"] + names, folders))
    if problems is not None:
        problems += ["skills: %s: %s" % (os.fsencode(path).decode("utf-8", "replace"), why)
                     for path, why in sorted(skipped)]
    return out


def _utf8(name):
    """True when a file name read from the disk is UTF-8 (no undecodable bytes)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_URI_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")


def _quote_path(path):
    """A relative path as URI path segments, percent-encoded where they must be."""
    if _URI_SAFE.issuperset(path):
        return path                   # the usual name needs no quoting (nor urllib)
    from urllib.parse import quote
    return "/".join(quote(segment, safe="") for segment in path.split("/"))


def _unquote_path(text):
    """The relative path a URI's path names, or None for '', '.', '..' or hidden segments."""
    segments = text.split("/")
    if "%" in text:                   # the usual path has no escapes (and needs no urllib)
        from urllib.parse import unquote
        segments = [unquote(s) for s in segments]
    if any(s in ("", ".", "..") or s.startswith(".") or "\0" in s or "\\" in s or "/" in s
           for s in segments) or _leaves_folder(segments[0]):
        return None
    return "/".join(segments)


def _guess_type(name):
    import mimetypes
    return mimetypes.guess_type(name)[0] or "application/octet-stream"


def _file_contents(skill, rel, mime):
    """A skill file's contents: text when it is UTF-8, a base64 blob otherwise."""
    data = skill.read(rel)
    uri = skill.file_uri(rel)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return ResourceContents([{"uri": uri, "blob": _base64(data), "mimeType": mime}])
    if mime == "application/octet-stream":
        mime = "text/plain"
    return ResourceContents([{"uri": uri, "text": text, "mimeType": mime}])


def _serves_skills(server):
    return bool(server.skill_folders)


class _SkillsServer:
    """What skills add to Server (its row's server side)."""

    skill_folders = ()          # the SkillFolders serve_skills made, in order

    def serve_skills(self, path: str, *, directory_read: bool = True) -> Any:
        """Serve every Agent Skill in the folder at path; return its SkillFolder.

        Each folder below path holding a SKILL.md is a skill, its files served as
        skill://<skill-path>/<file-path> resources (SKILL.md listed in
        resources/list) and described by skills/list and skills/get.
        directory_read=False leaves out resources/directory/read. A skill that
        breaks a rule is reported when serving starts, and the others are served.
        """
        folder = SkillFolder(self, path, directory_read)
        with self._lock:
            folder.skills = folder.scan()
            self.add(*_skill_entries(folder.skills))
            self.skill_folders += (folder,)
        return folder


def _refresh_skills(server):
    for folder in server.skill_folders:     # a live server notices a changed folder
        folder.due()


def _refused_skills(server):
    for folder in server.skill_folders:
        yield from folder.problems


class _SkillsClient:
    """What the skills extension adds to Client (its row's client side)."""

    def list_skills(self) -> List[_JSON]:
        """The skills the server serves (the skills extension): entries of skills/list."""
        return self.list_all("skills/list", "skills")

    def get_skill(self, uri: str) -> Any:
        """One skill's entry (uri, frontmatter, resources) by its SKILL.md URI."""
        return _checked("skills/get", self.request("skills/get", {"uri": uri}))["skill"]

    def read_directory(self, uri: str) -> Any:
        """The direct children of a folder of a skill (resources/directory/read), every page."""
        return self.list_all("resources/directory/read", "resources", {"uri": uri})


def _skill_shapes():
    """What the client reads in the skills extension's results (see _result_shapes)."""
    skill = _shape(["uri", "frontmatter", "resources"], uri=_STRING, frontmatter=_OBJECT,
                   resources=_list_of(_shape(["uri"], uri=_STRING, digest=_MAYBE, size=_COUNT)))
    return {"skills/list": _page_of("skills", skill), "skills/get": _shape(["skill"], skill=skill),
            "resources/directory/read": _shape(["resources"], resources=_list_of(_shape(
                ["uri"], uri=_STRING, name=_MAYBE, mimeType=_MAYBE)))}


def _shown_skill(skill):
    """inspect's row of a listed skill: its URI, how many files, its description."""
    files = skill.get("resources")
    count = "%d file%s" % (len(files), "" if len(files) == 1 else "s") \
        if isinstance(files, list) else str(files)
    return (skill.get("uri", "?"), count,
            _first_line((skill.get("frontmatter") or {}).get("description")))


def _declare_skills(server, revision, caps):
    """Every revision: SEP-2640 declares skills in initialize too."""
    if "skills" in server._offered:
        settings = {"directoryRead": True} if any(
            f.directory_read for f in server.skill_folders) else {}
        caps.setdefault("extensions", {})[SKILLS_KEY] = settings


class Skill:
    """An Agent Skill served from a folder (serve_skills makes them): its SKILL.md and files.

    uri is its SKILL.md's skill:// URI; frontmatter the SKILL.md's YAML front
    matter as JSON; files the paths of its files relative to its folder (those of
    the skills nested in it too), folders those of its sub-folders.
    """

    def __init__(self, uri: str, folder: Any, skill_path: Any, frontmatter: Any, files: Any,
                 folders: Any = ()) -> None:
        self.uri, self.folder, self.skill_path = uri, folder, skill_path
        self.frontmatter, self.files, self.folders = frontmatter, files, tuple(folders)
        self.name = frontmatter["name"]
        self.file_set = frozenset(files)
        self.prefix = "skill://%s/" % _quote_path(skill_path)    # of every file's URI
        self._digests = {}        # file -> (size, mtime_ns, "sha256:...")
        self._resources = {}      # file -> its Resource, made on first read

    def describe(self, revision: str) -> Any:
        """The skill entry of skills/list and skills/get: every file with its digest and size."""
        return {"uri": self.uri, "frontmatter": self.frontmatter,
                "resources": [dict(zip(("uri", "digest", "size"), (self.file_uri(f),) +
                                       self.digest(f))) for f in self.files]}

    def file_uri(self, rel: Any) -> Any:
        return self.prefix + _quote_path(rel)

    def digest(self, rel: Any) -> Any:
        """(digest, size) of a file, computed again only when it changed on disk."""
        known = self._digests.get(rel)
        if known is not None:
            st = os.stat(self._path(rel))
            if known[:2] == (st.st_size, st.st_mtime_ns):
                return known[2], known[0]
        self.read(rel)                          # digests what it reads
        known = self._digests[rel]
        return known[2], known[0]

    def read(self, rel: Any) -> Any:
        """The bytes of a file of this skill; refuses a path that left the folder since."""
        path, sep = self.folder, os.sep
        parts = rel.split("/")
        for part in parts[:-1]:                 # a link put in its way since is refused
            path += sep + part
            try:
                link = os.lstat(path).st_mode & 0o170000 == 0o120000
            except OSError:
                link = False                    # the open below reports it
            if link:
                raise ResourceNotFound(self.file_uri(rel))
        got = _read_regular(path + sep + parts[-1])
        if got is None:
            raise ResourceNotFound(self.file_uri(rel))
        data, st = got
        self._digested(rel, data, st)          # what is served is what is digested
        return data

    def _digested(self, rel, data, st):
        import hashlib
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        self._digests[rel] = (len(data), st.st_mtime_ns if len(data) == st.st_size else None,
                              digest)
        return digest, len(data)

    def _path(self, rel):
        return self.folder + os.sep + rel.replace("/", os.sep)

    def resource(self, uri: str) -> Any:
        """The Resource serving uri when it names a file of this skill, else None."""
        prefix = self.prefix
        if not uri.startswith(prefix):
            return None
        rel = _unquote_path(uri[len(prefix):])
        if rel is None or rel not in self.file_set:
            return None
        resource = self._resources.get(rel)
        if resource is None:
            mime = "text/markdown" if rel == "SKILL.md" else _guess_type(rel)
            resource = self._resources[rel] = Resource(
                self.file_uri(rel), lambda u, ctx, rel=rel: _file_contents(self, rel, mime),
                name=self.name if rel == "SKILL.md" else rel, mime_type=mime,
                description=self.frontmatter["description"] if rel == "SKILL.md" else None)
        return resource

    def directory(self, uri: str) -> Any:
        """Every direct child of a folder of this skill as resources (sorted by name), or None.

        Sub-folders are listed whether or not they hold files (an empty one is
        an empty directory), nested skills' folders among them.
        """
        root = self.prefix[:-1]
        uri = uri.rstrip("/")
        if uri == root:
            base = ""
        elif uri.startswith(root + "/"):
            base = _unquote_path(uri[len(root) + 1:])
            if base is None or base not in self.folders:
                return None
            base += "/"
        else:
            return None
        children = {}
        for f in self.files:
            if f.startswith(base) and "/" not in f[len(base):]:
                children[f[len(base):]] = False
        for f in self.folders:
            if f.startswith(base) and "/" not in f[len(base):]:
                children[f[len(base):]] = True
        out = []
        for name, folder in sorted(children.items()):
            rel = base + name
            if folder:
                out.append({"uri": "%s/%s" % (root, _quote_path(rel)), "name": name,
                            "mimeType": "inode/directory"})
            else:
                out.append({"uri": self.file_uri(rel), "name": name,
                            "mimeType": "text/markdown" if rel == "SKILL.md"
                            else _guess_type(rel)})
        return out


def _get_skill(conn, call):
    uri = call.params.get("uri") if call.params else None
    if type(uri) is not str:
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: skills/get needs a string "uri"')
    s = conn.server

    def serve():
        skill = s.catalog.skills.get(uri)
        if skill is None:
            raise ProtocolError(INVALID_PARAMS, "Unknown skill: %s" % _short(uri, 80),
                                {"uri": uri})
        result = {"skill": skill.describe(call.revision)}
        if _has(call.revision, "cache_hints"):
            result["ttlMs"] = s.ttl_ms
            result["cacheScope"] = "public"
        return result
    return _with_files(conn, call, "skills/get", serve)


def _read_directory(conn, call):
    uri = call.params.get("uri") if call.params else None
    if type(uri) is not str:
        raise ProtocolError(INVALID_PARAMS, 'Invalid params: resources/directory/read needs a '
                            'string "uri"')
    s = conn.server
    if not any(f.directory_read for f in s.skill_folders):
        raise ProtocolError(METHOD_NOT_FOUND, "Method not found")
    position = _cursor_position(call, "directory")
    for skill in s.catalog.skills.values():
        children = skill.directory(uri)
        if children is not None:
            break
    else:
        raise ProtocolError(INVALID_PARAMS, "Invalid params: %s is not a folder of a skill"
                            % _short(uri, 80), {"uri": uri})
    if position is not None:          # pages by name: a child made or removed meanwhile
        children = [c for c in children if c["name"] >= position]     # moves no other
    result = {"resources": children[:s.page_size]}
    if len(children) > s.page_size:
        result["nextCursor"] = _position_cursor("directory", children[s.page_size]["name"])
    if _has(call.revision, "cache_hints"):
        result["ttlMs"] = s.ttl_ms
        result["cacheScope"] = "public"
    return result


###############################################################################
# MCP Apps: tools that show a view (the ui extension) #########################
###############################################################################
#
# A tool may name a view: a ui:// resource holding one HTML document, which a
# host that renders apps shows in a sandboxed iframe beside the tool's result
# (io.modelcontextprotocol/ui, SEP-1865, stable 2026-01-26). The extension has
# no methods: it adds _meta.ui to the tools and views listed to a client that
# declares it with text/html;profile=mcp-app, and hides from every other client
# the tools only a view may call (such a host would hand them to the model).
# ui:// resources stay readable by all. 2024-11-05 and 2025-03-26 have no _meta
# on tools or resources, so their clients count as clients without apps.

APPS_KEY = "io.modelcontextprotocol/ui"
APP_MIME = "text/html;profile=mcp-app"
_VISIBILITIES = ("model", "app")
_CSP_FIELDS = ("connectDomains", "resourceDomains", "frameDomains", "baseUriDomains")
_PERMISSIONS = ("camera", "microphone", "geolocation", "clipboardWrite")
_VIEW_FIELDS = ("csp", "permissions", "domain", "prefersBorder")
# What a host puts in a view's Content-Security-Policy from csp: origins only,
# scheme://host[:port] with an optional leading "*." label; no path (not even
# "/"), quote, ";" or keyword such as 'self', which would loosen the policy.
_ORIGIN_RE = (r"[A-Za-z][A-Za-z0-9+.-]*://(\*\.)?([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*"
              r"|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?\Z")
# After whitespace and comments, a view's document opens with one of these.
_DOCUMENT_RE = r"(?i)(<!doctype\s+html|<html)(\s|>)"


__all__.append("View")      # public, with its extension: a build without it has none

# The view bridge: the view's side of MCP Apps (2026-01-26) in plain JavaScript, no
# npm, no bundler, no CDN. View(..., bridge=True) inlines it at the top of the
# document's <head>, so that an app is one HTML file. It makes window.mcpApp:
# on(event, fn) for "toolinput", "toolinputpartial", "toolresult", "toolcancelled",
# "hostcontext" and "teardown" (fn may return a promise; the host waits for it);
# callTool(name, args), readResource(uri), sendMessage(text or content blocks),
# openLink(url), updateModelContext({content, structuredContent}),
# requestDisplayMode(mode), log(level, data), request(method, params), and ready
# (a promise of the host's answer to ui/initialize). Before the page's scripts run
# it sets nothing; after them it starts the handshake (appInfo and appCapabilities
# may be set first), applies the host's theme variables and fonts, reports the
# document's size as it changes, and answers ping and ui/resource-teardown. A
# handler added after an event came is called at once with the last one.
_VIEW_BRIDGE = """\
(function () {
  "use strict";
  // mcp_stdio's view bridge: the view side of MCP Apps (2026-01-26) over postMessage.
  if (window.mcpApp) { return; }
  var host = window.parent, nextId = 1, pending = {}, handlers = {}, last = {};
  var events = {"ui/notifications/tool-input": "toolinput",
                "ui/notifications/tool-input-partial": "toolinputpartial",
                "ui/notifications/tool-result": "toolresult",
                "ui/notifications/tool-cancelled": "toolcancelled",
                "ui/notifications/host-context-changed": "hostcontext"};
  var app = {
    appInfo: {name: document.title || "view", version: "1.0"},
    appCapabilities: {availableDisplayModes: ["inline"]},
    hostContext: {}, hostCapabilities: {}, hostInfo: null,
    on: function (event, fn) {
      (handlers[event] = handlers[event] || []).push(fn);
      if (event in last) { fn(last[event]); }      // what came before the view listened
      return app;
    },
    request: function (method, params) {
      var id = nextId++;
      send({jsonrpc: "2.0", id: id, method: method, params: params || {}});
      return new Promise(function (resolve, reject) { pending[id] = [resolve, reject]; });
    },
    notify: function (method, params) {
      send({jsonrpc: "2.0", method: method, params: params || {}});
    },
    callTool: function (name, args) {
      return app.request("tools/call", {name: name, arguments: args || {}});
    },
    readResource: function (uri) { return app.request("resources/read", {uri: uri}); },
    sendMessage: function (content) {
      return app.request("ui/message", {role: "user", content: typeof content === "string" ?
                                        [{type: "text", text: content}] : content});
    },
    openLink: function (url) { return app.request("ui/open-link", {url: url}); },
    updateModelContext: function (context) {
      return app.request("ui/update-model-context", context);
    },
    requestDisplayMode: function (mode) {
      return app.request("ui/request-display-mode", {mode: mode});
    },
    log: function (level, data) { app.notify("notifications/message", {level: level, data: data}); }
  };

  function send(message) { host.postMessage(message, "*"); }
  function emit(event, params) {
    last[event] = params;
    (handlers[event] || []).forEach(function (fn) {
      try { fn(params); } catch (e) { app.log("error", String(e)); }
    });
  }
  function applyContext(context) {
    var root = document.documentElement, styles = context.styles || {};
    Object.keys(styles.variables || {}).forEach(function (name) {
      if (styles.variables[name] != null) { root.style.setProperty(name, styles.variables[name]); }
    });
    if (context.theme) { root.setAttribute("data-theme", context.theme); root.style.colorScheme = context.theme; }
    if (styles.css && styles.css.fonts && !document.getElementById("mcp-host-fonts")) {
      var style = document.createElement("style");
      style.id = "mcp-host-fonts";
      style.textContent = styles.css.fonts;
      document.head.appendChild(style);
    }
  }
  function answer(m) {
    if (m.method === "ui/resource-teardown") {
      Promise.all((handlers.teardown || []).map(function (fn) { return fn(m.params); })).then(
        function () { send({jsonrpc: "2.0", id: m.id, result: {}}); },
        function (e) { send({jsonrpc: "2.0", id: m.id, error: {code: -32603, message: String(e)}}); });
    } else if (m.method === "ping") {
      send({jsonrpc: "2.0", id: m.id, result: {}});
    } else {
      send({jsonrpc: "2.0", id: m.id, error: {code: -32601, message: "Method not found"}});
    }
  }
  window.addEventListener("message", function (event) {
    var m = event.data;
    if (event.source !== host || !m || m.jsonrpc !== "2.0") { return; }
    if (m.method === undefined && pending[m.id]) {
      var p = pending[m.id];
      delete pending[m.id];
      if (m.error) {
        var e = new Error(m.error.message);
        e.code = m.error.code; e.data = m.error.data;
        p[1](e);
      } else { p[0](m.result); }
    } else if (m.method !== undefined && m.id !== undefined) {
      answer(m);
    } else if (events[m.method]) {
      if (m.method === "ui/notifications/host-context-changed") {
        Object.keys(m.params || {}).forEach(function (k) { app.hostContext[k] = m.params[k]; });
        applyContext(m.params || {});
      }
      emit(events[m.method], m.params || {});
    }
  });
  var size = null;
  function measure() {
    // The document's own box, not the viewport: the host sizes the frame from it.
    var box = document.documentElement.getBoundingClientRect();
    var now = {width: Math.ceil(box.width), height: Math.ceil(box.height)};
    if (!size || size.width !== now.width || size.height !== now.height) {
      size = now;
      app.notify("ui/notifications/size-changed", now);
    }
  }
  app.ready = new Promise(function (resolve) {
    function start() {
      app.request("ui/initialize", {appInfo: app.appInfo, appCapabilities: app.appCapabilities,
                                    protocolVersion: "2026-01-26"}).then(function (result) {
        app.hostContext = result.hostContext || {};
        app.hostCapabilities = result.hostCapabilities || {};
        app.hostInfo = result.hostInfo || null;
        applyContext(app.hostContext);
        app.notify("ui/notifications/initialized", {});
        if (window.ResizeObserver) {
          new ResizeObserver(function () { window.requestAnimationFrame(measure); })
            .observe(document.documentElement);
        }
        measure();
        resolve(result);
      });
    }
    // After the page's own scripts have run: they may set appInfo and listen first.
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", start);
    } else { setTimeout(start, 0); }
  });
  window.mcpApp = app;
}());
"""


class View(Resource):
    """An MCP App view: a ui:// resource holding one HTML document.

    The document is html (a str), the file at path (read again when it
    changes; a relative path follows the source file that made the view), or
    what render(ctx) returns (str, or bytes sent as a blob) at each read. csp
    ({"connectDomains": [origin, ...], "resourceDomains", "frameDomains",
    "baseUriDomains"}), permissions ("camera", "microphone", "geolocation",
    "clipboardWrite"), domain and prefers_border become its _meta.ui.
    bridge=True inlines the view bridge (window.mcpApp) into the document.
    """

    def __init__(self, uri: str, html: Any = None, *, path: str | None = None,
                 render: Callable[..., Any] | None = None, name: str | None = None,
                 title: str | None = None, description: str | None = None, csp: Any = None,
                 permissions: Any = None, domain: str | None = None,
                 prefers_border: bool | None = None, bridge: bool = False, icons: Any = None,
                 meta: Dict[str, Any] | None = None, ttl_ms: int = 0,
                 cache_scope: str = "private") -> None:
        owner = "view %r" % (uri,)
        if not isinstance(uri, str) or not uri.startswith("ui://") or len(uri) == 5:
            raise CatalogError("%s: a view's URI starts with ui:// (the MCP Apps scheme)"
                               % owner)
        if (html is None) + (path is None) + (render is None) != 2:
            raise CatalogError("%s: give exactly one of html, path or render" % owner)
        if render is not None and not callable(render):
            raise CatalogError("%s: render must be a function returning the document" % owner)
        if meta is not None and isinstance(meta, dict) and (
                "ui" in meta or "ui/resourceUri" in meta):
            raise CatalogError("%s: _meta.ui is made from csp=, permissions=, domain= and "
                               "prefers_border=" % owner)
        ui = {}
        if csp is not None:
            ui["csp"] = csp
        if permissions is not None:
            ui["permissions"] = {p: {} for p in permissions} \
                if isinstance(permissions, (list, tuple, set, frozenset)) else permissions
        if domain is not None:
            ui["domain"] = domain
        if prefers_border is not None:
            ui["prefersBorder"] = prefers_border
        problems = _view_meta_problems(ui)
        if problems:
            raise CatalogError("%s: %s" % (owner, problems[0]))
        super().__init__(uri, self._contents, name=name, title=title,
                         description=description, mime_type=APP_MIME, icons=icons, meta=meta,
                         ttl_ms=ttl_ms, cache_scope=cache_scope)
        self.ui, self.path, self.render, self.bridge = ui, None, render, bool(bridge)
        self._loaded = None           # (the file's (mtime, size), its document)
        if path is not None:
            self.path = _author_path(path)
            try:
                self._load()
            except OSError as e:
                raise CatalogError("%s: cannot read %s (%s)" % (owner, self.path,
                                                                e.strerror or e))
            except _ResultInvalid as e:          # not UTF-8, or not a document
                raise CatalogError(str(e))
        elif html is not None:
            problem = _document_problem(html)
            if problem:
                raise CatalogError("%s: %s" % (owner, problem))
            if bridge:
                html = _with_bridge(html)
        self.html = html
    def _load(self):
        """The file's document, read again only when its modification time or size changed."""
        st = os.stat(self.path)
        stamp = (st.st_mtime_ns, st.st_size)
        if self._loaded is None or self._loaded[0] != stamp:
            with open(self.path, "rb") as f:
                data = f.read()
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                raise _ResultInvalid("view %r: %s is not UTF-8" % (self.uri, self.path))
            problem = _document_problem(text)    # checked once per version of the file
            if problem:
                raise _ResultInvalid("view %r: %s" % (self.uri, problem))
            self._loaded = (stamp, _with_bridge(text) if self.bridge else text)
        return self._loaded[1]

    def document(self, ctx: Any = None) -> Any:
        """The view's HTML document as served now (str, or bytes from render)."""
        if self.path is not None:
            return self._load()
        if self.render is None:
            return self.html
        doc = self.render(ctx)
        problem = _document_problem(doc)
        if problem:
            raise _ResultInvalid("view %r: %s" % (self.uri, problem))
        return _with_bridge(doc) if self.bridge else doc

    def _contents(self, uri, ctx):
        doc = self.document(ctx)
        if not (self.ui and ctx is not None and ctx.renders_apps) and type(doc) is str:
            return doc                  # served as any text resource (its MIME type is ours)
        c = {"uri": uri, "mimeType": APP_MIME}
        if isinstance(doc, str):
            c["text"] = doc
        else:
            import base64
            c["blob"] = base64.b64encode(bytes(doc)).decode("ascii")
        if self.ui and ctx is not None and ctx.renders_apps:
            c["_meta"] = {"ui": self.ui}
        return [c]


def _with_bridge(doc):
    """doc with the view bridge inlined first in its <head> (or after <html> without one)."""
    text = bytes(doc).decode("utf-8") if isinstance(doc, (bytes, bytearray)) else doc
    script = "<script>\n" + _VIEW_BRIDGE + "</script>\n"
    for tag in (r"(?i)<head(\s[^>]*)?>", r"(?i)<html(\s[^>]*)?>", r"(?i)<!doctype[^>]*>"):
        m = _pattern(tag).search(text)
        if m is not None:
            text = text[:m.end()] + script + text[m.end():]
            break
    return text if isinstance(doc, str) else text.encode("utf-8")


def _document_problem(doc):
    """Why doc is not a view's HTML document (None when it is one)."""
    if isinstance(doc, (bytes, bytearray)):
        doc = bytes(doc).decode("utf-8", "replace")
    if not isinstance(doc, str):
        return "the document must be a str (or bytes), not %s" % type(doc).__name__
    i = 1 if doc.startswith("\ufeff") else 0
    while True:
        while i < len(doc) and doc[i] in " \t\r\n\f":
            i += 1
        if not doc.startswith("<!--", i):
            break
        end = doc.find("-->", i + 4)
        if end < 0:
            return "the document ends inside a comment"
        i = end + 3
    if _pattern(_DOCUMENT_RE).match(doc, i) is None:
        return ("the document must be HTML: after whitespace and comments it starts "
                "with <!DOCTYPE html> or <html>")
    return None


def _view_meta_problems(ui):
    """What breaks the specification in a view's _meta.ui, in words ([] when nothing)."""
    if not isinstance(ui, dict):
        return ["_meta.ui must be an object"]
    out = ["_meta.ui.%s is not a field of a view (%s)" % (k, ", ".join(_VIEW_FIELDS))
           for k in ui if k not in _VIEW_FIELDS]
    csp = ui.get("csp", {})
    if not isinstance(csp, dict):
        out.append("csp must be an object of origin lists (%s)" % ", ".join(_CSP_FIELDS))
        csp = {}
    for k, origins in csp.items():
        if k not in _CSP_FIELDS:
            out.append("csp.%s is not a CSP field (%s)" % (k, ", ".join(_CSP_FIELDS)))
        elif not isinstance(origins, list):
            out.append("csp.%s must be a list of origins" % k)
        else:
            for i, o in enumerate(origins):
                if not isinstance(o, str) or not _pattern(_ORIGIN_RE).match(o):
                    out.append("csp.%s[%d] %s is not an origin (scheme://host[:port], a "
                               "leading '*.' allowed; no path, quote, ';' or keyword)"
                               % (k, i, _short(o, 60)))
    permissions = ui.get("permissions", {})
    if not isinstance(permissions, dict):
        out.append("permissions must name some of %s" % ", ".join(_PERMISSIONS))
        permissions = {}
    for k, v in permissions.items():
        if k not in _PERMISSIONS:
            out.append("permissions.%s is not a permission (%s)" % (k, ", ".join(_PERMISSIONS)))
        elif v != {}:
            out.append("permissions.%s must be {}" % k)
    if "domain" in ui and (not isinstance(ui["domain"], str) or not ui["domain"]):
        out.append("domain must be a non-empty string")
    if "prefersBorder" in ui and type(ui["prefersBorder"]) is not bool:
        out.append("prefersBorder must be true or false")
    return out


# A tool's fields for its view: app, the ui:// URI of the view that shows its result,
# and visibility, who may call it ("model", "app"; both when None).
_APP_TOOL_FIELDS = {"app": None, "visibility": None}


def _check_tool_view(owner, fields):
    """Check a tool's link to its view, and make its visibility a tuple."""
    app, visibility, meta = fields["app"], fields["visibility"], fields["meta"]
    if app is not None and (not isinstance(app, str) or not app.startswith("ui://") or
                            len(app) == 5):
        raise CatalogError("%s: app must be the ui:// URI of a view" % owner)
    if visibility is not None:
        if isinstance(visibility, str) or not all(v in _VISIBILITIES for v in visibility) \
                or not visibility or len(set(visibility)) != len(visibility):
            raise CatalogError("%s: visibility must list \"model\", \"app\" or both" % owner)
        fields["visibility"] = tuple(visibility)
    if meta and isinstance(meta, dict) and ("ui" in meta or "ui/resourceUri" in meta):
        raise CatalogError("%s: _meta.ui is made from app= and visibility=" % owner)


def _tool_ui_problems(ui):
    """What breaks the specification in a listed tool's _meta.ui ([] when nothing)."""
    if not isinstance(ui, dict):
        return ["_meta.ui must be an object"]
    out = ["_meta.ui.%s is not a field of a tool (resourceUri, visibility)" % k
           for k in ui if k not in ("resourceUri", "visibility")]
    uri = ui.get("resourceUri")
    if uri is not None and (not isinstance(uri, str) or not uri.startswith("ui://")):
        out.append("_meta.ui.resourceUri must be a ui:// URI")
    vis = ui.get("visibility")
    if vis is not None and (not isinstance(vis, list) or not vis or
                            any(v not in _VISIBILITIES for v in vis)):
        out.append('_meta.ui.visibility must list "model", "app" or both')
    return out


def _renders_apps(call):
    """Whether the client of a request renders MCP Apps (declares the extension's MIME type)."""
    if not _has(call.revision, "content_meta"):
        return False                     # no _meta on tools: nowhere to say what a view is
    ext = (call.client_capabilities or {}).get("extensions")
    settings = ext.get(APPS_KEY) if isinstance(ext, dict) else None
    types = settings.get("mimeTypes") if isinstance(settings, dict) else None
    return isinstance(types, list) and APP_MIME in types


def _apps_taken(server, call):
    return "apps" in server._offered and _renders_apps(call)


def _app_only(tool):
    return getattr(tool, "visibility", None) == ("app",)


def _apps_hidden(conn, call, tool):
    """A tool only a view may call is not there for a client without views."""
    return _app_only(tool) and not _apps_taken(conn.server, call)


def _apps_listing(entry, revision, d, audience):
    """_meta.ui on a listed tool or view, for a client that renders apps."""
    if APPS_KEY not in audience:
        return None if _app_only(entry) else d
    app = getattr(entry, "app", None)
    if app is not None or getattr(entry, "visibility", None) is not None:
        ui = {"resourceUri": app} if app is not None else {}
        if entry.visibility is not None:
            ui["visibility"] = list(entry.visibility)
        meta = dict(d.get("_meta") or (), ui=ui)
        if app is not None:
            meta["ui/resourceUri"] = app        # deprecated; older hosts read only this
        d["_meta"] = meta
    elif isinstance(entry, View) and entry.ui:
        d["_meta"] = dict(d.get("_meta") or (), ui=entry.ui)
    return d


def _apps_offers(server, catalog):
    return "apps" if _any_a(View, catalog.resources.values()) else None


def _apps_grants(server, tables):
    """Granting a tool grants its view; a tool whose view is scoped away loses its link,
    and a tool only a view may call goes with it (or when no view is served at all)."""
    tools, resources = tables["tools"], tables["resources"]
    if server.grant is not None and server.grant_resources is not None:
        views = {t.app for t in tools.values() if t.app is not None and
                 t.app not in resources and t.app in server.resources}
        if views:
            resources.update((uri, server.resources[uri]) for uri in views)
            tables["resources"] = resources = dict(sorted(resources.items()))
    if not _any_other(tools.values(), "app", None) and \
            not _any_other(tools.values(), "visibility", None):
        return                          # no tool has a view, nor is one's alone
    viewless = not _any_a(View, resources.values())
    for name, tool in [(name, t) for name, t in tools.items()
                       if t.app is not None or t.visibility is not None]:
        if tool.app is not None and tool.app not in resources:
            if _app_only(tool):
                del tools[name]
            else:
                tools[name] = _unlinked(tool)
        elif viewless and _app_only(tool):    # no view is served that could call it
            del tools[name]


def _unlinked(tool):
    """The same tool without its view (one copy per tool: catalogs compare entries by identity)."""
    copy = tool.__dict__.get("_unlinked")
    if copy is None or copy.name != tool.name:        # a renamed copy's (a mount's) is its own
        import copy as _copy
        copy = _copy.copy(tool)
        copy.app = None
        tool._unlinked = copy
    return copy


def _apps_checks(server):
    """Every ui:// resource is a view, and every tool's view is registered."""
    resources = server.resources
    # No URI holds a line break (_check_uri): one search of them all, joined, tells
    # whether one is a ui:// URI (a loop would cost thousands of resources milliseconds).
    for uri, resource in resources.items() if "\nui://" in "\n" + "\n".join(resources) \
            else ():
        if uri.startswith("ui://") and not isinstance(resource, View):
            raise CatalogError("resource %r: a ui:// resource is an MCP App view, served as "
                               "%s: register it with server.app()" % (uri, APP_MIME))
    for uri in server.templates:
        if uri.startswith("ui://"):
            raise CatalogError("resource template %r: views are fixed ui:// resources, "
                               "never templates" % uri)
    tools = server.tools.values()
    for tool in tools if _any_other(tools, "app", None) else ():
        app = tool.app
        if app is not None and not isinstance(resources.get(app), View):
            raise CatalogError("tool %r: its view %r is not registered (add it with "
                               "server.app(%r, ...))" % (tool.name, app, app))


def _declare_apps(server, revision, caps):
    """Every revision, as for skills: hosts send their side in initialize too."""
    if "apps" in server._offered:
        caps.setdefault("extensions", {})[APPS_KEY] = {}


def _apps_marks(field, entry, report):
    """inspect's marks: which tools have a view, which only a view may call, and what is wrong."""
    meta = entry.get("_meta")
    ui = meta.get("ui") if isinstance(meta, dict) else None
    if field == "resources" and entry.get("mimeType") == APP_MIME:
        return ["view"] + ["problem: " + p for p in _view_meta_problems(ui)] \
            if ui is not None else ["view"]
    if field != "tools" or ui is None:
        return []
    said = ["problem: " + p for p in _tool_ui_problems(ui)]
    uri = ui.get("resourceUri") if isinstance(ui, dict) else None
    if isinstance(uri, str):
        said.insert(0, "view " + uri)
        views = {r.get("uri"): r for r in report.get("resources") or ()}
        if uri not in views:
            said.append("problem: %s is not among the listed resources" % uri)
        elif views[uri].get("mimeType") != APP_MIME:
            said.append("problem: %s is served as %s, not %s" % (
                uri, views[uri].get("mimeType"), APP_MIME))
        if meta.get("ui/resourceUri") not in (None, uri):
            said.append("problem: _meta[\"ui/resourceUri\"] names another view")
    if isinstance(ui, dict) and ui.get("visibility") == ["app"]:
        said.append("app-only")
    return said


class _AppsServer:
    """What MCP Apps add to Server (its row's server side)."""

    def app(self, uri: str, path: str | None = None, *, html: str | bytes | None = None,
            name: str | None = None, title: str | None = None,
            description: str | None = None, csp: Any = None, permissions: Any = None,
            domain: str | None = None, prefers_border: bool | None = None,
            bridge: bool = False, icons: Any = None, meta: Any = None) -> Any:
        """Register an MCP App view: a ui:// resource holding one HTML document.

        With path (an HTML file; a relative path follows your source file) or
        html (the document), the View is registered and returned; without
        either, decorate a function returning the document (str or bytes), which
        may take uri and ctx. Link a tool to it with tool(app=uri). csp,
        permissions, domain, prefers_border and bridge (inline the view bridge,
        window.mcpApp): see View.
        """
        ui = dict(name=name, title=title, description=description, csp=csp,
                  permissions=permissions, domain=domain, prefers_border=prefers_border,
                  bridge=bridge, icons=icons, meta=meta)
        if path is not None or html is not None:
            view = View(uri, html, path=path, **ui)
            self.add(view)
            return view

        def register(f):
            call = _wrap_handler(f, "view %r" % (uri,), {"uri"})
            if ui["name"] is None:
                ui["name"] = f.__name__
            if ui["description"] is None:
                ui["description"] = _parse_docstring(f.__doc__)[0]
            return self._added(View(uri, render=lambda ctx: call({"uri": uri}, ctx), **ui), f)
        return register


class _AppsContext:
    """What MCP Apps add to a handler's Context."""

    __slots__ = ()
    renders_apps = property(lambda self: _renders_apps(self._call),
                            doc="Whether this client shows MCP App views (declares "
                                "text/html;profile=mcp-app).")


class _AppsClient:
    """What MCP Apps add to Client (its row's client side)."""

    def read_view(self, uri: str) -> Any:
        """A view's document and metadata: {"uri", "html", "ui"}; checks its MIME type."""
        contents = self.read_resource(uri).get("contents") or []
        c = next((c for c in contents if isinstance(c, dict) and c.get("uri") == uri),
                 contents[0] if len(contents) == 1 else None)
        if not isinstance(c, dict) or c.get("mimeType") != APP_MIME:
            raise MalformedResult("resources/read", ["%s is not a view (no contents served "
                                                     "as %s)" % (_short(uri, 80), APP_MIME)])
        try:
            html = c["text"] if isinstance(c.get("text"), str) else \
                _unb64(c.get("blob") or "").decode("utf-8", "replace")
        except ValueError:
            raise MalformedResult("resources/read", ["the blob of view %s is not base64"
                                                     % _short(uri, 80)])
        meta = c.get("_meta")
        return {"uri": uri, "html": html,
                "ui": meta.get("ui") or {} if isinstance(meta, dict) else {}}


###############################################################################
# Tool search: two tools in front of many #####################################
###############################################################################
#
# Hosts hold few tools: Cursor degrades past about forty, Copilot refuses more than 128,
# and each listed schema costs the model's context. With tool_search (--tool-search)
# tools/list lists two tools instead of the catalog: search_tools ranks every tool the
# client may call by what it is for (BM25 over names, titles, descriptions and
# parameters), and call_tool calls one by name as a direct call of it (its validation,
# middleware, progress, questions, cancellation and tasks). Pinned tools, and tools with
# a view for a client that shows views, stay listed. Listing is discovery, not access:
# every tool stays callable by its own name.

TOOL_SEARCH_KEY = "io.github.mcp-stdio/tool-search"
# What search_tools answers unless asked for fewer, and the most it answers: a page of
# tools a model reads, not the catalog again.
_SEARCH_LIMIT, _SEARCH_MOST = 5, 20
# BM25's usual constants: how soon a word's repeats stop counting, and how much a long
# text is discounted.
_BM25_K1, _BM25_B = 1.2, 0.75
# How much each field of a tool counts: its name and title say most what it does.
_SEARCH_FIELDS = (("name", 3), ("title", 2), ("description", 1), ("parameters", 1))
# A word a query shares with more than this share of the tools tells them apart little:
# it is left out when the query has others (a search stays quick on a large catalog).
_COMMON_SHARE = 0.5


def _search_words(text):
    """The words of text as search compares them: split at what is not a letter or digit
    and where the case changes (readFile: read, file), lowercased, plurals and -ing and
    -ed forms folded (files, filing, filed: file)."""
    out = []
    for part in _pattern(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+").findall(text or ""):
        w = part.lower()
        if len(w) > 4 and w.endswith("ies"):
            w = w[:-3] + "y"
        elif len(w) > 5 and w.endswith("ing"):
            w = w[:-3]
        elif len(w) > 4 and w.endswith("ed"):
            w = w[:-2]
        elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
            w = w[:-1]
        out.append(w)
    return out


def _tool_text(tool):
    """(field, text) of what a tool is for: its name, title, description, parameters."""
    params = []
    for name, schema in ((tool.input_schema or {}).get("properties") or {}).items():
        params.append(name)
        if isinstance(schema, dict) and isinstance(schema.get("description"), str):
            params.append(schema["description"])
    return (("name", tool.name), ("title", tool.title or ""),
            ("description", tool.description or ""), ("parameters", " ".join(params)))


class _SearchIndex:
    """BM25 over the tools of one catalog, built for it at its first search."""

    _terms = None       # tool -> ({word: its weighted count}, length), by the tool itself

    def __init__(self, tools):
        import math
        import weakref
        if _SearchIndex._terms is None:
            _SearchIndex._terms = weakref.WeakKeyDictionary()
        cache = _SearchIndex._terms
        weights = dict(_SEARCH_FIELDS)
        self.names, docs, total = [], [], 0
        for tool in tools:
            known = cache.get(tool)
            if known is None:
                counts = {}
                for field, text in _tool_text(tool):
                    for w in _search_words(text):
                        counts[w] = counts.get(w, 0) + weights[field]
                known = cache[tool] = (counts, sum(counts.values()))
            self.names.append(tool.name)
            docs.append(known)
            total += known[1]
        n, average = len(docs), (total / len(docs)) if docs else 1.0
        postings = {}
        for i, (counts, length) in enumerate(docs):
            norm = _BM25_K1 * (1 - _BM25_B + _BM25_B * length / average)
            for w, tf in counts.items():
                postings.setdefault(w, {})[i] = tf * (_BM25_K1 + 1) / (tf + norm)
        self.postings = {w: (math.log(1 + (n - len(p) + 0.5) / (len(p) + 0.5)), p)
                         for w, p in postings.items()}
        self.common = _COMMON_SHARE * n

    def ranked(self, query):
        """The names of the tools query matches, the best first."""
        terms = [self.postings[w] for w in dict.fromkeys(_search_words(query))
                 if w in self.postings]
        rare = [t for t in terms if len(t[1]) <= self.common]
        scores = {}
        for idf, posting in rare or terms:
            get = scores.get
            for i, weight in posting.items():
                scores[i] = get(i, 0.0) + idf * weight
        return [self.names[i] for i in sorted(scores, key=lambda i: (-scores[i], i))]


_SEARCH_MADE = {}      # "indexes" and "tools": weak maps, made at the first search


def _made(what):
    """The weak map of what tool search made: each catalog's index, each server's tools."""
    made = _SEARCH_MADE.get(what)
    if made is None:
        import weakref
        made = _SEARCH_MADE[what] = weakref.WeakKeyDictionary()
    return made


def _index_of(catalog):
    """The search index of a catalog (its tools after the grants, but the search tools),
    made once for it: a live catalog's change makes a new catalog, and a new index."""
    indexes = _made("indexes")
    index = indexes.get(catalog)
    if index is None:
        index = indexes[catalog] = _SearchIndex(
            t for t in catalog.tools.values() if t.forwards is None and
            t.work is not _search_work)
    return index


def _search_work(call, ctx):
    """search_tools: the tools the query finds, best first, as tools/list shows them to
    this client in its era (its rules of what it may see applied)."""
    conn, args = call.conn, call.arguments
    sources = conn.server.sources
    for source in sources:          # as tools/list does: what a starting mount adds counts
        source.wait()
    catalog = conn.server.catalog
    limit = args.get("limit", _SEARCH_LIMIT)
    audience = _audience(conn.server, call) - {TOOL_SEARCH_KEY}
    found = []
    for name in _index_of(catalog).ranked(args["query"]):
        tool = catalog.tools.get(name)
        if tool is None or getattr(tool, "visibility", None) == ("app",) or any(
                hides(conn, call, tool) for hides in _HIDE_HOOKS):
            continue
        listed = tool.describe(call.revision, audience) if audience else \
            tool.describe(call.revision)
        if listed is not None:
            found.append(listed)
            if len(found) == limit:
                break
    value = {"tools": found}
    absent = [source.prefix for source in sources if source.absent()]
    if absent:                      # their tools could not be searched: said, not hidden
        value["unavailable"] = absent
    return _tool_answer(call, None, ToolResult([{"type": "text", "text": _encoder.encode(
        value)}], structured=value))


def _search_tools(server):
    """(search_tools, call_tool and call_tool as a task) of a server, made once for it."""
    made = _made("tools").get(server)
    search, calls = server.tool_search_names
    if made is None or made[0].name != search or made[1].name != calls:
        found = Tool(search, lambda a, c: None, description=(
            "Find the tools that can do something: describe the task in words (what it "
            "should do, on what); the best matches come first, each with its input schema. "
            "Call one with %s." % calls), input_schema={
                "type": "object", "properties": {
                    "query": {"type": "string", "minLength": 1,
                              "description": "What the tool should do, in words."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": _SEARCH_MOST,
                              "default": _SEARCH_LIMIT,
                              "description": "How many tools to return at most."}},
                "required": ["query"], "additionalProperties": False},
            annotations={"readOnlyHint": True, "openWorldHint": False}, pinned=True)
        found.work = _search_work
        forward = Tool(calls, lambda a, c: None, description=(
            "Call a tool that %s found, by its name, with its arguments (an object that "
            "follows the tool's input schema)." % search), input_schema={
                "type": "object", "properties": {
                    "name": {"type": "string", "description": "The tool's name."},
                    "arguments": {"type": "object",
                                  "description": "The tool's arguments."}},
                "required": ["name"], "additionalProperties": False}, pinned=True)
        forward.forwards = lambda args: _forwarding(args, search)
        made = _made("tools")[server] = (found, forward, _copied(forward, task="optional"))
    return made


def _forwarding(args, search):
    """(name, arguments) call_tool's arguments name: any tool search_tools may find."""
    name = args["name"]
    if name == search:
        raise _Unknown(INVALID_PARAMS, "Unknown tool: %s" % _short(name, 80))
    return name, args.get("arguments") or {}


def _search_grants(server, tables):
    """With tool search, the catalog holds its two tools (call_tool may be a task where a
    tool it can call may), and the tools the pin option names are pinned."""
    if not server.tool_search:
        return
    tools = tables["tools"]
    pin = _matcher(server.pin) if server.pin else None
    if pin is not None:
        for name, tool in list(tools.items()):
            if not tool.pinned and pin(name):
                tools[name] = _pinned(tool)
    search, forward, as_task = _search_tools(server)
    tasks = _any_other(tools.values(), "task", "forbidden")
    tools[search.name], tools[forward.name] = search, as_task if tasks else forward
    tables["tools"] = dict(sorted(tools.items()))


def _pinned(tool):
    """The same tool, pinned (one copy per tool: catalogs compare entries by identity)."""
    copy = tool.__dict__.get("_pinned_copy")
    if copy is None or copy.name != tool.name:
        copy = tool._pinned_copy = _copied(tool, pinned=True)
    return copy


def _search_checks(server):
    """Serving refuses a catalog that has tools of the search tools' own names."""
    if server.tool_search:
        names = server.tool_search_names
        if len(names) != 2 or names[0] == names[1]:
            raise CatalogError("tool search: tool_search_names must name two tools, the "
                               "search and the call, not %r" % (names,))
        for name in names:
            _check_tool_name(name)
            if name in server.tools:
                raise CatalogError("tool search: the catalog has a tool %r of its own; rename "
                                   "it, or give the search tools other names "
                                   "(--tool-search-names)" % name)


def _search_taken(server, call):
    return server.tool_search


def _search_listing(entry, revision, d, audience):
    """With tool search, a tool is listed only when pinned, or when it has a view and the
    client shows views (a host shows a view by the listed tool: MCP Apps' listing, which
    comes first, linked it)."""
    if TOOL_SEARCH_KEY not in audience or not isinstance(entry, Tool) or entry.pinned:
        return d
    ui = (d.get("_meta") or {}).get("ui")
    return d if isinstance(ui, dict) and ui.get("resourceUri") else None


###############################################################################
# Extensions: what each adds to the engine ####################################
###############################################################################
#
# An extension is a section of its own and one row here. To add one:
#   1. write its section above this one: its functions, and the classes of what it
#      adds to Server, Client and a handler's Context, if any, named as bases of
#      those classes (an editor then completes what it adds);
#   2. add its row to _EXTENSIONS, _Extension(KEY, ...): KEY is its identifier, and
#      every other field is optional: give the hooks it needs (listed with
#      _Extension, in the Extension points section, whose tables the rows fill);
#   3. a call it takes over (admit returns what takes it) gets a keeper, an object
#      of its own in call.keeper that the engine asks what _Extension says.
# The engine calls the hooks and never names an extension. A feature core in one
# revision and an extension in the next (tasks) is one row whose hooks ask the
# revision table. A test adds a small extension this way (ExtensionContract).


_EXTENSIONS = (
    _Extension(APPS_KEY, declare=_declare_apps, lists=_apps_listing, takes=_apps_taken,
               hides=_apps_hidden, offers=_apps_offers, grants=_apps_grants,
               checks=_apps_checks, marks=_apps_marks, tool_fields=_APP_TOOL_FIELDS,
               tool_check=_check_tool_view, inspects={"mimeTypes": [APP_MIME]}),
    _Extension(TOOL_SEARCH_KEY, grants=_search_grants, checks=_search_checks,
               takes=_search_taken, lists=_search_listing),
    _Extension(SKILLS_KEY, declare=_declare_skills, serves=_serves_skills, shapes=_skill_shapes,
               refresh=_refresh_skills, warns=_refused_skills, kinds=(
        _Kind("skills", Skill, "skill", "uri", "skills/list", "skills", "grant_resources",
              "notifications/resources/list_changed", "resourcesListChanged", "skills",
              extension=SKILLS_KEY, shown=_shown_skill),), routes={
        "skills/get": _Route(_get_skill, None, "skills"),
        "resources/directory/read": _Route(_read_directory, None, "skills")}),
    _Extension(TASKS_KEY, connect=_tasks_connect, close=_tasks_close, declare=_declare_tasks,
               admit=_tasks_admit, listen=_tasks_listen, offer=_offer_task,
               follow=_follow_task, marks=_task_marks, lists=_task_listing,
               hides=_task_hidden, offers=_task_offers,
               shapes=_task_shapes, routes={
                   "tasks/get": _Route(_tasks_get, "tasks", "tasks"),
                   "tasks/cancel": _Route(_tasks_cancel, "tasks", "tasks"),
                   "tasks/update": _Route(_tasks_update, "tasks_extension", "tasks"),
                   "tasks/result": _Route(_tasks_result, "tasks_core", "tasks"),
                   "tasks/list": _Route(_tasks_list, "tasks_core", "tasks")}),
)
for _row in _EXTENSIONS:
    _extend(_row)
    _ROUTES.update(_row.routes)
del _row
_EXTENSION_KINDS = tuple(k for r in _EXTENSIONS for k in r.kinds)
_ROUTES.update((k.list_method, _list_route(k)) for k in _EXTENSION_KINDS)
_FILTER_OF.update((k.changed, k.flag) for k in _EXTENSION_KINDS)
_EXTENSION_OF = {r.key: r for r in _EXTENSIONS}
_TOOL_FIELDS.update((k, v) for r in _EXTENSIONS for k, v in r.tool_fields.items())
for _f in _TASK_FIELDS.values():
    _f.update((k, v) for r in _EXTENSIONS for k, v in r.tool_fields.items())
del _f


# An extension's tool fields default to the class's, as a tool's own do (Tool).
for _k, _v in _TOOL_FIELDS.items():
    if not hasattr(Tool, _k):
        setattr(Tool, _k, _v)
del _k, _v
_share_keys(Tool)         # now that every field a tool takes is known
_share_keys(_DescribedTool)


###############################################################################
# Stdio runtime ###############################################################
###############################################################################
#
# A shell around Connection that owns threads, locks and waiting: one thread
# at a time reads stdin and writes the immediate answers; calls run on a
# bounded set of daemon threads; a watchdog thread expires calls past their
# deadline. stdout belongs to the protocol: fd 1 and sys.stdout point at
# stderr while serving, so a print() or a child process cannot corrupt it.

# What close() gives the server to exit once its stdin is closed, and what is left of its
# group after that to end on SIGTERM: a server finishing its last answer is quick; one
# that is not must not keep the caller (a command, a proxy's own exit) waiting.
_CLOSE_GRACE = 2.0


class Context(_AppsContext, _TasksContext):     # what extensions add (renders_apps, ...)
    """What a handler knows about its request, and how it reports while it runs.

    Attributes: request_id, method, era ("legacy" or "modern"), revision,
    client_capabilities, client_info, deadline (a time.monotonic() value or
    None), progress_token. cancelled is a threading.Event set on cancellation
    or timeout. The runtime makes one for each call; handlers receive it.
    """

    __slots__ = ("_call", "_event", "_waiting", "_hooks", "__weakref__")

    def __init__(self, call: Any) -> None:
        self._call = call
        self._event = None          # _waiting and _hooks are set when first needed

    if TYPE_CHECKING:      # the types of the properties below, as a type checker reads them
        request_id: str | int
        method: str
        era: str
        revision: str
        client_capabilities: Dict[str, Any]
        client_info: Dict[str, Any] | None
        deadline: float | None
        progress_token: str | int | None
        trace: Dict[str, str]
        is_cancelled: bool
        is_task: bool
        input_responses: Dict[str, Any]

    request_id = property(lambda self: self._call.id, doc="The JSON-RPC id of the request.")
    method = property(lambda self: self._call.method, doc="The request's method.")
    era = property(lambda self: self._call.era, doc='"legacy" or "modern".')
    revision = property(lambda self: self._call.revision, doc="The protocol revision in use.")
    client_capabilities = property(lambda self: self._call.client_capabilities,
                                   doc="The capabilities the client declared.")
    client_info = property(lambda self: self._call.client_info,
                           doc="The client's name and version, as it sent them (or None).")
    deadline = property(lambda self: self._call.deadline,
                        doc="When the call times out (time.monotonic() seconds), or None.")
    progress_token = property(lambda self: self._call.progress_token,
                              doc="The client's progress token, or None.")
    trace = property(lambda self: _trace_context(self._call.meta),
                     doc="The request's valid W3C trace context: {\"traceparent\", "
                         "\"tracestate\", \"baggage\"}, each when present and well formed.")
    is_cancelled = property(lambda self: self._call.cancelled,
                            doc="True once the request was cancelled or timed out.")
    is_task = property(lambda self: self._call.keeper is not None,
                       doc="True when the call runs as a task (its outcome is kept, polled).")
    input_responses = property(lambda self: self._call.answers or {},
                               doc="The answers a modern client's retry carries, by key "
                                   "(inputResponses), or {}.")

    @property
    def cancelled(self):
        """A threading.Event that is set when the request is cancelled or times out."""
        if self._event is None:
            ev = threading.Event()
            self._event = ev
            self._call.on_cancel = self._wake
            if self._call.cancelled:    # checked after publishing: a cancel may have run meanwhile
                ev.set()
        return self._event

    def _wake(self):
        for ev in (self._event, getattr(self, "_waiting", None)):
            if ev is not None:
                ev.set()
        for hook in getattr(self, "_hooks", None) or ():
            try:
                hook()
            except Exception:   # noqa: BLE001 - runs on the watchdog's or reader's thread
                pass

    def when_cancelled(self, hook: Callable[..., Any]) -> Any:
        """Run hook() (from another thread) when the request is cancelled or times out."""
        if getattr(self, "_hooks", None) is None:
            self._hooks = []
        self._hooks.append(hook)
        self._call.on_cancel = self._wake
        if self._call.cancelled:
            hook()

    @property
    def state(self):
        """What this serve's lifespan setup made, or None."""
        return self._call.conn.state

    def serving(self, state: Any) -> Any:
        """This call's Context as a handler of a Server object mounted in this process sees
        it: its state is that server's serve's (state); the rest is this call's."""
        return _Served(self._call, state)

    def read_resource(self, uri: str) -> Any:
        """Return what resources/read of uri would (a dict with "contents"), without a round trip.

        The same handlers, templates and grants apply; raises ResourceNotFound.
        """
        return _read_for(self._call.conn, self._call, uri, self)

    def propagate(self, traceparent: str | None = None, tracestate: str | None = None,
                  baggage: str | None = None) -> Any:
        """Carry this trace context, not the request's, on the requests sent for this call.

        Each value must be well formed (W3C Trace Context and Baggage), or ValueError;
        propagate() with none carries none.
        """
        trace = {k: v for k, v in (("traceparent", traceparent), ("tracestate", tracestate),
                                   ("baggage", baggage)) if v is not None}
        checked = _trace_context(trace)
        if tracestate is not None and traceparent is None:
            raise ValueError("a tracestate needs its traceparent")
        bad = sorted(set(trace) - set(checked))
        if bad:
            raise ValueError("not a well-formed %s: %r" % (bad[0], trace[bad[0]]))
        self._call.trace = checked

    def sleep(self, seconds: float) -> bool:
        """Sleep up to seconds; return True early if the request is cancelled meanwhile."""
        return self.cancelled.wait(seconds)

    def progress(self, progress: float, total: float | None = None,
                 message: str | None = None) -> bool:
        """Send notifications/progress when the client asked for it (a progressToken).

        Values must increase; a value that does not is dropped. Nothing is sent
        after the response or a cancellation.
        """
        return self._call.conn.progress(self._call, progress, total, message)

    def log(self, level: str, message: str, data: Any = None) -> bool:
        """Log for the client when it asked for logs at this level, else one line on stderr."""
        if self._call.conn.log(self._call, level, message, data):
            return True
        _log_line("%s: %s: %s" % (self._call.conn.server.name, level, message))
        return False

    def ask(self, *questions: Any, **named: Any) -> Any:
        """Ask the client several questions at once; return {key: answer}.

        Questions are Form, OpenURL, Sample and Roots objects, given as
        keywords (ctx.ask(name=Form(...), greeting=Sample(...))) or as one dict
        when a key is not a Python name. Answers are ElicitResult (Form,
        OpenURL), SampleResult (Sample) and a list of root dicts (Roots).

        Modern clients get every unanswered question in one InputRequiredResult
        and retry the request with the answers: the handler then runs again
        from the start, so everything before ask() must be safe to repeat.
        Legacy clients get one request per question, all sent at once, and
        the handler waits for every answer (elicit_timeout seconds at most).
        A client that cannot be asked gets -32021 naming the capabilities
        (modern) or a ToolError (legacy: there is no way to ask).
        """
        questions = _questions(questions, named)
        call = self._call
        if call.settled:
            raise ToolError("The request is no longer in flight.")
        return _ERA_RULES[call.era].ask(self, call, questions)

    def _ask_by_requests(self, call, questions):
        """Ask with server-to-client requests, all at once, and wait for every answer."""
        conn = call.conn
        done = self._waiting = threading.Event()
        left, count = [len(questions)], threading.Lock()

        def answered():
            with count:
                left[0] -= 1
                if not left[0]:
                    done.set()
        call.on_cancel = self._wake
        pending = conn.outgoing.ask(call, questions, answered)
        limit = conn.server.elicit_timeout
        if call.deadline is not None:
            limit = min(limit, max(0.0, call.deadline - _monotonic()))
        done.wait(limit)                # a cancellation wakes it too
        self._waiting = None
        if call.cancelled:
            conn.outgoing.forget(pending)
            raise ToolError("The request was cancelled while waiting for the client.")
        if not done.is_set():
            conn.outgoing.forget(pending)
            raise ToolError("The client did not answer within %g seconds." % limit)
        return conn.outgoing.answers(pending, questions)

    def _ask_one(self, question, key):
        if key is None:
            asked = self._call.asked
            key = "%s-%d" % (question.prefix, 1 + (len(asked) if asked else 0))
        return self.ask({key: question})[key]

    def elicit(self, message: str, schema: Dict[str, Any], *, key: str | None = None) -> Any:
        """Ask the user to fill a form (a flat object schema of primitives); return an ElicitResult.

        One question: see ask() for how it travels in each era. key names the
        question (default "elicit-N", N counting the questions of the request).
        """
        return self._ask_one(Form(message, schema), key)

    def elicit_url(self, message: str, url: str, *, key: str | None = None) -> Any:
        """Ask the user to open url; return an ElicitResult ("accept": they agreed to open it)."""
        return self._ask_one(OpenURL(message, url), key)

    def sample(self, messages: Any, *, max_tokens: int = 1000, key: str | None = None,
               **options: Any) -> Any:
        """Ask the client's model for a message (a prompt or SamplingMessages); return a SampleResult."""
        return self._ask_one(Sample(messages, max_tokens, **options), key)

    def roots(self, *, key: str | None = None) -> List[_JSON]:
        """Ask for the client's roots; return a list of {"uri", "name"?} dicts."""
        return self._ask_one(Roots(), key)

    def can(self, capability: Any) -> bool:
        """True when the client declared capability ("sampling", "roots", "elicitation.url", ...)."""
        call = self._call
        return _missing_capabilities([capability], call.client_capabilities or {},
                                     call.revision) is None

    def require(self, *capabilities: Any) -> Any:
        """Fail the request unless the client declared every capability named.

        Modern clients get -32021 with data.requiredCapabilities; legacy ones a
        ToolError (an isError result for a tool) naming what is missing.
        """
        call = self._call
        missing = _missing_capabilities(capabilities, call.client_capabilities or {},
                                        call.revision)
        if missing is not None:
            _ERA_RULES[call.era].refuse(call, missing)

    def elicitation_complete(self, question: Any) -> Any:
        """Tell a 2025-11-25 client the interaction at an OpenURL question's URL has finished.

        Returns True if sent: other revisions have no such notification.
        """
        call = self._call
        eid = getattr(question, "elicitation_id", question)
        if not _has(call.revision, "elicitation_id") or not isinstance(eid, str):
            return False
        return call.conn.notify(call, "notifications/elicitation/complete", {"elicitationId": eid})


class _Served(Context):
    """The Context of a mounted Server object's handler: its own serve's state."""

    __slots__ = ("_state",)

    def __init__(self, call, state):
        Context.__init__(self, call)
        self._state = state

    state = property(lambda self: self._state, doc="What its serve's lifespan setup made.")


# Teardown on a signal gets what is left of this many seconds after the line.
_SIGNAL_SECONDS = 1.8


class _Writer:
    """Writes whole lines to the protocol fd, one writer at a time.

    Lines written by the leading thread are gathered and flushed in one system
    call before it blocks on input; every other thread writes at once. Once
    closed, nothing more is written, but a write under way is finished.
    """

    def __init__(self, fd):
        self.fd = fd
        self.lock = threading.Lock()
        self.owner = None
        self.buf = []
        self.closed = False
        self._ident = threading.get_ident

    def write(self, data):
        with self.lock:
            if self.closed:
                return
            if self.owner == self._ident():
                self.buf.append(data)
                if len(self.buf) < 256:
                    return
                data = b"".join(self.buf)
                self.buf = []
            elif self.buf:
                data = b"".join(self.buf) + data
                self.buf = []
            self._write(data)

    def flush(self, owner=None):
        """Write what is gathered; then gather for owner (a thread ident) or nobody."""
        with self.lock:
            if self.buf and not self.closed:
                data = b"".join(self.buf)
                self.buf = []
                self._write(data)
            self.owner = owner

    def close(self, timeout):
        """Start no other write; wait up to timeout seconds for the one under way."""
        self.closed = True           # read under the lock by every writer that comes next
        if self.lock.acquire(timeout=timeout):
            self.lock.release()
            return True
        return False

    def _write(self, data):
        try:
            n = os.write(self.fd, data)
            if n < len(data):
                view = memoryview(data)[n:]
                while view:
                    view = view[os.write(self.fd, view):]
        except OSError:
            self.closed = True
            _diag("stdout was closed by the client; exiting")
            _teardown(_SIGNAL_SECONDS)
            _exit(1)


class _Runtime:
    """Serves one Connection on stdio with leader/follower threads.

    One thread at a time leads: it reads stdin, feeds the Connection, writes the
    immediate answers and runs each call itself, so a quick call costs no
    thread hand-off. When a call is still running after STALL seconds, the
    watchdog hands the lead to a new thread and the old one finishes the call as
    a worker. At most server.workers handlers run at once (the leader's
    included); further calls wait in a backlog of server.backlog, and beyond
    that they get a "busy" answer. The watchdog also expires calls past their
    deadline: a handler that ignores its timeout keeps its thread (Python cannot
    stop a thread) but no longer counts against server.workers; past
    STUCK_PER_WORKER such stuck threads per worker, new calls are refused as
    busy until one returns.
    """

    # A call still running after this long hands the lead on: short enough that
    # ping and cancellations wait at most about 10 ms, long enough that most
    # calls finish on the reading thread without a thread hand-off.
    STALL = 0.01
    # A handler that honours cancellation returns within this long after its
    # timeout (even on a loaded machine); only one still running then has its
    # thread counted as stuck.
    RETURN_GRACE = 0.25
    # Threads stuck in handlers that ignore their timeout, per worker, before new
    # calls are refused: room for a few bad calls, a bound on the threads (and
    # their memory) a handler that never returns can pin.
    STUCK_PER_WORKER = 4

    def __init__(self, server, in_fd, out_fd):
        import collections     # imported before serving: failure paths must not import
        self.server = server
        self.in_fd = in_fd
        self.writer = _Writer(out_fd)
        self.conn = self.lifespan = None           # open() makes them
        self.items = collections.deque()
        self.backlog = collections.deque()
        self.left = collections.deque()        # calls answered later (see _leave)
        self.left_prune_at = 64
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)      # the watchdog waits here
        self.idle = threading.Condition(self.lock)      # notified when no worker is busy
        self.finished = threading.Event()
        self.generation = 0      # bumped at each hand-over of the lead
        self.inline = None       # (call, start) the leader is running, or None
        self.inline_count = 0
        self.workers = 0         # threads running calls after losing the lead
        self.active = set()      # the calls those threads are running
        self.abandoned = set()   # calls that timed out while their handler ran on
        self.stuck = 0           # threads still inside such handlers
        # (deadline, seq, call), sorted: a plain list, whose new entry usually goes
        # at the end; sorting a sorted list with one entry out of place is linear.
        self.deadlines = []
        self.prune_at = 64       # the length at which deadlines drop settled calls
        self.releases = collections.deque()    # (when, call): timed out, check it returned
        self.seq = 0
        self.parked = True       # the watchdog is not polling (or not started)
        self.watching = False
        self.exit_code = 0
        self._thread = threading.Thread
        self._now = _monotonic

    def open(self, lifespan):
        """Make the connection of this serve, whose handlers see lifespan.state."""
        self.lifespan = lifespan
        self.conn = self.server.connection(self.writer.write, lock=threading.Lock(),
                                           schedule=self._soon, lifespan=lifespan)

    def start(self):
        self._thread(target=self._lead, args=(0,), name="mcp-leader", daemon=True).start()

    # Change notifications wait this long for more changes to join them: a burst
    # of catalog edits reaches the client as one notification per list.
    COALESCE = 0.005

    def _soon(self, fn):
        timer = threading.Timer(self.COALESCE, fn)
        timer.daemon = True
        timer.start()

    def stop(self, line_timeout):
        """Stop at once (a signal): finish the line being written, start no other."""
        if not self.writer.close(line_timeout):
            _diag("stdout was not read for %g s; the last line was cut" % line_timeout)

    # -- the leader ------------------------------------------------------------
    def _lead(self, generation):
        items, conn, writer = self.items, self.conn, self.writer
        me = threading.get_ident()
        writer.flush(me)
        read, fd, now = os.read, self.in_fd, self._now
        limit = self.server.workers
        while True:
            if not items:
                writer.flush(me)
                try:
                    data = read(fd, 1 << 16)
                except OSError as e:
                    _diag("cannot read stdin (%s); exiting" % (e.strerror or e))
                    writer.flush()
                    self._shutdown(1)
                    return
                if not data:
                    writer.flush()
                    self._shutdown(0)
                    return
                try:
                    items.extend(conn.feed(data))
                except BaseException as e:   # noqa: B902 - the reading thread must go on
                    _report("the reading loop survived %s" % type(e).__name__,
                            _format_traceback(e))
                continue
            item = items.popleft()
            if type(item) is bytes:
                writer.write(item)
                continue
            if (self.workers >= limit or self.stuck) and not self._admit(item):
                continue
            self.inline = (item, now())
            self.inline_count += 1
            if self.parked:
                self._wake_watchdog()
            try:                       # _run(), inlined: this is the per-message path
                conn.run(item)
            except BaseException as e:   # noqa: B902 - the reading thread must go on
                _report("a call's answer failed: %s" % type(e).__name__, _format_traceback(e))
            with self.lock:
                if self.generation != generation:      # the lead moved on while this ran
                    if not self._finished(item):
                        return
                    if not item.settled:
                        self._leave(item)
                    break
                self.inline = None
                if not item.settled:       # left to what it waits for (a mount's answer)
                    self._leave(item)
        self._work()

    def _leave(self, call):
        """Keep a call answered later, not by a thread of ours: for its deadline, and for
        the end of input, which waits for it like for a running call (lock held)."""
        left = self.left
        while left and left[0].settled:
            left.popleft()
        if len(left) >= self.left_prune_at:     # behind a long call, as for deadlines
            kept = [c for c in left if not c.settled]
            left.clear()
            left.extend(kept)
            self.left_prune_at = max(64, 2 * len(left))
        left.append(call)
        # Not woken: the leader's call just now keeps the watchdog polling.
        self._add_deadline(call, wake=False)

    def _run(self, call):
        try:
            self.conn.run(call)
        except BaseException as e:   # noqa: B902 - no exception may end a counted thread
            _report("a call's answer failed: %s" % type(e).__name__, _format_traceback(e))

    def _finished(self, call):
        """Note that a worker's call returned (lock held); False when its thread is spare."""
        if call in self.abandoned:        # timed out earlier: its slot was given back then
            self.abandoned.discard(call)
            self.stuck -= 1
            return False
        self.active.discard(call)
        return True

    def _admit(self, call):
        """Return True when the leader may run call now; else queue it or refuse it."""
        with self.lock:
            if self.stuck >= self.server.workers * self.STUCK_PER_WORKER:
                message = ("The server is busy: %d calls are stuck in handlers that ignored "
                           "their timeout; try again later." % self.stuck)
            elif self.workers < self.server.workers:
                return True
            elif call.keeper is not None:      # a task's work: --max-tasks bounds these, and
                self.backlog.append(call)    # its timeout counts from its start (_work)
                return False
            else:
                if len(self.backlog) >= self.server.backlog:   # cancelled calls free their slot
                    self.backlog = type(self.backlog)(c for c in self.backlog if not c.settled)
                if sum(1 for c in self.backlog if c.keeper is None) < self.server.backlog:
                    self.backlog.append(call)
                    self._add_deadline(call)
                    return False
                message = ("The server is busy (%d calls running, %d waiting); try again "
                           "shortly." % (self.workers, len(self.backlog)))
        self.conn.reject(call, message)
        return False

    def _work(self):
        """Run queued calls after losing the lead; end the thread when none is left."""
        while True:
            with self.lock:
                while self.backlog and self.backlog[0].settled:
                    self.backlog.popleft()
                if not self.backlog:
                    self.workers -= 1
                    if self.workers == 0:
                        self.idle.notify_all()
                    return
                call = self.backlog.popleft()
                self.active.add(call)
                if call.keeper is not None and call.timeout is not None:
                    call.deadline = self._now() + call.timeout
                    self._add_deadline(call)
            self._run(call)
            with self.lock:
                if not self._finished(call):
                    return
                if not call.settled:     # a worker's call may be left to a mount's answer too
                    self._leave(call)

    def _shutdown(self, status):
        partial = self.conn.splitter.pending()
        for line in self.conn.close():       # end open subscription streams gracefully
            self.writer.write(line)
        end = self._now() + self.server.grace
        with self.lock:
            done = self.idle.wait_for(lambda: self.workers == 0 and not self.backlog,
                                      self.server.grace)
            # Calls left to be answered later say nothing when answered: polled.
            while done and any(not c.settled for c in self.left):
                if self._now() >= end:
                    done = False
                else:
                    self.idle.wait(0.01)
            running = self.workers + len(self.backlog) + sum(
                1 for c in self.left if not c.settled)
        if not done:
            _diag("abandoning %d call(s) still running after the %g s grace period"
                  % (running, self.server.grace))
        if partial:
            _diag("input ended inside a message without a final LF; it was not executed")
        self.exit_code = 1 if partial or status else 0
        self.finished.set()

    # -- the watchdog ------------------------------------------------------------
    def _add_deadline(self, call, wake=True):
        # Called with self.lock held.
        if call.timeout is not None:
            deadlines = self.deadlines
            if len(deadlines) >= self.prune_at:
                # The watchdog drops settled calls from the front only: behind one long
                # call they would pile up (and each sort would cost more).
                deadlines[:] = [e for e in deadlines if not e[2].settled]
                self.prune_at = max(64, 2 * len(deadlines))
            self.seq += 1
            entry = (call.deadline, self.seq, call)
            deadlines.append(entry)
            if len(deadlines) > 1 and deadlines[-2] > entry:
                deadlines.sort()
            if wake and deadlines[0] is entry:
                self.wake.notify()       # the watchdog may sleep until a later deadline

    def _wake_watchdog(self):
        with self.lock:
            if not self.watching:
                self.watching = True
                self._thread(target=self._watch, name="mcp-watchdog", daemon=True).start()
            self.parked = False
            self.wake.notify()

    def _watch(self):
        now, deadlines, stall = self._now, self.deadlines, self.STALL
        releases = self.releases
        quiet = 0
        seen = -1
        while True:
            expired, released, promoted = [], [], None
            with self.lock:
                while True:
                    t = now()
                    inline = self.inline
                    if inline is not None and t - inline[1] >= stall:
                        self.generation += 1
                        self.inline = None
                        promoted = self.generation
                        call = inline[0]
                        if call.settled:             # it timed out on the leader already
                            self.abandoned.add(call)
                            self.stuck += 1
                        else:
                            self.workers += 1
                            self.active.add(call)
                            self._add_deadline(call)
                    while deadlines and (deadlines[0][2].settled or deadlines[0][0] <= t):
                        call = deadlines.pop(0)[2]
                        if not call.settled:
                            expired.append(call)
                    while releases and releases[0][0] <= t:
                        released.append(releases.popleft()[1])
                    if expired or released or promoted is not None:
                        break
                    if self.inline is not None or self.inline_count != seen:
                        seen = self.inline_count
                        quiet = 0
                        timeout = stall / 2
                    elif quiet < 100:
                        quiet += 1
                        timeout = stall / 2
                    else:
                        self.parked = True
                        if self.inline_count != seen:   # a call began as we parked: the
                            continue                    # leader may have seen us polling
                        timeout = (deadlines[0][0] - t) if deadlines else None
                        if releases and (timeout is None or releases[0][0] - t < timeout):
                            timeout = releases[0][0] - t
                    self.wake.wait(timeout)
            if promoted is not None:
                self.writer.flush()      # the old leader's lines go out before its next ones
                self._thread(target=self._lead, args=(promoted,), name="mcp-leader",
                             daemon=True).start()
            for call in expired:
                self.conn.expire(call)
                releases.append((now() + self.RETURN_GRACE, call))
            for call in released:
                self._release(call)

    def _release(self, call):
        """Give back the worker slot of a call that timed out while its handler runs on."""
        with self.lock:
            if call not in self.active:
                return
            self.active.discard(call)
            self.abandoned.add(call)
            self.stuck += 1
            self.workers -= 1
            refused = ()
            if self.stuck >= self.server.workers * self.STUCK_PER_WORKER:
                refused, self.backlog = list(self.backlog), type(self.backlog)()
            elif self.backlog:           # its queue must not wait for a thread that may never return
                self.workers += 1
                self._thread(target=self._work, name="mcp-worker", daemon=True).start()
            idle = self.workers == 0 and not self.backlog
            stuck = self.stuck
            self._abandoning(call)
        for queued in refused:
            self.conn.reject(queued, "The server is busy: %d calls are stuck in handlers that "
                             "ignored their timeout; try again later." % stuck)
        if idle:
            with self.lock:
                self.idle.notify_all()

    def _abandoning(self, call):
        # Lock held: a shutdown that sees the new counts (and then drains stderr
        # and exits) finds this line already queued.
        _diag("%s %s timed out and its handler ignores cancellation; its thread is abandoned "
              "(%d such thread(s) now)" % (call.kind, _short(call.name, 80), self.stuck))


class _StderrPump:
    """A file that never blocks its writers: text for stderr, written by one daemon thread.

    While serving, sys.stderr and sys.stdout are this pump, so diagnostics and a
    tool's print() cannot stall the server when the client does not read stderr.
    Past `limit` bytes waiting, output is dropped and counted.
    """

    encoding = "utf-8"
    errors = "replace"

    # 1 MiB: far more than a burst of diagnostics, and a bound on what a client
    # that never reads stderr can make the process hold.
    def __init__(self, fd, limit=1 << 20):
        self.fd, self.limit = fd, limit
        self.buf, self.size, self.dropped = [], 0, 0
        self.cv = threading.Condition()
        self.busy = False
        self.thread = None

    closed = False
    name = "<stderr>"
    mode = "w"
    line_buffering = False

    def write(self, text):
        data = text.encode("utf-8", "replace") if isinstance(text, str) else bytes(text)
        if sys.is_finalizing():      # no thread can start any more: write it now, or drop it
            try:
                os.write(self.fd, data)
            except OSError:
                pass
            return len(text)
        with self.cv:
            if self.size + len(data) > self.limit:
                self.dropped += len(data)
            else:
                self.buf.append(data)
                self.size += len(data)
                if self.thread is None:
                    self.thread = threading.Thread(target=self._run, name="mcp-stderr",
                                                   daemon=True)
                    self.thread.start()
                self.cv.notify()
        return len(text)

    def writelines(self, lines):
        for line in lines:
            self.write(line)

    def flush(self):
        pass

    def close(self):
        """Ignored: a handler that closes sys.stdout must not silence diagnostics."""

    def isatty(self):
        return False

    def writable(self):
        return True

    def readable(self):
        return False

    def seekable(self):
        return False

    def fileno(self):
        return self.fd

    @property
    def buffer(self):
        """The binary side (sys.stdout.buffer): bytes written to it go through the pump."""
        return self

    def reconfigure(self, **options):
        """Accepted and ignored: the pump always writes UTF-8."""

    def drain(self, timeout):
        """Wait up to timeout seconds for what is queued to be written."""
        end = _monotonic() + timeout
        with self.cv:
            while (self.buf or self.busy) and _monotonic() < end:
                self.cv.wait(0.01)

    def _run(self):
        while True:
            with self.cv:
                while not self.buf:
                    self.cv.wait()
                data, dropped = b"".join(self.buf), self.dropped
                self.buf, self.size, self.dropped = [], 0, 0
                self.busy = True
            if dropped:
                data = ("mcp_stdio: %d bytes of stderr output were dropped because stderr "
                        "was not being read\n" % dropped).encode() + data
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(self.fd, view):]
            except OSError:
                pass
            with self.cv:
                self.busy = False
                self.cv.notify_all()


def _exit(status):
    """Leave the process at once, after a short wait for queued stderr output."""
    drain = getattr(sys.stderr, "drain", None)
    if drain is not None:
        drain(0.5)
    os._exit(status)


# On SIGTERM/SIGINT the line being written gets this long to finish (a client
# that reads its stdout never sees a cut line); with the stderr drain of _exit
# the process is gone within 2 s.
_SIGNAL_LINE_SECONDS = 1.0
_SERVING = []          # the runtime serving this process, for the signal handler


# The main thread, which alone runs signal handlers, waits for the end in slices
# this long: a SIGTERM the kernel gives to another thread does not wake it, so
# without them the handler would wait for EOF.
_SIGNAL_POLL = 0.1


def _on_signal(signum, frame):
    start = _monotonic()
    _diag("stopping on signal %d" % signum)
    lifespans = [r.lifespan for r in _SERVING if r.lifespan is not None]
    for lifespan in lifespans:       # the mounts' servers: told first, to end meanwhile
        lifespan.stopping()
    for runtime in _SERVING:
        runtime.stop(_SIGNAL_LINE_SECONDS)
    _teardown(_SIGNAL_SECONDS - (_monotonic() - start))
    for lifespan in lifespans:       # none outlives us
        lifespan.abandon()
    for runtime in _SERVING:
        if runtime.server._kept_listings is not None:
            runtime.server._kept_listings.save()
    _exit(0)


def _teardown(seconds):
    """Run the serving servers' lifespan teardown, on a thread given at most seconds."""
    def run():
        for runtime in _SERVING:
            try:
                runtime.lifespan.close()
            except BaseException as e:   # noqa: B902 - reported; the exit status stays
                _report("lifespan teardown failed: %s" % type(e).__name__, _format_traceback(e))
    if seconds is None:
        run()
        return
    t = threading.Thread(target=run, name="mcp-teardown", daemon=True)
    t.start()
    t.join(max(0.0, seconds))
    if t.is_alive():
        _diag("lifespan teardown still running after %.1f s; exiting anyway" % max(0.0, seconds))


def serve_stdio(server: Any, stdin_fd: int = 0, stdout_fd: int = 1) -> int:
    """Serve server on the stdio file descriptors until EOF; return the exit status.

    Exit status 0 after a clean EOF (calls in flight get up to server.grace
    seconds to finish), 1 when the input ended inside a line without LF, stdin
    could not be read, or stdout was closed. Its lines on stderr start with the
    server's name.
    """
    saved = _speak_as(server)
    try:
        return _serve_on(server, stdin_fd, stdout_fd)
    finally:
        _DIAG_STATE["prefix"] = saved


def _open_std_fds():
    """Point each of fd 0, 1 and 2 that is not open at the null device: a host may start us
    with stderr closed (pythonw.exe has none), and the private copies below must then not
    be given fd 2, where prints and our own stderr lines would reach the protocol stream."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            else:
                os.set_inheritable(fd, True)     # as a standard descriptor is


def _serve_on(server, stdin_fd, stdout_fd):
    # The protocol streams get private descriptors, above 2; fd 0 becomes /dev/null and
    # fd 1 stderr, so a handler, or a child process it starts, can neither read
    # the client's messages nor corrupt the answers, nor close either stream.
    _open_std_fds()
    out_fd = os.dup(stdout_fd)
    in_fd = os.dup(stdin_fd)
    if stdin_fd == 0:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
    if stdout_fd == 1:
        os.dup2(2, 1)                   # stray writes to fd 1 now land on stderr
        try:
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):
            pass
        sys.stdout = sys.stderr = _StderrPump(2)
    if os.name == "nt":
        import msvcrt
        msvcrt.setmode(in_fd, os.O_BINARY)
        msvcrt.setmode(out_fd, os.O_BINARY)
    try:
        import _signal as signal    # the C half: signal itself builds three enums on import
    except ImportError:             # an interpreter without it
        import signal
    runtime = _Runtime(server, in_fd, out_fd)
    # What exists when serving starts (modules, the catalog) lives as long as the
    # process: frozen out of the cycle collector, it is not walked again at each full
    # collection, nor by the collections of the interpreter's exit, which cost a short
    # session a tenth of its instructions. The young generations are collected first,
    # so that the recent garbage of setup is not kept.
    import gc
    gc.collect(1)
    gc.freeze()
    if threading.current_thread() is threading.main_thread():
        for sig in ("SIGTERM", "SIGINT"):
            if hasattr(signal, sig):
                signal.signal(getattr(signal, sig), _on_signal)
    if os.isatty(in_fd):
        _log_line("%s %s is an MCP server: it reads JSON-RPC messages on stdin and is meant to "
                  "be started by a client (Claude, Cursor, VS Code, ...). Try "
                  "'python mcp_stdio.py inspect -- %s', or press Ctrl-D to stop."
                  % (server.name, server.version, " ".join([os.path.basename(sys.executable)]
                                                           + sys.argv[:1])))
    try:
        runtime.open(server.enter_lifespan())
    except BaseException as e:   # noqa: B902 - a clear message, exit 1, nothing on stdout
        _report("lifespan setup failed: %s: %s" % (type(e).__name__, _short_text(e)),
                _format_traceback(e))
        _drain()
        return 1
    server._kept_listings = kept = _KeptListings.open(server)   # frozen by runtime.open()
    _SERVING.append(runtime)
    runtime.start()
    while not runtime.finished.wait(_SIGNAL_POLL):
        pass
    _teardown(None)
    if kept is not None:
        kept.save()
        server._kept_listings = None    # this serve's: a later one opens the file again
    _drain()
    return runtime.exit_code


def _drain():
    drain = getattr(sys.stderr, "drain", None)
    if drain is not None:
        drain(1.0)


###############################################################################
# Platforms: what to start, and how, on Linux, macOS and Windows ##############
###############################################################################
#
# The decisions that differ by platform, each a function of the platform's facts
# (whether it is Windows, an environment, what files exist), so that they are
# tested with Windows' and macOS's inputs on any machine; the code that starts and
# ends processes (Client) stays thin around them.


# What Windows tries for a command named without an extension when the environment has
# no PATHEXT (its default); CreateProcess alone appends only ".exe".
_PATHEXT = ".COM;.EXE;.BAT;.CMD"
# What cmd.exe reads in a command line even between quotes: a quote ends them, "%"
# expands a variable, a line break ends the command.
_CMD_UNSAFE = '"%\r\n\0'


def _env_value(env, key):
    """env's value of key, matched without case as Windows matches names (None if absent)."""
    value = env.get(key)
    if value is None:
        key = key.upper()
        value = next((v for k, v in env.items() if k.upper() == key), None)
    return value


def _find_program(program, env, windows, is_file=os.path.isfile):
    """The file a shell would run for program: a path as it is, else the first match in
    env's PATH; on Windows (windows) trying each extension of PATHEXT where program has
    none of them. None when there is none."""
    if not windows:
        import shutil
        if "/" in program:
            return program if is_file(program) and os.access(program, os.X_OK) else None
        return shutil.which(program, path=_env_value(env, "PATH") or os.defpath)
    import ntpath
    exts = [e.lower() for e in (_env_value(env, "PATHEXT") or _PATHEXT).split(";") if e]
    names = [program] if ntpath.splitext(program)[1].lower() in exts else \
        [program + e for e in exts]
    if any(c in program for c in "/\\:"):          # a path: no search
        return next((n for n in names if is_file(n)), None)
    for folder in (_env_value(env, "PATH") or "").split(";"):
        folder = folder.strip().strip('"')
        for name in names if folder else ():
            path = ntpath.join(folder, name)
            if is_file(path):
                return path
    return None


def _cmd_quoted(arg):
    """arg as one argument of a cmd.exe command line, quoted (backslashes before the
    closing quote doubled, as the program then reads them); ValueError for what
    cmd.exe would read between quotes (_CMD_UNSAFE)."""
    bad = next((c for c in arg if c in _CMD_UNSAFE), None)
    if bad is not None:
        raise ValueError("the argument %r holds %r, which cmd.exe reads even between quotes: "
                         "it cannot be passed to a .cmd or .bat file safely (start the "
                         "program the file runs instead)" % (arg[:80], bad))
    return '"%s%s"' % (arg, "\\" * (len(arg) - len(arg.rstrip("\\"))))


def _what_to_start(command, env, windows, is_file=os.path.isfile):
    """What subprocess.Popen gets for command (a list of arguments, no shell), run with
    env: on Windows, its program found as a shell finds it (_find_program), and a .cmd
    or .bat file (npx, uvx, an npm-installed CLI) run by cmd.exe with each argument
    quoted by cmd.exe's rules (a command line, a str); elsewhere the command as it is
    (Popen searches env's PATH itself). Raises ValueError for an argument a .cmd file
    cannot be given safely."""
    command = list(command)
    if not windows:
        return command
    import ntpath
    found = _find_program(command[0], env, True, is_file)
    if found is None:
        return command                  # CreateProcess's own search, and its own error
    if ntpath.splitext(found)[1].lower() not in (".cmd", ".bat"):
        return [found] + command[1:]
    shell = ntpath.join(_env_value(env, "SystemRoot") or "C:\\Windows", "System32",
                        "cmd.exe")
    # /d: no AutoRun commands; /v:off: "!" is plain; /s /c: the rest, its outer quotes off.
    return '"%s" /d /v:off /s /c "%s"' % (shell, " ".join(
        _cmd_quoted(a) for a in [found] + command[1:]))


# Windows' process creation flags: a process group of its own (a console's Ctrl-C reaches
# us, not the server, which we then end as on other systems), and no console window.
_CREATE_NEW_PROCESS_GROUP, _CREATE_NO_WINDOW = 0x00000200, 0x08000000


def _popen_options(windows):
    """The subprocess.Popen options that give a server its own process group: a session
    of its own (POSIX), or Windows' group flags."""
    if windows:
        return {"creationflags": _CREATE_NEW_PROCESS_GROUP | _CREATE_NO_WINDOW}
    return {"start_new_session": True}


# JOBOBJECT_EXTENDED_LIMIT_INFORMATION's class (9) and its "end every process when the
# job's last handle closes" flag.
_JOB_EXTENDED_LIMITS, _JOB_KILL_ON_CLOSE = 9, 0x2000


def _job_limits():
    """A JOBOBJECT_EXTENDED_LIMIT_INFORMATION (ctypes) asking for _JOB_KILL_ON_CLOSE."""
    import ctypes
    i64, u32, size = ctypes.c_int64, ctypes.c_uint32, ctypes.c_size_t

    class Basic(ctypes.Structure):
        _fields_ = [("PerProcessUserTimeLimit", i64), ("PerJobUserTimeLimit", i64),
                    ("LimitFlags", u32), ("MinimumWorkingSetSize", size),
                    ("MaximumWorkingSetSize", size), ("ActiveProcessLimit", u32),
                    ("Affinity", size), ("PriorityClass", u32), ("SchedulingClass", u32)]

    class Extended(ctypes.Structure):
        _fields_ = [("BasicLimitInformation", Basic), ("IoInfo", ctypes.c_uint64 * 6),
                    ("ProcessMemoryLimit", size), ("JobMemoryLimit", size),
                    ("PeakProcessMemoryUsed", size), ("PeakJobMemoryUsed", size)]
    limits = Extended()
    limits.BasicLimitInformation.LimitFlags = _JOB_KILL_ON_CLOSE
    return limits


def _windows_job(process_handle, kernel32):
    """A job object holding the process of process_handle, which ends it and everything it
    started when the job's last handle closes (ours: at close(), or when we exit), or
    None where none can be made (kernel32: ctypes' WinDLL of it). Never raises: the
    server then runs without, as before."""
    try:
        import ctypes
        job = kernel32.CreateJobObjectW(None, None)
        if not job:
            return None
        limits = _job_limits()
        if kernel32.SetInformationJobObject(job, _JOB_EXTENDED_LIMITS, ctypes.byref(limits),
                                            ctypes.sizeof(limits)) and \
                kernel32.AssignProcessToJobObject(job, process_handle):
            return job
        kernel32.CloseHandle(job)
    except Exception:   # noqa: BLE001 - a job is a bonus: the server runs without one
        pass
    return None


###############################################################################
# Client ######################################################################
###############################################################################
#
# A small dual-era MCP client over a subprocess's stdio, used by the inspect and
# call commands and by tests that want readable transcripts. It checks what the
# server writes and reports misbehaviour as ClientError.

MODERN_VERSION = MODERN_VERSIONS[-1]      # the revision the client offers: the latest

# How a client connects for each era= choice: (it sends initialize first, it may fall
# back to initialize when server/discover is not answered as a modern server answers).
_HANDSHAKES = {"auto": (False, True), "modern": (False, False), "legacy": (True, False)}


class PendingRequest:
    """A request in flight: wait() for its result, or cancel() it."""

    def __init__(self, client: Any, rid: int, method: str) -> None:
        self.client, self.id, self.method = client, rid, method
        # A lock held until the answer comes: waiting on it is one C call, where an Event
        # is a Condition's Python code on both sides of every request.
        self._latch = threading.Lock()
        self._latch.acquire()
        self._done = False
        self._result = self._error = None
        self.on_progress = self._on_answer = None
        self._answer_args = ()

    def _resolve(self, result=None, error=None):
        if self._done:
            return                            # the first answer stands
        self._result, self._error, self._done = result, error, True
        try:
            self._latch.release()
        except RuntimeError:                  # released already, by a racing resolve
            pass
        fn, args = self._on_answer, self._answer_args
        if fn is not None:
            self._on_answer, self._answer_args = None, ()    # they may refer to this request
            fn(*args)

    def then(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Call fn(*args) once the answer is there (at once if it is): on the thread that
        resolves the request, usually the client's reader. A race may call it twice."""
        self._answer_args = args
        self._on_answer = fn
        if self._done:
            self._on_answer, self._answer_args = None, ()    # as _resolve: no cycle left
            fn(*args)

    def answered(self, timeout: float) -> bool:
        """Wait up to timeout seconds for the answer; return True once it is there."""
        if self._done:
            return True
        if not self._latch.acquire(True, -1 if timeout is None else max(timeout, 0)):
            return self._done
        try:
            self._latch.release()             # for any other waiter
        except RuntimeError:
            pass
        return True

    @property
    def result(self):
        """The result dict once answered with one, else None (wait() says why not)."""
        return self._result

    def wait(self, timeout: float | None = None) -> Any:
        """Return the result dict; raise ServerError for an error answer, ClientError else."""
        timeout = self.client.timeout if timeout is None else timeout
        if not self.answered(timeout):
            self.client._forget(self.id)
            raise ClientError("no answer to %s within %g s" % (self.method, timeout))
        if self._error is not None:
            raise self._error
        return self._result

    def cancel(self, reason: str | None = None) -> Any:
        """Send notifications/cancelled for this request; wait() then raises ClientError."""
        params = {"requestId": self.id}
        if reason:
            params["reason"] = reason
        self.client._forget(self.id)
        self.client.notify("notifications/cancelled", params)
        self._resolve(error=ClientError("%s was cancelled" % self.method))


def _wait_or_cancel(request, timeout, cancel_with=None):
    """request's result; an interrupt (Ctrl-C), its timeout, or cancel_with's request (a
    Context) being cancelled, cancels it at the server, then goes on up."""
    if cancel_with is not None:
        cancel_with.when_cancelled(lambda: request.cancel("cancelled"))
    timeout = request.client.timeout if timeout is None else timeout
    try:
        if not request.answered(timeout):
            # A request that timed out is cancelled, so that the server stops its work
            # (the specification's lifecycle, Timeouts).
            try:
                request.cancel("timed out")
            except ClientError:          # the server's stdin is closed: nothing to stop
                pass
            raise ClientError("no answer to %s within %g s" % (request.method, timeout))
        return request.wait(0)
    except KeyboardInterrupt:
        request.cancel("interrupted")
        raise


# A request that still asks for input after this many answered rounds is given up.
_MAX_ROUNDS = 10


# How long a server whose stdout ended has to exit before the client says it closed stdout
# and runs on: time for its exit status, which says why it ended, to arrive.
_STDOUT_CLOSED_WAIT = 2.0


class Client(_AppsClient, _SkillsClient):       # what extensions add (list_skills, ...)
    """An MCP client for a server started as a subprocess (an argument list, no shell).

    era="auto" probes with server/discover and falls back to initialize on any
    error that is not a recognised modern one, or on a short timeout;
    era="modern" and era="legacy" force one (legacy at `revision`). Use as a
    context manager, or call connect() and close().

    A server that asks is answered by on_elicit(params) (elicitation/create:
    return an ElicitResult dict), on_sample(params) (sampling/createMessage:
    return a CreateMessageResult dict) and roots (a list of {"uri", "name"}
    dicts, or a function returning one), in both eras: legacy server requests
    and modern input rounds. Each one given declares its capability. A server
    request with no answer gets a JSON-RPC error (a ProtocolError a callback
    raises is answered with its code and message); ping is answered.
    Modern requests declare request_capabilities (default: the same), and a
    request may name its own (send(..., capabilities=...)).

    The server's log messages are heard by on_log(level, data, logger). A
    server sends them once asked: log_level="info" (any level) asks for that
    level and above, by logging/setLevel or in each modern request's _meta.
    on_broken() is called once when the connection breaks (see broken).
    """

    # timeout: a server that has not answered in 30 s is taken as hung; start_timeout: a
    # server may take long to start (tens of seconds for some), so the first answer gets
    # 30 s too; probe_timeout: a legacy-only server may ignore server/discover, so after
    # 3 s auto mode also sends initialize (the discover answer still counts if it comes);
    # max_line: 64 MiB, far above any server's response limit, bounds the reader's memory.
    def __init__(self, command: Any, *, era: str = "auto", revision: Any = LATEST_LEGACY,
                 env: Dict[str, Any] | None = None, cwd: str | None = None,
                 timeout: float = 30.0, probe_timeout: float = 3.0,
                 start_timeout: float = 30.0, on_waiting: Callable[..., Any] | None = None,
                 on_log: Callable[..., Any] | None = None, log_level: Any = None,
                 capabilities: Dict[str, Any] | None = None, client_info: Any = None,
                 max_line: Any = 64 << 20, on_elicit: Callable[..., Any] | None = None,
                 on_sample: Callable[..., Any] | None = None, roots: Any = None,
                 transcript: Any = None, on_changed: Callable[..., Any] | None = None,
                 on_updated: Callable[..., Any] | None = None,
                 request_capabilities: Dict[str, Any] | None = None,
                 on_broken: Callable[..., Any] | None = None) -> None:
        if isinstance(command, str) or not command:
            raise ValueError("command must be a non-empty list of arguments (no shell)")
        if era not in ("auto", "modern", "legacy"):
            raise ValueError("era must be 'auto', 'modern' or 'legacy'")
        for name, value in (("timeout", timeout), ("probe_timeout", probe_timeout),
                            ("start_timeout", start_timeout)):
            if not _is_seconds(value):
                raise ValueError("%s must be a positive number of seconds" % name)
        if log_level is not None and log_level not in _LEVEL_RANK:
            raise ValueError("log_level must be one of %s, or None" % ", ".join(_LEVELS))
        self.log_level = log_level
        self.command, self.requested_revision = list(command), revision
        self._initialize_first, self._may_fall_back = _HANDSHAKES[era]
        self.env, self.cwd, self.timeout, self.probe_timeout = env, cwd, timeout, probe_timeout
        self.start_timeout, self.on_waiting = start_timeout, on_waiting
        self.on_log, self.on_changed, self.on_updated = on_log, on_changed, on_updated
        self._listening = None    # the modern listen stream, a PendingRequest never answered
        self._subscribed = set()  # the URIs a legacy server was asked to report on
        self.on_elicit, self.on_sample, self.roots = on_elicit, on_sample, roots
        self.transcript = transcript     # a list to record ("sent" | "received", line) in
        self.capabilities = dict(capabilities or {})
        for given, name in ((on_elicit, "elicitation"), (on_sample, "sampling"),
                            (roots, "roots")):
            if given is not None:
                self.capabilities.setdefault(name, {})
        self.client_info = client_info or {"name": "mcp_stdio-client", "version": __version__}
        self.request_capabilities = dict(self.capabilities if request_capabilities is None
                                         else request_capabilities)
        self.era = self.revision = self.server_info = self.instructions = None
        self.server_capabilities = {}
        self._splitter = LineSplitter(max_line)
        self._stamps = {}         # (tasks, capabilities) -> the modern _meta members' JSON
        self._pending = {}
        self._hearing = {}        # progress token -> on_progress, heard beyond one request
        self._forgotten = set()
        self._lock = threading.Lock()
        self._next_id = 0
        self._broken = None
        self.on_broken = on_broken    # called once when the connection breaks (a mount's wake)
        self._proc = None
        self._group = None    # its process group's id, kept past its leader's reaping
        self._job = None      # Windows: the job object that ends what it started
        self._readers = []
        self._pipes = threading.Lock()     # the readers' pipes close under it
        self._stderr = []
        self._connecting = False
        self.problems = []
        self.skipped_lines = 0       # lines on the server's stdout that were not JSON-RPC

    # -- process --------------------------------------------------------------
    def __enter__(self: _Client) -> _Client:
        self.connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> Any:
        import subprocess
        windows = os.name == "nt"
        try:
            # A process group of its own: a terminal's Ctrl-C (SIGINT to the foreground
            # group) reaches the client, which then cancels what it asked; the server
            # is not killed in the middle of its answer.
            self._proc = subprocess.Popen(
                _what_to_start(self.command, os.environ if self.env is None else self.env,
                               windows), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, env=self.env, cwd=self.cwd, **_popen_options(windows))
        except (OSError, ValueError) as e:
            raise ClientError("cannot start %s: %s" % (self.command[0], e))
        if windows:        # what it starts ends with it (POSIX: its group, self._group)
            import ctypes
            self._job = _windows_job(int(self._proc._handle), ctypes.WinDLL("kernel32"))
        else:
            self._group = self._proc.pid
        # Started before they are published: close() on another thread (a proxy ending
        # while a mount starts again) joins only readers that run.
        err = threading.Thread(target=self._read_stderr, daemon=True, name="mcp-client-err")
        err.start()                     # stderr's first: the other joins it at the end
        out = threading.Thread(target=self._read, args=(err,), daemon=True,
                               name="mcp-client-out")
        out.start()
        self._readers = [out, err]

    def close(self, grace: Any = _CLOSE_GRACE) -> Any:
        """Close the server's stdin; after grace seconds end it, and every process of its
        group (what it left behind), by SIGTERM, then SIGKILL; return its exit status.

        It never waits on a pipe that someone else holds: within a second of the
        server being gone it stops waiting for its output. An interrupt while it
        closes kills the group at once, then goes on up.
        """
        p = self._proc
        if p is None:
            return None
        self.close_input()
        try:
            for stop, wait in ((None, grace), ("SIGTERM", 1.0), ("SIGKILL", 1.0)):
                if stop is not None:
                    self.kill(stop)
                if self.exit_status(wait) is not None:
                    break
            self.kill("SIGTERM")      # what it left behind in its group, if anything
            if not self._outputs_end(1.0):
                self.kill("SIGKILL")
                self._outputs_end(1.0)
        except KeyboardInterrupt:
            self.kill("SIGKILL")
            p.wait()
            raise
        finally:
            self._release_group()
        return p.wait()

    def _release_group(self):
        # Once closed, its group id is no longer ours to signal, nor its job to keep.
        self._group = None
        job, self._job = self._job, None
        if job is not None:
            import ctypes
            ctypes.WinDLL("kernel32").CloseHandle(job)    # ends what is left in it

    def close_input(self) -> Any:
        """Close the server's stdin, which tells it to finish and exit (close() waits)."""
        if self._proc is not None:
            try:
                self._proc.stdin.close()
            except OSError:
                pass

    def kill(self, signal_name: Any = "SIGKILL") -> Any:
        """Send a signal (by name) to the server and every process of its group, its leader
        reaped or not (without os.waitid, macOS until Python 3.13, the leader is reaped
        first; a group's id is not reused while a process is in it). On Windows, end the
        server and everything in its job."""
        p = self._proc
        if p is None:
            return
        import signal
        try:
            if self._group is not None:
                os.killpg(self._group, getattr(signal, signal_name))
            elif self._job is not None:
                import ctypes
                ctypes.WinDLL("kernel32").TerminateJobObject(self._job, 1)
            elif p.returncode is None:
                p.kill() if signal_name == "SIGKILL" else p.terminate()
        except OSError:              # the group is empty, or the process gone
            pass

    def exit_status(self, timeout: float = 0.0) -> Any:
        """The server's exit status once it has exited (within timeout seconds), else None.

        Where the system can, the process is not reaped: kill() can still reach
        its group.
        """
        p = self._proc
        if p is None or p.returncode is not None:
            return None if p is None else p.returncode
        if not hasattr(os, "waitid"):
            import subprocess
            try:
                return p.wait(timeout)
            except subprocess.TimeoutExpired:
                return None
        end, pause, nap = _monotonic() + timeout, 0.005, threading.Event()
        while True:
            try:
                info = os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:      # reaped meanwhile
                return p.returncode
            if info is not None:
                return info.si_status if info.si_code == os.CLD_EXITED else -info.si_status
            left = end - _monotonic()
            if left <= 0:
                return None
            nap.wait(min(pause, left))
            pause = min(0.1, pause * 2)

    def ended(self, timeout: float = 0.0) -> Any:
        """The server's exit status once it has exited (within timeout seconds) and its
        output has been read to its end (what it said last is in stderr), else None."""
        code = self.exit_status(timeout)
        if code is not None:
            for t in self._readers:
                t.join(1.0)
        return code

    @property
    def pid(self):
        """The server process's id, or None: not started, or a server in this process."""
        return None if self._proc is None else self._proc.pid

    @property
    def broken(self):
        """Why the connection broke (the server exited, or wrote what cannot be trusted),
        or None while it holds."""
        return self._broken

    def _outputs_end(self, timeout, windows=os.name == "nt"):
        """Wait up to timeout seconds for the readers to reach the ends of the server's
        stdout and stderr; then make any still reading see an end (True when none was).

        On Windows a reader blocked on a descriptor holds its lock, so replacing the
        descriptor would wait as long as someone else (what the server started) holds
        the pipe: the reader is left to its end instead, a daemon thread."""
        end = _monotonic() + timeout
        for t in self._readers:
            t.join(max(0.0, end - _monotonic()))
        stuck = [t for t in self._readers if t.is_alive()]
        if windows:
            return not stuck
        with self._pipes:          # a reader that ends closes its pipe under this lock
            for f in (self._proc.stdout, self._proc.stderr) if stuck else ():
                if not f.closed:   # its next read finds the end; the reader closes it
                    fd = os.open(os.devnull, os.O_RDONLY)
                    try:
                        os.dup2(fd, f.fileno())
                    finally:
                        os.close(fd)
        return not stuck

    @property
    def stderr(self):
        """What the server wrote to stderr (the last 64 KiB)."""
        return b"".join(self._stderr)[-65536:].decode("utf-8", "replace")

    def _read_stderr(self):
        pipe = self._proc.stderr
        fd = pipe.fileno()        # read by descriptor: close() never waits on a file's lock
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                break
            self._stderr.append(chunk)
            if len(self._stderr) > 64:
                del self._stderr[:32]
        with self._pipes:
            pipe.close()

    def _read(self, err):
        pipe = self._proc.stdout
        fd = pipe.fileno()
        while True:
            try:
                data = os.read(fd, 1 << 16)
            except OSError:
                data = b""
            if not data:
                break
            for line in self._splitter.feed(data):
                if line is None:
                    self._fail("the server wrote a line longer than %d bytes" %
                               self._splitter.max_line)
                else:
                    try:
                        self._receive(line)
                    except Exception as e:   # noqa: BLE001 - this thread must outlive any line
                        self._fail("the client could not read the server's line: %s: %s" % (
                            type(e).__name__, _short_text(e)))
        with self._pipes:
            pipe.close()
        # A server that closed its stdout and goes on running can never answer: the calls
        # in flight fail now, not at their timeout.
        code = self.exit_status(_STDOUT_CLOSED_WAIT)
        err.join(1.0)                   # its last words: stderr may end after stdout
        self._fail("%s%s" % (_exit_words(code) if code is not None else
                             "the server closed its stdout and did not exit",
                             "; stderr: " + _tail(self.stderr.strip(), 300)
                             if self.stderr.strip() else ""))

    def _fail(self, reason):
        with self._lock:
            first = self._broken is None
            if first:
                self._broken = reason
            pending, self._pending = list(self._pending.values()), {}
        for req in pending:
            req._resolve(error=ClientError(reason))
        if first and self.on_broken is not None:
            self.on_broken()

    def _receive(self, line):
        if self.transcript is not None:
            self.transcript.append(("received", line + b"\n"))
        try:
            # A duplicate key is taken as JSON parsers take it (the last one counts): what
            # a proxy passes on is re-encoded from what it read, so no reader of ours can
            # see another value; the check would cost a Python call per object.
            msg = decode_message(line, 128, unique_keys=False)
        except ProtocolError:
            msg = None
        if type(msg) is dict and msg.get("jsonrpc") == "2.0":
            msgs = (msg,)
        elif isinstance(msg, list) and all(isinstance(m, dict) and m.get("jsonrpc") == "2.0"
                                           for m in msg):
            msgs = msg
        else:
            # A banner or a stray print(): skipped and counted, as the official SDKs do.
            self.skipped_lines += 1
            self.problems.append("skipped a line that is not JSON-RPC: %r" % line[:120])
            return
        for m in msgs:
            if "method" in m:
                if type(m["method"]) is not str:
                    self.problems.append("skipped a message whose method is not a string: %s"
                                         % _short(m["method"]))
                    continue
                if "id" in m:
                    self._server_request(m)
                    continue
                try:
                    self._notification(m)
                except Exception as e:   # noqa: BLE001 - a callback's bug must not end the reader
                    self.problems.append("a callback for %s raised %s: %s" % (
                        m["method"][:60], type(e).__name__, _short_text(e)))
                continue
            if "id" not in m:
                self.problems.append("an error without id: %s" % _short(m.get("error"), 200))
                continue
            # Ours are integers: any other id (a string, a boolean, an object) was never
            # sent, and True must not pass for 1, nor an unhashable id end this thread.
            key = (False, m["id"]) if type(m["id"]) is int else None
            with self._lock:
                req = self._pending.pop(key, None)
                if req is None:
                    forgotten = key in self._forgotten
                    self._forgotten.discard(key)
            if req is None:
                if not forgotten:
                    self._fail("the server answered id %s, which is not in flight"
                               % _short(m["id"]))
                continue
            if "error" in m and isinstance(m["error"], dict):
                e = m["error"]
                req._resolve(error=ServerError(e.get("code"), str(e.get("message")),
                                               e.get("data")))
            elif "result" in m and isinstance(m["result"], dict):
                req._resolve(result=m["result"])
            else:                  # its request is answered too: it is no longer pending
                reason = "the server sent a malformed response: %r" % line[:120]
                req._resolve(error=ClientError(reason))
                self._fail(reason)

    def _notification(self, m):
        params = m.get("params") if isinstance(m.get("params"), dict) else {}
        if m["method"] == "notifications/progress":
            token = params.get("progressToken")
            with self._lock:
                req = self._pending.get((False, token)) if type(token) is int else None
                hear = req.on_progress if req is not None else \
                    self._hearing.get(token) if type(token) is str else None
            if hear is not None:
                hear(params.get("progress"), params.get("total"), params.get("message"))
        elif m["method"] == "notifications/message" and self.on_log is not None:
            self.on_log(params.get("level"), params.get("data"), params.get("logger"))
        elif m["method"].endswith("/list_changed") or \
                m["method"] == "notifications/resources/updated":
            if self.on_changed is not None:
                self.on_changed(m["method"])
            if self.on_updated is not None and m["method"].endswith("/updated") and \
                    type(params.get("uri")) is str:
                self.on_updated(params["uri"])

    def _answer_for(self, method, params):
        """This client's answer to a server's question, or None when it has none to give."""
        if method == "elicitation/create" and self.on_elicit is not None:
            return self.on_elicit(params)
        if method == "sampling/createMessage" and self.on_sample is not None:
            return self.on_sample(params)
        if method == "roots/list" and self.roots is not None:
            return {"roots": list(self.roots() if callable(self.roots) else self.roots)}
        return None

    def _server_request(self, m):
        """Answer a request of the server's: ping, and the questions this client can answer."""
        params = m.get("params") if isinstance(m.get("params"), dict) else {}
        try:
            answer = {} if m["method"] == "ping" else self._answer_for(m["method"], params)
        except Exception as e:   # noqa: BLE001 - the server gets an error, never silence
            answer = e
        if isinstance(answer, dict):
            reply = {"result": answer}
        elif answer is None:
            reply = {"error": {"code": METHOD_NOT_FOUND, "message": "Method not found"}}
        elif isinstance(answer, ProtocolError):     # a refusal the callback chose
            reply = {"error": {"code": answer.code, "message": answer.message}}
        else:
            reply = {"error": {"code": INTERNAL_ERROR, "message": "the client could not "
                               "answer: %s" % _short_text(answer)}}
        reply.update(jsonrpc="2.0", id=m["id"])
        try:
            self._write(reply)
        except ClientError:
            pass

    def _forget(self, rid):
        with self._lock:
            key = (type(rid) is str, rid)
            if self._pending.pop(key, None) is not None:
                self._forgotten.add(key)

    # -- requests --------------------------------------------------------------------
    def send(self, method: str, params: Dict[str, Any] | None = None, *,
             on_progress: Callable[..., Any] | None = None, modern: Any = None,
             tasks: Any = True, progress_token: Any = None,
             capabilities: Dict[str, Any] | None = None) -> Any:
        """Send a request and return its PendingRequest (per-request _meta when modern).

        tasks=False leaves the tasks extension out of a modern request's capabilities
        (a server then runs an optional task tool as a plain call). progress_token
        names a token whose progress the client hears beyond this request.
        capabilities: what this modern request declares (default: request_capabilities).
        """
        if self.era is None and not self._connecting:
            self.connect()                 # the first request connects, with or without "with"
        if self._broken is not None:
            raise ClientError(self._broken)
        with self._lock:
            self._next_id += 1
            rid = self._next_id
            req = PendingRequest(self, rid, method)
            req.on_progress = on_progress
            self._pending[(False, rid)] = req
        params = dict(params or {})
        meta = dict(params.pop("_meta", None) or {})
        if on_progress is not None:
            meta["progressToken"] = rid
        elif progress_token is not None:
            meta["progressToken"] = progress_token
        members = "".join(_chunks(meta))[1:-1] if meta else ""
        if modern if modern is not None else self._speaks("request_meta"):
            key = tasks if capabilities is None or not (
                capabilities or self.request_capabilities) else \
                (tasks, _encoder.encode(capabilities))
            stamp = self._stamps.get(key) or self._stamp(key, tasks, capabilities)
            members = stamp + "," + members if members else stamp
        body = "".join(_chunks(params))
        if members:                 # _meta last: the params' text with it spliced in
            body = '%s%s"_meta":{%s}}' % (body[:-1], "," if len(body) > 2 else "", members)
        line = ('{"jsonrpc":"2.0","id":%d,"method":%s,"params":%s}\n' % (
            rid, _eb(method), body)).encode("utf-8")
        if self.transcript is not None:
            self.transcript.append(("sent", line))
        self._send_line(line)
        return req

    def _stamp(self, key, tasks, capabilities):
        """The members a modern request's _meta carries, as JSON text (made once for each
        key: the client's info is fixed when it is made)."""
        caps = self.request_capabilities if capabilities is None else capabilities
        followed = {r.key: {} for r in _EXTENSIONS if r.follow is not None}
        if tasks and followed:      # a task is followed for you: the extensions it can follow
            caps = dict(caps, extensions=dict(caps.get("extensions") or {}, **followed))
        fixed = {PV_KEY: MODERN_VERSION, INFO_KEY: self.client_info, CAPS_KEY: caps}
        if self.log_level is not None:
            fixed[LEVEL_KEY] = self.log_level
        stamp = self._stamps[key] = "".join(_chunks(fixed))[1:-1]
        return stamp

    def request(self, method: str, params: Dict[str, Any] | None = None,
                timeout: float | None = None, cancel_with: Any = None, **kw: Any) -> Any:
        """Send a request and wait for its result.

        When a modern server asks for input (an InputRequiredResult), its
        questions are answered (on_elicit, on_sample, roots) and the request is
        sent again with the answers and the server's requestState. Raises
        ClientError for a question this client cannot answer. cancel_with is
        a handler's Context: when its request is cancelled, so is this one.
        """
        result = _wait_or_cancel(self.send(method, params, **kw), timeout, cancel_with)
        return self._rounds(method, params, result, timeout, cancel_with, kw)

    def follow(self, method: str, params: Dict[str, Any], result: Dict[str, Any], *,
               timeout: float | None = None, cancel_with: Any = None,
               on_progress: Callable[..., Any] | None = None, **kw: Any) -> Any:
        """The final result of a request sent with send() and answered with result: its
        questions answered and the request sent again (kw: what send() was given), and a
        tool call's task followed to its end."""
        result = self._rounds(method, params, result, timeout, cancel_with,
                              dict(kw, on_progress=on_progress))
        return self._followed(result, timeout, None, on_progress) if method == "tools/call" \
            else result

    def _rounds(self, method, params, result, timeout, cancel_with, kw):
        """The result of a request answered with result: questions answered, sent again."""
        for _ in range(_MAX_ROUNDS):
            if result.get("resultType") != "input_required":
                return result
            answers = {}
            for key, ask in (result.get("inputRequests") or {}).items():
                ask = ask if isinstance(ask, dict) else {}
                params_ = ask.get("params") if isinstance(ask.get("params"), dict) else {}
                answer = self._answer_for(ask.get("method"), params_)
                if answer is None:
                    raise ClientError("the server asks %s (%s), which this client cannot "
                                      "answer" % (_short(key, 40), _short(ask.get("method"), 40)))
                answers[key] = answer
            retry = dict(params or {}, inputResponses=answers)
            if "requestState" in result:
                retry["requestState"] = result["requestState"]
            result = _wait_or_cancel(self.send(method, retry, **kw), timeout, cancel_with)
        raise ClientError("%s still asks for input after %d rounds" % (method, _MAX_ROUNDS))

    def listen(self, uris: Any = ()) -> Any:
        """Ask to hear the server's list changes and the updates of uris (on_changed,
        on_updated): a stream of subscriptions/listen where the revision has it (a new
        call replaces the stream), else resources/subscribe for each URI not asked yet."""
        if self._speaks("listen"):
            caps = self.server_capabilities
            asked = {k.flag: True for k in _CORE_KINDS
                     if (caps.get(k.capability) or {}).get("listChanged")}
            if uris:
                asked["resourceSubscriptions"] = sorted(uris)
            old, self._listening = self._listening, self.send(
                "subscriptions/listen", {"notifications": asked})
            if old is not None:
                old.cancel("replaced")
            return
        if uris and ((self.server_capabilities.get("resources") or {}).get("subscribe")):
            for uri in sorted(set(uris) - self._subscribed):
                self.request("resources/subscribe", {"uri": uri})
                self._subscribed.add(uri)

    def roots_changed(self) -> Any:
        """Tell a legacy server that the roots changed (notifications/roots/list_changed)."""
        self.notify("notifications/roots/list_changed")

    def notify(self, method: str, params: Dict[str, Any] | None = None) -> None:
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self._write(msg)

    def _write(self, msg):
        line = encode_message(msg)
        if self.transcript is not None:
            self.transcript.append(("sent", line))
        self._send_line(line)

    def _send_line(self, line):
        try:
            self._proc.stdin.write(line)
            self._proc.stdin.flush()
        except (OSError, ValueError):
            raise ClientError(self._broken or "the server's stdin is closed")

    def _speaks(self, feature):
        """True when the revision in use has feature (a name of the revision table)."""
        return feature in _FEATURES.get(self.revision, ())

    # -- era ------------------------------------------------------------------------
    def connect(self: _Client) -> _Client:
        """Start the server if needed and settle the era; return self."""
        if self.era is not None:
            return self
        self._connecting = True
        try:
            return self._connect()
        finally:
            self._connecting = False

    # A first answer still missing after this long is announced (on_waiting): a patient
    # wait should be a visible one.
    _WAITING_NOTE = 2.0

    def _connect(self):
        if self._proc is None:
            self.start()
        self._started = _monotonic()
        self._note_at = self._started + self._WAITING_NOTE    # said once per connect
        if self._initialize_first:
            return self._initialize(self._first(self._send_initialize()))
        probe = self.send("server/discover", modern=True)
        if not self._may_fall_back:
            return self._adopt_probe(probe, self.start_timeout)
        if self._first(probe, self.probe_timeout) is not None:
            return self._adopt_probe(probe, 0)      # answered: modern, or an error saying no
        # No answer yet: a legacy server may ignore the probe, a slow one may answer late.
        # initialize goes out now; its answer decides, and the probe's still counts.
        init = self._send_initialize()
        try:
            return self._initialize(self._first(init))
        except ServerError as e:
            if not _speak_modern(e):
                raise
        return self._adopt_probe(probe, max(0.0, self.start_timeout - (
            _monotonic() - self._started)))

    def _first(self, req, timeout=None):
        """Wait for the answer of a request sent while connecting: patiently, and visibly.

        Returns req once answered within timeout (default: what is left of
        start_timeout); None when a shorter timeout ran out; raises
        ClientError when start_timeout ran out.
        """
        deadline = self._started + self.start_timeout
        until = deadline if timeout is None else min(deadline, _monotonic() + timeout)
        while True:
            note = self._note_at
            wake = min(until, note) if note else until
            if req.answered(max(0.0, wake - _monotonic())):
                return req
            now = _monotonic()
            if note and now >= note:
                self._note_at = None
                if self.on_waiting is not None:
                    self.on_waiting(self._WAITING_NOTE)
            if now >= until:
                if until < deadline:
                    return None
                self._forget(req.id)
                raise ClientError("no answer to %s within %g s of starting the server "
                                  "(start_timeout)" % (req.method, self.start_timeout))

    def _send_initialize(self):
        return self.send("initialize", {"protocolVersion": self.requested_revision,
                                        "capabilities": self.capabilities,
                                        "clientInfo": self.client_info})

    def _adopt_probe(self, probe, timeout):
        """Speak modern with the server/discover answer, or say why the server will not."""
        try:
            result = probe.wait(timeout)
        except ServerError as e:
            if not self._may_fall_back and e.code != UNSUPPORTED_VERSION:
                raise ClientError("the server does not speak protocol %s (it answered "
                                  "server/discover with %s %s); speak the legacy era "
                                  "instead (era='legacy', --era legacy)"
                                  % (MODERN_VERSION, e.code, _short(e.message, 80)))
            if not self._may_fall_back or (e.code == UNSUPPORTED_VERSION and
                                           isinstance(e.data, dict)):
                raise
            return self._initialize(self._first(self._send_initialize()))
        self._adopt_modern(_checked("server/discover", result))
        return self

    def _initialize(self, req):
        result = _checked("initialize", req.wait(0))
        self.era, self.revision = LEGACY, result.get("protocolVersion")
        self.server_info = result.get("serverInfo")
        self.server_capabilities = result.get("capabilities") or {}
        self.instructions = result.get("instructions")
        self.notify("notifications/initialized")
        if self.log_level is not None and "logging" in self.server_capabilities:
            try:
                self.request("logging/setLevel", {"level": self.log_level})
            except ServerError as e:       # it still serves; its log messages may not come
                self.problems.append("logging/setLevel was refused: %s" % _short(e.message, 80))
        return self

    def _adopt_modern(self, result):
        self.era, self.revision = MODERN, MODERN_VERSION
        self.server_capabilities = result.get("capabilities") or {}
        self.instructions = result.get("instructions")
        self.server_info = (result.get("_meta") or {}).get(SERVER_INFO_KEY)

    # -- methods ------------------------------------------------------------------------
    def discover(self) -> Any:
        return self.request("server/discover", modern=True)

    def list_all(self, method: str, field: str, params: _JSON | None = None,
                 timeout: float | None = None) -> List[_JSON]:
        """Every item of a list method's pages (field names them in each result)."""
        items, cursor, seen = [], None, set()
        for _ in range(10000):
            result = _checked(method, self.request(method, dict(params or {}) if cursor is None
                                                   else dict(params or {}, cursor=cursor),
                                                   timeout))
            items += result[field]
            cursor = result.get("nextCursor")
            if cursor is None:
                return items
            if cursor in seen:
                raise MalformedResult(method, ["nextCursor %r came a second time: its pages "
                                               "never end" % cursor[:60]])
            seen.add(cursor)
        raise ClientError("%s never stopped paginating" % method)

    def list_tools(self) -> List[_JSON]:
        return self.list_all("tools/list", "tools")

    def list_resources(self) -> List[_JSON]:
        return self.list_all("resources/list", "resources")

    def list_resource_templates(self) -> List[_JSON]:
        return self.list_all("resources/templates/list", "resourceTemplates")

    def list_prompts(self) -> List[_JSON]:
        return self.list_all("prompts/list", "prompts")

    def call_tool(self, name: str, arguments: _JSON | None = None, *, timeout: float | None = None,
                  on_progress: Any = None, task: Any = None, on_status: Any = None,
                  cancel_with: Any = None, meta: _JSON | None = None,
                  capabilities: _JSON | None = None) -> _JSON:
        """Call a tool; when the server answers with a task, poll it and return its result.

        task=True (or {"ttl": ms}) asks a 2025-11-25 server for a task; a modern
        server decides by itself, unless task=False, which does not offer it the
        tasks extension (an optional task tool then runs as a plain call).
        on_progress(progress, total, message) hears the call's progress, a task's
        too (a modern task's last progress each time it is polled);
        on_status(status, message) hears a task's changes (a message that progress
        carries is heard by on_progress alone); questions it asks are
        answered as any others; an interrupt (KeyboardInterrupt) cancels it, and so
        does the cancellation of cancel_with's request (a handler's Context). meta is
        sent as the request's _meta (trace context, say); capabilities, what a modern
        request declares (as send()).
        """
        params = {"name": name, "arguments": arguments or {}}
        if meta:
            params["_meta"] = dict(meta)
        for offer in _OFFER_HOOKS:
            offer(self, params, task)
        token = None
        if on_progress is not None:       # heard until the call ends, its answer or its task's
            with self._lock:
                self._next_id += 1
                token = "progress-%d" % self._next_id
                self._hearing[token] = on_progress
        try:
            result = self.request("tools/call", params, timeout, cancel_with,
                                  progress_token=token, tasks=task is not False,
                                  capabilities=capabilities)
            return self._followed(result, timeout, on_status, on_progress)
        finally:
            with self._lock:
                self._hearing.pop(token, None)

    def _followed(self, result, timeout, on_status, on_progress):
        """A tool call's result; an extension's answer (a task) followed to its end."""
        for follow in _FOLLOW_HOOKS:
            followed = follow(self, result, timeout, on_status, on_progress)
            if followed is not None:
                return _checked("tools/call", followed)
        return _checked("tools/call", result)

    def read_resource(self, uri: str, timeout: float | None = None) -> _JSON:
        return _checked("resources/read", self.request("resources/read", {"uri": uri}, timeout))

    def get_prompt(self, name: str, arguments: Dict[str, Any] | None = None,
                   timeout: float | None = None) -> _JSON:
        return _checked("prompts/get", self.request(
            "prompts/get", {"name": name, "arguments": arguments or {}}, timeout))

    def complete(self, ref: Dict[str, Any], argument: str, value: str,
                 context: Dict[str, str] | None = None,
                 timeout: float | None = None) -> _JSON:
        params = {"ref": ref, "argument": {"name": argument, "value": value}}
        if context:
            params["context"] = {"arguments": context}
        return _checked("completion/complete",
                        self.request("completion/complete", params, timeout))


def _exit_words(code):
    """How a server process ended, in words: its exit status, or the signal that ended it."""
    if type(code) is int and code < 0:
        import signal
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "a signal"
        return "the server was ended by %s (signal %d)" % (name, -code)
    return "the server exited (status %s)" % code


def _tail(text, limit):
    """The end of text in at most about limit characters, cut at a word, marked when cut."""
    if len(text) <= limit:
        return text
    end = text[-limit:]
    cut = min((i for i in (end.find(" "), end.find("\n")) if i >= 0), default=-1)
    return "..." + (end[cut + 1:] if 0 <= cut < limit // 2 else end)


def _speak_modern(error):
    """Return True when an error answering initialize means: this server speaks only modern."""
    # An era mismatch answering initialize says the connection is locked to the other era.
    data = error.data if isinstance(error.data, dict) else {}
    return error.code == UNSUPPORTED_VERSION or data.get("reason") == "era-mismatch"


class InProcessClient(Client):
    """A Client for a Server object in this process: the same methods, no subprocess.

    It speaks to the server through a Connection exactly as a real process
    would (the same bytes in and out) and runs each call at once on the calling
    thread, so testing a tool takes microseconds. connect() runs the server's
    lifespan setup and close() its teardown. Handler timeouts are not enforced
    here: nothing runs in the background. What the server reports (stderr in a
    real process) is kept in diagnostics.
    """

    def __init__(self, server: Any, **options: Any) -> None:
        Client.__init__(self, ["<in-process>"], **options)
        self.server = server
        self.diagnostics = []
        self._conn = None

    def start(self) -> Any:
        self._lifespan = self.server.enter_lifespan(self._diagnose)
        # Reentrant: a task's work runs on a thread of its own, and this client answers
        # the server's questions from within the server's own emit.
        self._conn = self.server.connection(self._deliver, report=self._diagnose,
                                            lifespan=self._lifespan, lock=threading.RLock())

    def _diagnose(self, line, detail=None):
        self.diagnostics.append(line + ("\n" + detail if detail else ""))

    @property
    def state(self):
        """What the server's lifespan setup made for this client's serve, or None."""
        return self._lifespan.state if self._conn is not None else None

    @property
    def stderr(self):
        return "\n".join(self.diagnostics)

    def _deliver(self, line):
        self._receive(line[:-1])

    def _send_line(self, line):
        if self._conn is None:
            raise ClientError(self._broken or "the client is not connected")
        for item in self._conn.feed(line):
            if type(item) is bytes:
                self._deliver(item)
            elif item.keep is not None:        # a task: its work goes on in the background
                threading.Thread(target=self._conn.run, args=(item,), daemon=True).start()
            else:
                self._conn.run(item)

    def close(self, grace: float | None = None) -> Any:
        """End the connection and run the lifespan teardown; return 0 (grace: unused,
        nothing runs outside this process)."""
        conn, self._conn = self._conn, None
        if conn is None:
            return None
        for line in conn.close():
            self._deliver(line)
        self._lifespan.close()
        return 0


###############################################################################
# Mounting: one server in front of many #######################################
###############################################################################
#
# server.mount(prefix, command) serves another MCP server (a process started
# through the Client, any language, either era; or a Server object in this
# process) as part of ours: its tools and prompts under prefix_name, its
# resources and templates at their own URIs (a URI is an address that results
# link to: renaming it would break the links). A mount starts with each serve
# and runs beside it: it connects, lists, and adds what it lists to the live
# catalog; the first list of each kind waits until every mount has listed or
# failed (start_timeout), and so does a request naming what no entry has yet.
# A mount that fails or exits keeps its entries listed, answers for them with
# an error naming it, and starts again with back-off.

# A stopped mount starts again after these many seconds, doubling up to the last:
# quick after a crash, never a busy loop against a server that cannot start.
_MOUNT_BACKOFF = (1.0, 2.0, 4.0, 8.0, 16.0, 30.0)
# A stopped server's last words said with it: enough for a stack trace's last frames and
# its error line, never its whole log.
_LAST_WORDS_LINES = 20
_LAST_WORDS_BYTES = 4096


class _Relayed(Question):
    """A question a mounted server asks, passed on to our client as it was asked."""

    _NEEDS = {"elicitation/create": "elicitation", "sampling/createMessage": "sampling",
              "roots/list": "roots"}

    def __init__(self, method, params):
        self.method = method
        self.asked = {k: v for k, v in params.items() if k != "_meta"}

    def params(self, revision, random):
        return self.asked

    def needs(self):
        if self.method == "elicitation/create" and self.asked.get("mode") == "url":
            return ["elicitation.url"]
        return [self._NEEDS[self.method]]

    def answer(self, value, where):
        if not isinstance(value, dict):
            raise ValueError("%s is not a result object" % where)
        return value


_MOUNT_CALL = threading.local()     # .ctx: the handler's Context, while it calls a mount

# What a mount is told it may ask: every question a client can answer. A legacy mount is
# told once, at initialize, before any client of ours exists, so it is told all of it;
# what our client cannot answer gets the answer a client with the capability may give.
_RELAYED_CAPABILITIES = {"roots": {"listChanged": True}, "sampling": {},
            "elicitation": {"form": {}, "url": {}}}
# A mounted tool's _meta says where it comes from (the doctor names the mount's options
# that fix what a host refuses of it).
MOUNT_KEY = "io.github.mcp-stdio/mount"
# The keys of a mounted tool's _meta that this server says itself, for its own callers:
# a view's link (MCP Apps, offered as the caller's capabilities allow), the tasks key,
# and where a tool came from.
_GOVERNED_META = frozenset(("ui", "ui/resourceUri", "io.modelcontextprotocol/tasks",
                            MOUNT_KEY))
# How long a call waits for a legacy mount told that the roots changed to ask for them:
# a server that keeps roots asks at once; one that does not is not waited for longer.
_ROOTS_ASKED_AGAIN = 1.0
# The code the specification's sampling page gives a user's refusal of a sampling request.
_SAMPLING_REFUSED = -1

# A legacy mount's question to a modern client waits this long for the client's retry
# (a person may be answering); then the mount is told the question was cancelled.
_PARKED_TIMEOUT = 600.0
# How often a call waiting on a legacy mount for a modern client looks for its questions.
_PARKED_POLL = 0.05


class _Parked:
    """A legacy mount's question to a modern client: it waits for the client's retry."""

    def __init__(self, method, params):
        self.question = _Relayed(method, params)
        self.answered = threading.Event()
        self.answer = None


def _mounted_call(name, arguments, trace):
    """The params of a call of a mounted tool: the caller's trace context goes on with it."""
    params = {"name": name, "arguments": arguments or {}}
    if trace:
        params["_meta"] = trace
    return params


# JSON-RPC's own codes, which a mounted server's error keeps when passed on.
_STANDARD_CODES = frozenset((PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS,
                             INTERNAL_ERROR))


def _passed_on(error, prefix, era, tool=False):
    """A mounted server's JSON-RPC error as ours for a caller of era: its own code when
    that is JSON-RPC's or lies outside the range JSON-RPC reserves, or is MCP's with the
    same meaning for our caller; else -32603 naming the mount and the code (-32000 to
    -32019 mean nothing to a receiver, and a -32022 would say we refused the caller's
    revision when the mount refused ours). A capability our caller lacks is refused as
    the engine refuses it for era (a tool's: an isError result where that is how)."""
    code = error.code
    if type(code) is int and (code in _STANDARD_CODES or not -32768 <= code <= -32000):
        return error
    if code == RESOURCE_NOT_FOUND_LEGACY:
        return ProtocolError(_ERA_RULES[era].not_found, error.message, error.data)
    if code == MISSING_CLIENT_CAPABILITY:     # the mount followed our caller's declaration
        if _in_rounds(era):
            return error
        missing = error.data.get("requiredCapabilities") if type(error.data) is dict else None
        if tool:
            return ToolError(_undeclared("tool", missing) if type(missing) is dict and missing
                             else error.message)
    return ProtocolError(INTERNAL_ERROR, "Internal error: mount %r answered %s: %s" % (
        prefix, code, error.message), error.data)


def _mounted_result(r):
    """A mounted tool's CallToolResult as our tool's result."""
    return ToolResult(r.get("content") or [], r.get("structuredContent"), r.get("isError") is True)


def _relayed_result(call, r):
    """A mounted tool's CallToolResult r as the result of our call."""
    return _tool_answer(call, None, _mounted_result(_checked("tools/call", r)))[0]


# Held while a mount makes the catalog match its listing: mounts listing at once must not
# both decide they keep a key they share.
_TAKING = threading.Lock()


class _Mount:
    """One mounted server: its client, its state, and the entries it added."""

    def __init__(self, server, prefix, target, env, cwd, era, start_timeout, ping_timeout):
        self.server, self.prefix, self.target = server, prefix, target
        self.in_process = type(target) is not list      # a Server object, not a command
        self.env, self.cwd, self.era, self.start_timeout = env, cwd, era, start_timeout
        self.ping_timeout = ping_timeout
        self.state, self.reason, self.retry_at = "starting", None, None
        self.start_limit = 10 * start_timeout   # how long one start may take in all
        self.up = threading.Event()      # set while it is up: a call waits for it to start
        self.attempted = None            # when its latest start began (monotonic)
        self.late_said = False           # its missed start timeout was said
        self.client = None
        self.owned = {kind.attr: set() for kind in _CORE_KINDS}
        self.listings = {kind.attr: {} for kind in _CORE_KINDS}   # our key -> its listing
        self.calls = []                  # the Contexts of our calls in flight on it
        self.tasks = {}                  # tool name -> its task support, as listed
        self.questions = {}              # id(ctx) -> [_Parked] a call has still to ask
        self.parked = {}                 # question key -> (the mount's request, _Parked)
        self._listened = (None, None)    # (client, URIs) it was last asked to report on
        self.roots_given = None          # the roots our client last gave, for its questions
        self.parking = frozenset()       # the eras of calls not relayed to be answered later
        self.roots_guessed = False       # it was answered none for want of a client to ask
        self.roots_told = threading.Event()   # set each time it is answered its roots
        self.include = self.exclude = None   # compiled patterns of its own names: what to serve
        self.pinned = None               # and which of its tools tool search keeps listed
        self.hints = {}                  # its tools' phrases for a searching host (own names)
        self.rename = {}                 # its own tool or prompt name -> ours
        self.naming = prefix             # what starts the names of its tools and prompts
        self.patterns = {}               # include, exclude, pinned: the patterns as given
        self.patterns_said = False       # those matching none of its names were said
        self.listed = threading.Event()  # set once it has listed or failed, each start
        self.stop = threading.Event()
        self.down = threading.Event()    # set when its client breaks (or it ends): wakes the wait
        self.started = None
        self._thread = None
        self.report = _report

    # -- life ------------------------------------------------------------------
    def begin(self, report):
        """Start connecting on a thread of its own (serving does not wait for it)."""
        self.report = report
        self.stop.clear()
        self.listed.clear()
        # Starting from now, not as the last serve left it (up, with its closed client): a
        # call that comes before the thread runs waits for this start.
        self.state, self.reason, self.retry_at, self.late_said = "starting", None, None, False
        self.up.clear()
        self.started = self.attempted = _monotonic()
        self._thread = threading.Thread(target=self._supervise, daemon=True,
                                        name="mcp-mount-" + self.prefix)
        self._thread.start()

    def stopping(self):
        """Stop it starting again, and tell its server to end (its input closes)."""
        self.stop.set()
        self.down.set()
        client = self.client
        if client is not None:
            client.close_input()

    def end(self, grace=_CLOSE_GRACE):
        """Stop it and close its client, its server given grace seconds to exit."""
        self.stopping()
        client = self.client
        if client is not None:
            client.close(grace)
        if self._thread is not None:
            self._thread.join(5.0)

    def abandon(self):
        """End its server's process group now: ours is leaving."""
        client = self.client
        if client is not None:
            client.kill("SIGTERM")
            if client.exit_status(0.1) is None:
                client.kill("SIGKILL")

    def _supervise(self):
        attempt, down_at = 0, None
        while not self.stop.is_set():
            try:
                self._connect()
                attempt = 0
                if down_at is not None:
                    self.report("mount %r is up again, after %.1f s down" % (
                        self.prefix, _monotonic() - down_at))
                elif self.late_said:
                    self.report("mount %r is up, after %.1f s" % (
                        self.prefix, _monotonic() - self.started))
                down_at = None
                self.state, self.reason = "up", None
                self.up.set()
                self._listed()
                self._wait_until_down()
            except Exception as e:      # noqa: BLE001 - a mount's fault is its own, reported
                self.reason = self._why(e)
            if self.stop.is_set():
                self._listed()
                break
            delay = _MOUNT_BACKOFF[min(attempt, len(_MOUNT_BACKOFF) - 1)]
            attempt += 1
            self.up.clear()
            down_at = down_at or _monotonic()
            self.state, self.retry_at = "down", _monotonic() + delay
            # Said before the lists waiting for it go on: their answer follows its reason.
            self.report("mount %r: %s; starting it again in %g s" % (
                self.prefix, self.reason or "it stopped", delay), self._last_words())
            self._listed()
            old, self.client = self.client, None
            if old is not None:
                old.close()
            self.stop.wait(delay)

    def _listed(self):
        """It has listed (or failed to) since it started: once every mount has, the
        catalog is complete and what scoping did is said."""
        self.listed.set()
        if all(source.pending() is None for source in self.server.sources):
            self.server.report_scoping(self.report)

    def pending(self):
        """How long a request may wait for what it lists (its start timeout) while it has
        not listed since it started, else None (read on the reading thread: no clock)."""
        return self.start_timeout if self.started is not None and \
            not self.listed.is_set() else None

    def absent(self):
        """True when it is not up now (starting, or down): its tools may be missing."""
        return self.state != "up"

    def instructions(self):
        """What its server's instructions are: their text, "" for none (or down), None
        while it is starting."""
        client = self.client
        if self.state == "up" and client is not None:
            return client.instructions if isinstance(client.instructions, str) else ""
        return None if self.state == "starting" else ""

    def wait(self, within=None):
        """Wait until it has listed (or failed), within its start timeout (and within
        seconds, when given, without a word); one that has not is said once (it goes on
        starting)."""
        started = self.started
        if started is None or self.listed.is_set():
            return
        left = max(0.0, started + self.start_timeout - _monotonic())
        if within is not None:
            self.listed.wait(min(left, within))
            return
        if not self.listed.wait(left) and \
                not self.late_said:
            self.late_said = True
            self.report("mount %r has not listed within %g s (start_timeout); it is left out "
                        "of the first list, goes on starting (%g s at most) and joins when it "
                        "has listed" % (self.prefix, self.start_timeout, self.start_limit))

    def heard(self, conn, method, params):
        """A client's notification: its roots changed, or a client with roots arrived (the
        mount may have asked before it did)."""
        if method == "notifications/roots/list_changed" or (
                method in ("notifications/initialized", "initialized") and
                "roots" in (conn.client_capabilities or {})):
            self.roots_changed()

    def _last_words(self):
        """The last lines its exited server wrote to stderr, each marked with its name
        (a crash says why there, a node script's 'Cannot find module' say), or None."""
        client = self.client
        if client is None or client.pid is None or client.ended(0) is None:
            return None
        text = client.stderr.rstrip()[-_LAST_WORDS_BYTES:]
        lines = [line for line in text.splitlines() if line.strip()][-_LAST_WORDS_LINES:]
        if not lines:
            return None
        head = "mount %r | " % self.prefix
        return "".join(head + line + "\n" for line in [
            "its last lines on stderr:"] + lines)

    def _connect(self):
        self.state, self.attempted = "starting", _monotonic()
        self.up.clear()
        # Its own requests (lists, discover, listen) declare no capability to a modern
        # mount; each call declares what our caller declared for it (_declared).
        handlers = dict(on_elicit=lambda p: self._question("elicitation/create", p),
                        on_sample=lambda p: self._question("sampling/createMessage", p),
                        roots=self._roots, on_log=self._log, on_changed=self._changed,
                        on_updated=self._updated, capabilities=_RELAYED_CAPABILITIES,
                        request_capabilities={})
        if self.in_process:
            client = InProcessClient(self.target, era=self.era, **handlers)
        else:
            # Slower than start_timeout, it is left out of the first list but goes on
            # starting: killed at once, it would start as slowly again, for ever.
            client = Client(self.target, era=self.era, env=self.env, cwd=self.cwd,
                            timeout=self.server.timeout or 30.0,
                            start_timeout=self.start_limit,
                            probe_timeout=min(3.0, self.start_timeout), **handlers)
        self.down.clear()
        client.on_broken = self.down.set
        self.client = client
        client.connect()
        # The eras of our calls that its answer cannot settle at once: a modern caller's
        # before a legacy mount (its questions park), and every one with middleware around
        # tool calls (a relay answered later would skip it).
        self.parking = frozenset(e for e in (LEGACY, MODERN) if _parks(e, client.era) or
                                 self.server.wrapped("tools/call"))
        self._list()

    def _why(self, error):
        """What stopped a start: the process's end when it ended, else error."""
        client = self.client
        code = client.ended(1.0) if client is not None and client.pid is not None else None
        return _short_text(error) if code is None else _exit_words(code)

    def _wait_until_down(self):
        """Return when the mounted process exits, writes what cannot be trusted, or hangs:
        no answer to a ping within ping_timeout seconds while calls wait on it (it is then
        stopped)."""
        client = self.client
        if client.pid is None:           # in this process: it cannot exit or hang alone
            self.stop.wait()
            return
        # Its client breaks when the server exits or writes what cannot be trusted (a
        # malformed answer): down either way.
        while not self.down.wait(self.ping_timeout) and not self.stop.is_set():
            if self.calls and client.broken is None:
                try:
                    client.request("ping", timeout=self.ping_timeout)
                except ClientError:
                    self.reason = client.broken or \
                        "it did not answer a ping within %g s" % self.ping_timeout
                    client.kill()        # hung: not worth the polite steps of close()
                    return
        if not self.stop.is_set():
            code = client.ended(1.0)
            self.reason = _exit_words(code) if code is not None else \
                client.broken or "it exited"

    # -- its entries -------------------------------------------------------------
    def _list(self):
        """List what the mounted server offers and make our catalog match it."""
        c, caps = self.client, self.client.server_capabilities or {}
        made = {kind.attr: [] for kind in _CORE_KINDS}
        names = {}                       # kind -> its own names (or URIs) as listed
        # Listing is part of starting: a short --timeout (meant for calls) must not cut it.
        t = max(c.timeout, self.start_timeout)
        makers = {"tools": self._tool, "prompts": self._prompt, "resources": self._resource,
                  "templates": self._template}
        for kind in _CORE_KINDS:
            if kind.capability not in caps:
                continue
            try:
                listed = c.list_all(kind.list_method, kind.field, None, t)
            except (ServerError, MalformedResult) as e:   # the other kinds still serve
                self.report("mount %r: %s failed: %s; its %ss are served empty" % (
                    self.prefix, kind.list_method, "%s %s" % (e.code, _short_text(e)) if
                    isinstance(e, ServerError) else _short_text(e), kind.noun))
                continue
            made[kind.attr] = [x for x in listed if self._serves(x)]
            names[kind.attr] = [self._own_name(x) for x in listed]
        if not self.patterns_said:
            self.patterns_said = True
            self._say_unmatched(names)
        with _TAKING:                # one mount at a time decides who serves a shared key
            self._take(made, makers)
        # Its list changes (a modern server sends them only on a listen stream) and the
        # updates of the resources we serve of it, for our clients' subscriptions.
        uris = frozenset(self.owned["resources"])
        if c is not self._listened[0] or uris != self._listened[1]:
            self._listened = (c, uris)
            try:
                c.listen(uris)
            except ClientError as e:       # its entries still serve; their updates do not come
                self.report("mount %r: cannot subscribe to its changes: %s" % (
                    self.prefix, _short_text(e)))

    def _take(self, made, makers):
        """Make our catalog serve what it listed (made: kind -> listings it serves), in one
        change. A key the server or an earlier mount (in the order of mount()) serves stays
        theirs; one a later mount took first, because it listed first, becomes ours."""
        mounts = [m for m in self.server.sources if isinstance(m, _Mount)]
        rank = mounts.index(self)
        added, removed = [], []
        for attr, listed in made.items():
            table, kind = getattr(self.server, attr), _KIND_BY_ATTR[attr]
            before, now, whose = self.listings[attr], {}, {}
            for x in listed:
                key = self._key(attr, x)
                if key in whose:            # two of its names become one of ours
                    self.report("mount %r: %s %r and %r would both be served as %r; the first "
                                "is, %r is not (rename one)" % (
                                    self.prefix, kind.noun + "s", whose[key],
                                    self._own_name(x), key, self._own_name(x)))
                    continue
                whose[key] = self._own_name(x)
                if key in table and key not in self.owned[attr]:
                    holder = next((m for m in mounts if key in m.owned[attr]), None)
                    if holder is None or mounts.index(holder) < rank:
                        self.report("mount %r: %s %r is served already (by the server or an "
                                    "earlier mount); this one is not" % (self.prefix,
                                                                         kind.noun, key))
                        continue
                    holder.owned[attr].discard(key)        # ours replaces it in the change
                    holder.listings[attr].pop(key, None)
                    holder.report("mount %r: %s %r is served by mount %r, which comes first; "
                                  "this one is not" % (holder.prefix, kind.noun, key,
                                                       self.prefix))
                seen = (x, self._own(attr, x))      # what it lists, and what we serve of it
                if key in before and before[key] == seen and key in table:
                    now[key] = seen         # listed as before: nothing changed to tell
                    continue
                e = makers[attr](x)
                if e is not None:
                    added.append(e)
                    now[getattr(e, kind.key)] = seen
            removed += [(attr, key) for key in self.owned[attr] - set(now) if key in table]
            self.owned[attr], self.listings[attr] = set(now), now
        for e, why in self.server.change(added, removed):     # one change for its clients
            self.report("mount %r: %s" % (self.prefix, why))
            attr = next(k.attr for k in _CORE_KINDS if isinstance(e, k.cls))
            key = getattr(e, _KIND_BY_ATTR[attr].key)
            self.owned[attr].discard(key)
            self.listings[attr].pop(key, None)

    def _key(self, attr, x):
        """Our key (a name or URI) of what the mount's listing x of kind attr becomes."""
        if _KIND_BY_ATTR[attr].key == "name":          # tools and prompts: named by the mount's naming
            return self._named(x["name"]) if type(x.get("name")) is str else None
        return x.get(_KIND_BY_ATTR[attr].listed)

    def _own(self, attr, x):
        """The entry a Server object mounted in this process serves for its listing x (of
        kind attr): served directly, values and not bytes passed, where no middleware of
        its own runs around it (its engine would run it as ours does); else None, and it
        is relayed through that server's engine, as a process's is."""
        target, kind = self.target, _KIND_BY_ATTR[attr]
        if not self.in_process or target.catalog is None or \
                any(target.wrapped(m) for m in kind.served_by):
            return None
        return getattr(target.catalog, attr).get(x.get(kind.listed))

    def _direct(self, own, **fields):
        """own (a mounted Server object's entry) as ours: its handler sees its own serve's
        state (ctx.state) where that server has a lifespan."""
        if self.target.lifespan is not None:
            handler = own.handler

            def served(*args):           # (arguments | uri [, variables], ctx)
                # A mount starting again is waited for, and one down answered, as for a
                # relayed call: its handler never runs with this serve's state instead.
                self.ready()
                fault = self._fault()
                if fault:
                    raise ProtocolError(INTERNAL_ERROR, "Internal error: " + fault)
                client, ctx = self.client, args[-1]
                state = client.state if client is not None else None
                return handler(*args[:-1], ctx.serving(state) if ctx is not None and
                               state is not None else ctx)
            fields["handler"] = served
        return _copied(own, **fields) if fields else own

    def _say_unmatched(self, names):
        """Report each pattern of include, exclude and pinned that matches none of the
        names it lists (names: kind -> its own names), as --tools says of its own."""
        for option, patterns in self.patterns.items():
            table = set(names.get("tools", ())) if option == "pinned" else \
                {n for listed in names.values() for n in listed}
            for p in _unmatched(patterns or (), table):
                self.report("mount %r: %s %r matches none of its %s" % (
                    self.prefix, option, p, "tools" if option == "pinned" else
                    "names or URIs"))

    @staticmethod
    def _own_name(entry):
        """The mount's own name of its listed entry (a URI or template for resources)."""
        own = entry.get("name") if "uri" not in entry and "uriTemplate" not in entry else \
            entry.get("uri") or entry.get("uriTemplate")
        return own if type(own) is str else ""

    def _serves(self, entry):
        """True when the mount's options serve entry (a listing's), by its own name or URI."""
        own = self._own_name(entry)
        return (self.include is None or self.include.match(own) is not None) and \
            (self.exclude is None or self.exclude.match(own) is None)

    def _pins(self, inner):
        """True when the mount's options pin its tool inner (tool search lists it)."""
        return self.pinned is not None and self.pinned.match(inner) is not None

    def _named(self, inner):
        """Our name for the mount's tool or prompt inner: its rename, else inner under the
        naming prefix, unless it starts with that prefix already (git's git_status under
        "git" stays git_status, fetch's fetch under "fetch" fetch) or there is none."""
        renamed = self.rename.get(inner)
        if renamed:
            return renamed
        naming = self.naming
        return inner if not naming or inner == naming or inner.startswith(naming + "_") \
            else "%s_%s" % (naming, inner)

    def _made(self, make, what):
        try:
            return make()
        except CatalogError as e:
            self.report("mount %r: %s is not served: %s" % (self.prefix, what, e))
            return None

    def _tool(self, t):
        inner = t["name"]
        name = self._named(inner)
        self.tasks[inner] = (t.get("execution") or {}).get("taskSupport")
        mark = {MOUNT_KEY: {"server": self.prefix, "name": inner}}
        own = self._own("tools", t)
        if own is not None:
            prefix = self.prefix

            def direct(call, ctx):          # its errors as a process mount passes them on
                try:
                    return own.work(call, ctx)
                except ProtocolError as e:
                    raise _passed_on(e, prefix, call.era, tool=True)

            def make():
                _check_tool_name(name)
                # Listed as a process mount lists it: one that must run as a task may.
                return self._direct(own, name=name, meta=dict(own.meta or {}, **mark),
                                    work=direct, task=("optional" if own.task == "required"
                                                       else own.task),
                                    pinned=own.pinned or self._pins(inner),
                                    search_hint=self.hints.get(inner, own.search_hint))
            return self._made(make, "tool %r" % inner)

        def handler(arguments, ctx):
            return self.call_tool(inner, arguments, ctx)

        def work(call, ctx):
            client = self.client
            if call.keeper is None and type(client) is Client and self.state == "up" and \
                    call.era not in self.parking and self.tasks.get(inner) != "required":
                self._call_later(client, inner, call, ctx)      # raises _Left
            return Tool.work(call, ctx)
        fields = _listed_fields(t)
        fields["search_hint"] = self.hints.get(inner)
        task = (t.get("execution") or {}).get("taskSupport")
        if task in ("optional", "required"):        # an outer task is one inner task
            # One that must run as a task is followed here for a client that asks none
            # (call_tool): a host without tasks sees it too, and its author could not say so.
            fields["task"] = "optional"
        own_meta = t.get("_meta")         # its own, but what we govern and say ourselves
        fields["meta"] = dict({k: v for k, v in own_meta.items() if k not in _GOVERNED_META}
                              if type(own_meta) is dict else (), **mark)
        fields["pinned"] = self._pins(inner)

        def make():
            try:
                tool = Tool(name, handler, input_schema=t.get("inputSchema") or
                            {"type": "object"}, output_schema=t.get("outputSchema"), **fields)
            except CatalogError:        # a schema outside our subset: the mount checks it
                tool = Tool(name, handler, input_schema={"type": "object"}, **fields)
            tool.work = work
            return tool
        return self._made(make, "tool %r" % inner)

    def _prompt(self, p):
        inner = p["name"]
        own = self._own("prompts", p)
        if own is not None:
            return self._direct(own, name=self._named(inner))   # a prompt's name: any string
        ref = {"type": "ref/prompt", "name": inner}
        fields = {k: p.get(k) for k in ("title", "description", "icons") if p.get(k)}
        return self._made(lambda: Prompt(
            self._named(inner), lambda arguments, ctx: self.ask(
                "prompts/get", {"name": inner, "arguments": arguments}, ctx),
            arguments=[{k: a[k] for k in ("name", "title", "description", "required")
                        if k in a} for a in p.get("arguments") or ()],
            complete=lambda argument, value, context: self.complete(ref, argument, value,
                                                                   context), **fields),
                          "prompt %r" % inner)

    def _resource(self, r):
        own = self._own("resources", r)
        if own is not None:
            return self._direct(own)
        fields = _listed_fields(r)
        return self._made(lambda: Resource(
            r["uri"], lambda uri, ctx: self.ask("resources/read", {"uri": uri},
                                                ctx)["contents"],
            name=r.get("name"), mime_type=r.get("mimeType"), size=r.get("size"), **fields),
                          "resource %r" % r.get("uri"))

    def _template(self, t):
        own = self._own("templates", t)
        if own is not None:
            return self._direct(own)
        ref = {"type": "ref/resource", "uri": t["uriTemplate"]}
        fields = _listed_fields(t)
        return self._made(lambda: ResourceTemplate(
            t["uriTemplate"], lambda uri, variables, ctx: self.ask(
                "resources/read", {"uri": uri}, ctx)["contents"],
            name=t.get("name") or t["uriTemplate"], mime_type=t.get("mimeType"),
            complete=lambda argument, value, context: self.complete(ref, argument, value,
                                                                   context), **fields),
                          "resource template %r" % t.get("uriTemplate"))

    def _changed(self, method):
        """A list-changed notification of the mounted server's: list again (off its reader)."""
        if method.endswith("/list_changed") and self.state == "up":
            threading.Thread(target=self._relist, daemon=True).start()

    def _updated(self, uri):
        """The mounted server's resource changed: ours, for our subscribers, when we serve it."""
        server = self.server
        if uri in self.owned["resources"] or any(
                t in server.templates and server.templates[t].match(uri) is not None
                for t in self.owned["templates"]):
            server.notify_resource_updated(uri)

    def _relist(self):
        try:
            self._list()
        except Exception as e:   # noqa: BLE001 - the next change or restart lists again
            self.report("mount %r: listing again failed: %s" % (self.prefix, _short_text(e)))

    # -- calls -------------------------------------------------------------------
    def _fault(self):
        if self.state == "up" and self.client is not None:
            return None
        when = "" if self.retry_at is None else "; starting again in %d s" % max(
            1, round(self.retry_at - _monotonic()))
        return "mount %r is %s%s%s" % (self.prefix, self.state, (
            " (%s)" % self.reason) if self.reason else "", when)

    def ready(self):
        """Wait for a mount that is starting, its start timeout at most (a call of its
        entries waits as the first list does); one that is down answers at once."""
        began = self.attempted
        if self.state == "starting" and began is not None:
            self.up.wait(max(0.0, began + self.start_timeout - _monotonic()))

    def _through(self, ctx, run):
        """run(client) for a call of ctx's: its questions relayed, its cancellation passed."""
        self.ready()
        fault = self._fault()
        if fault:
            raise ClientError(fault)
        outer = getattr(_MOUNT_CALL, "ctx", None)
        _MOUNT_CALL.ctx = ctx
        self.calls.append(ctx)
        try:
            return run(self.client)
        finally:
            self.calls.remove(ctx)
            _MOUNT_CALL.ctx = outer

    def call_tool(self, name, arguments, ctx):
        """Call the mounted tool; its answer, or an isError result naming the mount."""
        progress = ctx.progress if ctx.progress_token is not None else None
        # As a task when ours is one (or the mounted tool needs one); the client follows
        # the mount's task to its end, and our task's id is ours.
        task = True if ctx.is_task or self.tasks.get(name) == "required" else None
        self.ready()      # a mount starting again: its new client has no era until it is up
        client = self.client
        try:
            if task is None and client is not None and client.era is not None and \
                    _parks(ctx.era, client.era):
                self._refresh_roots(ctx)
                r = self._through(ctx, lambda c: self._call_parking(c, name, arguments, ctx,
                                                                    progress))
            else:
                r = self._through(ctx, lambda c: c.call_tool(
                    name, arguments, on_progress=progress, task=task, cancel_with=ctx,
                    meta=ctx.trace,       # the caller's trace context goes on with it
                    capabilities=_declared(ctx)))
        except ServerError as e:          # the mounted server's own error, as it said it
            raise _passed_on(e, self.prefix, ctx.era, tool=True)
        except ClientError as e:
            raise self._tool_error(e)
        return _mounted_result(r)      # Tool.work checks it (middleware reads it as a value)

    def _call_later(self, client, name, call, ctx):
        """Send the mounted call and leave ours to be answered when the mount's answer
        comes, on the mount's reader thread: no thread of ours waits for it (a plain call
        of a mounted process that is up, with no middleware around tool calls). The
        runtime still times it out; its cancellation is passed on. An answer that asks
        questions, or is a task, is followed on a thread of its own."""
        progress = ctx.progress if call.progress_token is not None else None
        params = _mounted_call(name, call.arguments, call.meta and _trace_context(call.meta))
        self.calls.append(ctx)           # before the send: a quick question finds its call
        caps = _declared(ctx)
        try:
            req = client.send("tools/call", params, on_progress=progress, capabilities=caps)
        except ClientError as e:
            self.calls.remove(ctx)
            raise self._tool_error(e)
        ctx.when_cancelled(lambda: req.cancel("cancelled"))
        req.then(self._answered, req, call, ctx, params, progress, caps)
        raise _Left()

    def _answered(self, req, call, ctx, params, progress, caps):
        """Answer our call with the mount's answer to it."""
        try:
            self.calls.remove(ctx)
        except ValueError:               # a race called it twice
            pass
        call.on_cancel = None            # it refers to ctx, which refers to call: freed now
        if call.settled:                 # cancelled or timed out meanwhile
            return
        r = req.result                   # answered: no wait
        if r is None:
            self._answer_with(call, req.wait, 0)           # raises its error
        elif r.get("resultType") in (None, "complete"):
            try:
                outcome = _relayed_result(call, r)
            except ClientError as e:              # a malformed result (MalformedResult)
                outcome = self._tool_error(e)
            except Exception as e:   # noqa: BLE001 - shaped as the engine shapes a handler's
                outcome = e
            call.conn.settle(call, outcome)
        else:
            threading.Thread(target=self._answer_with, daemon=True, name="mcp-mount-follow",
                             args=(call, self._through, ctx, lambda c: c.follow(
                                 "tools/call", params, r, cancel_with=ctx,
                                 on_progress=progress, capabilities=caps))).start()

    def _answer_with(self, call, get, *args):
        """Answer call with the tools/call result get(*args) returns, or the error it
        raises, as call_tool would."""
        try:
            outcome = _relayed_result(call, get(*args))
        except ServerError as e:
            outcome = _passed_on(e, self.prefix, call.era, tool=True)
        except ClientError as e:
            outcome = self._tool_error(e)
        except BaseException as e:   # noqa: B902 - shaped as the engine shapes a handler's
            outcome = e
        call.conn.settle(call, outcome)

    def _tool_error(self, error):
        """The ToolError (an isError result) a call through the mount ends in for error."""
        return ToolError(str(error) if str(error).startswith("mount ") else
                         "mount %r: %s" % (self.prefix, error))

    def _call_parking(self, client, name, arguments, ctx, progress):
        """A legacy mount's call for a modern client, whose questions are asked by answering
        our call with them: the mount's call waits, parked, for the client's retry."""
        found = [k for k in ctx.input_responses if k in self.parked]
        # Its questions park here from the moment it is sent: a quick one comes first.
        waiting = self.questions.setdefault(id(ctx), [])
        try:
            if found:                          # the retry: answer the parked question
                req, parked = self.parked.pop(found[0])
                parked.answer = ctx.ask({found[0]: parked.question})[found[0]]
                parked.answered.set()
            else:
                req = client.send("tools/call", _mounted_call(name, arguments, ctx.trace),
                                  on_progress=progress)
            ctx.when_cancelled(lambda: req.cancel("cancelled"))
            while not req.answered(_PARKED_POLL):
                if waiting:
                    parked = waiting.pop(0)
                    if not all(ctx.can(need) for need in parked.question.needs()):
                        parked.answered.set()    # no answer: the mount is answered at once
                        continue
                    key = _relay_key(parked.question.method, parked.question.asked)
                    self.parked[key] = (req, parked)
                    return ctx.ask({key: parked.question})[key]   # a modern client: raises
        finally:
            self.questions.pop(id(ctx), None)
        return _checked("tools/call", req.wait(0))

    def ask(self, method, params, ctx):
        """A read or a prompt get through the mount; -32603 naming it when it fails."""
        try:
            trace = ctx.trace
            return self._through(ctx, lambda c: c.request(
                method, dict(params, _meta=trace) if trace else params, cancel_with=ctx,
                capabilities=_declared(ctx)))
        except ServerError as e:
            raise _passed_on(e, self.prefix, ctx.era)
        except ClientError as e:
            raise ProtocolError(INTERNAL_ERROR, "Internal error: " + (
                str(e) if str(e).startswith("mount ") else "mount %r: %s" % (self.prefix, e)))

    def complete(self, ref, argument, value, context):
        self.ready()
        if self._fault():
            return []
        try:
            r = self.client.complete(ref, argument, value, context)
        except ClientError:
            return []
        return (r.get("completion") or {}).get("values") or []

    # -- what the mounted server says and asks -------------------------------------
    def _asker(self):
        """The Context of the call a question of the mount's belongs to, or None.

        A modern mount asks in rounds on the calling thread: its call's own. A
        legacy mount asks by requests, which say no call: it is the call's only
        when one call is in flight at the mount.
        """
        ctx = getattr(_MOUNT_CALL, "ctx", None)
        if ctx is not None and self.client is not None and _in_rounds(self.client.era):
            return ctx
        calls = list(self.calls)
        return calls[0] if len(calls) == 1 else None

    def _question(self, method, params):
        """Our answer to a question of the mounted server's (elicitation, sampling): our
        client's, where the question belongs to a call that can ask it; else what a client
        with the capability may answer (elicitation cancelled, sampling refused)."""
        answer = self._relay(method, params)
        if answer is not None:
            return answer
        if getattr(_MOUNT_CALL, "ctx", None) is not None and _in_rounds(self.client.era):
            # A round of the mount's: a sample it cannot have is said as unanswered.
            return {"action": "cancel"} if method == "elicitation/create" else None
        return _unanswered(method)

    def _relay(self, method, params):
        """Our client's answer to a question that belongs to a call of ours that can ask it
        (a modern client's is parked for its retry); None where there is none."""
        ctx, here = self._asker(), getattr(_MOUNT_CALL, "ctx", None)
        waiting = self.questions.get(id(ctx)) if ctx is not None else None
        if waiting is not None and here is None:   # a modern client's call: parked
            parked = _Parked(method, params)
            waiting.append(parked)
            return parked.answer if parked.answered.wait(_PARKED_TIMEOUT) else None
        if ctx is not None and (not _in_rounds(ctx.era) or (
                here is ctx and _in_rounds(self.client.era))):
            try:
                key = _relay_key(method, params)
                return ctx.ask({key: _Relayed(method, params)})[key]
            except (ProtocolError, ToolError, ValueError):
                pass                            # our client cannot be asked
        return None

    def _roots(self):
        """Our client's roots, for the mounted server: asked of our client where it can be
        (in the call the question belongs to, or by a request of our own to a legacy
        client that declared roots), else the roots it last gave, else none."""
        answer = self._relay("roots/list", {})
        roots = answer.get("roots") if isinstance(answer, dict) else None
        if isinstance(roots, list):
            self.roots_given = roots
            return roots
        for conn in self.server.connections():
            got, box = threading.Event(), []
            if conn.outgoing.ask_alone(Roots(), lambda v: (box.append(v), got.set())):
                if got.wait(self.server.elicit_timeout) and box[0] is not None:
                    self.roots_given = box[0]
                break
        self.roots_guessed = self.roots_given is None
        self.roots_told.set()
        return self.roots_given or []

    def _refresh_roots(self, ctx):
        """Before a modern client's first call, when the legacy mount was answered no roots
        for want of a client to ask (one asks outside calls, which a modern client cannot
        be asked in): ask this call's client for them, tell the mount they changed, and let
        it ask again (a second at most) before the call goes."""
        if not self.roots_guessed or not ctx.can("roots"):
            return
        try:
            self.roots_given = ctx.ask({"mount-roots": Roots()})["mount-roots"]
        except (ProtocolError, ToolError, ValueError):
            return                      # not answered: it keeps none
        self.roots_guessed = False
        self.roots_told.clear()
        _quietly_told(self.client)
        self.roots_told.wait(_ROOTS_ASKED_AGAIN)

    def roots_changed(self):
        """Our client's roots changed: forget them, and tell a legacy mount (off the reading
        thread: the engine does no I/O)."""
        self.roots_given = None
        client = self.client
        if client is not None and self.state == "up" and not _in_rounds(client.era):
            threading.Thread(target=_quietly_told, args=(client,), daemon=True).start()

    def _log(self, level, data, logger=None):
        calls = self.calls
        if calls:
            try:
                calls[0].log(level if level in _LEVELS else "info", "mount %s%s" % (
                    self.prefix, ": %s" % logger if type(logger) is str else ""), data)
            except Exception:   # noqa: BLE001 - a log line is never worth a failure
                pass


def _in_rounds(era):
    """True when a peer of era is asked by input rounds of a request (modern), not by
    requests of its peer's own (legacy): the era rules say which."""
    return _ERA_RULES[era].input_rounds


def _parks(caller, mount):
    """True when a caller of era caller is in front of a mount of era mount that asks by
    requests while the caller is asked by rounds: the mount's questions wait, parked, for
    the caller's retry."""
    return _in_rounds(caller) and not _in_rounds(mount)


def _declared(ctx):
    """The client capabilities a call of ctx's declares to a modern mount: what our caller
    declared for it, of what we can relay."""
    caps = ctx.client_capabilities
    return {k: v for k, v in caps.items() if k in _RELAYED_CAPABILITIES} if caps else caps


def _unanswered(method):
    """What a client with the capability may answer a question it cannot put to anyone:
    an elicitation is cancelled, a sampling request refused."""
    if method == "elicitation/create":
        return {"action": "cancel"}
    raise ProtocolError(_SAMPLING_REFUSED, "User rejected sampling request")


def _quietly_told(client):
    try:
        client.roots_changed()
    except ClientError:           # its server is gone: it hears nothing more
        pass


def _listed_fields(entry):
    """The display fields a mounted entry's listing gives, as our entry's keywords."""
    return {k: entry[k] for k in ("title", "description", "annotations", "icons")
            if entry.get(k) is not None}


def _relay_key(method, params):
    """The key of a relayed question, from the question: a modern client's retry asks it
    again, and it must find its answer."""
    import hashlib
    return "mount-" + hashlib.sha256(_encoder.encode([method, {
        k: v for k, v in params.items() if k != "_meta"}]).encode("utf-8")).hexdigest()[:16]


def _sources_listed(request, next):
    """Middleware of a server with mounts: a list waits until every one has listed."""
    for source in request.conn.server.sources:
        source.wait()
    return next()


###############################################################################
# Server: identity, catalog and options #######################################
###############################################################################


class _Option:
    """One server option: keyword, default, kind, lower bound, flag, help and reason."""

    __slots__ = ("name", "default", "kind", "low", "flag", "metavar", "help", "reason")

    def __init__(self, name, default, kind, flag, metavar, help, reason="", low=None):
        self.name, self.default, self.kind, self.low = name, default, kind, low
        self.flag, self.metavar, self.help, self.reason = flag, metavar, help, reason

    def check(self, value):
        """Return value converted for the server, or raise CatalogError saying why not."""
        kind = self.kind
        if kind == "names":
            if value is None:
                return None
            if isinstance(value, str):
                raise CatalogError("%s: give a list of names, not a string" % self.name)
            value = list(value)
            if any(not isinstance(v, str) for v in value):
                raise CatalogError("%s: every name must be a string" % self.name)
            return value
        if kind == "flag":
            if not isinstance(value, bool):
                raise CatalogError("server: %s must be True or False" % self.name)
            return value
        if kind == "task":
            if value not in _TASK_MODES:
                raise CatalogError("server: %s must be one of %s" % (self.name,
                                                                      ", ".join(_TASK_MODES)))
            return value
        if kind == "key":
            if value is not None and (not isinstance(value, bytes) or len(value) < 16):
                raise CatalogError("server: %s must be at least 16 bytes" % self.name)
            return value
        if kind == "int":
            if value is None and self.default is None:
                return None
            if not isinstance(value, int) or isinstance(value, bool) or value < self.low:
                raise CatalogError("server: %s must be an integer of at least %d"
                                   % (self.name, self.low))
            return value
        if value is not None and not _is_seconds(value):
            raise CatalogError("server: %s must be a positive number of seconds" % self.name)
        return value

    def parse(self, text):
        """Convert a command-line value; raise ValueError when it is not one."""
        if self.kind == "names":
            return [n for n in text.split(",") if n]
        return int(text) if self.kind == "int" else float(text)


# Every option of a Server: the constructor's keywords, configure(), the
# command line and --help all come from this table.
_OPTIONS = (
    _Option("grant", None, "names", "--tools", "A,B",
            "serve only these tools, by name or shell-style pattern ('fs_*'); others are "
            "neither listed nor callable"),
    _Option("grant_resources", None, "names", "--resources", "U,V",
            "serve only these resource URIs and URI templates (or patterns)"),
    _Option("grant_prompts", None, "names", "--prompts", "P,Q",
            "serve only these prompts (or patterns)"),
    _Option("page_size", 100, "int", "--page-size", "N", "items per page of the list methods",
            "most catalogs fit one page; a page stays far below the response limit", low=1),
    _Option("workers", 16, "int", "--workers", "N",
            "slow calls (and tasks' work) that may run at once; quick calls run on the "
            "reading thread",
            "enough for a host's parallel calls; bounds threads a flood can start", low=1),
    _Option("backlog", 64, "int", "--backlog", "N",
            "calls that may wait for a worker; more get a busy answer",
            "absorbs a burst; bounds memory held by waiting calls", low=0),
    _Option("timeout", 300.0, "seconds", "--timeout", "SECONDS",
            "default time limit of a call (a task's work included: past it, the task ends)",
            "hosts give up on a call after minutes; a stuck one must not hold a worker forever"),
    _Option("grace", 10.0, "seconds", "--grace", "SECONDS",
            "time given to calls in flight after stdin closes",
            "lets short calls finish without keeping an orphaned server alive"),
    _Option("elicit_timeout", 300.0, "seconds", "--elicit-timeout", "SECONDS",
            "how long a legacy call waits for the user's answer",
            "a person needs minutes; a client that never answers must not hold a worker"),
    _Option("max_line", 1 << 20, "int", "--max-line", "BYTES",
            "longest accepted message line (without its LF)",
            "bounds the memory one message may take", low=1),
    _Option("max_method", 128, "int", "--max-method", "BYTES",
            "longest accepted method name (UTF-8)",
            "real method names are short; long ones only cost work and log space", low=1),
    _Option("max_params", 256 << 10, "int", "--max-params", "BYTES",
            "largest accepted encoded params",
            "bounds what one request makes a handler validate and hold", low=1),
    _Option("max_depth", 32, "int", "--max-depth", "N",
            "deepest accepted nesting of arrays and objects",
            "MCP messages nest a few levels; deep nesting only serves to exhaust the stack",
            low=1),
    _Option("max_response", 1 << 20, "int", "--max-response", "BYTES",
            "largest response line sent (without its LF)",
            "clients buffer whole lines; some stop at a few MiB", low=1),
    _Option("ttl_ms", None, "int", "--ttl-ms", "MS",
            "cache hint of list results in the modern era (default 3600000, or 60000 for a "
            "live server)", "an hour for a catalog that never changes; a minute for one that "
            "may, so a client that missed a notification catches up soon", low=0),
    _Option("null_error_id", False, "flag", "--null-error-id", None,
            'send "id": null on errors whose request id is unknown',
            "strict JSON-RPC 2.0 peers expect it; the MCP schemas allow no id"),
    _Option("error_details", False, "flag", "--error-details", None,
            "include the exception text in the result of a tool that fails",
            "off by default: an exception's text may hold secrets"),
    _Option("tool_search", False, "flag", "--tool-search", None,
            "list two tools, search_tools and call_tool, and the pinned tools, instead of "
            "every tool (each stays callable by its name)",
            "hosts hold about forty tools well; each listed schema costs the model's context"),
    _Option("tool_search_names", ["search_tools", "call_tool"], "names",
            "--tool-search-names", "S,C", "the names of the two search tools",
            "for a catalog that has tools of those names already"),
    _Option("pin", None, "names", "--pin", "A,B",
            "with --tool-search, keep these tools listed too (names or patterns)"),
    _Option("mount_wait", 5.0, "seconds", "--mount-wait", "SECONDS",
            "how long a serve's first answer (initialize, server/discover) waits for its "
            "mounts to start, so that their instructions are in it",
            "under every host's start limit; a mount slower than that is named as starting"),
    _Option("max_tasks", 100, "int", "--max-tasks", "N",
            "tasks a connection may hold (running or finished, until their TTL)",
            "bounds the memory a client can pin with tasks; more get a busy answer", low=1),
    _Option("task_ttl_ms", 600000, "int", "--task-ttl", "MS",
            "how long a task and its result are kept (a client may ask for less)",
            "long enough to fetch a result after a break, short enough to free it", low=1),
    # Options of the code, not of the command line (no flag):
    _Option("task_support", "forbidden", "task", None, None,
            "may decorated tools run as tasks: forbidden, optional or required",
            "a tool runs as a task only when its author says it may"),
    _Option("live", False, "flag", None, None,
            "the catalog may change while serving (clients are told)",
            "a catalog that never changes is cached for an hour and offers no subscriptions"),
    _Option("state_key", None, "key", None, None,
            "the key that signs modern requestState (default: random per connection)",
            "a fixed key lets several server processes accept each other's states"),
)
_OPTION_BY_NAME = {o.name: o for o in _OPTIONS}


class Server(_Decorators, _AppsServer, _SkillsServer):     # what extensions add (app(), ...)
    """An MCP server: an identity, a catalog of tools, resources and prompts, and options.

    Pass the catalog to the constructor, or register entries with add() and the
    decorators (tool(), resource(), resource_template(), prompt()) until the
    server starts serving; then it is fixed, unless the server was made with
    live=True (add, replace and remove at any time). Every entry is validated when it
    is added: a bad definition raises CatalogError. The options (grant,
    page_size, workers, timeout, ...: see ``--help``) are keyword arguments
    here and of configure(). grant, grant_resources and grant_prompts restrict
    what is served: the rest is neither listed nor usable, and nothing reveals
    that it exists. lifespan is a context manager or (async) generator function
    taking the server: its setup runs before serving, what it yields becomes
    server.state (ctx.state), its teardown runs however serving ends. Serve
    with run() (stdio), test with InProcessClient, or drive a Connection from
    connection().
    """

    def __init__(self, name: str, version: str, *, title: str | None = None,
                 description: str | None = None, instructions: str | None = None,
                 website_url: str | None = None, icons: Any = None, tools: Any = (),
                 resources: Any = (), templates: Any = (), prompts: Any = (),
                 lifespan: Callable[..., Any] | None = None, **options: Any) -> None:
        if not isinstance(name, str) or not name or not isinstance(version, str) or not version:
            raise CatalogError("server: name and version must be non-empty strings")
        if lifespan is not None and not callable(lifespan):
            raise CatalogError("server: lifespan must be a function (a context manager or "
                               "generator function taking the server)")
        self.name, self.version = name, version
        self.title, self.description = title, description
        self.instructions = instructions
        self.website_url, self.icons = website_url, icons
        self.lifespan = lifespan
        self.state = None
        for kind in _KINDS:              # self.tools, self.resources, ...: {key: entry}
            setattr(self, kind.attr, {})
        self.catalog = None            # what is offered now, once serving (a _Catalog)
        self._decorated = []           # each function the decorators registered
        self._frozen = False
        self._kept_listings = None     # a serve's listings kept between starts (run())
        self._hiding = _HIDE_HOOKS         # set for what is offered when serving starts
        self._lock = threading.RLock()     # orders catalog changes
        self._connections = []
        self._middleware = []          # (fn, kinds or None), outermost first
        self._chains = {}              # method -> its middleware, made when serving starts
        # What serves beside the engine and adds to the catalog after serving starts (each
        # mount): it starts with the first serve (begin(report)), is told to end
        # (stopping()) and ends (end(grace)) or is abandoned (abandon()) with the last;
        # says how long a request may wait for what it has still to add (pending():
        # seconds, or None once it has listed; no clock, read while feeding) and waits for
        # that (wait(), off the reading thread); says whether it is not up now (absent(),
        # named by its prefix); and hears the client's notifications the engine does not
        # act on (heard(conn, method, params)).
        self.sources = []
        self._serving = 0              # serves running: mounts run while one does
        self._scoping_said = False     # report_scoping() spoke for this serve
        for o in _OPTIONS:
            setattr(self, o.name, o.default)
        self.configure(**options)
        self.add(*tools, *resources, *templates, *prompts)

    def configure(self, **options: Any) -> Any:
        """Set options (the keyword arguments of the constructor) before serving."""
        if self._frozen and options:
            raise CatalogError("server %r: %s cannot change once it serves (connections "
                               "already follow them)" % (self.name, ", ".join(sorted(options))))
        unknown = sorted(set(options) - set(_OPTION_BY_NAME))
        if unknown:
            raise CatalogError("server: unknown option(s): %s (known: %s)" % (
                ", ".join(unknown), ", ".join(o.name for o in _OPTIONS)))
        checked = {k: _OPTION_BY_NAME[k].check(v) for k, v in options.items()}
        for k, v in checked.items():
            setattr(self, k, v)

    def add(self, *entries: Any, replace: Any = False) -> Any:
        """Register Tool, Resource, ResourceTemplate and Prompt objects.

        A live server accepts them at any time, from any thread; its clients
        are told that the list changed. replace=True replaces an entry of the
        same name (or URI) instead of refusing it. A function that a decorator
        registered (server.tool(fn), ...) is added already: adding it again
        does nothing.
        """
        with self._lock:
            self._check_change("added")
            kinds = self._place(entries, replace)
            if kinds:
                self._changed(kinds, entries)

    def change(self, added: Any = (), removed: Any = ()) -> Any:
        """One change of a live catalog: entries added (replacing any of the same name or
        URI) and (kind, key) pairs removed, such as ("tools", "echo"); its clients are told
        once. An entry the catalog refuses is left out: returns [(entry, CatalogError)]."""
        refused, added = [], list(added)
        with self._lock:
            self._check_change("changed")
            kinds = {attr for attr, key in removed
                     if getattr(self, attr).pop(key, None) is not None}
            try:
                kinds |= self._place(added, True)
            except CatalogError:        # one entry's fault: each alone, to say which
                for e in added:
                    try:
                        kinds |= self._place([e], True)
                    except CatalogError as why:
                        refused.append((e, why))
            if kinds:
                self._changed(kinds, added)
        return refused

    def wrapped(self, method: str) -> Any:
        """True when middleware runs around method's requests (once serving)."""
        return method in self._chains

    def _place(self, entries, replace):
        """Put entries in their tables (all, or none when one is refused); return their
        kinds. The caller holds the lock and tells the clients."""
        placed = []                         # (table, key, entry, kind)
        for e in entries:
            kind = _KIND_OF.get(type(e)) or next(
                (kind for kind in _KINDS if isinstance(e, kind.cls)), None)
            if kind is None and any(f is e for f in self._decorated):
                continue                    # registered by a decorator already
            if kind is None:
                raise CatalogError("server: %r is not a Tool, Resource, ResourceTemplate "
                                   "or Prompt%s" % (e, "; register a function with "
                                                    "server.tool(fn) (or resource, "
                                                    "resource_template, prompt)"
                                                    if callable(e) else ""))
            k, table = getattr(e, kind.key), getattr(self, kind.attr)
            if k in table and not replace or placed and (k, kind) in (
                    (p[1], p[3]) for p in placed):
                raise CatalogError("%s %r: registered twice" % (kind.noun, k))
            placed.append((table, k, e, kind))
        if not self._frozen:
            for table, k, e, _ in placed:  # all checked: none is added alone
                table[k] = e
            return set()
        kinds = {p[3].attr for p in placed}
        before = [(table, k, table.get(k)) for table, k, e, _ in placed]
        for table, k, e, _ in placed:
            table[k] = e
        try:
            self._checked()                # what the whole must hold (a tool's view)
        except CatalogError:
            for table, k, old in before:
                if old is None:
                    del table[k]
                else:
                    table[k] = old
            raise
        return kinds

    def mount(self, name: str, command: Any, *, env: Dict[str, str] | None = None,
              cwd: str | None = None, era: str = "auto", start_timeout: float = 10.0,
              ping_timeout: float = 10.0, start_limit: float | None = None,
              include: Any = None, exclude: Any = None, rename: Dict[str, str] | None = None,
              pinned: Any = None, prefix: str | None = None,
              search_hints: Dict[str, str] | None = None) -> Server:
        """Serve another MCP server as part of this one, named name, its names under prefix.

        command is the argument list that starts a stdio server (any language,
        either era), or a Server object served in this process. Its tools and
        prompts are served as prefix_name (prefix: name by default; "" for
        none), a name that starts with prefix_ already as it is, or as the
        name rename gives their own name (two of its names that become one
        are refused when it lists, naming both); its resources and templates
        at their own URIs (one already served
        is not taken over: reported on stderr); include and exclude are lists of
        shell-style patterns (fnmatch) of the mount's own names and URIs to serve
        and to leave out, of every kind, applied before scoping; pinned, the
        patterns of its tools that stay listed with tool search (and that a
        host searching on its own keeps loaded); search_hints, a phrase for
        such a host's search of each tool named (its own name). It
        starts when serving starts; the first list of each kind waits for it,
        start_timeout seconds at most; a call of its entries waits for it as
        long. One slower than that goes on starting, start_limit seconds at
        most (ten times start_timeout by default), and joins with a list
        change. The server becomes live (its catalog follows the mount's). A mount that fails or exits keeps its entries
        listed, answers them with an error naming it and starts again with
        back-off; so does one that does not answer a ping within ping_timeout
        seconds while calls wait on it.
        """
        if self._frozen:
            raise CatalogError("server %r: mount() must come before serving starts" % self.name)
        words = _pattern(r"[A-Za-z0-9_.-]{1,64}\Z")
        if not isinstance(name, str) or not words.match(name):
            raise CatalogError("mount %r: the prefix must be 1-64 characters of A-Z, a-z, 0-9, "
                               "'_', '-' or '.' (it starts every tool name)" % (name,))
        if prefix is not None and (not isinstance(prefix, str) or prefix and not
                                   words.match(prefix)):
            raise CatalogError("mount %r: prefix must be \"\" (none) or 1-64 characters of "
                               "A-Z, a-z, 0-9, '_', '-' or '.'" % name)
        naming = name if prefix is None else prefix
        if any(getattr(m, "prefix", None) == name for m in self.sources):
            raise CatalogError("mount %r: mounted twice" % name)
        if not isinstance(command, Server) and (isinstance(command, str) or not command or
                                                not all(isinstance(a, str) for a in command)):
            raise CatalogError("mount %r: the command must be a list of arguments (no shell) "
                               "or a Server" % name)
        for option, value in (("include", include), ("exclude", exclude), ("pinned", pinned)):
            if value is not None and (not isinstance(value, (list, tuple, set, frozenset)) or
                                      not all(isinstance(p, str) and p for p in value)):
                raise CatalogError("mount %r: %s must be a list of names or shell-style "
                                   "patterns" % (name, option))
        for option, value in (("rename", rename), ("search_hints", search_hints)):
            if value is not None and (not isinstance(value, dict) or not all(
                    isinstance(k, str) and isinstance(v, str) and v.strip()
                    for k, v in value.items())):
                raise CatalogError("mount %r: %s must map the mount's names to %s (strings)"
                                   % (name, option, "ours" if option == "rename" else
                                      "phrases"))
        if start_limit is None:
            start_limit = 10 * start_timeout if _is_seconds(start_timeout) else start_timeout
        for option, value in (("start_timeout", start_timeout), ("ping_timeout", ping_timeout),
                              ("start_limit", start_limit)):
            if not _is_seconds(value):
                raise CatalogError("mount %r: %s must be a positive number of seconds"
                                   % (name, option))
        if not self.sources:
            self.live = True
            self.middleware(_sources_listed, kinds="list")
        # Its name (m.prefix) names it in every report; naming starts its entries' names.
        m = _Mount(self, name, command if isinstance(command, Server) else list(command),
                   env, cwd, era, start_timeout, ping_timeout)
        m.start_limit = max(start_limit, start_timeout)
        m.include, m.exclude, m.pinned = _fnmatch_any(include), _fnmatch_any(exclude), \
            _fnmatch_any(pinned)
        m.rename, m.naming = dict(rename or {}), naming
        m.hints = dict(search_hints or {})
        m.patterns = {k: v for k, v in (("include", include), ("exclude", exclude),
                                        ("pinned", pinned)) if v}
        self.sources.append(m)
        return self

    def remove_tool(self, name: str) -> Any:
        """Remove a tool (a live server's clients are told the list changed)."""
        self._remove("tools", name)

    def remove_resource(self, uri: str) -> Any:
        """Remove a resource."""
        self._remove("resources", uri)

    def remove_template(self, uri_template: str) -> Any:
        """Remove a resource template."""
        self._remove("templates", uri_template)

    def remove_prompt(self, name: str) -> Any:
        """Remove a prompt."""
        self._remove("prompts", name)

    def _remove(self, kind, key):
        with self._lock:
            self._check_change("removed")
            old = getattr(self, kind).pop(key, None)
            if old is None:
                raise CatalogError("server %r: no %s %r to remove" % (self.name, kind[:-1], key))
            try:
                self._checked()
            except CatalogError:
                getattr(self, kind)[key] = old
                raise
            self._changed({kind})

    def _checked(self):
        """Raise CatalogError when a serving catalog breaks a rule of the whole (a tool's view)."""
        if self._frozen:
            for checks in _CHECK_HOOKS:
                checks(self)

    def _check_change(self, what):
        if self._frozen and not self.live:
            raise CatalogError("server %r: entries cannot be %s once it serves; create it with "
                               "live=True so that clients are told when the catalog changes"
                               % (self.name, what))

    def _changed(self, kinds, added=()):
        """Offer the catalog as it is now; tell each connection what it sees change."""
        if not self._frozen:
            return
        old, new = self.catalog, self._granted_catalog()
        new.inherit(old, {id(e) for e in added})
        changed = [k for k in _KIND_BY_ATTR if old.keys(k) != new.keys(k) or
                   any(old.entry(k, n) is not new.entry(k, n) for n in new.keys(k))]
        if changed:
            new.generation = {k: old.generation[k] + (k in changed) for k in _KIND_BY_ATTR}
            self.catalog = new
            for conn in list(self._connections):
                conn.changes.catalog_changed(changed)
        else:
            new.generation = old.generation
            self.catalog = new

    def heard(self, conn: Any, method: str, params: Dict[str, Any]) -> Any:
        """A notification of conn's client the engine does not act on, for its sources (a
        mount hears that the client's roots changed)."""
        for source in self.sources:
            source.heard(conn, method, params)

    def report_scoping(self, report: Callable[..., Any]) -> Any:
        """Say once a serve, to report(line), what the scoping options (--tools, ...) leave
        out of the catalog the mounts have completed, and each name or pattern that
        matches nothing."""
        with self._lock:
            if self._scoping_said:
                return
            self._scoping_said = True
        for o in _OPTIONS:
            grant = getattr(self, o.name) if o.kind == "names" else None
            kinds = [k for k in _KINDS if k.grant == o.name]
            if grant is None or not kinds:
                continue
            names = {n for k in kinds for n in getattr(self, k.attr)}
            noun = kinds[0].noun
            for n in _unmatched(grant, names):
                report("%s: %r matches no %s" % (o.flag, n, noun))
            keep = _matcher(grant)
            left = sorted(n for n in names if not keep(n))
            if left:
                report("%s serves %d of %d %ss; it leaves out %s" % (
                    o.flag, len(names) - len(left), len(names), noun, _some(left)))

    def connections(self) -> Any:
        """The connections serving now."""
        with self._lock:
            return list(self._connections)

    def notify_resource_updated(self, uri: str) -> Any:
        """Tell the clients subscribed to uri that the resource changed (a live server only)."""
        if not self.live:
            raise CatalogError("server %r: resource updates need a server created with live=True"
                               % self.name)
        for conn in list(self._connections):
            conn.changes.resource_updated(uri)

    def freeze(self, report: Callable[..., Any] | None = None) -> Any:
        """Check the grants and start offering the catalog (done when serving starts).

        Options are fixed from then on; the catalog too, unless the server is live.
        Warnings about what real clients refuse go to report(line) (default: stderr).
        """
        with self._lock:
            if self._frozen:
                return self
            if not self.live:        # a live server may grant what it adds later
                for grant in {k.grant: None for k in _KINDS}:
                    if getattr(self, grant) is None:
                        continue                # grants everything
                    kinds = [k for k in _KINDS if k.grant == grant]
                    _granted({n: 1 for k in kinds for n in getattr(self, k.attr)},
                             getattr(self, grant), grant, kinds[0].noun)
            for checks in _CHECK_HOOKS:      # what only the whole catalog can say (links)
                checks(self)
            for warning in self._portability_warnings():
                (report or _report)("warning: " + warning)
            self.catalog = self._granted_catalog()
            self.catalog.generation = dict.fromkeys(_KIND_BY_ATTR, 0)
            # What each extension offers for this catalog, asked once: each scans it.
            offering = {r: r.offers(self, self.catalog) for r in _EXTENSIONS
                        if r.offers is not None}
            self._offered = self._offers(offering)
            self._chains = _chains(self._middleware) if self._middleware else {}
            # The rules that hide a tool from some clients, for the extensions offered (a
            # live server's catalog may come to need any of them).
            self._hiding = _HIDE_HOOKS if self.live else tuple(
                r.hides for r, name in offering.items() if name is not None and
                r.hides is not None)
            if self.ttl_ms is None:
                self.ttl_ms = 60000 if self.live else 3600000
            self._frozen = True
            return self

    def _offers(self, offering):
        """The capabilities offered: what the grants admit (a static server: admit now),
        and what offering ({extension's row: what it offers, or None}) names.

        A live server offers a kind while its grant can still admit an entry of
        it; a kind scoped away entirely is not offered, so nothing reveals that
        entries of it exist.
        """
        cat, offered = self.catalog, {"logging"}
        for k in _KINDS:
            grant = getattr(self, k.grant)
            row = _EXTENSION_OF.get(k.extension) if k.extension is not None else None
            if k.extension is not None and (row is None or not row.serves(self)):
                continue                        # an extension the server does not serve
            if (grant is None or grant) if self.live else getattr(cat, k.attr):
                offered.add(k.capability)
        # tasks when a tool may run as one, apps for a view
        offered.update(name for name in offering.values() if name is not None)
        completers = ("prompts" in offered or "resources" in offered) if self.live else any(
            x.complete is not None for x in list(cat.prompts.values()) +
            list(cat.templates.values()))
        if completers:
            offered.add("completions")
        return frozenset(offered)

    def _granted_catalog(self):
        """What the grants let clients see of the registered entries, sorted."""
        tables = {}
        for kind in _KINDS:
            table, grant = getattr(self, kind.attr), getattr(self, kind.grant)
            if grant is None:
                keys = sorted(table)          # registered in order, as generated ones are:
                tables[kind.attr] = dict(table) if keys == list(table) else \
                    {k: table[k] for k in keys}                     # copied whole
            else:
                keep = _matcher(grant)
                tables[kind.attr] = {k: table[k] for k in sorted(table) if keep(k)}
        for grants in _GRANT_HOOKS:      # what a grant implies (a tool's view)
            grants(self, tables)
        return _Catalog(tables)

    def _portability_warnings(self):
        """What real clients are known to truncate or refuse, and what extensions refused
        (skills)."""
        for warns in _WARN_HOOKS:
            yield from warns(self)
        if self.instructions is not None and len(self.instructions) > _HOSTS_CUT_AT:
            yield "instructions are %d characters; some hosts cut them at %d" % (
                len(self.instructions), _HOSTS_CUT_AT)
        for t in self.tools.values():
            name = t.name
            if not _fair_description(t):
                if not t.description:
                    yield "tool %r has no description: the model sees only its name (add " \
                          "a docstring or description=...)" % name
                elif len(t.description) > _HOSTS_CUT_AT:
                    yield "tool %r: description is %d characters; some hosts cut it at %d" % (
                        name, len(t.description), _HOSTS_CUT_AT)
            if "." in name:
                yield "tool %r: some clients refuse '.' in tool names" % name
            if len(name) > 64:
                yield "tool %r: names over 64 characters are refused by some clients" % name

    def connection(self, emit: Callable[..., Any] | None = None, *, lock: Any = None,
                   clock: Callable[..., Any] | None = None,
                   wall_clock: Callable[..., Any] | None = None,
                   random: Callable[..., Any] | None = None,
                   report: Callable[..., Any] | None = None,
                   context: Callable[..., Any] | None = None,
                   schedule: Callable[..., Any] | None = None,
                   lifespan: Callable[..., Any] | None = None) -> Any:
        """Return a new sans-IO Connection to this server (freezing it).

        The keywords replace what the connection takes from the world: a lock
        (for use from several threads), clock() (monotonic seconds), wall_clock()
        (Unix time), random(n) (n random bytes), report(line, detail) for
        diagnostics, context(call) making a handler's Context, and
        schedule(fn) running fn soon (change notifications are coalesced until
        then; by default fn runs at once), and lifespan, the handle of this
        serve's lifespan (from enter_lifespan()) whose state handlers see as
        ctx.state (default: server.state). Close it with conn.close().
        """
        self.freeze(report)
        if wall_clock is None:
            import time
            wall_clock = time.time
        conn = Connection(self, emit, lock=lock, clock=clock or _monotonic,
                          wall_clock=wall_clock, random=random or os.urandom,
                          report=report or _report, context=context or Context,
                          schedule=schedule,
                          state=self.state if lifespan is None else lifespan.state)
        with self._lock:
            self._connections.append(conn)
        return conn

    def _closed(self, conn):
        with self._lock:
            if conn in self._connections:
                self._connections.remove(conn)

    def enter_lifespan(self, report: Callable[..., Any] | None = None) -> Any:
        """Start one serve's lifespan: run its setup; return a handle (.state, .close()).

        Every serve (each run(), each InProcessClient) enters the lifespan
        afresh and exits it at its end, so two serves never share torn-down
        state; server.state is the state of the serve that started last. Its
        mounts start with the first serve and say what goes wrong to report(line)
        (default: stderr).
        """
        lifespan = _Lifespan(self, report or _report)
        self.state = lifespan.state
        if self.sources:     # the first answer holds their instructions: mount_wait at most
            end = _monotonic() + self.mount_wait
            for source in self.sources:
                source.wait(max(0.0, end - _monotonic()))
        return lifespan

    def composed_instructions(self) -> str | None:
        """The instructions initialize and server/discover give: this server's own, then
        each mount's under its name, in the order mounted (one still starting named so),
        _COMPOSED_LIMIT characters in all (each mount's cut to its share of the room)."""
        own = self.instructions
        if not self.sources:
            return own
        parts, room = [own] if own else [], _COMPOSED_LIMIT - len(own or "")
        said = [(source.prefix, source.instructions()) for source in self.sources]
        said = [(name, text) for name, text in said if text != ""]
        for i, (name, text) in enumerate(said):
            head = "## %s\n" % name
            text = "(starting: its instructions are not in yet)" if text is None else text
            share = room // (len(said) - i) - len(head) - 2
            if share < 20:
                break                           # no room left worth a heading
            if len(text) > share:
                text = text[:share - 4].rsplit(" ", 1)[0] + " ..."
            parts.append(head + text)
            room -= len(parts[-1]) + 2
        return "\n\n".join(parts) if parts else None

    def run(self, argv: List[str] | None = None, *,
            own_options: List[str] | None = None) -> int:
        """Serve on stdin/stdout until EOF and return the exit status.

        The command-line options (--tools, --workers, --timeout, ...) are read
        from argv (default: sys.argv[1:]); --help lists them under this
        server's name, --version prints its name and version. A server with
        options of its own parses them first (argparse's parse_known_args) and
        passes the rest here; own_options, lines such as
        "  --notes-dir DIR   where notes are kept", are added to --help.
        """
        return self._command_line(sys.argv[1:] if argv is None else argv,
                                  own_options=own_options)

    def _help(self, prog, about=None, own_options=None):
        """This server's --help text, started as prog."""
        if about is None:
            about = "Serve %s %s as an MCP server on stdin/stdout, for modern (%s) and legacy " \
                    "(initialize) clients.%s" % (self.title or self.name, self.version,
                                                 ", ".join(MODERN_VERSIONS), "\n\n" +
                                                 self.description
                                                 if self.description else "")
        return _help_text(prog, about, own_options)

    def _command_line(self, args, prog=None, about=None, version_line=None, own_options=None):
        if prog is None:
            prog = "python " + os.path.basename(sys.argv[0] or "server.py")
        usage = self._help(prog, about, own_options)
        options = _parse_options(args, usage, version_line or "%s %s\n" % (self.name,
                                                                          self.version))
        if isinstance(options, int):
            return options
        saved = _speak_as(self)           # its warnings too are the server's
        try:
            self.configure(**options)
            self.freeze()
        except CatalogError as e:
            return _usage_error(str(e), usage)
        finally:
            _DIAG_STATE["prefix"] = saved
        return serve_stdio(self)

    def _implementation(self, revision):
        d = {"name": self.name, "version": self.version}
        features = _FEATURES[revision]
        if "titles" in features and self.title is not None:
            d["title"] = self.title
        if "implementation_details" in features:
            if self.description is not None:
                d["description"] = self.description
            if self.icons is not None:
                d["icons"] = self.icons
            if self.website_url is not None:
                d["websiteUrl"] = self.website_url
        return d

    def _capabilities(self, revision):
        caps = {"logging": {}}
        offered = self._offered
        if "completions" in offered and _has(revision, "completions"):
            caps["completions"] = {}
        live = self.live
        for capability in sorted({k.capability for k in _KINDS if k.extension is None} &
                                 offered):
            # Subscriptions are honoured by a live server only: nothing else ever changes.
            caps[capability] = {"subscribe": live, "listChanged": live} \
                if capability == "resources" else {"listChanged": live}
        for row in _EXTENSIONS:
            if row.declare is not None:
                row.declare(self, revision, caps)
        return caps


class _Lifespan:
    """One serve's lifespan: setup when made, teardown once at close()."""

    def __init__(self, server, report=None):
        self.state, self._finish, self._server = None, None, None
        self._mounted = server if server.sources else None
        if server.sources:
            self._server = server
            with server._lock:
                server._serving += 1
                if server._serving == 1:
                    server._scoping_said = False
                    for source in server.sources:
                        source.begin(report or _report)
        if server.lifespan is None:
            return
        made = server.lifespan(server)
        if hasattr(made, "__aenter__") or hasattr(made, "__anext__"):
            made = _SyncLifespan(made)             # async: run on a loop of its own
        if hasattr(made, "__enter__") and hasattr(made, "__exit__"):
            self.state = made.__enter__()
            self._finish = lambda: made.__exit__(None, None, None)
        elif hasattr(made, "__next__"):            # a generator function: setup, yield, teardown
            self.state = next(made)

            def finish():
                try:
                    next(made)
                except StopIteration:
                    return
                raise RuntimeError("the lifespan generator yielded twice")
            self._finish = finish
        else:
            raise CatalogError("server %r: lifespan must return a context manager or be a "
                               "generator function" % server.name)

    def close(self):
        """Run the teardown, once whoever calls (end of input, a signal, a test)."""
        finish, self._finish = self._finish, None     # one bytecode swap: no lock needed
        server, self._server = self._server, None
        try:
            if finish is not None:
                finish()
        finally:
            if server is not None:
                with server._lock:
                    server._serving -= 1
                    last = server._serving == 0
                sources = server.sources if last else ()
                for source in sources:      # all told at once: their graces overlap
                    source.stopping()
                end = _monotonic() + _CLOSE_GRACE
                for source in sources:
                    source.end(max(0.0, end - _monotonic()))

    def _last_sources(self):
        server = self._mounted        # kept after close(): a signal may come during it
        return server.sources if server is not None and server._serving <= 1 else ()

    def stopping(self):
        """The process is stopping (a signal): what this serve started is told to end."""
        for source in self._last_sources():
            source.stopping()

    def abandon(self):
        """The process leaves now: what this serve started and has not ended is ended."""
        for source in self._last_sources():
            source.abandon()


class _SyncLifespan:
    """An async context manager or async generator, driven as a synchronous context manager."""

    def __init__(self, made):
        import asyncio
        self.made, self.loop = made, asyncio.new_event_loop()

    def __enter__(self):
        m = self.made
        return self.loop.run_until_complete(m.__aenter__() if hasattr(m, "__aenter__")
                                            else m.__anext__())

    def __exit__(self, *exc):
        m = self.made
        try:
            if hasattr(m, "__aexit__"):
                self.loop.run_until_complete(m.__aexit__(*exc))
            else:
                try:
                    self.loop.run_until_complete(m.__anext__())
                except StopAsyncIteration:
                    return
                raise RuntimeError("the lifespan generator yielded twice")
        finally:
            self.loop.close()


# Our cursors are about 40 characters; anything much longer is not one of ours.
_MAX_CURSOR = 200


class _Catalog:
    """What a server offers at one moment, after its grants.

    Connections read it; a change makes a new one, so a listing never mixes
    two catalogs. generation counts the changes of each kind, and cursors
    carry it.
    """

    def __init__(self, tables):
        for kind in _KINDS:             # self.tools, self.resources, ...
            setattr(self, kind.attr, tables[kind.attr])
        self.generation = None
        self._lists = {}          # (kind, revision, audience) -> (entries, listings, earlier)
        self._whole = {}          # the same key -> every listing, once a page held them all
        self._added = {}          # _added_text's memo
        # (kind, revision, audience) -> {id(entry): its listing object}, from older catalogs, for
        # entries of this one (alive while it is: their ids are theirs); by id, since an
        # author's subclass may not be hashable.
        self._earlier = {}

    def inherit(self, old, fresh=()):
        """Reuse an older catalog's listing objects for the entries both hold.

        A change then costs a listing only the entries that changed, not the
        whole catalog. fresh: ids of entries just added, described again even
        if the same object was there before (its author may have edited it).
        """
        earlier = dict(old._earlier)            # kinds not listed since: carried on
        for key, (entries, lst, known) in list(old._lists.items()):   # a copy: connections
            listed = dict(known)                                       # may list now
            listed.update((id(e), d) for e, d in zip(entries, lst) if d is not _UNSEEN)
            earlier[key] = listed
        for key, listed in earlier.items():     # old is alive here: an id is one entry's
            self._earlier[key] = {i: listed[i] for i in map(id, getattr(self, key[0]).values())
                                  if i in listed and i not in fresh}

    def keys(self, kind):
        return list(getattr(self, kind))

    def entry(self, kind, key):
        return getattr(self, kind).get(key)

    def described(self, kind, revision, audience=frozenset()):
        """The sorted listing objects of an extension's kind (skills), shaped for a
        revision, described afresh: their files may change."""
        return [x.describe(revision) for x in getattr(self, kind).values()]

    def page(self, kind, revision, audience, start, size, kept=None):
        """(the listing objects of the entries of kind from index start, at most size of
        them, shaped for a revision and an audience (the extensions the client takes up
        that shape listings); the index of the next page's first entry, or None).

        Each is described when first listed, then kept: a long catalog's first
        page describes a page of it, not the whole. An entry a revision does not
        list (None) is left out. The one page of a short catalog is the same list
        each time. Entries as made are listed as JSON text (_listing_text), a plain
        function's Tool when a serve keeps listings (kept, its _KeptListings).
        """
        key = (kind, revision, audience)
        made = self._lists.get(key)
        if made is None:
            entries = list(getattr(self, kind).values())
            made = self._lists[key] = (entries, [_UNSEEN] * len(entries),
                                       self._earlier.pop(key, {}))
        entries, lst, known = made
        whole = self._whole.get(key)
        if whole is not None and start == 0 and len(whole) <= size:
            return whole, None                  # a short catalog's one page, as it was
        out, i, n = [], start, len(entries)
        while i < n:
            d = lst[i]
            if d is _UNSEEN:
                x = entries[i]
                d = (known and known.get(id(x))) or _listing_text(x, revision, audience,
                                                                  self._added, kept, i)
                if d is _UNSEEN:
                    # describe(revision) alone unless an audience shapes it: an author's
                    # subclass of 0.7 may override describe(self, revision).
                    d = x.describe(revision, audience) if audience else x.describe(revision)
                lst[i] = d
            if d is not None:
                if len(out) == size:
                    break
                out.append(d)
            i += 1
        if i == n:
            if start == 0:
                self._whole[key] = out
            return out, None
        return out, i

    def cursor(self, kind, offset):
        # Hex, not base64: the cursor stays opaque, and base64 is not imported before
        # the first listing of a long catalog.
        return ("%s:%d:%d" % (kind, offset, self.generation[kind])).encode("ascii").hex()

    def offset(self, kind, cursor):
        """Return the offset a cursor of ours points at, or raise -32602."""
        if type(cursor) is str and 0 < len(cursor) <= _MAX_CURSOR:
            try:
                k, offset, generation = bytes.fromhex(cursor).decode("ascii").split(":")
                offset, generation = int(offset), int(generation)
                canonical = ("%s:%d:%d" % (k, offset, generation)).encode("ascii").hex()
            except (ValueError, UnicodeDecodeError):
                canonical = None
            if canonical == cursor and k == kind:
                if generation != self.generation[kind]:
                    raise ProtocolError(INVALID_PARAMS, "Invalid params: the list changed "
                                        "since this cursor was made; list it again from "
                                        "the start")
                if 0 < offset < len(getattr(self, kind)):
                    return offset
        raise ProtocolError(INVALID_PARAMS, "Invalid params: invalid cursor")

    def knows_uri(self, uri):
        return uri in self.resources or any(t.match(uri) is not None
                                            for t in self.templates.values())

    def find_resource(self, uri, files=True):
        """(resource or template, its variables or None) serving uri, or (None, None).

        files=False leaves out the files of extension entries (a skill's), whose
        lookup may touch the file system: (None, True) then says that one of them
        may serve uri, to be looked up off the reading thread.
        """
        resource = self.resources.get(uri)
        if resource is not None:
            return resource, None
        for template in self.templates.values():
            variables = template.match(uri)
            if variables is not None:
                return template, variables
        if not files:
            return None, any(getattr(self, k.attr) for k in _EXTENSION_KINDS) or None
        for kind in _EXTENSION_KINDS:           # a file of an extension's entry (a skill's)
            for entry in getattr(self, kind.attr).values():
                resource = entry.resource(uri)
                if resource is not None:
                    return resource, None
        return None, None


def _granted(table, grant, grant_name, noun):
    if grant is None:
        return table
    unknown = _unmatched(grant, table)
    if unknown:
        raise CatalogError("%s: unknown %s(s): %s" % (grant_name, noun, ", ".join(unknown)))
    keep = _matcher(grant)
    return {k: v for k, v in table.items() if keep(k)}


def _some(names, room=600):
    """names joined for a diagnostic line: as many as fit room characters, then how many more."""
    out, used = [], 0
    for i, n in enumerate(names):
        used += len(n) + 2
        if used > room and out:
            return ", ".join(out) + " and %d more" % (len(names) - i)
        out.append(n)
    return ", ".join(out)


def _help_text(prog, about, own_options=None):
    """The --help text of a server: its summary, its own options and the options table."""
    lines = ["usage: %s [options]" % prog, "", about, "", "options:"]
    if own_options:
        lines.extend(own_options)
    for o in _OPTIONS:
        if o.flag is None:
            continue
        head = "  %s %s" % (o.flag, o.metavar) if o.metavar else "  " + o.flag
        default = "" if o.default in (None, False) else " (default %s)" % (
            "%g" % o.default if isinstance(o.default, float) else o.default)
        help_text = o.help + default
        if len(head) < 22:
            lines.append("%-22s%s" % (head, help_text))
        else:
            lines.extend((head, " " * 22 + help_text))
    lines.extend(("%-22s%s" % ("  --version", "print the version and exit"),
                  "%-22s%s" % ("  -h, --help", "print this help and exit"), "",
                  "exit status: 0 after stdin closes or on SIGTERM/SIGINT, 1 when input ended "
                  "inside a line",
                  "or stdout was closed, 2 for bad command-line arguments.", ""))
    return "\n".join(lines)


def _usage_error(message, usage):
    sys.stderr.write("error: %s\n\n%s" % (message, usage))
    return 2


def _parse_options(args, usage, version_line):
    """Parse the serving options; return a dict, or an exit status after --help/--version."""
    args = list(args)
    options = {}
    flags = {o.flag: o for o in _OPTIONS if o.flag is not None}
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            sys.stdout.write(usage)
            return 0
        if a == "--version":
            sys.stdout.write(version_line)
            return 0
        name, eq, value = a.partition("=")
        o = flags.get(name)
        if o is None:
            return _usage_error("unknown argument %r" % a, usage)
        if o.kind == "flag":
            if eq:
                return _usage_error("%s takes no value" % name, usage)
            options[o.name] = True
            continue
        if not eq:
            if not args:
                return _usage_error("%s needs a value" % name, usage)
            value = args.pop(0)
        try:
            options[o.name] = o.parse(value)
        except ValueError:
            return _usage_error("bad value for %s: %r" % (name, value), usage)
    return options


###############################################################################
# Appendix: JSON Schema 2020-12 subset checker ################################
###############################################################################
#
# compile_schema() analyses a schema once and builds a tree of closures; a
# Validator then checks instances without re-reading the schema dict. Every
# keyword we accept is enforced or is a pure annotation; anything we cannot
# enforce is a SchemaError at compile time, never silently ignored.

class SchemaError(ValueError):
    """A schema is malformed or outside the supported subset."""


class Validator:
    """A compiled schema: call errors(instance) or is_valid(instance)."""

    __slots__ = ("schema", "_root", "_max_errors", "_accept")

    def __init__(self, schema: Dict[str, Any], root: Any, max_errors: int = 20,
                 accept: Any = None) -> None:
        self.schema = schema          # the caller's object, unchanged
        self._root = root
        self._max_errors = max_errors
        self._accept = accept         # a quick sufficient test of validity, or None

    def errors(self, instance: Any) -> List[str]:
        """Return a list of messages, empty when instance is valid.

        Each message starts with the JSON pointer of the failing location in the
        instance (``(root)`` for the whole instance) and names the keyword.
        """
        if self._accept is not None and self._accept(instance):
            return []
        st = _State(self._max_errors)
        try:
            if self._root(instance, st, ()):
                return []
        except _Abort:
            pass
        return st.errors or ["(root): invalid"]

    def is_valid(self, instance: Any) -> bool:
        """Return True when instance conforms to the schema."""
        return not self.errors(instance)


_SCHEMA_CACHE = {}
# validate() keeps this many compiled schemas: far more than a server's
# elicitation forms, small enough that a stream of new schemas cannot grow memory.
_SCHEMA_CACHE_SIZE = 256


_DIALECTS_07 = ("http://json-schema.org/draft-07/schema#",
                "http://json-schema.org/draft-07/schema")


def compile_schema(schema: Dict[str, Any], *, max_depth: int = 64, max_subschemas: Any = 10000,
                   max_errors: int = 20) -> Validator:
    """Compile a JSON Schema (2020-12, or draft-07 where it agrees) into a Validator.

    Raises SchemaError naming the JSON pointer inside the schema and the reason.
    The bounds keep a hostile schema from exhausting the stack (max_depth) or
    memory (max_subschemas), and a report readable (max_errors); real tool
    schemas stay far below them.
    """
    source = schema
    if isinstance(schema, dict) and schema.get("$schema") in _DIALECTS_07 and \
            _has_draft07_forms(schema, 0, max_depth):
        schema = _from_draft07(schema, schema, 0, max_depth)
    c = _Compiler(schema, max_depth, max_subschemas)
    root = c.compile_root()
    return Validator(source, root, max_errors, _flat_object_accept(schema, c.used))


def validate(schema: Dict[str, Any], instance: Any) -> Any:
    """Check instance against schema (compiled once and cached); return error messages."""
    return _cached_validator(schema).errors(instance)


def _cached_validator(schema):
    key = json.dumps(schema, sort_keys=True, allow_nan=False)
    v = _SCHEMA_CACHE.get(key)
    if v is None:
        if len(_SCHEMA_CACHE) > _SCHEMA_CACHE_SIZE:
            _SCHEMA_CACHE.clear()
        v = _SCHEMA_CACHE[key] = compile_schema(schema)
    return v


# Instances nested deeper are refused before the checker's recursion could
# reach Python's stack limit; admitted messages nest 32 levels at most anyway.
_MAX_INSTANCE_DEPTH = 128
# Check steps one validation may take: ample for real schemas, and a bound on
# the work of combinator bombs (nested anyOf with refs) that are otherwise
# exponential.
_MAX_STEPS = 200000
# The most values an enum may list: enough for any real choice list.
_MAX_ENUM = 10000

_DIALECTS_2020 = ("https://json-schema.org/draft/2020-12/schema",
                  "https://json-schema.org/draft/2020-12/schema#")

_TYPE_NAMES = ("null", "boolean", "integer", "number", "string", "array", "object")

_ANNOTATIONS = frozenset((
    "title", "description", "default", "examples", "deprecated", "readOnly",
    "writeOnly", "$comment", "format", "contentEncoding", "contentMediaType",
    "contentSchema", "$schema", "$id", "$anchor", "$defs", "definitions"))

_UNSUPPORTED = {
    "$dynamicRef": "dynamic references are not supported; use a local '$ref'",
    "$dynamicAnchor": "dynamic anchors are not supported; use '$anchor'",
    "$recursiveRef": "recursive references are not supported; use a local '$ref'",
    "$recursiveAnchor": "recursive anchors are not supported; use '$anchor'",
    "$vocabulary": "custom vocabularies are not supported",
    "unevaluatedProperties": "not supported; use 'additionalProperties' (with the "
                             "properties listed beside it) instead",
    "unevaluatedItems": "not supported; use 'items' (after 'prefixItems') instead",
    "dependencies": "draft-07 keyword; use 'dependentRequired' or 'dependentSchemas'",
    "additionalItems": "draft-07 keyword; use 'prefixItems' with 'items'",
}

# Keywords whose values hold subschemas: (shape, applies to the instance in
# place). Shapes: "map" (an object of schemas), "list" (an array of schemas),
# "one" (one schema). In-place keywords check the same instance again, so a
# reference cycle through them alone never ends. Every walk of a schema tree
# (anchors, cycle edges) reads this table.
_SUBSCHEMA_KEYWORDS = {
    "properties": ("map", False), "patternProperties": ("map", False),
    "$defs": ("map", False), "definitions": ("map", False),
    "dependentSchemas": ("map", True),
    "prefixItems": ("list", False), "allOf": ("list", True), "anyOf": ("list", True),
    "oneOf": ("list", True),
    "items": ("one", False), "contains": ("one", False), "additionalProperties": ("one", False),
    "propertyNames": ("one", False),
    "not": ("one", True), "if": ("one", True), "then": ("one", True), "else": ("one", True),
}


def _subschemas(s, where):
    """Yield (keyword, subschema, pointer) for each subschema directly inside schema s."""
    for k, v in s.items():
        shape = _SUBSCHEMA_KEYWORDS.get(k)
        if shape is None:
            continue
        if shape[0] == "map" and isinstance(v, dict):
            for kk, vv in v.items():
                yield k, vv, "%s/%s/%s" % (where, k, _esc(kk))
        elif shape[0] == "list" and isinstance(v, list):
            for j, vv in enumerate(v):
                yield k, vv, "%s/%s/%d" % (where, k, j)
        elif shape[0] == "one":
            yield k, v, "%s/%s" % (where, k)


# Draft-07 keywords that 2020-12 renamed: the tuple form of items (with
# additionalItems) became prefixItems (with items), and dependencies split
# into dependentRequired and dependentSchemas. A draft-07 schema using them is
# translated before it is compiled; the meaning is the same.
_DRAFT07_FORMS = ("items", "additionalItems", "dependencies")


def _has_draft07_forms(s, depth, max_depth):
    """True when schema s (draft-07) uses a keyword form that 2020-12 renamed."""
    if depth > max_depth or not isinstance(s, dict):
        return False
    if isinstance(s.get("items"), list) or "additionalItems" in s or "dependencies" in s:
        return True
    return any(_has_draft07_forms(sub, depth + 1, max_depth)
               for _, sub, _ in _subschemas(s, ""))


def _from_draft07(s, root, depth, max_depth):
    """A copy of draft-07 schema s with renamed keywords in their 2020-12 form."""
    if depth > max_depth or not isinstance(s, dict):
        return s
    out = {}
    for k, v in s.items():
        if k == "items" and isinstance(v, list):
            out["prefixItems"] = [_from_draft07(x, root, depth + 1, max_depth) for x in v]
            if "additionalItems" in s:
                out["items"] = _from_draft07(s["additionalItems"], root, depth + 1, max_depth)
        elif k == "additionalItems":
            continue       # without the tuple form of items, draft-07 ignores it
        elif k == "dependencies" and isinstance(v, dict):
            for name, dep in v.items():
                kind = "dependentRequired" if isinstance(dep, list) else "dependentSchemas"
                out.setdefault(kind, {})[name] = dep if isinstance(dep, list) else \
                    _from_draft07(dep, root, depth + 1, max_depth)
        elif k == "$ref" and isinstance(v, str) and v.startswith("#/"):
            out[k] = _draft07_pointer(v, root)
        elif _SUBSCHEMA_KEYWORDS.get(k, ("",))[0] == "map" and isinstance(v, dict):
            out[k] = {kk: _from_draft07(vv, root, depth + 1, max_depth) for kk, vv in v.items()}
        elif _SUBSCHEMA_KEYWORDS.get(k, ("",))[0] == "list" and isinstance(v, list):
            out[k] = [_from_draft07(x, root, depth + 1, max_depth) for x in v]
        elif k in _SUBSCHEMA_KEYWORDS:
            out[k] = _from_draft07(v, root, depth + 1, max_depth)
        else:
            out[k] = v
    return out


def _draft07_pointer(ref, root):
    """A "#/..." reference into a draft-07 schema, renamed like the schema itself."""
    node, out = root, []
    parts = ref[2:].split("/")
    i = 0
    while i < len(parts):
        seg = parts[i]
        key = _unescape_token(seg)
        if isinstance(node, dict):
            if key == "items" and isinstance(node.get("items"), list):
                seg = "prefixItems"
            elif key == "additionalItems" and isinstance(node.get("items"), list):
                seg = "items"
            elif key == "dependencies" and isinstance(node.get(key), dict) and i + 1 < len(parts):
                dep = node[key].get(_unescape_token(parts[i + 1]))
                seg = "dependentRequired" if isinstance(dep, list) else "dependentSchemas"
            node = node.get(key)
        elif isinstance(node, list) and key.isdigit() and int(key) < len(node):
            node = node[int(key)]
        else:
            node = None
        out.append(seg)
        i += 1
    return "#/" + "/".join(out)


_ANCHOR_RE = r"^[A-Za-z_][-A-Za-z0-9._]*$"


class _Abort(Exception):
    """Raised inside validation when a budget is exhausted."""


class _State:
    __slots__ = ("errors", "max_errors", "memo", "steps")

    def __init__(self, max_errors):
        self.errors = []
        self.max_errors = max_errors
        self.memo = None          # (subschema, instance) -> bool, made by the first $ref
        self.steps = 0

    def fail(self, loc, msg):
        if len(self.errors) < self.max_errors:
            if len(msg) > 300:
                msg = msg[:297] + "..."
            self.errors.append(_pointer(loc) + ": " + msg)
        return False


def _pointer(loc):
    if not loc:
        return "(root)"
    return "".join("/" + (str(k).replace("~", "~0").replace("/", "~1")) for k in loc)


def _short(value, limit=60):
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _json_type(x):
    if x is None:
        return "null"
    if x is True or x is False:
        return "boolean"
    if isinstance(x, int):
        return "integer"
    if isinstance(x, float):
        return "integer" if x.is_integer() else "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, (list, tuple)):
        return "array"
    if isinstance(x, dict):
        return "object"
    return type(x).__name__


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _is_seconds(x):
    """True for a time limit that every wait can take: above 0 and at most
    threading.TIMEOUT_MAX (NaN and infinity are neither: a wait on them fails or spins)."""
    return _is_number(x) and 0 < x <= threading.TIMEOUT_MAX


def _canon(x):
    """A hashable key for JSON values under JSON equality (1 == 1.0, true != 1)."""
    if isinstance(x, bool):
        return ("b", x)
    if isinstance(x, (int, float)):
        return ("n", x)
    if isinstance(x, str):
        return ("s", x)
    if x is None:
        return ("z",)
    if isinstance(x, (list, tuple)):
        return ("a", tuple(_canon(i) for i in x))
    if isinstance(x, dict):
        return ("o", frozenset((k, _canon(v)) for k, v in x.items()))
    return ("?", id(x))


_TYPE_CHECKS = {
    "null": lambda x: x is None,
    "boolean": lambda x: x is True or x is False,
    "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool))
    or (isinstance(x, float) and x.is_integer()),
    "number": _is_number,
    "string": lambda x: isinstance(x, str),
    "array": lambda x: isinstance(x, (list, tuple)),
    "object": lambda x: isinstance(x, dict),
}


def _is_multiple(x, m):
    if isinstance(x, int) and isinstance(m, int):
        return x % m == 0
    import decimal
    with decimal.localcontext() as ctx:
        ctx.prec = 1000
        ctx.traps[decimal.InvalidOperation] = True
        try:
            return decimal.Decimal(repr(x)) % decimal.Decimal(repr(m)) == 0
        except decimal.DecimalException:
            return False


def _translate_pattern(p, where):
    """Translate an ECMA-262 pattern to Python re syntax, or raise SchemaError."""
    out = []
    i, n, in_class = 0, len(p), False
    while i < n:
        ch = p[i]
        if ch == "\\":
            if i + 1 >= n:
                raise SchemaError("%s: pattern %r ends with a lone backslash" % (where, p))
            nx = p[i + 1]
            if nx in "pP" and i + 2 < n and p[i + 2] == "{":
                raise SchemaError("%s: pattern %r uses Unicode property escapes (\\p{...}), "
                                  "which Python's re cannot enforce; use explicit character "
                                  "ranges" % (where, p))
            if nx == "c":
                raise SchemaError("%s: pattern %r uses a control escape (\\c), which Python's "
                                  "re does not support; use \\xHH" % (where, p))
            if nx == "k" and not in_class and p.startswith("<", i + 2) and ">" in p[i + 3:]:
                end = p.index(">", i + 3)       # \k<name>: a back-reference by name
                out.append("(?P=%s)" % p[i + 3:end])
                i = end + 1
                continue
            if nx == "d":
                out.append("0-9" if in_class else "[0-9]")
            elif nx == "w":
                out.append("A-Za-z0-9_" if in_class else "[A-Za-z0-9_]")
            elif nx == "D" and not in_class:
                out.append("[^0-9]")
            elif nx == "W" and not in_class:
                out.append("[^A-Za-z0-9_]")
            elif nx == "s":      # ECMA-262 whitespace includes U+FEFF
                out.append("\\s\ufeff" if in_class else "[\\s\ufeff]")
            elif nx == "S" and not in_class:
                out.append("[^\\s\ufeff]")
            else:
                out.append(p[i:i + 2])
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
            elif ch == "[":
                ch = "\\["   # Python warns on nested sets; ECMA treats '[' literally
            out.append(ch)
        elif ch == "[":
            in_class = True
            out.append(ch)
            if p.startswith("^", i + 1):
                out.append("^")
                i += 1
            if p.startswith("]", i + 1):   # ECMA '[]' matches nothing; Python differs
                raise SchemaError("%s: pattern %r has an empty character class" % (where, p))
        elif ch == "$":
            out.append(r"\Z")
        elif ch in "*+?}" and i + 1 < n and p[i + 1] == "+":
            raise SchemaError("%s: pattern %r uses a possessive quantifier, which "
                              "ECMA-262 does not have" % (where, p))
        elif p.startswith(("(?P", "(?>", "(?#"), i):
            raise SchemaError("%s: pattern %r uses Python-only group syntax" % (where, p))
        elif p.startswith("(?<", i) and not p.startswith(("(?<=", "(?<!"), i):
            out.append("(?P<")              # a named group: (?<year>...) in ECMA-262
            i += 3
            continue
        else:
            out.append(ch)
        i += 1
    try:
        return re.compile("".join(out))
    except (re.error, OverflowError, RecursionError) as e:
        raise SchemaError("%s: pattern %r cannot be compiled faithfully (%s)" % (where, p, e))


def _pattern_search(p, where):
    """(search, limit): rx.search for ECMA-262 pattern p, and the longest text it checks (None: any)."""
    rx = _translate_pattern(p, where)
    return rx.search, (_PATTERN_TEXT_LIMIT if _pattern_degree(rx, p, where) > 1 else None)


# A schema's pattern is the author's expression applied to the client's text, and
# Python's re cannot be interrupted once it runs (it holds the interpreter lock): one
# argument must not stop the server. So compile_schema() refuses the shapes whose
# backtracking grows faster than the square of the text (a repetition nested in one
# that can match the same characters; three repetitions in a row that can take the same
# character, an unanchored search counting as one), and a pattern whose backtracking
# can be quadratic checks strings of at most _PATTERN_TEXT_LIMIT characters.
_PATTERN_TEXT_LIMIT = 4096      # quadratic backtracking stays well under a second there
# Characters every class is tried on: ASCII, and a few that classes often differ on.
_PATTERN_SAMPLES = "".join(map(chr, range(128))) + "\u00a0\u00e9\u00df\u2028\u4e2d\ufeff\U0001f600"
_CATEGORY_TESTS = {"CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D",
                   "CATEGORY_SPACE": r"\s", "CATEGORY_NOT_SPACE": r"\S",
                   "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W"}


def _pattern_degree(rx, p, where):
    """1 when rx backtracks at most linearly in the text's length, 2 when quadratically.

    Raises SchemaError for a shape whose backtracking grows faster (see above).
    """
    return _PatternShape(rx, p, where).degree()


class _PatternShape:
    """What rx's parse tree says about its backtracking, over sample characters."""

    def __init__(self, rx, p, where):
        parser = getattr(re, "_parser", None)       # sre_parse before 3.11 (it warns since)
        if parser is None:
            import sre_parse as parser
        self.p, self.where = p, where
        self.tree = parser.parse(rx.pattern, rx.flags)
        alphabet = set(_PATTERN_SAMPLES)
        self._ends(self.tree, alphabet)
        self.every = frozenset(alphabet)
        self.search = not (self.tree and self.tree[0][0].name == "AT" and
                           self.tree[0][1].name in ("AT_BEGINNING", "AT_BEGINNING_STRING"))

    def _ends(self, items, alphabet):
        """Add the literals and range ends of items to the samples."""
        for op, av in items:
            if op.name == "LITERAL":
                alphabet.add(chr(av))
            elif op.name == "RANGE":
                alphabet.update((chr(av[0]), chr(av[1])))
            elif op.name == "IN":
                self._ends(av, alphabet)
            else:
                for b in self.bodies(op, av):
                    self._ends(b, alphabet)

    def atom(self, op, av):
        """The samples one single-character item matches, or None for other items."""
        name, every = op.name, self.every
        if name == "LITERAL":
            return frozenset((chr(av),))
        if name == "NOT_LITERAL":
            return every - {chr(av)}
        if name == "ANY":
            return every
        if name == "CATEGORY":
            return frozenset(c for c in every if re.match(_CATEGORY_TESTS.get(av.name, "."), c))
        if name != "IN":
            return None
        negate, out = False, set()
        for iop, iav in av:
            if iop.name == "NEGATE":
                negate = True
            elif iop.name == "LITERAL":
                out.add(chr(iav))
            elif iop.name == "RANGE":
                out.update(c for c in every if iav[0] <= ord(c) <= iav[1])
            elif iop.name == "CATEGORY":
                out.update(self.atom(iop, iav))
            else:
                out.update(every)
        return every - out if negate else frozenset(out)

    @staticmethod
    def bodies(op, av):
        """The sub-sequences an item holds."""
        name = op.name
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            return [av[2]]
        if name in ("SUBPATTERN", "ATOMIC_GROUP"):
            return [av[-1]]
        if name in ("ASSERT", "ASSERT_NOT"):
            return [av[1]]
        if name == "BRANCH":
            return list(av[1])
        if name == "GROUPREF_EXISTS":
            return [x for x in av[1:] if x is not None]
        return []

    def chars(self, items):
        """Every sample any item of items can match."""
        out = set()
        for op, av in items:
            a = self.atom(op, av)
            if a is not None:
                out |= a
            elif op.name == "GROUPREF":
                return self.every
            else:
                for b in self.bodies(op, av):
                    out |= self.chars(b)
        return frozenset(out)

    def first(self, items):
        """The samples a match of items can start with."""
        out = set()
        for op, av in items:
            a = self.atom(op, av)
            if a is not None:
                return out | a
            name = op.name
            if name in ("AT", "ASSERT", "ASSERT_NOT"):
                continue
            if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                out |= self.first(av[2])
                if av[0] == 0:
                    continue
                return out
            if name in ("SUBPATTERN", "ATOMIC_GROUP", "BRANCH"):
                for b in self.bodies(op, av):
                    out |= self.first(b)
                return out
            return self.every
        return out

    def ambiguous(self, items):
        """The char sets of the parts of items that can take a text in more than one way."""
        out = []
        for op, av in items:
            if op.name in ("MAX_REPEAT", "MIN_REPEAT") and av[0] < av[1]:
                out.append(self.chars(av[2]))
            elif op.name == "GROUPREF":
                out.append(self.every)
            elif op.name == "BRANCH":
                starts = [self.first(b) for b in av[1]]
                if any(x & y for i, x in enumerate(starts) for y in starts[i + 1:]):
                    out.append(self.chars([(op, av)]))     # two ways to take one character
            for b in self.bodies(op, av):
                out += self.ambiguous(b)
        return out

    def separated(self, items, inner):
        """True when items start or end with a character no inner part can match."""
        while len(items) == 1 and items[0][0].name == "SUBPATTERN":
            items = items[0][1][-1]
        atoms = [self.atom(op, av) for op, av in items if op.name != "AT"]
        return any(a is not None and not any(a & r for r in inner)
                   for a in atoms[:1] + atoms[-1:])

    def degree(self):
        degree = self.walk(list(self.tree), [])
        if degree > 2:
            raise SchemaError(
                "%s: pattern %r has %d repetitions in a row that can take the same characters%s, "
                "whose backtracking grows with the cube of a client's text or faster; separate "
                "them by a character they cannot match%s" % (
                    self.where, self.p, degree - self.search,
                    " after an unanchored start" if self.search else "",
                    " or anchor it with ^" if self.search else ""))
        return degree

    def walk(self, items, live):
        """The degree of items after live (the repetitions that may still take characters)."""
        degree = 1
        for op, av in items:
            a, name = self.atom(op, av), op.name
            if a is not None:
                live[:] = [r for r in live if r & a]       # a repetition that cannot take it ends
            elif name in ("MAX_REPEAT", "MIN_REPEAT"):
                degree = max(degree, self.repeat(av, live))
            elif name == "GROUPREF":
                degree = max(degree, 1 + self.search + len(live))
                live.append(self.every)
            elif name in ("SUBPATTERN", "ATOMIC_GROUP", "POSSESSIVE_REPEAT"):
                degree = max(degree, self.walk(self.bodies(op, av)[0], live))
            elif name in ("BRANCH", "GROUPREF_EXISTS"):
                kept = []
                for b in self.bodies(op, av):
                    trial = list(live)
                    degree = max(degree, self.walk(b, trial))
                    kept += [r for r in trial if not any(r is s for s in kept)]
                live[:] = kept
            elif name in ("ASSERT", "ASSERT_NOT"):
                degree = max(degree, self.walk(av[1], list(live)))
        return degree

    def repeat(self, av, live):
        """The degree of a repetition after live, which it joins when its count varies."""
        lo, hi, body = av
        inner = self.ambiguous(body)
        if hi > 1 and inner and not self.separated(body, inner):
            raise SchemaError("%s: pattern %r repeats a part that can match the same text in "
                              "more than one way, whose backtracking can take exponential time "
                              "on a client's text; start or end the repeated part with a "
                              "character the inner one cannot match" % (self.where, self.p))
        self.walk(body, [])                              # its own nesting
        if lo < hi and hi > 1:
            start = self.first(body)
            live.append(self.chars(body))
            return 1 + self.search + sum(1 for r in live[:-1] if r & start)
        if lo >= 1:
            return self.walk(body, live)
        trial = list(live)
        degree = self.walk(body, trial)
        live += [r for r in trial if not any(r is s for s in live)]
        return degree


def _unescape_token(tok):
    if "%" in tok:
        from urllib.parse import unquote
        tok = unquote(tok)
    return tok.replace("~1", "/").replace("~0", "~")


# What _object_check enforces; it stands in for the general checks only when a
# schema asks for nothing else (the compiler records what each schema uses).
_OBJECT_CHECK_KEYWORDS = frozenset(("type", "properties", "required", "additionalProperties"))


class _Compiler:
    """Walks a schema once: checks well-formedness, resolves refs, builds closures."""

    def __init__(self, schema, max_depth, max_subschemas):
        self.root = schema
        self.max_depth = max_depth
        self.max_subschemas = max_subschemas
        self.count = 0
        self.draft07 = False
        self.nodes = {}        # id(raw schema) -> compiled function (or placeholder cell)
        self.keep = []         # raw schemas kept alive while ids are in use
        self.anchors = {}      # anchor name -> raw schema
        self.edges = {}        # id(raw) -> ids of schemas applied in place
        self.names = {}        # id(raw) -> schema pointer, for messages
        self.used = {}         # id(raw) -> the keywords its check enforces

    # -- entry --------------------------------------------------------------
    def compile_root(self):
        s = self.root
        if isinstance(s, dict):
            d = s.get("$schema")
            if d is not None:
                if d in _DIALECTS_07:
                    self.draft07 = True
                elif d not in _DIALECTS_2020:
                    raise SchemaError("#/$schema: unsupported dialect %s; use %s" % (
                        _short(d), _DIALECTS_2020[0]))
            i = s.get("$id")
            if i is not None and not isinstance(i, str):
                raise SchemaError("#/$id: must be a string")
            if self.draft07 and isinstance(i, str) and "#" in i.rstrip("#"):
                raise SchemaError("#/$id: a draft-07 '$id' with a fragment is not supported")
        elif not isinstance(s, bool):
            raise SchemaError("#: a schema must be an object or a boolean, got %s" % _json_type(s))
        self._collect_anchors(s, "#", 0)
        fn = self._node(s, "#", 0)
        self._check_cycles()
        return fn

    # -- anchors ------------------------------------------------------------
    def _collect_anchors(self, s, where, depth):
        # Anchors may be referenced before the walk reaches them, so find them first.
        if depth > self.max_depth or not isinstance(s, dict):
            return
        a = s.get("$anchor")
        if a is not None:
            if not isinstance(a, str) or not _pattern(_ANCHOR_RE).match(a):
                raise SchemaError("%s/$anchor: %s is not a valid anchor name" % (where, _short(a)))
            if a in self.anchors and self.anchors[a] is not s:
                raise SchemaError("%s/$anchor: duplicate anchor %r" % (where, a))
            self.anchors[a] = s
        for _, sub, pointer in _subschemas(s, where):
            self._collect_anchors(sub, pointer, depth + 1)

    # -- refs ---------------------------------------------------------------
    def _resolve(self, ref, where):
        if not ref.startswith("#"):
            raise SchemaError("%s/$ref: %s is not a local reference; only '#...' references "
                              "inside the same schema are supported (remote schemas are never "
                              "fetched)" % (where, _short(ref)))
        frag = ref[1:]
        if frag == "" :
            return self.root, "#"
        if not frag.startswith("/"):
            if "%" in frag:
                from urllib.parse import unquote
                frag = unquote(frag)
            target = self.anchors.get(frag)
            if target is None:
                raise SchemaError("%s/$ref: anchor %s is not defined" % (where, _short(ref)))
            return target, "#" + frag
        node = self.root
        for tok in frag[1:].split("/"):
            tok = _unescape_token(tok)
            if isinstance(node, dict) and tok in node:
                node = node[tok]
            elif isinstance(node, list) and tok.isdigit() and int(tok) < len(node) \
                    and (tok == "0" or not tok.startswith("0")):
                node = node[int(tok)]
            else:
                raise SchemaError("%s/$ref: %s does not resolve inside the schema"
                                  % (where, _short(ref)))
        if not isinstance(node, (dict, bool)):
            raise SchemaError("%s/$ref: %s points at a %s, not a schema"
                              % (where, _short(ref), _json_type(node)))
        return node, ref

    def _check_cycles(self):
        # Iterative DFS over in-place edges; a back edge is a cycle that never consumes input.
        WHITE, GREY, BLACK = 0, 1, 2
        color = {}
        for start in self.edges:
            if color.get(start):
                continue
            stack = [(start, iter(self.edges.get(start, ())))]
            color[start] = GREY
            while stack:
                node, it = stack[-1]
                nxt = next(it, None)
                if nxt is None:
                    color[node] = BLACK
                    stack.pop()
                    continue
                c = color.get(nxt, WHITE)
                if c == GREY:
                    raise SchemaError("%s: reference cycle that never consumes the instance "
                                      "(it would loop forever)" % self.names.get(nxt, "#"))
                if c == WHITE:
                    color[nxt] = GREY
                    stack.append((nxt, iter(self.edges.get(nxt, ()))))

    # -- subschemas ---------------------------------------------------------
    def _node(self, s, where, depth):
        """Compile subschema s (memoised by identity) and return its check function."""
        key = id(s)
        fn = self.nodes.get(key)
        if fn is not None:
            return fn
        if depth > self.max_depth:
            raise SchemaError("%s: schema nesting deeper than %d levels" % (where, self.max_depth))
        self.count += 1
        if self.count > self.max_subschemas:
            raise SchemaError("%s: more than %d subschemas" % (where, self.max_subschemas))
        self.keep.append(s)
        self.names[key] = where
        self.edges.setdefault(key, [])
        # A placeholder lets recursive refs find this node before it is built.
        cell = []
        self.nodes[key] = lambda x, st, loc: cell[0](x, st, loc)
        if s is True:
            real = _accept
        elif s is False:
            real = _reject
        elif isinstance(s, dict):
            real = self._build(s, where, depth)
        else:
            raise SchemaError("%s: a schema must be an object or a boolean, got %s"
                              % (where, _json_type(s)))
        cell.append(real)
        self.nodes[key] = real
        return real

    def _sub(self, parent, keyword, s, where, depth):
        fn = self._node(s, where, depth + 1)
        if keyword == "$ref" or _SUBSCHEMA_KEYWORDS[keyword][1]:
            self.edges[id(parent)].append(id(s))
        return fn

    def _build(self, raw, where, depth):
        """The check of one schema object: its keywords, family by family, in this order."""
        s = _KeywordLog(raw)
        self.used[id(raw)] = s.used
        checks = []
        add = checks.append
        self._frame(s, raw, where, depth)
        for family in (self._references, self._values, self._numbers, self._strings,
                       self._arrays):
            family(s, raw, where, depth, add)
        props, required, addl = self._objects(s, raw, where, depth, add)
        self._composition(s, raw, where, depth, add)
        if "$anchor" in raw and not isinstance(raw["$anchor"], str):
            raise SchemaError("%s/$anchor: must be a string" % where)
        if s.used <= _OBJECT_CHECK_KEYWORDS and raw.get("type") == "object":
            # The usual tool schema: one closure does all that this schema asks.
            return _object_check(props, required, addl)
        return _all_checks(tuple(checks))

    def _frame(self, s, raw, where, depth):
        """Keywords refused, root-only keywords, draft-07 $ref siblings, and $defs."""
        for k in raw:
            if k in _UNSUPPORTED:
                raise SchemaError("%s/%s: %s" % (where, k, _UNSUPPORTED[k]))
        if where != "#":
            if "$schema" in s:
                raise SchemaError("%s/$schema: '$schema' is only allowed at the root" % where)
            if "$id" in s:
                raise SchemaError("%s/$id: embedded resources ('$id' below the root) are not "
                                  "supported; use '$defs' with '$anchor'" % where)
        if self.draft07 and "$ref" in s:
            extra = [k for k in raw if k != "$ref" and k not in _ANNOTATIONS]
            if extra:
                raise SchemaError("%s: a draft-07 '$ref' ignores its sibling keywords (%s); "
                                  "declare the schema as 2020-12 or move them into allOf"
                                  % (where, ", ".join(sorted(extra))))
        for k in ("$defs", "definitions"):      # definitions check nothing here: raw
            if k in raw:
                defs = raw[k]
                if not isinstance(defs, dict):
                    raise SchemaError("%s/%s: must be an object of schemas" % (where, k))
                for name, sub in defs.items():
                    self._sub(raw, k, sub, "%s/%s/%s" % (where, k, _esc(name)), depth)

    def _references(self, s, raw, where, depth, add):
        if "$ref" in s:
            ref = s["$ref"]
            if not isinstance(ref, str):
                raise SchemaError("%s/$ref: must be a string" % where)
            target, label = self._resolve(ref, where)
            fn = self._sub(raw, "$ref", target,
                           label if label.startswith("#/") else where + "/$ref", depth)
            add(_ref_check(fn, id(target), ref))

    def _values(self, s, raw, where, depth, add):
        if "type" in s:
            add(self._type(s["type"], where))
        if "enum" in s:
            e = s["enum"]
            if not isinstance(e, list):
                raise SchemaError("%s/enum: must be an array" % where)
            if len(e) > _MAX_ENUM:
                raise SchemaError("%s/enum: more than %d values" % (where, _MAX_ENUM))
            add(_enum_check(e))
        if "const" in s:
            add(_const_check(s["const"]))

    def _numbers(self, s, raw, where, depth, add):
        for k, op in (("minimum", "lt"), ("maximum", "gt"),
                      ("exclusiveMinimum", "le"), ("exclusiveMaximum", "ge")):
            if k in s:
                v = s[k]
                if not _is_number(v):
                    raise SchemaError("%s/%s: must be a number" % (where, k))
                add(_bound_check(k, op, v))
        if "multipleOf" in s:
            m = s["multipleOf"]
            if not _is_number(m) or m <= 0:
                raise SchemaError("%s/multipleOf: must be a number greater than 0" % where)
            add(_multiple_check(m))

    def _strings(self, s, raw, where, depth, add):
        lo, hi = self._count(s, "minLength", where), self._count(s, "maxLength", where)
        if lo is not None or hi is not None:
            add(_length_check(lo, hi))
        if "pattern" in s:
            p = s["pattern"]
            if not isinstance(p, str):
                raise SchemaError("%s/pattern: must be a string" % where)
            add(_pattern_check(_pattern_search(p, where + "/pattern"), p))

    def _arrays(self, s, raw, where, depth, add):
        prefix = ()
        if "prefixItems" in s:
            pi = s["prefixItems"]
            if not isinstance(pi, list) or not pi:
                raise SchemaError("%s/prefixItems: must be a non-empty array of schemas" % where)
            prefix = tuple(self._sub(raw, "prefixItems", x, "%s/prefixItems/%d" % (where, j), depth)
                           for j, x in enumerate(pi))
        items = None
        if "items" in s:
            it = s["items"]
            if isinstance(it, list):
                raise SchemaError("%s/items: the array form of 'items' is draft-07; use "
                                  "'prefixItems' for positional schemas" % where)
            items = self._sub(raw, "items", it, where + "/items", depth)
        if prefix or items is not None:
            add(_items_check(prefix, items))
        lo, hi = self._count(s, "minItems", where), self._count(s, "maxItems", where)
        if lo is not None or hi is not None:
            add(_size_check(lo, hi, "items", (list, tuple)))
        if "uniqueItems" in s:
            if not isinstance(s["uniqueItems"], bool):
                raise SchemaError("%s/uniqueItems: must be a boolean" % where)
            if s["uniqueItems"]:
                add(_unique_check)
        cmin = self._count(s, "minContains", where)
        cmax = self._count(s, "maxContains", where)
        if "contains" in s:
            fn = self._sub(raw, "contains", s["contains"], where + "/contains", depth)
            add(_contains_check(fn, 1 if cmin is None else cmin, cmax))

    def _objects(self, s, raw, where, depth, add):
        """The object keywords; returns (properties, required, additionalProperties)."""
        props = {}
        if "properties" in s:
            p = s["properties"]
            if not isinstance(p, dict):
                raise SchemaError("%s/properties: must be an object of schemas" % where)
            props = {k: self._sub(raw, "properties", v, "%s/properties/%s" % (where, _esc(k)), depth)
                     for k, v in p.items()}
        pats = []
        if "patternProperties" in s:
            pp = s["patternProperties"]
            if not isinstance(pp, dict):
                raise SchemaError("%s/patternProperties: must be an object of schemas" % where)
            for k, v in pp.items():
                w = "%s/patternProperties/%s" % (where, _esc(k))
                pats.append(_pattern_search(k, w) + (self._sub(raw, "patternProperties", v, w,
                                                                   depth), k))
        addl = None
        if "additionalProperties" in s:
            a = s["additionalProperties"]
            addl = False if a is False else self._sub(raw, "additionalProperties", a,
                                                      where + "/additionalProperties", depth)
        if props or pats or addl is not None:
            add(_properties_check(props, tuple(pats), addl))
        required = ()
        if "required" in s:
            required = self._names(s["required"], where + "/required")
            add(_required_check(required))
        if "propertyNames" in s:
            add(_names_check(self._sub(raw, "propertyNames", s["propertyNames"],
                                       where + "/propertyNames", depth)))
        lo, hi = self._count(s, "minProperties", where), self._count(s, "maxProperties", where)
        if lo is not None or hi is not None:
            add(_size_check(lo, hi, "properties", dict))
        if "dependentRequired" in s:
            dr = s["dependentRequired"]
            if not isinstance(dr, dict):
                raise SchemaError("%s/dependentRequired: must be an object of string arrays" % where)
            add(_dep_required_check({k: self._names(v, "%s/dependentRequired/%s" % (where, _esc(k)))
                                     for k, v in dr.items()}))
        if "dependentSchemas" in s:
            ds = s["dependentSchemas"]
            if not isinstance(ds, dict):
                raise SchemaError("%s/dependentSchemas: must be an object of schemas" % where)
            add(_dep_schemas_check({k: self._sub(raw, "dependentSchemas", v,
                                                 "%s/dependentSchemas/%s" % (where, _esc(k)),
                                                 depth)
                                    for k, v in ds.items()}))
        return props, required, addl

    def _composition(self, s, raw, where, depth, add):
        for k, maker in (("allOf", _all_of), ("anyOf", _any_of), ("oneOf", _one_of)):
            if k in s:
                lst = s[k]
                if not isinstance(lst, list) or not lst:
                    raise SchemaError("%s/%s: must be a non-empty array of schemas" % (where, k))
                add(maker(tuple(self._sub(raw, k, x, "%s/%s/%d" % (where, k, j), depth)
                                for j, x in enumerate(lst))))
        if "not" in s:
            add(_not_check(self._sub(raw, "not", s["not"], where + "/not", depth)))
        then_fn = else_fn = None
        if "then" in s:
            then_fn = self._sub(raw, "then", s["then"], where + "/then", depth)
        if "else" in s:
            else_fn = self._sub(raw, "else", s["else"], where + "/else", depth)
        if "if" in s:
            if_fn = self._sub(raw, "if", s["if"], where + "/if", depth)
            if then_fn is not None or else_fn is not None:
                add(_if_check(if_fn, then_fn, else_fn))

    def _type(self, t, where):
        names = [t] if isinstance(t, str) else t
        if not isinstance(names, list) or not names or \
                any(not isinstance(n, str) or n not in _TYPE_NAMES for n in names) or \
                len(set(names)) != len(names):
            raise SchemaError("%s/type: must be one of %s or a list of unique type names, got %s"
                              % (where, ", ".join(_TYPE_NAMES), _short(t)))
        return _type_check(tuple(names))

    @staticmethod
    def _count(s, k, where):
        if k not in s:
            return None
        v = s[k]
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise SchemaError("%s/%s: must be a non-negative integer" % (where, k))
        return v

    @staticmethod
    def _names(v, where):
        if not isinstance(v, list) or any(not isinstance(x, str) for x in v) \
                or len(set(v)) != len(v):
            raise SchemaError("%s: must be an array of unique strings" % where)
        return tuple(v)


def _esc(k):
    return str(k).replace("~", "~0").replace("/", "~1")


# Check builders. Each returns fn(instance, state, loc) -> bool, recording errors.

def _accept(x, st, loc):
    return True


def _reject(x, st, loc):
    return st.fail(loc, "no value is allowed here (false schema)")


def _all_checks(checks):
    if not checks:
        return _accept
    if len(checks) == 1:
        return checks[0]

    def check(x, st, loc):
        ok = True
        for c in checks:
            if not c(x, st, loc):
                ok = False
                if len(st.errors) >= st.max_errors:
                    break
        return ok
    return check


def _ref_check(fn, key, ref):
    def check(x, st, loc):
        mk = (key, id(x))
        memo = st.memo
        if memo is None:
            memo = st.memo = {}
        hit = memo.get(mk)
        if hit is not None:
            return hit or st.fail(loc, "does not match %s ($ref)" % ref)
        st.steps += 1
        if st.steps > _MAX_STEPS:
            st.fail(loc, "validation is too complex (step budget exhausted)")
            raise _Abort()
        ok = fn(x, st, loc)
        memo[mk] = ok
        return ok
    return check


def _type_check(names):
    if len(names) == 1:
        t = names[0]
        if t == "string":
            def check(x, st, loc):
                return isinstance(x, str) or st.fail(
                    loc, "expected type string, got %s" % _json_type(x))
            return check
        if t == "object":
            def check(x, st, loc):
                return isinstance(x, dict) or st.fail(
                    loc, "expected type object, got %s" % _json_type(x))
            return check
    tests = tuple(_TYPE_CHECKS[n] for n in names)
    label = " or ".join(names)

    def check(x, st, loc):
        for t in tests:
            if t(x):
                return True
        return st.fail(loc, "expected type %s, got %s" % (label, _json_type(x)))
    return check


def _enum_check(values):
    keys = set()
    for v in values:
        try:
            keys.add(_canon(v))
        except TypeError:
            pass
    label = _short(values, 80)

    def check(x, st, loc):
        return _canon(x) in keys or st.fail(loc, "must be one of %s (enum)" % label)
    return check


def _const_check(value):
    key = _canon(value)
    label = _short(value)

    def check(x, st, loc):
        return _canon(x) == key or st.fail(loc, "must equal %s (const)" % label)
    return check


def _bound_check(keyword, op, limit):
    words = {"lt": "less than", "gt": "greater than",
             "le": "not greater than", "ge": "not less than"}[op]

    def check(x, st, loc):
        if not _is_number(x):
            return True
        bad = (x < limit if op == "lt" else x > limit if op == "gt"
               else x <= limit if op == "le" else x >= limit)
        return not bad or st.fail(loc, "%s is %s %s %s" % (_short(x), words, keyword, _short(limit)))
    return check


def _multiple_check(m):
    def check(x, st, loc):
        if not _is_number(x) or _is_multiple(x, m):
            return True
        return st.fail(loc, "%s is not a multiple of %s (multipleOf)" % (_short(x), _short(m)))
    return check


def _length_check(lo, hi):
    def check(x, st, loc):
        if not isinstance(x, str):
            return True
        n = len(x)
        if lo is not None and n < lo:
            return st.fail(loc, "string of %d characters is shorter than minLength %d" % (n, lo))
        if hi is not None and n > hi:
            return st.fail(loc, "string of %d characters is longer than maxLength %d" % (n, hi))
        return True
    return check


def _pattern_check(compiled, source):
    search, limit = compiled

    def check(x, st, loc):
        if not isinstance(x, str):
            return True
        if limit is not None and len(x) > limit:
            return st.fail(loc, "string of %d characters is longer than the %d that pattern "
                           "'%s' is checked on" % (len(x), limit, _shown_pattern(source)))
        if search(x):
            return True
        return st.fail(loc, "does not match pattern '%s'" % _shown_pattern(source))
    return check


def _shown_pattern(source):
    return source if len(source) <= 100 else source[:97] + "..."


def _items_check(prefix, items):
    np = len(prefix)

    def check(x, st, loc):
        if not isinstance(x, (list, tuple)):
            return True
        if len(loc) >= _MAX_INSTANCE_DEPTH:
            st.fail(loc, "instance nested deeper than %d levels" % _MAX_INSTANCE_DEPTH)
            raise _Abort()
        ok = True
        for i, v in enumerate(x):
            fn = prefix[i] if i < np else items
            if fn is None:
                break
            if not fn(v, st, loc + (i,)):
                ok = False
                if len(st.errors) >= st.max_errors:
                    break
        return ok
    return check


def _size_check(lo, hi, noun, kinds):
    def check(x, st, loc):
        if not isinstance(x, kinds):
            return True
        n = len(x)
        if lo is not None and n < lo:
            return st.fail(loc, "has %d %s, fewer than min%s %d" % (n, noun, noun.title(), lo))
        if hi is not None and n > hi:
            return st.fail(loc, "has %d %s, more than max%s %d" % (n, noun, noun.title(), hi))
        return True
    return check


def _unique_check(x, st, loc):
    if not isinstance(x, (list, tuple)):
        return True
    seen = {}
    for i, v in enumerate(x):
        k = _canon(v)
        if k in seen:
            return st.fail(loc, "items %d and %d are equal (uniqueItems)" % (seen[k], i))
        seen[k] = i
    return True


def _contains_check(fn, cmin, cmax):
    def check(x, st, loc):
        if not isinstance(x, (list, tuple)):
            return True
        mark = len(st.errors)
        n = 0
        for i, v in enumerate(x):
            if fn(v, st, loc + (i,)):
                n += 1
        del st.errors[mark:]
        if n < cmin:
            if cmin == 1:
                return st.fail(loc, "no item matches the 'contains' schema")
            return st.fail(loc, "%d items match 'contains', fewer than minContains %d" % (n, cmin))
        if cmax is not None and n > cmax:
            return st.fail(loc, "%d items match 'contains', more than maxContains %d" % (n, cmax))
        return True
    return check


def _properties_check(props, pats, addl):
    def check(x, st, loc):
        if not isinstance(x, dict):
            return True
        if len(loc) >= _MAX_INSTANCE_DEPTH:
            st.fail(loc, "instance nested deeper than %d levels" % _MAX_INSTANCE_DEPTH)
            raise _Abort()
        ok = True
        for k, v in x.items():
            fn = props.get(k)
            matched = fn is not None
            if matched and not fn(v, st, loc + (k,)):
                ok = False
            for search, limit, pfn, source in pats:
                if limit is not None and len(k) > limit:
                    ok = st.fail(loc, "property name of %d characters is longer than the %d "
                                 "that pattern '%s' is checked on" % (len(k), limit,
                                                                      _shown_pattern(source)))
                    matched = True
                elif search(k):
                    matched = True
                    if not pfn(v, st, loc + (k,)):
                        ok = False
            if not matched and addl is not None:
                if addl is False:
                    ok = st.fail(loc, "unexpected property %s (additionalProperties)" % _short(k))
                elif not addl(v, st, loc + (k,)):
                    ok = False
            if not ok and len(st.errors) >= st.max_errors:
                break
        return ok
    return check


class _KeywordLog:
    """A schema object that records each keyword the compiler finds in it."""

    __slots__ = ("raw", "used")

    def __init__(self, raw):
        self.raw, self.used = raw, set()

    def __contains__(self, k):
        if k in self.raw:
            self.used.add(k)
            return True
        return False

    def __getitem__(self, k):
        self.used.add(k)
        return self.raw[k]

    def get(self, k, default=None):
        return self[k] if k in self.raw else default


def _object_check(props, required, addl):
    """type: object with properties, required and additionalProperties, fused."""
    get = props.get

    def check(x, st, loc):
        if type(x) is not dict and not isinstance(x, dict):
            return st.fail(loc, "expected type object, got %s" % _json_type(x))
        if len(loc) >= _MAX_INSTANCE_DEPTH:
            st.fail(loc, "instance nested deeper than %d levels" % _MAX_INSTANCE_DEPTH)
            raise _Abort()
        ok = True
        for k, v in x.items():
            fn = get(k)
            if fn is not None:
                if not fn(v, st, loc + (k,)):
                    ok = False
            elif addl is False:
                ok = st.fail(loc, "unexpected property %s (additionalProperties)" % _short(k))
            elif addl is not None and not addl(v, st, loc + (k,)):
                ok = False
            if not ok and len(st.errors) >= st.max_errors:
                return False
        for n in required:
            if n not in x:
                ok = st.fail(loc, "missing required property %s" % _short(n))
        return ok
    return check


_EXACT_TYPES = {"string": (str,), "boolean": (bool,), "integer": (int,), "number": (int, float),
                "null": (type(None),), "array": (list,), "object": (dict,)}


def _flat_object_accept(schema, used):
    """For the usual flat tool schema, a quick test that accepts only valid instances.

    Applies to an object schema that asks for nothing but properties whose
    schemas ask for nothing but a type (used maps id(subschema) to the keywords
    the compiler found in it). The test compares exact Python types, so it can
    say False for a valid instance (1.0 for an integer, a str subclass);
    errors() then runs the full check, which also finds the messages. Returns
    None for any other schema.
    """
    if not isinstance(schema, dict) or schema.get("type") != "object" or \
            not used[id(schema)] <= _OBJECT_CHECK_KEYWORDS:
        return None
    props, addl = schema.get("properties", {}), schema.get("additionalProperties", True)
    if not isinstance(props, dict) or addl not in (True, False, {}):
        return None
    types = {}
    for name, p in props.items():
        if p is True or p == {}:
            types[name] = ()
            continue
        t = p.get("type") if isinstance(p, dict) else None
        names = [t] if isinstance(t, str) else t
        if not isinstance(names, list) or not used.get(id(p), {"?"}) <= {"type"} or \
                any(not isinstance(n, str) or n not in _EXACT_TYPES for n in names):
            return None
        types[name] = tuple(x for n in names for x in _EXACT_TYPES[n])
    required = frozenset(schema.get("required", ()))
    closed = addl is False
    get, unknown = types.get, object()

    def accept(x):
        if type(x) is not dict or not required <= x.keys():
            return False
        for k, v in x.items():
            t = get(k, unknown)
            if t is unknown:
                if closed:
                    return False
            elif t and type(v) not in t:
                return False
        return True
    return accept


def _required_check(names):
    def check(x, st, loc):
        if not isinstance(x, dict):
            return True
        ok = True
        for n in names:
            if n not in x:
                ok = st.fail(loc, "missing required property %s" % _short(n))
        return ok
    return check


def _names_check(fn):
    def check(x, st, loc):
        if not isinstance(x, dict):
            return True
        ok = True
        for k in x:
            mark = len(st.errors)
            if not fn(k, st, loc):
                del st.errors[mark:]
                ok = st.fail(loc, "property name %s is invalid (propertyNames)" % _short(k))
        return ok
    return check


def _dep_required_check(deps):
    def check(x, st, loc):
        if not isinstance(x, dict):
            return True
        ok = True
        for k, needed in deps.items():
            if k in x:
                for n in needed:
                    if n not in x:
                        ok = st.fail(loc, "property %s requires property %s (dependentRequired)"
                                     % (_short(k), _short(n)))
        return ok
    return check


def _dep_schemas_check(deps):
    def check(x, st, loc):
        if not isinstance(x, dict):
            return True
        ok = True
        for k, fn in deps.items():
            if k in x and not fn(x, st, loc):
                ok = False
        return ok
    return check


def _all_of(fns):
    return _all_checks(fns)


def _quietly(fn, x, st, loc):
    """fn's verdict without its messages (the first failure decides: no message is made)."""
    limit, st.max_errors = st.max_errors, 0
    try:
        return fn(x, st, loc)
    finally:
        st.max_errors = limit


def _any_of(fns):
    def check(x, st, loc):
        for fn in fns:
            if _quietly(fn, x, st, loc):
                return True
        return _none_matched(fns, x, st, loc, "anyOf")
    return check


def _none_matched(fns, x, st, loc, keyword):
    """Fail for x matching none of fns (anyOf, oneOf), quoting what the first two said."""
    mark = len(st.errors)                 # again, for what each said
    for fn in fns:
        fn(x, st, loc)
    first = st.errors[mark:mark + 2]
    del st.errors[mark:]
    detail = "; ".join(first)
    return st.fail(loc, "does not match any schema in %s" % keyword +
                   (" (%s)" % detail if detail else ""))


def _one_of(fns):
    def check(x, st, loc):
        hits = []
        for i, fn in enumerate(fns):
            if _quietly(fn, x, st, loc):
                hits.append(i)
                if len(hits) > 1:
                    break
        if len(hits) == 1:
            return True
        if hits:
            return st.fail(loc, "matches schemas %d and %d in oneOf; expected exactly one"
                           % (hits[0], hits[1]))
        return _none_matched(fns, x, st, loc, "oneOf")
    return check


def _not_check(fn):
    def check(x, st, loc):
        return not _quietly(fn, x, st, loc) or st.fail(loc, "must not match the schema in 'not'")
    return check


def _if_check(if_fn, then_fn, else_fn):
    def check(x, st, loc):
        fn = then_fn if _quietly(if_fn, x, st, loc) else else_fn
        return fn is None or fn(x, st, loc)
    return check


###############################################################################
# Appendix: schemas from type hints ###########################################
###############################################################################
#
# A function's signature, annotations and docstring become a flat, closed JSON Schema
# and converters for the arguments: plain classes, typing forms, enums, dataclasses,
# TypedDicts, standard-library value classes (dates, UUIDs, Decimal, paths), and
# the constraints of pydantic, annotated-types and msgspec, read by their public
# attributes without importing them.

def _is_context(annotation):
    return annotation is Context


_MISSING = object()


def _identity(x):
    return x


# The schemas and conversions of the plain classes most parameters are annotated with.
_PLAIN_SCHEMAS = {str: ({"type": "string"}, _identity), bool: ({"type": "boolean"}, _identity),
                  int: ({"type": "integer"}, int), float: ({"type": "number"}, float)}


def _plain_parameter(ann, default):
    """The _PLAIN_SCHEMAS entry that describes a parameter whole, or None: str, int, float
    or bool with a JSON default or none, or Optional of one defaulting to None."""
    if type(ann) is type:
        plain = _PLAIN_SCHEMAS.get(ann)
        return plain if plain is not None and (default is _EMPTY or _is_finite(default) or
                                               type(default) in _SCALAR_DEFAULTS) else None
    return _optional_plain(ann) if default is None else None


def _plain_property(plain, default, doc):
    """The schema of a plain parameter (_plain_parameter): its type, description, default."""
    schema = dict(plain[0])
    if doc is not None:
        schema["description"] = doc
    if default is not _EMPTY and default is not None:      # None: Optional's "absent"
        schema["default"] = default
    return schema


def _object_schema(props, required):
    """A tool's input schema: its parameters' properties, flat and closed."""
    if not props:
        return {"type": "object", "additionalProperties": False}
    schema = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


class _SchemaBuilder:
    """Turns annotations into flat JSON Schemas and JSON values into Python values."""

    def __init__(self, owner, output=False):
        self.owner = owner
        self.output = output          # building a result's schema (values go out, not in)
        self.active = set()
        self.constrained = False

    @property
    def typing(self):
        import typing          # only for annotations that are not plain classes
        return typing

    def fail(self, where, annotation, why=""):
        if not why and isinstance(annotation, type):
            why = "use str, int, float, bool, a list, a dict, an Enum, a Literal, a " \
                  "dataclass, a TypedDict, a pydantic model, datetime, date, time, " \
                  "timedelta, UUID, Decimal, Path or bytes"
        raise CatalogError("%s: %s: cannot express %s as a JSON Schema%s" % (
            self.owner, where, _type_name(annotation), why and " (%s)" % why))

    def build(self, annotation, where):
        """Return (schema, convert) for an annotation; convert(json_value) -> Python value."""
        plain = _PLAIN_SCHEMAS.get(annotation) if type(annotation) is type else None
        if plain is not None:                 # str, int, float, bool: no typing needed
            return dict(plain[0]), plain[1]
        if annotation is dict:                # as below, without typing: -> dict is common
            return {"type": "object"}, _convert_members(dict, lambda k: _identity)
        if isinstance(annotation, type):
            value = _value_type(annotation)
            if value is not None:             # datetime, UUID, Decimal, Path, bytes...
                return dict(value[1] if self.output else value[0]), value[2]
            if _is_model(annotation):         # a pydantic model, by its protocol
                return self.model(annotation, where)
        t = self.typing
        origin, args = t.get_origin(annotation), t.get_args(annotation)
        ident = _identity
        if annotation is t.Any:
            return {}, ident
        if origin is t.Annotated:
            return self.annotated(args, where)
        if annotation is str:
            return {"type": "string"}, ident
        if annotation is bool:
            return {"type": "boolean"}, ident
        if annotation is int:
            return {"type": "integer"}, int
        if annotation is float:
            return {"type": "number"}, float
        if annotation is None or annotation is type(None):
            return {"type": "null"}, ident
        if origin is t.Literal:
            return _enum_schema(list(args)), ident
        if _union_origin(origin):
            return self.union(args, where)
        import enum
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            return _enum_schema([m.value for m in annotation]), annotation
        if annotation in (list, tuple, set, frozenset) or origin in (list, set, frozenset) or \
                _is_abc_sequence(origin):
            return self.array(annotation, origin, args, where)
        if origin is tuple:
            return self.tuple_of(args, where)
        if annotation is dict or origin is dict or _is_abc_mapping(origin):
            if args and args[0] is not str:
                self.fail(where, annotation, "object keys are strings")
            value_schema, value_conv = self.build(args[1], where + "{}") if args else ({}, ident)
            schema = {"type": "object"}
            if args:
                schema["additionalProperties"] = value_schema
            return schema, _convert_members(dict, lambda k: value_conv)
        if _is_typeddict(annotation):
            return self.record(annotation, where, _typeddict_fields(annotation), dict)
        if _is_dataclass(annotation):
            return self.record(annotation, where, _dataclass_fields(annotation),
                               lambda kw, cls=annotation: cls(**kw))
        self.fail(where, annotation)

    def annotated(self, args, where):
        """Annotated[T, ...]: T with descriptions and the author's constraints."""
        schema, convert = self.build(args[0], where)
        schema = dict(schema)
        for extra in args[1:]:
            if isinstance(extra, str):
                schema["description"] = extra
                continue
            if getattr(extra, "alias", None) and not _pattern(r"parameter '\w+'\Z").match(where):
                raise CatalogError("%s: %s: an alias applies to a tool parameter only"
                                   % (self.owner, where))
            if isinstance(extra, Field):
                schema.update(extra.schema)
            else:          # never dropped silently: the schema would be looser than meant
                schema.update(_foreign_constraints(extra, schema, self.owner, where))
            self.constrained = True           # the author's constraints: check them now
        return schema, convert

    def union(self, args, where):
        """Union[A, B] (and Optional): anyOf, converted by the first member that accepts."""
        members = [a for a in args if a is not type(None)]
        parts = [self.build(a, where) for a in members]
        if len(members) < len(args):
            parts.append(({"type": "null"}, _identity))
        if len(parts) == 1:
            return parts[0]
        checks = [(compile_schema(s).is_valid, conv) for s, conv in parts]

        def convert(x):
            failed = None
            for accepts, conv in checks:
                if accepts(x):
                    try:
                        return conv(x)
                    except _Invalid as e:     # str after datetime: the next may take it
                        failed = failed or e
            if failed is not None:
                raise failed
            return x
        return {"anyOf": [p[0] for p in parts]}, convert

    def array(self, annotation, origin, args, where):
        """list[T], set[T], frozenset[T], Sequence[T] and bare tuple: an array of T."""
        item_schema, item_conv = self.build(args[0], where + "[]") if args else ({}, _identity)
        schema = {"type": "array", "items": item_schema}
        if origin in (set, frozenset) or annotation in (set, frozenset):
            schema["uniqueItems"] = True
        kind = origin if origin in (set, frozenset, tuple) else (
            annotation if annotation in (set, frozenset, tuple) else list)
        return schema, _convert_items(kind, [item_conv])

    def tuple_of(self, args, where):
        """tuple[T, ...] (an array) or tuple[A, B] (positional items)."""
        if len(args) == 2 and args[1] is Ellipsis:
            item_schema, item_conv = self.build(args[0], where + "[]")
            return {"type": "array", "items": item_schema}, _convert_items(tuple, [item_conv])
        if args == ((),):
            args = ()
        parts = [self.build(a, "%s[%d]" % (where, i)) for i, a in enumerate(args)]
        # maxItems, not "items": false, bounds it: a bare false schema is what clients
        # port worst (the Inspector's --strict calls it an error).
        schema = {"type": "array", "minItems": len(parts), "maxItems": len(parts)}
        if parts:
            schema["prefixItems"] = [p[0] for p in parts]
        return schema, _convert_items(tuple, [p[1] for p in parts], positional=True)

    def model(self, cls, where):
        """A pydantic model: its own schema made flat, converted by its own validation."""
        if cls in self.active:
            self.fail(where, cls, "it refers to itself; flat schemas cannot recurse")
        try:
            if self.output:        # what model_dump(mode="json") writes
                by_alias = bool((getattr(cls, "model_config", None) or {}).get(
                    "serialize_by_alias"))
                schema = cls.model_json_schema(mode="serialization", by_alias=by_alias)
            else:
                schema = cls.model_json_schema()
        except Exception as e:   # noqa: BLE001 - the author's model: say which and why
            raise CatalogError("%s: %s: %s.model_json_schema() failed: %s" % (
                self.owner, where, _type_name(cls), _short_text(e)))
        schema = _inline_refs(schema, "%s: %s" % (self.owner, where))
        self.constrained = True              # the model's constraints: checked at registration

        def convert(value):
            try:
                return cls.model_validate(value)
            except Exception as e:   # noqa: BLE001 - recognised by its protocol below
                errors = getattr(e, "errors", None)
                if type(e).__name__ != "ValidationError" or not callable(errors):
                    raise
                raise _Invalid([(tuple(err.get("loc") or ()), err.get("msg") or "invalid")
                                for err in errors()])
        return schema, convert

    def record(self, annotation, where, fields, make):
        """A closed object from (name, annotation, required, default) fields."""
        if annotation in self.active:
            self.fail(where, annotation, "it refers to itself; flat schemas cannot recurse")
        self.active.add(annotation)
        try:
            props, required, convs = {}, [], {}
            for name, ann, is_required, default in fields:
                schema, conv = self.build(ann, "%s.%s" % (where, name))
                if not is_required and default is not _MISSING:
                    schema = _with_default(schema, default)
                props[name] = schema
                convs[name] = conv
                if is_required:
                    required.append(name)
        finally:
            self.active.discard(annotation)
        schema = {"type": "object", "properties": props}
        if required:
            schema["required"] = required
        schema["additionalProperties"] = False
        return schema, _convert_members(make, lambda k: convs.get(k, _identity))


def _convert_items(kind, convs, positional=False):
    """Convert an array's items (one converter each when positional); kind makes the result."""
    conv = convs[0]
    if not positional and conv is _identity:
        return _identity if kind is list else kind

    def convert(x):
        out = []
        for i, v in enumerate(x):
            try:
                out.append(convs[i](v) if positional else conv(v))
            except _Invalid as e:
                raise e.under(i)
        return out if kind is list else kind(out)
    return convert


def _convert_members(make, conv_for):
    """Convert an object's members (conv_for(key) converts each); make builds the result."""
    def convert(x):
        out = {}
        for k, v in x.items():
            try:
                out[k] = conv_for(k)(v)
            except _Invalid as e:
                raise e.under(k)
        try:
            return make(out)
        except (TypeError, ValueError) as e:     # a dataclass's own checks (__post_init__)
            if isinstance(e, _Invalid) or make is dict:
                raise
            raise _Invalid([((), _short_text(e))])
    return convert


def _enum_schema(values):
    """{"enum": values}, with "type" when every value has the same JSON type."""
    kinds = set(_json_type(v) for v in values)
    if len(kinds) == 1:
        return {"type": kinds.pop(), "enum": values}
    return {"enum": values}


def _type_name(annotation):
    return getattr(annotation, "__name__", None) or repr(annotation)


def _union_origin(origin):
    """True for the origin of Union[...] and Optional[...], or of X | Y."""
    if origin is None:
        return False
    if origin is getattr(__import__("types"), "UnionType", None):
        return True
    typing = sys.modules.get("typing")      # typing.Union exists only once typing is loaded
    return typing is not None and origin is typing.Union


def _optional_plain(ann):
    """The _PLAIN_SCHEMAS entry of T for Optional[T] or T | None (T str, int, float, bool)."""
    args = getattr(ann, "__args__", None)
    if type(args) is not tuple or len(args) != 2 or args[1] is not type(None):
        return None
    plain = _PLAIN_SCHEMAS.get(args[0])
    if plain is None:
        return None
    typing = sys.modules.get("typing")       # X | None needs no typing
    return plain if _union_origin(type(ann) if typing is None else typing.get_origin(ann)) \
        else None


def _is_abc_sequence(origin):
    if origin is None:
        return False
    import collections.abc as abc
    return origin in (abc.Sequence, abc.MutableSequence, abc.Iterable, abc.Collection)


def _is_abc_mapping(origin):
    if origin is None:
        return False
    import collections.abc as abc
    return origin in (abc.Mapping, abc.MutableMapping)


def _is_typeddict(annotation):
    return isinstance(annotation, type) and issubclass(annotation, dict) and \
        hasattr(annotation, "__required_keys__")


def _hints(obj):
    import typing
    try:
        return typing.get_type_hints(obj, include_extras=True)
    except (NameError, TypeError) as e:
        raise CatalogError("cannot resolve the annotations of %s (%s)" % (_type_name(obj),
                                                                          _hint_problem(e)))


def _hint_problem(exc):
    """Why annotations cannot be read, with the fix for the usual case on Python 3.9."""
    text = str(exc)
    if "unsupported operand type(s) for |" in text:
        text += "; 'A | B' in an annotation needs Python 3.10: write Optional[A] or Union[A, B]"
    return text


def _typeddict_fields(td):
    import typing
    hints = _hints(td)
    markers = tuple(m for m in (getattr(typing, "Required", None),
                                getattr(typing, "NotRequired", None)) if m is not None)
    out = []
    for name, ann in hints.items():
        if markers and typing.get_origin(ann) in markers:     # Python 3.11+
            ann = typing.get_args(ann)[0]
        out.append((name, ann, name in td.__required_keys__, _MISSING))
    return out


def _is_dataclass(annotation):
    return isinstance(annotation, type) and hasattr(annotation, "__dataclass_fields__")


def _dataclass_fields(cls):
    import dataclasses
    hints = _hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        has_default = f.default is not dataclasses.MISSING or \
            f.default_factory is not dataclasses.MISSING
        default = f.default if f.default is not dataclasses.MISSING else _MISSING
        out.append((f.name, hints.get(f.name, f.type), not has_default, default))
    return out


# Defaults that are JSON as they are (a float default may be NaN: the general path).
_SCALAR_DEFAULTS = frozenset((str, int, bool))


def _is_finite(value):
    """True for a float JSON can carry (not NaN or an infinity)."""
    return type(value) is float and value - value == 0


def _with_default(schema, default):
    try:
        default = _to_json(default)
        encode_message(default)
    except (TypeError, ValueError, RecursionError):
        return schema
    schema = dict(schema)
    schema["default"] = default
    return schema


def _to_json(value):
    """Convert dataclasses, pydantic models, Enums, tuples, sets and value types to JSON values."""
    enum = _enum_module()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value.value if isinstance(value, enum.Enum) else value
    if isinstance(value, dict):
        return {str(k): _to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_to_json(v) for v in value]
    if isinstance(value, enum.Enum):
        return _to_json(value.value)
    if _is_dataclass(type(value)):
        import dataclasses
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if _is_model(type(value)):
        return value.model_dump(mode="json")
    if isinstance(value, (bytes, bytearray)):
        return _base64(value)
    entry = _value_type(type(value))
    if entry is not None:
        return entry[3](value)
    raise TypeError("%s is not JSON serializable" % type(value).__name__)


# Standard-library value classes as parameters and results, encoded as
# pydantic's JSON mode encodes them (so a server gives the same JSON whichever
# way a field is declared): ISO 8601 dates, times and durations ("Z" for UTC),
# UUIDs and paths as strings, Decimal as a string. bytes travel as base64
# (contentEncoding), where pydantic would assume UTF-8 text.
class _Invalid(ValueError):
    """Arguments that pass the schema but do not convert: [(path, message), ...]."""

    def __init__(self, problems):
        ValueError.__init__(self, problems)
        self.problems = problems

    def under(self, key):
        """The same problems one level down, under key."""
        return _Invalid([((key,) + path, message) for path, message in self.problems])


_VALUE_TYPE_CACHE = {}


_DECIMAL_RE = r"^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$"


def _value_types():
    """class -> (input schema, output schema, from JSON, to JSON); built on first use."""
    table = _VALUE_TYPE_CACHE
    if table:
        return table
    import datetime
    import decimal
    import pathlib
    import uuid
    text = {"type": "string"}

    def iso(fmt, parse, to=lambda v: v.isoformat()):
        return (dict(text, format=fmt), dict(text, format=fmt), parse, to)
    table[datetime.datetime] = iso("date-time", _parse_datetime, _iso_datetime)
    table[datetime.date] = iso("date", _parse_date)
    table[datetime.time] = iso("time", _parse_time, _iso_datetime)
    table[datetime.timedelta] = iso("duration", _parse_duration, _iso_duration)
    table[uuid.UUID] = iso("uuid", _converter(uuid.UUID, "a UUID"), str)
    table[decimal.Decimal] = ({"anyOf": [{"type": "number"}, dict(text, pattern=_DECIMAL_RE)]},
                              text, _parse_decimal, str)
    for cls in (pathlib.PurePath, pathlib.Path, pathlib.PurePosixPath,
                pathlib.PureWindowsPath):
        table[cls] = iso("path", cls, str)
    table[bytes] = (dict(text, contentEncoding="base64"), dict(text, contentEncoding="base64"),
                    _parse_base64, _base64)
    return table


_VALUE_MODULES = frozenset(("datetime", "uuid", "decimal", "pathlib"))
_DATE_RE = r"([0-9]{4})-([0-9]{2})-([0-9]{2})"
_TIME_RE = r"([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]{1,6})[0-9]*)?)?" \
           r"(Z|z|[-+][0-9]{2}(?::?[0-9]{2})?)?"
_DURATION_RE = r"([-+])?P(?:([0-9]+)Y)?(?:([0-9]+)W)?(?:([0-9]+)D)?" \
               r"(?:T(?:([0-9]+)H)?(?:([0-9]+)M)?(?:([0-9]+(?:[.,][0-9]+)?)S)?)?"


def _value_type(cls):
    """The value-type entry of class cls (or of a base, for Path subclasses), or None."""
    if cls is not bytes and (getattr(cls, "__module__", None) or "").partition(".")[0] \
            not in _VALUE_MODULES:        # pathlib's classes live in pathlib._local on 3.13
        return None
    table = _value_types()
    for base in getattr(cls, "__mro__", (cls,)):
        if base in table:
            return table[base]
    return None


def _converter(cls, noun):
    def convert(text):
        try:
            return cls(text)
        except (ValueError, TypeError, AttributeError):
            raise _Invalid([((), "%s is not %s" % (_short(text), noun))])
    return convert


def _tz(text):
    import datetime
    if text is None:
        return None
    if text in ("Z", "z"):
        return datetime.timezone.utc
    digits = text[1:].replace(":", "")
    offset = datetime.timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0))
    return datetime.timezone(-offset if text[0] == "-" else offset)


def _parse_iso(text, regex, noun, make):
    """make(*groups) of text matching regex, or _Invalid saying text is not an ISO 8601 noun."""
    m = _pattern(regex).match(text)
    try:
        if m is None:
            raise ValueError(text)
        return make(*m.groups())
    except ValueError:
        raise _Invalid([((), "%s is not an ISO 8601 %s" % (_short(text), noun))])


def _micro(fraction):
    return int((fraction or "0").ljust(6, "0"))


def _parse_datetime(text):
    """A datetime from ISO 8601 text ("Z" and any fraction accepted on every Python)."""
    import datetime
    return _parse_iso(text, "^%s(?:[Tt ]%s)?$" % (_DATE_RE, _TIME_RE), "date-time",
                      lambda y, mo, d, h, mi, s, frac, tz: datetime.datetime(
                          int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0),
                          _micro(frac), _tz(tz)))


def _parse_date(text):
    import datetime
    return _parse_iso(text, "^%s$" % _DATE_RE, "date",
                      lambda y, mo, d: datetime.date(int(y), int(mo), int(d)))


def _parse_time(text):
    import datetime
    return _parse_iso(text, "^%s$" % _TIME_RE, "time",
                      lambda h, mi, s, frac, tz: datetime.time(int(h), int(mi), int(s or 0),
                                                               _micro(frac), _tz(tz)))


def _iso_datetime(value):
    """ISO 8601 text, with "Z" for UTC as pydantic writes it."""
    text = value.isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def _parse_duration(text):
    """A timedelta from an ISO 8601 duration (a year is 365 days, as in pydantic)."""
    import datetime
    m = _pattern("^%s$" % _DURATION_RE).match(text)
    if m is None or text.rstrip("T").endswith("P") or text.endswith("T"):
        raise _Invalid([((), "%s is not an ISO 8601 duration (for example P1DT2H30M)"
                         % _short(text))])
    sign, y, w, d, h, mi, s = m.groups()
    try:
        delta = datetime.timedelta(days=int(y or 0) * 365 + int(w or 0) * 7 + int(d or 0),
                                   hours=int(h or 0), minutes=int(mi or 0),
                                   seconds=float((s or "0").replace(",", ".")))
    except OverflowError:
        raise _Invalid([((), "%s is too long a duration" % _short(text))])
    return -delta if sign == "-" else delta


def _iso_duration(value):
    """An ISO 8601 duration as pydantic writes it: P1Y35DT59.25S, -PT1S, PT0S."""
    sign = "-" if value.days < 0 else ""
    value = abs(value)
    years, days = divmod(value.days, 365)
    hours, rest = divmod(value.seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    date = ("%dY" % years if years else "") + ("%dD" % days if days else "")
    secs = ("%d.%06d" % (seconds, value.microseconds)).rstrip("0") if value.microseconds \
        else ("%d" % seconds if seconds else "")
    clock = ("%dH" % hours if hours else "") + ("%dM" % minutes if minutes else "") + \
        ("%sS" % secs if secs else "")
    if not date and not clock:
        return "PT0S"
    return "%sP%s%s" % (sign, date, "T" + clock if clock else "")


def _parse_decimal(value):
    import decimal
    try:
        d = decimal.Decimal(value if isinstance(value, str) else repr(value))
    except (decimal.InvalidOperation, ValueError):
        d = None
    if d is None or not d.is_finite():
        raise _Invalid([((), "%s is not a finite decimal number" % _short(value))])
    return d


def _parse_base64(text):
    import base64
    import binascii
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise _Invalid([((), "%s is not base64" % _short(text))])


def _base64(data):
    import base64
    return base64.b64encode(bytes(data)).decode("ascii")


def _is_model(cls):
    """True for a pydantic (v2) model class, recognised by its methods: pydantic is never imported."""
    return isinstance(cls, type) and callable(getattr(cls, "model_json_schema", None)) and \
        callable(getattr(cls, "model_validate", None)) and \
        callable(getattr(cls, "model_dump", None))


# Keywords whose values are instance data, never schemas.
_DATA_KEYWORDS = frozenset(("default", "examples", "const", "enum"))


def _inline_refs(schema, owner):
    """schema with every "#/$defs/..." reference replaced by its definition: flat, as
    clients such as Gemini CLI need; a recursive definition is a CatalogError."""
    defs = schema.get("$defs") or {}

    def walk(node, stack):
        if isinstance(node, list):
            return [walk(x, stack) for x in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            name = _unescape_token(ref[len("#/$defs/"):]) if ref.startswith("#/$defs/") else None
            if name not in defs:
                raise CatalogError("%s: the schema refers to %s, which cannot be inlined"
                                   % (owner, _short(ref)))
            if name in stack:
                raise CatalogError("%s: %s refers to itself; flat schemas cannot recurse"
                                   % (owner, name))
            target = walk(defs[name], stack + (name,))
            rest = {k: walk(v, stack) for k, v in node.items() if k != "$ref"}
            if not rest:
                return target
            if set(rest) <= _ANNOTATIONS:
                return dict(target, **rest)
            return dict(rest, allOf=[target])
        return {k: v if k in _DATA_KEYWORDS else walk(v, stack)
                for k, v in node.items() if k != "$defs"}
    return walk(schema, ())


# annotated-types constraints (pydantic's Field(ge=...) holds them too):
# class name -> (attribute, JSON Schema keyword).
_BOUNDS = {"Gt": ("gt", "exclusiveMinimum"), "Ge": ("ge", "minimum"),
           "Lt": ("lt", "exclusiveMaximum"), "Le": ("le", "maximum"),
           "MultipleOf": ("multiple_of", "multipleOf")}
# Length keywords by the type they constrain.
_LENGTHS = {"string": ("minLength", "maxLength"), "array": ("minItems", "maxItems"),
            "object": ("minProperties", "maxProperties")}
# msgspec.Meta and pydantic's general metadata: attribute -> JSON Schema keyword.
_META_KEYWORDS = {"gt": "exclusiveMinimum", "ge": "minimum", "lt": "exclusiveMaximum",
                  "le": "maximum", "multiple_of": "multipleOf", "pattern": "pattern",
                  "title": "title", "description": "description", "examples": "examples"}


def _foreign_constraints(extra, schema, owner, where):
    """The schema keywords of Annotated metadata from pydantic, annotated-types or msgspec.

    Recognised by module and attributes (none of them is imported); anything
    else is a CatalogError naming it, never dropped.
    """
    cls = type(extra)
    module, name = getattr(cls, "__module__", "") or "", cls.__name__
    out = {}

    def length(lo, hi):
        keys = _LENGTHS.get(schema.get("type"))
        if keys is None:
            raise CatalogError("%s: %s: %s constrains a length, but the type has none"
                               % (owner, where, repr(extra)[:80]))
        for key, value in zip(keys, (lo, hi)):
            if value is not None:
                out[key] = value
    if module.startswith("annotated_types"):
        if name in _BOUNDS:
            out[_BOUNDS[name][1]] = getattr(extra, _BOUNDS[name][0])
        elif name in ("MinLen", "MaxLen", "Len"):
            length(getattr(extra, "min_length", None), getattr(extra, "max_length", None))
        elif name == "Interval" or (hasattr(extra, "__iter__") and name != "Predicate"):
            for part in extra:                     # grouped metadata: its parts
                out.update(_foreign_constraints(part, dict(schema, **out), owner, where))
        else:
            _unknown_metadata(extra, owner, where)
    elif module.startswith("pydantic") and name == "FieldInfo":
        for attr, key in (("description", "description"), ("title", "title"),
                          ("examples", "examples")):
            if getattr(extra, attr, None) is not None:
                out[key] = getattr(extra, attr)
        if getattr(extra, "deprecated", None):
            out["deprecated"] = True
        more = getattr(extra, "json_schema_extra", None)
        if callable(more):
            raise CatalogError("%s: %s: a json_schema_extra function cannot be read; give a "
                               "dict" % (owner, where))
        for part in getattr(extra, "metadata", None) or ():
            out.update(_foreign_constraints(part, dict(schema, **out), owner, where))
        out.update(more or {})
    elif module.startswith("pydantic") and name == "Strict":
        pass                       # the schema is already strict: "5" is not an integer
    elif module.startswith("pydantic") and name == "_PydanticGeneralMetadata":
        for attr, value in vars(extra).items():
            if attr not in ("pattern",) and value is not None:
                _unknown_metadata(extra, owner, where)
            if value is not None:
                out[_META_KEYWORDS[attr]] = value
    elif module.startswith("msgspec") and name == "Meta":
        lo, hi = getattr(extra, "min_length", None), getattr(extra, "max_length", None)
        if lo is not None or hi is not None:
            length(lo, hi)
        for attr, key in _META_KEYWORDS.items():
            if getattr(extra, attr, None) is not None:
                out[key] = getattr(extra, attr)
        out.update(getattr(extra, "extra_json_schema", None) or {})
    else:
        _unknown_metadata(extra, owner, where)
    return out


def _unknown_metadata(extra, owner, where):
    raise CatalogError("%s: %s: Annotated metadata %s is not understood; use a description "
                       "string, mcp_stdio.Field(minimum=..., max_length=..., ...), pydantic's "
                       "Field or annotated-types constraints" % (owner, where, repr(extra)[:80]))


# Parameter kinds, numbered as inspect numbers them.
_POSITIONAL_ONLY, _POSITIONAL_OR_KEYWORD, _VAR_POSITIONAL, _KEYWORD_ONLY, _VAR_KEYWORD = range(5)
_EMPTY = object()                     # "no default", "no annotation"


# Code-object flags (the inspect module's CO_* values).
_CO_VARARGS, _CO_VARKEYWORDS, _CO_GENERATOR = 0x04, 0x08, 0x20


def _code_parameters(fn):
    """(name, kind, default, annotation) of each parameter of a plain function, from its code."""
    code, ann = fn.__code__, fn.__annotations__
    n_pos, n_kw = code.co_argcount, code.co_kwonlyargcount
    names = code.co_varnames
    defaults = fn.__defaults__ or ()
    first_default, posonly = n_pos - len(defaults), code.co_posonlyargcount
    params = [(name, _POSITIONAL_ONLY if i < posonly else _POSITIONAL_OR_KEYWORD,
               defaults[i - first_default] if i >= first_default else _EMPTY,
               ann.get(name, _EMPTY)) for i, name in enumerate(names[:n_pos])] if n_pos else []
    at = n_pos + n_kw                 # co_varnames: positional, keyword-only, *args, **kwargs
    if code.co_flags & _CO_VARARGS:
        params.append((names[at], _VAR_POSITIONAL, _EMPTY, _EMPTY))
        at += 1
    if n_kw:
        kwdefaults = fn.__kwdefaults__ or {}
        params.extend((name, _KEYWORD_ONLY, kwdefaults.get(name, _EMPTY), ann.get(name, _EMPTY))
                      for name in names[n_pos:n_pos + n_kw])
    if code.co_flags & _CO_VARKEYWORDS:
        params.append((names[at], _VAR_KEYWORD, _EMPTY, _EMPTY))
    return params


_CO_COROUTINE, _CO_ASYNC_GENERATOR = 0x80, 0x200
# What no function that _plain_signature() reads has.
_NOT_PLAIN_FLAGS = _CO_VARARGS | _CO_VARKEYWORDS | _CO_GENERATOR | _CO_ASYNC_GENERATOR


_FUNCTION = type(_pattern)            # what def and lambda make (types.FunctionType)


def _plain_function(fn):
    """True for a function defined with def or lambda whose annotations are objects."""
    if type(fn) is not _FUNCTION:
        return False
    ann = getattr(fn, "__annotations__", None)
    return isinstance(ann, dict) and str not in map(type, ann.values())


def _code_flags(fn):
    """The code flags of a plain function, or None for any other callable."""
    return fn.__code__.co_flags if type(fn) is _FUNCTION else None


def _is_coroutine_function(fn):
    flags = _code_flags(fn)
    if flags is not None:
        return bool(flags & _CO_COROUTINE)
    import inspect
    return inspect.iscoroutinefunction(fn)


def _is_generator_function(fn):
    flags = _code_flags(fn)
    if flags is not None:
        return bool(flags & (_CO_GENERATOR | _CO_ASYNC_GENERATOR))
    import inspect
    return inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn)


def _signature(fn, owner):
    """(parameters as _code_parameters gives them, return annotation, type hints) of fn.

    A plain function is read without importing inspect.
    """
    if _plain_function(fn):
        ann = fn.__annotations__              # read, never changed: not copied
        return _code_parameters(fn), ann.get("return", _EMPTY), ann
    import inspect
    import typing
    try:
        sig = inspect.signature(fn)
        hints = typing.get_type_hints(fn, include_extras=True)
    except (TypeError, ValueError, NameError) as e:
        raise CatalogError("%s: cannot read the signature (%s)" % (owner, _hint_problem(e)))
    empty = inspect.Parameter.empty
    params = [(p.name, int(p.kind), _EMPTY if p.default is empty else p.default,
               _EMPTY if p.annotation is empty else p.annotation)
              for p in sig.parameters.values()]
    ret = sig.return_annotation
    return params, _EMPTY if ret is empty else ret, hints


_SECTIONS = frozenset(("Args", "Arguments", "Parameters", "Params", "Returns", "Return", "Raises",
                       "Yields", "Example", "Examples", "Note", "Notes"))
_GOOGLE_PARAM_RE = r"^\s*\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$"
_REST_PARAM_RE = r"^\s*:param\s+(?:[^:]*\s)?(\w+)\s*:\s*(.*)$"
_ARGS_SECTIONS = frozenset(("args", "arguments", "parameters", "params"))
_ARGS_HEADERS = frozenset(s for s in _SECTIONS if s.lower() in _ARGS_SECTIONS)     # "Args"...


def _parse_docstring(doc):
    """Return (description, {parameter: description}) from a Google or reST docstring."""
    if not doc:
        return None, {}
    if "\t" not in doc:
        if "\n" not in doc:                  # _read_docstring's first case, without its call:
            line = doc.strip()               # a resource's one line, thousands of them
            if line[:1] != ":":
                return line or None, {}
        elif ":param" not in doc:
            usual = _read_usual(doc)
            if usual is not None:
                return usual
    return _read_docstring(doc)


def _read_usual(doc):
    """_read_docstring(doc) for the usual Google layout, read with string methods (a
    catalog of thousands is described quickly); None for any other layout.

    That is a summary, an "Args:" line (or Arguments, Parameters, Params), its
    "name: text" lines at most four spaces deeper, then any other sections,
    indented with spaces only, the header's indentation the least. A line that
    goes on from the one before, or any doubt, is left to _read_docstring.
    """
    at = doc.find(":\n")                     # the first section's header ends there
    if at < 0:
        return None
    nl = doc.rfind("\n", 0, at)
    if nl < 0:
        return None
    header = doc[nl + 1:at]
    word = header.lstrip(" ")
    if word not in _ARGS_HEADERS:
        return None
    margin = len(header) - len(word)
    summary = doc[:nl].strip()
    if "\n" in summary or summary != doc[:doc.find("\n")].strip():
        summary = _usual_summary(doc[:nl].split("\n"), margin)   # more than the first line
        if summary is None:
            return None
    if not summary or summary[-1] == ":":
        return None                           # none, or the header may be the summary
    params, args = {}, True
    for line in doc[at + 2:].split("\n"):
        name, colon, rest = line.partition(":")
        text = name.lstrip(" ")
        depth = len(name) - len(text) - margin
        if colon and 0 <= depth <= 4 and text.isidentifier() and text.isascii():
            rest = rest.strip()
            if rest:                          # "name: text": a parameter (never a header)
                if args:
                    params[text] = rest
                continue
        text = line.strip()
        if not text:
            continue
        if depth < 0:
            return None                       # shallower than the header: another margin
        if text[-1] == ":" and text[:-1].strip() in _SECTIONS:
            args = text[:-1].strip().lower() in _ARGS_SECTIONS
        elif args:
            return None                       # a line that goes on, or a shape of its own
    return summary, params


def _usual_summary(lines, margin):
    """The summary of _read_usual from the lines before the header, or None."""
    summary = [lines[0].strip()]
    for line in lines[1:]:
        text = line.lstrip()
        if text and len(line) - len(text) < margin:
            return None                       # shallower than the header: another margin
        summary.append(line[margin:].rstrip())
    for line in summary:
        if line[-1:] == ":":
            return None                       # perhaps a section header
    return "\n".join(summary).strip()


def _read_docstring(doc):
    """_parse_docstring(doc), read line by line.

    The text is read as inspect.cleandoc() would leave it (tabs expanded, the
    common indentation of the lines after the first removed, blank edges
    dropped), without building that text.
    """
    doc = doc.expandtabs()
    if "\n" not in doc:
        doc = doc.strip()
        if doc[:1] != ":":
            return doc or None, {}              # one line: a summary, nothing to parse
    lines = doc.split("\n")
    indents = [len(line) - len(text) for line in lines[1:] if (text := line.lstrip())]
    if len(indents) + (lines[0].strip() != "") == 1:        # one line once cleaned
        doc = doc.strip()
        if doc[:1] != ":":
            return doc, {}
    margin = min(indents, default=0)
    rest_re = _pattern(_REST_PARAM_RE) if ":param" in doc else None
    google_re = None                  # compiled only for a line the usual shape misses
    summary, params, section, current = [], {}, None, None
    first = True
    for line in lines:
        if first:
            line, first = line.strip(), False
        else:
            line = line[margin:].rstrip()
        if line[-1:] == ":" and line[:-1].strip() in _SECTIONS:
            section = line[:-1].strip().lower()
            current = None
            continue
        if rest_re is not None:
            m = rest_re.match(line)
            if m:
                current = m.group(1)
                params[current] = m.group(2).strip()
                section = "rest"
                continue
            if section == "rest" and line.lstrip()[:1] == ":":
                current = None
                continue
        if section is None:
            summary.append(line)
        elif section in _ARGS_SECTIONS:
            text = line.lstrip()
            name, colon, rest = text.partition(":")
            if not colon:                     # no colon: text that goes on
                name = None
            elif not (name.isidentifier() and name.isascii()):   # not "name: text"
                google_re = google_re or _pattern(_GOOGLE_PARAM_RE)
                m = google_re.match(line)
                name, rest = (m.group(1), m.group(2)) if m else (None, None)
            if name is not None and len(line) - len(text) <= 4:
                current = name
                params[current] = rest.strip()
            elif current and line:
                params[current] = (params[current] + " " + line.strip()).strip()
        elif section == "rest" and current and line:
            params[current] += " " + line.strip()
    return "\n".join(summary).strip() or None, params


###############################################################################
# Appendix: the YAML subset of front matter ###################################
###############################################################################
#
# read_front_matter() reads the subset of YAML that SKILL.md front matter uses
# (YAML 1.2 core types, block and flow collections, quoted and block scalars);
# what lies outside the subset is an error naming the file and line, never a
# guess.

class FrontMatterError(ValueError):
    """Front matter outside the supported YAML subset, or not what a skill needs."""


_YAML_NULL = frozenset(("", "~", "null", "Null", "NULL"))
_YAML_BOOL = {"true": True, "True": True, "TRUE": True,
              "false": False, "False": False, "FALSE": False}
_YAML_INT_RE = r"[-+]?[0-9]+\Z"
_YAML_FLOAT_RE = r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?\Z"
_YAML_SPECIAL_RE = r"[-+]?\.(?:inf|Inf|INF)\Z|\.(?:nan|NaN|NAN)\Z"
_YAML_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n",
                 "v": "\v", "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/",
                 "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}
_YAML_HEX = {"x": 2, "u": 4, "U": 8}
# What a plain scalar may not start with: YAML indicators this reader refuses.
_YAML_REFUSED = {"&": "anchors", "*": "aliases", "!": "tags", "%": "directives",
                 "?": "complex keys", "@": "reserved indicators", "`": "reserved indicators"}


def _yaml_scalar(text, fail):
    """A plain scalar's value under the YAML 1.2 core schema."""
    if text in _YAML_NULL:
        return None
    if text in _YAML_BOOL:
        return _YAML_BOOL[text]
    if text[:1].isalpha():
        return text                   # no number starts with a letter: the usual value
    if _pattern(_YAML_INT_RE).match(text):
        return int(text)
    if text[:2] in ("0o", "0x") and len(text) > 2:
        try:
            return int(text[2:], 8 if text[1] == "o" else 16)
        except ValueError:
            return text
    if _pattern(_YAML_FLOAT_RE).match(text) and any(c.isdigit() for c in text):
        return float(text)
    if _pattern(_YAML_SPECIAL_RE).match(text):
        fail("%s is a number JSON cannot carry" % text)
    return text


def _yaml_key(text, fail):
    """A plain key as the npm yaml package makes it a string (null is "", 1.0 is "1")."""
    value = _yaml_scalar(text, fail)
    if value is None:
        return ""
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value if isinstance(value, str) else repr(value)


# Front matter nests a few levels; deeper is refused, well before the reader's
# recursion could reach Python's stack limit (and it stays within what a message
# may nest).
_MAX_FRONT_MATTER_DEPTH = 32


class _FrontMatter:
    """A strict reader of the YAML subset front matter uses: one method per construct."""

    def __init__(self, text, source, first_line):
        self.lines = [line.rstrip("\r") for line in text.split("\n")]
        if self.lines[-1] == "":
            self.lines.pop()            # the break that ends the last line starts no line
        if "..." in self.lines:         # a document end marker: nothing but comments after it
            end = self.lines.index("...")
            if any(self.content_of(line) for line in self.lines[end + 1:]):
                self.i = end
                self.fail("a second document is outside the supported YAML subset")
            self.lines = self.lines[:end]
        self.source, self.first_line = source, first_line
        self.i = self.depth = 0

    def fail(self, message, line=None):
        raise FrontMatterError("%s:%d: %s" % (self.source, self.first_line + (
            self.i if line is None else line), message))

    @staticmethod
    def indent(line):
        return len(line) - len(line.lstrip(" "))

    def content(self, k):
        """Line k without its comment and trailing blanks ("" for a blank or comment line)."""
        line = self.lines[k]
        if line.lstrip(" ")[:1] == "\t":
            self.fail("a tab in indentation", k)
        return self.content_of(line)

    @staticmethod
    def content_of(line):
        if "#" not in line:
            return line.rstrip(" \t")           # no comment: the usual line
        quote, prev = None, " "
        for j, c in enumerate(line):
            if quote:
                if c == quote:
                    quote = None
            elif c in "\"'" and prev in " [{,:-":
                quote = c
            elif c == "#" and prev in " \t":
                return line[:j].rstrip(" \t")
            prev = c
        return line.rstrip(" \t")

    def skip(self):
        """Move to the next line with content; return its indentation, or -1 at the end."""
        while self.i < len(self.lines) and not self.content(self.i):
            self.i += 1
        return self.indent(self.lines[self.i]) if self.i < len(self.lines) else -1

    def document(self):
        n = self.skip()
        if n < 0:
            return {}
        value = self.block(n, -1, self.content(self.i)[n:])
        if self.skip() >= 0:
            self.fail("unexpected content (check the indentation)")
        if not isinstance(value, dict):
            self.fail("the front matter must be a mapping of keys to values", 0)
        return value

    def block(self, n, parent, text):
        """The node starting at column n of the current line (text: the line from there on)."""
        self.refuse(text)
        if self.depth >= _MAX_FRONT_MATTER_DEPTH:
            self.fail("nesting deeper than %d levels is outside the supported YAML subset"
                      % _MAX_FRONT_MATTER_DEPTH)
        self.depth += 1
        try:
            if text == "-" or text.startswith("- "):
                return self.sequence(n, text)
            if self.key(text) is not None:
                return self.mapping(n, text)
            return self.scalar(parent, text)
        finally:
            self.depth -= 1

    def refuse(self, text):
        if text[:1] in _YAML_REFUSED:
            self.fail("%s are outside the supported YAML subset" % _YAML_REFUSED[text[0]])
        if text.rstrip(" \t") in ("---", "...") or text.startswith("--- "):
            self.fail("a second document is outside the supported YAML subset")

    def key(self, text):
        """(key, the text after its colon) when text starts a mapping entry, else None."""
        if text[:1] in ('"', "'"):
            end = self.quoted_end(text)
            if end is not None and text[end:end + 1] == ":" and \
                    text[end + 1:end + 2] in ("", " ", "\t"):
                return self.unquote(text[:end], self.i), text[end + 1:].strip(" \t")
            return None
        if text[:1] in ("[", "{"):
            return None
        j = text.find(":")
        while j >= 0:
            if text[j + 1:j + 2] in ("", " ", "\t"):
                if not text[:j].strip(" \t"):
                    self.fail("an empty key")
                return _yaml_key(text[:j].rstrip(" \t"), self.fail), text[j + 1:].strip(" \t")
            j = text.find(":", j + 1)
        return None

    @staticmethod
    def quoted_end(text):
        """The index just past the closing quote of the quoted scalar text starts with, or None."""
        q, j = text[0], 1
        while j < len(text):
            c = text[j]
            if q == '"' and c == "\\":
                j += 2
            elif c == q and q == "'" and text[j + 1:j + 2] == "'":
                j += 2
            elif c == q:
                return j + 1
            else:
                j += 1
        return None

    def mapping(self, n, text):
        out = {}
        while True:
            self.refuse(text)
            found = self.key(text)
            if found is None:
                self.fail("expected a 'key: value' entry")
            key, rest = found
            if key in out:
                self.fail("the key %s appears twice" % _short(key, 40))
            self.i += 1
            out[key] = self.value(n, rest)
            text = self.next_at(n)
            if text is None:
                return out
            if text == "-" or text.startswith("- "):
                self.fail("a sequence entry where a key was expected")

    def sequence(self, n, text):
        out = []
        while True:
            item = text[1:]
            if item.strip(" \t"):
                col = n + 1 + len(item) - len(item.lstrip(" "))
                out.append(self.block(col, n, item.lstrip(" ")))
            else:
                self.i += 1
                m = self.skip()
                out.append(self.block(m, n, self.content(self.i)[m:]) if m > n else None)
            text = self.next_at(n)
            if text is None or not (text == "-" or text.startswith("- ")):
                return out

    def next_at(self, n):
        """The next content line from column n, or None where the block at column n ended."""
        m = self.skip()
        if m < n:
            return None
        if m > n:
            self.fail("unexpected indentation")
        return self.content(self.i)[n:]

    def value(self, n, rest):
        """The value of a mapping entry at column n whose line went on with rest."""
        if rest[:1] in ("|", ">"):
            return self.block_scalar(n, rest)
        if rest == "-" or rest.startswith("- "):
            self.fail("a sequence entry on its key's line (put it on the next line)")
        if rest:
            self.i -= 1                     # the value starts on the key's line
            return self.scalar(n, rest)
        m = self.skip()
        if m > n:
            return self.block(m, n, self.content(self.i)[m:])
        if m == n:
            text = self.content(self.i)[n:]
            if text == "-" or text.startswith("- "):
                return self.sequence(n, text)       # a sequence under its key, not indented
        return None

    def scalar(self, parent, text):
        """A scalar starting on the current line with text: flow, quoted or plain."""
        self.refuse(text)
        if text[:1] in ("[", "{"):
            return self.flow(text)
        if text[:1] in ('"', "'"):
            return self.quoted(text)
        return self.plain(parent, text)

    def plain(self, parent, text):
        """A plain scalar, folded over the more-indented lines that continue it."""
        line = self.i
        if self.key(text) is not None or text.endswith(":"):
            self.fail("a ': ' inside a plain value (quote the value)")
        parts = [text]
        self.i += 1
        while self.i < len(self.lines):
            raw = self.lines[self.i]
            if not raw.strip(" \t"):
                parts.append("")
                self.i += 1
                continue
            if self.indent(raw) <= parent or raw.lstrip(" \t").startswith("#"):
                break
            more = self.content(self.i).strip(" \t")
            if self.key(more) is not None:
                self.fail("a 'key: value' inside a plain scalar (indentation?)")
            parts.append(more)
            self.i += 1
        while parts[-1] == "":
            parts.pop()
            self.i -= 1
        return _yaml_scalar(self.fold(parts), lambda m: self.fail(m, line))

    @staticmethod
    def fold(parts, escaped_breaks=False):
        """Join a flow scalar's lines: a break is a space, each blank line a newline."""
        out, blank = parts[0], 0
        for p in parts[1:]:
            if p == "":
                blank += 1
                continue
            if blank:
                out += "\n" * blank
            elif escaped_breaks and (len(out) - len(out.rstrip("\\"))) % 2:
                out = out[:-1]              # an escaped line break joins without a space
            else:
                out += " "
            out += p
            blank = 0
        return out + "\n" * blank

    def quoted(self, text):
        """A quoted scalar, maybe over several lines; only a comment may follow it."""
        line = self.i
        while self.quoted_end(text) is None:
            self.i += 1
            if self.i >= len(self.lines):
                self.fail("a quoted scalar is not closed", line)
            text += "\n" + self.lines[self.i]
        end = self.quoted_end(text)
        tail = text[end:].strip(" \t")
        if tail and not tail.startswith("#"):
            self.fail("unexpected text after a quoted scalar")
        self.i += 1
        return self.unquote(text[:end], line)

    def unquote(self, token, line):
        q, lines = token[0], token[1:-1].split("\n")
        if len(lines) > 1:
            lines = [lines[0].rstrip(" \t")] + [p.strip(" \t") for p in lines[1:-1]] + [
                lines[-1].lstrip(" \t")]
        if q == "'":
            return self.fold(lines).replace("''", "'")
        text, out, j = self.fold(lines, escaped_breaks=True), [], 0
        while j < len(text):
            c = text[j]
            if c != "\\":
                out.append(c)
                j += 1
                continue
            e = text[j + 1:j + 2]
            if e in _YAML_ESCAPES:
                out.append(_YAML_ESCAPES[e])
                j += 2
            elif e in _YAML_HEX:
                digits = text[j + 2:j + 2 + _YAML_HEX[e]]
                if len(digits) != _YAML_HEX[e] or not all(d in "0123456789abcdefABCDEF"
                                                          for d in digits):
                    self.fail("a bad escape \\%s%s" % (e, digits), line)
                out.append(chr(int(digits, 16)))
                j += 2 + _YAML_HEX[e]
            else:
                self.fail("an unknown escape \\%s" % e, line)
        return "".join(out)

    def block_scalar(self, n, header):
        """A literal (|) or folded (>) block scalar, with its chomping and indentation indicators."""
        line = self.i - 1
        style, chomp, explicit = header[0], "clip", None
        for c in header[1:].split(" #")[0].strip(" \t"):
            if c in "+-" and chomp == "clip":
                chomp = "keep" if c == "+" else "strip"
            elif c in "123456789" and explicit is None:
                explicit = int(c)
            else:
                self.fail("a bad block scalar header %r" % header, line)
        indent = n + explicit if explicit else None
        lines = []
        while self.i < len(self.lines):
            raw = self.lines[self.i]
            if not raw.strip(" \t"):
                lines.append(raw[indent:] if indent is not None and len(raw) > indent else "")
                self.i += 1
                continue
            if indent is None:
                if self.indent(raw) <= n:
                    break
                indent = self.indent(raw)
            if self.indent(raw) < indent:
                break
            lines.append(raw[indent:])
            self.i += 1
        trailing = 0
        while lines and not lines[-1].strip(" \t"):
            lines.pop()
            trailing += 1
        chunks, k = [], 0
        while k < len(lines) and not lines[k].strip(" \t"):
            chunks.append("\n")
            k += 1
        while k < len(lines):
            text = lines[k]
            chunks.append(text)
            k += 1
            breaks = 0
            while k < len(lines) and not lines[k].strip(" \t"):
                breaks += 1
                k += 1
            if k < len(lines):
                if style == ">" and text[:1] not in (" ", "\t") and lines[k][:1] not in (" ", "\t"):
                    if not breaks:
                        chunks.append(" ")
                else:
                    chunks.append("\n")
                chunks.append("\n" * breaks)
        if lines and chomp != "strip":
            chunks.append("\n")
        if chomp == "keep":
            chunks.append("\n" * trailing)
        return "".join(chunks)

    def flow(self, text):
        """A flow sequence or mapping of scalars, maybe over several lines."""
        line = self.i
        while True:
            depth, quote = 0, None
            for c in text:
                if quote:
                    quote = None if c == quote else quote
                elif c in "\"'":
                    quote = c
                elif c in "[{":
                    depth += 1
                elif c in "]}":
                    depth -= 1
            self.i += 1
            if depth <= 0:
                break
            if self.i >= len(self.lines):
                self.fail("a flow collection is not closed", line)
            text += " " + self.content(self.i).strip(" \t")
        value, end = self.flow_collection(text, 0, line)
        if text[end:].strip(" \t"):
            self.fail("unexpected text after a flow collection", line)
        return value

    def flow_collection(self, text, j, line):
        closer = "]" if text[j] == "[" else "}"
        out = [] if closer == "]" else {}
        j += 1
        while True:
            j = self.spaces(text, j)
            if j >= len(text):
                self.fail("a flow collection is not closed", line)
            if text[j] == closer:
                return out, j + 1
            if text[j] in "[{":
                self.fail("nested flow collections are outside the supported YAML subset", line)
            item, j = self.flow_scalar(text, j, line, closer)
            if closer == "}":
                j = self.spaces(text, j)
                if text[j:j + 1] != ":":
                    self.fail("expected ':' in a flow mapping", line)
                value, j = self.flow_scalar(text, self.spaces(text, j + 1), line, closer)
                key = item if isinstance(item, str) else _encoder.encode(item)
                if key in out:
                    self.fail("the key %s appears twice" % _short(key, 40), line)
                out[key] = value
            else:
                out.append(item)
            j = self.spaces(text, j)
            if text[j:j + 1] == ",":
                j += 1
            elif text[j:j + 1] != closer:
                self.fail("expected ',' or '%s' in a flow collection" % closer, line)

    @staticmethod
    def spaces(text, j):
        while j < len(text) and text[j] == " ":
            j += 1
        return j

    def flow_scalar(self, text, j, line, closer):
        if text[j:j + 1] in ("[", "{"):
            self.fail("nested flow collections are outside the supported YAML subset", line)
        if text[j:j + 1] in ("\"", "'"):
            end = self.quoted_end(text[j:])
            if end is None:
                self.fail("a quoted scalar is not closed", line)
            return self.unquote(text[j:j + end], line), j + end
        k = j
        while k < len(text) and text[k] not in ",]}" and not (
                closer == "}" and text[k] == ":" and text[k + 1:k + 2] in (" ", ",", "}", "")):
            k += 1
        token = text[j:k].strip(" \t")
        self.refuse(token)
        return _yaml_scalar(token, lambda m: self.fail(m, line)), k


def read_front_matter(text, source="SKILL.md"):
    """The YAML front matter of a SKILL.md (between its --- lines) as a dict.

    Raises FrontMatterError naming source and the line: for what lies outside
    the supported YAML subset, and for a file without front matter.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    first = text.find("\n")
    if first < 0:
        first = len(text)             # one line: no closing line can follow
    if text[:first].rstrip("\r").rstrip(" \t") != "---":
        raise FrontMatterError("%s:1: a SKILL.md starts with a '---' line, then YAML front "
                               "matter" % source)
    at = first                          # only the front matter is split: not the body
    while True:
        at = text.find("\n---", at)
        if at < 0:
            raise FrontMatterError("%s: the front matter has no closing '---' line" % source)
        end = text.find("\n", at + 1)
        if text[at + 1:None if end < 0 else end].rstrip("\r").rstrip(" \t") == "---":
            break
        at += 1
    lines = text[first + 1:at].split("\n") if at > first else []
    front = _simple_front_matter(lines) if lines else None
    if front is None:
        front = _FrontMatter("\n".join(lines), source, 2).document()
    return front


def _simple_front_matter(lines):
    """The front matter when every line is "key: text" of plain words, else None.

    Most SKILL.md files are only that; this reads them without the full reader
    (the same values: such a value is a string, or null or a boolean word).
    Anything else (blank lines, comments, quotes, colons, nesting, a repeated
    key) is left to the full reader, which also reports the errors.
    """
    out = {}
    for line in lines:
        key, colon, value = line.rstrip("\r").partition(": ")
        value = value.rstrip(" ")
        if not (colon and key.isascii() and key[:1].isalpha() and
                key.replace("-", "_").isidentifier() and key not in out and
                key not in _YAML_NULL and key not in _YAML_BOOL and
                value[:1].isascii() and value[:1].isalpha() and value.isprintable() and
                ":" not in value and "#" not in value and "[" not in value and
                "]" not in value and "{" not in value and "}" not in value):
            return None
        out[key] = None if value in _YAML_NULL else _YAML_BOOL.get(value, value)
    return out


###############################################################################
# Commands: what python mcp_stdio.py COMMAND runs #############################
###############################################################################
#
# The library ends above: serving, the client and mounting need nothing below this
# banner, and the file cut here imports and passes the library's tests. Below are
# the commands, each a section of its own: the proxy, the terminal the client
# commands ask and show on, the client commands, the preview, host setup, the demo
# and the command line that dispatches them.


class _Usage(Exception):
    """A command's words ask for its help (no message) or are wrong (the message): the
    command line prints the commands' usage after the message, and exits 0 or 2."""


def _prog():
    """How this file was started, for usage lines: the mcp-stdio command, -m or a path."""
    name = os.path.basename(sys.argv[0] or "")
    if name.startswith("mcp-stdio"):
        return "mcp-stdio"
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name == "mcp_stdio":     # python -m mcp_stdio
        return "python -m mcp_stdio"
    return "python mcp_stdio.py"


def _seconds_argument(text):
    """A time limit given on the command line, as a float; ValueError when it is not one."""
    value = float(text)
    return value if _is_seconds(value) else _refuse(value)


def _demo_command():
    """The arguments that start this demo: -m when installed, else this file by its path.

    An installed module is importable by its interpreter, and -m starts from its
    cached bytecode; a file given by path is compiled again on every start.
    """
    here = os.path.dirname(os.path.abspath(__file__))
    if os.path.basename(here) in ("site-packages", "dist-packages"):
        return ["-m", "mcp_stdio"]
    return [os.path.abspath(__file__)]


def _refuse(value):
    raise ValueError(value)


###############################################################################
# Proxy: a host's configuration file served as one server #####################
###############################################################################
#
# The proxy command serves the servers of a host's mcpServers file as one server: each
# entry mounted under its key, read as hosts read the file.

# The proxy's own option, beside the server options: how long each server may take to
# start and list before the first list answers without it (it is added when it lists).
_PROXY_START_TIMEOUT = 10.0
_PROXY_HELP = ["  --start-timeout SECONDS",
                  " " * 22 + "time each server may take to start and list (default %g)"
                  % _PROXY_START_TIMEOUT,
                  "  --instructions TEXT",
                  " " * 22 + "the proxy's own instructions, before each server's (default: "
                  "the file's \"mcp-stdio\": {\"instructions\": ...})"]


# An entry's key for our own mount options (include, exclude, rename): hosts ignore keys
# they do not know, so one file serves a host and the proxy alike.
_PROXY_KEY = "mcp-stdio"
_PROXY_ENTRY_OPTIONS = ("include", "exclude", "rename", "pinned", "prefix", "search_hints")
# Entry types a host starts over HTTP: the proxy mounts stdio servers only.
_REMOTE_TYPES = ("http", "sse", "streamable-http", "streamableHttp")


# A comment, a string (kept whole: a "//" inside one is no comment), or a comma that
# only whitespace and comments separate from the "}" or "]" that closes its object.
_JSONC_TOKEN = (r'"(?:[^"\\]|\\.)*"|//[^\n]*|/\*[\s\S]*?\*/|'
                r',(?=(?:\s|//[^\n]*|/\*[\s\S]*?\*/)*[}\]])')


def _jsonc_plain(text):
    """(text as plain JSON, its first comment's offset or None, its first trailing comma's
    offset or None): each comment and trailing comma blanked, so that every offset, line
    and column of the plain text is the original's (JSON with comments: VS Code's files)."""
    found = {}

    def blank(m):
        token = m.group()
        if token[0] == '"':
            return token
        found.setdefault("comma" if token == "," else "comment", m.start())
        return re.sub(r"[^\n]", " ", token)
    plain = _pattern(_JSONC_TOKEN).sub(blank, text)
    return plain, found.get("comment"), found.get("comma")


def _where(text, offset):
    """'line L column C' of offset in text, as a reader of the file counts them."""
    line = text.count("\n", 0, offset) + 1
    return "line %d column %d" % (line, offset - text.rfind("\n", 0, offset))


# How deep a host's file may nest: theirs nest a few levels, and Python's reader recurses
# once a level, to a limit that differs between versions (1,000 levels fail on 3.11 only).
_FILE_DEPTH = 100


def _json_file(path, comments=True, commas=True, reader="strict JSON"):
    """(the value of the JSON file at path, its text, its plain text): comments and trailing
    commas are read where allowed, else refused as what reader does not allow. Raises
    ValueError, one line naming the file."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ValueError("cannot read %s: %s" % (path, e.strerror or e))
    try:
        text = raw.decode("utf-8-sig")      # a byte order mark (PowerShell writes one) is read
    except UnicodeDecodeError as e:
        raise ValueError("%s is not UTF-8 text (byte 0x%02x at offset %d)" % (
            path, raw[e.start], e.start))
    plain, comment, comma = _jsonc_plain(text)
    refused = [x for x in (None if comments else comment, None if commas else comma)
               if x is not None]
    too_deep = ValueError("%s nests arrays or objects more than %d deep" % (path, _FILE_DEPTH))
    if plain.count("[") + plain.count("{") > _FILE_DEPTH and \
            _nesting(plain.encode("utf-8", "surrogatepass")) > _FILE_DEPTH:
        raise too_deep
    try:
        value = json.loads(plain)
    except RecursionError:         # within the depth, on a thread of a small stack
        raise too_deep from None
    except ValueError as e:
        pos = getattr(e, "pos", None)
        if not refused or (pos is not None and pos < min(refused)):   # the first fault
            raise ValueError("%s is not JSON%s: %s" % (
                path, "" if pos is None else " (%s)" % _where(text, pos),
                getattr(e, "msg", None) or _short_text(e))) from None
    if refused:
        at = min(refused)
        raise ValueError("%s, %s: %s, which %s does not allow" % (
            path, _where(text, at), "a comment" if at == comment else "a trailing comma",
            reader))
    return value, text, plain


def _proxy_server(config_path, start_timeout=_PROXY_START_TIMEOUT, report=None,
                  instructions=None):
    """A Server that mounts every server of a host's configuration file under its key.

    The file has the mcpServers shape (Claude Desktop, Cursor, Cline): each entry a
    command, args, env and cwd, read as written (no variable expansion); a
    relative cwd or command resolves against the file's folder; keys a host adds
    of its own are ignored. An entry it cannot serve (disabled, remote, no
    command, malformed) is left out and said to report(line); the rest serve.
    Its instructions are instructions, else the file's own ({"mcp-stdio":
    {"instructions": "..."}} at its top), then each server's (composed_instructions).
    Raises CatalogError when the file cannot be read or serves nothing.
    """
    report = report or _report
    try:
        config = _json_file(config_path, comments=True)[0]
    except ValueError as e:
        raise CatalogError("proxy: %s" % e)
    entries = config.get("mcpServers") if isinstance(config, dict) else None
    if not isinstance(entries, dict) or not entries:
        raise CatalogError("proxy: %s has no \"mcpServers\" object of servers" % config_path)
    here = os.path.dirname(os.path.abspath(config_path))
    own = config.get(_PROXY_KEY, {})
    if not isinstance(own, dict) or set(own) - {"instructions"} or \
            not isinstance(own.get("instructions", ""), str):
        raise CatalogError('proxy: %s: its top-level "%s" must be {"instructions": "..."}'
                           % (config_path, _PROXY_KEY))
    server = Server("mcp-stdio-proxy", __version__, description="The servers of %s, as one"
                    % os.path.basename(config_path),
                    instructions=instructions or own.get("instructions") or None)
    served = 0
    for key, entry in entries.items():
        try:
            command, env, cwd, options = _proxy_entry(entry, here)
            server.mount(key, command, env=env, cwd=cwd, start_timeout=start_timeout,
                         **options)
        except CatalogError as e:
            why = str(e)
            report("proxy: server %r is left out: %s" % (key, why.split(": ", 1)[1] if
                                                         why.startswith("mount ") else why))
            continue
        served += 1
    if not served:
        raise CatalogError("proxy: %s has no server the proxy can serve (each was left out, "
                           "said above)" % config_path)
    return server


def _proxy_entry(entry, here):
    """(command, env, cwd, mount options) of one entry of a proxy file; raises CatalogError
    saying why the proxy cannot serve it."""
    if not isinstance(entry, dict):
        raise CatalogError("not an object")
    if entry.get("disabled") is True:
        raise CatalogError("it is disabled (\"disabled\": true)")
    if any(k in entry for k in ("url", "serverUrl", "httpUrl")) or \
            entry.get("type") in _REMOTE_TYPES:
        raise CatalogError("a remote (HTTP) server: the proxy mounts stdio servers only")
    command, args = entry.get("command"), entry.get("args", [])
    env, cwd = entry.get("env"), entry.get("cwd")
    if not isinstance(command, str) or not command:
        raise CatalogError("it has no \"command\"")
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise CatalogError("\"args\" must be a list of strings")
    if env is not None and not (isinstance(env, dict) and
                                all(isinstance(v, str) for v in env.values())):
        raise CatalogError("\"env\" must map names to strings")
    if cwd is not None and not isinstance(cwd, str):
        raise CatalogError("\"cwd\" must be a string")
    options = _proxy_options(entry.get(_PROXY_KEY, {}))
    cwd = os.path.join(here, cwd) if cwd else here
    if os.sep in command or (os.altsep and os.altsep in command):
        command = os.path.join(here, command)         # relative: the file's folder
    return [command] + args, dict(os.environ, **env) if env else None, cwd, options


def _proxy_options(options):
    """The mount options of an entry's "mcp-stdio" block, checked: raises CatalogError
    naming the first key at fault, what it must be and the closest known key."""
    keys = ", ".join(_PROXY_ENTRY_OPTIONS)
    if not isinstance(options, dict):
        raise CatalogError('"%s" must be an object with the keys %s, not %s' % (
            _PROXY_KEY, keys, _short(options)))
    for key, value in options.items():
        if key not in _PROXY_ENTRY_OPTIONS:
            import difflib
            near = difflib.get_close_matches(key, _PROXY_ENTRY_OPTIONS, 1, 0.5)
            raise CatalogError('"%s" has no key %s%s; its keys are %s' % (
                _PROXY_KEY, _short(key), " (did you mean %r?)" % near[0] if near else "",
                keys))
        if key == "rename":
            fits = isinstance(value, dict) and all(type(v) is str for v in value.values())
            must = "an object of the server's names and ours (strings)"
        elif key == "search_hints":
            fits = isinstance(value, dict) and all(type(v) is str and v.strip()
                                                   for v in value.values())
            must = "an object of the server's tool names and phrases (strings)"
        elif key == "prefix":
            fits = type(value) is str
            must = "a string (\"\" for none)"
        else:
            fits = type(value) is list and all(type(p) is str and p for p in value)
            must = "a list of names or shell-style patterns (strings)"
        if not fits:
            raise CatalogError('"%s": "%s" must be %s, not %s' % (
                _PROXY_KEY, key, must, _short(value)))
    return options


def _file_first(args, valued):
    """args with its first word that is no option nor an option's value moved to the front:
    options come before or after the file, as a user types them (valued: the flags that
    take a value as the next word)."""
    i = 0
    while i < len(args):
        a = args[i]
        if not a.startswith("-") or a == "-":
            return [a] + args[:i] + args[i + 1:]
        i += 2 if a in valued else 1
    return list(args)


def _proxy_main(args):
    """The proxy command: serve the servers of CONFIG.json as one."""
    args = _file_first(args, {"--start-timeout", "--instructions"} | {
        o.flag for o in _OPTIONS if o.flag and o.kind != "flag"})
    if not args or args[0].startswith("-"):
        if any(a in ("-h", "--help") for a in args):
            sys.stdout.write("usage: proxy CONFIG.json [server options] (the options may come "
                             "before the file; CONFIG.json --help lists them)\n")
            return 0
        sys.stderr.write("error: usage: proxy CONFIG.json [server options]\n")
        return 2
    rest, start_timeout, refused, instructions = [], _PROXY_START_TIMEOUT, None, None
    words = iter(args[1:])
    for a in words:
        flag, eq, value = a.partition("=")
        if flag not in ("--start-timeout", "--instructions"):
            rest.append(a)
            continue
        value = value if eq else next(words, None)
        if flag == "--instructions" and value is not None:
            instructions = value
            continue
        try:
            start_timeout = _seconds_argument(value)
        except (TypeError, ValueError):
            refused = "%s needs a value" % flag if value is None else \
                "bad value for %s: %r" % (flag, value)
            start_timeout = _PROXY_START_TIMEOUT
            break
    try:
        server = _proxy_server(args[0], start_timeout, instructions=instructions)
    except CatalogError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    prog = _prog() + " proxy " + args[0]
    if refused:
        return _usage_error(refused, server._help(prog, own_options=_PROXY_HELP))
    return server._command_line(rest, prog, own_options=_PROXY_HELP)


###############################################################################
# Client commands on a terminal: questions asked, results shown ###############
###############################################################################
#
# What a client command asks a person (a server's form, on the terminal) and how it shows
# a server's answers: results, progress, log messages, the inspection of a catalog.

def _ask_on_terminal(params):
    """Answer a server's elicitation on the terminal (used only where stdin is one)."""
    message = params.get("message") if isinstance(params.get("message"), str) else ""
    err = sys.stderr
    err.write("\nThe server asks: %s\n" % message)
    if params.get("mode") == "url":
        err.write("Open this URL: %s\n" % params.get("url"))
        try:
            opened = _read_answer("Will you open it? [y/N] ", {"y": ("y", "yes"),
                                                               "n": ("n", "no")}, "n")
        except _EndOfInput:
            return {"action": "cancel"}
        return {"action": "accept" if opened == "y" else "decline"}
    schema = params.get("requestedSchema")
    problems = _form_problems(schema)
    if problems:
        raise ClientError("the server's form cannot be filled in: %s" % "; ".join(problems[:3]))
    try:                                  # a closed terminal or ended input: cancel
        choice = _read_answer("Answer? [Y]es, [n]o (decline), [c]ancel: ", {
            "y": ("y", "yes"), "n": ("n", "no"), "c": ("c", "cancel")}, "y")
        if choice != "y":
            return {"action": "decline" if choice == "n" else "cancel"}
        required = schema.get("required") or []
        content = {}
        for name, prop in (schema.get("properties") or {}).items():
            value = _read_field(name, prop, name in required)
            if value is not None:
                content[name] = value
    except _EndOfInput:
        return {"action": "cancel"}
    return {"action": "accept", "content": content}


def _form_problems(schema):
    """What keeps a server's requestedSchema from being asked field by field ([] if nothing):
    it must be a flat object schema, each field an object with a type, and a valid schema."""
    text, listed = {"type": "string"}, {"type": "array"}
    shape = {"type": "object", "required": ["properties"], "properties": {
        "properties": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["type"], "properties": {
                "type": text, "title": {"type": ["string", "null"]}, "enum": listed,
                "oneOf": {"type": "array", "items": {"type": "object"}}}}},
        "required": {"type": "array", "items": text}}}
    problems = validate(shape, schema)
    if not problems:
        try:
            compile_schema(schema)
        except SchemaError as e:
            problems = [str(e)]
    return problems


class _EndOfInput(ClientError):
    """The terminal closed (or its input ended) before the question was answered."""


def _ask_user(text):
    """Show text on stderr (stdout carries the results) and return the line typed, without LF."""
    sys.stderr.write(text)
    sys.stderr.flush()
    try:
        line = sys.stdin.readline()
    except (OSError, ValueError):            # a terminal that went away
        line = ""
    if not line:
        raise _EndOfInput("stdin ended before the question was answered")
    return line.rstrip("\r\n")


# The words that answer a yes/no question (any case); any other asks again ("yellow" is
# not "yes", "fixed in 2.3" not "no").
_YES_NO = {"y": True, "yes": True, "true": True, "n": False, "no": False, "false": False}


def _read_answer(prompt, words, default):
    """The choice typed at prompt: a key of words, whose values are the words it takes."""
    while True:
        typed = _ask_user(prompt).strip().lower()
        if not typed:
            return default
        for choice, said in words.items():
            if typed in said:
                return choice


def _read_field(name, prop, required):
    """One form field read from the terminal and converted to its type (None: left out)."""
    kind = prop.get("type")
    options = prop.get("enum") or [o.get("const") for o in prop.get("oneOf") or ()
                                    if isinstance(o, dict)]
    hint = "/".join(map(str, options)) if options else ("y/n" if kind == "boolean" else kind)
    default, about = prop.get("default"), prop.get("description")
    # Its title (or name), what it is for, then what it takes.
    label = "%s%s (%s%s)%s: " % (prop.get("title") or name, " - %s" % " ".join(
        about.split()) if isinstance(about, str) and about.strip() else "", hint,
        ", default %s" % json.dumps(default) if default is not None else "",
        "" if required else " [optional]")
    while True:
        text = _ask_user(label)
        if not text.strip():
            if default is not None or not required and kind != "boolean":
                return default
            continue                        # a yes/no question takes a yes or a no
        try:
            if kind == "boolean":
                value = _YES_NO.get(text.strip().lower())
                if value is None:
                    raise ValueError(text)
            elif kind == "integer":
                value = int(text)
            elif kind == "number":
                value = float(text)
            elif kind == "array":
                value = [w.strip() for w in text.split(",") if w.strip()]
            else:
                value = text
        except ValueError:
            sys.stderr.write("  not a %s; try again\n" % kind)
            continue
        problems = validate({"type": "object", "properties": {name: prop}}, {name: value})
        if not problems:
            return value
        sys.stderr.write("  %s; try again\n" % problems[0])


def _show_log(level, data, logger):
    """A log message of the server's on stderr, one line: its level, logger and text."""
    said = data if type(data) is str else json.dumps(data, ensure_ascii=False)
    sys.stderr.write("log %s%s: %s\n" % (level, " " + logger if type(logger) is str else "",
                                         " ".join(said.splitlines())))


def _show_progress(progress, total, message):
    sys.stderr.write("progress %s%s%s\n" % (progress, "/%s" % total if total is not None else "",
                                             ": %s" % message if message else ""))


def _show_stderr(client, settle=1.0):
    """Show the tail of the server's stderr once it stops growing (it trails stdout)."""
    import time
    end, seen = _monotonic() + settle, None
    while _monotonic() < end and client.stderr != seen:
        seen = client.stderr
        time.sleep(0.05)
    tail = client.stderr.strip()
    if tail:
        sys.stderr.write("the server's stderr:\n%s\n" % "\n".join(tail.splitlines()[-20:]))


def _print_result(client, result, as_json):
    """Print a tool, resource or prompt result readably; return the exit status."""
    if as_json:
        sys.stdout.write(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    else:
        w = sys.stdout.write
        for block in _blocks(result):
            w(block + "\n")
        structured = result.get("structuredContent")
        texts = [b.get("text") for b in result.get("content") or []
                 if isinstance(b, dict) and b.get("type") == "text"]
        if structured is not None and _says_more(structured, texts):
            w("structured content:\n%s\n" % json.dumps(structured, indent=2,
                                                         ensure_ascii=False))
    if result.get("isError"):
        _show_stderr(client)
        return 1
    return 0


def _says_more(structured, texts):
    """Return False when the text blocks already say what structured content does, by value.

    Servers write the same value as compact or pretty JSON, or wrap the text in
    a one-member object ({"content": text}, {"result": value}).
    """
    values = [structured]
    if isinstance(structured, dict) and len(structured) == 1:
        values.append(next(iter(structured.values())))
    joined = "\n".join(t for t in texts if isinstance(t, str))
    for text in texts + [joined]:
        if not isinstance(text, str):
            continue
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = _MISSING
        if any(v == text or v == parsed and type(v) is type(parsed) for v in values):
            return False
    return True


def _blocks(result):
    """Readable lines for each content block, resource content or prompt message."""
    out = []
    for block in result.get("content") or []:
        out.append(_block(block))
    for c in result.get("contents") or []:
        out.append(_block({"type": "resource", "resource": c}))
    for m in result.get("messages") or []:
        out.append("[%s] %s" % (m.get("role"), _block(m.get("content") or {})))
    if not out and "content" in result:
        out.append("(no content)")
    return out


def _block(b):
    kind = b.get("type")
    if kind == "text":
        return b.get("text", "")
    if kind in ("image", "audio"):
        return "[%s %s, %d bytes]" % (kind, b.get("mimeType"), _b64_size(b.get("data")))
    if kind == "resource_link":
        return "[link: %s <%s>]" % (b.get("name"), b.get("uri"))
    if kind == "resource":
        r = b.get("resource") or {}
        head = "[resource %s%s]" % (r.get("uri"), ", " + r["mimeType"] if r.get("mimeType") else "")
        if "text" in r:
            return head + "\n" + r["text"]
        return head[:-1] + ", %d bytes of blob]" % _b64_size(r.get("blob"))
    return "[%s content]" % kind


def _b64_size(data):
    data = data if isinstance(data, str) else ""
    return len(data) * 3 // 4 - len(data) + len(data.rstrip("="))



def _print_inspection(client, as_json):
    """Print what the server offers (as JSON, or as text); return the status."""
    report, status = _inspection(client)
    if as_json:
        sys.stdout.write(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    else:
        _print_report(client, report)
    return status


def _inspection(client):
    """(what the server offers, every list read, as inspect --json says it; the status)."""
    caps = client.server_capabilities
    report = {"era": client.era, "revision": client.revision, "server": client.server_info,
              "instructions": client.instructions, "capabilities": caps, "errors": {}}
    status = 0
    extensions = caps.get("extensions") or {}
    for kind in _KINDS:                      # every kind the server offers, as the table says
        key = kind.field
        if not (kind.extension in extensions if kind.extension else kind.capability in caps):
            report[key] = None               # not offered, unlike an empty list
            continue
        try:
            report[key] = client.list_all(kind.list_method, key)
        except ProtocolError as e:           # one failing list does not hide the rest
            report[key] = None
            report["errors"][key] = "%ss: error %s: %s" % (kind.noun, e.code, e.message)
        except MalformedResult as e:         # nor does one the server got wrong
            report[key] = None
            report["errors"][key] = str(e)
            status = 3
    # What each listing costs a model that reads it: its JSON bytes, and tokens estimated
    # as bytes / 4 (the usual rule of thumb for JSON).
    report["listing"] = {}
    for kind in _KINDS:
        entries = report[kind.field]
        if entries:
            size = len(encode_message({kind.field: entries})) - 1
            report["listing"][kind.field] = {"count": len(entries), "bytes": size,
                                             "tokens": size // 4}
    # What a host that searches tools itself shows its model first: the server's
    # instructions and the tools' names (their schemas load when its search finds them).
    names = [t.get("name") for t in report.get("tools") or []]
    size = len(encode_message({"instructions": client.instructions, "tools": names})) - 1
    report["first_seen"] = {"instructions": len(client.instructions or ""),
                            "names": len(names), "bytes": size, "tokens": size // 4}
    # What the extensions add to listed entries (a tool's task support), one shape for all:
    # {field: {the entry's uri or name: [mark, ...]}}, entries without marks left out.
    report["marks"] = {}
    for kind in _KINDS:
        for entry in report[kind.field] or []:
            said = [m for mark in _MARK_HOOKS for m in mark(kind.field, entry, report)]
            if said:
                report["marks"].setdefault(kind.field, {})[_entry_id(entry)] = said
                if any(m.startswith("problem: ") for m in said):
                    status = 3               # as for a result that breaks the schema
    # What it said meanwhile (a skill refused, ...), read to its end: its stderr comes
    # apart from its answers, and may still be on its way.
    client.close()
    report["stderr"] = client.stderr
    return report, status


def _print_report(client, report):
    """Print an inspection's report as text: the server, then a table of each kind."""
    info = client.server_info or {}
    w = sys.stdout.write
    w("server: %s %s%s\n" % (info.get("name", "?"), info.get("version", "?"),
                             " (%s)" % info["title"] if info.get("title") else ""))
    w("era: %s, protocol %s\n" % (client.era, client.revision))
    if client.instructions:
        w("instructions: %s\n" % client.instructions)

    def table(title, key, rows):
        if key in report["errors"]:
            w("\n%s: failed (%s)\n" % (title, report["errors"][key]))
        elif report[key] is None:
            w("\n%s: not offered\n" % title)
        else:
            w("\n%s (%d)\n" % (title, len(rows)))
            marks = report["marks"].get(key, {})
            for entry, row in zip(report[key], rows):
                said = " ".join("[%s]" % m for m in marks.get(_entry_id(entry), ()))
                w("  " + "  ".join(x for x in row[:-1] + (said,) if x) + "\n")
                if row[-1]:
                    w("      " + row[-1] + "\n")
    for kind in _KINDS:           # an extension's kind is shown only where it is served
        if kind.extension is None or report[kind.field] is not None or \
                kind.field in report["errors"]:
            table(kind.noun + "s", kind.field, [kind.shown(e) for e in report[kind.field] or []])
        if kind.cls is Tool and report[kind.field]:      # what a model reads of every turn
            size, first = report["listing"][kind.field], report["first_seen"]
            w("  the listing: %.1f KB, about %d tokens (an estimate: bytes / 4)\n" % (
                size["bytes"] / 1024.0, size["tokens"]))
            w("  what a host that searches tools shows first (the instructions and the "
              "names): %.1f KB, about %d tokens\n" % (first["bytes"] / 1024.0,
                                                      first["tokens"]))
    said = report["stderr"].splitlines()
    if said:
        w("\nthe server said on stderr (%d line%s)\n" % (len(said), "" if len(said) == 1
                                                         else "s"))
        for line in said[-_INSPECT_STDERR_LINES:]:
            w("  " + line + "\n")


# inspect shows the last lines a server wrote to stderr: enough for its start-up
# warnings (refused skills, a missing folder), not a log.
_INSPECT_STDERR_LINES = 20


def _entry_id(entry):
    """What names a listed entry: its uri, uri template, or name."""
    for key in ("uri", "uriTemplate", "name"):
        if isinstance(entry.get(key), str):
            return entry[key]
    return "?"


###############################################################################
# Client commands: inspect, call, read, get and skill #########################
###############################################################################
#
# Start a stdio server with the Client, do one thing with it, say what happened: the
# options every such command takes, and reading a tool's arguments from KEY=VALUE words.

# What the server commands wait for: each answer, and the first one (a server may
# take long to start; the wait is said on stderr after Client._WAITING_NOTE seconds).
_CLI_TIMEOUT = 30.0
_CLI_START_TIMEOUT = 30.0


# The log messages call, read and get ask for, unless told otherwise: what a tool
# says it is doing, without its debugging.
_CLI_LOG_LEVEL = "info"
_LOG_OPTION = ("--log-level", "LEVEL", "show the server's log messages of LEVEL and above "
               "(default %s; off: ask for none)" % _CLI_LOG_LEVEL, "log_level",
               lambda v: v if v in _LEVEL_RANK or v == "off" else _refuse(v))


# The options every server command takes: (flag, metavar, help, name, parse).
_CLIENT_OPTIONS = (
    ("--era", "auto|modern|legacy", "era to speak (default auto: probe, then fall back)",
     "era", lambda v: v if v in ("auto", "modern", "legacy") else _refuse(v)),
    ("--revision", "VERSION", "legacy revision to request (default %s)" % LATEST_LEGACY,
     "revision", str),
    ("--timeout", "SECONDS", "time to wait for each answer (default %g)" % _CLI_TIMEOUT,
     "timeout", _seconds_argument),
    ("--start-timeout", "SECONDS", "time to wait for the server's first answer (default %g)"
     % _CLI_START_TIMEOUT, "start_timeout", _seconds_argument),
    ("-e, --env", "KEY=VALUE", "set an environment variable for the server (repeatable)",
     "env", lambda v: v if "=" in v[1:] else _refuse(v)),
    ("--cwd", "DIR", "start the server in DIR", "cwd",
     lambda v: v if os.path.isdir(v) else _refuse(v)),
    ("--json", None, "print machine-readable JSON", "json", None),
)


def _inspect_command(client, words, opts):
    return _print_inspection(client, opts["json"])


def _call_command(client, words, opts):
    arguments = _call_arguments(client, words[0], words[1:])
    task = None
    if "tasks" in client.server_capabilities:       # 2025-11-25: ask for a task when needed
        tool = [t for t in client.list_tools() if t.get("name") == words[0]]
        support = (tool[0].get("execution") or {}).get("taskSupport") if tool else None
        task = support == "required" or opts.get("task") is True and support == "optional"
    result = client.call_tool(words[0], arguments, on_progress=_show_progress, task=task,
                              on_status=_show_status)
    return _print_result(client, result, opts["json"])


def _show_status(status, message):
    sys.stderr.write("task %s%s\n" % (status, ": %s" % message if message else ""))


def _read_command(client, words, opts):
    if opts.get("output") is not None:
        return _save_contents(client.read_resource(words[0]), opts["output"])
    return _print_result(client, client.read_resource(words[0]), opts["json"])


def _skill_command(client, words, opts):
    skill = client.get_skill(words[0])
    if opts["json"]:
        sys.stdout.write(json.dumps(skill, indent=2, ensure_ascii=False) + "\n")
        return 0
    w = sys.stdout.write
    w("skill: %s\n" % skill.get("uri"))
    for key, value in (skill.get("frontmatter") or {}).items():
        w("  %s: %s\n" % (key, value if isinstance(value, str) else json.dumps(
            value, ensure_ascii=False)))
    files = skill.get("resources")
    if isinstance(files, list):
        w("files (%d)\n" % len(files))
        for f in files:
            w("  %s  %s bytes  %s\n" % (f.get("uri"), f.get("size"), f.get("digest")))
    return _print_result(client, client.read_resource(skill["uri"]), False)


def _get_command(client, words, opts):
    result = client.get_prompt(words[0], _key_values(words[1:], None))
    return _print_result(client, result, opts["json"])


def _parse_client_options(own, opts):
    """The options of a server command (own: its own, beside the client options) as a
    dict, and its words; raises ValueError(word)."""
    table = {}
    for row in _CLIENT_OPTIONS + tuple(own):
        for flag in row[0].split(", "):
            table[flag] = row
    values = {"era": "auto", "revision": LATEST_LEGACY, "timeout": _CLI_TIMEOUT,
              "start_timeout": _CLI_START_TIMEOUT, "env": None, "cwd": None, "json": False}
    words = []
    while opts:
        a = opts.pop(0)
        row = table.get(a)
        if row is None:
            if a.startswith("-"):
                raise ValueError(a)
            words.append(a)
            continue
        flag, metavar, _, name, parse = row
        if parse is None:
            values[name] = True
            continue
        if not opts:
            raise ValueError(a)
        text = opts.pop(0)
        try:
            value = parse(text)
        except ValueError:
            raise ValueError(text) from None    # said as given, not as float() words it
        if name == "env":
            key, _, value = value.partition("=")
            value = dict(os.environ if values["env"] is None else values["env"], **{key: value})
        values[name] = value
    return values, words


def _run_client_command(spec, server_cmd, positional, values):
    """Start the server, run one command of the table on it, close it; the exit status."""
    level = values.get("log_level", _CLI_LOG_LEVEL if _LOG_OPTION in spec.own else "off")
    # It can ask the user only on a terminal; elsewhere it declares no elicitation, in
    # either era, so that a server sees a client that cannot ask (and answers as it does).
    asks = sys.stdin is not None and sys.stdin.isatty()
    caps = {"elicitation": {"form": {}, "url": {}}} if asks else {}
    client = Client(server_cmd, era=values["era"], revision=values["revision"],
                    log_level=None if level == "off" else level, on_log=_show_log,
                    timeout=values["timeout"], probe_timeout=min(values["timeout"], 3.0),
                    start_timeout=values["start_timeout"], env=values["env"],
                    cwd=values["cwd"], on_waiting=_show_waiting,
                    on_elicit=_ask_on_terminal if asks else None,
                    # It declares MCP Apps, as a host that shows views does, so that
                    # inspect sees (and call may call) every tool a view would.
                    capabilities=dict(caps, extensions=_INSPECTS))
    cancelled = False
    try:
        client.connect()
        status = spec.handler(client, positional, values)
        if client.skipped_lines:
            sys.stderr.write("note: skipped %d line(s) on the server's stdout that were not "
                             "JSON-RPC\n" % client.skipped_lines)
        return status
    except _BadArguments as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    except ProtocolError as e:
        if e.code == MISSING_CLIENT_CAPABILITY and not asks and "elicitation" in (
                (e.data.get("requiredCapabilities") if isinstance(e.data, dict) else None)
                or {}):
            # What a legacy server says in an isError result (exit 1), a modern one says
            # with this error: one outcome in both eras for a question nobody can answer.
            sys.stderr.write("error: the server needs a capability this command declares only "
                             "on a terminal (stdin is not one, so nobody can be asked): %s\n%s"
                             % (e.message, _error_data(e.data)))
            return 1
        sys.stderr.write("error: the server answered with error %s: %s\n%s" % (
            e.code, e.message, _error_data(e.data)))
        _show_stderr(client)
        return 4
    except ClientError as e:
        sys.stderr.write("error: %s\n" % e)
        return 3
    except KeyboardInterrupt:          # Ctrl-C: the request was cancelled at the server;
        sys.stderr.write("cancelled\n")    # close() gives it 2 s to finish, then ends it
        cancelled = True
        return 130
    finally:
        try:
            client.close()
        except KeyboardInterrupt:      # Ctrl-C while closing: the group was killed
            if not cancelled:
                sys.stderr.write("cancelled\n")
            return 130                 # noqa: B012 - the interrupt is the answer


def _check_words(command, positional):
    """Refuse arguments that cannot be sent, before the server is started."""
    words = positional[1:]
    if command in ("call", "preview") and len(words) == 1 and words[0].lstrip().startswith("{"):
        _call_arguments(None, positional[0], words)
        return
    for w in words:
        if "=" not in w[1:]:
            raise _BadArguments("%r is not KEY=VALUE: give the arguments as KEY=VALUE words "
                                "or one JSON object" % w)


class _BadArguments(ValueError):
    """Arguments on the command line that cannot be sent."""


def _error_data(data):
    """An error's data as indented lines: each member of an object on its own line."""
    if data is None:
        return ""
    items = data.items() if isinstance(data, dict) else [("data", data)]
    return "".join("  %s: %s\n" % (k, json.dumps(v, ensure_ascii=False)) for k, v in items)


def _show_waiting(seconds):
    sys.stderr.write("waiting for the server to answer (%g s so far; --start-timeout sets how "
                     "long)...\n" % seconds)
    sys.stderr.flush()


def _save_contents(result, path):
    """read --output: write the one contents item's bytes (a blob decoded) to path."""
    contents = result.get("contents") or []
    if len(contents) != 1 or not isinstance(contents[0], dict):
        raise ClientError("the resource has %d contents items; --output saves exactly one"
                          % len(contents))
    c = contents[0]
    try:
        data = _unb64(c["blob"]) if isinstance(c.get("blob"), str) else \
            str(c.get("text", "")).encode("utf-8")
    except ValueError:
        raise ClientError("the resource's blob is not base64")
    with open(path, "wb") as f:
        f.write(data)
    sys.stderr.write("saved %d bytes%s to %s\n" % (len(data), " (%s)" % c["mimeType"]
                                                   if c.get("mimeType") else "", path))
    return 0


def _call_arguments(client, tool, words):
    """The arguments of call: one JSON object, or KEY=VALUE words typed from the schema."""
    if len(words) == 1 and words[0].lstrip().startswith("{"):
        try:
            value = json.loads(words[0])
        except ValueError as e:
            raise _BadArguments("the arguments are not valid JSON: %s" % e)
        if not isinstance(value, dict):
            raise _BadArguments("the arguments must be a JSON object")
        return value
    schema = None
    if words:
        for t in client.list_tools():
            if t.get("name") == tool:
                schema = t.get("inputSchema")
    return _key_values(words, schema)


def _key_values(words, schema):
    """KEY=VALUE words as a dict; values typed from schema's properties (strings if unknown)."""
    props = schema.get("properties") if isinstance(schema, dict) else None   # any JSON a
    props = props if isinstance(props, dict) else {}                       # server sent
    out = {}
    for word in words:
        key, eq, text = word.partition("=")
        if not eq or not key:
            raise _BadArguments("%r is not KEY=VALUE (or give one JSON object)" % word)
        types = props.get(key, {}).get("type") if isinstance(props.get(key), dict) else None
        types = [types] if isinstance(types, str) else \
            [t for t in types if isinstance(t, str)] if isinstance(types, list) else []
        if types and "string" not in types:
            try:
                out[key] = json.loads(text)
            except ValueError as e:
                if text.lstrip()[:1] in ("[", "{", '"'):
                    raise _BadArguments("%s=%s: not valid JSON (%s)" % (key, text, e))
                raise _BadArguments("%s=%s: %s is expected" % (key, text, " or ".join(
                    _with_article(t) for t in types)))
        else:
            out[key] = text
    return out


def _with_article(noun):
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


###############################################################################
# MCP Apps preview: a tool's view in your browser, as a host shows it #########
###############################################################################
#
# The preview command calls a tool that has a view and shows the view on 127.0.0.1: a
# host page with the view in a sandboxed iframe of an origin of its own.

def _preview_command(client, words, opts):
    """preview: call a tool and show its view in the browser, as a host that renders apps would."""
    name = words[0]
    tools = {t.get("name"): t for t in client.list_tools()}
    tool = tools.get(name)
    if tool is None:
        raise _BadArguments("the server lists no tool %r" % name)
    ui = (tool.get("_meta") or {}).get("ui") if isinstance(tool.get("_meta"), dict) else None
    uri = ui.get("resourceUri") if isinstance(ui, dict) else None
    if not isinstance(uri, str):
        raise _BadArguments("tool %r has no view (no _meta.ui.resourceUri)" % name)
    arguments = _call_arguments(client, name, words[1:])
    view = client.read_view(uri)
    return _Preview(client, tools, tool, arguments, view).serve(opts.get("port") or 0)


# The preview stops when its page has not been heard from for this long (the page polls
# every second; a closed tab also says so at once).
_PREVIEW_QUIET = 15.0
# How long a /result request waits for the tool's answer before the page asks again.
_PREVIEW_WAIT = 20.0
# The most of a view's request the preview reads: the server's default line limit.
_PREVIEW_MAX_BODY = 1 << 20


class _Preview:
    """The preview's two origins on 127.0.0.1: the host page and, on another port, the view.

    Every request must carry the token of the printed URL and the Host its server
    listens on; the page's own requests must come from the page's origin.
    """

    def __init__(self, client, tools, tool, arguments, view):
        import secrets
        self.client, self.tools, self.tool = client, tools, tool
        self.arguments, self.view = arguments, view
        self.token = secrets.token_urlsafe(24)
        self.result = None
        self.done, self.stop = threading.Event(), threading.Event()
        self.heard = None              # when the page last polled (monotonic)
        self.servers = []

    def serve(self, port=0):
        import http.server
        preview = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):      # no request log: stderr is the user's
                pass

            def do_GET(self):
                preview._answer(self, "GET")

            def do_POST(self):
                preview._answer(self, "POST")

        class Server(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                # A page that went away mid-answer is not news; anything else is one line.
                e = sys.exc_info()[1]
                if not isinstance(e, OSError):
                    sys.stderr.write("preview: a request failed: %s\n" % _short_text(e))

        for _ in range(2):
            asked = port if not self.servers else 0
            try:
                server = Server(("127.0.0.1", asked), Handler)
            except OSError as e:
                for s in self.servers:
                    s.server_close()
                raise ClientError("cannot listen on 127.0.0.1:%d (%s)" % (
                    asked, e.strerror or e))
            server.daemon_threads = True
            self.servers.append(server)
            threading.Thread(target=server.serve_forever, daemon=True).start()
        self.page_port, self.view_port = (s.server_address[1] for s in self.servers)
        threading.Thread(target=self._call, daemon=True).start()
        url = "http://127.0.0.1:%d/?token=%s" % (self.page_port, self.token)
        try:                 # Ctrl-C from here on stops the preview, as closing the page does
            sys.stdout.write("preview of %s (view %s): %s\n" % (
                self.tool["name"], self.view["uri"], url))
            sys.stdout.flush()
            sys.stderr.write("open it in a browser; Ctrl-C (or closing the page) stops the "
                             "preview and the server\n")
            while not self.stop.wait(0.25):
                if self.heard is not None and _monotonic() - self.heard > _PREVIEW_QUIET:
                    break
        except KeyboardInterrupt:
            pass
        for server in self.servers:
            server.shutdown()
            server.server_close()
        sys.stderr.write("preview stopped\n")
        return 0

    def _call(self):
        try:
            self.result = {"result": self.client.call_tool(self.tool["name"], self.arguments)}
        except ProtocolError as e:
            self.result = {"error": "error %s: %s" % (e.code, e.message)}
        except ClientError as e:
            self.result = {"error": str(e)}
        self.done.set()

    def _answer(self, request, verb):
        """Answer one HTTP request of either origin, refusing anything not the page's."""
        from urllib.parse import parse_qs, urlsplit
        port = request.server.server_address[1]
        url = urlsplit(request.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        token = request.headers.get("X-Preview-Token") or query.get("token") or ""
        import hmac
        if request.headers.get("Host") != "127.0.0.1:%d" % port:
            return self._send(request, 403, "text/plain", b"forbidden\n")
        if verb == "GET" and url.path == "/favicon.ico":   # every browser asks, tokenless
            return self._send(request, 200, "image/x-icon", b"")
        if not hmac.compare_digest(token.encode("utf-8", "replace"), self.token.encode("ascii")):
            return self._send(request, 403, "text/plain", b"forbidden\n")
        if port == self.view_port:
            if verb == "GET" and url.path == "/view":
                return self._send(request, 200, "text/html; charset=utf-8",
                                  self.view["html"].encode("utf-8"),
                                  {"Content-Security-Policy": _view_csp(self.view["ui"])})
            return self._send(request, 404, "text/plain", b"not found\n")
        origin = request.headers.get("Origin")
        page = "http://127.0.0.1:%d" % self.page_port
        if origin not in (None, page) or request.headers.get("Sec-Fetch-Site") not in (
                None, "same-origin", "none"):
            return self._send(request, 403, "text/plain", b"cross-origin requests are refused\n")
        if verb == "GET" and url.path == "/":
            return self._send(request, 200, "text/html; charset=utf-8", self._page())
        if verb == "POST" and url.path == "/closed":
            self.stop.set()
            return self._send(request, 204, "text/plain", b"")
        if verb == "GET" and url.path == "/result":
            ready = self.done.wait(_PREVIEW_WAIT)
            return self._json(request, self.result if ready else {"pending": True})
        if verb == "GET" and url.path == "/events":
            self.heard = _monotonic()
            lines = self.client.stderr.splitlines()
            since = int(query.get("since", "0")) if query.get("since", "0").isdigit() else 0
            return self._json(request, {"stderr": lines[since:], "next": len(lines)})
        if verb == "POST" and url.path == "/rpc":
            try:
                length = int(request.headers.get("Content-Length") or 0)
                body = json.loads(request.rfile.read(min(length, _PREVIEW_MAX_BODY)))
                method, params = body["method"], body.get("params") or {}
            except (ValueError, KeyError, TypeError):
                return self._send(request, 400, "text/plain", b"bad request\n")
            return self._json(request, self._relay(method, params))
        return self._send(request, 404, "text/plain", b"not found\n")

    def _relay(self, method, params):
        """A view's request, relayed to the server as a host would (or refused)."""
        if method == "tools/call":
            tool = self.tools.get(params.get("name")) if isinstance(params, dict) else None
            ui = ((tool or {}).get("_meta") or {}).get("ui") or {}
            visibility = ui.get("visibility") if isinstance(ui, dict) else None
            if isinstance(visibility, list) and "app" not in visibility:
                return {"error": {"code": INVALID_PARAMS, "message": "The view may not call "
                                  "%s: its visibility is %s, without \"app\"" % (
                                      _short(params.get("name"), 80), json.dumps(visibility))}}
        elif method != "resources/read":
            return {"error": {"code": METHOD_NOT_FOUND, "message": "Method not found"}}
        try:
            return {"result": self.client.request(method, params)}
        except ProtocolError as e:
            error = {"code": e.code, "message": e.message}
            if e.data is not None:
                error["data"] = e.data
            return {"error": error}
        except ClientError as e:
            return {"error": {"code": INTERNAL_ERROR, "message": str(e)}}

    def _page(self):
        import html
        ui = self.view["ui"]
        permissions = ui.get("permissions") if isinstance(ui.get("permissions"), dict) else {}
        allow = "; ".join(feature for key, feature in (
            ("camera", "camera"), ("microphone", "microphone"), ("geolocation", "geolocation"),
            ("clipboardWrite", "clipboard-write")) if key in permissions)
        view_origin = "http://127.0.0.1:%d" % self.view_port
        config = {"token": self.token, "viewOrigin": view_origin, "arguments": self.arguments,
                  "hostInfo": {"name": "mcp_stdio preview", "version": __version__},
                  "hostCapabilities": {"openLinks": {}, "serverTools": {},
                                       "serverResources": {}, "logging": {},
                                       "sandbox": {"permissions": permissions,
                                                   "csp": _view_csp_domains(ui)}},
                  "hostContext": {"toolInfo": {"tool": self.tool}, "theme": "light",
                                  "displayMode": "inline", "availableDisplayModes": ["inline"],
                                  "platform": "web"}}
        text = json.dumps(config, ensure_ascii=True).replace("</", "<\\/")
        return (_PREVIEW_PAGE % {
            "tool": html.escape(self.tool["name"]), "uri": html.escape(self.view["uri"]),
            "allow": html.escape(allow),
            "view_url": html.escape("%s/view?token=%s" % (view_origin, self.token)),
            "config": text}).encode("utf-8")

    def _json(self, request, value):
        return self._send(request, 200, "application/json", json.dumps(value).encode("utf-8"))

    def _send(self, request, status, kind, body, headers=None):
        request.send_response(status)
        request.send_header("Content-Type", kind)
        request.send_header("Content-Length", str(len(body)))
        request.send_header("Cache-Control", "no-store")
        request.send_header("X-Content-Type-Options", "nosniff")
        for k, v in (headers or {}).items():
            request.send_header(k, v)
        request.end_headers()
        request.wfile.write(body)


def _view_csp_domains(ui):
    """A view's declared CSP origins, each checked again (any server's view may be shown)."""
    csp = ui.get("csp") if isinstance(ui, dict) and isinstance(ui.get("csp"), dict) else {}
    return {k: [o for o in csp.get(k) if isinstance(o, str) and _pattern(_ORIGIN_RE).match(o)]
            for k in _CSP_FIELDS if isinstance(csp.get(k), list)}


def _view_csp(ui):
    """The Content-Security-Policy a host builds from a view's _meta.ui.csp (MCP Apps).

    Without a declared csp it is the specification's restrictive default.
    """
    if not isinstance(ui, dict) or not isinstance(ui.get("csp"), dict):
        return ("default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' "
                "'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; "
                "connect-src 'none'")
    d = _view_csp_domains(ui)
    res, con = d.get("resourceDomains", []), d.get("connectDomains", [])

    def src(*parts):
        return " ".join(p for group in parts for p in (group if isinstance(group, list)
                                                       else [group]))
    return "; ".join((
        "default-src 'none'", "script-src " + src("'self'", "'unsafe-inline'", res),
        "style-src " + src("'self'", "'unsafe-inline'", res), "connect-src " + src("'self'", con),
        "img-src " + src("'self'", "data:", res), "font-src " + src("'self'", res),
        "media-src " + src("'self'", "data:", res),
        "frame-src " + (src(d["frameDomains"]) if d.get("frameDomains") else "'none'"),
        "object-src 'none'",
        "base-uri " + (src(d["baseUriDomains"]) if d.get("baseUriDomains") else "'self'")))


# The preview's host page: the view in a sandboxed iframe of the view's origin, the host
# side of MCP Apps in a few lines, and what passed between them.
_PREVIEW_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>preview: %(tool)s</title>
<style>
  body { margin: 0; font: 14px system-ui, sans-serif; display: flex; flex-direction: column;
         height: 100vh; }
  header { padding: 8px 12px; border-bottom: 1px solid #8886; }
  header code { font-size: 13px; }
  main { display: flex; flex: 1; min-height: 0; }
  #stage { flex: 1; padding: 12px; overflow: auto; background: #8881; }
  #view { width: 100%%; height: 320px; border: 1px solid #8886; border-radius: 8px;
          background: Canvas; }
  aside { width: 38%%; min-width: 280px; border-left: 1px solid #8886; overflow: auto;
          padding: 0 12px; font-size: 12px; }
  aside h2 { font-size: 12px; text-transform: uppercase; margin: 12px 0 4px; }
  #log { list-style: none; padding: 0; margin: 0; font-family: ui-monospace, monospace; }
  #log li { padding: 2px 0; border-bottom: 1px solid #8883; white-space: pre-wrap;
            word-break: break-all; }
  #log .dir { font-weight: 600; }
  #log .refused { color: #c33; }
  pre { white-space: pre-wrap; margin: 0; }
</style>
</head>
<body>
<header>mcp_stdio preview: tool <code>%(tool)s</code>, view <code>%(uri)s</code>
  <button id="teardown">tear down</button></header>
<main>
<div id="stage"><iframe id="view" title="the tool's view"
  sandbox="allow-scripts allow-same-origin allow-forms" allow="%(allow)s"
  src="%(view_url)s"></iframe></div>
<aside><h2>messages</h2><ol id="log"></ol><h2>server stderr</h2><pre id="stderr"></pre></aside>
</main>
<script>
(function () {
  "use strict";
  var C = %(config)s;
  var frame = document.getElementById("view"), initialized = false, result = null, sent = false;
  var waiting = {}, nextId = 1, since = 0;
  function log(dir, m, refused) {
    var li = document.createElement("li");
    var d = document.createElement("span");
    d.className = "dir";
    d.textContent = dir + " ";
    li.appendChild(d);
    li.appendChild(document.createTextNode(JSON.stringify(m).slice(0, 2000)));
    if (refused) { li.className = "refused"; }
    document.getElementById("log").appendChild(li);
  }
  function post(m) { log("host \u2192 view", m); frame.contentWindow.postMessage(m, C.viewOrigin); }
  function call(path, body) {
    return fetch(path, {method: body ? "POST" : "GET", headers: {"X-Preview-Token": C.token,
                 "Content-Type": "application/json"}, body: body ? JSON.stringify(body) : undefined})
      .then(function (r) { return r.json(); });
  }
  function handle(m) {
    switch (m.method) {
      case "ui/initialize":
        return Promise.resolve({result: {protocolVersion: "2026-01-26", hostInfo: C.hostInfo,
                                         hostCapabilities: C.hostCapabilities,
                                         hostContext: C.hostContext}});
      case "tools/call":
      case "resources/read":
        return call("/rpc", {method: m.method, params: m.params || {}});
      case "ping":
      case "ui/message":
      case "ui/update-model-context":
        return Promise.resolve({result: {}});
      case "ui/open-link":
        window.open(String((m.params || {}).url), "_blank", "noopener");
        return Promise.resolve({result: {}});
      case "ui/request-display-mode":
        return Promise.resolve({result: {mode: "inline"}});
      default:
        return Promise.resolve({error: {code: -32601, message: "Method not found"}});
    }
  }
  function deliver() {
    if (!initialized || !result || sent) { return; }
    sent = true;
    if (result.result) {
      post({jsonrpc: "2.0", method: "ui/notifications/tool-result", params: result.result});
    } else {
      post({jsonrpc: "2.0", method: "ui/notifications/tool-cancelled",
            params: {reason: result.error}});
    }
  }
  window.addEventListener("message", function (e) {
    var m = e.data;
    if (e.source !== frame.contentWindow || e.origin !== C.viewOrigin || !m ||
        m.jsonrpc !== "2.0") { return; }
    log("view \u2192 host", m);
    if (m.method !== undefined && m.id !== undefined) {
      handle(m).then(function (reply) {
        var out = {jsonrpc: "2.0", id: m.id};
        if (reply.error) { out.error = reply.error; } else { out.result = reply.result; }
        if (reply.error) { log("refused", reply.error, true); }
        post(out);
      });
    } else if (m.method === undefined) {
      if (waiting[m.id]) { waiting[m.id](m); delete waiting[m.id]; }
    } else if (m.method === "ui/notifications/initialized") {
      initialized = true;
      post({jsonrpc: "2.0", method: "ui/notifications/tool-input",
            params: {arguments: C.arguments}});
      deliver();
    } else if (m.method === "ui/notifications/size-changed" && m.params &&
               typeof m.params.height === "number") {
      frame.style.height = Math.max(80, Math.min(m.params.height, 4000)) + "px";
    }
  });
  (function wait() {
    call("/result").then(function (r) {
      if (r.pending) { wait(); } else { result = r; deliver(); }
    }, function () { setTimeout(wait, 1000); });
  }());
  (function poll() {
    call("/events?since=" + since).then(function (r) {
      since = r.next;
      if (r.stderr.length) {
        document.getElementById("stderr").textContent += r.stderr.join("\n") + "\n";
      }
      setTimeout(poll, 1000);
    }, function () { setTimeout(poll, 2000); });
  }());
  document.getElementById("teardown").onclick = function () {
    var id = "teardown-" + nextId++;
    waiting[id] = function (answer) {
      log("torn down", answer);
      frame.remove();
    };
    post({jsonrpc: "2.0", id: id, method: "ui/resource-teardown", params: {reason: "preview"}});
  };
  window.addEventListener("pagehide", function () {
    navigator.sendBeacon("/closed?token=" + encodeURIComponent(C.token));
  });
}());
</script>
</body>
</html>
"""


###############################################################################
# Host setup: the hosts and the doctor ########################################
###############################################################################
#
# A server's entry in each host's configuration: printed (config), checked by starting
# the server as each host does (doctor, with its model of the host), and written into
# the host's own file (install).

def _json_config(top, extra=None):
    def make(name, command, args):
        entry = dict(extra or {}, command=command, args=args)
        return json.dumps({top: {name: entry}}, indent=2) + "\n"
    return make


def _shell_config(words):
    def make(name, command, args):
        return _command_text(words + [name, "--", command] + args) + "\n"
    return make


def _toml_config(name, command, args):
    key = name if re.match(r"^[A-Za-z0-9_-]+\Z", name) else json.dumps(name)
    return "[mcp_servers.%s]\ncommand = %s\nargs = [%s]\n" % (
        key, json.dumps(command), ", ".join(json.dumps(a) for a in args))


# client -> (how to write its configuration, where it goes)
_CONFIGS = {
    "claude-desktop": (_json_config("mcpServers"), "claude_desktop_config.json (Settings > "
                       "Developer > Edit Config), merged into \"mcpServers\""),
    "claude-code": (_shell_config(["claude", "mcp", "add"]), "run it in a shell"),
    "cursor": (_json_config("mcpServers"), "~/.cursor/mcp.json or .cursor/mcp.json, merged "
               "into \"mcpServers\""),
    "vscode": (_json_config("servers", {"type": "stdio"}), ".vscode/mcp.json, merged into "
               "\"servers\""),
    "codex": (_toml_config, "~/.codex/config.toml"),
    "gemini-cli": (_json_config("mcpServers"), "~/.gemini/settings.json or "
                   ".gemini/settings.json, merged into \"mcpServers\""),
    "copilot-cli": (_json_config("mcpServers", {"type": "local", "tools": ["*"]}),
                    "~/.copilot/mcp-config.json, merged into \"mcpServers\""),
}


class _Host:
    """What one host does when it starts a stdio server, as the doctor models it."""

    __slots__ = ("title", "source", "era", "revision", "capabilities", "limit", "desktop",
                 "rules", "budget", "catalog")

    def __init__(self, title, source, era, revision, capabilities, limit, desktop, rules=(),
                 budget=None, catalog=None):
        self.title, self.source, self.era, self.revision = title, source, era, revision
        self.capabilities, self.limit, self.desktop = capabilities, limit, desktop
        self.rules = rules          # names of _HOST_RULES the host's tool list must pass
        self.budget = budget        # (tools, what the host does past them), where published
        # How it holds a catalog: (how, what it does, its source). How: it "searches" the
        # catalog itself (the model sees the tools' names and each server's instructions
        # first; a schema loads when its search finds the tool), "searches with some
        # models", "groups" it past a threshold, or "loads" every schema on every turn.
        self.catalog = catalog or ("loads", "it loads every tool's schema on every turn",
                                   source)


# Past _SEARCH_PAST tools a host that loads every schema holds them badly (Cursor warned at
# 40 before it searched): --tool-search is recommended there. A server of more than
# _NAMES_ALONE tools, behind a host that searches, needs instructions: they and the tools'
# names are what its model sees first.
_SEARCH_PAST, _NAMES_ALONE = 40, 10


# The PATH a desktop app gets when it is started from the desktop, not a shell
# (macOS's launchd default; the login shell's additions are missing).
_DESKTOP_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
# Where no host limit is documented, the common one: 60 s to the first answer.
_USUAL_LIMIT = 60.0


# The hosts: name -> the version modelled, where its behaviour is reported, what
# it speaks and declares, its start limit (seconds), whether it is a desktop app
# (started with the desktop's PATH in /) or a command line tool (the user's PATH,
# in the home folder), and the tool-list rules it enforces.
_HOSTS = {
    "claude-desktop": _Host(
        "Claude Desktop 1.25927.0 (Aug 2026)",
        "https://github.com/modelcontextprotocol/servers/issues/4153",
        "legacy", "2025-11-25", {}, 60.0, True,
        budget=(_SEARCH_PAST, "Claude Desktop loads every tool's schema on every turn")),
    "claude-code": _Host(
        "Claude Code 2.1.283 (2026-09-28)",
        "https://github.com/anthropics/claude-code/issues/84136",
        "auto", "2025-11-25", {"roots": {}, "elicitation": {}}, 30.0, False,
        ("full_name_128",), catalog=(
            "searches", "Claude Code defers every MCP tool behind its own tool search",
            "https://github.com/anthropics/claude-code/issues/56551")),
    "cursor": _Host(
        "Cursor CLI 2026.08.25-3e8eec8",
        "https://github.com/CursorTouch/Windows-MCP/issues/68",
        "legacy", "2025-11-25", {}, _USUAL_LIMIT, True, ("server_and_tool_60",), catalog=(
            "searches", "Cursor loads only the tools' names and fetches the rest on demand",
            "Cursor's dynamic context discovery (January 2026)")),
    "vscode": _Host(
        "VS Code 1.132.0 with Copilot chat (Aug 2026)",
        "https://github.com/microsoft/vscode/issues/329848",
        "legacy", "2025-11-25", {}, _USUAL_LIMIT, True, (),
        (128, "Copilot refuses a request that carries more than 128 tools"), catalog=(
            "groups", "VS Code groups tools behind activate_* tools past 64",
            "https://github.com/microsoft/vscode/issues/258360")),
    "codex": _Host(
        "Codex CLI 0.165.0 (2026-11-03)", "https://github.com/openai/codex/issues/11851",
        "legacy", "2025-06-18", {}, 10.0, False,
        budget=(_SEARCH_PAST, "Codex loads every schema with a model without tool_search"),
        catalog=("searches with some models", "Codex defers MCP tools behind its "
                 "tool_search with the models that support it",
                 "https://github.com/openai/codex/issues/24536")),
    "copilot-cli": _Host(
        "Copilot CLI (Nov 2026)", "https://github.com/github/copilot-cli/issues/4588",
        "legacy", "2025-11-25", {}, _USUAL_LIMIT, False,
        budget=(_SEARCH_PAST, "Copilot CLI loads every schema with the models it does "
                "not defer tools for"),
        catalog=("searches with some models", "Copilot CLI defers MCP tools with some "
                 "models (an entry opts out with \"deferTools\": \"never\")",
                 "https://github.com/github/copilot-cli/issues/4588")),
    "gemini-cli": _Host(
        "Gemini CLI 0.61", "https://github.com/google-gemini/gemini-cli/issues/13326",
        "legacy", "2025-06-18", {}, _USUAL_LIMIT, False, ("flat_schemas",),
        budget=(_SEARCH_PAST, "Gemini CLI loads every tool's schema on every turn")),
}


def _schema_faults(schema, where):
    """What a strict host refuses in a tool schema: $ref and $defs, required names that
    are not properties, arrays without items."""
    if isinstance(schema, list):
        for i, s in enumerate(schema):
            yield from _schema_faults(s, "%s/%d" % (where, i))
        return
    if not isinstance(schema, dict):
        return
    for key in ("$ref", "$defs", "definitions"):
        if key in schema:
            yield "%s uses %s" % (where or "/", key)
    props = schema.get("properties")
    if isinstance(schema.get("required"), list) and isinstance(props, dict):
        for name in schema["required"]:
            if name not in props:
                yield "%s requires %r, which is not one of its properties" % (where or "/", name)
    if schema.get("type") == "array" and "items" not in schema:
        yield "%s is an array without items" % (where or "/")
    for key, sub in schema.items():
        if key in ("properties", "$defs", "definitions", "patternProperties") and \
                isinstance(sub, dict):
            for name, s in sub.items():
                yield from _schema_faults(s, "%s/%s/%s" % (where, key, name))
        elif key in ("items", "additionalProperties", "not", "anyOf", "oneOf", "allOf",
                     "prefixItems"):
            yield from _schema_faults(sub, "%s/%s" % (where, key))


# The tool-list rules of hosts: name -> (server name, tool) -> a fault or None.
_HOST_RULES = {
    "full_name_128": lambda server, t: "its full name mcp__%s__%s is over 128 characters "
    "(the host drops it)" % (server, t["name"]) if len("mcp__%s__%s" % (server, t["name"])) > 128
    else None,
    "server_and_tool_60": lambda server, t: "the server and tool names together are over 60 "
    "characters (the host refuses it)" if len(server) + len(t["name"]) > 60 else None,
    "flat_schemas": lambda server, t: "; ".join(_schema_faults(t.get("inputSchema"), "")) or None,
}


# What a server started on Windows has of its host's environment: PATH (";" between
# folders) and PATHEXT find programs; the user's folders (Python reads USERPROFILE, not
# HOME, there), SystemRoot (without it nothing starts) and TEMP.
_WINDOWS_ENVIRONMENT = ("PATH", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA",
                        "SystemRoot", "TEMP", "TMP")


def _host_environment(host, windows=os.name == "nt", environ=os.environ):
    """(environment, working folder) a host starts a server with, on Windows (windows) or
    not, the user's being environ: a desktop app on macOS and Linux gets launchd's short
    PATH and "/"; on Windows every app gets the user's environment (its variables above),
    and a desktop app starts in the system's folder."""
    if windows:
        env = {k: v for k, v in ((k, _env_value(environ, k)) for k in _WINDOWS_ENVIRONMENT)
               if v is not None}
        home = env.get("USERPROFILE") or "C:\\"
        root = env.get("SystemRoot") or "C:\\Windows"
        return env, (root + "\\System32" if host.desktop else home)
    home = environ.get("HOME") or os.path.expanduser("~")
    path = _DESKTOP_PATH if host.desktop else environ.get("PATH", _DESKTOP_PATH)
    return {"PATH": path, "HOME": home}, ("/" if host.desktop else home)


def _doctor_one(name, command):
    """Start command as host name does; return (faults, warnings, the server's name as a
    key or None), faults and warnings each a list of (what happened, how to fix it)."""
    return _doctor_many([name], command)[name]


def _doctor_many(names, command):
    """{host name: (faults, warnings, key)} of _doctor_one for each of names: hosts that start
    a server alike (environment, era, revision, capabilities) share one start, and the starts
    run at once: a server whose start waits (a proxy over many) costs about one start."""
    groups = {}
    for name in names:
        h = _HOSTS[name]
        groups.setdefault((h.desktop, h.era, h.revision, _encoder.encode(h.capabilities)),
                          []).append(name)
    starts, probed = {}, []
    # A host without tasks never sees a tool that runs only as a task: a listing at the
    # first revision with tasks says which those are. Another host's start at it gives
    # one; where no host speaks it, a start of its own does, beside the others.
    first = next(r for r in REVISIONS if _has(r, "tasks"))
    with_tasks = any(key[2] == first for key in groups)

    def start(key, members):
        starts[key] = _doctor_start(members, command)

    def probe(key, members):
        host = _HOSTS[members[0]]
        env, cwd = _host_environment(host)
        probed.extend(_task_only_tools(command, env, cwd, max(_HOSTS[n].limit
                                                               for n in members)))
    threads = [threading.Thread(target=start, args=item, daemon=True)
               for item in groups.items()]
    if not with_tasks and any(not _has(key[2], "tasks") for key in groups):
        threads.append(threading.Thread(target=probe, args=next(iter(groups.items())),
                                        daemon=True))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    listed = next((seen.tools for key, seen in sorted(starts.items()) if seen.tools is not None
                   and seen.client.revision == first), None)
    if listed is None and with_tasks and any(not _has(key[2], "tasks") for key in groups):
        probe(*next(iter(groups.items())))      # that host's start failed: one of its own
    only_tasks = probed if listed is None else _task_only(listed)
    for key, seen in starts.items():
        if not _has(key[2], "tasks"):
            seen.later[:0] = [(
                "tool %r runs only as a task; the host speaks %s, which has no tasks (it is "
                "not listed)" % (name, key[2]), "register it with task=\"optional\"")
                for name in only_tasks]
    return {name: _doctor_judge(_HOSTS[name], starts[key]) for key, members in groups.items()
            for name in members}


class _Started:
    """What one start of a server showed the doctor, for every host that starts it alike."""

    __slots__ = ("faults", "silent", "took", "listed", "tools", "client", "later")

    def __init__(self):
        self.faults = []            # what fails every such host
        self.silent = False         # it did not answer within the longest host's limit
        self.took = self.listed = 0.0   # seconds to its first answer, and to its tool list
        self.tools = self.client = None
        self.later = []             # faults found after it listed (tasks, skills, mounts)


# What the doctor gives a server it has listed to exit once its input is closed.
_DOCTOR_GRACE = 0.5


def _doctor_start(names, command):
    """Start command once as the hosts names start it (they start it alike): a _Started."""
    import time
    host, seen = _HOSTS[names[0]], _Started()
    limit = max(_HOSTS[n].limit for n in names)
    env, cwd = _host_environment(host)
    program, windows = command[0], os.name == "nt"
    found = _find_program(program, env, windows)
    if found is not None and not os.path.isabs(found):
        found = None                      # relative to the host's folder, not ours
    if found is None and os.path.isabs(program):      # the advice fits the fault
        seen.faults.append(("%s %s" % (program, "is not executable" if os.path.exists(program)
                                       else "does not exist"),
                            "give the path of the program that starts the server (config "
                            "prints the absolute path of one on your PATH)"))
        return seen
    if found is None:
        here = _find_program(program, os.environ, windows) or program
        seen.faults.append(("the host cannot find %r (PATH %s, working folder %s)"
                            % (program, env.get("PATH", ""), cwd),
                            "give the absolute path: %s (config prints one)" % here))
        return seen
    client = seen.client = Client(command, era=host.era, revision=host.revision, env=env,
                                  cwd=cwd, capabilities=host.capabilities, timeout=limit,
                                  probe_timeout=min(3.0, limit), start_timeout=limit)
    started = time.monotonic()
    try:
        client.connect()
        seen.took = time.monotonic() - started
        seen.tools = client.list_tools() if "tools" in client.server_capabilities else []
        seen.listed = time.monotonic() - started
    except ClientError as e:
        client.close()                # its last words: stderr is read to its end first
        last = (client.stderr.strip().splitlines() or [""])[-1]
        if "did not answer" in str(e) or "no answer" in str(e):
            seen.silent = True
        else:
            relative = [a for a in command[1:] if not os.path.isabs(a) and os.path.exists(a)]
            seen.faults.append((
                "the server did not start: %s" % (_short(last, 200) if last else e),
                "give the absolute path of %s (the host starts it in %s; config prints "
                "absolute paths)" % (", ".join(relative), cwd) if relative else
                "run it yourself in %s, in a minimal environment (env -i), to see why" % cwd))
    finally:
        # What it had to say came with its answers: no grace to end (a proxy ends its
        # mounts on SIGTERM), as a host that closes a server it has listed need not wait.
        client.close(_DOCTOR_GRACE)
    if client.skipped_lines:
        line = next((p for p in client.problems if p.startswith("skipped a line")), "")
        seen.faults.append(("output on stdout before the first message: %s" % line.split(
            ": ", 1)[-1][:90], "write diagnostics to sys.stderr, never stdout"))
    if seen.tools is None:
        return seen
    for line in client.stderr.splitlines():
        if "warning:" in line and "skill" in line.lower():
            seen.later.append(("a skill was refused at start: %s" % _short(line, 200),
                               "fix the skill's folder or SKILL.md"))
    seen.later.extend(_mount_faults(client.stderr))
    return seen


def _doctor_judge(host, seen):
    """(faults, warnings, key) of host for a start it shares (seen: a _Started)."""
    faults, warnings = list(seen.faults), []
    if seen.silent or seen.listed > host.limit:
        faults.append(("no answer within the host's %g s" % host.limit,
                       "answer initialize first: import and load lazily"))
    if seen.tools is None or seen.listed > host.limit:
        return faults, warnings, None
    if seen.took > host.limit / 4:
        warnings.append(("the first answer took %.1f s of the host's %g s" % (
            seen.took, host.limit), "import heavy modules inside the handlers that need them"))
    _listing_faults(host, seen.client, seen.tools, faults, warnings)
    faults.extend(seen.later)
    return faults, warnings, _safe_key((seen.client.server_info or {}).get("name"))


# What a server with mounts says on stderr when one fails to start (see _Mount): its
# line for each try, the lines its server last wrote, and one when it comes up.
_MOUNT_SAID = r"(?:[^\n]*?: )?mount '([^']*)'(: (.*); starting it again| \| (.*)| has not " \
              r"listed within| is up)"


def _mount_faults(stderr):
    """(what, fix) for each mount that a server (a proxy) said failed to start and is not
    up, with the last lines its own server wrote to stderr."""
    failing, words = {}, {}
    for line in stderr.splitlines():
        m = _pattern(_MOUNT_SAID).match(line)
        if m is None:
            continue
        name, how = m.group(1), m.group(2)
        if how == " is up":
            failing.pop(name, None)
        elif how.startswith(" |"):
            if m.group(4) != "its last lines on stderr:":
                words.setdefault(name, []).append(m.group(4))
        else:                        # the lines that follow are this try's
            failing[name] = m.group(3) or "it did not list within its start timeout"
            words.pop(name, None)
    return [("mount %r does not start: %s" % (name, _short_text(why)),
             "its last lines on stderr: %s" % " | ".join(words[name][-3:]) if name in words
             else "run its command yourself to see why")
            for name, why in sorted(failing.items())]


def _listing_faults(host, client, tools, faults, warnings):
    """Add to faults and warnings what host refuses in the tool listing, or holds badly."""
    server = (client.server_info or {}).get("name") or "server"
    for t in tools:
        for rule in host.rules:
            fault = _HOST_RULES[rule](server, t)
            if fault:
                faults.append(("tool %r: %s" % (t.get("name"), fault),
                               _mounted_fix(t) or "rename it, or flatten its schema"))
    how, does, _ = host.catalog
    if how.startswith("searches"):        # what its search needs: names and instructions
        if len(tools) > _NAMES_ALONE and not client.instructions:
            warnings.append((
                "it lists %d tools and no instructions: %s, so its model sees the tools' "
                "names and each server's instructions first" % (len(tools), does),
                "give the server instructions (Server(..., instructions=...)): what it is "
                "for, and which tools to reach for first"))
        for t in tools:
            if (t.get("_meta") or {}).get(ALWAYS_LOAD_KEY) is True and not t.get("description"):
                warnings.append(("tool %r is pinned (kept loaded) but has no description"
                                 % t.get("name"), "say what it is for: a docstring, or "
                                 "description=..."))
    if host.budget is not None and len(tools) > host.budget[0]:
        warnings.append(_over_budget(tools, *host.budget, conditional=how != "loads" and
                                     how != "groups"))


def _over_budget(tools, budget, words, conditional=False):
    """The doctor's warning for a listing of more tools than a host holds well (conditional:
    only where it does not search them itself, with some models)."""
    size = len(encode_message({"tools": tools}))
    return ("it lists %d tools (%.1f KB, about %d tokens, estimated as bytes / 4); %s, and a "
            "host that keeps the first %d would not see %s" % (
                len(tools), size / 1024.0, size // 4, words, budget,
                _some([t.get("name") for t in tools[budget:]], 300)),
            "%slist two search tools instead (--tool-search: the rest stay callable and are "
            "found by search_tools), or serve fewer: --tools with names or patterns "
            "('fs_*'), or mount(..., include=, exclude=) for a mounted server's" % (
                "where the model in use has no tool search of the host's own: "
                if conditional else ""))


def _mounted_fix(tool):
    """For a mounted tool (its _meta says so), the mount's options that leave it out or
    rename it; else None."""
    where = (tool.get("_meta") or {}).get(MOUNT_KEY)
    if type(where) is not dict or type(where.get("server")) is not str or \
            type(where.get("name")) is not str:
        return None
    return "it is tool %r of mount %r: leave it out (mount(..., exclude=[%r])) or rename " \
           "it (rename={%r: ...})" % (where["name"], where["server"], where["name"],
                                      where["name"])


def _task_only_tools(command, env, cwd, limit):
    """The names of the tools that run only as a task, listed at the first revision that
    has tasks (a start of its own)."""
    first = next(r for r in REVISIONS if _has(r, "tasks"))
    client = Client(command, era="legacy", revision=first, env=env, cwd=cwd,
                    timeout=limit, start_timeout=limit)
    try:
        client.connect()
        tools = client.list_tools() if "tools" in client.server_capabilities else []
    except ClientError:
        tools = []
    finally:
        client.close()
    return _task_only(tools)


def _task_only(tools):
    """The names of the listed tools that run only as a task."""
    return [t.get("name") for t in tools
            if (t.get("execution") or {}).get("taskSupport") == "required"]


def _doctor_main(args):
    """Start a server the way each host does and report what would fail; return the status."""
    args = list(args)
    if any(a in ("-h", "--help") for a in args[:args.index("--") if "--" in args else None]):
        raise _Usage()
    if "--" not in args or args.index("--") == len(args) - 1:
        raise _Usage("put the server command after --")
    i = args.index("--")
    opts, command = args[:i], args[i + 1:]
    try:
        command = _entry_command(command, resolve=False)    # each host resolves a bare name
    except ValueError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    hosts = sorted(_HOSTS)
    if opts[:1] == ["--host"] and len(opts) == 2 and opts[1] in _HOSTS:
        hosts = [opts[1]]
    elif opts:
        sys.stderr.write("error: doctor takes --host HOST (%s)\n" % ", ".join(sorted(_HOSTS)))
        return 2
    w, failed = sys.stdout.write, 0
    w("doctor: starts %s\n" % _command_text(command))
    found = _doctor_many(hosts, command)
    for name in hosts:
        host = _HOSTS[name]
        faults, warnings, _ = found[name]
        failed += bool(faults)
        w("%s: %s  (models %s, %s %s; %s)\n" % (name, "FAIL" if faults else "ok", host.title,
                                                 "probes, then" if _HANDSHAKES[host.era][1] else
                                                 "speaks", host.revision, host.source))
        for what, fix in faults:
            w("  fault: %s\n    fix: %s\n" % (what, fix))
        for what, fix in warnings:
            w("  warning: %s\n    fix: %s\n" % (what, fix))
    w("doctor: %d of %d host(s) would start it\n" % (len(hosts) - failed, len(hosts)))
    return 1 if failed else 0


def _command_text(command, windows=os.name == "nt"):
    """command as a shell takes it, for a line that says what runs or is to be run: in
    POSIX sh's quoting, or on Windows (windows) cmd.exe's, which PowerShell takes too but
    for a word holding "$" or "`" (_powershell_text has its own)."""
    if not windows:
        import shlex
        return " ".join(shlex.quote(w) for w in command)
    out = []
    for w in command:
        if w and all(c.isalnum() or c in "_-./:\\=+@," for c in w):
            out.append(w)
        elif any(c in w for c in _CMD_UNSAFE):       # shown as a program would read it
            out.append('"%s"' % w.replace('"', '\\"'))
        else:
            out.append(_cmd_quoted(w))
    return " ".join(out)


def _powershell_text(command):
    """command as PowerShell runs it: each word in single quotes, the first by "&"."""
    return "& " + " ".join("'%s'" % w.replace("'", "''") for w in command)


def _entry_command(words, resolve=True):
    """The command that config and install register and the doctor starts, from the words
    after --: a first word ending in .py is a script run with this interpreter; anything
    else is a command. With resolve (config, install), a bare name is found on PATH, as
    hosts that start servers without a shell's PATH need it by its absolute path, and
    arguments naming a file or folder here are made absolute, since a host starts servers
    in a folder of its own; without (the doctor), the words are started as given, as the
    host would start them. Raises ValueError saying what is missing."""
    program, args = words[0], list(words[1:])
    if program.lower().endswith(".py"):
        if not os.path.isfile(program):
            raise ValueError("%s does not exist" % os.path.abspath(program))
        program, args = os.path.abspath(sys.executable), [program] + args
        if not resolve:
            return [program] + args
    elif not resolve:
        return list(words)
    elif os.sep in program or (os.altsep and os.altsep in program):
        program = os.path.abspath(program)
        if not os.path.exists(program):
            raise ValueError("%s does not exist" % program)
    else:
        found = _find_program(program, os.environ, os.name == "nt")
        if found is None:
            raise ValueError("%r is not on PATH (%s)" % (program, os.environ.get("PATH", "")))
        program = os.path.abspath(found)
    return [program] + [os.path.abspath(a) if ("." in a or os.sep in a) and a[:1] != "-" and
                        os.path.exists(a) else a for a in args]


def _safe_key(name):
    """name as a key every host takes: letters, digits, '-' and '_' (Codex's TOML keys,
    Claude Code's names), at most 64; None for no name."""
    if not isinstance(name, str):
        return None
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in name)
    return safe.strip("-")[:64] or None


###############################################################################
# Host setup: config and install ##############################################
###############################################################################

def _entry_words(args):
    """(the words before --, the server command after it, the --name value or None) of
    config and install; raises ValueError when --name has no value."""
    args, server = list(args), []
    if "--" in args:
        i = args.index("--")
        args, server = args[:i], args[i + 1:]
    name = None
    if "--name" in args:
        i = args.index("--name")
        if i + 1 >= len(args):
            raise ValueError("--name needs a value")
        name = args.pop(i + 1)
        args.pop(i)
    return args, server, name


def _file_key(script):
    """An entry's name from its file's, when the server cannot say its own."""
    return os.path.splitext(os.path.basename(script))[0].replace("_", "-")



def _config_main(args):
    """Print a client configuration that starts a server by absolute paths; return the status."""
    try:
        args, server, name = _entry_words(args)
    except ValueError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    if any(a in ("-h", "--help") for a in args):
        raise _Usage()
    if len(args) != 1 or args[0] not in _CONFIGS:
        raise _Usage("name one client: %s" % ", ".join(sorted(_CONFIGS)))
    if server:
        try:
            command = _entry_command(server)
        except ValueError as e:
            sys.stderr.write("error: %s\n" % e)
            return 2
        default = _server_name(command) or _file_key(server[0])
    else:
        # The interpreter by absolute path: desktop apps start servers with a minimal PATH,
        # where "python" (or even "python3") may not be found.
        command = [os.path.abspath(sys.executable)] + _demo_command()
        default = "mcp-stdio-demo"
    make, where = _CONFIGS[args[0]]
    sys.stdout.write(make(name or default, command[0], command[1:]))
    runs = _command_text(command) if os.name != "nt" else "in cmd.exe %s; in PowerShell %s" % (
        _command_text(command), _powershell_text(command))
    sys.stderr.write("(for %s: %s; it runs %s)\n" % (args[0], where, runs))
    return 0



def _host_file(host, project, system=sys.platform, environ=os.environ, listdir=os.listdir):
    """The configuration file install writes for host (project: the project's own, None
    when the host has none) on system (a sys.platform value), whose user's environment is
    environ and whose folders listdir lists. Raises ValueError naming the candidates
    where Claude Desktop has several package folders on Windows."""
    import ntpath
    import posixpath
    windows = system == "win32"
    join = ntpath.join if windows else posixpath.join
    home = _env_value(environ, "USERPROFILE" if windows else "HOME") or os.path.expanduser("~")
    if system == "darwin":
        user = join(home, "Library", "Application Support")
    elif windows:
        user = _env_value(environ, "APPDATA") or join(home, "AppData", "Roaming")
    else:
        user = environ.get("XDG_CONFIG_HOME") or join(home, ".config")
    desktop = join(user, "Claude", "claude_desktop_config.json")
    if windows and host == "claude-desktop":
        desktop = _packaged_desktop_file(environ, listdir) or desktop
    files = {
        "claude-desktop": (desktop, None),
        "cursor": (join(home, ".cursor", "mcp.json"), join(".cursor", "mcp.json")),
        "vscode": (join(user, "Code", "User", "mcp.json"), join(".vscode", "mcp.json")),
        "gemini-cli": (join(home, ".gemini", "settings.json"), join(".gemini", "settings.json")),
        "codex": (join(home, ".codex", "config.toml"), None),
        "copilot-cli": (join(home, ".copilot", "mcp-config.json"), None),
    }
    user_file, project_file = files[host]
    if not project:
        return user_file
    return None if project_file is None else os.path.abspath(project_file)


def _packaged_desktop_file(environ, listdir):
    """The file Claude Desktop reads on Windows as the MSIX package it has been since
    February 2026 (from the Store and the direct installer alike), where its package
    folder exists: it is read instead of the classic file under APPDATA, which may be
    stale. None without one; ValueError naming each where there are several."""
    import ntpath
    local = _env_value(environ, "LOCALAPPDATA")
    if not local:
        return None
    packages = ntpath.join(local, "Packages")
    try:
        names = sorted(n for n in listdir(packages) if n.startswith("Claude_"))
    except OSError:
        return None
    files = [ntpath.join(packages, n, "LocalCache", "Roaming", "Claude",
                         "claude_desktop_config.json") for n in names]
    if len(files) > 1:
        raise ValueError("Claude Desktop has %d package folders, and reads the file of the "
                         "one installed: %s" % (len(files), "; ".join(files)))
    return files[0] if files else None


def _members(plain, start):
    """([(key, key offset, value offset, value end)] of the object at plain[start], its
    closing brace's offset): plain is valid JSON, as _jsonc_plain makes it."""
    decoder, space = json.JSONDecoder(), _pattern(r"\s*")
    i, members = space.match(plain, start + 1).end(), []
    while plain[i] != "}":
        key, after = decoder.raw_decode(plain, i)
        value = space.match(plain, space.match(plain, after).end() + 1).end()   # past ':'
        end = decoder.raw_decode(plain, value)[1]
        members.append((key, i, value, end))
        i = space.match(plain, end).end()
        if plain[i] == ",":
            i = space.match(plain, i + 1).end()
    return members, i


def _merged_json(text, plain, data, top, name, entry):
    """text (a host's JSON file, comments and all; plain: _jsonc_plain's; data: its value)
    with entry set as top[name], every other byte kept: (new text, the entry already
    there or None). Raises ValueError when top is not an object."""
    unit = re.search(r"\n( +|\t)\S", text)
    unit = unit.group(1) if unit else "  "
    if not text.strip():
        return json.dumps({top: {name: entry}}, indent=unit, ensure_ascii=False) + "\n", None
    if not isinstance(data, dict) or not isinstance(data.get(top, {}), dict):
        raise ValueError("its top level or %r is not a JSON object" % top)

    def indent_of(offset):
        start = text.rfind("\n", 0, offset) + 1
        return _pattern(r"[ \t]*").match(text, start).group()

    def shaped(value, indent):
        return json.dumps(value, indent=unit, ensure_ascii=False).replace("\n", "\n" + indent)

    root = _pattern(r"\s*").match(plain).end()
    members, close = _members(plain, root)
    if top in data:
        obj = [m for m in members if m[0] == top][-1][2]   # the last of a key counts
        members, close = _members(plain, obj)
        old = data[top].get(name)
        for key, at, value, end in members[::-1]:
            if key == name:
                return text[:value] + shaped(entry, indent_of(at)) + text[end:], old
        key, value = name, entry
    else:
        obj, key, value, old = root, top, {name: entry}, None
    inner = indent_of(members[0][1]) if members else indent_of(obj) + unit
    member = "%s: %s" % (json.dumps(key, ensure_ascii=False), shaped(value, inner))
    lead = text.rfind("\n", 0, close) + 1
    own_line = lead > obj and not text[lead:close].strip()   # its "}" alone on a line
    at = lead if own_line else close
    piece = ("" if own_line else "\n") + inner + member + "\n" + (
        "" if own_line else indent_of(close))
    comma = ""
    if members:
        end = members[-1][3]
        between = _pattern(r"//[^\n]*|/\*[\s\S]*?\*/").sub("", text[end:close])
        comma = "" if "," in between else ","       # a trailing comma already separates
        return text[:end] + comma + text[end:at] + piece + text[at:], old
    return text[:at] + piece + text[at:], old


def _merged_toml(text, block):
    """text (config.toml, or None) with block, a [mcp_servers.NAME] table, set: (new text,
    the table already there or None). The rest of the file is kept as it is."""
    text = text or ""
    header = block.split("\n", 1)[0]
    found = re.search(r"(?m)^%s[ \t]*\n" % re.escape(header), text)
    if found is None:
        if text and not text.endswith("\n"):
            text += "\n"
        return text + ("\n" if text.strip() else "") + block, None
    start = found.start()
    after = re.compile(r"(?m)^\[").search(text, found.end())
    old = text[start:after.start() if after else len(text)].rstrip("\n") + "\n"
    return text[:start] + block + text[start + len(old):], old


def _install_main(args):
    """Write the configuration config prints into a host's file, after the doctor; return
    the status."""
    try:
        args, server, name = _entry_words(args)
    except ValueError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    flags = {a for a in args if a in ("--project", "--force", "--always-load")}
    args = [a for a in args if a not in flags]
    if len(args) != 1 or args[0] not in _CONFIGS or not server or name == "":
        sys.stderr.write("error: install HOST [--name NAME] [--project] [--force] "
                         "[--always-load] -- SERVER [ARGS...]; HOST is one of %s\n"
                         % ", ".join(sorted(_CONFIGS)))
        return 2
    host = args[0]
    if "--always-load" in flags and host not in _ALWAYS_LOAD:
        sys.stderr.write("error: --always-load: %s has no setting that keeps a server's tools "
                         "loaded (%s have)\n" % (host, " and ".join(sorted(_ALWAYS_LOAD))))
        return 2
    if "--project" in flags and host != "claude-code" and _host_file(host, True) is None:
        sys.stderr.write("error: %s has no project file\n" % host)
        return 2
    try:
        command = _entry_command(server)
    except ValueError as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    python, command_args = command[0], command[1:]
    faults, _, seen = _doctor_one(host, command)
    if faults:
        sys.stderr.write("error: the doctor found what %s would fail on; nothing written:\n%s"
                         % (host, "".join("  %s\n    fix: %s\n" % f for f in faults)))
        return 1
    name = name or seen or _file_key(server[0])
    if host == "claude-code":
        return _install_by_claude(name, python, command_args, flags)
    return _install_in_file(host, name, python, command_args, flags)


def _install_by_claude(name, python, command_args, flags):
    """Install by Claude Code's own command, after reading the file it writes (user scope:
    ~/.claude.json; project: .mcp.json here) for an entry of that name; return the status."""
    project = "--project" in flags
    scope = "project" if project else "user"
    # Its default scope is this folder only; a user's install serves every folder.
    words = ["claude", "mcp", "add", "--scope", scope, name, "--", python] + command_args
    keep = "--always-load" in flags
    if keep:                             # "claude mcp add" has no flag for it
        words = ["claude", "mcp", "add-json", "--scope", scope, name, json.dumps(dict(
            {"type": "stdio", "command": python, "args": command_args}, **_ALWAYS_LOAD[
                "claude-code"]))]
    path = os.path.abspath(".mcp.json") if project else \
        os.path.join(os.path.expanduser("~"), ".claude.json")
    old = None
    if os.path.exists(path):
        try:
            data = _json_file(path, False, False, "Claude Code's reader")[0]
        except ValueError as e:
            sys.stderr.write("error: %s; nothing written\n" % e)
            return 2
        servers = data.get("mcpServers") if isinstance(data, dict) else None
        old = servers.get(name) if isinstance(servers, dict) else None
    if old is not None:
        if isinstance(old, dict) and old.get("command") == python and \
                (old.get("args") or []) == command_args and \
                (old.get("alwaysLoad") is True) == keep:
            sys.stdout.write("%s: %r is installed already; nothing changed\n" % (path, name))
            return 0
        if "--force" not in flags:
            sys.stderr.write("error: %s already has a different server named %r: give another "
                             "--name, or --force to replace it\n" % (path, name))
            return 1
    steps = ([["claude", "mcp", "remove", name, "--scope", scope]] if old is not None else
             []) + [words]
    if _find_program("claude", os.environ, os.name == "nt") is None:
        sys.stdout.write("claude is not on PATH; run:\n%s" % "".join(
            "  %s\n" % _command_text(step) for step in steps))
        return 0
    import subprocess
    for step in steps:
        status = subprocess.call(_what_to_start(step, os.environ, os.name == "nt"))
        if status:
            return status
    if keep:
        sys.stdout.write('wrote "alwaysLoad": true for %r: Claude Code keeps its tools loaded '
                         "(not behind its tool search)\n" % name)
    return 0


# What install --always-load writes in a host's entry so that the host keeps the server's
# tools loaded instead of deferring them behind its own search.
_ALWAYS_LOAD = {"claude-code": {"alwaysLoad": True}, "copilot-cli": {"deferTools": "never"}}


# What each host's reader takes beyond strict JSON: (comments, trailing commas). VS Code's
# files are JSON with comments; Gemini CLI's settings.json takes comments, not commas.
_HOST_JSON_SYNTAX = {"vscode": (True, True), "gemini-cli": (True, False)}


def _install_in_file(host, name, python, command_args, flags):
    """Merge the entry into host's own file (a backup of the old one kept; the rest of the
    file, comments included, as it was); return the status."""
    make = _CONFIGS[host][0]
    try:
        path = _host_file(host, "--project" in flags)
    except ValueError as e:                # several candidates: which is read is not ours
        sys.stderr.write("error: %s; nothing written\n" % e)
        return 1
    entry = make(name, python, command_args)
    keep = _ALWAYS_LOAD.get(host) if "--always-load" in flags else None
    if keep:
        (top, entries), = json.loads(entry).items()
        entries[name].update(keep)
        entry = json.dumps({top: entries}, indent=2) + "\n"
    comments, commas = _HOST_JSON_SYNTAX.get(host, (False, False))
    try:
        if not os.path.exists(path):
            text = None
        elif host == "codex":
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeError) as e:
                raise ValueError("cannot read %s: %s" % (path, getattr(e, "strerror", None)
                                                         or e))
        else:
            data, text, plain = _json_file(path, comments, commas, "%s's reader" % host)
        if host == "codex":
            new, old = _merged_toml(text, entry)
            same = old == entry
        else:
            (top, entries), = json.loads(entry).items()
            try:
                new, old = _merged_json(text or "", plain if text else "", data if text else {},
                                        top, name, entries[name])
            except ValueError as e:
                raise ValueError("%s: %s" % (path, e)) from None
            same = old == entries[name]
    except ValueError as e:
        sys.stderr.write("error: %s; nothing written. Add the entry by hand:\n%s" % (e, entry))
        return 2
    if old is not None and not same and "--force" not in flags:
        sys.stderr.write("error: %s already has a different server named %r: give another "
                         "--name, or --force to replace it\n" % (path, name))
        return 1
    if same or new == text:
        sys.stdout.write("%s: %r is installed already; nothing changed\n" % (path, name))
        return 0
    os.makedirs(os.path.dirname(path), exist_ok=True)
    backup = path + ".bak"
    if text is not None and not os.path.exists(backup):
        with open(backup, "w", encoding="utf-8") as f:
            f.write(text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(new)
    sys.stdout.write("%s: installed %r%s\n  it runs %s\n%s" % (
        path, name, " (the old file is in %s)" % backup if text is not None else "",
        _command_text([python] + command_args), "".join(
            "  with %s: %s, so the host keeps its tools loaded\n" % (
                json.dumps(k), json.dumps(v)) for k, v in (keep or {}).items())))
    return 0


# How long config waits for a server to say its name before it names the entry by
# the file: as long as the quickest host waits for a start.
_NAME_TIMEOUT = 10.0


def _server_name(command):
    """The server's own name (serverInfo.name), made safe as a host's key, or None."""
    client = Client(command, era="legacy", timeout=_NAME_TIMEOUT, start_timeout=_NAME_TIMEOUT,
                    probe_timeout=3.0)
    try:
        client.connect()
        name = (client.server_info or {}).get("name")
    except ClientError:
        name = None
    finally:
        client.close()
    return _safe_key(name)



###############################################################################
# Demo catalog ################################################################
###############################################################################

def _demo_echo(arguments, ctx):
    t = arguments["text"]
    return ToolResult([{"type": "text", "text": t}], structured={"text": t})


def _demo_add(arguments, ctx):
    return {"sum": arguments["a"] + arguments["b"]}


def _demo_divide(arguments, ctx):
    if arguments["divisor"] == 0:
        raise ToolError("Cannot divide by zero: pass a non-zero 'divisor'.")
    return {"quotient": arguments["dividend"] / arguments["divisor"]}


def _demo_countdown(arguments, ctx):
    seconds = arguments["seconds"]
    start = _monotonic()
    step = 0.1
    steps = int(round(seconds / step))
    ctx.log("info", "countdown of %d steps started" % steps)
    done = 0
    for done in range(1, steps + 1):
        if ctx.sleep(step):
            break
        ctx.progress(done, steps, "%d of %d steps" % (done, steps))
    ran = round(_monotonic() - start, 3)
    return {"ran_seconds": ran, "completed": not ctx.is_cancelled and done == steps}


def _demo_confirm_echo(arguments, ctx):
    answer = ctx.elicit("Echo this text?\n\n%s" % arguments["text"],
                        {"type": "object", "properties": {
                            "confirm": {"type": "boolean", "title": "Echo it",
                                        "description": "Tick to echo the text."}},
                         "required": ["confirm"]})
    if answer.accepted and answer.content.get("confirm"):
        return arguments["text"]
    if answer.action == "accept":
        return "You chose not to echo the text."
    return "Nothing was echoed: the user %s." % ("declined" if answer.action == "decline"
                                                 else "dismissed the question")


def _demo_greet(arguments, ctx):
    # Two questions in one round when the client can sample; the name alone otherwise.
    questions = {"name": Form("What is your name?", {
        "type": "object", "properties": {"name": {"type": "string", "title": "Your name"}},
        "required": ["name"]})}
    if ctx.can("sampling"):
        questions["greeting"] = Sample("Write a one-line greeting for someone trying an MCP "
                                       "demo server. Reply with the greeting only.",
                                       max_tokens=60)
    answers = ctx.ask(questions)
    if not answers["name"].accepted:
        return "No greeting: the user did not give a name."
    name = answers["name"].content["name"]
    line = answers["greeting"].text.strip() if "greeting" in answers else ""
    return "Hello, %s! %s" % (name, line) if line else "Hello, %s!" % name


_DEMO_README = """# mcp_stdio demo

This server shows what mcp_stdio serves from one standard-library file:

- tools: echo, add, divide (an actionable tool error), countdown (progress and cancellation),
  confirm_echo (asks the user first), greet (asks the user and the client's model at once);
- resources: this page, a small PNG, and greetings from the template demo://greeting/{name};
- a prompt, summarize, whose style argument offers completions.
"""

_DEMO_NAMES = ("Ada", "Alan", "Barbara", "Grace", "Katherine", "Linus", "Margaret")
_DEMO_STYLES = ("bullet points", "detailed", "one sentence", "short")
# A 1x1 transparent PNG.
_DEMO_PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                          "1f15c4890000000d49444154789c6360000002000100e527de00000000"
                          "49454e44ae426082")


def _demo_greeting(uri, variables, ctx):
    return "Hello, %s!" % variables["name"]


def _demo_complete_name(argument, value, known):
    return [n for n in _DEMO_NAMES if n.lower().startswith(value.lower())]


def _demo_summarize(arguments, ctx):
    style = arguments.get("style", "short")
    return [{"role": "user", "content": {"type": "text", "text":
             "Summarize the following text (style: %s):\n\n%s" % (style, arguments["text"])}}]


def _demo_complete_style(argument, value, known):
    if argument != "style":
        return []
    return [s for s in _DEMO_STYLES if s.startswith(value.lower())]


def demo_server(**options):
    """Return the demo server of ``python mcp_stdio.py``: tools, resources, a prompt."""
    num = {"type": "number"}
    tools = [
        Tool("echo", _demo_echo, title="Echo",
             description="Return the given text unchanged.",
             input_schema={"type": "object", "properties": {"text": {"type": "string"}},
                           "required": ["text"], "additionalProperties": False},
             output_schema={"type": "object", "properties": {"text": {"type": "string"}},
                            "required": ["text"], "additionalProperties": False},
             annotations={"readOnlyHint": True, "openWorldHint": False}),
        Tool("add", _demo_add, title="Add two numbers",
             description="Add a and b and return the sum as structured content.",
             input_schema={"type": "object", "properties": {"a": num, "b": num},
                           "required": ["a", "b"], "additionalProperties": False},
             output_schema={"type": "object", "properties": {"sum": num}, "required": ["sum"]},
             annotations={"readOnlyHint": True, "openWorldHint": False}),
        Tool("divide", _demo_divide, title="Divide",
             description="Divide dividend by divisor; a zero divisor is reported as a tool "
                         "error the model can fix.",
             input_schema={"type": "object", "properties": {"dividend": num, "divisor": num},
                           "required": ["dividend", "divisor"], "additionalProperties": False},
             output_schema={"type": "object", "properties": {"quotient": num},
                            "required": ["quotient"]},
             annotations={"readOnlyHint": True, "openWorldHint": False}),
        Tool("countdown", _demo_countdown, title="Countdown",
             description="Wait the given number of seconds (at most 60), reporting progress "
                         "every 0.1 s; stops early when cancelled.",
             input_schema={"type": "object", "properties": {
                 "seconds": {"type": "number", "minimum": 0, "maximum": 60}},
                 "required": ["seconds"], "additionalProperties": False},
             output_schema={"type": "object", "properties": {
                 "ran_seconds": num, "completed": {"type": "boolean"}},
                 "required": ["ran_seconds", "completed"]},
             annotations={"readOnlyHint": True, "openWorldHint": False}, timeout=90),
        Tool("confirm_echo", _demo_confirm_echo, title="Echo after confirmation",
             description="Ask the user to confirm, then echo the text (elicitation).",
             input_schema={"type": "object", "properties": {"text": {"type": "string"}},
                           "required": ["text"], "additionalProperties": False},
             annotations={"readOnlyHint": True, "openWorldHint": False}),
        Tool("greet", _demo_greet, title="Greet the user",
             description="Ask the user's name and, when the client can sample, its model for a "
                         "greeting line: two questions in one round.",
             input_schema={"type": "object", "properties": {}, "additionalProperties": False},
             annotations={"readOnlyHint": True, "openWorldHint": False}),
    ]
    resources = [
        Resource("demo://readme", lambda uri, ctx: _DEMO_README, name="readme",
                 title="About this demo", mime_type="text/markdown",
                 description="What the demo server offers."),
        Resource("demo://logo.png", lambda uri, ctx: _DEMO_PNG, name="logo",
                 title="A tiny PNG", mime_type="image/png", size=len(_DEMO_PNG),
                 description="A 1x1 PNG, served as a base64 blob."),
    ]
    templates = [
        ResourceTemplate("demo://greeting/{name}", _demo_greeting, name="greeting",
                         title="Greeting", mime_type="text/plain",
                         description="A greeting for anyone; names complete.",
                         complete=_demo_complete_name),
    ]
    prompts = [
        Prompt("summarize", _demo_summarize, title="Summarize",
               description="Ask for a summary of a text in a chosen style.",
               arguments=[{"name": "text", "description": "The text to summarize.",
                           "required": True},
                          {"name": "style", "description": "short, detailed, one sentence "
                           "or bullet points."}],
               complete=_demo_complete_style),
    ]
    return Server("mcp-stdio-demo", __version__, title="mcp_stdio demo",
                  instructions="Demo server of mcp_stdio. Tools: echo, add, divide, "
                               "countdown (with progress), confirm_echo (asks the user first) "
                               "and greet (asks the user's name); demo:// resources; the "
                               "summarize prompt.",
                  tools=tools, resources=resources, templates=templates, prompts=prompts,
                  **options)


###############################################################################
# Command line: the demo server and the commands ###############################
###############################################################################
#
# python mcp_stdio.py serves the demo catalog; its first word may name a command
# of _COMMANDS (inspect, call, read, get, config) instead. A command is one row
# of that table and one handler.

class _Command:
    """A command of the command line: its handler, usage line and options of its own.

    A server command's handler(client, words, options) gets a connected Client;
    one with serves=False gets its raw arguments instead.
    """

    __slots__ = ("handler", "usage", "positional", "own", "serves")

    def __init__(self, handler, usage, positional=(0, 0), own=(), serves=True):
        self.handler, self.usage, self.positional, self.own = handler, usage, positional, own
        self.serves = serves


# The commands: name -> how it runs. A server command gets a connected Client,
# its words (before --) and its options; config runs on its own arguments.
_COMMANDS = {
    "inspect": _Command(_inspect_command, "inspect [options] -- COMMAND [ARGS...]"),
    "call": _Command(_call_command, "call TOOL [JSON | KEY=VALUE ...] [--task] [--log-level "
                     "LEVEL] [options] -- COMMAND [ARGS...]", (1, None),
                     (("--task", None, "run the tool as a task where it allows one (2025-11-25; "
                       "a modern server decides by itself)", "task", None), _LOG_OPTION)),
    "read": _Command(_read_command, "read URI [--output FILE] [--log-level LEVEL] [options] -- "
                     "COMMAND [ARGS...]", (1, 1),
                     (("--output", "FILE", "save the contents (a blob's bytes) to FILE",
                       "output", str), _LOG_OPTION)),
    "get": _Command(_get_command, "get PROMPT [KEY=VALUE ...] [--log-level LEVEL] [options] -- "
                    "COMMAND [ARGS...]", (1, None), (_LOG_OPTION,)),
    "skill": _Command(_skill_command, "skill URI [options] -- COMMAND [ARGS...]", (1, 1)),
    "preview": _Command(_preview_command, "preview TOOL [JSON | KEY=VALUE ...] [--port N] "
                        "[options] -- COMMAND [ARGS...]", (1, None),
                        (("--port", "N", "the host page's port on 127.0.0.1 (default: a free "
                          "one; the view's origin gets another)", "port",
                          lambda v: int(v) if 0 < int(v) < 65536 else _refuse(v)),)),
    "config": _Command(lambda args: _config_main(args), "config CLIENT [--name NAME] "
                       "[-- SERVER [ARGS...]]", serves=False),
    "doctor": _Command(lambda args: _doctor_main(args), "doctor [--host HOST] -- COMMAND "
                       "[ARGS...]", serves=False),
    "install": _Command(lambda args: _install_main(args), "install HOST [--name NAME] "
                        "[--project] [--force] [--always-load] -- SERVER [ARGS...]", serves=False),
    "proxy": _Command(lambda args: _proxy_main(args), "proxy CONFIG.json [server options]",
                      serves=False),
}


_DEMO_ABOUT = """\
Serve the mcp_stdio demo catalog as an MCP server on stdin/stdout, for modern
(2026-07-28) and legacy (initialize) clients: tools echo, add, divide,
countdown, confirm_echo and greet; resources demo://readme, demo://logo.png and
the template demo://greeting/{name}; the prompt summarize.

Inspect any stdio server: {prog} inspect|call|read|get|skill|preview|doctor ... -- COMMAND
[ARGS...]; install it in a host: {prog} install HOST -- SERVER;
print a client configuration: {prog} config CLIENT [-- SERVER] (see inspect --help)."""


_CLIENT_ABOUT = """\
Start an MCP stdio server (COMMAND, run without a shell) and inspect it, call
one of its tools, read a resource or get a prompt; preview calls a tool that
has an MCP App view and shows the view in your browser, on 127.0.0.1, as a
host would. KEY=VALUE arguments are typed from the tool's input schema
(numbers, booleans, JSON arrays and objects); one JSON object works too.
config prints a ready-to-paste
configuration for CLIENT ({clients}) that starts SERVER (default: this
demo) by absolute paths; install writes it into the host's own file. doctor
starts SERVER the way each host (or HOST) does and names what would fail
there. For all three, SERVER is a script ending in .py (run with this
interpreter) or a command with its arguments.
"""


def _client_usage():
    """The help of the commands, from the tables of commands and options."""
    prog = _prog()
    lines = ["%s %s %s" % ("usage:" if i == 0 else "      ", prog, c.usage)
             for i, c in enumerate(_COMMANDS.values())]
    import textwrap
    about = _CLIENT_ABOUT.format(clients=", ".join(sorted(_CONFIGS))).replace("\n", " ")
    lines += [""] + textwrap.wrap(about, 78, break_on_hyphens=False) + ["", "options:"]
    rows = [o for o in _CLIENT_OPTIONS] + [o for c in _COMMANDS.values() for o in c.own]
    for flag, metavar, help_text, _, _ in rows:
        head = "  %s %s" % (flag, metavar) if metavar else "  " + flag
        lines.append("%-29s%s" % (head, help_text))
    lines += ["", "exit status: 0 success; 1 the tool returned isError; 2 bad arguments;",
              "3 the server misbehaved, exited or did not answer; 4 the server answered",
              "with a JSON-RPC error.", ""]
    return "\n".join(lines)


def _client_main(command, args):
    """Run a command of the table on args; return the exit status (its usage said for
    words that ask for it, or are wrong)."""
    try:
        return _command_main(command, args)
    except _Usage as e:
        if not e.args:
            sys.stdout.write(_client_usage())
            return 0
        sys.stderr.write("error: %s\n\n%s" % (e.args[0], _client_usage()))
        return 2


def _command_main(command, args):
    """A command of the table: inspect, call, read, get or config; return the exit status."""
    spec = _COMMANDS[command]
    if not spec.serves:
        return spec.handler(args)
    if "--" not in args:
        if any(a in ("-h", "--help") for a in args):
            raise _Usage()
        raise _Usage("put the server command after --")
    i = args.index("--")
    opts, server_cmd = args[:i], args[i + 1:]
    if any(a in ("-h", "--help") for a in opts):
        raise _Usage()
    try:
        values, positional = _parse_client_options(spec.own, list(opts))
    except ValueError as e:
        raise _Usage("bad argument %r" % str(e)) from None
    low, high = spec.positional
    if not server_cmd or len(positional) < low or (high is not None and len(positional) > high):
        raise _Usage("wrong arguments for %s" % command)
    try:                               # what can be checked before starting the server
        _check_words(command, positional)
    except _BadArguments as e:
        sys.stderr.write("error: %s\n" % e)
        return 2
    return _run_client_command(spec, server_cmd, positional, values)


def _utf8_text(*streams):
    """Make text streams write UTF-8 whatever the console's code page: Windows pipes a
    command's output in the ANSI code page (cp1252) before Python 3.15, where a tool's
    emoji would raise UnicodeEncodeError."""
    import codecs
    for stream in streams:
        encoding = getattr(stream, "encoding", None) or "utf-8"
        if codecs.lookup(encoding).name != "utf-8" and hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(encoding="utf-8")
            except (ValueError, OSError):     # written to already, or closed: as it is
                pass


def main(argv: List[str] | None = None) -> int:
    """Run the command line (the demo server, or inspect / call); return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "proxy":       # a server: its signals are its own
        return _client_main(args[0], args[1:])
    if args and args[0] in _COMMANDS:
        _utf8_text(sys.stdout, sys.stderr)
        try:                              # Ctrl-C at any point, closing included
            return _client_main(args[0], args[1:])
        except KeyboardInterrupt:
            sys.stderr.write("cancelled\n")
            return 130
    return demo_server()._command_line(args, _prog(), _DEMO_ABOUT.replace("{prog}", _prog()),
                                       "mcp_stdio %s\n" % __version__)


if __name__ == "__main__":
    try:
        status = main()
    except BrokenPipeError:          # the reader of our output went away (| head)
        status = 0
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    _exit(status)               # do not wait for threads stuck in handlers
