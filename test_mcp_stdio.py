"""Tests for mcp_stdio: run with ``python -m unittest``.

Two harnesses with one interface check exact bytes and codes: InProc drives a
Connection in this process (fake clocks, no threads), Proc a real server
process through pipes, for what needs one (framing, concurrency, signals, EOF,
the stdout guard, the command line, the client). Every response they see is
validated against the official MCP schema of the revision in use when
``../shared/mcp-schema`` exists; tests that need ``../shared/`` are skipped
cleanly without it. Process tests that mostly wait run eight at a time while
the in-process tests run beside them, and tests that patch what every thread
shares run last, alone (load_tests at the end of this file).

The sections follow mcp_stdio's own (wire, catalog, authoring, asking, engine,
tasks, skills, client and commands), then what outsiders throw at it (fuzzing,
adversarial input, the official SDK), the schema checker's appendix and the
runner.
"""

import base64
import contextlib
import copy
import gc
import glob
import hashlib
import io
import itertools
import json
import os
import queue
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import unittest
import weakref

import mcp_stdio
from mcp_stdio import SchemaError, compile_schema, validate

HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, "mcp_stdio.py")
# The demo server as a module: it loads the cached bytecode that setUpModule()
# writes, where the script form compiles the whole file on every start.
# Child Pythons skip site (-S): nothing they run needs site-packages, and a
# machine's .pth files (one here costs 57 ms a start) would otherwise be much of
# the suite's time. The command line's own tests also run it as users do.
PY = [sys.executable, "-S"]
SERVE = PY + ["-m", "mcp_stdio"]
SHARED = os.path.join(os.path.dirname(HERE), "shared")
SUITE = os.path.join(SHARED, "json-schema-test-suite", "tests", "draft2020-12")
MCP_SCHEMAS = os.path.join(SHARED, "mcp-schema")
MODERN = "2026-07-28"
LEGACY = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
TIMEOUT = 10.0
# Tests that need packages from npm, a browser or a real host run only when
# MCP_STDIO_SLOW=1 is set (.ci/run sets it): the default run stays quick and offline.
SLOW = os.environ.get("MCP_STDIO_SLOW") == "1"
# The extensions of the module under test, by name. The suite also runs against the
# module rebuilt without one of them (Rebuilds): a test about an extension the module
# lacks is skipped, and every other test must pass as it does on the whole module.
EXTENSIONS = {"tasks": "io.modelcontextprotocol/tasks", "skills": "io.modelcontextprotocol/skills",
              "apps": "io.modelcontextprotocol/ui"}
SERVED = {name for name, key in EXTENSIONS.items()
          if any(row.key == key for row in mcp_stdio._EXTENSIONS)}


def about(*names):
    """Mark a test (or a class of them) as about these extensions: skipped without them."""
    missing = sorted(set(names) - SERVED)
    return unittest.skipIf(missing, "the module is built without %s" % " and ".join(missing))


def setUpModule():
    # Servers started by the tests import mcp_stdio from its cached bytecode, as
    # users' machines do; PYTHONDONTWRITEBYTECODE would make every start compile it.
    import importlib.util
    import py_compile
    cache = importlib.util.cache_from_source(SERVER)
    try:
        with open(cache, "rb") as f:
            header = f.read(16)
        st = os.stat(SERVER)
        fresh = header[8:16] == (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little") + \
            (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    except OSError:
        fresh = False
    if not fresh:                     # as the import system decides (a timestamp pyc)
        py_compile.compile(SERVER, cfile=cache, doraise=True)
    # The Ctrl-C tests signal the processes they start, which inherit an ignored SIGINT
    # (a run started in the background by a shell without job control has one): on a
    # terminal it never is.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def compact(value):
    """value as our encoder writes it: no spaces, keys in the order given."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def wait_for_lines(path, n, enough=None, timeout=20):
    """The first n lines of the file at path once it has them (a process writes it), or
    all its lines once enough(lines) says so."""
    deadline, lines = time.monotonic() + timeout, []
    while time.monotonic() < deadline:
        if os.path.exists(path):
            with open(path) as f:
                lines = f.read().splitlines()
            if enough is not None and enough(lines):
                return lines
            if enough is None and len(lines) >= n:
                return lines[:n]
        time.sleep(0.02)
    raise AssertionError("%s has %d lines, not %d" % (path, len(lines), n))


def own_script(test, name, body):
    """A server script of the test's own, in a folder removed after it: body (dedented)
    after the lines that import this checkout's mcp_stdio; return its path."""
    folder = tempfile.mkdtemp()
    test.addCleanup(shutil.rmtree, folder)
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write("import sys\nsys.path.insert(0, %r)\nimport mcp_stdio\n" % HERE +
                textwrap.dedent(body))
    return path


def process_alive(pid, within=0.0):
    """True when process pid still runs after within seconds (a zombie is not running)."""
    end = time.monotonic() + within
    while True:
        running = process_runs(pid)
        if not running or time.monotonic() >= end:
            return running
        time.sleep(0.05)


def process_runs(pid, proc="/proc"):
    """Whether process pid runs now: read from proc where the system has it (Linux), else
    asked of ps (macOS) or tasklist (Windows), which every such system has; never a
    guess (a check that cannot look would pass without looking)."""
    if os.path.isdir(proc):
        try:
            with open("%s/%d/stat" % (proc, pid)) as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except FileNotFoundError:
            return False
    if os.name == "nt":          # os.kill(pid, 0) would send CTRL_C_EVENT there
        out = subprocess.run(["tasklist", "/FI", "PID eq %d" % pid, "/NH", "/FO", "CSV"],
                             capture_output=True, text=True, check=True).stdout
        return '"%d"' % pid in out
    out = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True,
                         text=True).stdout.strip()
    return bool(out) and not out.startswith("Z")


def tearDownModule():
    for tmp in _VENDORED:                # what the run made once, for every test
        tmp.cleanup()
    del _VENDORED[:]


def modern_meta(**extra):
    meta = {"io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientCapabilities": {}}
    meta.update(extra)
    return meta


def init_msg(rid=1, version="2025-11-25", caps=None):
    return {"jsonrpc": "2.0", "id": rid, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": caps or {},
                       "clientInfo": {"name": "test", "version": "1"}}}


###############################################################################
# Wire conformance: validate messages against the official schemas ############
###############################################################################

_RESULT_DEFS = {
    "initialize": "InitializeResult", "ping": "EmptyResult", "logging/setLevel": "EmptyResult",
    "tools/list": "ListToolsResult", "tools/call": "CallToolResult",
    "server/discover": "DiscoverResult", "resources/list": "ListResourcesResult",
    "resources/templates/list": "ListResourceTemplatesResult",
    "resources/read": "ReadResourceResult", "prompts/list": "ListPromptsResult",
    "prompts/get": "GetPromptResult", "completion/complete": "CompleteResult",
    "resources/subscribe": "EmptyResult", "resources/unsubscribe": "EmptyResult",
    "subscriptions/listen": "SubscriptionsListenResult",
    # 2025-11-25's tasks (the 2026-07-28 extension has no definitions in the core schema):
    "tasks/get": "GetTaskResult", "tasks/list": "ListTasksResult",
    "tasks/cancel": "CancelTaskResult", "tasks/result": "GetTaskPayloadResult",
}
_NOTIFICATION_DEFS = {"notifications/progress": "ProgressNotification",
                      "notifications/message": "LoggingMessageNotification",
                      "notifications/cancelled": "CancelledNotification",
                      "notifications/subscriptions/acknowledged":
                          "SubscriptionsAcknowledgedNotification",
                      "notifications/tools/list_changed": "ToolListChangedNotification",
                      "notifications/resources/list_changed": "ResourceListChangedNotification",
                      "notifications/prompts/list_changed": "PromptListChangedNotification",
                      "notifications/resources/updated": "ResourceUpdatedNotification",
                      "notifications/elicitation/complete": "ElicitationCompleteNotification",
                      "notifications/tasks/status": "TaskStatusNotification"}
# The server's own requests: method -> definition.
_SERVER_REQUEST_DEFS = {"elicitation/create": "ElicitRequest",
                        "sampling/createMessage": "CreateMessageRequest",
                        "roots/list": "ListRootsRequest", "ping": "PingRequest"}


class _Definition:
    """One definition of a revision's compiled schema, checked as if compiled alone."""

    def __init__(self, whole, name):
        self.whole, self.name, self.prefix = whole, name, "/" + name

    def errors(self, value):
        out = []
        for e in self.whole.errors({self.name: value}):
            rest = e[len(self.prefix):]
            out.append("(root)" + rest if rest[:1] != "/" else rest)
        return out


class WireSchemas:
    """Validators for the definitions of the official schema.json of each revision."""

    _cache = {}

    @classmethod
    def available(cls):
        return os.path.isdir(MCP_SCHEMAS)

    @classmethod
    def validator(cls, rev, name):
        key = (rev, name)
        if key not in cls._cache:
            whole = cls._cache.get(rev)
            if whole is None:
                # One compile per revision: each definition compiled on its own
                # would compile the whole document again, a hundred times a run.
                path = os.path.join(MCP_SCHEMAS, rev, "schema.json")
                with open(path, encoding="utf-8") as f:
                    doc = json.load(f)
                defs = "$defs" if "$defs" in doc else "definitions"
                root = {k: v for k, v in doc.items() if k in ("$schema", defs)}
                root["properties"] = {n: {"$ref": "#/%s/%s" % (defs, n)} for n in doc[defs]}
                whole = cls._cache[rev] = compile_schema(root)
            cls._cache[key] = _Definition(whole, name) if name in whole.schema["properties"] \
                else None
        return cls._cache[key]

    @classmethod
    def problems(cls, rev, msg, method=None):
        """Return schema violations of one server message for revision rev (or [])."""
        if not cls.available():
            return []
        out = []

        def check(r, name, value):
            v = cls.validator(r, name)
            if v is not None:
                out.extend("%s %s: %s" % (r, name, e) for e in v.errors(value))

        if "error" in msg:
            # An id-less error is only expressible in the 2025-11-25 and later schemas.
            r = rev if ("id" in msg and rev in ("2024-11-05", "2025-03-26", "2025-06-18")) \
                else (rev if rev in ("2025-11-25", MODERN) else "2025-11-25")
            check(r, "JSONRPCErrorResponse" if r >= "2025-11-25" else "JSONRPCError", msg)
        elif "result" in msg:
            check(rev, "JSONRPCResultResponse" if rev >= "2025-11-25" else "JSONRPCResponse", msg)
            result = msg["result"] if isinstance(msg["result"], dict) else {}
            if result.get("resultType") == "input_required":
                check(rev, "InputRequiredResult", msg["result"])
            elif result.get("resultType") == "task":       # the tasks extension: not in the core
                if not {"taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs"} <= set(result):
                    out.append("%s CreateTaskResult lacks fields: %r" % (rev, sorted(result)))
            elif method == "tools/call" and "task" in result:
                check(rev, "CreateTaskResult", msg["result"])
            elif method in _RESULT_DEFS:
                check(rev, _RESULT_DEFS[method], msg["result"])
        elif "method" in msg and "id" in msg:
            check(rev, "JSONRPCRequest", msg)               # a request of the server's own
            if msg["method"] in _SERVER_REQUEST_DEFS:
                check(rev, _SERVER_REQUEST_DEFS[msg["method"]], msg)
            else:
                out.append("the server sent an unknown request %r" % msg["method"])
        elif "method" in msg:
            check(rev, "JSONRPCNotification", msg)
            if msg["method"] in _NOTIFICATION_DEFS:
                check(rev, _NOTIFICATION_DEFS[msg["method"]], msg)
        else:
            out.append("not a JSON-RPC message: %r" % (msg,))
        return out


###############################################################################
# Driving real server processes ###############################################
###############################################################################

def connect(server, emit=None, **kw):
    """A Connection whose diagnostics are kept in conn.reports instead of written to stderr."""
    reports = []
    conn = server.connection(emit, report=lambda line, detail=None: reports.append(line), **kw)
    conn.reports = reports
    return conn


def live_server(**options):
    """A live server: an echo tool, a note resource, a note template; grants apply."""
    m = mcp_stdio
    return m.Server("live", "1", live=True, tools=[m.Tool("echo", lambda a, c: "e")],
                    resources=[m.Resource("notes://a", lambda u, c: "A", name="a")],
                    templates=[m.ResourceTemplate("notes://x/{+rest}", lambda u, v, c: "X",
                                                  name="x")], **options)


# MCP's error-code policy: JSON-RPC's five codes, codes outside the range it reserves,
# and MCP's own only in the revisions that define them (-32002 resource not found in
# the legacy ones, -32042 at 2025-11-25, -32021 and -32022 in the modern era).
STANDARD_CODES = (-32700, -32600, -32601, -32602, -32603)


def code_problem(rev, msg):
    """Why msg's error code breaks MCP's error-code policy at revision rev, or None."""
    code = msg.get("error", {}).get("code") if type(msg.get("error")) is dict else None
    if code is None or code in STANDARD_CODES or not -32768 <= code <= -32000:
        return None
    if code == -32002 and rev in LEGACY or code == -32042 and rev == "2025-11-25" or \
            code in (-32021, -32022) and rev == MODERN:
        return None
    return "error code %d is not one to send at %s" % (code, rev)


class Transcript:
    """What both harnesses share: send messages, receive them checked."""

    def send(self, msg):
        if isinstance(msg, dict) and "id" in msg and "method" in msg:
            self.methods[json.dumps(msg["id"])] = msg["method"]
        self.send_bytes(json.dumps(msg).encode("utf-8") + b"\n")

    def recv(self, timeout=TIMEOUT, rev=None):
        """Return the next message, checked for framing and against the official schema."""
        line = self.recv_line(timeout)
        self.test.assertTrue(line.endswith(b"\n"))
        self.test.assertNotIn(b"\n", line[:-1])
        msg = json.loads(line)
        self.test.assertEqual(line, mcp_stdio.encode_message(msg), "non-canonical output")
        method = self.methods.get(json.dumps(msg.get("id"))) if "id" in msg else None
        problems = WireSchemas.problems(rev or self.rev or MODERN, msg, method)
        self.test.assertEqual(problems, [], "schema violations in %s" % line[:300])
        for m in msg if type(msg) is list else (msg,):
            self.test.assertIsNone(code_problem(rev or self.rev or MODERN, m), line[:300])
        return msg

    def request(self, msg, **kw):
        self.send(msg)
        return self.recv(**kw)

    def answer(self, msg, **kw):
        """Send a request and return its response; notifications before it go to self.heard."""
        self.send(msg)
        while True:
            m = self.recv(**kw)
            if "id" in m:
                return m
            self.heard = getattr(self, "heard", []) + [m]

    def open(self, version):
        """Start talking in an era: initialize for a legacy version, nothing for modern."""
        if version == MODERN:
            self.rev = MODERN
        else:
            self.initialize(version)
        return version == MODERN

    def initialize(self, version="2025-11-25", caps=None):
        self.rev = version if version in LEGACY else "2025-11-25"
        r = self.request(init_msg(0, version, caps))
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return r


def server_options(args):
    """Keyword options of a Server from command-line arguments, read through the options table."""
    flags = {o.flag: o for o in mcp_stdio._OPTIONS}
    args, options = list(args), {}
    while args:
        o = flags[args.pop(0)]
        options[o.name] = True if o.kind == "flag" else o.parse(args.pop(0))
    return options


class InProc(Transcript):
    """The interface of Proc over a Connection in this process: no threads, no pipes.

    Calls run at once on the test's thread; the clocks are fake and move only
    when advance() is called; diagnostics are collected in stderr.
    """

    seeds = iter(range(1, 1 << 30))

    def __init__(self, test, *args, server=None, seed=None):
        self.test = test
        self.server = server if server is not None else mcp_stdio.demo_server()
        self.server.configure(**server_options(args))
        self.now = 1000.0
        self.rng = random.Random(next(self.seeds) if seed is None else seed)
        self.lines = []
        self.raw = []
        self.stderr = b""
        self.rev = "2025-11-25"
        self.methods = {}
        self.conn = self.server.connection(self._emit, clock=lambda: self.now,
                                           wall_clock=lambda: 1.75e9 + self.now,
                                           random=self._random, report=self._report)

    def _emit(self, line):
        self.raw.append(line)
        self.lines.append(line)

    def _random(self, n):
        return bytes(self.rng.randrange(256) for _ in range(n))

    def _report(self, line, detail=None):
        self.stderr += ("mcp_stdio: %s\n%s" % (line, detail or "")).encode("utf-8")

    def advance(self, seconds):
        self.now += seconds

    def send_bytes(self, data):
        for item in self.conn.feed(data):
            if type(item) is bytes:
                self._emit(item)
            else:
                self.conn.run(item)

    def recv_line(self, timeout=None):
        if not self.lines:
            self.test.fail("no output from the server")
        return self.lines.pop(0)

    def silent(self, seconds=None):
        self.test.assertEqual(self.lines, [], "unexpected output")

    def close(self, timeout=None):
        for line in self.conn.close():
            self._emit(line)
        if self.conn.splitter.pending():
            self._report("input ended inside a message without a final LF; it was not executed")
            return 1
        return 0

    def kill(self):
        pass


class Proc(Transcript):
    """A server process driven through pipes; every line it writes is checked."""

    def __init__(self, test, *args, script=None, env=None):
        self.test = test
        cmd = (PY + [script] if script else SERVE) + list(args)
        e = dict(os.environ)
        e.pop("PYTHONIOENCODING", None)
        if env:
            e.update(env)
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, cwd=HERE, env=e)
        self.lines = queue.Queue()
        self.raw = []
        self.stderr = b""
        self.rev = "2025-11-25"  # revision used to validate what the server writes
        self.methods = {}        # request id key -> method, for result validation
        self._out = threading.Thread(target=self._read_out, daemon=True)
        self._out.start()
        self._err = threading.Thread(target=self._read_err, daemon=True)
        self._err.start()

    def _read_out(self):
        for line in iter(self.p.stdout.readline, b""):
            self.raw.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def _read_err(self):
        self.stderr = self.p.stderr.read()

    def send_bytes(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def recv_line(self, timeout=TIMEOUT):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.test.fail("no output from the server within %s s" % timeout)
        if line is None:
            self.lines.put(None)
            self.test.fail("the server closed stdout; stderr: %r" % self.stderr[-500:])
        return line

    def silent(self, seconds=0.3):
        """Assert nothing arrives within seconds."""
        try:
            line = self.lines.get(timeout=seconds)
        except queue.Empty:
            return
        self.lines.put(line)
        self.test.fail("unexpected output: %r" % (line,))

    def close(self, timeout=TIMEOUT):
        """Close stdin and return the exit status."""
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            return self.p.wait(timeout)
        finally:
            self._out.join(timeout)
            self._err.join(timeout)

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()
        for f in (self.p.stdin, self.p.stdout, self.p.stderr):
            try:
                f.close()
            except OSError:
                pass


class ProcTest(unittest.TestCase):
    """Base class: spawn servers that are always reaped."""

    def spawn(self, *args, **kw):
        p = Proc(self, *args, **kw)
        self.addCleanup(p.kill)
        return p


class InProcTest(unittest.TestCase):
    """Base class: the same tests over a Connection in this process."""

    def spawn(self, *args, **kw):
        return InProc(self, *args, **kw)


TEST_TOOLS = textwrap.dedent('''
    import os, subprocess, sys, time
    import mcp_stdio
    from mcp_stdio import Tool, ToolError, ToolResult

    def sleepy(a, ctx):
        time.sleep(a.get("seconds", 30))      # ignores cancellation on purpose
        return "slept"

    def polite(a, ctx):
        ctx.sleep(a.get("seconds", 30))
        return "cancelled" if ctx.is_cancelled else "done"

    def boom(a, ctx):
        raise RuntimeError("secret internal detail")

    def noisy(a, ctx):
        print("hello from print")
        sys.stdout.write("raw write\\n")
        sys.stdout.flush()
        os.write(1, b"fd one write\\n")
        subprocess.call(["echo", "child process output"])
        return "quiet"

    def big(a, ctx):
        return "x" * a["size"]

    def loud(a, ctx):
        for i in range(a.get("lines", 40000)):
            print("debug line %d %s" % (i, "x" * 40))
        return "printed"

    def bad_output(a, ctx):
        return {"n": "not a number"}

    def unserialisable(a, ctx):
        return ToolResult([{"type": "text", "text": "ok"}], structured={"s": {1, 2}})

    def leave(a, ctx):
        sys.exit(3)

    def logger(a, ctx):
        for level in ("debug", "info", "warning", "error"):
            ctx.log(level, "at " + level)
        for _ in range(a.get("repeat", 0)):
            ctx.log("info", "the same line")
        return "logged"

    def bad_content(a, ctx):
        return ToolResult([{"type": "image", "data": "***", "mimeType": "image/png"}])

    async def async_sleeper(a, ctx):
        import asyncio
        await asyncio.sleep(20)
        return "woke"

    LEAKED = []

    def leak_fds(a, ctx):
        while True:                        # until the process has no descriptor left
            LEAKED.append(os.open(os.devnull, os.O_RDONLY))

    def release_fds(a, ctx):
        while LEAKED:
            os.close(LEAKED.pop())
        return "released"

    def close_stdin(a, ctx):
        os.close(0)
        return "closed"

    def child_reads_stdin(a, ctx):
        r = subprocess.run([sys.executable, "-S", "-c", "import sys; print(len(sys.stdin.read()))"],
                           stdout=subprocess.PIPE, timeout=10)
        return r.stdout.decode().strip()

    def raw_stdout(a, ctx):
        sys.stdout.buffer.write(b"bytes to stdout\\n")
        sys.stdout.flush()
        sys.stdout.close()
        print("printed after close")
        return "ok"

    def mixed(a, ctx):
        return [{"type": "text", "text": "t", "_meta": {"k": 1}},
                {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
                {"type": "resource_link", "uri": "file:///x", "name": "x"}]

    obj = {"type": "object"}
    tools = [
        Tool("sleepy", sleepy, input_schema=obj),
        Tool("polite", polite, input_schema=obj),
        Tool("boom", boom),
        Tool("noisy", noisy),
        Tool("big", big, input_schema={"type": "object", "properties": {"size": {"type": "integer"}}}),
        Tool("bad_output", bad_output, output_schema={"type": "object", "properties": {"n": {"type": "number"}}}),
        Tool("unserialisable", unserialisable),
        Tool("leave", leave),
        Tool("logger", logger, input_schema=obj),
        Tool("bad_content", bad_content),
        Tool("mixed", mixed),
        Tool("quick", lambda a, ctx: "quick"),
        Tool("close_stdin", close_stdin),
        Tool("leak_fds", leak_fds),
        Tool("release_fds", release_fds),
        Tool("async_sleeper", lambda a, ctx: mcp_stdio._run_coroutine(async_sleeper(a, ctx), ctx)),
        Tool("child_reads_stdin", child_reads_stdin),
        Tool("raw_stdout", raw_stdout),
        Tool("loud", loud, input_schema=obj),
        Tool("short_timeout", sleepy, input_schema=obj, timeout=0.2),
        Tool("confirm_echo", mcp_stdio._demo_confirm_echo, input_schema={
            "type": "object", "properties": {"text": {"type": "string"}}}),
    ]

    def completer(argument, value, known):
        if value == "exit":
            sys.exit(3)
        if value == "slow":
            time.sleep(1.0)
        return [value + "!"]
    prompts = [mcp_stdio.Prompt("greet", lambda a, ctx: "hi", arguments=["name"],
                                complete=completer)]
''')
# The test server: tools that misbehave on purpose, options as name=value arguments.
TEST_SERVER = "import sys\nsys.path.insert(0, %r)\n" % HERE + TEST_TOOLS + textwrap.dedent('''
    if os.environ.get("TEST_NOFILE"):
        import resource
        n = int(os.environ["TEST_NOFILE"])
        resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))
    opts = {}
    for arg in sys.argv[1:]:
        k, v = arg.split("=")
        opts[k] = float(v) if "." in v else int(v)
    sys.exit(mcp_stdio.Server("test-server", "9.9", tools=tools, prompts=prompts,
                              **opts).run([]))
''')


def test_server(**options):
    """The test server's catalog as a Server object in this process."""
    namespace = {}
    exec(TEST_TOOLS, namespace)
    return mcp_stdio.Server("test-server", "9.9", tools=namespace["tools"],
                            prompts=namespace["prompts"], **options)


class ScriptTest(ProcTest):
    """Tests that use the test server script (tools that misbehave on purpose)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.script = os.path.join(cls.tmp.name, "test_server.py")
        with open(cls.script, "w", encoding="utf-8") as f:
            f.write(TEST_SERVER)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def spawn_script(self, *opts):
        return self.spawn(*opts, script=self.script)


###############################################################################
# Shared helpers: servers, sessions and probes the tests start ################
###############################################################################
#
# What the test classes below use: servers written as scripts, message builders,
# probes of the official SDKs, in the order they were written.


def err_code(msg):
    return msg["error"]["code"]


# Each worst case runs in a child that prints its name first and its CPU seconds after,
# so that a case that never ends (as on 0.7.0) fails the test by name instead of
# hanging it, and a loaded machine does not count against a case.
BACKTRACKING_CASES = textwrap.dedent(r'''
    import json, sys, time
    import mcp_stdio
    from unittest import mock
    # The default line limit; a quarter of it (and a quarter of the time) in the
    # default run: linear work on it is milliseconds, any backtracking minutes.
    SCALE = int(sys.argv[1])
    L = (1 << 20) // SCALE
    deep = b"[" * 40

    def decode(line):
        try:
            mcp_stdio.decode_message(line)
        except mcp_stdio.ProtocolError:
            pass

    def digits():
        with mock.patch.object(mcp_stdio, "_int_limit_in_force", lambda: False):
            decode(b'{"a":[' + b"1" * 4300 + (b"," + b"1" * 4300) * (L // 4301 - 1) + b"]}")

    def template(t):
        rt = mcp_stdio.ResourceTemplate(t, lambda *a: None, name="t")
        rt.match("x://" + "a-./" * (64 * 1024 // 4 // SCALE) + "?")     # 0.7.0: minutes
        rt.match("x://" + "a-." * (64 * 1024 // 3 // SCALE) + "!")

    def pattern(p, text):
        mcp_stdio.compile_schema({"type": "string", "pattern": p}).errors(text)

    def pattern_keys(p, key):
        mcp_stdio.compile_schema({"patternProperties": {p: {}}}).errors({key: 1})

    N = mcp_stdio._PATTERN_TEXT_LIMIT
    CASES = {
        "the 184-byte line": lambda: decode(
            b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"' + b"x" * 40 +
            b'\x01","b":' + b"[" * 40 + b"]" * 40 + b"}}"),
        "a control byte ends a long string": lambda: decode(deep + b'"' + b"x" * (L - 50) + b"\x01"),
        "the line ends inside a string": lambda: decode(deep + b'"' + b"x" * (L - 50)),
        "escaped quotes to the line's end": lambda: decode(deep + b'"' + b'\\"' * (L // 2 - 30)),
        "quotes and escapes, every other": lambda: decode(deep + b'"\\"' * (L // 3 - 20)),
        "bad escapes": lambda: decode(deep + b'"ab\\x' * (L // 5 - 10)),
        "blanks to the line's end": lambda: decode(deep + b" " * (L - 50)),
        "the nesting scan": lambda: mcp_stdio._nesting(b'"' + b'\\"' * (L // 2 - 1)),
        "runs of 4,300 digits": digits,
        "template {a}-{b}": lambda: template("x://{a}-{b}"),
        "template {a}.{b}.{c}": lambda: template("x://{a}.{b}.{c}"),
        "template {+a}/{b}": lambda: template("x://{+a}/{b}"),
        "template {a}{b}": lambda: template("x://{a}{b}"),
        "pattern [a-z]+-[0-9]+": lambda: pattern("[a-z]+-[0-9]+", "a" * N),
        "pattern (ab|a)*c": lambda: pattern("(ab|a)*c", "ab" * (N // 2)),
        "pattern with two overlapping parts": lambda: pattern(
            "^[^@]+@[^@]+[.][^@]+$", "a@" + "." * (N - 2) + "@"),
        "pattern over a long text": lambda: pattern("[a-z]+-[0-9]+", "a" * L),
        "patternProperties over a long key": lambda: pattern_keys("[a-z]+-[0-9]+", "a" * L),
        "a linear pattern on a long text": lambda: pattern("^[a-z]+([.][a-z]+)*$", "a." * L),
    }
    # These are bounded by the pattern text limit, not the line: a second each.
    FIXED = ("pattern [a-z]+-[0-9]+", "pattern (ab|a)*c", "pattern with two overlapping parts")
    for name, case in CASES.items():
        print(json.dumps([name, 1.0 if name in FIXED else 1.0 / SCALE]), flush=True)
        start = time.process_time()
        case()
        print(json.dumps(time.process_time() - start), flush=True)
''')


LIFESPAN_SERVER = textwrap.dedent('''
    import contextlib, os, sys
    sys.path.insert(0, %r)
    import mcp_stdio

    def log(event):
        with open(os.environ["LIFESPAN_LOG"], "a") as f:
            f.write(event + "\\n")

    @contextlib.contextmanager
    def lifespan(server):
        if os.environ.get("FAIL_SETUP"):
            raise RuntimeError("no database")
        log("setup")
        yield {"db": "connected"}
        log("teardown")
        if os.environ.get("FAIL_TEARDOWN"):
            raise RuntimeError("cannot close")

    server = mcp_stdio.Server("life", "1", lifespan=lifespan)

    @server.tool
    def db(ctx: mcp_stdio.Context) -> str:
        """The state made by the lifespan."""
        return ctx.state["db"]

    @server.tool
    def big() -> str:
        """A long answer."""
        return "x" * 300000

    sys.exit(server.run())
''') % HERE


_TREES = {}


def module_tree():
    """mcp_stdio.py's text and syntax tree, parsed once (a parse takes a quarter second)."""
    if not _TREES:
        import ast
        with open(SERVER, encoding="utf-8") as f:
            text = f.read()
        _TREES["module"] = text, ast.parse(text)
    return _TREES["module"]


def module_nodes():
    """Every node of mcp_stdio.py's syntax tree, listed once for the tests that look at all."""
    if "nodes" not in _TREES:
        import ast
        _TREES["nodes"] = list(ast.walk(module_tree()[1]))
    return _TREES["nodes"]


def used_before_defined(source, tree=None):
    """(name, line) for each module-level name that source uses at import before defining it.

    What runs at import is every top-level statement, class bodies, decorators and
    default values; function and lambda bodies run later.
    """
    import ast
    tree, defined = tree or ast.parse(source), {}
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            targets = [st.name]
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            targets = [(a.asname or a.name).split(".")[0] for a in st.names]
        else:
            targets = [x.id for t in getattr(st, "targets", [getattr(st, "target", None)])
                       if t is not None for x in ast.walk(t) if isinstance(x, ast.Name)]
        for name in targets:
            defined.setdefault(name, st.lineno)
    found = []
    for st in tree.body:
        stack = [st]
        while stack:
            x = stack.pop()
            if isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                args = x.args
                stack.extend(args.defaults + [d for d in args.kw_defaults if d is not None])
                stack.extend(getattr(x, "decorator_list", []))
                continue
            if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load) and \
                    defined.get(x.id, 0) > st.lineno:
                found.append((x.id, x.lineno))
            stack.extend(ast.iter_child_nodes(x))
    return sorted(found, key=lambda f: f[1])


def crossings(source, tree=None):
    """{(user, owner): names} of source's sections (titled by banners): each module-level
    name a section uses at import or at run time that a section below it defines (owner),
    the appendices' names excepted (libraries of their own, usable from anywhere). A name
    a function binds for itself (a parameter, a local, an import) is its own."""
    import ast
    tree, lines = tree or ast.parse(source), source.split("\n")
    banners = [(i + 1, line[2:].rstrip("# ").rstrip()) for i, line in enumerate(lines)
               if line.startswith("# ") and line.endswith("##") and i and
               lines[i - 1].startswith("####")]
    rank = {title: k for k, (_, title) in enumerate(banners)}

    def section_at(lineno):
        return next((title for at, title in reversed(banners) if at <= lineno), "")
    owners = {}
    for st in tree.body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [st.name]
        else:
            names = [x.id for t in getattr(st, "targets", [getattr(st, "target", None)])
                     if t is not None for x in ast.walk(t) if isinstance(x, ast.Name)]
        for name in names:
            owners.setdefault(name, section_at(st.lineno))

    def own_names(fn):
        args = fn.args
        bound = {a.arg for a in args.args + args.kwonlyargs + getattr(args, "posonlyargs", [])}
        bound |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        if isinstance(fn, ast.Lambda):
            return bound
        for x in ast.walk(fn):
            if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store):
                bound.add(x.id)
            elif isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and \
                    x is not fn:
                bound.add(x.name)
            elif isinstance(x, (ast.Import, ast.ImportFrom)):
                bound |= {(a.asname or a.name).split(".")[0] for a in x.names}
            elif isinstance(x, ast.ExceptHandler) and x.name:
                bound.add(x.name)
            elif isinstance(x, ast.arg):
                bound.add(x.arg)
        return bound - {n for x in ast.walk(fn) if isinstance(x, ast.Global) for n in x.names}
    found, stack = {}, [(st, frozenset()) for st in tree.body]
    while stack:
        x, bound = stack.pop()
        if isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            bound = bound | own_names(x)
        if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load) and x.id in owners and \
                x.id not in bound:
            user, owner = section_at(x.lineno), owners[x.id]
            if rank.get(owner, -1) > rank.get(user, -1) and not owner.startswith("Appendix"):
                found.setdefault((user, owner), set()).add(x.id)
        stack.extend((c, bound) for c in ast.iter_child_nodes(x))
    return {pair: sorted(names) for pair, names in found.items()}


def private_reads(source):
    """Each attribute with a leading underscore that source reads of an object not its own
    (anything but self), written as it is read (getattr with a constant name too)."""
    import ast
    tree, found = ast.parse(textwrap.dedent(source)), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and \
                not node.attr.startswith("__") and not (
                    isinstance(node.value, ast.Name) and node.value.id == "self"):
            found.append((node.lineno, node.col_offset, ast.unparse(node)))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) in (
                "getattr", "setattr", "hasattr") and len(node.args) > 1 and \
                isinstance(node.args[1], ast.Constant) and \
                str(node.args[1].value).startswith("_"):
            found.append((node.lineno, node.col_offset, ast.unparse(node)))
    return [f[2] for f in sorted(found)]


def section(name):
    """The source of one banner section of mcp_stdio.py, banners excluded."""
    with open(SERVER, encoding="utf-8") as f:
        text = f.read()
    start = text.index("\n# %s #" % name)
    start = text.index("\n", text.index("\n", start + 1) + 1)
    end = text.index("\n####", start + 1)
    return text[start:end]


def module_without(source, name):
    """The module's source without an extension's section (from its banner to the next),
    its row of _EXTENSIONS, and its classes among the bases of Server, Client and
    Context."""
    banner = "#" * 79 + "\n# "
    start = source.index(banner + {"tasks": "Tasks: ", "skills": "Skills: ",
                                   "apps": "MCP Apps: "}[name])
    end = source.index(banner, start + len(banner) + 80)
    classes = re.findall(r"(?m)^class (\w+)", source[start:end])
    source = source[:start] + source[end:]
    for cls in classes:          # a base named in a class statement: "(A, cls, B):"
        source = re.sub(r"(?m)^(class \w+\([^)\n]*?)(?:, %s\b|%s, )" % (cls, cls), r"\1",
                        source)
    table = source.index(banner + "Extensions: what each adds")
    row = source.index("    _Extension(%s_KEY," % name.upper(), table)
    after = min(i for i in (source.find("\n    _Extension(", row + 1),
                            source.index("\n)\n", row)) if i > 0) + 1
    return source[:row] + source[after:]


def built_module(test, source):
    """A folder holding source as mcp_stdio.py, compiled once (its servers start with -m, from
    the bytecode); the module's own folder when source is the module's."""
    with open(SERVER, encoding="utf-8") as f:
        if f.read() == source:
            return HERE
    import importlib.util
    import py_compile
    tmp = tempfile.TemporaryDirectory()
    test.addCleanup(tmp.cleanup)
    path = os.path.join(tmp.name, "mcp_stdio.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    py_compile.compile(path, cfile=importlib.util.cache_from_source(path), doraise=True)
    return tmp.name


def library_cut(source):
    """The module's source cut at the Commands banner: the library (and the appendices)."""
    return source[:source.index("#" * 79 + "\n# Commands: ")]


def checkout_with(test, source):
    """A folder holding this checkout's tests, README and examples beside source as
    mcp_stdio.py, removed after test."""
    tmp = tempfile.TemporaryDirectory()
    test.addCleanup(tmp.cleanup)
    for entry in ("test_mcp_stdio.py", "README.md", "pyproject.toml", "examples", "benchmarks"):
        path = os.path.join(HERE, entry)
        (shutil.copytree if os.path.isdir(path) else shutil.copy)(
            path, os.path.join(tmp.name, entry))
    with open(os.path.join(tmp.name, "mcp_stdio.py"), "w", encoding="utf-8") as f:
        f.write(source)
    return tmp.name


def suite_in(folder, *names):
    """Run the tests named (all by default) in folder, without the MCP_STDIO_ variables:
    (exit status, output, the failures' reports, not the tail: a test's output can fill it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCP_STDIO_")}
    p = subprocess.Popen(PY + ["-m", "unittest", "-v"] + ["test_mcp_stdio." + n for n in names],
                         cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT)
    out = p.communicate(timeout=600)[0].decode(errors="replace")
    failed = re.findall(r"(?ms)^={60,}\n(?:FAIL|ERROR): .*?(?=^={60,}|^-{60,}\nRan )", out)
    return p.returncode, out, "".join(failed)


# A small extension of a test's own, added as the Extensions section says: a section and
# a row. It has a method, a declaration, and an admit hook that refuses one tool.
HELLO_SECTION = "#" * 79 + "\n# Hello: a test's own extension " + "#" * 47 + "\n" + "#" * 79 + '''

HELLO_KEY = "io.github.mcp-stdio-test/hello"


def _say_hello(conn, call):
    return {"hello": (call.params or {}).get("name", "world")}


def _declare_hello(server, revision, caps):
    caps.setdefault("extensions", {})[HELLO_KEY] = {"greets": True}


def _hello_admit(conn, call, tool):
    if tool.name == "divide":
        raise ProtocolError(-31999, "divide is closed today", {"tool": tool.name})
    return None


'''


HELLO_ROW = '''    _Extension(HELLO_KEY, declare=_declare_hello, admit=_hello_admit,
               routes={"hello/say": _Route(_say_hello)}),
'''


def module_with_hello(source):
    """The module's source with the hello extension's section before the Extensions
    section, and its row first in _EXTENSIONS."""
    banner = "#" * 79 + "\n# Extensions: what each adds"
    at = source.index(banner)
    source = source[:at] + HELLO_SECTION + source[at:]
    table = source.index("\n_EXTENSIONS = (\n") + len("\n_EXTENSIONS = (\n")
    return source[:table] + HELLO_ROW + source[table:]


import dataclasses  # noqa: E402


import datetime  # noqa: E402


import enum  # noqa: E402


import typing  # noqa: E402


from typing import Annotated, Literal, Optional, TypedDict, Union  # noqa: E402


from mcp_stdio import Field  # noqa: E402


def tool_result(tool, value, revision):
    """The CallToolResult _tool_answer makes of value for a call of tool at revision (no
    task keeps it, no middleware reads it)."""
    import types
    call = types.SimpleNamespace(target=tool, revision=revision, keeper=None,
                                 conn=types.SimpleNamespace(_chains={}))
    return mcp_stdio._tool_answer(call, None, value)[0]


def call_tool(server, name, args, modern=True):
    """Call a tool on a new connection: modern, or legacy after initialize (2025-11-25)."""
    conn = connect(server)
    if not modern:
        conn.receive_line(json.dumps(init_msg(0)).encode())
        conn.receive_line(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
    out = conn.receive_line(json.dumps(req_msg(1, "tools/call", {"name": name, "arguments": args},
                                               modern)).encode())
    if isinstance(out[0], mcp_stdio.Call):
        out[0].run()
        return json.loads(conn.outbox.pop())
    return json.loads(out[0])


EXAMPLE_CALLS = {
    "middleware_server.py": [
        ("greet", {"name": "Ada"}, lambda r: r["content"] == [
            {"type": "text", "text": "Hello, Ada!"}]),
    ] * 5 + [
        ("greet", {"name": "Bo"}, lambda r: r["isError"] and r["content"][0]["text"].startswith(
            "Rate limit: greet runs at most 5 times in 10 s; try again in ")),
    ],
    "notes_server.py": [
        ("add_note", {"name": "groceries", "text": "eggs, milk"},
         lambda r: r["structuredContent"] == {"uri": "notes://groceries", "characters": 10}),
        ("search_notes", {"query": "MILK"},
         lambda r: r["structuredContent"] == {"matches": ["groceries"]}),
    ],
    "progress_server.py": [
        ("hash_rounds", {"text": "x", "rounds": 20000},
         lambda r: r["structuredContent"]["rounds"] == 20000),
        ("wait_then_echo", {"text": "later", "seconds": 0.01},
         lambda r: r["content"] == [{"type": "text", "text": "later"}]),
    ],
    "typed_server.py": [
        ("add_note", {"name": "a", "text": "hello"},
         lambda r: r["content"] == [{"type": "text", "text": "added a"}]),
        ("count_notes", {}, lambda r: r["content"][0]["text"] == "1"),
        ("slow_sum", {"numbers": [1, 2.5]}, lambda r: r["content"][0]["text"] == "3.5"),
        ("loud_shout", {"text": "hi"}, lambda r: r["content"][0]["text"] == "HI"),
    ],
}


ELICIT_CAPS = {"elicitation": {}}


NAME_FORM = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


ALL_CAPS = {"elicitation": {"form": {}, "url": {}}, "sampling": {}, "roots": {}}


SAMPLED = {"role": "assistant", "content": {"type": "text", "text": "Hello there"},
           "model": "test-model", "stopReason": "endTurn"}


ROOTS = {"roots": [{"uri": "file:///work", "name": "work"}, {"uri": "file:///tmp"}]}


def asking_server():
    """Handlers that ask: three questions at once, a URL, a requirement, prompts and resources."""
    m = mcp_stdio
    server = m.Server("ask", "1")

    @server.tool
    def trio(ctx: m.Context) -> str:
        a = ctx.ask(user_name=m.Form("What is your name?", NAME_FORM),
                    greeting=m.Sample("Generate a greeting", max_tokens=50),
                    client_roots=m.Roots())
        return "%s|%s|%s|%s" % (a["user_name"].action, (a["user_name"].content or {}).get("name"),
                                a["greeting"].text, ",".join(r["uri"] for r in a["client_roots"]))

    @server.tool
    def rounds(ctx: m.Context) -> str:
        first = ctx.elicit("Step 1", NAME_FORM, key="step1").content["name"]
        return first + "/" + ctx.sample("Step 2", key="step2").text

    @server.tool
    def link(ctx: m.Context) -> str:
        q = m.OpenURL("Sign in, please.", "https://example.com/login")
        answer = ctx.ask(login=q)["login"]
        sent = ctx.elicitation_complete(q)
        return "%s %s" % (answer.action, sent)

    @server.tool
    def needs(ctx: m.Context) -> str:
        ctx.require("sampling", "roots")
        return "ok"

    @server.tool
    def twice(ctx: m.Context) -> str:
        ctx.elicit("a", NAME_FORM, key="k")
        ctx.elicit("b", NAME_FORM, key="k")
        return "never"

    @server.tool
    def swallow(ctx: m.Context) -> str:
        try:
            return ctx.sample("x").text
        except Exception:          # the handler cannot swallow an unanswered question
            return "swallowed"

    @server.prompt
    def topic(ctx=None) -> str:
        return "Write about " + ctx.sample("Pick a topic", key="pick").text

    @server.resource("ask://roots")
    def where(ctx):
        return "\n".join(r["uri"] for r in ctx.roots(key="roots"))
    return server


CTRL_C_SERVER = "import sys\nsys.path.insert(0, %r)\n" % HERE + textwrap.dedent('''
    import os
    import mcp_stdio
    server = mcp_stdio.Server("waits", "1")

    def wait(ctx):
        with open(os.environ["MARK"], "a") as f:
            f.write("started\\n")
        seen = ctx.sleep(20)
        with open(os.environ["MARK"], "a") as f:
            f.write("cancelled=%s\\n" % seen)
        return "done"

    @server.tool
    def plain(ctx: mcp_stdio.Context) -> str:
        """Waits for a cancellation."""
        return wait(ctx)

    @server.tool(task="optional")
    def long(ctx: mcp_stdio.Context) -> str:
        """Waits for a cancellation, as a task."""
        return wait(ctx)

    raise SystemExit(server.run([]))
''')


# The conformance suite's scenarios about asking the client, per revision.
CONFORMANCE_SCENARIOS = [(MODERN, s) for s in (
    "input-required-result-basic-elicitation", "input-required-result-basic-sampling",
    "input-required-result-basic-list-roots", "input-required-result-request-state",
    "input-required-result-multiple-input-requests", "input-required-result-multi-round",
    "input-required-result-missing-input-response", "input-required-result-non-tool-request",
    "server-stateless")] + [("2025-11-25", s) for s in (
        "tools-call-sampling", "tools-call-elicitation", "elicitation-sep1034-defaults",
        "elicitation-sep1330-enums")] + [("2025-06-18", s) for s in (
            "tools-call-sampling", "tools-call-elicitation")]


# A script for the official TypeScript SDK's client (1.32, its experimental task API):
# it runs task tools of examples/conformance/tasks_server.py at 2025-11-25 and prints
# one line per outcome. Node finds the SDK by the absolute paths filled in.
TS_TASKS_SCRIPT = """
import { Client } from "%(sdk)s/dist/esm/client/index.js";
import { StdioClientTransport } from "%(sdk)s/dist/esm/client/stdio.js";
import { ElicitRequestSchema, CallToolResultSchema } from "%(sdk)s/dist/esm/types.js";
import { CreateTaskResultSchema } from "%(sdk)s/dist/esm/experimental/tasks/types.js";
const transport = new StdioClientTransport({command: %(python)s, args: [%(server)s]});
const client = new Client({name: "ts-sdk", version: "1"}, {capabilities: {
  elicitation: {form: {}}, tasks: {requests: {elicitation: {create: {}}}}}});
client.setRequestHandler(ElicitRequestSchema, async (req) => {
  const task = (req.params._meta || {})["io.modelcontextprotocol/related-task"];
  console.log("asked " + JSON.stringify(req.params.message) + (task ? " for a task" : ""));
  return {action: "accept", content: {confirm: true, name: "Ada"}};
});
await client.connect(transport);
console.log("tasks " + JSON.stringify(client.getServerCapabilities().tasks));
await client.listTools();     // the SDK learns from the listing which tools run as tasks
async function run(name, args) {
  const seen = [];
  for await (const m of client.experimental.tasks.callToolStream(
      {name, arguments: args, task: {ttl: 60000}}, CallToolResultSchema)) {
    if (m.type === "taskCreated") seen.push("created");
    else if (m.type === "result") seen.push("result " + m.result.content[0].text);
    else if (m.type === "error") seen.push("error");
  }
  console.log(name + ": " + seen.join(", "));
}
await run("slow_compute", {seconds: 0.3});
await run("confirm_delete", {filename: "a.txt"});
await run("test_tool_with_task", {});
await run("failing_job", {});
await run("slow_compute", {seconds: "soon"});   // bad arguments: still a task, failed
const made = await client.request({method: "tools/call", params: {name: "slow_compute",
  arguments: {seconds: 30}, task: {ttl: 60000}}}, CreateTaskResultSchema);
console.log("cancel: " + (await client.experimental.tasks.cancelTask(made.task.taskId)).status);
await new Promise((done) => setTimeout(done, 300));
console.log("then: " + (await client.experimental.tasks.getTask(made.task.taskId)).status);
const listed = await client.experimental.tasks.listTasks();
console.log("listed: " + listed.tasks.map((t) => t.status).join(","));
await client.close();
"""


INSPECTOR_TASK_SERVER = """
import sys
sys.path.insert(0, %r)
import mcp_stdio
server = mcp_stdio.Server("research", "1")
@server.tool(task="required")
def research(topic: str, ctx: mcp_stdio.Context) -> str:
    "Research a topic, as a task."
    for step in range(3):
        ctx.progress(step + 1, 3, "step %%d" %% (step + 1))
    return "Found three things about %%s." %% topic
raise SystemExit(server.run([]))
"""


EVERY_ANNOTATION_SERVER = textwrap.dedent('''
    import dataclasses, datetime, decimal, enum, pathlib, sys, typing, uuid
    sys.path.insert(0, %r)
    import mcp_stdio
    from typing import Annotated, Dict, List, Literal, Optional, Tuple, TypedDict, Union

    server = mcp_stdio.Server("types", "1")

    class Color(enum.Enum):
        RED = "red"
        BLUE = "blue"

    @dataclasses.dataclass
    class Point:
        x: float
        y: float = 0.0
        label: Optional[str] = None

    class Options(TypedDict, total=False):
        depth: int
        tags: List[str]

    @server.tool
    def scalars(s: str, i: int, f: float, b: bool, n: Optional[int] = None,
                u: Union[int, str] = 1, raw: bytes = b"") -> str:
        "Scalars."
        return s

    @server.tool
    def collections(xs: List[str], m: Dict[str, int], t: Tuple[int, str],
                    many: Tuple[float, ...] = (), unique: typing.Set[int] = frozenset()) -> dict:
        "Collections."
        return {}

    @server.tool
    def choices(mode: Literal["a", "b"], color: Color = Color.RED,
                level: Annotated[int, mcp_stdio.Field(minimum=1, maximum=5)] = 1) -> Color:
        "Choices."
        return color

    @server.tool
    def records(p: Point, options: Optional[Options] = None,
                points: Optional[List[Point]] = None) -> Point:
        "Records."
        return p

    @server.tool
    def values(when: datetime.datetime, day: datetime.date, at: datetime.time,
               span: datetime.timedelta, key: uuid.UUID, amount: decimal.Decimal,
               path: pathlib.Path) -> Tuple[str, int]:
        "Values."
        return ("", 0)

    raise SystemExit(server.run())
''')


def call_msg(rid, name, args=None, meta=None):
    params = {"name": name, "arguments": args or {}}
    if meta is not None:
        params["_meta"] = meta
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}


def req_msg(rid, method, params=None, modern=False):
    params = dict(params or {})
    if modern:
        params["_meta"] = modern_meta()
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


def catalog_server(kind):
    """25 tools, and with kind "all" 25 resources, 25 prompts and a template; pages of 10."""
    m = mcp_stdio
    tools = [m.Tool("t%02d" % i, lambda a, c: "x") for i in range(25)]
    resources = [m.Resource("res://%02d" % i, lambda u, c: u, name="r%02d" % i,
                            title="R", icons=[{"src": "https://x/i.png"}],
                            annotations={"priority": 0.5, "lastModified": "2026-01-01T00:00:00Z"})
                 for i in range(25)]
    prompts = [m.Prompt("p%02d" % i, lambda a, c: "hi", arguments=[{"name": "a", "title": "A"}])
               for i in range(25)]

    def fail(uri, variables, ctx):
        raise m.ResourceNotFound(uri)
    templates = [m.ResourceTemplate("res://missing/{id}", fail, name="missing")]
    opts = {"tools": tools}
    if kind == "all":
        opts.update(resources=resources, prompts=prompts, templates=templates)
    return m.Server("catalog", "1", page_size=10, **opts)


def task_server(**options):
    """Tools of every task mode: forbidden (plain), optional, required; one that fails."""
    server = mcp_stdio.Server("tasks", "1", **options)

    @server.tool
    def plain(x: int) -> str:
        """Never a task."""
        return "plain %d" % x

    @server.tool(task="optional")
    def maybe(x: int, ctx: mcp_stdio.Context) -> str:
        """May be a task."""
        ctx.progress(1, 2, "half way")
        return "maybe %d" % x

    @server.tool(task="required")
    def must() -> str:
        """Always a task."""
        return "must"

    @server.tool(task="optional")
    def oops() -> str:
        """Fails as a tool does."""
        raise mcp_stdio.ToolError("It went wrong.")

    @server.tool(task="optional")
    def asks(ctx: mcp_stdio.Context) -> str:
        """Asks the user first."""
        return "ok" if ctx.elicit("Sure?", {"type": "object", "properties": {
            "yes": {"type": "boolean"}}}).accepted else "no"

    @server.tool(task="required", task_start="handler")
    def asks_then_task(ctx: mcp_stdio.Context) -> str:
        """Asks the user, then goes on as a task."""
        answer = ctx.elicit("Sure?", {"type": "object", "properties": {
            "yes": {"type": "boolean"}}})
        ctx.start_task()
        return "ok" if answer.accepted else "no"
    return server


def tasks_meta(**extra):
    return modern_meta(**{"io.modelcontextprotocol/clientCapabilities": dict(
        {"extensions": {"io.modelcontextprotocol/tasks": {}}}, **extra)})


def task_call(conn, msg, lines):
    """Feed msg (a task-augmented tools/call) and return its Call; its task's answer,
    sent on admission, goes to lines."""
    out = conn.feed(json.dumps(msg).encode() + b"\n")
    lines += [x for x in out if type(x) is bytes]
    call, = [x for x in out if type(x) is not bytes]
    return call


# Front matter and what the npm yaml package (the YAML 1.2 reader the official
# conformance suite uses) makes of it, or the refusal of what lies outside the
# supported subset (anchors, tags, complex keys, nested flow, infinities...).
FRONT_MATTER_CORPUS = [
    ('---\nname: pdf-processing\ndescription: Extract text and tables from PDF files, fill forms, merge documents.\n---\n# Body\n',
     {'description': 'Extract text and tables from PDF files, fill forms, merge documents.', 'name': 'pdf-processing'}),
    ('---\nname: pdf\ndescription: >-\n  Use this skill whenever the user wants to do anything with PDF files.\n  This includes reading or extracting text.\nlicense: Proprietary. LICENSE.txt has complete terms\n---\n# Body\n',
     {'description': 'Use this skill whenever the user wants to do anything with PDF files. This includes reading or extracting text.', 'license': 'Proprietary. LICENSE.txt has complete terms', 'name': 'pdf'}),
    ('---\nname: x\ndescription: |\n  line one\n  line two\n\n  after blank\nmetadata:\n  author: example-org\n  version: "1.0"\n---\n# Body\n',
     {'description': 'line one\nline two\n\nafter blank\n', 'metadata': {'author': 'example-org', 'version': '1.0'}, 'name': 'x'}),
    ("---\nname: x\ndescription: 'single ''quoted'' text'\nallowed-tools: Bash(git:*) Read Write\n---\n# Body\n",
     {'allowed-tools': 'Bash(git:*) Read Write', 'description': "single 'quoted' text", 'name': 'x'}),
    ('---\nname: x\ndescription: "double \\"quoted\\" \\u00e9 \\t tab"\nversion: 1.0\ncount: 3\nratio: 0.5\nflag: true\nnothing: null\ntilde: ~\nempty:\n---\n# Body\n',
     {'count': 3, 'description': 'double "quoted" é \t tab', 'empty': None, 'flag': True, 'name': 'x', 'nothing': None, 'ratio': 0.5, 'tilde': None, 'version': 1}),
    ('---\nname: x\ndescription: a plain\n  multi-line scalar\n  over three lines\ntags: [a, b, "c d", 1, true]\nmap: {k: v, n: 2}\n---\n# Body\n',
     {'description': 'a plain multi-line scalar over three lines', 'map': {'k': 'v', 'n': 2}, 'name': 'x', 'tags': ['a', 'b', 'c d', 1, True]}),
    ('---\nname: x\ndescription: d\nlist:\n  - one\n  - two: 2\n    three: 3\n  -\n    deep: yes\n  - - nested\n    - seq\n---\n# Body\n',
     {'description': 'd', 'list': ['one', {'three': 3, 'two': 2}, {'deep': 'yes'}, ['nested', 'seq']], 'name': 'x'}),
    ('---\nname: x\ndescription: d\nlist:\n- a\n- b\nnext: 1\n---\n# Body\n',
     {'description': 'd', 'list': ['a', 'b'], 'name': 'x', 'next': 1}),
    ('---\nname: x # comment\n# full comment\ndescription: d  # trailing\nurl: http://example.com/#anchor\nhash: a#b\n---\n# Body\n',
     {'description': 'd', 'hash': 'a#b', 'name': 'x', 'url': 'http://example.com/#anchor'}),
    ('---\nname: x\ndescription: >\n  folded\n  text\n\n  para two\n    more indented\n  back\nkeep: |+\n  kept\n\nstrip: |-\n  stripped\n\n---\n# Body\n',
     {'description': 'folded text\npara two\n  more indented\nback\n', 'keep': 'kept\n\n', 'name': 'x', 'strip': 'stripped'}),
    ('---\nname: x\ndescription: d\noct: 0o17\nhex: 0x1F\nexp: 1e3\nneg: -5\nplus: +7\ndot: .5\nver: 1.2.3\nyes: yes\nno: No\nOn: on\n---\n# Body\n',
     {'On': 'on', 'description': 'd', 'dot': 0.5, 'exp': 1000, 'hex': 31, 'name': 'x', 'neg': -5, 'no': 'No', 'oct': 15, 'plus': 7, 'ver': '1.2.3', 'yes': 'yes'}),
    ('---\nname: x\ndescription: d\nquoted key: 1\n"q": 2\n\'single\': 3\n---\n# Body\n',
     {'description': 'd', 'name': 'x', 'q': 2, 'quoted key': 1, 'single': 3}),
    ('---\nname: x\ndescription: "multi\n  line double\n\n  with blank"\nother: \'multi\n  single\'\n---\n# Body\n',
     {'description': 'multi line double\nwith blank', 'name': 'x', 'other': 'multi single'}),
    ('---\nname: x\ndescription: d\nanchor: &a 1\nref: *a\n---\n# Body\n',
     'refused: anchors are outside the supported YAML subset'),
    ('---\nname: x\ndescription: d\ntagged: !!str 1\n---\n# Body\n',
     'refused: tags are outside the supported YAML subset'),
    ('---\nname: x\nname: y\ndescription: dup\n---\n# Body\n',
     'refused: the key "name" appears twice'),
    ('---\nname: x\ndescription: d\n  bad: indent\n---\n# Body\n',
     "refused: a 'key: value' inside a plain scalar (indentation?)"),
    ('---\nname: x\n\tdescription: tab\n---\n# Body\n',
     'refused: a tab in indentation'),
    ('---\nname: x\ndescription: d\ninf: .inf\n---\n# Body\n',
     'refused: .inf is a number JSON cannot carry'),
    ('---\nname: x\ndescription: d\nlit: |2\n    two extra\n  base\n\n---\n# Body\n',
     {'description': 'd', 'lit': '  two extra\nbase\n', 'name': 'x'}),
    ('---\nname: x\ndescription: d\nnested:\n  deeper:\n    deepest: [1, 2]\n  sibling: s\n---\n# Body\n',
     {'description': 'd', 'name': 'x', 'nested': {'deeper': {'deepest': [1, 2]}, 'sibling': 's'}}),
    ('---\nname: x\ndescription: d\n? complex\n: value\n---\n# Body\n',
     'refused: complex keys are outside the supported YAML subset'),
    ('---\nname: x\ndescription: "esc \\\\ backslash \\x41 \\U0001F600"\n---\n# Body\n',
     {'description': 'esc \\ backslash A 😀', 'name': 'x'}),
    ("---\nname: x\ndescription: d\nempty_list: []\nempty_map: {}\nstr_colon: 'a: b'\ntime: 12:30\n---\n# Body\n",
     {'description': 'd', 'empty_list': [], 'empty_map': {}, 'name': 'x', 'str_colon': 'a: b', 'time': '12:30'}),
    ('---\nname: x\ndescription: "line \\\n  joined"\n---\n# Body\n',
     {'description': 'line joined', 'name': 'x'}),
    ('---\nname: x\ndescription: d\nlist:\n  - a # c\n  # comment\n  - b\n---\n# Body\n',
     {'description': 'd', 'list': ['a', 'b'], 'name': 'x'}),
    ('---\nname: x\ndescription: d\n\n---\n# Body\n',
     {'description': 'd', 'name': 'x'}),
    ('---\n\n---\n# Body\n',
     {}),
    ('no front matter\n',
     "refused: a SKILL.md starts with a '---' line, then YAML front matter"),
    ('---\nname: x\ndescription: d\n',
     "refused: the front matter has no closing '---' line"),
    ('---\nname: x\ndescription: >-\n  Multi\n  line\nlicense: MIT\ncompatibility: Requires Python 3.10+\nmetadata:\n  short-description: Short\n  category: tools\n---\n# Body\n',
     {'compatibility': 'Requires Python 3.10+', 'description': 'Multi line', 'license': 'MIT', 'metadata': {'category': 'tools', 'short-description': 'Short'}, 'name': 'x'}),
    ("---\nname: x\ndescription: 'it''s'\nk: -\nj: - x\n---\n# Body\n",
     "refused: a sequence entry on its key's line (put it on the next line)"),
    ('---\nname: x\ndescription: d\nfolded_keep: >+\n  a\n  b\n\n\nz: 1\n---\n# Body\n',
     {'description': 'd', 'folded_keep': 'a b\n\n\n', 'name': 'x', 'z': 1}),
    ('---\nname: x\ndescription: d\nspaces:    lots   of   space   \nunicode: héllo wörld ✓\n---\n# Body\n',
     {'description': 'd', 'name': 'x', 'spaces': 'lots   of   space', 'unicode': 'héllo wörld ✓'}),
    ('---\nname: x\ndescription: d\nflow_multi: [a,\n  b,\n  c]\n---\n# Body\n',
     {'description': 'd', 'flow_multi': ['a', 'b', 'c'], 'name': 'x'}),
    ('---\nname: x\ndescription: d\n---\nextra: doc\n---\n# Body\n',
     {'description': 'd', 'name': 'x'}),
    ('---\nname: \'x\'\ndescription: "d"\n\'key with: colon\': v\n---\n# Body\n',
     {'description': 'd', 'key with: colon': 'v', 'name': 'x'}),
    ('---\nname: x\ndescription: Use when: the user asks\n---\n# Body\n',
     "refused: a ': ' inside a plain value (quote the value)"),
    ('---\nname: x\ndescription: "Use when: the user asks"\n---\n# Body\n',
     {'description': 'Use when: the user asks', 'name': 'x'}),
    ('---\nname: x\ndescription: -dash start\nb: :colon start\nc: a - b\nd: \'x\' \ne: x\'y\nf: x"y\n---\n# Body\n',
     {'b': ':colon start', 'c': 'a - b', 'd': 'x', 'description': '-dash start', 'e': "x'y", 'f': 'x"y', 'name': 'x'}),
    ('---\nname: x\r\ndescription: crlf\r\nlist:\r\n  - a\r\n\n---\n# Body\n',
     {'description': 'crlf', 'list': ['a'], 'name': 'x'}),
    ('---\nname: x\ndescription: d\ntrailing_colon: abc:\nurl: https://a.b/c?d=e&f=g\n---\n# Body\n',
     "refused: a ': ' inside a plain value (quote the value)"),
    ('---\nname: x\ndescription: d\nlist:\n  - name: a\n    value: 1\n  - name: b\n    value: 2\n---\n# Body\n',
     {'description': 'd', 'list': [{'name': 'a', 'value': 1}, {'name': 'b', 'value': 2}], 'name': 'x'}),
    ('---\nname: x\ndescription: d\nmeta:\n  tags:\n    - one\n    - two\n  nested:\n    k: v\n---\n# Body\n',
     {'description': 'd', 'meta': {'nested': {'k': 'v'}, 'tags': ['one', 'two']}, 'name': 'x'}),
    ('---\nname: x\ndescription: d\nlong: >\n  Para one line one\n  line two\n\n\n  para after two blanks\n\n---\n# Body\n',
     {'description': 'd', 'long': 'Para one line one line two\n\npara after two blanks\n', 'name': 'x'}),
    ('---\nname: x\ndescription: |\n    indented more\n  less\n---\n# Body\n',
     'refused: unexpected indentation'),
    ('---\nname: x\ndescription: d\nk: [a, [b]]\n---\n# Body\n',
     'refused: nested flow collections are outside the supported YAML subset'),
    ('---\nname: x\ndescription: d\nk: {a: [1]}\n---\n# Body\n',
     'refused: nested flow collections are outside the supported YAML subset'),
    ('---\nname: x\ndescription: d\nk: "unterminated\n\n---\n# Body\n',
     'refused: a quoted scalar is not closed'),
    ("---\nname: x\ndescription: d\nk: 'a'b'\n---\n# Body\n",
     'refused: unexpected text after a quoted scalar'),
    ('---\nname: x\ndescription: d\nnum_str: \'123\'\nbool_str: "true"\nnull_str: \'null\'\n---\n# Body\n',
     {'bool_str': 'true', 'description': 'd', 'name': 'x', 'null_str': 'null', 'num_str': '123'}),
    ('---\nname: x\ndescription: d\n1: one\ntrue: yes\nnull: n\n---\n# Body\n',
     {'1': 'one', '': 'n', 'description': 'd', 'name': 'x', 'true': 'yes'}),
    ('---\nname: x\ndescription: >-\n  text with trailing spaces   \n  next\n---\n# Body\n',
     {'description': 'text with trailing spaces    next', 'name': 'x'}),
    ('---\nname: x\ndescription: |\n  a\n  \n  b\n---\n# Body\n',
     {'description': 'a\n\nb\n', 'name': 'x'}),
    ('---\nname: x\ndescription: d\nemptyblock: |\nnext: 1\n---\n# Body\n',
     {'description': 'd', 'emptyblock': '', 'name': 'x', 'next': 1}),
    ('---\nname: x\ndescription: d\n%weird: 1\n---\n# Body\n',
     'refused: directives are outside the supported YAML subset'),
    ('---\nname: x\ndescription: d\nk: @at\n---\n# Body\n',
     'refused: reserved indicators are outside the supported YAML subset'),
    ('---\nname: x\ndescription: d\nk: `tick`\n---\n# Body\n',
     'refused: reserved indicators are outside the supported YAML subset'),
    ('---\nname: x\ndescription: d\nk: a #not comment? no, this is\nk2: a#b\n---\n# Body\n',
     {'description': 'd', 'k': 'a', 'k2': 'a#b', 'name': 'x'}),
    ('---\n  name: x\n  description: indented root\n---\n# Body\n',
     {'description': 'indented root', 'name': 'x'}),
    ('---\nname: x\ndescription: d\n...\n\n---\n# Body\n',
     {'description': 'd', 'name': 'x'}),
    ('---\nname: x\ndescription: d\nseq:\n  -   spaced\n  -\ttab\n---\n# Body\n',
     'refused: unexpected indentation'),
    ('---\nname: x\ndescription: d\nk: "\\q"\n---\n# Body\n',
     'refused: an unknown escape \\q'),
    ('---\nname: x\ndescription: d\nk: 0o19\nk2: 0xZZ\nk3: 1_000\nk4: 1e\nk5: .\nk6: -.5e-3\n---\n# Body\n',
     {'description': 'd', 'k': '0o19', 'k2': '0xZZ', 'k3': '1_000', 'k4': '1e', 'k5': '.', 'k6': -0.0005, 'name': 'x'}),
    ('---\nname: x\ndescription:\n  continued on\n  next lines\n---\n# Body\n',
     {'description': 'continued on next lines', 'name': 'x'}),
    ('---\nname: x\ndescription: d\nk: |-\n\n  leading blank\n\n---\n# Body\n',
     {'description': 'd', 'k': '\nleading blank', 'name': 'x'}),
    ('---\nname: x\ndescription: d\nkeep: |+\n  a\n\n---\n# Body\n',
     {'description': 'd', 'keep': 'a\n', 'name': 'x'}),
    ('\ufeff---\nname: bom\ndescription: d\n---\n',
     {'description': 'd', 'name': 'bom'}),
    ('---\nname: x\ndescription: d\nk:\n  - a\n  -\n  - c\n---\n# Body\n',
     {'description': 'd', 'k': ['a', None, 'c'], 'name': 'x'}),
    # YAML's blanks are spaces and tabs only: other Unicode spaces are content.
    ('---\nname: x\ndescription: ends in a no-break space\u00a0\n---\n',
     {'description': 'ends in a no-break space\u00a0', 'name': 'x'}),
    ('---\nname: x\ndescription: d\nnel: a\x85\nls: b\u2028 \n---\n',
     {'description': 'd', 'ls': 'b\u2028', 'name': 'x', 'nel': 'a\x85'}),
    ('---\nname: x\ndescription: d\nk: a:\tb\n---\n',
     "refused: a ': ' inside a plain value (quote the value)"),
    ('---\nname: x\ndescription: d\n"k":\ta\n---\n',
     {'description': 'd', 'k': 'a', 'name': 'x'}),
    # Only "key: words" lines, as most SKILL.md files are.
    ("---\nname: x\ndescription: Plain words, with commas (and parens) - it's \"fine\"!\nflag: true\n"
     "nothing: Null\r\nlicense: MIT\n---\n",
     {'description': 'Plain words, with commas (and parens) - it\'s "fine"!', 'flag': True,
      'license': 'MIT', 'name': 'x', 'nothing': None}),
    ('---\nname: x\ndescription: trailing spaces   \nkey-with-dash: TRUE\n---\n',
     {'description': 'trailing spaces', 'key-with-dash': True, 'name': 'x'}),
]


def write_skill(root, path, front, files=None):
    """A skill folder below root: SKILL.md with front (text) and other files {rel: bytes}."""
    folder = os.path.join(root, *path.split("/"))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "SKILL.md"), "w", encoding="utf-8") as f:
        f.write("---\n%s\n---\n# %s\n" % (front, path))
    for rel, data in (files or {}).items():
        target = os.path.join(folder, *rel.split("/"))
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
    return folder


APPS_KEY, APP_MIME = "io.modelcontextprotocol/ui", "text/html;profile=mcp-app"


APPS_CAPS = {"extensions": {APPS_KEY: {"mimeTypes": [APP_MIME]}}}


BOARD_HTML = "<!-- the board -->\n<!DOCTYPE html>\n<html><body>board</body></html>\n"


BOARD_UI = {"csp": {"connectDomains": ["https://api.example.com"],
                    "resourceDomains": ["https://*.cdn.example.com"]},
            "permissions": {"clipboardWrite": {}}, "prefersBorder": True}


EXT_APPS_SCHEMA = os.environ.get("MCP_STDIO_EXT_APPS") or os.path.join(
    HERE, ".ci-tools", "node_modules", "@modelcontextprotocol", "ext-apps")


def board_server(**options):
    """A view, a tool that shows it, one only the view calls, and two without views."""
    server = mcp_stdio.Server("board", "1", **options)
    server.app("ui://board", html=BOARD_HTML, csp=BOARD_UI["csp"],
               permissions=["clipboardWrite"], prefers_border=True)
    server.add(mcp_stdio.Resource("notes://a", lambda uri, ctx: "a", name="a"))

    @server.tool(app="ui://board")
    def show(ctx) -> str:
        """Show the board."""
        return "apps" if ctx.renders_apps else "text"

    @server.tool(app="ui://board", visibility=["app"])
    def refresh() -> str:
        """Refresh it (the view's button)."""
        return "refreshed"

    @server.tool
    def plain() -> str:
        """No view."""
        return "plain"
    return server


def start_preview(test, words, env):
    """preview WORDS as a process, stopped at the test's end: (process, port, token)."""
    p = subprocess.Popen(SERVE + ["preview"] + words, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env)

    def stop():
        if p.poll() is None:
            p.kill()
        p.wait()
        p.stdout.close()
        p.stderr.close()
    test.addCleanup(stop)
    line = p.stdout.readline().decode()
    m = re.fullmatch(r"preview of \S+ \(view \S+\): http://127\.0\.0\.1:(\d+)/\?token="
                     r"([\w-]{32})\n", line)
    test.assertIsNotNone(m, line)
    return p, int(m.group(1)), m.group(2)


# The browser tests: headless Chromium, driven by playwright-core, both from .ci/run.
BROWSER_TOOLS = os.environ.get("MCP_STDIO_BROWSER_TOOLS") or os.path.join(HERE, ".ci-tools")


CHROMIUM = os.environ.get("MCP_STDIO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


EXT_APPS_SRC = os.path.join(EXT_APPS_SCHEMA, "dist", "src")


DRIVER_HEAD = """
const { chromium } = require(%s);
const out = {};
(async () => {
  const browser = await chromium.launch({executablePath: %s, args: ["--no-sandbox",
    "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"]});
  const page = await browser.newPage();
  page.on("pageerror", (e) => { (out.pageErrors = out.pageErrors || []).push(String(e)); });
  const frameOf = async (part) => {
    for (let i = 0; i < 100; i++) {
      const f = page.frames().find((f) => f.url().includes(part));
      if (f) return f;
      await page.waitForTimeout(100);
    }
    throw new Error("no frame " + part);
  };
  try {
"""


DRIVER_TAIL = """
  } catch (e) { out.error = String(e && e.stack || e); }
  await browser.close();
  process.stdout.write(JSON.stringify(out));
})();
"""


TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"


def recording_server(seen, **options):
    """The demo server with two middleware recording what they see, outermost first."""
    server = mcp_stdio.demo_server()
    server.configure(**options)

    @server.middleware
    def outer(request, next):
        seen.append(("outer", request.method, request.kind, request.name, request.ctx.era,
                     request.ctx.revision))
        result = next()
        seen.append(("outer done", request.method))
        return result

    @server.middleware(kinds=("tool", "list"))
    def inner(request, next):
        seen.append(("inner", request.method))
        return next()
    return server


BROKEN_SERVER = textwrap.dedent("""
    import json, sys, time
    mode = sys.argv[1]
    if mode == "banner":
        print("Starting my server v1.0", flush=True)
    if mode.startswith("slow-"):            # a server that takes long to start, as some do
        time.sleep(4.0)                     # 2 s past the client's note: room to wake late
    for line in sys.stdin:
        msg = json.loads(line)
        if mode == "slow-modern":           # modern only: initialize is not accepted
            meta = {"io.modelcontextprotocol/serverInfo": {"name": "slow", "version": "1"}}
            answer = {"result": {"supportedVersions": ["2026-07-28"], "capabilities": {
                "tools": {}}, "resultType": "complete", "_meta": meta}} \
                if msg["method"] == "server/discover" else {"result": {"tools": [],
                "resultType": "complete", "_meta": meta}} if msg["method"] == "tools/list" \
                else {"error": {"code": -32022, "message": "Unsupported protocol version",
                                "data": {"supported": ["2026-07-28"], "requested": None}}}
            print(json.dumps(dict(answer, jsonrpc="2.0", id=msg["id"])), flush=True)
            continue
        if mode == "exit":
            sys.stderr.write("fatal: config missing\\n")
            sys.exit(3)
        if mode == "silent" or "id" not in msg:
            continue
        rid = msg["id"] + 1000 if mode == "wrong-id" else msg["id"]
        if mode == "partial" and msg["method"] == "resources/templates/list":
            print(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601,
                              "message": "Method not found"}}), flush=True)
            continue
        if mode == "partial" and msg["method"] == "resources/list":
            print(json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"resources": [
                {"uri": "a://b", "name": "b"}]}}), flush=True)
            continue
        if mode in ("legacy-only", "partial", "null-call") and \
                msg["method"] == "server/discover":
            print(json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601,
                              "message": "Method not found"}}), flush=True)
            continue
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                  "serverInfo": {"name": "broken", "version": "0"}}
        if mode == "partial":
            result["capabilities"]["resources"] = {}
        if msg["method"] == "tools/list":
            result = {"tools": []} if mode != "null-result" else None
            if mode == "null-call":        # a call of "bad" is answered with a null result
                result = {"tools": [{"name": n, "inputSchema": {"type": "object"}}
                                    for n in ("bad", "good")]}
        if mode == "null-call" and msg["method"] == "tools/call":
            result = None if msg["params"]["name"] == "bad" else {
                "content": [{"type": "text", "text": "good"}]}
        print(json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}), flush=True)
        if mode == "answers-notifications":
            print(json.dumps({"jsonrpc": "2.0", "error": {"code": -32600, "message": "x"}}),
                  flush=True)
""")


DOCTOR_SERVER = textwrap.dedent('''
    import sys, time
    mode = sys.argv[1] if len(sys.argv) > 1 else "good"
    if mode == "banner":
        print("Starting team tools v1.0", flush=True)
    if mode == "broken":
        import no_such_module_for_the_doctor
    if mode == "slow":                      # each start: the doctor's two run at once
        time.sleep(2.7)
    import mcp_stdio
    server = mcp_stdio.Server("team-tools", "1.0")

    @server.tool(description="Add.", task="required" if mode == "task" else "forbidden")
    def add(a: int, b: int) -> int:
        return a + b
    if mode == "skills":
        server.serve_skills("skills")       # beside this file, wherever the host starts it
    if mode == "nested":
        server.add(mcp_stdio.Tool("nested", lambda a, c: "x", description="Nested.",
                                  input_schema={"type": "object", "$defs": {"p": {
                                      "type": "string"}}, "properties": {"p": {
                                          "$ref": "#/$defs/p"}, "tags": {"type": "array"}},
                                      "required": ["q"]}))
    if mode == "many":                      # more than Cursor holds well
        for i in range(44):
            server.add(mcp_stdio.Tool("t%02d" % i, lambda a, c: "x", description="T."))
    if mode == "mounted":                   # someone else's: one a strict host refuses,
        other = mcp_stdio.Server("other", "1")  # one that runs only as a task
        other.add(mcp_stdio.Tool("deep", lambda a, c: "x", description="Deep.", input_schema={
            "type": "object", "$defs": {"p": {"type": "string"}}}))
        other.add(mcp_stdio.Tool("research", lambda a, c: "x", description="Research.",
                                 task="required"))
        server.mount("other", other, era="legacy")
    raise SystemExit(server.run(sys.argv[2:]))     # server options after the mode
''')


_VENDORED = []


_VENDORING = threading.Lock()


def vendored_project():
    """A folder holding DOCTOR_SERVER as team_tools.py, mcp_stdio.py vendored beside it (a
    host sets no PYTHONPATH) with its bytecode, and skills; made once per test run."""
    with _VENDORING:                  # tests on several threads ask at once: one makes it
        if not _VENDORED:
            import py_compile
            tmp = tempfile.TemporaryDirectory()
            with open(os.path.join(tmp.name, "team_tools.py"), "w", encoding="utf-8") as f:
                f.write(DOCTOR_SERVER)
            shutil.copy(SERVER, tmp.name)
            py_compile.compile(os.path.join(tmp.name, "mcp_stdio.py"), doraise=True)
            write_skill(os.path.join(tmp.name, "skills"), "good", "name: good\ndescription: Good.")
            write_skill(os.path.join(tmp.name, "skills"), "bad", "name: Bad Name\ndescription: x")
            _VENDORED.append(tmp)              # complete; removed by tearDownModule
    return _VENDORED[0].name


def mounted_server(**options):
    """A server of its own beside another mounted in this process (the demo's tools)."""
    inner = mcp_stdio.demo_server()
    outer = mcp_stdio.Server("front", "1", **options)

    @outer.tool
    def hello() -> str:
        "Say hello."
        return "hi"

    @outer.resource("demo://readme")
    def readme() -> str:
        "Ours, not the mount's."
        return "our readme"
    outer.mount("demo", inner)
    return outer


# A server for the process tests: it counts its starts, says when a call is
# cancelled, and asks for a confirmation (whatever era it is spoken to in).
MOUNTED_SERVER = textwrap.dedent('''
    import os, sys, time
    sys.path.insert(0, %r)
    import mcp_stdio
    folder = sys.argv[1]
    with open(os.path.join(folder, "starts"), "a") as f:
        f.write("%%d\\n" %% os.getpid())
    if "slow" in sys.argv:
        time.sleep(1.0)
    while "gated" in sys.argv and not os.path.exists(os.path.join(folder, "go")):
        time.sleep(0.02)                # starts when the test says so
    lifespan = None
    if "stubborn" in sys.argv:          # slow to end, and leaves a child behind
        import subprocess
        child = subprocess.Popen([sys.executable, "-S", "-c", "import time; time.sleep(120)"],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        with open(os.path.join(folder, "child"), "a") as f:
            f.write("%%d\\n" %% child.pid)

        def lifespan(server):
            yield
            time.sleep(60)
    server = mcp_stdio.Server("leaf", "1", lifespan=lifespan)
    if "slow-list" in sys.argv:
        server.middleware(lambda request, next: time.sleep(1.0) or next(), kinds="list")

    @server.tool
    def wait(seconds: float, ctx: mcp_stdio.Context) -> str:
        "Wait, or stop when cancelled."
        if ctx.sleep(seconds):
            with open(os.path.join(folder, "cancelled"), "w") as f:
                f.write("yes")
            return "cancelled"
        return "waited"

    @server.tool
    def confirm(text: str, ctx: mcp_stdio.Context) -> str:
        "Ask, then echo."
        answer = ctx.elicit("Echo %%s?" %% text, {"type": "object", "properties": {}})
        return text if answer.accepted else "declined"

    @server.tool
    def where(ctx: mcp_stdio.Context) -> str:
        "The trace context this call came with."
        return ctx.trace.get("traceparent", "-")
    if "caps" in sys.argv:
        @server.tool
        def caps(ctx: mcp_stdio.Context) -> str:
            "The client capabilities this call came with, and the era."
            import json
            return ctx.era + " " + json.dumps(ctx.client_capabilities, sort_keys=True)
    raise SystemExit(server.run([]))
''') % HERE


# A legacy server written by hand that misbehaves as argv[2] says, counting its starts in
# the folder argv[1]: "foreign-id" answers a tool call first with the id argv[3] gives as
# JSON (an id nobody sent), then as it should; "closes-stdout" closes its stdout when a
# tool is called and runs on; "cursor-loop" pages its tools for ever.
ROGUE_SERVER = textwrap.dedent('''
    import json, os, sys, time
    folder, mode = sys.argv[1], sys.argv[2]
    with open(os.path.join(folder, "starts"), "a") as f:
        f.write("1\\n")

    def send(msg):
        sys.stdout.write(json.dumps(msg) + "\\n")
        sys.stdout.flush()
    for line in sys.stdin:
        m = json.loads(line)
        method = m.get("method")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": m["id"], "result": {
                "protocolVersion": m["params"]["protocolVersion"],
                "capabilities": {"tools": {}}, "serverInfo": {"name": "rogue", "version": "1"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": m["id"], "result": dict({"tools": [
                {"name": "noop", "inputSchema": {"type": "object"}}]}, **(
                    {"nextCursor": "again"} if mode == "cursor-loop" else {}))})
        elif method == "tools/call" and mode == "closes-stdout":
            sys.stdout.close()
            os.close(1)
            time.sleep(60)
        elif method == "tools/call":
            if mode == "foreign-id":
                send({"jsonrpc": "2.0", "id": json.loads(sys.argv[3]), "result": {}})
            send({"jsonrpc": "2.0", "id": m["id"], "result": {"content": [
                {"type": "text", "text": "ok"}]}})
        elif method == "ping":
            send({"jsonrpc": "2.0", "id": m["id"], "result": {}})
        elif "id" in m:
            send({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601,
                                                             "message": "Method not found"}})
''')


def leaf_folder(test):
    """A folder removed after test, holding the mounted test server: (folder, its path)."""
    folder = tempfile.mkdtemp()
    test.addCleanup(shutil.rmtree, folder)
    leaf = os.path.join(folder, "leaf.py")
    with open(leaf, "w", encoding="utf-8") as f:
        f.write(MOUNTED_SERVER)
    return folder, leaf


def servers_file(folder, servers):
    """The path of a host's file in folder that holds servers (its mcpServers)."""
    path = os.path.join(folder, "servers.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"mcpServers": servers}, f)
    return path


# A legacy server written by hand that asks its client for roots, a form and a sample
# on its own (in no call), as real servers do after initialized (here once the test
# opens its gate), and for roots whenever told they changed: it writes each answer it
# gets, as received, to answers.
ASKING_SERVER = textwrap.dedent('''
    import json, os, sys, threading, time
    answers = os.path.join(sys.argv[1], "answers")
    changes = [0]
    questions = [("roots-1", "roots/list", {}),
                 ("form-1", "elicitation/create", {"message": "Go on?", "requestedSchema": {
                     "type": "object", "properties": {}}}),
                 ("sample-1", "sampling/createMessage", {"messages": [{"role": "user",
                     "content": {"type": "text", "text": "hi"}}], "maxTokens": 5})]

    lock = threading.Lock()

    def send(msg):
        with lock:
            sys.stdout.write(json.dumps(msg) + "\\n")
            sys.stdout.flush()

    def ask():
        while not os.path.exists(os.path.join(sys.argv[1], "go")):
            time.sleep(0.02)
        for rid, name, params in questions:
            send({"jsonrpc": "2.0", "id": rid, "method": name, "params": params})
    for line in sys.stdin:
        m = json.loads(line)
        method = m.get("method")
        if "method" not in m:                       # an answer to one of ours
            with open(answers, "a") as f:
                f.write(line.strip() + "\\n")
        elif method == "initialize":
            with open(os.path.join(sys.argv[1], "told"), "w") as f:
                json.dump(m["params"]["capabilities"], f)
            send({"jsonrpc": "2.0", "id": m["id"], "result": {
                "protocolVersion": m["params"]["protocolVersion"],
                "capabilities": {"tools": {}}, "serverInfo": {"name": "asker", "version": "1"}}})
        elif method == "notifications/initialized":
            threading.Thread(target=ask, daemon=True).start()
        elif method == "notifications/roots/list_changed":
            changes[0] += 1
            send({"jsonrpc": "2.0", "id": "roots-changed-%d" % changes[0],
                  "method": "roots/list"})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": m["id"], "result": {"tools": [
                {"name": "noop", "inputSchema": {"type": "object"}}]}})
        elif method == "tools/call":
            send({"jsonrpc": "2.0", "id": m["id"], "result": {"content": [
                {"type": "text", "text": "ok"}]}})
        elif "id" in m:
            send({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601,
                                                             "message": "Method not found"}})
''')


def real_servers(folder):
    """A host's configuration of three real servers nobody here wrote (npm and PyPI), with
    the commands that start each directly: (path, {key: command})."""
    node = os.path.join(os.environ["MCP_STDIO_NODE_BIN"], "node")
    modules = os.environ["MCP_STDIO_REAL_SERVERS"]
    files = os.path.join(folder, "files")
    os.makedirs(files)
    with open(os.path.join(files, "a.txt"), "w") as f:
        f.write("alpha\n")
    commands = {
        "everything": [node, os.path.join(modules, "@modelcontextprotocol", "server-everything",
                                          "dist", "index.js"), "stdio"],
        "fs": [node, os.path.join(modules, "@modelcontextprotocol", "server-filesystem", "dist",
                                  "index.js"), files],
        "time": [_sdk_python(), "-m", "mcp_server_time", "--local-timezone", "UTC"]}
    path = os.path.join(folder, "servers.json")
    with open(path, "w") as f:
        json.dump({"mcpServers": {k: {"command": c[0], "args": c[1:]}
                                  for k, c in commands.items()}}, f)
    return path, commands, files


# What a mount declares (it relays every question: URL elicitation too), for the direct
# listings to compare.
def _answers():
    return dict(capabilities={"elicitation": {"form": {}, "url": {}}},
                on_elicit=lambda p: {"action": "accept", "content": {
                    "name": "Ada", "check": True, "color": "red", "email": "a@b.c",
                    "homepage": "https://example.com", "birthdate": "2000-01-01",
                    "integer": 5, "number": 3}},
                on_sample=lambda p: {"role": "assistant", "model": "probe",
                                     "content": {"type": "text", "text": "sampled here"}},
                roots=[{"uri": "file:///probe-root", "name": "probe"}])


def schema_arguments(schema, files):
    """Arguments for a tool from its input schema: each required property, of its type (a
    path names a file of the test's folder), so that every tool can be called once."""
    out, props = {}, schema.get("properties") or {}
    for name in schema.get("required") or []:
        p, kind = props.get(name) or {}, (props.get(name) or {}).get("type")
        if "enum" in p:
            out[name] = p["enum"][0]
        elif kind == "string":
            out[name] = os.path.join(files, "a.txt") if "path" in name or name == "source" \
                else "UTC" if "timezone" in name else "12:00" if name == "time" else "x"
        elif kind in ("number", "integer"):
            out[name] = 1
        elif kind == "boolean":
            out[name] = True
        elif kind == "array":
            out[name] = [os.path.join(files, "a.txt")] if "path" in name else []
        elif kind == "object":
            out[name] = {}
    return out


# Every tool called once, but for a long wait cut short.
_QUICKER = {"everything_trigger-long-running-operation": {"duration": 0.2, "steps": 1}}


REAL_CALLS = (("everything_echo", {"message": "hi"}, "Echo: hi"),
              ("fs_read_text_file", {"path": "a.txt"}, "alpha"),
              ("time_get_current_time", {"timezone": "UTC"}, '"timezone": "UTC"'))


# The real servers' time to start and list through the proxy (its --start-timeout; the
# probes below say 60 too): one has taken more than the default 10 s on a loaded machine.
REAL_START = ["--start-timeout", "60"]


REAL_SDK_PROBE = textwrap.dedent('''
    import asyncio, json, sys
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    async def session(mode, calls):
        with open(sys.argv[5], "w") as f:      # as it was: the calls of a session write
            f.write("alpha\\n")
        params = StdioServerParameters(command=sys.argv[1], args=["-m", "mcp_stdio", "proxy",
                                       sys.argv[2], "--start-timeout", "60"],
                                       env={"PYTHONPATH": sys.argv[3]})
        async with Client(params, mode=mode) as c:
            out = {"tools": sorted(t.name for t in (await c.list_tools()).tools)}
            for name, args in calls:
                r = await c.call_tool(name, args)
                out[name] = [getattr(r.content[0], "text", "") if r.content else "",
                             bool(r.is_error)]
        return out

    async def main():
        calls = json.loads(sys.argv[4])
        print(json.dumps({m: await session(m, calls) for m in ("legacy", "2026-07-28")}))

    asyncio.run(main())
''')


REAL_TS_PROBE = """
import { Client } from "%(sdk)s/dist/esm/client/index.js";
import { StdioClientTransport } from "%(sdk)s/dist/esm/client/stdio.js";
const transport = new StdioClientTransport({command: %(python)s, args: ["-m", "mcp_stdio",
  "proxy", %(config)s, "--start-timeout", "60"], env: {PYTHONPATH: %(here)s, PATH: process.env.PATH}});
const client = new Client({name: "ts-sdk", version: "1"}, {capabilities: {}});
await client.connect(transport);
const out = {tools: (await client.listTools()).tools.map((t) => t.name).sort()};
for (const [name, args] of %(calls)s) {
  const r = await client.callTool({name, arguments: args});
  out[name] = [r.content.length ? String(r.content[0].text) : "", Boolean(r.isError)];
}
// A tool that must run as a task, as one (the task is the proxy's, its work the mount's).
for (const [name, args] of %(task_calls)s) {
  out[name] = [];
  for await (const m of client.experimental.tasks.callToolStream({name, arguments: args},
                                                                 undefined, {task: {ttl: 60000}})) {
    out[name].push(m.type === "result" ? [m.type, Boolean(m.result.isError)] : [m.type]);
  }
}
console.log(JSON.stringify(out));
await client.close();
"""


FUZZ_ERAS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", MODERN)


TASK_QUEUE_SERVER = "import sys\nsys.path.insert(0, %r)\n" % HERE + textwrap.dedent('''
    import mcp_stdio
    server = mcp_stdio.Server("queue", "1")

    @server.tool(task="optional")
    def nap(name: str, seconds: float, ctx: mcp_stdio.Context) -> str:
        """Sleeps (cancellable) and says on stderr when it starts."""
        print("start", name, file=sys.stderr, flush=True)
        return "cancelled" if ctx.sleep(seconds) else "slept " + name

    if __name__ == "__main__":
        raise SystemExit(server.run())
''')


def check_output(test, fuzzer, lines, rev):
    """Check every line the server wrote against the fuzz properties."""
    answered = {}
    for line in lines:
        test.assertTrue(line.endswith(b"\n"), line[-50:])
        msg = json.loads(line)
        for m in (msg if isinstance(msg, list) else [msg]):
            test.assertIsInstance(m, dict)
            test.assertEqual(m.get("jsonrpc"), "2.0")
            if "id" in m:
                key = json.dumps(m["id"])
                answered[key] = answered.get(key, 0) + 1
                test.assertEqual(answered[key], 1, "answered twice: %s" % key)
                method = fuzzer.methods.get(key)
                test.assertTrue(key in fuzzer.methods, "answer to an id never sent: %s" % key)
                if key in fuzzer.codes:
                    test.assertEqual(m["error"]["code"], fuzzer.codes[key], line[:300])
            else:
                method = None
                if "method" not in m:
                    test.assertIn("error", m)
            test.assertEqual(WireSchemas.problems(rev, m, method), [], line[:300])
    missing = fuzzer.must_answer - set(answered)
    test.assertEqual(missing, set(), "well-formed requests never answered")
    return sum(answered.values())


@contextlib.contextmanager
def round_limit(test, seconds, what):
    """Fail a fuzz round that runs past seconds, even inside one regular expression.

    re checks for signals as it backtracks, so an alarm on the main thread ends a
    match that would never end; elsewhere (no SIGALRM, or a worker thread) no limit.
    """
    if not hasattr(signal, "setitimer") or threading.current_thread() is not \
            threading.main_thread():
        yield
        return

    def expired(signum, frame):
        raise test.failureException("a fuzz round took more than %d s (%s)" % (seconds, what))
    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def fuzz_engine(test, seed, era, count):
    """One fuzz session through the sans-IO engine, Calls run inline."""
    fz = Fuzzer(seed, era)
    server = mcp_stdio.demo_server(grant=["echo", "add", "divide", "confirm_echo"])
    lines = []
    conn = connect(server, lines.append)
    with round_limit(test, 20.0, "seed %d, era %s" % (seed, era)):
        for part in fz.splits(fz.stream(count)):
            start = time.process_time()
            for item in conn.feed(part):
                if type(item) is bytes:
                    lines.append(item)
                else:
                    item.run()
            # A line may be 1 MiB: linear work on it takes at most a quarter second (a deep
            # line with a long unterminated string, seed 10: 0.24 s), backtracking hours. 5 s
            # leaves room for a loaded machine (CI saw 2.1 s for that one on Python 3.10).
            spent = time.process_time() - start
            test.assertLess(spent, 5.0, "one feed() took %.1f s (seed %d, era %s): %r" % (
                spent, seed, era, part[:120]))
    lines += conn.close()
    return check_output(test, fz, lines, era if era in LEGACY else MODERN)


def fuzz_process(test, seed, era, count):
    """One fuzz session through a real server process."""
    fz = Fuzzer(seed, era)
    p = test.spawn("--tools", "echo,add,divide,confirm_echo")
    parts = fz.splits(fz.stream(count))

    def write():
        try:
            for part in parts:
                p.send_bytes(part)
        except OSError:
            pass
    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    writer.join(60 + count / 500)
    if writer.is_alive():
        p.kill()
        test.fail("the server stopped reading its input (seed %d, era %s)" % (seed, era))
    test.assertEqual(p.close(), 0, p.stderr[-500:])
    test.assertNotIn(b"Traceback", p.stderr)
    return check_output(test, fz, p.raw, era if era in LEGACY else MODERN)


_SKILL_URIS = ("skill://pdf-processing/SKILL.md", "skill://team/review/SKILL.md",
               "skill://pdf-processing/assets/logo.png", "skill://pdf-processing/a%20b/c%25d.txt",
               "skill://pdf-processing", "skill://pdf-processing/", "skill://team",
               "skill://team/review/", "skill://pdf-processing/a%20b", "skill://team/review/link",
               "skill://pdf-processing/../pdf-processing/SKILL.md", "skill://pdf-processing/%2e%2e/x",
               "skill://pdf-processing//SKILL.md", "skill://%00/SKILL.md", "skill://x/SKILL.md",
               "skill://", "file:///etc/passwd")


def _junk(r, depth=0):
    """A random JSON value, hostile where it can be."""
    k = r.randrange(8 if depth < 3 else 6)
    if k < 5:
        return (None, True, r.randint(-2 ** 63, 2 ** 64), r.random() * 1e300,
                "\u0000\ud7ff\U0001f600")[k]
    if k == 5:
        return r.choice(_SKILL_URIS + ("x" * r.randrange(300),))
    if k == 6:
        return [_junk(r, depth + 1) for _ in range(r.randrange(3))]
    return {r.choice(("taskId", "cursor", "uri", "ttl", "inputResponses", "task", "_meta")):
            _junk(r, depth + 1) for _ in range(r.randrange(4))}


def fuzz_tasks_and_skills(test, root, seed, era, count):
    """The task and skills fuzzer through the sans-IO engine."""
    server = task_server(elicit_timeout=0.3)
    server.serve_skills(root)
    lines, threads = [], []
    conn = connect(server, lines.append)

    def send(msg):
        for item in conn.feed(json.dumps(msg).encode() + b"\n"):
            if type(item) is bytes:
                lines.append(item)
            else:                 # on a thread: a legacy question waits for its answer
                t = threading.Thread(target=item.run, daemon=True)
                t.start()
                threads.append(t)
                t.join(0.05)
    fz = TaskSkillFuzzer(seed, era, send)
    if era != MODERN:
        fz.methods["0"] = "initialize"
        send(init_msg(0, era, caps={"elicitation": {}}))
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for rid in range(1, count + 1):
        before = len(lines)
        fz.request(rid)
        fz.saw(lines[before:])
    for t in threads:
        t.join(TIMEOUT)
    lines += conn.close()
    fz.check(test, lines)
    test.assertEqual([x for x in conn.reports if "incident" in x], [])


TASK_SKILL_SERVER = """import sys
sys.path.insert(0, %r)
import test_mcp_stdio
server = test_mcp_stdio.task_server(elicit_timeout=0.3)
server.serve_skills(sys.argv[1])
sys.exit(server.run([]))
""" % HERE


def fuzz_tasks_and_skills_process(test, script, root, seed, era, count):
    """The task and skills fuzzer through a real server process (its threads, its runtime)."""
    p = test.spawn(root, script=script)
    fz = TaskSkillFuzzer(seed, era, p.send)
    p.rev = era
    if era != MODERN:
        p.initialize(era, caps={"elicitation": {}})
        fz.methods["0"] = "initialize"
    seen = 0
    for rid in range(1, count + 1):
        fz.request(rid)
        lines = list(p.raw)
        fz.saw(lines[seen:])
        seen = len(lines)
    test.assertEqual(p.close(), 0, p.stderr[-500:])
    test.assertNotIn(b"Traceback", p.stderr)
    test.assertNotIn(b"incident", p.stderr)
    fz.check(test, p.raw)


def fuzz_skills(test):
    """A skills folder, a server script serving it, and how many messages to send."""
    tmp = tempfile.TemporaryDirectory()
    test.addCleanup(tmp.cleanup)
    root = os.path.join(tmp.name, "skills")
    write_skill(root, "pdf-processing", "name: pdf-processing\ndescription: PDFs.", {
        "references/FORMS.md": b"# Forms\n", "assets/logo.png": b"\x89PNG\x00\xff",
        "a b/c%d.txt": "\u00e9\n".encode()})
    write_skill(root, "team/review", "name: review\ndescription: Review.",
                {"scripts/run.sh": b"echo\n"})
    with contextlib.suppress(OSError):        # a link out of the folder is never served
        os.symlink(os.path.abspath(__file__), os.path.join(root, "team", "review", "link"))
    script = os.path.join(tmp.name, "server.py")
    with open(script, "w", encoding="utf-8") as f:
        f.write(TASK_SKILL_SERVER)
    return root, script, max(300, int(os.environ.get("MCP_STDIO_FUZZ", "0")) // 20)


SDK_PROBE = textwrap.dedent('''
    import asyncio, json, sys
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    async def session(mode):
        params = StdioServerParameters(command=sys.argv[1], args=[sys.argv[2]])
        out = {}
        async with Client(params, mode=mode) as c:
            out["protocol"] = c.protocol_version
            out["tools"] = [t.name for t in (await c.list_tools()).tools]
            r = await c.call_tool("echo", {"text": "hi"})
            out["echo"] = [r.content[0].text, r.structured_content, bool(r.is_error)]
            r = await c.call_tool("divide", {"dividend": 1, "divisor": 0})
            out["divide"] = [r.content[0].text, bool(r.is_error)]
            try:
                await c.call_tool("nope", {})
                out["unknown"] = "no error"
            except Exception as e:
                out["unknown"] = str(e)
            r = await c.read_resource("demo://readme")
            out["resource"] = r.contents[0].text.splitlines()[0]
            r = await c.get_prompt("summarize", {"text": "abc"})
            out["prompt"] = r.messages[0].content.text.splitlines()[0]
        return out

    async def main():
        print(json.dumps({m: await session(m) for m in sys.argv[3:]}))

    asyncio.run(main())
''')


SDK_LIVE_PROBE = '''
import asyncio, json, sys, warnings
warnings.simplefilter("ignore")
import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

async def legacy(params):
    heard = []
    async def handler(message):
        method = getattr(getattr(message, "root", message), "method", None)
        if method is None:
            method = getattr(message, "method", None)
        heard.append([method, getattr(getattr(message, "params", None), "uri", None)])
    async with Client(params, mode="legacy", message_handler=handler) as c:
        await c.list_resources()        # a legacy client hears of the kinds it has listed
        await c.subscribe_resource("notes://groceries")
        await c.call_tool("add_note", {"name": "groceries", "text": "eggs"})
        await anyio.sleep(0.3)
        tools = [t.name for t in (await c.list_tools()).tools]
    return {"heard": heard, "tools": tools}

async def modern(params):
    events = []
    async with Client(params, mode="2026-07-28") as c:
        async with c.listen(resources_list_changed=True,
                            resource_subscriptions=["notes://milk"]) as sub:
            honored = sub.honored
            await c.call_tool("add_note", {"name": "milk", "text": "2 l"})
            with anyio.fail_after(5):
                async for event in sub:
                    events.append(type(event).__name__ + ":" + str(getattr(event, "uri", "")))
                    if len(events) == 2:
                        break
    return {"events": sorted(events), "honored": honored.model_dump(exclude_none=True)}

async def main():
    params = StdioServerParameters(command=sys.argv[1], args=[sys.argv[2]], env={"NOTES_DIR": sys.argv[3]})
    print(json.dumps({"legacy": await legacy(params), "modern": await modern(params)}, default=str))

asyncio.run(main())
'''


# The SDK client with elicitation, sampling and roots callbacks, against the
# conformance fixture server, in one era per argument.
SDK_ASK_PROBE = '''
import asyncio, json, sys, warnings
warnings.simplefilter("ignore")
from mcp import Client, types
from mcp.client.stdio import StdioServerParameters

async def on_elicit(context, params):
    props = params.requested_schema["properties"]
    return types.ElicitResult(action="accept", content={k: "Ada" for k in props})

async def on_sample(context, params):
    return types.CreateMessageResult(role="assistant", model="probe-model",
                                     content=types.TextContent(type="text", text="Good day"))

async def on_roots(context):
    return types.ListRootsResult(roots=[types.Root(uri="file:///probe", name="probe")])

async def session(mode):
    params = StdioServerParameters(command=sys.argv[1], args=[sys.argv[2]])
    out = {}
    async with Client(params, mode=mode, elicitation_callback=on_elicit,
                      sampling_callback=on_sample, list_roots_callback=on_roots) as c:
        out["protocol"] = c.protocol_version
        for name, args in (("test_input_required_result_multiple_inputs", {}),
                           ("test_sampling", {"prompt": "hi"}),
                           ("test_input_required_result_list_roots", {}),
                           ("test_input_required_result_multi_round", {})):
            r = await c.call_tool(name, args)
            out[name] = [r.content[0].text, bool(r.is_error)]
        r = await c.get_prompt("test_input_required_result_prompt", {})
        out["prompt"] = r.messages[0].content.text
    return out

async def main():
    print(json.dumps({m: await session(m) for m in sys.argv[3:]}))

asyncio.run(main())
'''


# A server written as a FastMCP user writes it: pydantic models with
# validators, Field constraints, datetime, UUID and enum fields. Only the lines
# before it differ between FastMCP and mcp_stdio (TYPED_HEADERS).
TYPED_BODY = 'import datetime\nimport decimal\nimport enum\nimport uuid\nfrom typing import Annotated, Literal, Optional\n\nfrom pydantic import BaseModel, Field, field_validator, model_validator\n\n\nclass Priority(enum.Enum):\n    LOW = "low"\n    NORMAL = "normal"\n    HIGH = "high"\n\n\nclass Place(BaseModel):\n    city: str = Field(min_length=1, max_length=40)\n    country: str = Field(pattern=r"^[A-Z]{2}$", description="ISO 3166 code")\n\n\nclass Event(BaseModel):\n    title: str = Field(min_length=1, max_length=80)\n    starts: datetime.datetime\n    ends: datetime.datetime\n    attendees: int = Field(default=1, ge=1, le=500)\n    priority: Priority = Priority.NORMAL\n    place: Optional[Place] = None\n    id: uuid.UUID = Field(default_factory=lambda: uuid.UUID(int=1))\n\n    @field_validator("title")\n    @classmethod\n    def no_shouting(cls, value):\n        if value.isupper():\n            raise ValueError("the title must not be all capitals")\n        return value\n\n    @model_validator(mode="after")\n    def ends_after_start(self):\n        if self.ends <= self.starts:\n            raise ValueError("ends must be after starts")\n        return self\n\n\nclass Reminder(BaseModel):\n    at: datetime.datetime\n    note: str\n    priority: Priority\n    ref: uuid.UUID\n\n\n@mcp.tool\ndef create_event(event: Event) -> Event:\n    """Create a calendar event."""\n    return event\n\n\n@mcp.tool\ndef search_events(query: Annotated[str, Field(min_length=1, max_length=50)],\n                  limit: int = Field(10, ge=1, le=100, description="How many at most"),\n                  since: Optional[datetime.date] = None) -> dict:\n    """Search events by text."""\n    return {"query": query, "limit": limit, "since": since, "found": []}\n\n\n@mcp.tool\ndef remind(at: datetime.datetime, note: Annotated[str, Field(max_length=200)],\n           priority: Priority = Priority.NORMAL,\n           ref: uuid.UUID = uuid.UUID(int=2)) -> Reminder:\n    """Set a reminder."""\n    return Reminder(at=at, note=note, priority=priority, ref=ref)\n\n\n@mcp.tool\ndef count_tags(tags: list[str], kind: Literal["event", "reminder"] = "event") -> dict[str, int]:\n    """Count tags."""\n    out = {}\n    for t in tags:\n        out[t] = out.get(t, 0) + 1\n    return out\n\n\n@mcp.tool\ndef days_between(first: datetime.date, second: datetime.date) -> str:\n    """Days from first to second."""\n    return str((second - first).days)\n\n\n@mcp.tool\ndef plan(start: datetime.datetime, length: datetime.timedelta,\n         budget: decimal.Decimal) -> dict:\n    """Plan a trip."""\n    return {"start": start, "end": start + length, "length": length, "budget": budget,\n            "id": uuid.UUID(int=3)}\n\n\nif __name__ == "__main__":\n    mcp.run()\n'


TYPED_HEADERS = {
    "fastmcp": "from fastmcp import FastMCP\nmcp = FastMCP('typed')\n",
    "ours": "import sys\nsys.path.insert(0, %r)\nimport mcp_stdio\n"
            "mcp = mcp_stdio.Server('typed', '1.0')\n" % HERE,
}


# The SDK client calls every tool of both servers; fixed-seed mutations of the
# arguments check the rule: what the schema rejects is an isError listing
# paths, what it accepts runs or fails with an isError naming a path.
TYPED_PROBE = 'import asyncio, json, random, sys, warnings\nwarnings.simplefilter("ignore")\nfrom mcp import Client\nfrom mcp.client.stdio import StdioServerParameters\nimport jsonschema\n\nCALLS = [\n    ("create_event", {"event": {"title": "Launch", "starts": "2026-01-02T10:00:00Z",\n                                "ends": "2026-01-02T11:30:00+01:00", "attendees": 3,\n                                "priority": "high", "place": {"city": "Lyon", "country": "FR"},\n                                "id": "7f1d2c3e-0000-4000-8000-000000000001"}}),\n    ("create_event", {"event": {"title": "Small", "starts": "2026-01-02T10:00:00",\n                                "ends": "2026-01-03"}}),\n    ("search_events", {"query": "tea", "since": "2025-12-01"}),\n    ("remind", {"at": "2026-03-04T05:06:07.5Z", "note": "call", "priority": "low"}),\n    ("count_tags", {"tags": ["a", "b", "a"]}),\n    ("days_between", {"first": "2026-01-01", "second": "2026-03-01"}),\n    ("plan", {"start": "2026-05-01T08:00:00Z", "length": "P2DT3H30M", "budget": "120.50"}),\n]\nBAD = [\n    ("create_event", {"event": {"title": "LOUD", "starts": "2026-01-02T10:00:00Z",\n                                "ends": "2026-01-02T11:00:00Z"}}, "/event/title"),\n    ("create_event", {"event": {"title": "x", "starts": "2026-01-02T10:00:00Z",\n                                "ends": "2026-01-01T11:00:00Z"}}, "/event"),\n    ("search_events", {"query": "", "limit": 0}, "/query"),\n    ("days_between", {"first": "2026-02-30", "second": "2026-03-01"}, "/first"),\n    ("plan", {"start": "2026-05-01T08:00:00Z", "length": "2 days", "budget": 1}, "/length"),\n]\n\n\ndef walk(node):\n    if isinstance(node, dict):\n        for k, v in node.items():\n            yield k\n            yield from walk(v)\n    elif isinstance(node, list):\n        for v in node:\n            yield from walk(v)\n\n\ndef mutations(rng, value, schema):\n    """Variants of a valid argument object: some valid, most not."""\n    out = []\n    for _ in range(12):\n        v = json.loads(json.dumps(value))\n        key = rng.choice(list(v)) if v else None\n        pick = rng.randrange(8)\n        if pick == 0 and key:\n            del v[key]\n        elif pick == 1 and key:\n            v[key] = rng.choice([None, 5, -3, 2.5, "x", "", [], {}, True, "9" * 300])\n        elif pick == 2:\n            v["unexpected"] = 1\n        elif pick == 3 and key and isinstance(v[key], dict) and v[key]:\n            inner = rng.choice(list(v[key]))\n            v[key][inner] = rng.choice([None, 0, "", "ZZ", "2026-99-99", -1, "A" * 100])\n        elif pick == 4 and key and isinstance(v[key], str):\n            v[key] = rng.choice(["2026-02-30", "P1D", "not a date", "ab", "", "LOUD"])\n        elif pick == 5 and key and isinstance(v[key], list):\n            v[key] = v[key] + [rng.choice([1, None, "z"])]\n        out.append(v)\n    return out\n\n\nasync def session(command, mode, fuzz):\n    params = StdioServerParameters(command=command[0], args=command[1:])\n    out = {"calls": [], "bad": [], "fuzz": 0, "problems": []}\n    async with Client(params, mode=mode) as c:\n        tools = {t.name: t for t in (await c.list_tools()).tools}\n        for t in tools.values():\n            schema = t.input_schema\n            if fuzz:\n                jsonschema.Draft202012Validator.check_schema(schema)\n                if {"$ref", "$defs"} & set(walk(schema)):\n                    out["problems"].append("%s: schema is not flat" % t.name)\n        for name, args in CALLS:\n            r = await c.call_tool(name, args)\n            out["calls"].append([name, bool(r.is_error), r.structured_content,\n                                 r.content[0].text if r.content else None])\n        if not fuzz:\n            return out\n        for name, args, path in BAD:\n            r = await c.call_tool(name, args)\n            text = r.content[0].text\n            out["bad"].append([name, bool(r.is_error), path in text])\n        rng = random.Random(20261201)\n        for name, args in CALLS:\n            schema = tools[name].input_schema\n            validator = jsonschema.Draft202012Validator(schema)\n            for variant in mutations(rng, args, schema):\n                out["fuzz"] += 1\n                try:\n                    r = await c.call_tool(name, variant)\n                except Exception as e:\n                    out["problems"].append("%s %s: JSON-RPC error %s" % (name, variant, e))\n                    continue\n                text = r.content[0].text if r.content else ""\n                valid = validator.is_valid(variant)\n                if not valid and not (r.is_error and text.startswith("Invalid arguments")\n                                      and "\\n- " in text):\n                    out["problems"].append("%s %s: rejected by the schema, answered %r"\n                                           % (name, variant, text[:200]))\n                if valid and r.is_error and not ("Invalid arguments" in text and "\\n- /" in text):\n                    out["problems"].append("%s %s: accepted by the schema, failed with %r"\n                                           % (name, variant, text[:200]))\n    return out\n\n\nasync def main():\n    python, (ours, theirs) = sys.executable, sys.argv[2:4]   # the servers need pydantic\n    result = {"ours": {m: await session([python, ours], m, True)\n                       for m in ("legacy", "2026-07-28")}}\n    try:\n        import fastmcp  # noqa: F401\n        result["fastmcp"] = await session([python, theirs], "legacy", False)\n    except ImportError:\n        result["fastmcp"] = None\n    print(json.dumps(result))\n\nasyncio.run(main())\n'


def _sdk_python():
    """A Python that has the official `mcp` package, or None."""
    py = os.environ.get("MCP_STDIO_SDK_PYTHON")
    if py and os.path.exists(py):
        return py
    try:
        import importlib.util
        if importlib.util.find_spec("mcp") is not None and \
                importlib.util.find_spec("mcp.client.stdio") is not None:
            return sys.executable
    except (ImportError, ValueError):
        pass
    return None


def _suite_groups(folder):
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        with open(path, encoding="utf-8") as f:
            for group in json.load(f):
                yield os.path.basename(path), group


###############################################################################
# Wire: JSON-RPC codec and line splitter ######################################
###############################################################################


class Codec(unittest.TestCase):

    def code(self, line):
        with self.assertRaises(mcp_stdio.ProtocolError) as cm:
            mcp_stdio.decode_message(line)
        return cm.exception.code

    def test_strict_json(self):
        for bad in (b"\xff{}", b'{"a":NaN}', b'{"a":Infinity}', b'{"a":-Infinity}',
                    b'{} x', b"{", b"\xef\xbb\xbf{}", b"{\x00}", b"[" * 100000):
            with self.subTest(line=bad[:20]):
                self.assertEqual(self.code(bad), -32700)
        # Well-formed, but refused: JSON we do not accept.
        for bad in (b'{"a":"\\ud800"}', b'{"\\udc00":1}', b'{"a":1,"a":2}', b"1" * 10000,
                    b"[1e400]", b"-1e309", b"[" * 33 + b"]" * 33):
            with self.subTest(line=bad[:20]):
                self.assertEqual(self.code(bad), -32600)
        self.assertEqual(mcp_stdio.decode_message(b'{"a":"\\ud83d\\ude00"}'), {"a": "\U0001F600"})

    def test_duplicate_detection_matches_a_precise_decoder(self):
        r = random.Random(99)
        keys = ["a", "b", "a:b", ":", "\\u003a", "c"]

        def value(depth=0):
            k = r.randrange(6 if depth < 3 else 3)
            if k == 0:
                return '"%s"' % r.choice(["x", "x:y", "\\u003a", "\\\\u003a", ":"])
            if k == 1:
                return str(r.randint(-5, 5))
            if k == 2:
                return "null"
            if k == 3:
                return "[%s]" % ",".join(value(depth + 1) for _ in range(r.randrange(3)))
            return "{%s}" % ",".join('"%s":%s' % (r.choice(keys), value(depth + 1))
                                      for _ in range(r.randrange(4)))
        for _ in range(3000):
            text = value().encode()
            try:
                json.JSONDecoder(object_pairs_hook=mcp_stdio._pairs_hook).decode(text.decode())
                expected = "ok"
            except ValueError:
                expected = "error"
            try:
                mcp_stdio.decode_message(text)
                got = "ok"
            except mcp_stdio.ProtocolError:
                got = "error"
            self.assertEqual(got, expected, text)

    def test_last_key_wins_only_when_asked(self):
        line = b'{"a":1,"b":{"c":2,"c":3},"a":4}'
        self.assertEqual(self.code(line), -32600)
        self.assertEqual(mcp_stdio.decode_message(line, unique_keys=False),
                         {"a": 4, "b": {"c": 3}})
        # Everything else is refused as strictly: NaN, lone surrogates, nesting, bad UTF-8.
        for bad, code in ((b'{"a":NaN,"a":1}', -32700), (b'{"a":1,"a":"\\ud800"}', -32600),
                          (b"[" * 33 + b"]" * 33, -32600), (b'{"a":"\xff"}', -32700),
                          (b"[1e400]", -32600)):
            with self.subTest(line=bad[:20]):
                with self.assertRaises(mcp_stdio.ProtocolError) as cm:
                    mcp_stdio.decode_message(bad, unique_keys=False)
                self.assertEqual(cm.exception.code, code)

    def test_nesting_limit(self):
        self.assertEqual(mcp_stdio.decode_message(b"[" * 32 + b"]" * 32), [[[]]] and
                         mcp_stdio.decode_message(b"[" * 32 + b"]" * 32))
        self.assertEqual(self.code(b"[" * 33 + b"]" * 33), -32600)
        self.assertEqual(self.code(b"[" * 100000 + b"]" * 100000), -32600)
        # brackets inside strings do not count
        self.assertEqual(mcp_stdio.decode_message(b'{"a":"' + b"[" * 100 + b'"}'),
                         {"a": "[" * 100})

    def test_canonical_encoding(self):
        self.assertEqual(mcp_stdio.encode_message({"a": "\u00e9", "b": [1, 2.5]}),
                         '{"a":"\u00e9","b":[1,2.5]}\n'.encode("utf-8"))
        with self.assertRaises(ValueError):
            mcp_stdio.encode_message({"a": float("nan")})

    def test_splitter(self):
        s = mcp_stdio.LineSplitter(max_line=10)
        self.assertEqual(s.feed(b"\xef\xbb"), [])
        self.assertEqual(s.feed(b"\xbfab\r\n\n  \r\ncd"), [b"ab"])
        self.assertEqual(s.feed(b"e\n" + b"x" * 10 + b"\n" + b"y" * 11 + b"\nz\n"),
                         [b"cde", b"x" * 10, None, b"z"])
        self.assertEqual(s.feed(b"q" * 50), [None])
        self.assertEqual(s.feed(b"q" * 50 + b"\nok\n"), [b"ok"])
        self.assertFalse(s.pending())
        s.feed(b"partial")
        self.assertTrue(s.pending())
        s2 = mcp_stdio.LineSplitter()
        self.assertEqual(s2.feed(b'{"a":1}\xef\xbb\xbf\n'), [b'{"a":1}\xef\xbb\xbf'])
        self.assertEqual(s2.feed(b"a\rb\n"), [b"a\rb"])

    def test_large_encoding_matches_the_plain_encoder(self):
        clean = "x" * 5000
        samples = [clean, clean + '"', "\x01" * 5000, "é" * 5000, "\\" * 4097, "\u2028" * 5000,
                   "short", "y" * 4096]
        for s in samples:
            for msg in ({"a": s, "b": [s, {"c": s}], s[:10]: s}, {"a": s, "b": s + "z"}):
                self.assertEqual(mcp_stdio.encode_message(msg, large=True),
                                 mcp_stdio.encode_message(msg), s[:12])
                self.assertEqual(json.loads(mcp_stdio.encode_message(msg, large=True)), msg)

    def test_splitter_matches_a_model_under_random_chunking(self):
        def model(stream, limit):
            if stream.startswith(b"\xef\xbb\xbf"):
                stream = stream[3:]
            *lines, tail = stream.split(b"\n")
            out = []
            for line in lines:
                line = line[:-1] if line.endswith(b"\r") else line
                if len(line) > limit:
                    out.append(None)
                elif line.strip(b" \t\r\n\x0b\x0c"):
                    out.append(line)
            return out + [None] * (len(tail) > limit + 1)

        r = random.Random(20261130)
        pieces = [b"{}", b"x" * 7, b"y" * 8, b"z" * 9, b"w" * 30, b" ", b"\t", b"\r", b"\r\r",
                  b"\xef\xbb\xbf", b"\xff", b""]
        for _ in range(3000):
            stream = b"\xef\xbb\xbf" * (r.random() < 0.2) + b"".join(
                r.choice(pieces) + b"\n" * (r.random() < 0.7) for _ in range(r.randrange(12)))
            s, got, i = mcp_stdio.LineSplitter(max_line=8), [], 0
            if r.random() < 0.5:             # line by line, as a client waiting for answers
                for line in stream.split(b"\n"):
                    got += s.feed(line + b"\n")
                got += s.feed(b"")
                self.assertEqual(got, model(stream + b"\n", 8), stream)
                continue
            while i < len(stream):
                n = r.choice([1, 2, 3, 5, 9, 40])
                got += s.feed(stream[i:i + n])
                i += n
            self.assertEqual(got, model(stream, 8), stream)

    def test_splitter_memory_is_bounded(self):
        s = mcp_stdio.LineSplitter(max_line=1000)
        chunk = b"z" * 65536
        out = []
        for _ in range(200):
            out += s.feed(chunk)
            self.assertLessEqual(s._held, 1001)
        self.assertEqual(out, [None])
        self.assertEqual(s.feed(b"\n{}\n"), [b"{}"])


class Backtracking(ProcTest):
    """Every regular expression applied to the other side's input is linear (or bounded)."""

    def test_the_184_byte_line_leaves_the_server_answering(self):
        p = self.spawn()
        p.send_bytes(b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"' + b"x" * 40 +
                     b'\x01","b":' + b"[" * 40 + b"]" * 40 + b"}}\n")
        self.assertEqual(p.recv_line(), b'{"jsonrpc":"2.0","error":{"code":-32700,"message":'
                         b'"Parse error: not a single JSON value (stopped at column 55)"}}\n')
        p.send_bytes(b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
        self.assertEqual(p.recv_line(), b'{"jsonrpc":"2.0","id":2,"result":{}}\n')
        self.assertEqual(p.close(), 0)

    def test_a_string_that_cannot_end_is_not_json(self):
        for tail in (b'\x01"]', b'\\x"]', b'\\u12"]', b""):
            with self.subTest(tail=tail):
                line = b"[" * 40 + b'"' + b"x" * 12 + tail + (b"]" * 39 if tail else b"")
                with self.assertRaises(mcp_stdio.ProtocolError) as cm:
                    mcp_stdio.decode_message(line)
                self.assertEqual(cm.exception.code, -32700)
        line = b"[" * 40 + b'"a\\"\\u00e9\\n"' + b"]" * 40 + b"  \t"
        with self.assertRaises(mcp_stdio.ProtocolError) as cm:
            mcp_stdio.decode_message(line)
        self.assertEqual((cm.exception.code, str(cm.exception)), (
            -32600, "Invalid Request: nesting depth 40 exceeds the limit of 32"))

    def test_templates_match_as_before_without_backtracking(self):
        """The linear split finds what the lazy expression finds, on 24,000 seeded URIs."""
        r = random.Random(20261201)
        for t in ("x://{a}-{b}", "x://{+a}/x/{b}", "x://{a}{b}", "x://{+a}{+b}.{c}",
                  "x://{a}.{b}.{c}", "u:{a}a{b}aa{+c}", "x://{a}/{b}", "f:{+p}/"):
            rt = mcp_stdio.ResourceTemplate(t, lambda *a: None, name="t")
            lits, names = rt._literals, rt._names
            lazy = re.compile("".join(re.escape(lit) + (
                "" if i == len(names) else "(.+?)" if names[i][1] == "reserved" else "([^/?#]+?)")
                for i, lit in enumerate(lits)) + r"\Z")
            for _ in range(3000):
                uri = t.split("{")[0] + "".join(r.choice("ab-./x?#\n") for _ in range(
                    r.randrange(12)))
                m = lazy.match(uri)
                got = rt._split(uri) if rt._regex is None else (
                    rt._regex.match(uri) and list(rt._regex.match(uri).groups()))
                self.assertEqual(got, m and list(m.groups()), (t, uri))
        rt = mcp_stdio.ResourceTemplate("x://{a}-{b}", lambda *a: None, name="t")
        self.assertEqual(rt.match("x://one-two-3"), {"a": "one", "b": "two-3"})
        self.assertIsNone(rt.match("x://one/two-3"))

    def test_patterns_that_backtrack_without_bound_are_refused(self):
        for p, what in (("(a+)+b", "repeats a part"), ("^(\\w+\\s?)*$", "repeats a part"),
                        ("^(a+){3}$", "repeats a part"), ("x(y|z+)*w", "repeats a part"),
                        ("^(a?){30}a{30}$", "repeats a part"),
                        ("^\\d*\\d*\\d*$", "3 repetitions in a row"),
                        ("[^@]+@[^@]+\\.[^@]+", "or anchor it with ^")):
            with self.subTest(pattern=p):
                with self.assertRaises(SchemaError) as cm:
                    compile_schema({"properties": {"v": {"pattern": p}}})
                self.assertIn("#/properties/v/pattern: pattern %r" % p, str(cm.exception))
                self.assertIn(what, str(cm.exception))
        for p in ("^[a-z]+$", "^[a-z]+(\\.[a-z]+)*$", "^([a-z]+,)*[a-z]+$", "^\\d{4}-\\d{2}$",
                  "^[^@]+@[^@]+\\.[^@]+$", "[a-z]+-[0-9]+", "^(\\d{2}){3}$", "a+", "f.o",
                  "^[A-Za-z0-9+/]*={0,2}$", "^(-?\\d+)(,-?\\d+)*$"):
            with self.subTest(pattern=p):
                compile_schema({"pattern": p})

    def test_a_quadratic_pattern_checks_a_bounded_length(self):
        n = mcp_stdio._PATTERN_TEXT_LIMIT
        v = compile_schema({"properties": {"v": {"pattern": "[a-z]+-[0-9]+"}},
                            "patternProperties": {"[a-z]+-[0-9]+": {"type": "integer"}}})
        self.assertEqual(v.errors({"v": "a" * (n - 4) + "-123"}), [])
        self.assertEqual(v.errors({"v": "a" * (n - 3) + "-123"}), [
            "/v: string of 4097 characters is longer than the 4096 that pattern "
            "'[a-z]+-[0-9]+' is checked on"])
        self.assertEqual(v.errors({"a" * (n + 1): 1}), [
            "(root): property name of 4097 characters is longer than the 4096 that pattern "
            "'[a-z]+-[0-9]+' is checked on"])
        anchored = compile_schema({"pattern": "^[a-z]+(\\.[a-z]+)*$"})   # linear: any length
        self.assertEqual(anchored.errors("a." * n + "a"), [])


class BacktrackingProcess(unittest.TestCase):
    """The worst cases, timed in a process of their own."""

    def test_worst_cases_finish_within_a_second(self):
        scale = 1 if SLOW else 4
        p = subprocess.Popen(PY + ["-c", BACKTRACKING_CASES, str(scale)], cwd=HERE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            out, err = p.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
        lines = [json.loads(x) for x in out.splitlines()]
        self.assertEqual(err, b"")
        self.assertEqual(len(lines) % 2, 0, "%r never ended" % (lines[-1:],))
        self.assertEqual(len(lines), 2 * 19)
        for (name, bound), seconds in zip(lines[::2], lines[1::2]):
            with self.subTest(case=name):
                self.assertLess(seconds, bound)


class Framing(ProcTest):

    def test_crlf_blank_lines_and_leading_bom(self):
        p = self.spawn()
        p.send_bytes(b"\xef\xbb\xbf" + b'{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n\r\n  \n\n')
        self.assertEqual(p.recv_line(), b'{"jsonrpc":"2.0","id":1,"result":{}}\n')
        p.send_bytes(b'\xef\xbb\xbf{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
        self.assertEqual(p.recv_line(), b'{"jsonrpc":"2.0","error":{"code":-32700,'
                         b'"message":"Parse error: unexpected byte order mark at column 1"}}\n')
        self.assertEqual(p.close(), 0)

    def test_bytes_split_across_writes(self):
        p = self.spawn()
        data = b'{"jsonrpc":"2.0","id":"a","method":"ping"}\n{"jsonrpc":"2.0","id":"b","method":"ping"}\n'
        for i in range(len(data)):
            p.send_bytes(data[i:i + 1])
        self.assertEqual(p.recv()["id"], "a")
        self.assertEqual(p.recv()["id"], "b")

    def test_clean_eof_exits_zero_without_output(self):
        p = self.spawn()
        self.assertEqual(p.close(), 0)
        self.assertEqual(p.raw, [])

    def test_partial_line_at_eof_is_not_executed(self):
        p = self.spawn()
        p.send_bytes(b'{"jsonrpc":"2.0","id":1,"method":"ping"}')
        self.assertEqual(p.close(), 1)
        self.assertEqual(p.raw, [])
        self.assertIn(b"without a final LF", p.stderr)
        self.assertNotIn(b"ping", p.stderr)

    def test_line_limit_at_the_boundary_and_one_over(self):
        p = self.spawn("--max-line", "100")
        head = b'{"jsonrpc":"2.0","id":1,"method":"ping","x":"'
        exact = head + b"a" * (100 - len(head) - 2) + b'"}'
        self.assertEqual(len(exact), 100)
        p.send_bytes(exact + b"\r\n")
        self.assertEqual(p.recv(), {"jsonrpc": "2.0", "id": 1, "result": {}})
        over = head + b"a" * (101 - len(head) - 2) + b'"}'
        p.send_bytes(over + b"\n")
        r = p.recv()
        self.assertEqual(r, {"jsonrpc": "2.0", "error": {"code": -32600, "message":
                             "Invalid Request: message line exceeds the limit of 100 bytes"}})
        p.send_bytes(b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
        self.assertEqual(p.recv()["id"], 2)

    def test_default_line_limit_is_one_mebibyte(self):
        p = self.spawn()
        head = b'{"jsonrpc":"2.0","id":1,"method":"ping","x":"'
        for size, ok in ((1 << 20, True), ((1 << 20) + 1, False)):
            line = head + b"a" * (size - len(head) - 2) + b'"}'
            p.send_bytes(line + b"\n")
            r = p.recv()
            self.assertEqual("result" in r, ok)

    @unittest.skipIf(not os.path.isdir("/proc"), "reads the memory of a process from /proc (Linux)")
    def test_huge_line_without_lf_keeps_memory_bounded(self):
        p = self.spawn()
        chunk = b"x" * (1 << 20)
        rss = []
        for i in range(100):
            p.send_bytes(chunk)
            if i in (5, 99):
                with open("/proc/%d/status" % p.p.pid) as f:
                    rss.append(int([l for l in f if l.startswith("VmRSS")][0].split()[1]))
        r = p.recv()
        self.assertEqual(err_code(r), -32600)
        p.send_bytes(b'\n{"jsonrpc":"2.0","id":7,"method":"ping"}\n')
        self.assertEqual(p.recv()["id"], 7)
        self.assertLess(rss[1] - rss[0], 4096, "RSS grew by more than 4 MiB: %r" % rss)


###############################################################################
# Catalog: tools and results ##################################################
###############################################################################


class Registration(unittest.TestCase):

    def test_the_three_ways_to_make_a_tool_take_the_same_fields(self):
        """Tool(), server.tool() and tool_from_function() read one table of a tool's fields."""
        fields = {"title": "Look up", "description": "Finds it.", "annotations": {
            "readOnlyHint": True}, "icons": [{"src": "https://x/i.png"}], "timeout": 5,
            "meta": {"x": 1}, "task": "optional", "task_start": "handler", "pinned": True,
            "search_hint": "look things up"}
        if "apps" in SERVED:                   # the fields MCP Apps adds
            fields.update(app="ui://lookup", visibility=("model", "app"))
        self.assertEqual(set(fields), set(mcp_stdio._TOOL_FIELDS))

        def lookup(q: str) -> str:
            """Look it up."""
            return q
        server = mcp_stdio.Server("s", "1")
        made = [mcp_stdio.Tool("lookup", lambda a, c: "x", **fields),
                mcp_stdio.tool_from_function(lookup, **fields)]
        server.tool(**fields)(lookup)
        made.append(server.tools["lookup"])
        for tool in made:
            self.assertEqual({k: getattr(tool, k) for k in fields}, fields)
        for make in (lambda **kw: mcp_stdio.Tool("t", lambda a, c: "x", **kw),
                     lambda **kw: mcp_stdio.tool_from_function(lookup, **kw),
                     lambda **kw: server.tool(name="other", **kw)(lookup)):
            with self.assertRaises(TypeError):
                make(colour="red")
            with self.assertRaises(mcp_stdio.CatalogError):
                make(task="sometimes")
            with self.assertRaises(mcp_stdio.CatalogError):
                make(annotations={"loud": True})
        self.assertEqual(mcp_stdio.tool_from_function(lookup).description, "Look it up.")
        self.assertEqual(mcp_stdio.tool_from_function(lookup).task, "forbidden")

    def test_union_operator_on_python_3_9_says_what_to_write(self):
        text = mcp_stdio._hint_problem(TypeError("unsupported operand type(s) for |: 'type' "
                                                 "and 'NoneType'"))
        self.assertTrue(text.endswith("; 'A | B' in an annotation needs Python 3.10: write "
                                      "Optional[A] or Union[A, B]"), text)
        code = ("from __future__ import annotations\n"
                "def f(x: int | None = None) -> str:\n    return 'x'\n")
        namespace = {}
        exec(compile(code, "<user>", "exec"), namespace)
        server = mcp_stdio.Server("s", "1")
        if sys.version_info < (3, 10):
            with self.assertRaisesRegex(mcp_stdio.CatalogError, r"write Optional\[A\]"):
                server.tool(namespace["f"])
        else:
            server.tool(namespace["f"])
            self.assertIn("f", server.tools)

    def test_every_option_is_in_the_table(self):
        """configure() takes what the constructor takes, state_key and live included."""
        server = mcp_stdio.Server("s", "1")
        server.configure(state_key=b"k" * 16, live=True, workers=2)
        self.assertEqual((server.state_key, server.live, server.workers), (b"k" * 16, True, 2))
        with self.assertRaisesRegex(mcp_stdio.CatalogError, "state_key must be at least 16"):
            server.configure(state_key=b"short")
        with self.assertRaisesRegex(mcp_stdio.CatalogError, "live must be True or False"):
            mcp_stdio.Server("s", "1", live=1)
        self.assertEqual(mcp_stdio.Server("s", "1", state_key=b"x" * 20).state_key, b"x" * 20)
        server.connection()
        server.configure()                          # nothing to change: fine
        with self.assertRaisesRegex(mcp_stdio.CatalogError, r"'s': live, workers cannot "
                                    r"change once it serves"):
            server.configure(workers=3, live=False)
        self.assertNotIn("state_key", mcp_stdio._help_text("p", "about"))   # not a command-line flag

    def test_bad_definitions(self):
        ok = lambda a, c: "x"  # noqa: E731
        cases = [
            (lambda: mcp_stdio.Tool("bad name", ok), "'bad name'"),
            (lambda: mcp_stdio.Tool("x" * 129, ok), "1-128"),
            (lambda: mcp_stdio.Tool("n\u00e9", ok), "1-128"),     # an identifier, not ASCII
            (lambda: mcp_stdio.Tool("t", None), "handler"),
            (lambda: mcp_stdio.Tool("t", ok, input_schema={"type": "string"}), "type"),
            (lambda: mcp_stdio.Tool("t", ok, input_schema=True), "inputSchema"),
            (lambda: mcp_stdio.Tool("t", ok, input_schema={"type": "object",
                                                           "unevaluatedProperties": False}),
             "additionalProperties"),
            (lambda: mcp_stdio.Tool("t", ok, output_schema={"$ref": "http://x"}), "output"),
            (lambda: mcp_stdio.Server("s", "1", tools=[mcp_stdio.Tool("t", ok),
                                                        mcp_stdio.Tool("t", ok)]), "twice"),
            (lambda: mcp_stdio.Server("s", "1", tools=[mcp_stdio.Tool("t", ok)],
                                      grant=["u"]).connection(), "unknown tool"),
        ]
        for make, fragment in cases:
            with self.assertRaises(mcp_stdio.CatalogError) as cm:
                make()
            self.assertIn(fragment, str(cm.exception))
        for name in ("a.b-c_1", "9x", "-", "x" * 128):
            self.assertEqual(mcp_stdio.Tool(name, ok).name, name)
        with self.assertRaises(mcp_stdio.CatalogError) as cm:
            mcp_stdio.Tool("t", ok, input_schema={"type": "object", "minimum": "x"})
        self.assertEqual(str(cm.exception), "tool 't': input schema rejected: #/minimum: must be "
                         "a number")


###############################################################################
# Authoring API: functions, fields and results from values ####################
###############################################################################


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Movie(TypedDict, total=False):
    title: str
    year: int


class Book(TypedDict):
    isbn: str


@dataclasses.dataclass
class Point:
    x: float
    y: float = 0.0


@dataclasses.dataclass
class Tree:
    child: "Tree"


class ValueTypes(unittest.TestCase):
    """Standard-library values in and out, in the JSON pydantic's JSON mode writes."""

    def server(self):
        import decimal
        import pathlib
        import uuid
        server = mcp_stdio.Server("v", "1")

        @server.tool
        def echo(when: datetime.datetime, day: datetime.date, clock: datetime.time,
                 span: datetime.timedelta, ref: uuid.UUID, amount: decimal.Decimal,
                 where: pathlib.Path, blob: bytes) -> dict:
            """Echo typed values."""
            assert isinstance(where, pathlib.Path) and isinstance(blob, bytes)
            return {"when": when, "day": day, "clock": clock, "span": span, "ref": ref,
                    "amount": amount * 2, "where": where / "x", "blob": blob}

        @server.tool
        def stamp() -> datetime.datetime:
            return datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)

        @server.tool
        def odd():
            return object()
        return server

    ARGS = {"when": "2026-01-02T03:04:05.5Z", "day": "2026-02-28", "clock": "10:20",
            "span": "P1Y2DT3H0.25S", "ref": "12345678-1234-5678-1234-567812345678",
            "amount": "0.10", "where": "/tmp", "blob": "AAH/"}

    def test_schemas(self):
        with mcp_stdio.InProcessClient(self.server(), era="legacy") as c:
            props = [t for t in c.list_tools() if t["name"] == "echo"][0]["inputSchema"][
                "properties"]
        self.assertEqual({k: v.get("format", v.get("contentEncoding")) for k, v in props.items()
                          if k != "amount"},
                         {"when": "date-time", "day": "date", "clock": "time",
                          "span": "duration", "ref": "uuid", "where": "path", "blob": "base64"})
        self.assertEqual([s["type"] for s in props["amount"]["anyOf"]], ["number", "string"])

    def test_values_in_and_out(self):
        with mcp_stdio.InProcessClient(self.server(), era="legacy") as c:
            r = c.call_tool("echo", self.ARGS)
            self.assertEqual(r["structuredContent"], {
                "when": "2026-01-02T03:04:05.500000Z", "day": "2026-02-28", "clock": "10:20:00",
                "span": "P1Y2DT3H0.25S", "ref": "12345678-1234-5678-1234-567812345678",
                "amount": "0.20", "where": "/tmp/x", "blob": "AAH/"})
            self.assertEqual(c.call_tool("stamp")["content"],
                             [{"type": "text", "text": "2026-01-02T03:04:05Z"}])
            r = c.call_tool("odd")
            self.assertTrue(r["isError"])
            self.assertIn("object is not JSON serializable; return str, a dict, a list, a "
                          "dataclass, a pydantic model or content blocks",
                          r["content"][0]["text"])

    def test_bad_values_name_their_path(self):
        with mcp_stdio.InProcessClient(self.server(), era="legacy") as c:
            for key, value, message in (
                    ("when", "2026-13-01T00:00:00Z", "is not an ISO 8601 date-time"),
                    ("day", "2026-02-30", "is not an ISO 8601 date"),
                    ("clock", "25:00", "is not an ISO 8601 time"),
                    ("span", "P", "is not an ISO 8601 duration"),
                    ("span", "3 days", "is not an ISO 8601 duration"),
                    ("ref", "not-a-uuid", "is not a UUID"),
                    ("blob", "***", "is not base64")):
                with self.subTest(key=key, value=value):
                    r = c.call_tool("echo", dict(self.ARGS, **{key: value}))
                    self.assertTrue(r["isError"])
                    self.assertIn("- /%s: %s" % (key, json.dumps(value)), r["content"][0]["text"])
                    self.assertIn(message, r["content"][0]["text"])
            r = c.call_tool("echo", dict(self.ARGS, amount="NaN"))
            self.assertIn("- /amount:", r["content"][0]["text"])

    def test_pydantic_encodings(self):
        # What pydantic 2's model_dump(mode="json") writes for the same values.
        td = datetime.timedelta
        for value, text in ((td(0), "PT0S"), (td(seconds=-1), "-PT1S"),
                            (td(days=-1, seconds=5), "-PT23H59M55S"),
                            (td(weeks=3, microseconds=1), "P21DT0.000001S"),
                            (td(days=400, seconds=59.25), "P1Y35DT59.25S"),
                            (td(days=1, hours=1), "P1DT1H")):
            self.assertEqual(mcp_stdio._iso_duration(value), text)
            self.assertEqual(mcp_stdio._parse_duration(text), value)
        tz = datetime.timezone(datetime.timedelta(hours=2))
        for value, text in ((datetime.datetime(2020, 1, 2, 3, 4, 5, 6, datetime.timezone.utc),
                             "2020-01-02T03:04:05.000006Z"),
                            (datetime.datetime(2020, 1, 2, 3, 4, 5), "2020-01-02T03:04:05"),
                            (datetime.time(3, 4, tzinfo=tz), "03:04:00+02:00")):
            self.assertEqual(mcp_stdio._to_json(value), text)
        self.assertEqual(mcp_stdio._parse_datetime("2020-01-02T03:04:05.5+01:00").utcoffset(),
                         datetime.timedelta(hours=1))            # a short fraction, any Python
        self.assertEqual(mcp_stdio._parse_datetime("2020-01-02"), datetime.datetime(2020, 1, 2))


class ForeignTypes(unittest.TestCase):
    """pydantic, annotated-types and msgspec objects, recognised by protocol (fakes here;
    OfficialSDK runs the real libraries)."""

    @staticmethod
    def fake(module, name, **attrs):
        cls = type(name, (), {"__module__": module,
                              "__repr__": lambda self: "%s(%r)" % (name, attrs)})
        obj = cls()
        obj.__dict__.update(attrs)
        return obj

    def test_constraints(self):
        Ge, MaxLen, Meta = (lambda v: self.fake("annotated_types", "Ge", ge=v),
                            lambda v: self.fake("annotated_types", "MaxLen", max_length=v),
                            lambda **kw: self.fake("msgspec", "Meta", **kw))

        def f(n: Annotated[int, Ge(1)], tags: Annotated[list, MaxLen(3)],
              s: Annotated[str, Meta(pattern="^a", min_length=2, extra_json_schema={"x-k": 1})]
              ) -> str:
            return "ok"
        props = mcp_stdio.tool_from_function(f).input_schema["properties"]
        self.assertEqual(props["n"], {"type": "integer", "minimum": 1})
        self.assertEqual(props["tags"]["maxItems"], 3)
        self.assertEqual(props["s"], {"type": "string", "pattern": "^a", "minLength": 2,
                                      "x-k": 1})

        def g(x: Annotated[int, self.fake("annotated_types", "Predicate", func=abs)]) -> str:
            return ""
        with self.assertRaises(mcp_stdio.CatalogError) as cm:
            mcp_stdio.tool_from_function(g)
        self.assertIn("tool 'g': parameter 'x': Annotated metadata Predicate", str(cm.exception))

    def test_aliases_and_extra_keywords(self):
        def f(resource_uri: Annotated[str, Field(alias="resourceUri", deprecated=True,
                                                 extra={"x-hint": "uri"})],
              count: int = 1) -> str:
            return "%s %d" % (resource_uri, count)
        server = mcp_stdio.Server("s", "1", tools=[mcp_stdio.tool_from_function(f)])
        schema = server.tools["f"].input_schema
        self.assertEqual(list(schema["properties"]), ["resourceUri", "count"])
        self.assertEqual(schema["required"], ["resourceUri"])
        self.assertEqual(schema["properties"]["resourceUri"],
                         {"type": "string", "deprecated": True, "x-hint": "uri"})
        with mcp_stdio.InProcessClient(server, era="legacy") as c:
            self.assertEqual(c.call_tool("f", {"resourceUri": "a://b"})["content"][0]["text"],
                             "a://b 1")
            r = c.call_tool("f", {"resource_uri": "a://b"})
            self.assertTrue(r["isError"])

        def g(items: list[Annotated[int, Field(alias="x")]]) -> str:
            return ""
        with self.assertRaises(mcp_stdio.CatalogError) as cm:
            mcp_stdio.tool_from_function(g)
        self.assertIn("an alias applies to a tool parameter only", str(cm.exception))

    def test_model_protocol(self):
        class Node:                                 # a pydantic-like model class
            @classmethod
            def model_json_schema(cls, mode="validation", by_alias=True):
                return {"type": "object", "properties": {"child": {"$ref": "#/$defs/Leaf"},
                                                         "note": {"$ref": "#/$defs/Leaf",
                                                                  "description": "d"}},
                        "$defs": {"Leaf": {"type": "object", "properties": {
                            "n": {"type": "integer"}}}}}

            @classmethod
            def model_validate(cls, value):
                return ("validated", value)

            def model_dump(self, mode="python"):
                return {}

        def f(node: Node) -> str:
            return repr(node)
        tool = mcp_stdio.tool_from_function(f)
        schema = tool.input_schema["properties"]["node"]
        self.assertNotIn("$defs", json.dumps(schema))
        self.assertEqual(schema["properties"]["note"], {"type": "object", "properties": {
            "n": {"type": "integer"}}, "description": "d"})
        self.assertEqual(tool.handler({"node": {"child": {"n": 1}}}, None),
                         "('validated', {'child': {'n': 1}})")

        whole = mcp_stdio.Tool("whole", lambda args, ctx: repr(args), input_schema=Node)
        self.assertEqual(whole.input_schema["properties"]["note"]["description"], "d")
        self.assertEqual(whole.handler({"note": {"n": 2}}, None), "('validated', {'note': {'n': 2}})")

        class Loop(Node):
            @classmethod
            def model_json_schema(cls, mode="validation", by_alias=True):
                return {"$ref": "#/$defs/L", "$defs": {"L": {"type": "object", "properties": {
                    "next": {"$ref": "#/$defs/L"}}}}}

        def g(node: Loop) -> str:
            return ""
        with self.assertRaises(mcp_stdio.CatalogError) as cm:
            mcp_stdio.tool_from_function(g)
        self.assertIn("L refers to itself; flat schemas cannot recurse", str(cm.exception))

    def test_content_annotation(self):
        def pictures() -> list[mcp_stdio.Content]:
            return [mcp_stdio.text("a"), mcp_stdio.image(b"\x89PNG")]

        def listing() -> list:
            return [mcp_stdio.text("a")]
        tool = mcp_stdio.tool_from_function(pictures)
        self.assertIsNone(tool.output_schema)
        r = tool_result(tool, tool.handler({}, None), "2025-11-25")
        self.assertEqual([b["type"] for b in r["content"]], ["text", "image"])
        self.assertNotIn("structuredContent", r)
        self.assertIsNotNone(mcp_stdio.tool_from_function(listing).output_schema)


@unittest.skipUnless(os.environ.get("MCP_STDIO_PYRIGHT"),
                     "pyright from npm: with MCP_STDIO_PYRIGHT (.ci/run sets it)")
class Typing(unittest.TestCase):
    """A server written with the public names the README shows type-checks in pyright's
    strict mode: decorated functions keep their types, and what the API takes and returns
    is known (errors inside mcp_stdio.py itself are not counted: only the example's)."""

    def test_the_typed_example_passes_pyright_strict(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        config = os.path.join(tmp.name, "pyrightconfig.json")
        with open(config, "w") as f:
            json.dump({"typeCheckingMode": "strict", "pythonVersion": "3.9",
                       "extraPaths": [HERE]}, f)
        example = os.path.join(HERE, "examples", "typed_server.py")
        env = dict(os.environ, PATH=os.pathsep.join(     # its script runs on node
            [os.environ.get("MCP_STDIO_NODE_BIN", ""), os.environ.get("PATH", "")]))
        r = subprocess.run([os.environ["MCP_STDIO_PYRIGHT"], "-p", config, example],
                           capture_output=True, text=True, timeout=300, env=env,
                           stdin=subprocess.DEVNULL)
        self.assertIn("0 errors", r.stdout, r.stdout[-3000:])
        self.assertEqual(r.returncode, 0, r.stdout[-3000:])
        # And it holds what it says: a decorator that hid the function's type fails it.
        broken = os.path.join(tmp.name, "untyped.py")
        with open(broken, "w") as f:
            f.write("import mcp_stdio\n\nserver = mcp_stdio.Server('s', '1')\n\n\n"
                    "def untyped(fn):\n    return fn\n\n\n@untyped\n"
                    "def f(x: int) -> int:\n    return x\n")
        r = subprocess.run([os.environ["MCP_STDIO_PYRIGHT"], "-p", config, broken],
                           capture_output=True, text=True, timeout=300, env=env,
                           stdin=subprocess.DEVNULL)
        self.assertNotEqual(r.returncode, 0, r.stdout)


class Examples(ProcTest):
    """Each example server, started through pipes and called."""

    def test_examples(self):
        folder = os.path.join(HERE, "examples")
        scripts = sorted(glob.glob(os.path.join(folder, "*.py")))
        self.assertGreaterEqual(len(scripts), 2)
        for script in scripts:
            if os.path.basename(script) == "typed_server.py" and "apps" not in SERVED:
                continue                      # it shows a view: the module without MCP Apps
            with self.subTest(example=os.path.basename(script)), \
                    tempfile.TemporaryDirectory() as tmp:
                p = self.spawn(script=script, env={"NOTES_DIR": tmp})
                p.initialize("2025-11-25")
                tools = p.answer(req_msg(1, "tools/list"))["result"]["tools"]
                self.assertTrue(tools)
                for i, (name, args, check) in enumerate(EXAMPLE_CALLS[os.path.basename(script)]):
                    r = p.answer(req_msg(10 + i, "tools/call", {"name": name, "arguments": args}))
                    if "Rate limit" not in json.dumps(r):        # the one refusal expected
                        self.assertFalse(r["result"].get("isError"), r)
                    self.assertEqual(check(r["result"]), True, r)
                if os.path.basename(script) == "notes_server.py":
                    r = p.answer(req_msg(3, "resources/read", {"uri": "notes://groceries"}))
                    self.assertEqual(r["result"]["contents"][0]["text"], "eggs, milk")
                    r = p.answer(req_msg(4, "prompts/get", {"name": "summarize_note",
                                                             "arguments": {"name": "groceries"}}))
                    self.assertIn("notes://groceries", json.dumps(r["result"]))
                    # Limits are the schema's, not accidents of the code.
                    p.answer(req_msg(5, "tools/call", {"name": "add_note", "arguments": {
                        "name": "todo", "text": "buy milk"}}))
                    for limit, matches in ((None, ["groceries", "todo"]), (1, ["groceries"])):
                        args = {"query": "milk"} if limit is None else {"query": "milk",
                                                                        "limit": limit}
                        r = p.answer(req_msg(6, "tools/call", {"name": "search_notes",
                                                               "arguments": args}))
                        self.assertEqual(r["result"]["structuredContent"], {"matches": matches})
                    for name, args, where in (
                            ("search_notes", {"query": "milk", "limit": 0}, "/limit"),
                            ("search_notes", {"query": "milk", "limit": -1}, "/limit"),
                            ("delete_note", {"name": "x" * 300}, "/name")):
                        r = p.answer(req_msg(7, "tools/call", {"name": name, "arguments": args}))
                        self.assertTrue(r["result"]["isError"])
                        text = r["result"]["content"][0]["text"]
                        self.assertTrue(text.startswith("Invalid arguments") and where in text,
                                        text)
                    self.assertNotIn(b"incident", p.stderr)
                self.assertEqual(p.close(), 0)


###############################################################################
# Large catalogs: functions described at first use ############################
###############################################################################

def plain_functions(seed, n):
    """n generated plain functions (what _plain_signature passes), of every shape it takes:
    str, int, float, bool and Optional parameters, defaults, keyword-only ones, ctx,
    async, docstrings of several layouts, every plain return."""
    r = random.Random(seed)
    kinds = [("str", '"a b"'), ("int", "-3"), ("float", "2.5"), ("bool", "True"),
             ("Optional[int]", "None"), ("Optional[str]", "None"), ("int | None", "None")]
    returns = ["", " -> str", " -> dict", " -> list", " -> int", " -> bool", " -> None"]
    docs = ['"""Do {i}.\n\n    Args:\n{args}    """',
            '"""Do {i}."""', '',
            '"""\n    Do {i}\n    over two lines.\n\n    Parameters:\n{args}\n    Returns:\n'
            '        Something.\n    """',
            '"""Do {i}.\n\n    :param p0: reST.\n    """']
    out = []
    for i in range(n):
        params, args = [], ""
        for k in range(r.randint(0, 4)):
            kind, default = r.choice(kinds)
            if default == "None" or r.random() < 0.4:
                params.append("p%d: %s = %s" % (k, kind, default))
            else:
                params.append("p%d: %s" % (k, kind))
            args += "        p%d: Parameter %d of %d.\n" % (k, k, i)
        required = [q for q in params if "=" not in q]
        defaulted = [q for q in params if "=" in q]
        if defaulted and r.random() < 0.3:
            defaulted.insert(0, "*")              # keyword-only
        if r.random() < 0.2:
            required.insert(0, "ctx")
        params = required + defaulted
        ret = r.choice(returns)
        value = {" -> dict": "{'i': %d}" % i, " -> list": "[%d]" % i, " -> int": str(i),
                 " -> bool": "True", " -> None": "None"}.get(ret, "'ok %d'" % i)
        out.append("%sdef f%d(%s)%s:\n    %s\n    return %s\n" % (
            "async " if r.random() < 0.1 else "", i, ", ".join(params), ret,
            r.choice(docs).format(i=i, args=args) or "pass", value))
    namespace = {"Optional": typing.Optional, "Context": mcp_stdio.Context}
    if sys.version_info < (3, 10):
        out = [f.replace("int | None", "Optional[int]") for f in out]
    exec("\n\n".join(out), namespace)
    return [namespace["f%d" % i] for i in range(n)]


class LargeCatalogs(unittest.TestCase):

    def test_a_plain_function_is_described_at_first_use(self):
        server = mcp_stdio.Server("s", "1")

        @server.tool
        def add(a: int, b: int = 2) -> dict:
            """Add two numbers.

            Args:
                a: The first.
                b: The second.
            """
            return {"sum": a + b}
        tool = server.tools["add"]
        self.assertEqual([k for k in mcp_stdio._FUNCTION_PARTS if k in vars(tool)], [])
        conn = connect(server)
        listed = json.loads(conn.receive_line(json.dumps(req_msg(1, "tools/list", {},
                                                                 True)).encode())[0])
        self.assertEqual(listed["result"]["tools"], [{
            "name": "add", "description": "Add two numbers.",
            "inputSchema": {"type": "object", "properties": {
                "a": {"type": "integer", "description": "The first."},
                "b": {"type": "integer", "description": "The second.", "default": 2}},
                "required": ["a"], "additionalProperties": False},
            "outputSchema": {"type": "object"}}])
        self.assertEqual([k for k in mcp_stdio._FUNCTION_PARTS if k in vars(tool)],
                         ["input_schema", "output_schema", "description"])
        r = call_tool(server, "add", {"a": 1})
        self.assertEqual(r["result"]["structuredContent"], {"sum": 3})
        self.assertEqual([k for k in mcp_stdio._FUNCTION_PARTS if k not in vars(tool)], [])

    def test_first_use_describes_what_registration_would(self):
        """300 generated plain functions: the parts described at first use are those the
        general path makes at once, and calls answer alike."""
        for fn in plain_functions(541, 300):
            with self.subTest(fn=fn.__name__):
                self.assertTrue(mcp_stdio._plain_signature(fn))
                lazy = mcp_stdio.tool_from_function(fn)
                eager, _ = mcp_stdio._read_function(fn, fn.__name__, "tool")
                for part in ("input_schema", "output_schema", "description", "nullable",
                             "uses_context"):
                    self.assertEqual(getattr(lazy, part), eager[part], part)
                args = {k: v.get("default", {"integer": 7, "number": 1.5, "string": "s",
                                             "boolean": False}.get(v.get("type")))
                        for k, v in lazy.input_schema.get("properties", {}).items()}
                got, want = lazy.handler(args, None), eager["handler"](args, None)
                if isinstance(want, mcp_stdio.ToolResult):
                    got, want = [(x.content, x.structured, x.is_error) for x in (got, want)]
                self.assertEqual(got, want)

    def test_a_decorated_tool_keeps_the_class_defaults(self):
        # A decorated function's tool sets only its name, its function and a task that
        # is not the default; every other field reads as the class's default, as a Tool
        # given each field explicitly reads them.
        for support, own in (("forbidden", {"_function", "name"}),
                             ("optional", {"_function", "name", "task"})):
            server = mcp_stdio.Server("s", "1", task_support=support)

            @server.tool
            def f(a: int) -> str:
                """Do it."""
                return "x"
            tool = server.tools["f"]
            self.assertEqual(set(vars(tool)), own)
            # Each field given, the extensions' too (a rebuild without one has fewer).
            explicit = mcp_stdio.Tool("f", lambda a, c: "x",
                                      **dict(mcp_stdio._TOOL_FIELDS, task=support))
            self.assertLessEqual(set(mcp_stdio._TOOL_FIELDS), set(vars(explicit)))
            for k in mcp_stdio._TOOL_FIELDS:
                if k != "description":
                    self.assertEqual(getattr(tool, k), getattr(explicit, k), k)
            self.assertIs(tool.work, mcp_stdio.Tool.work)
            self.assertEqual(call_tool(server, "f", {"a": 1})["result"]["content"],
                             [{"type": "text", "text": "x"}])

    def test_a_decorated_resource_keeps_the_class_defaults(self):
        # resource(uri) alone sets the URI, function, name and description; the handler of a
        # function that takes nothing is made at its first read, and every other field reads
        # as the class's, as a Resource given each keyword's default does, and lists alike. A
        # keyword given takes the general path.
        server = mcp_stdio.Server("s", "1")

        def item():
            """The item, as text."""
            return "the item"
        server.resource("cat://item")(item)
        server.resource("cat://typed", mime_type="text/plain")(item)
        plain, typed = server.resources["cat://item"], server.resources["cat://typed"]
        self.assertEqual(set(vars(plain)), {"uri", "_function", "name", "description"})
        self.assertIs(plain.handler, plain.handler)         # made once, then kept
        self.assertEqual(set(vars(plain)), {"uri", "_function", "handler", "name",
                                            "description"})
        self.assertEqual(plain.handler("cat://item", None), "the item")
        self.assertEqual(typed.mime_type, "text/plain")
        with self.assertRaises(AttributeError):             # as before: none set, none read
            mcp_stdio.Resource.__new__(mcp_stdio.Resource).handler

        def takes(uri, ctx):
            return uri
        server.resource("cat://takes")(takes)      # what it takes is checked at once
        self.assertNotIn("_function", vars(server.resources["cat://takes"]))
        explicit = mcp_stdio.Resource("cat://item", plain.handler, name="item",
                                      description="The item, as text.")
        self.assertEqual({k: getattr(plain, k) for k in vars(explicit)}, vars(explicit))
        for revision in mcp_stdio.REVISIONS:
            self.assertEqual(plain.describe(revision), explicit.describe(revision))
        p = InProc(self, server=server)
        p.initialize()
        read = p.answer(req_msg(2, "resources/read", {"uri": "cat://item"}))
        self.assertEqual(read["result"]["contents"][0]["text"], "the item")
        for uri, fragment in (("cat://{id}", "holds no braces; for a family"),
                              ("cat://a b", "holds no space or control"), ("item", "scheme")):
            with self.assertRaisesRegex(mcp_stdio.CatalogError, fragment):
                server.resource(uri)(item)

    def test_a_resource_as_made_is_listed_as_text_describe_would_give(self):
        # A resource decorated with only its URI is listed as JSON text: describe()'s, for
        # every revision and audience; one given any other field is described.
        server = mcp_stdio.Server("s", "1")
        docs = [None, "", "One line.", "  Padded.  ", "Two\n\n    lines.", "Quote \" \\ é \u2028"]
        for i, doc in enumerate(docs):
            def f():
                return "x"
            f.__doc__ = doc
            server.resource("cat://r/%d" % i)(f)
        server.resource("cat://typed", mime_type="text/plain")(f)
        server.resource("cat://titled", title="T")(f)
        keys = [key for key, _ in mcp_stdio._TAKE_HOOKS]
        memo = {}
        for revision in mcp_stdio.REVISIONS:
            for audience in (frozenset(c) for n in range(len(keys) + 1)
                             for c in itertools.combinations(keys, n)):
                for uri, r in server.resources.items():
                    got = mcp_stdio._listing_text(r, revision, audience, memo)
                    with self.subTest(uri=uri, revision=revision, audience=sorted(audience)):
                        if uri in ("cat://typed", "cat://titled"):
                            self.assertIs(got, mcp_stdio._UNSEEN)
                            continue
                        want = r.describe(revision, audience)
                        self.assertEqual(got,
                                         None if want is None else
                                         "".join(mcp_stdio._chunks(want)))
        for revision in (MODERN,) + LEGACY:       # a page of both, checked canonical
            p = InProc(self, server=server)
            modern = p.open(revision)
            listed = p.answer(req_msg(2, "resources/list", {}, modern))["result"]["resources"]
            self.assertEqual(listed, [r.describe(revision)
                                      for _, r in sorted(server.resources.items())])

    def test_a_resource_changed_after_its_decorator_is_listed_as_changed(self):
        # Whether a resource is as made is read from its fields at its listing, so a field
        # set after the decorator is listed, by describe().
        changes = {"title": "T", "mime_type": "text/markdown", "size": 3,
                   "annotations": {"priority": 0.5}, "icons": [{"src": "https://x/i.png"}],
                   "meta": {"k": "v"}, "description": "Changed.", "name": "renamed"}
        server = mcp_stdio.Server("s", "1")
        for field in changes:
            def f():
                """Made."""
                return "x"
            server.resource("cat://%s" % field)(f)
        for field, value in changes.items():
            setattr(server.resources["cat://%s" % field], field, value)
        for revision in (MODERN,) + LEGACY:
            p = InProc(self, server=server)
            modern = p.open(revision)
            listed = p.answer(req_msg(2, "resources/list", {}, modern))["result"]["resources"]
            self.assertEqual(listed, [r.describe(revision)
                                      for _, r in sorted(server.resources.items())])
            for field, r in zip(sorted(changes), listed):
                with self.subTest(revision=revision, field=field):
                    self.assertEqual(r["description"], "Changed." if field == "description"
                                     else "Made.")
                    self.assertEqual(r["name"], "renamed" if field == "name" else f.__name__)
                    key = {"meta": "_meta", "mime_type": "mimeType"}.get(field, field)
                    if revision == MODERN and field not in ("description", "name"):
                        self.assertEqual(r[key], changes[field])

    def test_a_uri_is_refused_as_the_expression_says(self):
        # The check's quick way (printable, no space, no brace) passes exactly the URIs
        # in which the expression finds nothing, for every character of the BMP and the
        # astral planes' first of each 97.
        expression = re.compile(mcp_stdio._NOT_IN_URI_RE)
        for cp in itertools.chain(range(0x10000), range(0x10000, 0x110000, 97)):
            uri = "a:b" + chr(cp)
            try:
                mcp_stdio._check_uri(uri)
                refused = False
            except mcp_stdio.CatalogError:
                refused = True
            if refused != bool(expression.search(uri)):
                self.fail("U+%04X: refused %s" % (cp, refused))

    def test_a_parameter_is_plain_as_the_general_path_says(self):
        # _plain_signature checks each parameter inline: for one parameter of every
        # annotation and default, it passes exactly those _plain_parameter describes whole.
        anns = ["str", "int", "float", "bool", "Optional[int]", "int | None", "list",
                "dict", "Optional[list]", "Literal['a']", None]
        defaults = [None, "0", "1.5", "float('nan')", "float('inf')", "'x'", "True", "None",
                    "[]", "{}", "2 ** 70", "b'x'", "(1,)"]
        for ann in anns:
            for default in defaults:
                src = "def f(p%s%s) -> str:\n    return 'x'\n" % (
                    ": " + ann if ann else "", " = " + default if default else "")
                space = {"Optional": Optional, "Literal": Literal}
                try:
                    exec(src, space)
                except TypeError:                 # int | None before 3.10
                    continue
                fn = space["f"]
                want = ann is not None and mcp_stdio._plain_parameter(
                    fn.__annotations__["p"], fn.__defaults__[0] if fn.__defaults__
                    else mcp_stdio._EMPTY) is not None
                with self.subTest(src=src):
                    self.assertEqual(mcp_stdio._plain_signature(fn), want)

    def test_each_decorator_adds_as_add_would(self):
        # Decorators put their entry in its table directly while the server does not
        # serve: one of the same name or URI still raises, and once a live server serves,
        # a decorated entry is added through add(), which tells its clients.
        def f():
            """Do it."""
            return "x"

        def g(id: str):
            """Do it."""
            return "x"
        server = mcp_stdio.Server("s", "1", live=True)
        for register in (lambda: server.tool(f), lambda: server.resource("a://x")(f),
                         lambda: server.resource_template("a://{id}")(g),
                         lambda: server.prompt(f)):
            register()
            with self.assertRaisesRegex(mcp_stdio.CatalogError, "registered twice"):
                register()
        self.assertEqual([list(server.tools), list(server.resources), list(server.templates),
                          list(server.prompts)], [["f"], ["a://x"], ["a://{id}"], ["f"]])
        p = InProc(self, server=server)
        p.initialize()
        p.answer(req_msg(1, "resources/list"))
        server.resource("a://y")(f)
        listed = p.answer(req_msg(2, "resources/list"))["result"]["resources"]
        self.assertEqual([r["uri"] for r in listed], ["a://x", "a://y"])
        self.assertIn({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"},
                      getattr(p, "heard", []))

    def test_their_mistakes_are_raised_at_registration(self):
        def f(a: int) -> str:
            """Fine."""
            return "x"
        self.assertTrue(mcp_stdio._plain_signature(f))
        server = mcp_stdio.Server("s", "1")
        server.tool(f)
        for register, fragment in (
                (lambda: server.tool(f), "registered twice"),
                (lambda: server.tool(name="a b")(f), "the name must be"),
                (lambda: server.tool(name="t", timeout=-1)(f), "timeout must be"),
                (lambda: server.tool(name="t", annotations={"x": 1})(f), "unknown annotation"),
                (lambda: server.tool(name="t", pinned=1)(f), "pinned must be")):
            with self.subTest(fragment=fragment), \
                    self.assertRaises(mcp_stdio.CatalogError) as cm:
                register()
            self.assertIn(fragment, str(cm.exception))
        self.assertEqual(list(server.tools), ["f"])

    def test_a_copy_keeps_the_parts_it_was_given(self):
        def f(a: int, ctx) -> str:
            """F."""
            return "f%d" % a
        tool = mcp_stdio.tool_from_function(f)

        def given(arguments, ctx):
            return "given"
        copy = mcp_stdio._copied(tool, handler=given, description="Given.")
        self.assertEqual(copy.nullable, frozenset())      # describes what a call needs
        self.assertIs(copy.handler, given)
        self.assertEqual(copy.description, "Given.")
        self.assertEqual(copy.input_schema["properties"], {"a": {"type": "integer"}})
        self.assertEqual(tool.handler({"a": 1}, None), "f1")
        self.assertEqual(tool.description, "F.")

    def test_what_an_author_sets_before_the_first_listing_stays(self):
        server = mcp_stdio.Server("s", "1")

        @server.tool
        def f(a: int) -> str:
            """From the docstring."""
            return "x"
        server.tools["f"].description = "Set by the author."
        conn = connect(server)
        listed = json.loads(conn.receive_line(json.dumps(req_msg(1, "tools/list", {},
                                                                 True)).encode())[0])
        tool, = listed["result"]["tools"]
        self.assertEqual((tool["description"], list(tool["inputSchema"]["properties"])),
                         ("Set by the author.", ["a"]))

    def test_threads_that_list_at_once_see_one_description(self):
        tools = [mcp_stdio.tool_from_function(fn) for fn in plain_functions(7, 200)]
        seen, start = [], threading.Barrier(4)

        def read():
            start.wait()
            seen.append([json.dumps(t.describe("2025-11-25"), sort_keys=True)
                         for t in tools])
        threads = [threading.Thread(target=read) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(len(seen), 4)
        self.assertTrue(all(s == seen[0] for s in seen))

    def test_the_start_reads_a_description_only_when_the_first_line_cannot_tell(self):
        server = mcp_stdio.Server("s", "1")
        sources = {"fair": '"""Fair.\n\n    More.\n    """',
                   "none": "",
                   "args_only": '"""Args:\n        a: The a.\n    """',
                   "long": '"""%s"""' % ("x" * 2100),
                   "tabbed": ""}
        namespace = {}
        exec("\n".join("def %s(a: int) -> str:\n    %s\n    return 'x'\n" % (
            name, doc or "pass") for name, doc in sources.items()), namespace)
        namespace["tabbed"].__doc__ = "Tabbed\there."       # 3.13 expands a def's tabs
        for name in sources:
            server.tool(namespace[name])
        warnings = list(server._portability_warnings())
        self.assertEqual(warnings, [
            "tool 'none' has no description: the model sees only its name (add a docstring "
            "or description=...)",
            "tool 'args_only' has no description: the model sees only its name (add a "
            "docstring or description=...)",
            "tool 'long': description is 2100 characters; some hosts cut it at 2048"])
        described = [n for n, t in server.tools.items() if "description" in vars(t)]
        self.assertEqual(described, ["none", "args_only", "long", "tabbed"])

    def test_a_resource_function_that_takes_nothing_is_wrapped_at_its_first_read(self):
        server = mcp_stdio.Server("s", "1")

        @server.resource("cat://a")
        def a() -> str:
            """A."""
            return "item a"

        @server.resource("cat://b")
        def b(uri: str, ctx) -> str:
            return "item " + uri
        reader = server.resources["cat://a"].handler
        self.assertIsNone(reader.call)
        self.assertIsNotNone(server.resources["cat://b"].handler.call)   # checked: wrapped
        with self.assertRaises(mcp_stdio.CatalogError) as cm:
            server.resource("cat://c")(lambda item: "x")
        self.assertIn("parameter 'item' is not one of uri", str(cm.exception))
        self.assertEqual(reader("cat://a", None), "item a")
        self.assertIsNotNone(reader.call)
        self.assertEqual(server.resources["cat://b"].handler("cat://b", None), "item cat://b")


###############################################################################
# Outcomes: results and errors on the wire ####################################
###############################################################################


def kept_store(server, kept=None, path=os.devnull):
    """A serve's kept listings for server, as serving on stdio makes them, from kept (the
    entries of a file, in one chunk)."""
    import marshal
    store = mcp_stdio._KeptListings(server, path, [marshal.dumps(kept)] if kept else [])
    server._kept_listings = store
    store.memo = {}         # what a catalog keeps for _added_text
    return store


def listed(store, entry, revision, audience=frozenset(), at=0):
    """entry's listing as a catalog makes it with store (a _KeptListings, or None)."""
    memo = store.__dict__.setdefault("memo", {}) if store is not None else {}
    return mcp_stdio._listing_text(entry, revision, audience, memo, store, at)


def kept_entries(path):
    """Every entry of a file of kept listings."""
    entries = {}
    for chunk in mcp_stdio._read_kept(path):
        entries.update(mcp_stdio._decoded_chunk(chunk))
    return entries


def plain_server(fns, **options):
    """A server of fns, each decorated bare but one in four given a task support of its own."""
    server = mcp_stdio.Server("s", "1", **options)
    for i, fn in enumerate(fns):
        if i % 4 == 3:
            server.tool(task=("optional", "required", "forbidden")[i // 4 % 3])(fn)
        else:
            server.tool(fn)
    return server


def kept_path(script):
    """Where a server whose tools are defined in script keeps their listings."""
    import importlib.util
    return os.path.splitext(importlib.util.cache_from_source(script))[0] + ".mcp-listings"


KEPT_SERVER = '''
server = mcp_stdio.Server("kept", "1")


@server.tool
def scale(value: int, factor: float = 1.0) -> dict:
    """Scale a value by a factor.

    Args:
        value: What is scaled.
        factor: By how much.
    """
    return {"scaled": value * factor}


@server.tool
def shout(text: str, twice: bool = False) -> str:
    """SUMMARY"""
    return text.upper()


@server.tool(title="Set by hand")
def hand(x: int) -> str:
    """Not as made: listed as describe() lists it."""
    return "x"


def echo(text: str) -> str:
    """Say it back."""
    return text


for i in range(14):         # enough plain tools to keep (_KEPT_FEWEST)
    server.tool(name="echo_%d" % i)(echo)


raise SystemExit(server.run())
'''


class KeptListings(unittest.TestCase):
    """Listings kept between starts, in a file beside the bytecode (_KeptListings)."""

    def test_a_kept_listing_is_the_text_describe_gives(self):
        # 80 generated plain functions, described by a first serve, then listed from what
        # it kept for every revision, audience and task support: the exact JSON text of
        # describe() on a fresh Tool, and None where describe() leaves it out.
        fns = plain_functions(9173, 80)
        cold, fresh = kept_store(plain_server(fns)), plain_server(fns)
        for tool, same in zip(cold.server.tools.values(), fresh.tools.values()):
            self.assertEqual("".join(listed(cold, tool, LEGACY[-1], frozenset())),
                             "".join(mcp_stdio._chunks(same.describe(LEGACY[-1]))))
            self.assertLessEqual(vars(tool).keys(), {"name", "_function", "task"})  # as made
        self.assertEqual(len(cold.made), len(set(map(mcp_stdio._listing_key, fns))))
        keys = [key for key, _ in mcp_stdio._TAKE_HOOKS]
        for support in ("forbidden", "optional", "required"):
            fresh = plain_server(fns, task_support=support)
            for revision in mcp_stdio.REVISIONS:
                for audience in (frozenset(c) for n in range(len(keys) + 1)
                                 for c in itertools.combinations(keys, n)):
                    warm = kept_store(plain_server(fns, task_support=support), cold.made)
                    for tool, same in zip(warm.server.tools.values(), fresh.tools.values()):
                        want = same.describe(revision, audience)
                        with self.subTest(support=support, revision=revision,
                                          audience=sorted(audience), tool=tool.name):
                            got = listed(warm, tool, revision, audience)
                            self.assertEqual(got if got is None else "".join(got),
                                             None if want is None else
                                             "".join(mcp_stdio._chunks(want)))
                    self.assertEqual(warm.made, {})       # each was found

    def test_what_a_listing_is_made_of_is_in_its_key(self):
        # Functions whose listings may differ have different keys; the same source
        # has the same key in another function object, and in another process.
        sources = ["def f(a: int = 1) -> str: pass", "def f(a: int = True) -> str: pass",
                   "def f(a: float = 1) -> str: pass", "def f(a: float = 1.0) -> str: pass",
                   "def f(a: float = -0.0) -> str: pass", "def f(b: int = 1) -> str: pass",
                   "def f(*, a: int = 1) -> str: pass", "def f(a: int = 1) -> dict: pass",
                   "def f(a: int = 1): pass", "def f(a: str = '1') -> str: pass",
                   "def f(a: str = '1\\x1f') -> str: pass",
                   "def f(a: Optional[int] = None) -> str: pass",
                   "def f(a: int = 1) -> str:\n    'Doc.'",
                   "def f(a: int = 1) -> str:\n    'Doc!'",
                   "def f(a: int = 1) -> str:\n    ''",
                   "def f(ctx, a: int = 1) -> str: pass",
                   "def f(a: int, b: int = 1) -> str: pass",
                   "def f(a: int = 1, *, b: int) -> str: pass"]

        def key(src):
            space = {"Optional": Optional}
            exec(src, space)
            self.assertTrue(mcp_stdio._plain_signature(space["f"]), src)
            return mcp_stdio._listing_key(space["f"])
        keys = [key(src) for src in sources]
        self.assertEqual(len(set(keys)), len(sources))
        self.assertEqual([key(src) for src in sources], keys)
        code = ("import sys, json\nsys.path.insert(0, %r)\nimport mcp_stdio\n"
                "from typing import Optional\nout = []\nfor src in json.loads(sys.stdin.read()):"
                "\n    space = {'Optional': Optional}\n    exec(src, space)\n"
                "    out.append(mcp_stdio._listing_key(space['f']).hex())\n"
                "print(json.dumps(out))\n"
                % HERE)
        r = subprocess.run(PY + ["-c", code], input=json.dumps(sources), capture_output=True,
                           text=True, timeout=TIMEOUT)
        self.assertEqual([bytes.fromhex(k) for k in json.loads(r.stdout)], keys)

    def test_a_tool_not_as_made_is_described(self):
        # A title, a description set by hand, a schema read (and so set) before the
        # listing, a subclass: describe() lists it, and nothing is kept of it.
        def f(a: int) -> str:
            """Do it."""
            return "x"
        server = mcp_stdio.Server("s", "1")
        server.tool(f)
        server.tool(name="titled", title="T")(f)
        server.tool(name="told")(f)
        server.tool(name="read")(f)
        server.tools["told"].description = "Told."
        self.assertEqual(server.tools["read"].input_schema["required"], ["a"])
        store = kept_store(server)
        self.assertIsInstance(listed(store, server.tools["f"], MODERN, frozenset()), tuple)
        self.assertTrue(call_tool(server, "f", {"a": "no"})["result"]["isError"])   # checked
        self.assertEqual(call_tool(server, "f", {"a": 1})["result"]["content"][0]["text"], "x")
        made = dict(store.made)
        store = kept_store(server, made)
        for name in ("titled", "told", "read"):
            self.assertIs(listed(store, server.tools[name], MODERN, frozenset()),
                          mcp_stdio._UNSEEN)
        sub = type("Sub", (mcp_stdio.Tool,), {})
        self.assertIs(listed(store, sub("x", lambda a, c: "x"), MODERN, frozenset()),
                      mcp_stdio._UNSEEN)
        self.assertEqual(store.made, {})            # none of them was described for it

    def test_a_page_mixes_kept_and_described_listings_exactly(self):
        # The page's bytes are those of a serve that keeps nothing; a list middleware
        # still reads each listing as an object.
        fns = plain_functions(77, 30)
        cold = kept_store(plain_server(fns))
        for tool in cold.server.tools.values():
            listed(cold, tool, MODERN, frozenset())

        def serve(kept, middleware=False):
            server = plain_server(fns)
            server.tool(name="titled", title="By hand")(fns[0])
            seen = []
            if middleware:
                @server.middleware(kinds=["list"])
                def look(request, next):
                    result = next()
                    seen.extend(type(x) for x in result["tools"])
                    return result
            if kept is not None:
                kept_store(server, kept)
            lines = []
            for revision in (MODERN,) + LEGACY:
                p = InProc(self, server=server)
                modern = p.open(revision)
                p.answer(req_msg(2, "tools/list", {}, modern))
                lines.append(p.raw[-1])
            return lines, seen
        plain, _ = serve(None)
        self.assertEqual(serve(dict(cold.made))[0], plain)
        lines, seen = serve(dict(cold.made), middleware=True)
        self.assertEqual([json.loads(x) for x in lines], [json.loads(x) for x in plain])
        self.assertEqual(set(seen), {dict})

    def test_a_file_not_written_whole_by_this_version_is_not_read(self):
        import marshal
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        path = os.path.join(folder, "x.mcp-listings")
        header = mcp_stdio._kept_header()
        entries = {("k", None): (',"inputSchema":{}', "")}
        mcp_stdio._write_kept(path, entries)
        with open(path, "rb") as f:
            good = f.read()[len(header):]

        def file(*chunks, sizes=None):
            index = marshal.dumps([len(c) for c in chunks] if sizes is None else sizes)
            return header + len(index).to_bytes(4, "big") + index + b"".join(chunks)
        for data, want in ((header + good, entries), (header + good[:-3], {}),
                           (header[:-2] + b"9\n" + good, {}), (b"garbage", {}),
                           (file(marshal.dumps(entries), b"\xff\x00"), entries),  # damaged
                           (file(marshal.dumps([1])), {}),                    # not a dict
                           (file(marshal.dumps(entries),             # sizes that add
                                 sizes=[len(marshal.dumps(entries)) + 1, -1]), {}),  # up
                           (file(marshal.dumps(entries), sizes=["x"]), {}),
                           (header + b"\0\0\0\x09" + b"\xff" * 40, {}),
                           (header + b"\xff" * 40, {}), (b"", {})):
            with open(path, "wb") as f:
                f.write(data)
            self.assertEqual(kept_entries(path), want)
        self.assertEqual(mcp_stdio._read_kept(os.path.join(folder, "none")), [])
        with open(path, "wb") as f:                  # past the limit: never read whole
            f.write(header + b"\0" * (mcp_stdio._KEPT_LIMIT + 1))
        self.assertEqual(mcp_stdio._read_kept(path), [])

    def test_a_page_decodes_the_chunk_its_tools_are_kept_in(self):
        # Entries are written in the order they were listed, in chunks: a warm start's
        # first listing decodes the first chunk alone, and a tool whose place changed
        # is still found (every chunk is then decoded).
        self.addCleanup(setattr, mcp_stdio, "_KEPT_CHUNK", mcp_stdio._KEPT_CHUNK)
        mcp_stdio._KEPT_CHUNK = 7
        fns = plain_functions(5, 20)
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        path = os.path.join(folder, "m.mcp-listings")
        saved = sys.dont_write_bytecode
        self.addCleanup(setattr, sys, "dont_write_bytecode", saved)
        sys.dont_write_bytecode = False
        cold = kept_store(plain_server(fns), path=path)
        tools = list(cold.server.tools.values())
        for at, tool in enumerate(tools):
            listed(cold, tool, MODERN, frozenset(), at)
        cold.save()
        chunks = mcp_stdio._read_kept(path)
        self.assertEqual([len(mcp_stdio._decoded_chunk(c)) for c in chunks], [7, 7, 6])
        self.assertEqual(list(kept_entries(path)), list(cold.listed))
        warm = mcp_stdio._KeptListings(plain_server(fns), path, chunks)
        again = list(warm.server.tools.values())
        want = "".join(listed(cold, tools[0], MODERN, frozenset(), 0))
        self.assertEqual("".join(listed(warm, again[0], MODERN, frozenset(), 0)), want)
        self.assertEqual((warm.unread, len(warm.kept)), (2, 7))
        want = "".join(listed(cold, tools[15], MODERN, frozenset(), 15))
        self.assertEqual("".join(listed(warm, again[15], MODERN, frozenset(), 1)), want)
        self.assertEqual((warm.unread, len(warm.kept), warm.made), (0, 20, {}))

    def test_save_writes_what_was_made_unless_told_not_to(self):
        fns = plain_functions(31, 20)
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        path = os.path.join(folder, "__pycache__", "m.cpython-3.mcp-listings")
        stale = {("stale", "%d" % i): (',"inputSchema":{}', "") for i in range(300)}
        saved = sys.dont_write_bytecode
        self.addCleanup(setattr, sys, "dont_write_bytecode", saved)
        for dont in (True, False):
            sys.dont_write_bytecode = dont
            store = kept_store(plain_server(fns), path=path)
            for tool in store.server.tools.values():
                listed(store, tool, MODERN, frozenset())
            store.save()
            self.assertEqual(os.path.exists(path), not dont)
        self.assertEqual(kept_entries(path), store.made)
        mcp_stdio._write_kept(path, dict(list(stale.items())[:5]))  # another serve's stay
        store = kept_store(plain_server(fns[:19]), path=path)
        listed(store, store.server.tools["f18"], MODERN, frozenset())
        store.save()
        self.assertEqual(len(kept_entries(path)), 6)
        mcp_stdio._write_kept(path, stale)                           # but not past the spare
        store.save()
        key = mcp_stdio._listing_key(fns[18])
        self.assertEqual(kept_entries(path), {key: store.made[key]})
        store.path = os.path.join(path, "under", "a", "file")       # nowhere to write
        store.save()
        self.assertFalse(os.path.exists(store.path))

    def test_a_second_start_lists_the_same_bytes_from_the_file(self):
        script = own_script(self, "kept_server.py", KEPT_SERVER)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        lines = b"".join(json.dumps(m).encode() + b"\n" for m in (
            init_msg(), {"jsonrpc": "2.0", "method": "notifications/initialized"},
            req_msg(2, "tools/list")))

        def start(env=env):
            r = subprocess.run(PY + [script], input=lines, capture_output=True, env=env,
                               timeout=TIMEOUT)
            self.assertEqual(r.stderr, b"")
            return r.stdout
        first = start()
        kept = kept_entries(kept_path(script))
        self.assertEqual(len(kept), 3)                  # scale, shout, echo: not hand
        self.assertEqual(start(), first)
        key = next(k for k in kept if "Scale a value" in kept[k][0])
        kept[key] = (kept[key][0].replace("Scale a value by a factor.", "Read from the file."),
                     kept[key][1])
        mcp_stdio._write_kept(kept_path(script), kept)
        tools = json.loads(start().splitlines()[1])["result"]["tools"][-3:]
        self.assertEqual([t.get("description") for t in tools],
                         ["Not as made: listed as describe() lists it.", "Read from the file.",
                          "SUMMARY"])
        with open(script) as f:
            source = f.read()
        with open(script, "w") as f:                    # an edit is never listed stale
            f.write(source.replace('"""SUMMARY"""', '"""Shout it."""'))
        tools = json.loads(start().splitlines()[1])["result"]["tools"]
        self.assertEqual(tools[-1]["description"], "Shout it.")
        self.assertEqual(len(kept_entries(kept_path(script))), 4)
        os.unlink(kept_path(script))                   # -B: nothing written
        self.assertEqual(start(dict(env, PYTHONDONTWRITEBYTECODE="1")).splitlines()[0],
                         first.splitlines()[0])
        self.assertFalse(os.path.exists(kept_path(script)))

    def test_one_inspection_leaves_the_file_a_start_without_bytecode_reads(self):
        # The README's recipe for an image built with PYTHONDONTWRITEBYTECODE: one listing at
        # build time (inspect, with bytecode written) leaves the file; each start reads it.
        script = own_script(self, "kept_server.py", KEPT_SERVER)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        r = subprocess.run(PY + [os.path.join(HERE, "mcp_stdio.py"), "inspect", "--"] + PY +
                           [script], capture_output=True, env=env, timeout=TIMEOUT,
                           stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr)
        kept = kept_entries(kept_path(script))
        self.assertEqual(len(kept), 3)                  # scale, shout, echo: not hand
        key = next(k for k in kept if "Scale a value" in kept[k][0])
        kept[key] = (kept[key][0].replace("Scale a value by a factor.", "Read from the file."),
                     kept[key][1])
        mcp_stdio._write_kept(kept_path(script), kept)
        with open(kept_path(script), "rb") as f:
            written = f.read()
        lines = b"".join(json.dumps(m).encode() + b"\n" for m in (
            init_msg(), {"jsonrpc": "2.0", "method": "notifications/initialized"},
            req_msg(2, "tools/list")))
        r = subprocess.run(PY + [script], input=lines, capture_output=True, timeout=TIMEOUT,
                           env=dict(env, PYTHONDONTWRITEBYTECODE="1"))
        tools = json.loads(r.stdout.splitlines()[1])["result"]["tools"]
        self.assertEqual(tools[-2]["description"], "Read from the file.")
        with open(kept_path(script), "rb") as f:
            self.assertEqual(f.read(), written)         # read, never written
        with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
            self.assertIn("env -u PYTHONDONTWRITEBYTECODE python mcp_stdio.py inspect -- ",
                          f.read())

    @unittest.skipIf(os.name == "nt", "Windows has no SIGTERM to send")
    def test_a_serve_ended_by_a_signal_keeps_what_it_described(self):
        script = own_script(self, "kept_server.py", KEPT_SERVER)
        p = Proc(self, script=script, env={"PYTHONDONTWRITEBYTECODE": ""})
        self.addCleanup(p.kill)
        p.initialize()
        self.assertEqual(len(p.answer(req_msg(2, "tools/list"))["result"]["tools"]), 17)
        self.assertFalse(os.path.exists(kept_path(script)))     # written as the serve ends
        p.p.send_signal(signal.SIGTERM)
        self.assertEqual(p.p.wait(TIMEOUT), 0)
        self.assertEqual(len(kept_entries(kept_path(script))), 3)

    def test_a_few_tools_are_described_at_each_start(self):
        script = own_script(self, "few.py", KEPT_SERVER.replace("range(14)", "range(12)"))
        p = Proc(self, script=script, env={"PYTHONDONTWRITEBYTECODE": ""})
        self.addCleanup(p.kill)
        p.initialize()
        self.assertEqual(len(p.answer(req_msg(2, "tools/list"))["result"]["tools"]), 15)
        self.assertEqual(p.close(), 0)
        self.assertFalse(os.path.exists(kept_path(script)))


class TestTools(InProcTest):
    """The test server's misbehaving tools, over a Connection in this process."""

    def start(self, *opts, version="2025-11-25"):
        p = self.spawn_script(*opts)
        p.initialize(version)
        return p

    def spawn_script(self, *opts):
        options = {}
        for arg in opts:
            k, v = arg.split("=")
            options[k] = float(v) if "." in v else int(v)
        return self.spawn(server=test_server(**options))

    def call(self, p, name, args=None, rid=1, meta=None):
        p.send(call_msg(rid, name, args, meta))

    def test_exception_is_a_tool_error_with_incident(self):
        p = self.start()
        self.call(p, "boom")
        r = p.recv()
        text = r["result"]["content"][0]["text"]
        incident = text.split("incident ")[1][:8]
        self.assertEqual(r["result"], {"content": [{"type": "text", "text":
                         "Tool 'boom' failed: RuntimeError (incident %s); the details are in the "
                         "server log." % incident}], "isError": True})
        self.assertNotIn("secret", json.dumps(r))
        p.close()
        self.assertIn(incident.encode(), p.stderr)
        self.assertIn(b"secret internal detail", p.stderr)       # the traceback, on stderr


    def test_bad_results_are_tool_errors(self):
        p = self.start()
        expect = {"bad_output": "returned an invalid result: structuredContent does not match "
                                "outputSchema: /n: expected type number, got string",
                  "unserialisable": "returned an invalid result: it holds a value JSON cannot "
                                    "carry (set is not JSON serializable)",
                  "leave": "failed: SystemExit",
                  "bad_content": "returned an invalid result: content[0] (image) data is not "
                                 "base64"}
        for i, (name, problem) in enumerate(expect.items()):
            self.call(p, name, rid=i)
            r = p.recv()["result"]
            self.assertTrue(r["isError"], name)
            self.assertRegex(r["content"][0]["text"], r"^Tool %r %s \(incident [0-9a-f]{8}\)"
                             % (name, re.escape(problem)))
        self.call(p, "quick", rid=99)
        self.assertEqual(p.recv()["result"]["content"][0]["text"], "quick")


    def test_oversized_result(self):
        p = self.start("max_response=2000")
        self.call(p, "big", {"size": 1900}, rid=1)
        self.assertIn("result", p.recv())
        self.call(p, "big", {"size": 1990}, rid=2)
        r = p.recv()
        self.assertEqual(r["error"]["code"], -32603)
        self.assertEqual(r["error"]["data"]["limit"], 2000)
        self.assertGreater(r["error"]["data"]["size"], 2000)
        self.call(p, "quick", rid=3)
        self.assertEqual(p.recv()["id"], 3)


    def test_two_mebibyte_result(self):
        p = self.start("max_response=4000000")
        self.call(p, "big", {"size": 2 << 20})
        r = p.recv()
        self.assertEqual(len(r["result"]["content"][0]["text"]), 2 << 20)


    def test_content_is_down_levelled(self):
        expect = {
            "2024-11-05": ["text", "text", "text"],
            "2025-03-26": ["text", "audio", "text"],
            "2025-06-18": ["text", "audio", "resource_link"],
            MODERN: ["text", "audio", "resource_link"],
        }
        for version, types in expect.items():
            p = self.spawn_script()
            if version == MODERN:
                p.rev = MODERN
                self.call(p, "mixed", meta=modern_meta())
            else:
                p.initialize(version)
                self.call(p, "mixed")
            content = p.recv()["result"]["content"]
            self.assertEqual([b["type"] for b in content], types, version)
            self.assertEqual("_meta" in content[0], version >= "2025-06-18")


###############################################################################
# Asking the client: questions and answers ####################################
###############################################################################


class ElicitationModern(InProcTest):

    def call(self, p, rid, text="hi", caps=ELICIT_CAPS, **extra):
        meta = modern_meta(**{"io.modelcontextprotocol/clientCapabilities": caps})
        params = {"name": "confirm_echo", "arguments": {"text": text}, "_meta": meta}
        params.update(extra)
        return p.request({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params},
                         rev=MODERN)

    def first_round(self, p, text="hi"):
        r = self.call(p, 1, text)["result"]
        self.assertEqual(r["resultType"], "input_required")
        self.assertEqual(list(r["inputRequests"]), ["elicit-1"])
        ask = r["inputRequests"]["elicit-1"]
        self.assertEqual(ask["method"], "elicitation/create")
        self.assertEqual(ask["params"]["mode"], "form")
        self.assertIn(text, ask["params"]["message"])
        self.assertNotIn("ttlMs", r)
        return r["requestState"]

    def test_round_trip_accept_decline_cancel(self):
        p = self.spawn()
        state = self.first_round(p)
        for rid, answer, expected in (
                (2, {"action": "accept", "content": {"confirm": True}}, "hi"),
                (3, {"action": "accept", "content": {"confirm": False}},
                 "You chose not to echo the text."),
                (4, {"action": "decline"}, "Nothing was echoed: the user declined."),
                (5, {"action": "cancel"}, "Nothing was echoed: the user dismissed the question.")):
            r = self.call(p, rid, inputResponses={"elicit-1": answer}, requestState=state)
            self.assertEqual(r["result"]["resultType"], "complete")
            self.assertEqual(r["result"]["content"], [{"type": "text", "text": expected}])

    def test_state_is_verified(self):
        p = self.spawn()
        state = self.first_round(p)
        body, mac = state.split(".")
        tampered = body[:-2] + ("AA" if body[-2:] != "AA" else "BB") + "." + mac
        accept = {"elicit-1": {"action": "accept", "content": {"confirm": True}}}
        for rid, kw in ((2, {"requestState": tampered, "inputResponses": accept}),
                        (3, {"requestState": state + "x", "inputResponses": accept}),
                        (4, {"requestState": "nonsense", "inputResponses": accept}),
                        (5, {"requestState": state, "inputResponses": ["elicit-1"]}),
                        (6, {"requestState": state, "inputResponses": {"elicit-1": "yes"}}),
                        (7, {"requestState": state, "inputResponses": {"elicit-1": {
                            "action": "accept", "content": {"confirm": "yes"}}}}),
                        (8, {"requestState": state, "inputResponses": {"elicit-1": {
                            "action": "maybe"}}})):
            r = self.call(p, rid, **kw)
            self.assertEqual(r["error"]["code"], -32602, kw)
        r = self.call(p, 9, text="other text", requestState=state, inputResponses=accept)
        self.assertEqual(r["error"]["code"], -32602)          # bound to the arguments
        r = self.call(p, 10, inputResponses=accept)           # no state: answers as they come
        self.assertEqual(r["result"]["content"], [{"type": "text", "text": "hi"}])
        q = self.spawn()                                      # another process: another key
        r = self.call(q, 1, requestState=state, inputResponses=accept)
        self.assertEqual(r["error"]["code"], -32602)

    def test_missing_capability(self):
        p = self.spawn()
        r = self.call(p, 1, caps={})
        self.assertEqual(r["error"], {"code": -32021, "message": "Missing required client capability",
                                      "data": {"requiredCapabilities": {"elicitation": {}}}})


class ElicitationPromptsAndResources(unittest.TestCase):
    """The same round trip for prompts/get and resources/read (sans-IO engine)."""

    def test_prompt_and_resource_retries(self):
        server = mcp_stdio.Server("s", "1")
        ask = {"type": "object", "properties": {"topic": {"type": "string"}},
               "required": ["topic"]}

        @server.prompt
        def brainstorm(ctx=None) -> str:
            return "Ideas about " + ctx.elicit("Which topic?", ask).content["topic"]

        @server.resource("secret://note")
        def note(ctx):
            answer = ctx.elicit("Show the note?", {"type": "object", "properties": {
                "ok": {"type": "boolean"}}})
            return "the note" if answer.accepted else "hidden"
        conn = connect(server)
        caps = modern_meta(**{"io.modelcontextprotocol/clientCapabilities": ELICIT_CAPS})

        def rpc(method, params):
            line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method,
                               "params": dict(params, _meta=caps)}).encode()
            out = conn.receive_line(line)
            if isinstance(out[0], mcp_stdio.Call):
                out[0].run()
                return json.loads(conn.outbox.pop())["result"]
            return json.loads(out[0])
        first = rpc("prompts/get", {"name": "brainstorm"})
        self.assertEqual(first["resultType"], "input_required")
        done = rpc("prompts/get", {"name": "brainstorm", "requestState": first["requestState"],
                                   "inputResponses": {"elicit-1": {
                                       "action": "accept", "content": {"topic": "tea"}}}})
        self.assertEqual(done["messages"][0]["content"]["text"], "Ideas about tea")
        first = rpc("resources/read", {"uri": "secret://note"})
        self.assertEqual(first["resultType"], "input_required")
        self.assertNotIn("ttlMs", first)
        done = rpc("resources/read", {"uri": "secret://note", "requestState": first["requestState"],
                                      "inputResponses": {"elicit-1": {"action": "accept",
                                                                      "content": {"ok": True}}}})
        self.assertEqual((done["contents"][0]["text"], done["ttlMs"], done["cacheScope"]),
                         ("the note", 0, "private"))
        wrong = rpc("resources/read", {"uri": "secret://note", "requestState":
                                       first["requestState"].replace(".", "x.", 1),
                                       "inputResponses": {}})
        self.assertEqual(wrong["error"]["code"], -32602)
        for msg in (first, done):
            self.assertEqual(WireSchemas.problems(MODERN, {"jsonrpc": "2.0", "id": 1,
                                                           "result": msg}, "resources/read"), [])


class ElicitationTwoQuestions(unittest.TestCase):

    def test_earlier_answers_travel_in_the_state(self):
        server = mcp_stdio.Server("s", "1")
        q = {"type": "object", "properties": {"v": {"type": "string"}}, "required": ["v"]}

        @server.tool
        def form(ctx: mcp_stdio.Context) -> str:
            first = ctx.elicit("First?", q).content["v"]
            second = ctx.elicit("Second?", q).content["v"]
            return first + second
        conn = connect(server)
        meta = modern_meta(**{"io.modelcontextprotocol/clientCapabilities": ELICIT_CAPS})

        def call(**extra):
            out = conn.receive_line(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                                "params": dict(extra, name="form", _meta=meta)}
                                               ).encode())
            out[0].run()
            return json.loads(conn.outbox.pop())["result"]
        r = call()
        r = call(requestState=r["requestState"],
                 inputResponses={"elicit-1": {"action": "accept", "content": {"v": "a"}}})
        self.assertEqual(list(r["inputRequests"]), ["elicit-2"])
        r = call(requestState=r["requestState"],
                 inputResponses={"elicit-2": {"action": "accept", "content": {"v": "b"}}})
        self.assertEqual(r["content"], [{"type": "text", "text": "ab"}])


class ElicitationLegacy(ScriptTest):

    def start(self, version="2025-11-25", caps=ELICIT_CAPS, *opts):
        p = self.spawn_script(*opts)
        p.initialize(version, caps)
        p.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "confirm_echo", "arguments": {"text": "hello"}}})
        return p

    def test_round_trips(self):
        for version, answer, expected in (
                ("2025-11-25", {"action": "accept", "content": {"confirm": True}}, "hello"),
                ("2025-06-18", {"action": "decline"}, "Nothing was echoed: the user declined."),
                ("2025-11-25", {"action": "cancel"},
                 "Nothing was echoed: the user dismissed the question.")):
            with self.subTest(version=version, answer=answer):
                p = self.start(version)
                ask = p.recv()
                self.assertEqual(ask["method"], "elicitation/create")
                self.assertEqual("mode" in ask["params"], version >= "2025-11-25")
                self.assertEqual(ask["params"]["requestedSchema"]["required"], ["confirm"])
                p.send({"jsonrpc": "2.0", "id": ask["id"], "result": answer})
                r = p.recv()
                self.assertEqual((r["id"], r["result"]["content"][0]["text"]), (1, expected))

    def test_other_calls_are_served_while_one_waits(self):
        p = self.start()
        ask = p.recv()
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": 2, "method": "ping"})["id"], 2)
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "quick", "arguments": {}}})["id"], 3)
        p.send({"jsonrpc": "2.0", "id": "not-ours", "result": {"action": "accept"}})
        p.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept",
                                                               "content": {"confirm": True}}})
        r = p.recv()
        self.assertEqual((r["id"], r["result"]["content"][0]["text"]), (1, "hello"))
        self.assertEqual(p.close(), 0)
        self.assertIn(b"no matching server request", p.stderr)

    def test_no_capability_or_old_revision(self):
        for version, caps in (("2025-11-25", {}), ("2025-03-26", ELICIT_CAPS)):
            p = self.start(version, caps)
            r = p.recv()
            self.assertTrue(r["result"]["isError"])
            self.assertIn("does not support elicitation", r["result"]["content"][0]["text"])

    def test_client_that_never_answers(self):
        p = self.start("2025-11-25", ELICIT_CAPS, "elicit_timeout=0.5")
        self.assertEqual(p.recv()["method"], "elicitation/create")
        r = p.recv()
        self.assertTrue(r["result"]["isError"])
        self.assertIn("did not answer within 0.5 seconds", r["result"]["content"][0]["text"])

    def test_end_of_input_releases_a_waiting_question(self):
        p = self.start("2025-11-25", ELICIT_CAPS, "grace=5")
        self.assertEqual(p.recv()["method"], "elicitation/create")
        start = time.monotonic()
        self.assertEqual(p.close(), 0)
        self.assertLess(time.monotonic() - start, 2)       # not the grace period
        r = json.loads(p.raw[-1])
        self.assertEqual((r["id"], r["result"]["isError"]), (1, True))
        self.assertIn("closed the connection before answering 'elicit-1'",
                      r["result"]["content"][0]["text"])

    def test_invalid_answer_and_error_answer(self):
        p = self.start()
        ask = p.recv()
        p.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept",
                                                               "content": {"confirm": "yes"}}})
        r = p.recv()
        self.assertTrue(r["result"]["isError"])
        self.assertIn("invalid answer", r["result"]["content"][0]["text"])
        p.send({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                "params": {"name": "confirm_echo", "arguments": {"text": "x"}}})
        ask = p.recv()
        p.send({"jsonrpc": "2.0", "id": ask["id"], "error": {"code": -1, "message": "no UI"}})
        r = p.recv()
        self.assertIn('could not answer \'elicit-1\': "no UI"', r["result"]["content"][0]["text"])


class AskingModern(unittest.TestCase):
    """InputRequiredResult rounds, in the engine with a fake clock."""

    def setUp(self):
        self.now = [1.0e9]
        self.conn = connect(asking_server(), wall_clock=lambda: self.now[0],
                            random=lambda n: b"k" * n)
        self.rid = 0

    def rpc(self, method, params, caps=ALL_CAPS):
        self.rid += 1
        meta = modern_meta(**{"io.modelcontextprotocol/clientCapabilities": caps})
        out = self.conn.receive_line(json.dumps({
            "jsonrpc": "2.0", "id": self.rid, "method": method,
            "params": dict(params, _meta=meta)}).encode())
        if isinstance(out[0], mcp_stdio.Call):
            out[0].run()
            out = [self.conn.outbox.pop()]
        msg = json.loads(out[0])
        self.assertEqual(WireSchemas.problems(MODERN, msg, method), [], msg)
        return msg

    def call(self, name, caps=ALL_CAPS, **params):
        return self.rpc("tools/call", dict(params, name=name, arguments={}), caps)

    def test_three_questions_in_one_round(self):
        r = self.call("trio")["result"]
        self.assertEqual(r["resultType"], "input_required")
        self.assertEqual(r["inputRequests"], {
            "user_name": {"method": "elicitation/create", "params": {
                "mode": "form", "message": "What is your name?", "requestedSchema": NAME_FORM}},
            "greeting": {"method": "sampling/createMessage", "params": {
                "messages": [{"role": "user", "content": {"type": "text",
                                                          "text": "Generate a greeting"}}],
                "maxTokens": 50}},
            "client_roots": {"method": "roots/list", "params": {}}})
        done = self.call("trio", requestState=r["requestState"], inputResponses={
            "user_name": {"action": "accept", "content": {"name": "Ada"}},
            "greeting": SAMPLED, "client_roots": ROOTS, "unasked": {"action": "accept"}})
        self.assertEqual(done["result"]["content"][0]["text"],
                         "accept|Ada|Hello there|file:///work,file:///tmp")

    def test_missing_answers_are_asked_again(self):
        r = self.call("trio")["result"]
        part = self.call("trio", requestState=r["requestState"], inputResponses={
            "greeting": SAMPLED, "wrong_key": {"action": "accept", "content": {"x": 1}}})["result"]
        self.assertEqual(part["resultType"], "input_required")
        self.assertEqual(sorted(part["inputRequests"]), ["client_roots", "user_name"])
        # the state now carries the greeting: the next retry answers only the rest
        done = self.call("trio", requestState=part["requestState"], inputResponses={
            "user_name": {"action": "decline"}, "client_roots": {"roots": []}})["result"]
        self.assertEqual(done["content"][0]["text"], "decline|None|Hello there|")
        # answers without any state: taken as they come; missing ones asked for
        again = self.call("trio", inputResponses={"wrong_key": {"action": "accept"}})["result"]
        self.assertEqual(len(again["inputRequests"]), 3)

    def test_malformed_answers_name_the_key(self):
        state = self.call("trio")["result"]["requestState"]
        for key, bad, rule in (
                ("greeting", {"role": "robot", "content": {}, "model": "m"},
                 "is not a CreateMessageResult"),
                ("client_roots", {"roots": [{"name": "no uri"}]}, "is not a ListRootsResult"),
                ("user_name", {"action": "accept", "content": {"name": 5}},
                 "does not match the requested schema"),
                ("user_name", "yes", "is not an ElicitResult")):
            with self.subTest(key=key):
                e = self.call("trio", requestState=state, inputResponses={key: bad})["error"]
                self.assertEqual(e["code"], -32602)
                self.assertIn('inputResponses["%s"] %s' % (key, rule), e["message"])

    def test_handlers_cannot_swallow_the_round(self):
        r = self.call("swallow")["result"]
        self.assertEqual(list(r["inputRequests"]), ["sample-1"])
        e = self.call("swallow", inputResponses={"sample-1": {"role": "x"}})["error"]
        self.assertEqual(e["code"], -32602)

    def test_two_first_signers_share_one_key(self):
        # The state key is made on first use. Two handlers asking at once on a fresh
        # connection must sign with the same key, or the state of one fails to verify.
        drawing, release, drawn = threading.Event(), threading.Event(), []

        def random(n):
            drawn.append(n)
            nth = len(drawn)
            if nth == 1:               # the first draw waits until the second signer came
                drawing.set()
                release.wait(5)
            return bytes([nth]) * n
        conn = mcp_stdio.Server("s", "1").connection(lambda line: None,
                                                     lock=threading.Lock(), random=random)
        keys = []
        first = threading.Thread(target=lambda: keys.append(conn._signer.key()))
        first.start()
        self.assertTrue(drawing.wait(5))
        second = threading.Thread(target=lambda: keys.append(conn._signer.key()))
        second.start()
        second.join(0.3)               # without the lock it draws a key of its own here
        release.set()
        first.join(5)
        second.join(5)
        self.assertEqual(len(keys), 2)
        self.assertEqual(keys[0], keys[1])
        self.assertEqual(drawn, [32])

    def test_states_expire_after_ten_minutes(self):
        answer = {"step1": {"action": "accept", "content": {"name": "Ada"}}}
        for wait, ok in ((599, True), (601, False)):
            state = self.call("rounds")["result"]["requestState"]
            self.now[0] += wait
            r = self.call("rounds", requestState=state, inputResponses=answer)
            self.assertEqual("result" in r, ok, r)
            if not ok:
                self.assertEqual(r["error"]["code"], -32602)
                self.assertIn("expired", r["error"]["message"])

    def test_multi_round_keeps_earlier_answers(self):
        r = self.call("rounds")["result"]
        self.assertEqual(list(r["inputRequests"]), ["step1"])
        r = self.call("rounds", requestState=r["requestState"], inputResponses={
            "step1": {"action": "accept", "content": {"name": "Ada"}}})["result"]
        self.assertEqual(list(r["inputRequests"]), ["step2"])
        r = self.call("rounds", requestState=r["requestState"],
                      inputResponses={"step2": SAMPLED})["result"]
        self.assertEqual(r["content"][0]["text"], "Ada/Hello there")

    def test_missing_capabilities(self):
        for name, caps, need in (
                ("trio", {}, {"elicitation": {}, "sampling": {}, "roots": {}}),
                ("trio", {"elicitation": {"url": {}}, "sampling": {}, "roots": {}},
                 {"elicitation": {"form": {}}}),
                ("link", {"elicitation": {}}, {"elicitation": {"url": {}}}),
                ("needs", {"sampling": {}}, {"roots": {}})):
            with self.subTest(name=name, caps=caps):
                e = self.call(name, caps)["error"]
                self.assertEqual(e, {"code": -32021, "message": "Missing required client "
                                     "capability", "data": {"requiredCapabilities": need}})
        self.assertEqual(self.call("needs")["result"]["content"][0]["text"], "ok")

    def test_url_mode_has_no_elicitation_id_in_this_revision(self):
        r = self.call("link")["result"]
        self.assertEqual(r["inputRequests"]["login"]["params"], {
            "mode": "url", "message": "Sign in, please.", "url": "https://example.com/login"})
        done = self.call("link", requestState=r["requestState"],
                         inputResponses={"login": {"action": "accept"}})["result"]
        self.assertEqual(done["content"][0]["text"], "accept False")

    def test_a_key_asked_twice_is_the_authors_mistake(self):
        r = self.call("twice")["result"]
        done = self.call("twice", requestState=r["requestState"], inputResponses={
            "k": {"action": "accept", "content": {"name": "x"}}})["result"]
        self.assertTrue(done["isError"])
        self.assertIn("ValueError", done["content"][0]["text"])

    def test_prompts_and_resources_ask_too(self):
        r = self.rpc("prompts/get", {"name": "topic"})["result"]
        self.assertEqual(r["inputRequests"]["pick"]["method"], "sampling/createMessage")
        done = self.rpc("prompts/get", {"name": "topic", "requestState": r["requestState"],
                                        "inputResponses": {"pick": SAMPLED}})["result"]
        self.assertEqual(done["messages"][0]["content"]["text"], "Write about Hello there")
        r = self.rpc("resources/read", {"uri": "ask://roots"})["result"]
        done = self.rpc("resources/read", {"uri": "ask://roots", "requestState": r["requestState"],
                                           "inputResponses": {"roots": ROOTS}})["result"]
        self.assertEqual(done["contents"][0]["text"], "file:///work\nfile:///tmp")
        e = self.rpc("resources/read", {"uri": "ask://roots"}, caps={})["error"]
        self.assertEqual(e["data"], {"requiredCapabilities": {"roots": {}}})


class AskingLegacy(unittest.TestCase):
    """Server-to-client requests, answered by the built-in client's callbacks."""

    def client(self, revision="2025-11-25", **kw):
        kw.setdefault("on_elicit", lambda p: {"action": "accept", "content": {"name": "Ada"}}
                      if p.get("mode", "form") == "form" else {"action": "accept"})
        kw.setdefault("on_sample", lambda p: SAMPLED)
        kw.setdefault("roots", ROOTS["roots"])
        transcript = []
        c = mcp_stdio.InProcessClient(asking_server(), era="legacy", revision=revision,
                                      transcript=transcript, **kw)
        self.addCleanup(c.close)
        c.connect()
        c.lines = transcript
        return c

    def messages(self, c, direction):
        return [json.loads(line) for d, line in c.lines if d == direction]

    def test_every_question_goes_out_before_any_answer(self):
        c = self.client(capabilities={"elicitation": {"form": {}, "url": {}}})
        r = c.call_tool("trio")
        self.assertEqual(r["content"][0]["text"], "accept|Ada|Hello there|file:///work,file:///tmp")
        received = [m for m in self.messages(c, "received") if "method" in m]
        self.assertEqual([m["method"] for m in received],
                         ["elicitation/create", "sampling/createMessage", "roots/list"])
        self.assertEqual(len({m["id"] for m in received}), 3)
        for m in received:
            self.assertEqual(WireSchemas.problems("2025-11-25", m), [])

    def test_url_mode_and_its_completion(self):
        c = self.client(capabilities={"elicitation": {"url": {}}})
        self.assertEqual(c.call_tool("link")["content"][0]["text"], "accept True")
        ask, done = [m for m in self.messages(c, "received") if "method" in m]
        self.assertEqual(ask["params"]["mode"], "url")
        self.assertEqual(done["method"], "notifications/elicitation/complete")
        self.assertEqual(done["params"], {"elicitationId": ask["params"]["elicitationId"]})
        for m in (ask, done):
            self.assertEqual(WireSchemas.problems("2025-11-25", m), [])
        old = self.client("2025-06-18", capabilities={"elicitation": {"url": {}}})
        r = old.call_tool("link")
        self.assertTrue(r["isError"])
        self.assertEqual(r["content"][0]["text"], "This tool needs to ask the client, but "
                         "protocol 2025-06-18 has no elicitation.url (it needs 2025-11-25 or "
                         "later).")        # declared, but the revision is the reason
        plain = self.client("2025-11-25", capabilities={"elicitation": {}})
        self.assertIn("the client does not support elicitation.url",
                      plain.call_tool("link")["content"][0]["text"])

    def test_requirements_and_refusals_are_tool_errors(self):
        c = self.client(on_sample=None, roots=None, on_elicit=None)
        for name, text in (("needs", "needs the client's sampling and roots capabilities, which"),
                           ("trio", "does not support elicitation, sampling and roots")):
            r = c.call_tool(name)
            self.assertTrue(r["isError"], name)
            self.assertIn(text, r["content"][0]["text"])

    def test_a_client_error_reaches_the_handler_as_a_tool_error(self):
        def refuse(params):
            raise RuntimeError("the user said no")
        c = self.client(on_sample=refuse)
        r = c.call_tool("trio")
        self.assertTrue(r["isError"])
        self.assertIn("could not answer 'greeting'", r["content"][0]["text"])
        self.assertIn("the user said no", r["content"][0]["text"])

    def test_prompts_and_resources_ask_in_the_legacy_era(self):
        c = self.client()
        self.assertEqual(c.get_prompt("topic")["messages"][0]["content"]["text"],
                         "Write about Hello there")
        self.assertEqual(c.read_resource("ask://roots")["contents"][0]["text"],
                         "file:///work\nfile:///tmp")


class AskingOverPipes(ProcTest):
    """The demo's greet tool asks two questions; the client answers them out of order."""

    def test_two_requests_at_once_answered_in_reverse(self):
        p = self.spawn()
        p.initialize("2025-11-25", {"elicitation": {}, "sampling": {}})
        p.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "greet", "arguments": {}}})
        first, second = p.recv(), p.recv()
        self.assertEqual((first["method"], second["method"]),
                         ("elicitation/create", "sampling/createMessage"))
        p.send({"jsonrpc": "2.0", "id": second["id"], "result": SAMPLED})
        p.send({"jsonrpc": "2.0", "id": first["id"],
                "result": {"action": "accept", "content": {"name": "Ada"}}})
        r = p.recv()
        self.assertEqual((r["id"], r["result"]["content"][0]["text"]),
                         (1, "Hello, Ada! Hello there"))
        self.assertEqual(p.close(), 0)

    def test_without_sampling_it_asks_the_name_only(self):
        p = self.spawn()
        p.initialize("2025-11-25", {"elicitation": {}})
        p.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "greet", "arguments": {}}})
        ask = p.recv()
        p.send({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "decline"}})
        r = p.recv()
        self.assertEqual(r["result"]["content"][0]["text"],
                         "No greeting: the user did not give a name.")


###############################################################################
# Protocol engine (sans-IO) ###################################################
###############################################################################


class Admission(InProcTest):

    def setUp(self):
        self.p = self.spawn()

    def expect(self, raw, code, rid=None, has_id=False):
        self.p.send_bytes(raw + b"\n")
        r = self.p.recv()
        self.assertEqual(err_code(r), code, r)
        if has_id:
            self.assertEqual(r["id"], rid)
        else:
            self.assertNotIn("id", r)
        return r

    def test_parse_errors(self):
        for raw in (b"{", b"\xc3\x28", b'{"jsonrpc":"2.0","id":1,"method":"ping","x":NaN}',
                    b'{"jsonrpc":"2.0","id":1,"method":"ping"} {}', b"\x00",
                    b'{"jsonrpc":"2.0","id":1,"method":"ping","x":Infinity}',
                    b'{"jsonrpc":"2.0","id":1,"method":"ping","x":"\xff"}',
                    b'{"jsonrpc":"2.0","id":1,"method":"ping","x":1}x'):
            with self.subTest(raw=raw[:30]):
                self.expect(raw, -32700)

    def test_refused_json_keeps_its_id(self):
        """JSON we refuse is -32600 with the id, and a message saying what and where."""
        call = b'{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"add",' \
            b'"arguments":%s}}'
        cases = [
            (b'{"a":1,"a":2,"b":1}', 'duplicate key "a" at /params/arguments'),
            (b'{"a":1e400,"b":1}', "a number too large for a double at /params/arguments/a"),
            (b'{"a":-1E+309,"b":1}', "a number too large for a double at /params/arguments/a"),
            (b'{"a":1,"b":"\\ud800"}', "a lone surrogate escape at /params/arguments/b"),
            (b'{"a":1,"\\udfff":1}', "a lone surrogate escape in a key at /params/arguments"),
            (b'{"a":' + b"7" * 4301 + b',"b":1}',
             "an integer of 4301 digits (the limit is 4300) at /params/arguments/a"),
            (b'{"a":[1,{"x~/y":[{"c":1,"c":2}]}],"b":1}',
             'duplicate key "c" at /params/arguments/a/1/x~0~1y/0'),
        ]
        for rid in (b"3", b'"s"'):
            for args, what in cases:
                with self.subTest(args=args[:30], rid=rid):
                    self.p.send_bytes(call % (rid, args) + b"\n")
                    self.assertEqual(self.p.lines.pop(0), b'{"jsonrpc":"2.0","id":%s,"error":'
                                     b'{"code":-32600,"message":"Invalid Request: %s"}}\n'
                                     % (rid, what.encode().replace(b'"', b'\\"')))
        # 4,300 digits are a number like any other.
        self.p.send_bytes(b'{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":' +
                          b"7" * 4300 + b"}}\n")
        self.assertEqual(self.p.lines.pop(0), b'{"jsonrpc":"2.0","id":9,"result":{}}\n')

    def test_refused_json_without_a_readable_id(self):
        """No id unless exactly one valid top-level id and a method: never a guess."""
        for raw, what in (
                (b'{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}', 'duplicate key "id" at (root)'),
                (b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}',
                 "a lone surrogate escape at /id"),
                (b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
                 "a number too large for a double at /id"),
                (b'{"jsonrpc":"2.0","id":' + b"1" * 4301 + b',"method":"ping"}',
                 "an integer of 4301 digits (the limit is 4300) at /id"),
                (b'{"jsonrpc":"2.0","id":1,"params":{"a":1,"a":1}}',
                 'duplicate key "a" at /params'),       # no method: not a request
                (b'{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":1}}',
                 'duplicate key "a" at /result'),       # shaped like a response
                (b'[{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":1,"a":1}}]',
                 'duplicate key "a" at /0/params'),
                (b"1" * 10000, "an integer of 10000 digits (the limit is 4300) at (root)")):
            with self.subTest(raw=raw[:40]):
                self.p.send_bytes(raw + b"\n")
                self.assertEqual(self.p.lines.pop(0), b'{"jsonrpc":"2.0","error":{"code":-32600,'
                                 b'"message":"Invalid Request: %s"}}\n'
                                 % what.encode().replace(b'"', b'\\"'))

    def test_an_overflowing_number_never_reaches_a_handler(self):
        self.p.initialize()
        self.p.send_bytes(b'{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":'
                          b'"add","arguments":{"a":1e400,"b":1}}}\n')
        self.assertEqual(self.p.lines, [b'{"jsonrpc":"2.0","id":4,"error":{"code":-32600,'
                                        b'"message":"Invalid Request: a number too large for a '
                                        b'double at /params/arguments/a"}}\n'])
        self.assertEqual(self.p.stderr, b"")         # no incident: the tool never ran

    def test_deep_lines_that_are_not_json_get_no_id(self):
        """A line too deep to decode keeps its id only when the whole line is JSON."""
        deep = b"[" * 33 + b"]" * 33
        head = b'{"jsonrpc":"2.0","method":' + deep
        for raw in (head + b',"id":1e400}',                         # an id that is refused
                    head + b',"id":7}{"jsonrpc":"2.0","id":8,"method":"ping"}',   # two values
                    head + b',"id":5,"id":6}',                       # a repeated id
                    head + b',"id":5} x',                            # trailing bytes
                    head + b',"id":5,"x":"\xff"}',                  # invalid UTF-8
                    head + b',"id":5',                               # truncated
                    head[:-1] + b',"id":5}',                         # a bracket missing
                    head + b',"id":5,}',                             # a trailing comma
                    head + b',"id":"\\ud800"}',                     # a refused id string
                    head + b',"id":[5]}',                            # not an id
                    b'{"jsonrpc":"2.0","id":3,"result":' + deep + b"}",    # a response
                    head + b',"id":01}'):                            # not a JSON number
            with self.subTest(raw=raw[-30:]):
                self.p.send_bytes(raw + b"\n")
                line = self.p.lines.pop(0)
                self.assertNotIn(b'"id"', line)
                self.assertEqual(json.loads(line)["error"]["code"],
                                 -32600 if b"3,\"result" in raw or b'"id":[5]' in raw or
                                 b"e400" in raw or b"ud800" in raw or b'5,"id":6' in raw
                                 else -32700, raw[-30:])
        self.p.send_bytes(head + b',"id":5}\n')
        self.assertEqual(self.p.lines.pop(0), b'{"jsonrpc":"2.0","id":5,"error":{"code":-32600,'
                         b'"message":"Invalid Request: nesting depth 34 exceeds the limit of '
                         b'32"}}\n')
        self.p.send_bytes(b' \t' + head + b' , "\\u0069d" : "x"}\t \n')
        self.assertIn(b'"id":"x"', self.p.lines.pop(0))     # escapes in keys are read

    def test_invalid_requests_without_id(self):
        for raw in (b"1", b'"x"', b"null", b'{"id":null}', b'{"jsonrpc":"2.0"}',
                    b'{"jsonrpc":"2.0","method":1}', b'{"jsonrpc":"1.0","method":"ping"}',
                    b'{"jsonrpc":"2.0","id":null,"method":"ping"}',
                    b'{"jsonrpc":"2.0","id":true,"method":"ping"}',
                    b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
                    b'{"jsonrpc":"2.0","id":[1],"method":"ping"}',
                    b'{"jsonrpc":"2.0","id":{},"method":"ping"}',
                    b'{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}',
                    b'{"jsonrpc":"2.0","id":-9007199254740992,"method":"ping"}',
                    b"[]", b"[1,2]"):
            with self.subTest(raw=raw):
                self.expect(raw, -32600)

    def test_invalid_requests_with_id(self):
        self.expect(b'{"id":5,"method":"ping"}', -32600, 5, True)
        self.expect(b'{"id":4}', -32600, 4, True)
        self.expect(b'{"jsonrpc":"2.0","id":"s","method":null}', -32600, "s", True)
        self.expect(b'{"jsonrpc":"2.0","id":6,"method":"ping","params":[]}', -32602, 6, True)
        self.expect(b'{"jsonrpc":"2.0","id":7,"method":"ping","params":1}', -32602, 7, True)

    def test_ids_are_echoed_exactly(self):
        for rid in (0, "", "1", 1, -5, 9007199254740991, -9007199254740991, "\u00e9\U0001F600"):
            with self.subTest(rid=rid):
                r = self.p.request({"jsonrpc": "2.0", "id": rid, "method": "ping"})
                self.assertEqual(r, {"jsonrpc": "2.0", "id": rid, "result": {}})
                self.assertIs(type(r["id"]), type(rid))

    def test_method_name_limit(self):
        m128 = "m" * 128
        r = self.p.request({"jsonrpc": "2.0", "id": 1, "method": m128})
        self.assertEqual(err_code(r), -32602)      # unlocked: admitted, then needs _meta
        self.expect(json.dumps({"jsonrpc": "2.0", "id": 2, "method": m128 + "m"}).encode(),
                    -32600, 2, True)
        self.expect(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "\u00e9" * 65}).encode(),
                    -32600, 3, True)
        # A notification is never answered, except this: the name is refused before
        # anything can tell what it would have been (an error without id).
        self.expect(json.dumps({"jsonrpc": "2.0", "method": m128 + "m"}).encode(), -32600)

    def test_notifications_and_responses_are_never_answered(self):
        for raw in (b'{"jsonrpc":"2.0","method":"nope"}',
                    b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}',
                    b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}',
                    b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
                    b'{"jsonrpc":"2.0","method":"initialize","params":{}}',
                    b'{"jsonrpc":"2.0","id":1,"result":{}}',
                    b'{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}'):
            self.p.send_bytes(raw + b"\n")
        self.p.send_bytes(b'{"jsonrpc":"2.0","id":"last","method":"ping"}\n')
        self.assertEqual(self.p.recv()["id"], "last")

    def test_nesting_limit_boundary(self):
        inner = b"[" * 30 + b"]" * 30
        ok = b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":' + inner + b"}}"
        self.p.send_bytes(ok + b"\n")
        self.assertIn("result", self.p.recv())
        deeper = ok.replace(inner, b"[" + inner + b"]")
        self.expect(deeper, -32600, 1, True)      # the id can be read: the error carries it
        self.expect(b"[" * 100000 + b"]" * 100000, -32600)
        huge = b'{"jsonrpc":"2.0","method":"x","params":' + b"[" * 100000 + b"]" * 100000 + \
            b',"id":"late"}'
        self.expect(huge, -32600, "late", True)
        # A response-shaped message never gets its id back, even refused.
        self.expect(b'{"jsonrpc":"2.0","id":3,"result":' + b"[" * 40 + b"]" * 40 + b"}", -32600)
        # Only the top-level id counts: not one nested, not one inside a string.
        nested = b'{"jsonrpc":"2.0","method":"m","params":{"x":[' + b'{"id":1},' * 20000 + \
            b"[" * 40 + b"]" * 40 + b'],"s":"a\\"id\\":5"},"id":"top"}'
        self.expect(nested, -32600, "top", True)

    def test_params_size_limit(self):
        p = self.spawn("--max-params", "100")
        p.rev = "2025-11-25"
        p.initialize()

        def call(n):
            args = {"text": "a" * n}
            params = {"name": "echo", "arguments": args}
            size = len(json.dumps(params, separators=(",", ":")))
            return size, p.request({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                                    "params": params})
        base, _ = call(0)
        size, r = call(100 - base)
        self.assertEqual(size, 100)
        self.assertIn("result", r)
        size, r = call(101 - base)
        self.assertEqual(err_code(r), -32602)
        self.assertIn("exceed the limit of 100", r["error"]["message"])


class Engine(unittest.TestCase):
    """The sans-IO core, driven without processes: a fake clock, a fake emit."""

    def connect(self, server=None, **kw):
        self.now = 100.0
        self.reports = []
        self.out = []
        conn = (server or mcp_stdio.demo_server()).connection(
            self.out.append, clock=lambda: self.now, wall_clock=lambda: 1.75e9 + self.now,
            random=lambda n: b"\xab" * n,
            report=lambda line, detail=None: self.reports.append((line, detail)), **kw)
        return conn

    def feed(self, conn, *msgs):
        return conn.feed(b"".join(json.dumps(m).encode() + b"\n" for m in msgs))

    def test_timeouts_follow_the_injected_clock(self):
        conn = self.connect()
        self.feed(conn, init_msg())
        call, = self.feed(conn, call_msg(2, "countdown", {"seconds": 1}))
        self.assertEqual(call.deadline, 190.0)     # the tool's own timeout: 90 s
        conn.expire(call)
        self.assertEqual(json.loads(self.out.pop()), {"jsonrpc": "2.0", "id": 2, "result": {
            "content": [{"type": "text", "text": "Tool 'countdown' timed out after 90 seconds."}],
            "isError": True}})
        call.run()                                # settled: the handler never runs
        self.assertEqual(self.out, [])
        self.assertEqual(conn.inflight, {})

    def test_cancelled_before_it_runs(self):
        ran = []
        server = mcp_stdio.Server("s", "1", tools=[mcp_stdio.Tool("t", lambda a, c: ran.append(1))])
        conn = self.connect(server)
        self.feed(conn, init_msg())
        call, = self.feed(conn, call_msg(7, "t"))
        self.assertEqual(self.feed(conn, {"jsonrpc": "2.0", "method": "notifications/cancelled",
                                          "params": {"requestId": 7}}), [])
        self.assertTrue(call.settled)
        call.run()
        self.assertEqual((ran, self.out), ([], []))

    def test_an_exception_is_said_in_one_line_as_it_words_itself(self):
        """Its own quotes are kept (an OSError ends with the quoted file name); a KeyError's
        repr of its key and the JSON string's quotes are not."""
        for e, said in ((OSError(2, "No such file or directory", "x"),
                         "[Errno 2] No such file or directory: 'x'"),
                        (KeyError("secret"), "secret"), (ValueError("a\nb"), "a\\nb"),
                        (ValueError("'a' and 'b'"), "'a' and 'b'"), (ValueError(""), ""),
                        (ValueError("x" * 300), "x" * 196 + "...")):
            with self.subTest(e=e):
                self.assertEqual(mcp_stdio._short_text(e), said)

    def test_incidents_use_the_injected_random_and_report(self):
        def boom(a, ctx):
            raise KeyError("secret")
        server = mcp_stdio.Server("s", "1", tools=[mcp_stdio.Tool("lookup", boom)])
        conn = self.connect(server)
        self.feed(conn, init_msg())
        self.feed(conn, call_msg(2, "lookup"))[0].run()
        self.assertEqual(json.loads(self.out.pop())["result"], {"content": [{"type": "text",
                         "text": "Tool 'lookup' failed: KeyError (incident abababab); the details "
                                 "are in the server log."}], "isError": True})
        (line, detail), = [r for r in self.reports if not r[0].startswith("warning: ")]
        self.assertEqual(line, 'incident abababab in tool "lookup": KeyError')
        self.assertTrue(detail.startswith("Traceback (most recent call last):\n"))
        self.assertTrue(detail.endswith("KeyError: 'secret'\n"))
        server.configure  # frozen now; a second server opts in to the exception text
        server = mcp_stdio.Server("s", "1", tools=[mcp_stdio.Tool("lookup", boom)],
                                  error_details=True)
        conn = self.connect(server)
        self.feed(conn, init_msg())
        self.feed(conn, call_msg(2, "lookup"))[0].run()
        self.assertIn("failed: KeyError: secret (incident",
                      json.loads(self.out.pop())["result"]["content"][0]["text"])

    def test_incidents_keep_the_cause_and_the_source(self):
        """The log shows what Python would: the chain and source lines, with or without imports."""
        def load(a, ctx):
            try:
                open(os.path.join(os.sep, "nonexistent", "config.toml"))
            except FileNotFoundError as e:
                raise RuntimeError("config unavailable") from e
        server = mcp_stdio.Server("s", "1", tools=[mcp_stdio.Tool("load", load)])
        conn = self.connect(server)
        self.feed(conn, init_msg())
        details = []
        for blocked in (False, True):       # True: the traceback module cannot be imported
            saved = sys.modules.get("traceback")
            if blocked:
                sys.modules["traceback"] = None
            try:
                self.feed(conn, call_msg(2 + blocked, "load"))[0].run()
            finally:
                if blocked:
                    sys.modules["traceback"] = saved
            details.append(self.reports[-1][1])
        for detail in details:
            self.assertIn("config.toml'\n\nThe above exception was the direct cause of the "
                          "following exception:\n\nTraceback (most recent call last):\n", detail)
            self.assertIn('    raise RuntimeError("config unavailable") from e\n', detail)
            self.assertIn("    open(os.path.join(os.sep, \"nonexistent\", \"config.toml\"))",
                          detail)
            self.assertTrue(detail.startswith("Traceback (most recent call last):\n"), detail)
            self.assertTrue(detail.endswith("RuntimeError: config unavailable\n"), detail)
        self.assertEqual(*(re.sub(r"\n +[~^]+\n", "\n", d) for d in details))

    def test_request_states_expire_on_the_injected_wall_clock(self):
        conn = self.connect()
        caps = modern_meta(**{"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}})
        msg = call_msg(1, "confirm_echo", {"text": "hi"}, caps)
        call, = self.feed(conn, msg)
        call.run()
        state = json.loads(self.out.pop())["result"]["requestState"]
        retry = copy.deepcopy(msg)
        retry["params"].update(requestState=state, inputResponses={
            "elicit-1": {"action": "accept", "content": {"confirm": True}}})
        self.now += 599
        self.feed(conn, retry)[0].run()
        self.assertEqual(json.loads(self.out.pop())["result"]["content"][0]["text"], "hi")
        self.now += 2
        self.assertEqual(json.loads(self.feed(conn, retry)[0])["error"]["code"], -32602)

    def test_progress_and_logs_stop_when_the_call_is_settled(self):
        conn = self.connect()
        self.feed(conn, init_msg(), {"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel",
                                     "params": {"level": "info"}})
        self.out.clear()
        call, = self.feed(conn, call_msg(2, "countdown", {"seconds": 1}, {"progressToken": "p"}))
        self.assertTrue(conn.progress(call, 1, 10, "one"))
        self.assertFalse(conn.progress(call, 1, 10))          # not increasing: dropped
        self.assertTrue(conn.log(call, "info", "hello"))
        self.assertFalse(conn.log(call, "debug", "below the level"))
        conn.cancel(call)
        self.assertFalse(conn.progress(call, 2))
        self.assertFalse(conn.log(call, "error", "late"))
        self.assertEqual([json.loads(l)["method"] for l in self.out],
                         ["notifications/progress", "notifications/message"])
        self.assertEqual(json.loads(self.out[1])["params"], {"level": "info", "logger": "countdown",
                                                             "data": "hello"})

    def test_a_bug_in_a_method_is_an_internal_error_not_a_crash(self):
        conn = connect(mcp_stdio.demo_server())
        conn.feed(json.dumps(init_msg()).encode() + b"\n")
        real = mcp_stdio._ROUTES["tools/list"]
        mcp_stdio._ROUTES["tools/list"] = mcp_stdio._Route(lambda conn, call: 1 / 0)
        try:
            out = conn.feed(b'{"jsonrpc":"2.0","id":9,"method":"tools/list"}\n')
        finally:
            mcp_stdio._ROUTES["tools/list"] = real
        self.assertEqual(json.loads(out[0])["error"]["code"], -32603)
        self.assertEqual(json.loads(out[0])["id"], 9)

    def test_feed_returns_lines_and_calls(self):
        conn = connect(mcp_stdio.demo_server())
        out = conn.feed(json.dumps(init_msg()).encode() + b"\n" + json.dumps(
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
             "params": {"name": "add", "arguments": {"a": 2, "b": 3}}}).encode() + b"\n")
        self.assertEqual(conn.era, "legacy")
        self.assertIsInstance(out[0], bytes)
        call = out[1]
        self.assertIsInstance(call, mcp_stdio.Call)
        call.run()
        self.assertEqual(json.loads(conn.outbox[0])["result"]["structuredContent"], {"sum": 5})
        call.run()                      # settled calls never answer twice
        self.assertEqual(len(conn.outbox), 1)

    def test_rejected_messages_change_nothing(self):
        conn = connect(mcp_stdio.demo_server())
        for raw in (b'{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":'
                    b'{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}',
                    b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
                    b'{"jsonrpc":"2.0","id":1,"method":"initialize","x":NaN}'):
            conn.feed(raw + b"\n")
            self.assertEqual((conn.era, conn.inflight), ("unlocked", {}))


class LegacyEra(InProcTest):

    def test_initialize_each_revision(self):
        for version, answered in (("2024-11-05", "2024-11-05"), ("2025-03-26", "2025-03-26"),
                                  ("2025-06-18", "2025-06-18"), ("2025-11-25", "2025-11-25"),
                                  ("2026-07-28", "2025-11-25"), ("1999-01-01", "2025-11-25"),
                                  (None, "2025-11-25"), (42, "2025-11-25")):
            with self.subTest(version=version):
                p = self.spawn()
                p.rev = answered
                r = p.request(init_msg(1, version))["result"]
                self.assertEqual(r["protocolVersion"], answered)
                self.assertEqual(r["capabilities"]["tools"], {"listChanged": False})
                self.assertEqual(set(r["serverInfo"]),
                                 {"name", "version"} | ({"title"} if answered >= "2025-06-18" else set()))
                self.assertNotIn("resultType", r)
                p.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
                tools = p.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})["result"]
                self.assertEqual([t["name"] for t in tools["tools"]],
                                 ["add", "confirm_echo", "countdown", "divide", "echo", "greet"])
                self.assertNotIn("ttlMs", tools)
                fields = set().union(*(set(t) for t in tools["tools"]))
                expect = {"name", "description", "inputSchema"}
                if answered >= "2025-03-26":
                    expect.add("annotations")
                if answered >= "2025-06-18":
                    expect |= {"title", "outputSchema"}
                self.assertEqual(fields, expect)
                r = p.request({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                               "params": {"name": "add", "arguments": {"a": 1, "b": 2.5}}})["result"]
                self.assertEqual(r["content"], [{"type": "text", "text": '{"sum":3.5}'}])
                self.assertEqual("structuredContent" in r, answered >= "2025-06-18")
                self.assertEqual(p.close(), 0)

    def test_old_initialized_notification_and_ping(self):
        p = self.spawn()
        p.rev = "2025-06-18"
        p.request(init_msg(1, "2025-06-18"))
        p.send({"jsonrpc": "2.0", "method": "initialized"})
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": 2, "method": "ping"})["result"], {})

    def test_initialize_params_are_checked(self):
        p = self.spawn()
        for params in (None, {}, {"capabilities": {}, "clientInfo": "x"},
                       {"capabilities": [], "clientInfo": {}}):
            msg = {"jsonrpc": "2.0", "id": 1, "method": "initialize"}
            if params is not None:
                msg["params"] = params
            self.assertEqual(err_code(p.request(msg)), -32602)
        p.rev = "2025-11-25"
        self.assertIn("result", p.request(init_msg(2)))     # the errors did not lock

    def test_requests_before_initialize(self):
        p = self.spawn()
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": 1, "method": "ping"})["result"], {})
        r = p.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        self.assertEqual(err_code(r), -32602)
        self.assertIn("initialize", r["error"]["message"])

    def test_unknown_and_modern_only_methods(self):
        p = self.spawn()
        p.initialize()
        for m in ("nope", "subscriptions/listen", "tasks/list"):
            self.assertEqual(err_code(p.request({"jsonrpc": "2.0", "id": 1, "method": m})), -32601)
        r = p.request({"jsonrpc": "2.0", "id": 2, "method": "server/discover"})
        self.assertEqual(err_code(r), -32600)
        self.assertEqual(r["error"]["data"]["reason"], "era-mismatch")

    def test_progress_token_in_meta_is_ordinary_on_legacy(self):
        p = self.spawn()
        p.initialize("2025-11-25")
        r = p.request({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "echo", "arguments": {"text": "hi"}, "_meta": {"progressToken": "t1"}}})
        self.assertEqual(r["result"]["structuredContent"], {"text": "hi"})

    def test_set_level(self):
        p = self.spawn()
        p.initialize()
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": 1, "method": "logging/setLevel",
                                    "params": {"level": "debug"}})["result"], {})
        for level in ("loud", ["debug"], {"a": 1}, None, 3):
            r = p.request({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel",
                           "params": {"level": level}})
            self.assertEqual(err_code(r), -32602)     # found by the fuzzer: a list crashed it
        r = p.request({"jsonrpc": "2.0", "id": 3, "method": "completion/complete", "params": {
            "ref": {"type": "ref/prompt", "name": ["x"]}, "argument": {"name": "a", "value": ""}}})
        self.assertEqual(err_code(r), -32602)
        r = p.request({"jsonrpc": "2.0", "id": 4, "method": "completion/complete", "params": {
            "ref": {"type": "ref/resource", "uri": {}}, "argument": {"name": "a", "value": ""}}})
        self.assertEqual(err_code(r), -32602)


class Batches(InProcTest):

    def test_batches_on_2025_03_26(self):
        p = self.spawn()
        p.initialize("2025-03-26")
        p.send([{"jsonrpc": "2.0", "id": 1, "method": "ping"},
                {"jsonrpc": "2.0", "method": "notifications/initialized"},
                {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                 "params": {"name": "add", "arguments": {"a": 1, "b": 1}}},
                {"jsonrpc": "2.0", "id": 3, "method": "initialize"}, 5])
        line = p.recv_line()
        batch = json.loads(line)
        self.assertIsInstance(batch, list)
        by_id = {json.dumps(m.get("id")): m for m in batch}
        self.assertEqual(len(batch), 4)
        self.assertEqual(by_id["1"]["result"], {})
        self.assertEqual(by_id["2"]["result"]["content"][0]["text"], '{"sum":2}')
        self.assertEqual(by_id["3"]["error"]["code"], -32600)
        self.assertEqual(by_id["null"]["error"]["code"], -32600)
        if WireSchemas.available():
            v = WireSchemas.validator("2025-03-26", "JSONRPCBatchResponse")
            self.assertEqual(v.errors([m for m in batch if "id" in m]), [])
        p.send([{"jsonrpc": "2.0", "method": "notifications/initialized"}])
        p.send([])
        self.assertEqual(p.recv()["error"]["code"], -32600)

    def test_notifications_in_a_batch_get_nothing(self):
        p = self.spawn()
        p.initialize("2025-03-26")
        p.send_bytes(b'[{"jsonrpc":"2.0","id":5,"method":"ping"},'
                     b'{"jsonrpc":"2.0","method":"initialize"}]\n')
        self.assertEqual(p.recv_line(), b'[{"jsonrpc":"2.0","id":5,"result":{}}]\n')
        # Only notifications (an id-less initialize among them): no line at all, never [].
        p.send_bytes(b'[{"jsonrpc":"2.0","method":"initialize","params":{}},'
                     b'{"jsonrpc":"2.0","method":"notifications/initialized"},'
                     b'{"jsonrpc":"2.0","method":"nope"}]\n')
        p.send_bytes(b'{"jsonrpc":"2.0","id":"after","method":"ping"}\n')
        self.assertEqual(p.recv_line(), b'{"jsonrpc":"2.0","id":"after","result":{}}\n')

    def test_a_member_is_judged_as_it_is_alone(self):
        # Through a real process: every member, an id-less initialize with a bad
        # envelope among them, gets what it gets outside a batch.
        p = Proc(self)
        self.addCleanup(p.kill)
        p.initialize("2025-03-26")
        bad = b'{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: ' \
            b'\\"jsonrpc\\" must be \\"2.0\\""}}'
        for member in (b'{"jsonrpc":"2.02","method":"notifications/foo"}',
                       b'{"jsonrpc":"2.02","method":"initialize"}'):
            p.send_bytes(member + b"\n")
            self.assertEqual(p.recv_line(), bad + b"\n")
            p.send_bytes(b'[{"jsonrpc":"2.0","id":5,"method":"ping"},' + member + b']\n')
            self.assertEqual(p.recv_line(), b'[{"jsonrpc":"2.0","id":5,"result":{}},' + bad + b']\n')
        # With an id and a bad envelope it is answered as alone, with its id.
        p.send_bytes(b'[{"jsonrpc":"2.0","id":6,"method":"ping"},'
                     b'{"jsonrpc":"1.0","id":7,"method":"initialize"}]\n')
        self.assertEqual(p.recv_line(), b'[{"jsonrpc":"2.0","id":6,"result":{}},{"jsonrpc":"2.0",'
                         b'"id":7,"error":{"code":-32600,"message":"Invalid Request: \\"jsonrpc\\" '
                         b'must be \\"2.0\\""}}]\n')
        self.assertEqual(p.close(), 0)

    def test_batches_refused_elsewhere(self):
        for version in (None, "2025-06-18", "2025-11-25", MODERN):
            p = self.spawn()
            if version == MODERN:
                p.request({"jsonrpc": "2.0", "id": 0, "method": "tools/list",
                           "params": {"_meta": modern_meta()}})
            elif version:
                p.initialize(version)
            p.send([{"jsonrpc": "2.0", "id": 1, "method": "ping"}])
            r = p.recv()
            self.assertEqual(r, {"jsonrpc": "2.0", "error": {"code": -32600, "message":
                                 "Invalid Request: batches are only accepted on a 2025-03-26 connection"}})


class ModernEra(InProcTest):

    def req(self, p, rid, method, params=None, **meta):
        params = dict(params or {})
        params["_meta"] = modern_meta(**meta)
        return p.request({"jsonrpc": "2.0", "id": rid, "method": method, "params": params},
                         rev=MODERN)

    def test_discover(self):
        p = self.spawn()
        r = self.req(p, 1, "server/discover")["result"]
        self.assertEqual(r["resultType"], "complete")
        self.assertEqual(r["supportedVersions"], [MODERN])
        self.assertEqual(r["capabilities"], {
            "logging": {}, "completions": {}, "prompts": {"listChanged": False},
            "resources": {"subscribe": False, "listChanged": False},
            "tools": {"listChanged": False}})
        self.assertEqual((r["ttlMs"], r["cacheScope"]), (3600000, "public"))
        self.assertEqual(r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "mcp-stdio-demo")
        self.assertIn("instructions", r)

    def test_every_result_is_stamped(self):
        p = self.spawn("--ttl-ms", "5")
        r = self.req(p, 1, "tools/list")["result"]
        self.assertEqual((r["resultType"], r["ttlMs"], r["cacheScope"]), ("complete", 5, "public"))
        self.assertEqual([t["name"] for t in r["tools"]], ["add", "confirm_echo", "countdown", "divide", "echo", "greet"])
        r = self.req(p, 2, "tools/call", {"name": "echo", "arguments": {"text": "x"}})["result"]
        self.assertEqual(r, {"content": [{"type": "text", "text": "x"}],
                             "structuredContent": {"text": "x"}, "resultType": "complete",
                             "_meta": {"io.modelcontextprotocol/serverInfo": {
                                 "name": "mcp-stdio-demo", "version": mcp_stdio.__version__,
                                 "title": "mcp_stdio demo"}}})
        self.assertNotIn("ttlMs", r)

    def test_meta_errors(self):
        p = self.spawn()
        cases = [
            ({"io.modelcontextprotocol/protocolVersion": MODERN}, -32602),
            ({"io.modelcontextprotocol/protocolVersion": MODERN,
              "io.modelcontextprotocol/clientCapabilities": []}, -32602),
            ({"io.modelcontextprotocol/protocolVersion": 7,
              "io.modelcontextprotocol/clientCapabilities": {}}, -32602),
            (modern_meta(**{"io.modelcontextprotocol/logLevel": "loud"}), -32602),
            (modern_meta(**{"io.modelcontextprotocol/logLevel": ["debug"]}), -32602),
        ]
        for meta, code in cases:
            r = p.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                           "params": {"_meta": meta}}, rev=MODERN)
            self.assertEqual(err_code(r), code)
        for version in ("2025-11-25", "2099-01-01"):
            r = p.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"_meta": {
                "io.modelcontextprotocol/protocolVersion": version,
                "io.modelcontextprotocol/clientCapabilities": {}}}}, rev=MODERN)
            self.assertEqual(r["error"], {"code": -32022, "message": "Unsupported protocol version",
                                          "data": {"supported": [MODERN], "requested": version}})
        # none of these locked the era: initialize still works
        p.rev = "2025-11-25"
        self.assertIn("result", p.request(init_msg(3)))

    def test_unknown_and_removed_methods(self):
        p = self.spawn()
        for m in ("ping", "logging/setLevel", "resources/subscribe", "nope", "initialize2"):
            self.assertEqual(err_code(self.req(p, 1, m)), -32601)
        r = p.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, rev=MODERN)
        self.assertEqual(err_code(r), -32602)

    def test_client_info_is_optional_and_unverified(self):
        p = self.spawn()
        r = self.req(p, 1, "tools/list", **{"io.modelcontextprotocol/clientInfo": "junk",
                                            "traceparent": "00-x", "progressToken": 3})
        self.assertIn("result", r)


class EraMixing(InProcTest):

    def test_discover_then_initialize(self):
        # Claude Code 2.1.280, Copilot CLI 1.0.81-1: probe, then initialize anyway.
        p = self.spawn()
        r = p.request({"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                       "params": {"_meta": modern_meta()}}, rev=MODERN)
        self.assertIn("result", r)
        p.initialize("2025-11-25")
        self.assertIn("result", p.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}))

    def test_discover_then_modern(self):
        p = self.spawn()
        for rid, method in ((1, "server/discover"), (2, "tools/list"), (3, "server/discover")):
            r = p.request({"jsonrpc": "2.0", "id": rid, "method": method,
                           "params": {"_meta": modern_meta()}}, rev=MODERN)
            self.assertEqual(r["result"]["resultType"], "complete")

    def test_legacy_then_modern_request(self):
        p = self.spawn()
        p.initialize("2025-06-18")
        r = p.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                       "params": {"_meta": modern_meta()}})
        self.assertEqual(r["error"]["code"], -32600)
        self.assertEqual(r["error"]["data"], {"reason": "era-mismatch", "era": "legacy",
                                              "negotiatedVersion": "2025-06-18"})

    def test_modern_then_initialize(self):
        p = self.spawn()
        p.request({"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                   "params": {"_meta": modern_meta()}}, rev=MODERN)
        r = p.request(init_msg(2), rev=MODERN)
        self.assertEqual(r["error"]["code"], -32600)
        self.assertEqual(r["error"]["data"], {"reason": "era-mismatch", "era": "modern",
                                              "supported": [MODERN]})
        self.assertIn(MODERN, r["error"]["message"])
        r = p.request({"jsonrpc": "2.0", "id": 3, "method": "ping"}, rev=MODERN)
        self.assertEqual(err_code(r), -32602)

    def test_second_initialize(self):
        p = self.spawn()
        p.initialize()
        r = p.request(init_msg(5))
        self.assertEqual(err_code(r), -32600)
        self.assertIn("already initialized", r["error"]["message"])

    def test_initialize_with_modern_meta_is_a_removed_method(self):
        # The 2026-07-28 revision has no initialize: a modern request for it is -32601
        # (the official conformance suite checks this), and it locks nothing.
        for first in ("unlocked", "modern"):
            p = self.spawn()
            if first == "modern":
                p.request(req_msg(1, "tools/list", modern=True), rev=MODERN)
            msg = init_msg(2, "2025-06-18")
            msg["params"]["_meta"] = modern_meta()
            r = p.request(msg, rev=MODERN)
            self.assertEqual(r, {"jsonrpc": "2.0", "id": 2,
                                 "error": {"code": -32601, "message": "Method not found"}})
            self.assertEqual(p.conn.era, first)
        p = self.spawn()
        p.request(msg, rev=MODERN)
        self.assertEqual(p.initialize("2025-06-18")["result"]["protocolVersion"], "2025-06-18")
        msg["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] = "2099-01-01"
        self.assertEqual(err_code(p.request(msg)), -32600)   # legacy-locked: already initialized


class Resources(InProcTest):

    def legacy(self, version="2025-11-25", *args):
        p = self.spawn(*args)
        p.initialize(version)
        return p

    def test_read_text_blob_and_template(self):
        for version in LEGACY + (MODERN,):
            p = self.spawn()
            modern = p.open(version)
            r = p.request(req_msg(1, "resources/read", {"uri": "demo://readme"}, modern))["result"]
            self.assertEqual(r["contents"][0]["mimeType"], "text/markdown")
            self.assertIn("mcp_stdio demo", r["contents"][0]["text"])
            self.assertEqual((r.get("ttlMs"), r.get("cacheScope")),
                             (0, "private") if modern else (None, None))
            r = p.request(req_msg(2, "resources/read", {"uri": "demo://logo.png"}, modern))["result"]
            self.assertEqual(base64.b64decode(r["contents"][0]["blob"])[:4], b"\x89PNG")
            r = p.request(req_msg(3, "resources/read", {"uri": "demo://greeting/Ada%20L"},
                                  modern))["result"]
            self.assertEqual(r["contents"], [{"uri": "demo://greeting/Ada%20L",
                                              "text": "Hello, Ada L!", "mimeType": "text/plain"}])

    def test_query_and_path_segment_templates_through_a_process(self):
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        head = "import sys\nsys.path.insert(0, %r)\nimport mcp_stdio\n" \
            "server = mcp_stdio.Server('t', '1')\n" % HERE
        wrong = os.path.join(folder, "wrong.py")
        with open(wrong, "w") as f:
            f.write(head + "@server.resource('search://items{?q,limit}')\n"
                    "def items():\n    return 'never'\n")
        r = subprocess.run(PY + [wrong], capture_output=True, timeout=60,
                           stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.endswith(
            b"mcp_stdio.CatalogError: resource 'search://items{?q,limit}': a URI holds no "
            b"braces; for a family of URIs use resource_template\n"), r.stderr)
        script = os.path.join(folder, "templates.py")
        with open(script, "w") as f:
            f.write(head + textwrap.dedent('''\
                @server.resource_template("search://items{?q,limit}",
                                          complete=lambda a, v, k: [a + ":" + v])
                def search(q: str = "", limit: int = 10) -> str:
                    return "%r %r" % (q, limit)

                @server.resource_template("repo://{owner}/contents{/path*}{?ref}")
                def contents(owner: str, path: str, ref: str = "main") -> str:
                    return "%s %r %s" % (owner, path, ref)
                raise SystemExit(server.run())
                '''))
        reads = {"search://items": "'' 10", "search://items?q=a": "'a' 10",
                 "search://items?limit=2&q=b%20c": "'b c' 2", "search://items?q=": "'' 10",
                 "repo://me/contents": "me '' main", "repo://me/contents/a/b.txt?ref=v1":
                 "me 'a/b.txt' v1", "repo://me/contents/a%20b/c": "me 'a b/c' main"}
        missing = ("search://items?limit=many", "search://items?x=1", "search://items?q=1&q=2",
                   "search://itemsx", "repo://me/contents/../x", "repo://me/contents/a%2Fb",
                   "repo://me/contents/a%00", "repo://me/contentsx")
        for version in ("2025-06-18", MODERN):
            with self.subTest(version=version):
                p = Proc(self, script=script)
                self.addCleanup(p.kill)
                modern = p.open(version)
                listed = p.request(req_msg(1, "resources/templates/list", {}, modern))["result"]
                self.assertEqual([t["uriTemplate"] for t in listed["resourceTemplates"]],
                                 ["repo://{owner}/contents{/path*}{?ref}",
                                  "search://items{?q,limit}"])
                for i, (uri, text) in enumerate(reads.items(), 2):
                    r = p.request(req_msg(i, "resources/read", {"uri": uri}, modern))
                    self.assertEqual(r["result"]["contents"][0]["text"], text, uri)
                for i, uri in enumerate(missing, 20):
                    r = p.request(req_msg(i, "resources/read", {"uri": uri}, modern))
                    self.assertEqual(r["error"]["message"], "Resource not found", uri)
                r = p.request(req_msg(40, "completion/complete", {"ref": {
                    "type": "ref/resource", "uri": "search://items{?q,limit}"},
                    "argument": {"name": "q", "value": "x"}}, modern))
                self.assertEqual(r["result"]["completion"]["values"], ["q:x"])
                self.assertEqual(p.close(), 0)
        t = mcp_stdio.ResourceTemplate("repo://{owner}/c{/path*}{?ref,n}", lambda *a: "",
                                       name="t")
        self.assertEqual((t.expand(owner="o", path="a/b c", ref="m a"),
                          t.expand(owner="o", path=["x", "y"]), t.expand(owner="o", path="")),
                         ("repo://o/c/a/b%20c?ref=m%20a", "repo://o/c/x/y", "repo://o/c"))
        for bad, why in (("x://{a,b}", "{a,b} is not supported; use {var}, {+var}, {/var*} "
                                       "or {?a,b}"),
                         ("x://{?q}/more", "a {?...} query ends the template"),
                         ("x://{/p*}/x", "{/p*} ends the path (only a {?...} query may follow)"),
                         ("x://{a}{?a}", "a variable appears twice"),
                         ("x://a?b={?c}", "a {?...} query cannot follow a '?' of the template"),
                         ("x://{#a}", "a brace outside {var}, {+var}, {/var*} or {?a,b}")):
            with self.subTest(bad=bad), self.assertRaises(mcp_stdio.CatalogError) as e:
                mcp_stdio.ResourceTemplate(bad, lambda *a: "", name="t")
            self.assertEqual(str(e.exception), "resource template %r: %s" % (bad, why))
        server = mcp_stdio.Server("t", "1")
        with self.assertRaises(mcp_stdio.CatalogError) as e:
            server.resource_template("s://i{?q}")(lambda q: q)
        self.assertEqual(str(e.exception), "resource template 's://i{?q}': parameter 'q' needs "
                         "a default: a URI may leave out the query's 'q'")
        for uri in ("x://a b", "x://a\tb", "x://a\x00"):
            with self.subTest(uri=uri), self.assertRaises(mcp_stdio.CatalogError) as e:
                mcp_stdio.Resource(uri, lambda *a: "")
            self.assertEqual(str(e.exception), "resource %r: a URI holds no space or control "
                             "character" % uri)

    def test_not_found_codes_per_era(self):
        p = self.legacy()
        r = p.request(req_msg(1, "resources/read", {"uri": "demo://nope"}))
        self.assertEqual(r["error"], {"code": -32002, "message": "Resource not found",
                                      "data": {"uri": "demo://nope"}})
        p = self.spawn()
        p.rev = MODERN
        r = p.request(req_msg(1, "resources/read", {"uri": "demo://nope"}, True))
        self.assertEqual(r["error"], {"code": -32602, "message": "Resource not found",
                                      "data": {"uri": "demo://nope"}})
        for params in ({}, {"uri": 5}):
            self.assertEqual(err_code(p.request(req_msg(2, "resources/read", params, True))),
                             -32602)

    def test_handler_raising_not_found(self):
        p = self.spawn(server=catalog_server("all"))
        p.initialize()
        r = p.request(req_msg(1, "resources/read", {"uri": "res://missing/7"}))
        self.assertEqual((r["error"]["code"], r["error"]["data"]), (-32002, {"uri": "res://missing/7"}))


    def test_listing_shapes_per_revision(self):
        for version in LEGACY + (MODERN,):
            p = self.spawn(server=catalog_server("all"))
            modern = p.open(version)
            res = p.request(req_msg(1, "resources/list", {}, modern))["result"]["resources"][0]
            self.assertEqual("title" in res, version >= "2025-06-18")
            self.assertEqual("icons" in res, version >= "2025-11-25")
            self.assertEqual("lastModified" in res["annotations"], version >= "2025-06-18")
            pr = p.request(req_msg(2, "prompts/list", {}, modern))["result"]["prompts"][0]
            self.assertEqual("title" in pr["arguments"][0], version >= "2025-06-18")

    def test_pagination_sees_every_item_once_in_order(self):
        p = self.spawn(server=catalog_server("all"))
        p.rev = MODERN
        for method, field, prefix in (("tools/list", "tools", "t"),
                                      ("resources/list", "resources", "r"),
                                      ("prompts/list", "prompts", "p")):
            seen, cursor, pages = [], None, 0
            while True:
                params = {} if cursor is None else {"cursor": cursor}
                r = p.request(req_msg(pages, method, params, True))["result"]
                self.assertEqual((r["cacheScope"], r["ttlMs"]), ("public", 3600000))
                seen += [x["name"] for x in r[field]]
                pages += 1
                cursor = r.get("nextCursor")
                if cursor is None:
                    break
                self.assertNotEqual(cursor, "")
            self.assertEqual(pages, 3)
            self.assertEqual(seen, ["%s%02d" % (prefix, i) for i in range(25)])
        first = p.request(req_msg(9, "tools/list", {}, True))["result"]["nextCursor"]
        for bad in ("nope", "", first + "x", 5):
            r = p.request(req_msg(10, "tools/list", {"cursor": bad}, True))
            self.assertEqual(r["error"]["code"], -32602, bad)
        r = p.request(req_msg(11, "prompts/list", {"cursor": first}, True))   # a tools cursor
        self.assertEqual(r["error"], {"code": -32602, "message": "Invalid params: invalid cursor"})

    def test_page_size_option_on_the_demo(self):
        p = self.legacy("2025-11-25", "--page-size", "1")
        r = p.request(req_msg(1, "resources/list"))["result"]
        self.assertEqual(len(r["resources"]), 1)
        r = p.request(req_msg(2, "resources/list", {"cursor": r["nextCursor"]}))["result"]
        self.assertEqual(len(r["resources"]), 1)
        self.assertNotIn("nextCursor", r)

    def test_capabilities_follow_the_catalog(self):
        p = self.spawn(server=catalog_server("tools"))
        r = p.initialize()["result"]
        self.assertEqual(r["capabilities"], {"logging": {}, "tools": {"listChanged": False}})
        for m in ("resources/list", "resources/read", "prompts/list", "prompts/get",
                  "completion/complete", "resources/templates/list", "resources/subscribe"):
            self.assertEqual(err_code(p.request(req_msg(1, m, {"uri": "x", "name": "x"}))),
                             -32601, m)

    def test_scoping(self):
        p = self.legacy("2025-11-25", "--resources", "demo://readme", "--prompts", "summarize")
        r = p.request(req_msg(1, "resources/list"))["result"]
        self.assertEqual([x["uri"] for x in r["resources"]], ["demo://readme"])
        self.assertEqual(p.request(req_msg(2, "resources/templates/list"))["result"],
                         {"resourceTemplates": []})
        hidden = p.request(req_msg(3, "resources/read", {"uri": "demo://logo.png"}))["error"]
        absent = p.request(req_msg(4, "resources/read", {"uri": "demo://none.png"}))["error"]
        self.assertEqual(hidden["message"], absent["message"])
        self.assertEqual(hidden["code"], absent["code"])
        r = subprocess.run(SERVE + ["--resources", "demo://nope"], cwd=HERE,
                           stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 2)

    def test_legacy_subscribe(self):
        # A catalog that never changes offers no subscriptions: no update would ever come.
        p = self.legacy()
        for m in ("resources/subscribe", "resources/unsubscribe"):
            self.assertEqual(err_code(p.request(req_msg(1, m, {"uri": "demo://readme"}))), -32601)
        p = self.spawn(server=live_server())
        p.initialize()
        self.assertEqual(p.conn.era, "legacy")
        for m in ("resources/subscribe", "resources/unsubscribe"):
            self.assertEqual(p.request(req_msg(1, m, {"uri": "notes://a"}))["result"], {})
            self.assertEqual(p.request(req_msg(2, m, {"uri": "notes://x/y"}))["result"], {})
            self.assertEqual(err_code(p.request(req_msg(3, m, {"uri": "demo://zz"}))), -32002)


class LiveCatalog(InProcTest):
    """A catalog that changes while serving: notifications, cursors, grants, resource updates."""

    def tool(self, name):
        return mcp_stdio.Tool(name, lambda a, c: name)

    def methods(self, p):
        out = [json.loads(line) for line in p.lines]
        del p.lines[:]
        return [(m["method"], m.get("params")) for m in out]

    def test_what_is_scoped_away_is_not_offered(self):
        """A kind no grant admits is not advertised: not even its existence leaks."""
        p = self.spawn("--resources", "", "--prompts", "")
        r = p.initialize()["result"]
        self.assertEqual(r["capabilities"], {"logging": {}, "tools": {"listChanged": False}})
        q = self.spawn("--resources", "", "--prompts", "")
        q.rev = MODERN
        r = q.request(req_msg(1, "server/discover", modern=True))["result"]
        self.assertEqual(r["capabilities"], {"logging": {}, "tools": {"listChanged": False}})
        self.assertEqual(err_code(q.request(req_msg(2, "resources/list", modern=True))), -32601)
        # Only a prompt without a completer is granted: no completions either.
        p = self.spawn("--resources", "demo://readme", "--prompts", "", "--tools", "")
        r = p.initialize()["result"]
        self.assertEqual(r["capabilities"], {"logging": {}, "resources": {
            "subscribe": False, "listChanged": False}})
        # A live server offers what its grants may still admit.
        p = self.spawn("--resources", "", server=live_server())
        r = p.initialize()["result"]
        self.assertEqual(r["capabilities"], {"logging": {}, "completions": {},
                         "prompts": {"listChanged": True}, "tools": {"listChanged": True}})
        p = self.spawn("--resources", "", "--prompts", "", server=live_server())
        self.assertNotIn("completions", p.initialize()["result"]["capabilities"])

    def test_capabilities_say_what_can_change(self):
        p = self.spawn(server=live_server())
        r = p.initialize()["result"]
        self.assertEqual(r["capabilities"], {"logging": {}, "completions": {},
                         "prompts": {"listChanged": True},
                         "resources": {"subscribe": True, "listChanged": True},
                         "tools": {"listChanged": True}})
        r = p.request(req_msg(1, "prompts/list"))["result"]      # none yet: an empty list
        self.assertEqual(r["prompts"], [])
        q = self.spawn(server=live_server())
        q.rev = MODERN
        self.assertEqual(q.request(req_msg(1, "tools/list", modern=True))["result"]["ttlMs"], 60000)

    def test_legacy_list_changed_after_initialized(self):
        server = live_server()
        p = self.spawn(server=server)
        p.request(init_msg(0))
        server.add(self.tool("early"))             # before initialized: nothing is sent
        self.assertEqual(p.lines, [])
        p.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        server.add(self.tool("t0"))                # nor of a kind the client has not listed
        server.add(mcp_stdio.Prompt("p0", lambda a, c: "x"))
        self.assertEqual(p.lines, [])
        for rid, method in enumerate(("tools/list", "prompts/list", "resources/templates/list")):
            p.request(req_msg(rid + 1, method))
        server.remove_tool("t0")
        server.remove_prompt("p0")
        self.assertEqual(self.methods(p), [("notifications/tools/list_changed", None),
                                           ("notifications/prompts/list_changed", None)])
        server.add(self.tool("t1"))
        server.add(self.tool("t1"), replace=True)
        server.remove_tool("early")
        server.add(mcp_stdio.Prompt("p", lambda a, c: "x"))
        server.add(mcp_stdio.ResourceTemplate("notes://y/{id}", lambda u, v, c: "y", name="y"))
        self.assertEqual(self.methods(p), [("notifications/tools/list_changed", None)] * 3 + [
            ("notifications/prompts/list_changed", None),
            ("notifications/resources/list_changed", None)])
        for line in p.raw:
            self.assertEqual(WireSchemas.problems("2025-11-25", json.loads(line)), [])
        names = [t["name"] for t in p.request(req_msg(5, "tools/list"))["result"]["tools"]]
        self.assertEqual(names, ["echo", "t1"])
        with self.assertRaises(mcp_stdio.CatalogError):
            server.add(self.tool("t1"))             # replace=False: still refused
        with self.assertRaises(mcp_stdio.CatalogError):
            server.remove_tool("nope")

    def test_a_change_lists_only_what_changed(self):
        # After a change, the entries both catalogs hold keep their listing objects (a
        # 1,000-tool catalog is not described again for one new tool); a replaced one is
        # described anew, in each era.
        described = []

        class Counted(mcp_stdio.Tool):
            def describe(self, revision):
                described.append((self.name, revision))
                return mcp_stdio.Tool.describe(self, revision)
        server = mcp_stdio.Server("s", "1", live=True, tools=[
            Counted(n, lambda a, c: "x", description=n) for n in ("a", "b", "c")])
        out = []
        legacy, modern = connect(server, out.append), connect(server, out.append)
        legacy.feed(json.dumps(init_msg(0)).encode() + b"\n")

        def listing():
            lines = [c.feed(json.dumps(req_msg(1, "tools/list", modern=c is modern)).encode()
                            + b"\n")[0] for c in (legacy, modern)]
            return [(t["name"], t.get("description")) for line in lines
                    for t in json.loads(line)["result"]["tools"]]
        self.assertEqual(listing(), [("a", "a"), ("b", "b"), ("c", "c")] * 2)
        self.assertEqual(len(described), 6)
        del described[:]
        server.add(Counted("d", lambda a, c: "x", description="d"))
        server.add(Counted("b", lambda a, c: "x", description="b2"), replace=True)
        server.remove_tool("c")
        self.assertEqual(listing(), [("a", "a"), ("b", "b2"), ("d", "d")] * 2)
        self.assertEqual(sorted(described), [("b", "2025-11-25"), ("b", MODERN),
                                             ("d", "2025-11-25"), ("d", MODERN)])
        # An entry added again as the same object, edited, is described again.
        del described[:]
        a = server.catalog.tools["a"]
        a.description = "a2"
        server.add(a, replace=True)
        self.assertEqual(listing(), [("a", "a2"), ("b", "b2"), ("d", "d")] * 2)
        self.assertEqual(sorted(described), [("a", "2025-11-25"), ("a", MODERN)])
        # What is removed is not kept alive for listings that never come.
        gone = weakref.ref(server.catalog.tools["d"])
        server.remove_tool("d")
        server.add(Counted("e", lambda a, c: "x"))
        gc.collect()
        self.assertIsNone(gone())

    def test_only_granted_changes_are_heard(self):
        server = live_server(grant=["echo", "later"])
        p = self.spawn(server=server)
        p.initialize()
        p.request(req_msg(0, "tools/list"))
        server.add(self.tool("hidden"))
        self.assertEqual(p.lines, [])
        server.add(self.tool("later"))
        self.assertEqual(self.methods(p), [("notifications/tools/list_changed", None)])
        names = [t["name"] for t in p.request(req_msg(1, "tools/list"))["result"]["tools"]]
        self.assertEqual(names, ["echo", "later"])
        r = p.request(call_msg(2, "hidden"))
        self.assertEqual(r["error"]["message"], 'Unknown tool: "hidden"')

    def test_modern_streams_get_what_they_asked_for(self):
        server = live_server()
        p = self.spawn(server=server)
        p.rev = MODERN
        p.send(req_msg("s1", "subscriptions/listen", {"notifications": {
            "toolsListChanged": True, "promptsListChanged": False,
            "resourceSubscriptions": ["notes://a", "notes://nope"]}}, True))
        p.send(req_msg("s2", "subscriptions/listen", {"notifications": {
            "resourcesListChanged": True}}, True))
        acks = [p.recv()["params"] for _ in range(2)]
        self.assertEqual([a["notifications"] for a in acks], [
            {"toolsListChanged": True, "resourceSubscriptions": ["notes://a"]},
            {"resourcesListChanged": True}])
        server.add(self.tool("t"))
        server.add(mcp_stdio.Resource("notes://b", lambda u, c: "B"))
        server.notify_resource_updated("notes://a")
        server.notify_resource_updated("notes://b")     # nobody asked
        sub = "io.modelcontextprotocol/subscriptionId"
        self.assertEqual(self.methods(p), [
            ("notifications/tools/list_changed", {"_meta": {sub: "s1"}}),
            ("notifications/resources/list_changed", {"_meta": {sub: "s2"}}),
            ("notifications/resources/updated", {"uri": "notes://a", "_meta": {sub: "s1"}})])
        for line in p.raw:
            self.assertEqual(WireSchemas.problems(MODERN, json.loads(line)), [])

    def test_resource_updates_for_legacy_subscribers(self):
        server = live_server()
        p = self.spawn(server=server)
        p.initialize()
        server.notify_resource_updated("notes://a")      # not subscribed yet
        self.assertEqual(p.lines, [])
        p.request(req_msg(1, "resources/subscribe", {"uri": "notes://a"}))
        p.request(req_msg(2, "resources/subscribe", {"uri": "notes://x/1/2"}))
        server.notify_resource_updated("notes://a")
        server.notify_resource_updated("notes://x/1/2")
        self.assertEqual(self.methods(p), [
            ("notifications/resources/updated", {"uri": "notes://a"}),
            ("notifications/resources/updated", {"uri": "notes://x/1/2"})])
        p.request(req_msg(3, "resources/unsubscribe", {"uri": "notes://a"}))
        server.notify_resource_updated("notes://a")
        self.assertEqual(p.lines, [])
        with self.assertRaises(mcp_stdio.CatalogError):
            mcp_stdio.demo_server().notify_resource_updated("demo://readme")

    def test_changes_are_coalesced_and_never_lost(self):
        server = live_server()
        later = []
        p = self.spawn(server=server)
        p.conn.changes._schedule = later.append         # the runtime's timer, made by hand
        p.initialize()
        p.request(req_msg(0, "tools/list"))
        for i in range(5):
            server.add(self.tool("t%d" % i))
        server.notify_resource_updated("notes://a")
        self.assertEqual((p.lines, len(later)), ([], 1))
        later.pop()()
        self.assertEqual(self.methods(p), [("notifications/tools/list_changed", None)])
        server.remove_tool("t0")                        # after the flush: another one
        self.assertEqual(len(later), 1)
        later.pop()()
        self.assertEqual(self.methods(p), [("notifications/tools/list_changed", None)])

    def test_a_cursor_from_before_a_change(self):
        server = live_server(page_size=1)
        server.add(self.tool("t2"))
        p = self.spawn(server=server)
        p.initialize()
        r = p.request(req_msg(1, "tools/list"))["result"]
        self.assertEqual([t["name"] for t in r["tools"]], ["echo"])
        server.add(self.tool("t1"))
        self.assertEqual(self.methods(p), [("notifications/tools/list_changed", None)])
        r = p.request(req_msg(2, "tools/list", {"cursor": r["nextCursor"]}))
        self.assertEqual(r["error"], {"code": -32602, "message": "Invalid params: the list "
                                      "changed since this cursor was made; list it again from "
                                      "the start"})
        names, cursor = [], None
        for rid in range(3, 10):
            r = p.request(req_msg(rid, "tools/list", {"cursor": cursor} if cursor else {}))
            names += [t["name"] for t in r["result"]["tools"]]
            cursor = r["result"].get("nextCursor")
            if cursor is None:
                break
        self.assertEqual(names, ["echo", "t1", "t2"])

    def test_a_static_server_refuses_changes_while_serving(self):
        server = mcp_stdio.demo_server()
        server.add(self.tool("before"))                 # fine before serving
        self.spawn(server=server)
        with self.assertRaises(mcp_stdio.CatalogError) as cm:
            server.add(self.tool("after"))
        self.assertIn("live=True", str(cm.exception))

    def test_read_resource_from_a_tool(self):
        server = live_server(grant_resources=["notes://x/{+rest}"])

        def reader(a, ctx):
            first = ctx.read_resource("notes://x/1")["contents"][0]["text"]
            try:
                ctx.read_resource("notes://a")              # not granted: not found
            except mcp_stdio.ResourceNotFound as e:
                return "%s, then not found: %s" % (first, e.uri)
        server.add(mcp_stdio.Tool("reader", reader))
        p = self.spawn(server=server)
        p.initialize()
        r = p.request(call_msg(1, "reader"))["result"]
        self.assertEqual(r["content"][0]["text"], "X, then not found: notes://a")

    def test_changes_from_many_threads(self):
        # Calls and listings while four threads add and remove tools: every listing is
        # one catalog (sorted, no duplicates), nothing crashes, every call is answered.
        server = live_server(page_size=3)
        lock = threading.Lock()
        out = []
        conn = connect(server, out.append, lock=lock)
        conn.feed(json.dumps(init_msg()).encode() + b"\n")
        conn.feed(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        stop = threading.Event()

        def churn(seed):
            r = random.Random(seed)
            while not stop.is_set():
                name = "t%d" % r.randrange(20)
                try:
                    if r.random() < 0.5:
                        server.add(self.tool(name), replace=True)
                    else:
                        server.remove_tool(name)
                except mcp_stdio.CatalogError:
                    pass
        threads = [threading.Thread(target=churn, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        try:
            for i in range(300):
                items = conn.feed(json.dumps(req_msg(i, "tools/list")).encode() + b"\n" +
                                  json.dumps(call_msg("c%d" % i, "echo")).encode() + b"\n")
                for item in items:
                    if type(item) is bytes:
                        with lock:
                            out.append(item)
                    else:
                        item.run()
        finally:
            stop.set()
            for t in threads:
                t.join()
        answered = set()
        for line in out:
            m = json.loads(line)
            if "id" in m:
                answered.add(m["id"])
                if "result" in m and "tools" in m["result"]:
                    names = [t["name"] for t in m["result"]["tools"]]
                    self.assertEqual(names, sorted(set(names)))
                else:
                    self.assertTrue("error" in m or m["result"]["content"][0]["text"] == "e", m)
        self.assertEqual(answered, set(range(300)) | {"c%d" % i for i in range(300)} | {1})


class Prompts(InProcTest):

    def test_get_and_argument_checks(self):
        for version in ("2024-11-05", "2025-11-25", MODERN):
            p = self.spawn()
            modern = p.open(version)
            r = p.request(req_msg(1, "prompts/get", {"name": "summarize", "arguments": {
                "text": "abc", "style": "detailed"}}, modern))["result"]
            self.assertEqual(r["messages"], [{"role": "user", "content": {
                "type": "text", "text": "Summarize the following text (style: detailed):\n\nabc"}}])
            self.assertEqual("resultType" in r, modern)
            for params, fragment in (({"name": "summarize"}, "missing required argument"),
                                     ({"name": "summarize", "arguments": {"text": 1}}, "strings"),
                                     ({"name": "nope"}, "Unknown prompt"), ({}, "name")):
                r = p.request(req_msg(2, "prompts/get", params, modern))
                self.assertEqual(r["error"]["code"], -32602)
                self.assertIn(fragment, r["error"]["message"])

    def test_completion(self):
        p = self.spawn()
        p.initialize("2025-06-18")
        r = p.request(req_msg(1, "completion/complete", {
            "ref": {"type": "ref/prompt", "name": "summarize"},
            "argument": {"name": "style", "value": "d"}}))["result"]
        self.assertEqual(r, {"completion": {"values": ["detailed"], "total": 1, "hasMore": False}})
        r = p.request(req_msg(2, "completion/complete", {
            "ref": {"type": "ref/resource", "uri": "demo://greeting/{name}"},
            "argument": {"name": "name", "value": ""},
            "context": {"arguments": {}}}))["result"]
        self.assertEqual(r["completion"]["total"], 7)
        for params in ({"ref": {"type": "ref/prompt", "name": "nope"},
                        "argument": {"name": "a", "value": ""}},
                       {"ref": {"type": "ref/other"}, "argument": {"name": "a", "value": ""}},
                       {"ref": {"type": "ref/prompt", "name": "summarize"}}):
            self.assertEqual(err_code(p.request(req_msg(3, "completion/complete", params))), -32602)

    def test_uri_template_expansion_and_matching(self):
        t = mcp_stdio.ResourceTemplate("files://{dir}/{+path}", lambda u, v, c: "x", name="f")
        uri = t.expand(dir="my docs", path="a/b c.txt")
        self.assertEqual(uri, "files://my%20docs/a/b c.txt")
        self.assertEqual(t.match(uri), {"dir": "my docs", "path": "a/b c.txt"})
        self.assertIsNone(t.match("files://x"))
        self.assertIsNone(t.match("other://x/y"))
        for bad in ("files://{#q}", "files://{a}{a}", "files://{a", "files://{a,b}"):
            with self.assertRaises(mcp_stdio.CatalogError):
                mcp_stdio.ResourceTemplate(bad, lambda u, v, c: "x", name="f")

    def test_template_values_cannot_walk_a_file_tree(self):
        t = mcp_stdio.ResourceTemplate("files://{dir}/{+path}", lambda u, v, c: "x", name="f")
        self.assertEqual(t.match("files://docs/a/b.txt"), {"dir": "docs", "path": "a/b.txt"})
        self.assertEqual(t.match("files://d..ocs/a..b/c"), {"dir": "d..ocs", "path": "a..b/c"})
        for uri in ("files://..%2F..%2Fetc/x", "files://%2E%2E/x", "files://../x",
                    "files://d/../etc/passwd", "files://d/a/%2e%2e/b", "files://d/..",
                    "files://d/a%00b", "files://a%5C..%5Cb/x", "files://d/a\\..\\b",
                    "files://a%2Fb/c"):
            self.assertIsNone(t.match(uri), uri)
        p = self.spawn()
        p.initialize()
        r = p.request(req_msg(1, "resources/read",
                              {"uri": "demo://greeting/..%2F..%2Fetc%2Fpasswd"}))
        self.assertEqual(r["error"], {"code": -32002, "message": "Resource not found",
                                      "data": {"uri": "demo://greeting/..%2F..%2Fetc%2Fpasswd"}})

    def test_template_values_cannot_name_a_root_a_drive_or_a_share(self):
        """What a join would take out of the handler's folder never matches, with "\\" as
        "/": a root, a drive-absolute path, a share (the Windows path that sends the user's
        NTLM hash to the host); on Windows, any value with a drive."""
        t = mcp_stdio.ResourceTemplate("files://{dir}/{+path}", lambda u, v, c: "x", name="f")
        for uri in ("files://C:%5CWindows%5Cwin.ini/x", "files://%5C%5Chost%5Cshare/x",
                    "files://a%5Cb/x", "files://d/C:%5CWindows%5Cwin.ini", "files://d/C:/x",
                    "files://d/%5C%5Chost%5Cshare", "files://d//etc/passwd",
                    "files://d/%2Fetc/passwd", "files://d/%5Cx", "files://d/a%5C..%5Cb",
                    "files://d/a/..%5C..%5Cb"):
            with self.subTest(uri=uri):
                self.assertIsNone(t.match(uri))
        self.assertEqual(t.match("files://d/a:b/c"),       # drive a: on Windows
                         None if os.name == "nt" else {"dir": "d", "path": "a:b/c"})
        segments = mcp_stdio.ResourceTemplate("files://x{/parts*}", lambda u, v, c: "x",
                                              name="s")
        self.assertEqual(segments.match("files://x/a/b"), {"parts": "a/b"})
        for uri in ("files://x/C:/b", "files://x/a%5Cb", "files://x/%5C%5Chost/s"):
            self.assertIsNone(segments.match(uri), uri)
        leaves = mcp_stdio._leaves_folder
        for value, posix, windows in (
                ("a/b", False, False), ("a\\b", False, False), ("C:x", False, True),
                ("C:\\x", True, True), ("C:/x", True, True), ("c:", False, True),
                ("\\\\host\\share", True, True), ("//host/share", True, True),
                ("/etc", True, True), ("\\x", True, True), ("a/../b", True, True),
                ("a\\..\\b", True, True), ("..", True, True), ("a..b", False, False),
                ("a\0b", True, True), ("a:b", False, True), ("1:x", False, False)):
            with self.subTest(value=value):
                self.assertEqual((leaves(value, windows=False), leaves(value, windows=True)),
                                 (posix, windows))

    def test_completion_is_capped_at_100(self):
        server = mcp_stdio.Server("s", "1", prompts=[mcp_stdio.Prompt(
            "p", lambda a, c: "x", arguments=["a"],
            complete=lambda arg, value, known: [str(i) for i in range(250)])])
        p = self.spawn(server=server)
        r = p.request(req_msg(1, "completion/complete", {
            "ref": {"type": "ref/prompt", "name": "p"}, "argument": {"name": "a", "value": ""}},
            True), rev=MODERN)["result"]["completion"]
        self.assertEqual((len(r["values"]), r["total"], r["hasMore"]), (100, 250, True))


class Subscriptions(InProcTest):

    def listen(self, p, rid, notifications):
        p.send(req_msg(rid, "subscriptions/listen", {"notifications": notifications}, True))

    def test_listen_ack_cancel_and_shutdown(self):
        p = self.spawn()
        p.rev = MODERN
        self.listen(p, "s1", {"toolsListChanged": True,
                              "resourceSubscriptions": ["demo://readme", "demo://zz"]})
        ack = p.recv()
        self.assertEqual(ack, {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                               "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": "s1"},
                                          "notifications": {}}})    # the demo never changes
        self.listen(p, 7, {})
        self.assertEqual(p.recv()["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7)
        p.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7}})
        self.assertEqual(p.request(req_msg(2, "tools/list", {}, True))["id"], 2)
        p.silent(0.3)
        self.assertEqual(p.close(), 0)
        # The stream's closing result is the last line: an answered request is never
        # cancelled afterwards (0.7.0 sent notifications/cancelled for it).
        tail = [json.loads(line) for line in p.raw[-1:]]
        self.assertEqual(tail[0]["id"], "s1")
        self.assertEqual(tail[0]["result"]["resultType"], "complete")
        self.assertEqual(tail[0]["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "s1")
        self.assertFalse(any(b"notifications/cancelled" in line for line in p.raw))
        for msg in tail:
            self.assertEqual(WireSchemas.problems(MODERN, msg, "subscriptions/listen"), [])
        self.assertFalse(any(b'"id":7' in line for line in p.raw))

    def test_listen_needs_a_filter(self):
        p = self.spawn()
        p.rev = MODERN
        for params in ({}, {"notifications": {"resourceSubscriptions": "x"}}):
            r = p.request(req_msg(1, "subscriptions/listen", params, True))
            self.assertEqual(err_code(r), -32602)


###############################################################################
# Middleware: code around every request #######################################
###############################################################################


class Middleware(unittest.TestCase):
    """Code around every request: order, kinds, changes, refusals, tasks, threads."""

    def test_order_kinds_and_what_each_sees_in_both_eras(self):
        for era, rev in (("legacy", "2025-11-25"), ("modern", MODERN)):
            with self.subTest(era=era):
                seen = []
                with mcp_stdio.InProcessClient(recording_server(seen), era=era) as c:
                    self.assertEqual(c.call_tool("echo", {"text": "hi"})["content"],
                                     [{"type": "text", "text": "hi"}])
                    c.list_prompts()
                    c.read_resource("demo://readme")
                self.assertEqual(seen, [
                    ("outer", "tools/call", "tool", "echo", era, rev), ("inner", "tools/call"),
                    ("outer done", "tools/call"),
                    ("outer", "prompts/list", "list", "prompts/list", era, rev),
                    ("inner", "prompts/list"),
                    ("outer done", "prompts/list"),
                    ("outer", "resources/read", "resource", "demo://readme", era, rev),
                    ("outer done", "resources/read")])          # the handshake is not wrapped

    def test_a_call_and_its_context_are_freed_when_it_ends(self):
        """Nothing a middleware touches keeps a call alive for the cycle collector (the
        context refers to its call: an empty middleware cost 7% more per echo)."""
        import gc
        import weakref
        server, seen = mcp_stdio.demo_server(), []

        @server.middleware
        def looks(request, next):
            seen.append(weakref.ref(request.ctx))
            return next()
        with mcp_stdio.InProcessClient(server) as c:
            enabled = gc.isenabled()
            gc.disable()
            try:
                c.call_tool("echo", {"text": "hi"})
                self.assertEqual([r() for r in seen], [None])
            finally:
                if enabled:
                    gc.enable()

    def test_it_may_change_params_and_results_or_answer_itself(self):
        server = mcp_stdio.demo_server()
        cache = {}

        @server.middleware(kinds="tool")
        def shout(request, next):
            if request.name == "echo":
                request.params = dict(request.params, arguments={
                    "text": request.params["arguments"]["text"].upper()})
            return next()

        @server.middleware(kinds="list")
        def cached(request, next):
            if request.method not in cache:
                cache[request.method] = dict(next(), _meta={"cached": True})
            return cache[request.method]
        with mcp_stdio.InProcessClient(server, era="legacy") as c:
            self.assertEqual(c.call_tool("echo", {"text": "hi"})["content"][0]["text"], "HI")
            first = c.request("tools/list")
            self.assertEqual(c.request("tools/list"), first)
            self.assertEqual(first["_meta"], {"cached": True})

    def test_refusals(self):
        server = mcp_stdio.demo_server()

        @server.middleware
        def policy(request, next):
            name = request.name or request.method
            if name == "add":
                raise mcp_stdio.ToolError("add is closed today")
            if name == "divide":
                raise mcp_stdio.ProtocolError(-31001, "Not allowed", {"why": "policy"})
            if name == "countdown":
                raise RuntimeError("a bug in the middleware")
            if name == "prompts/list":
                raise mcp_stdio.ToolError("no prompts")
            if name == "resources/list":
                raise KeyError("another bug")
            if name == "greet":
                return None                     # not a result
            return next()
        p = InProc(self, server=server)
        p.initialize()

        def call(rid, name):
            return p.answer(req_msg(rid, "tools/call", {"name": name, "arguments": {}}))
        self.assertEqual(call(2, "add")["result"], {"content": [
            {"type": "text", "text": "add is closed today"}], "isError": True})
        self.assertEqual(call(3, "divide")["error"], {"code": -31001, "message": "Not allowed",
                                                       "data": {"why": "policy"}})
        failed = call(4, "countdown")["result"]
        self.assertTrue(failed["isError"])
        self.assertRegex(failed["content"][0]["text"], r"^Tool 'countdown' failed: RuntimeError "
                         r"\(incident [0-9a-f]{8}\); the details are in the server log\.$")
        self.assertIn(b"RuntimeError: a bug in the middleware", p.stderr)
        self.assertEqual(p.answer(req_msg(5, "prompts/list"))["error"], {
            "code": -32602, "message": "no prompts"})
        error = p.answer(req_msg(6, "resources/list"))["error"]
        self.assertEqual(error["code"], -32603)
        self.assertRegex(error["message"], r"^Internal error \(incident [0-9a-f]{8}\)$")
        self.assertRegex(call(7, "greet")["result"]["content"][0]["text"], r"^Tool 'greet' "
                         r"returned an invalid result: a middleware must return the result \(a "
                         r"dict\), not NoneType \(incident [0-9a-f]{8}\)\.$")

    def test_it_runs_off_the_reading_thread_and_costs_nothing_unregistered(self):
        """feed() answers a list at once without middleware; with it, the list is a Call."""
        for registered in (False, True):
            server = mcp_stdio.demo_server()
            if registered:
                server.middleware(lambda request, next: next(), kinds="list")
            conn = connect(server)
            conn.feed(json.dumps(init_msg(0)).encode() + b"\n")
            out = conn.feed(json.dumps(req_msg(1, "tools/list")).encode() + b"\n")
            self.assertEqual([type(x) is bytes for x in out], [not registered])
            if registered:
                lines = []
                conn.emit = lines.append
                out[0].run()
                self.assertEqual(len(json.loads(lines[0])["result"]["tools"]), 6)
        self.assertEqual(mcp_stdio.demo_server().freeze()._chains, {})

    def test_a_request_answered_later_passes_through(self):
        """A listen stream: its acknowledgement is sent from inside the chain, its answer
        comes when the connection ends; middleware saw it with no result."""
        server = live_server()
        seen = []

        @server.middleware
        def record(request, next):
            seen.append((request.method, next()))
            return {}
        p = InProc(self, server=server)
        p.rev = MODERN
        p.send(req_msg(5, "subscriptions/listen", {"notifications": {"toolsListChanged": True}},
                       True))
        ack = p.recv(rev=MODERN)
        self.assertEqual(ack["method"], "notifications/subscriptions/acknowledged")
        self.assertEqual(ack["params"]["notifications"], {"toolsListChanged": True})
        p.silent()
        server.add(mcp_stdio.Tool("more", lambda a, c: "m"))
        self.assertEqual(p.recv(rev=MODERN)["method"], "notifications/tools/list_changed")
        self.assertEqual(p.close(), 0)
        self.assertEqual(json.loads(p.lines[-1])["id"], 5)       # answered at the end
        self.assertEqual(seen, [("subscriptions/listen", None)])

    def test_an_async_middleware_awaits_next(self):
        server = mcp_stdio.demo_server()
        seen = []

        @server.middleware(kinds="tool")
        async def later(request, next):
            import asyncio
            await asyncio.sleep(0)
            result = await next()
            seen.append(result["content"][0]["text"])
            return result
        with mcp_stdio.InProcessClient(server, era="modern") as c:
            c.call_tool("echo", {"text": "async"})
        self.assertEqual(seen, ["async"])

    def test_what_it_refuses_to_register(self):
        server = mcp_stdio.demo_server()
        with self.assertRaises(mcp_stdio.CatalogError) as e:
            server.middleware(lambda r, n: n(), kinds=("tools",))
        self.assertEqual(str(e.exception), "middleware: unknown kind(s) 'tools' (known: tool, "
                         "resource, prompt, list, completion, request)")
        server.freeze()
        with self.assertRaises(mcp_stdio.CatalogError):
            server.middleware(lambda r, n: n())

    @about("tasks")
    def test_it_sees_a_task_call_as_a_plain_one_in_both_designs(self):
        for design in ("2025-11-25", MODERN):
            with self.subTest(design=design):
                server = task_server()
                seen = []

                @server.middleware(kinds="tool")
                def stamp(request, next):
                    result = next()
                    seen.append((request.name, result["content"][0]["text"]))
                    return dict(result, content=result["content"] + [
                        {"type": "text", "text": "(seen)"}])
                with mcp_stdio.InProcessClient(server, era="legacy" if design != MODERN
                                               else "modern") as c:
                    plain = c.call_tool("maybe", {"x": 1})
                    tasked = c.call_tool("maybe", {"x": 2}, task=True)
                self.assertEqual(seen, [("maybe", "maybe 1"), ("maybe", "maybe 2")])
                for result, x in ((plain, 1), (tasked, 2)):
                    self.assertEqual([b["text"] for b in result["content"]],
                                     ["maybe %d" % x, "(seen)"])

    def test_a_traceparent_reaches_the_handler_and_the_middleware(self):
        server = mcp_stdio.Server("t", "1")
        seen = []

        @server.middleware
        def trace(request, next):
            seen.append(request.ctx.trace)
            return next()

        @server.tool
        def traced(ctx: mcp_stdio.Context) -> dict:
            """Return the trace context it sees."""
            return ctx.trace
        p = InProc(self, server=server)
        p.rev = MODERN
        cases = [({"traceparent": TRACEPARENT, "tracestate": "rojo=00f067aa0ba902b7",
                   "baggage": "userId=alice"}, None),
                 ({"traceparent": TRACEPARENT.upper()}, {}),                 # malformed: none
                 ({"traceparent": TRACEPARENT, "tracestate": ",".join(
                     "k%d=v" % i for i in range(33))}, {"traceparent": TRACEPARENT}),
                 ({"traceparent": 7, "baggage": "k=" + "v" * 8200}, {})]
        for i, (meta, expected) in enumerate(cases):
            r = p.answer({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                "name": "traced", "arguments": {}, "_meta": modern_meta(**meta)}}, rev=MODERN)
            self.assertEqual(r["result"]["structuredContent"],
                             meta if expected is None else expected)
        self.assertEqual(seen, [c[0] if c[1] is None else c[1] for c in cases])

    def test_the_trace_formats(self):
        valid = mcp_stdio._trace_context
        self.assertEqual(valid({"traceparent": "01-" + TRACEPARENT[3:] + "-later"}),
                         {"traceparent": "01-" + TRACEPARENT[3:] + "-later"})  # a later version
        for bad in ("ff" + TRACEPARENT[2:], "00-" + "0" * 32 + TRACEPARENT[35:],
                    TRACEPARENT[:36] + "0" * 16 + "-01", TRACEPARENT + "-x", TRACEPARENT[:-1],
                    " " + TRACEPARENT):
            self.assertEqual(valid({"traceparent": bad}), {}, bad)
        for state, ok in (("a=1,b=2", True), ("a=1, b=2 ,", True), ("a=1,a=2", False),
                          ("A=1", False), ("t@vendor=x", True), ("a=", False), ("a=b=c", False),
                          ("a=" + "x" * 257, False), ("k=" + "v" * 510, False)):
            self.assertEqual("tracestate" in valid({"traceparent": TRACEPARENT,
                                                    "tracestate": state}), ok, state)
        self.assertEqual(valid({"tracestate": "a=1"}), {})      # never without a traceparent
        for baggage, ok in (("a=1,b=2;prop;p=v", True), ("k=%20", True), ("k=a b", False),
                            ("k", False), ("=v", False), (",".join(["k=v"] * 64), True),
                            (",".join(["k=v"] * 65), False), ("k=" + "v" * 8190, True),
                            ("k=" + "v" * 8191, False)):         # 8,192 bytes at most
            self.assertEqual("baggage" in valid({"baggage": baggage}), ok, baggage[:40])

    def test_the_servers_questions_carry_the_trace_on(self):
        """Legacy: the elicitation request's _meta; modern: each input request's params; and
        ctx.propagate() carries the handler's own instead."""
        server = mcp_stdio.Server("t", "1")
        own = "00-" + "1" * 32 + "-" + "2" * 16 + "-01"

        @server.tool
        def confirm(mine: bool, ctx: mcp_stdio.Context) -> str:
            """Ask first."""
            if mine:
                ctx.propagate(traceparent=own)
            return "yes" if ctx.elicit("Sure?", {"type": "object", "properties": {}}).accepted \
                else "no"
        asked = []

        def answer(params):
            asked.append(params.get("_meta"))
            return {"action": "accept", "content": {}}
        with mcp_stdio.InProcessClient(server, era="legacy", on_elicit=answer) as c:
            for mine in (False, True):
                r = c.request("tools/call", {"name": "confirm", "arguments": {"mine": mine},
                                             "_meta": {"traceparent": TRACEPARENT,
                                                       "baggage": "k=v"}})
                self.assertEqual(r["content"][0]["text"], "yes")
        self.assertEqual(asked, [{"traceparent": TRACEPARENT, "baggage": "k=v"},
                                 {"traceparent": own}])
        modern = InProc(self, server=server)
        modern.rev = MODERN
        r = modern.answer({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "confirm", "arguments": {"mine": False}, "_meta": modern_meta(**{
                "traceparent": TRACEPARENT, "io.modelcontextprotocol/clientCapabilities": {
                    "elicitation": {}}})}}, rev=MODERN)["result"]
        request, = r["inputRequests"].values()
        self.assertEqual(request["params"]["_meta"], {"traceparent": TRACEPARENT})
        ctx = mcp_stdio.Context(mcp_stdio.Call(None, 1, (False, 1), "tools/call", {}, "modern",
                                               MODERN, {}, None, None, None, None))
        for kw in ({"traceparent": "nope"}, {"tracestate": "a=1"},
                   {"traceparent": TRACEPARENT, "baggage": "bad value"}):
            with self.assertRaises(ValueError):
                ctx.propagate(**kw)


###############################################################################
# Tasks: long-running tool calls the client polls #############################
###############################################################################


@about("tasks")
class Tasks(InProcTest):
    """Tasks in the 2025-11-25 design and the 2026-07-28 extension: one API, two wires."""

    def legacy(self, version="2025-11-25", **options):
        p = self.spawn(server=task_server(**options))
        r = p.initialize(version)["result"]
        return p, r

    def lines(self, p):
        out = [json.loads(line) for line in p.lines]
        del p.lines[:]
        return out

    def started_tasks(self, p, n):
        """The ids of n tasks of the tool maybe, started one after another (ids 0..n-1)."""
        ids = []
        for i in range(n):
            p.send({"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {
                "name": "maybe", "arguments": {"x": i}, "task": {}}})
            ids.append(p.recv()["result"]["task"]["taskId"])
            self.lines(p)
        return ids

    def test_the_2025_11_25_design(self):
        p, init = self.legacy()
        self.assertEqual(init["capabilities"]["tasks"], {"list": {}, "cancel": {},
                                                         "requests": {"tools": {"call": {}}}})
        tools = {t["name"]: t for t in p.request(req_msg(1, "tools/list"))["result"]["tools"]}
        self.assertNotIn("execution", tools["plain"])
        self.assertEqual(tools["maybe"]["execution"], {"taskSupport": "optional"})
        self.assertEqual(tools["must"]["execution"], {"taskSupport": "required"})
        p.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "maybe", "arguments": {"x": 7}, "task": {"ttl": 60000}}})
        created = p.recv()["result"]["task"]
        self.assertEqual((created["status"], created["ttl"], created["pollInterval"]),
                         ("working", 60000, 500))
        self.assertRegex(created["taskId"], r"^[0-9a-f]{32}$")
        self.assertRegex(created["createdAt"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
        status = [m for m in self.lines(p)]
        self.assertEqual([m["method"] for m in status], ["notifications/tasks/status"])
        self.assertEqual(status[0]["params"]["status"], "completed")
        tid = created["taskId"]
        got = p.request(req_msg(3, "tasks/get", {"taskId": tid}))["result"]
        self.assertEqual((got["taskId"], got["status"]), (tid, "completed"))
        self.assertNotIn("result", got)
        result = p.request(req_msg(4, "tasks/result", {"taskId": tid}))["result"]
        self.assertEqual(result["content"], [{"type": "text", "text": "maybe 7"}])
        self.assertEqual(result["_meta"], {"io.modelcontextprotocol/related-task":
                                           {"taskId": tid}})
        listed = p.request(req_msg(5, "tasks/list"))["result"]["tasks"]
        self.assertEqual([t["taskId"] for t in listed], [tid])
        self.assertEqual(err_code(p.request(req_msg(6, "tasks/cancel", {"taskId": tid}))),
                         -32602)                  # already terminal
        self.assertEqual(err_code(p.request(req_msg(7, "tasks/get", {"taskId": "nope"}))),
                         -32602)
        # Codes of the specification: -32601 for a forbidden tool asked as a task, and
        # for a required one called plainly.
        self.assertEqual(err_code(p.request(req_msg(8, "tools/call", {
            "name": "plain", "arguments": {"x": 1}, "task": {}}))), -32601)
        self.assertEqual(err_code(p.request(req_msg(9, "tools/call", {"name": "must"}))),
                         -32601)
        # An isError result makes the task failed; tasks/result still gives the result.
        p.send({"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {
            "name": "oops", "task": {}}})
        tid = p.recv()["result"]["task"]["taskId"]
        self.assertEqual(self.lines(p)[0]["params"]["status"], "failed")
        self.assertTrue(p.request(req_msg(11, "tasks/result", {"taskId": tid}))["result"]
                        ["isError"])
        # Without params.task an optional tool is a plain call.
        self.assertEqual(p.request(req_msg(12, "tools/call", {"name": "maybe", "arguments": {
            "x": 1}}))["result"]["content"][0]["text"], "maybe 1")

    def test_a_task_augmented_call_with_bad_arguments_is_a_task(self):
        """Never a plain result: the task ends with the refusal, by each design's rule."""
        p, _ = self.legacy()
        p.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "maybe", "arguments": {"x": "seven"}, "task": {}}})
        tid = p.recv()["result"]["task"]["taskId"]
        self.lines(p)
        got = p.request(req_msg(2, "tasks/get", {"taskId": tid}))["result"]
        self.assertEqual((got["status"], got["statusMessage"]), (
            "failed", "Invalid arguments for tool 'maybe':\n- /x: expected type integer, got "
            "string"))
        r = p.request(req_msg(3, "tasks/result", {"taskId": tid}))["result"]
        self.assertEqual((r["isError"], r["content"][0]["text"]), (True, got["statusMessage"]))
        p = self.spawn(server=task_server())
        p.rev = MODERN
        p.send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
            "name": "maybe", "arguments": {"x": "seven"}, "_meta": tasks_meta()}})
        created = p.recv()["result"]
        self.assertEqual(created["resultType"], "task")
        got = p.request({"jsonrpc": "2.0", "id": 5, "method": "tasks/get", "params": {
            "taskId": created["taskId"], "_meta": tasks_meta()}})["result"]
        self.assertEqual((got["status"], got["result"]["isError"]), ("completed", True))
        self.assertNotIn("statusMessage", got)

    def test_a_failed_task_says_why(self):
        server = task_server()

        @server.tool(task="optional")
        def broken() -> str:
            """Raises something unexpected."""
            raise KeyError("secret")
        p = self.spawn(server=server)
        p.initialize()
        for rid, name, message in ((1, "oops", "^It went wrong\\.$"),
                                   (3, "broken", "^Tool 'broken' failed: KeyError \\(incident "
                                    "[0-9a-f]{8}\\); the details are in the server log\\.$")):
            p.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {
                "name": name, "task": {}}})
            tid = p.recv()["result"]["task"]["taskId"]
            status = [m["params"] for m in self.lines(p)][-1]
            self.assertEqual(status["status"], "failed")
            self.assertRegex(status["statusMessage"], message)
            got = p.request(req_msg(rid + 1, "tasks/get", {"taskId": tid}))["result"]
            self.assertEqual(got["statusMessage"], status["statusMessage"])
            self.assertNotIn("secret", got["statusMessage"])

    def test_a_2025_11_25_tasks_notifications_are_related_to_it(self):
        server = mcp_stdio.Server("s", "1")

        @server.tool(task="optional")
        def chatty(ctx: mcp_stdio.Context) -> str:
            """Reports progress and logs."""
            ctx.progress(1, 2)
            ctx.log("info", "half way")
            ctx.progress(2, 2)
            return "done"
        p = self.spawn(server=server)
        p.initialize()
        p.request(req_msg(1, "logging/setLevel", {"level": "info"}))
        p.send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "chatty", "task": {}, "_meta": {"progressToken": "p"}}})
        tid = p.recv()["result"]["task"]["taskId"]
        related = {"io.modelcontextprotocol/related-task": {"taskId": tid}}
        sent = [m for m in self.lines(p) if m["method"] != "notifications/tasks/status"]
        self.assertEqual(sent, [
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {
                "progressToken": "p", "progress": 1, "total": 2, "_meta": related}},
            {"jsonrpc": "2.0", "method": "notifications/message", "params": {
                "level": "info", "logger": "chatty", "data": "half way", "_meta": related}},
            {"jsonrpc": "2.0", "method": "notifications/progress", "params": {
                "progressToken": "p", "progress": 2, "total": 2, "_meta": related}}])
        for m in sent:
            self.assertEqual(WireSchemas.problems("2025-11-25", m, None), [])

    def test_tasks_list_reads_its_cursor_and_pages(self):
        p, _ = self.legacy(page_size=1)
        ids = self.started_tasks(p, 3)
        seen, cursor, rid = [], None, 10
        while True:
            r = p.request(req_msg(rid, "tasks/list", {"cursor": cursor}))["result"]
            rid += 1
            self.assertEqual(len(r["tasks"]), 1)
            seen += [t["taskId"] for t in r["tasks"]]
            cursor = r.get("nextCursor")
            if cursor is None:
                break
        self.assertEqual(seen, ids)
        for bad in ("garbage", "", 123, {"x": 1}, [], True, "74617365733a31",
                    mcp_stdio._position_cursor("tasks", "x")):
            with self.subTest(cursor=bad):
                r = p.request(req_msg(rid, "tasks/list", {"cursor": bad}))
                rid += 1
                self.assertEqual(r["error"], {"code": -32602,
                                              "message": "Invalid params: invalid cursor"})

    def test_task_false_runs_an_optional_task_tool_plainly_with_progress(self):
        server = mcp_stdio.Server("s", "1")

        @server.tool(task="optional")
        def steps(ctx: mcp_stdio.Context) -> str:
            """Three steps."""
            for i in range(3):
                ctx.progress(i + 1, 3)
            return "done"
        for era in ("modern", "legacy"):
            with self.subTest(era=era):
                heard = []
                with mcp_stdio.InProcessClient(server, era=era) as c:
                    r = c.call_tool("steps", task=False,
                                    on_progress=lambda p, t, m: heard.append((p, t)))
                self.assertEqual(r["content"][0]["text"], "done")
                self.assertEqual(heard, [(1, 3), (2, 3), (3, 3)])   # modern: 0 in 0.7.0

    def test_older_revisions_never_see_tasks(self):
        for version in ("2024-11-05", "2025-03-26", "2025-06-18"):
            with self.subTest(version=version):
                p, init = self.legacy(version)
                self.assertNotIn("tasks", init["capabilities"])
                tools = {t["name"]: t for t in p.request(req_msg(1, "tools/list"))["result"]
                         ["tools"]}
                self.assertNotIn("must", tools)          # it could never be called
                self.assertNotIn("execution", tools["maybe"])
                self.assertEqual(err_code(p.request(req_msg(2, "tools/call", {"name": "must"}))),
                                 -32602)
                r = p.request(req_msg(3, "tools/call", {"name": "maybe", "arguments": {"x": 2},
                                                        "task": {}}))["result"]
                self.assertEqual(r["content"][0]["text"], "maybe 2")   # params.task ignored
                self.assertEqual(err_code(p.request(req_msg(4, "tasks/get", {"taskId": "x"}))),
                                 -32601)

    def test_the_2026_07_28_extension(self):
        p = self.spawn(server=task_server())
        p.rev = MODERN
        caps = p.request(req_msg(1, "server/discover", modern=True))["result"]["capabilities"]
        self.assertEqual(caps["extensions"], {"io.modelcontextprotocol/tasks": {}})
        self.assertNotIn("tasks", caps)
        tools = {t["name"]: t for t in p.request(req_msg(2, "tools/list", modern=True))
                 ["result"]["tools"]}
        self.assertNotIn("execution", tools["must"])
        # Without the extension: a required tool is -32021, an optional one runs plainly.
        r = p.request(req_msg(3, "tools/call", {"name": "must"}, modern=True))
        self.assertEqual((err_code(r), r["error"]["data"]), (-32021, {"requiredCapabilities": {
            "extensions": {"io.modelcontextprotocol/tasks": {}}}}))
        r = p.request(req_msg(4, "tools/call", {"name": "maybe", "arguments": {"x": 3}},
                              modern=True))["result"]
        self.assertEqual((r["resultType"], r["content"][0]["text"]), ("complete", "maybe 3"))
        self.assertEqual(err_code(p.request(req_msg(5, "tasks/get", {"taskId": "x"},
                                                    modern=True))), -32021)
        # With it: the server makes a task; tasks/get inlines the result.
        p.send({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {
            "name": "maybe", "arguments": {"x": 4}, "task": {"ttl": 5}, "_meta": tasks_meta()}})
        created = p.recv()["result"]
        self.assertEqual((created["resultType"], created["status"], created["ttlMs"],
                          created["pollIntervalMs"]), ("task", "working", 600000, 500))
        self.assertNotIn("ttl", created)
        tid = created["taskId"]
        get = {"jsonrpc": "2.0", "method": "tasks/get", "params": {"taskId": tid,
                                                                   "_meta": tasks_meta()}}
        got = p.request(dict(get, id=7))["result"]
        self.assertEqual((got["status"], got["statusMessage"], got["result"]["content"]),
                         ("completed", "half way", [{"type": "text", "text": "maybe 4"}]))
        self.assertNotIn("requestState", got)
        # A tool error is a completed task in this design; cancel is an acknowledgement.
        p.send({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {
            "name": "oops", "_meta": tasks_meta()}})
        oops = p.recv()["result"]["taskId"]
        got = p.request(dict(get, id=9, params={"taskId": oops, "_meta": tasks_meta()}))
        self.assertEqual((got["result"]["status"], got["result"]["result"]["isError"]),
                         ("completed", True))
        cancel = p.request({"jsonrpc": "2.0", "id": 10, "method": "tasks/cancel", "params": {
            "taskId": oops, "_meta": tasks_meta()}})["result"]
        self.assertEqual(cancel["resultType"], "complete")
        for i, method in enumerate(("tasks/result", "tasks/list")):
            self.assertEqual(err_code(p.request({"jsonrpc": "2.0", "id": 11 + i, "method": method,
                                                 "params": {"taskId": tid,
                                                            "_meta": tasks_meta()}})), -32601)

    def modern_task_that_asks(self):
        """A 2026-07-28 task of the tool that asks: (transcript, its _meta, task id, tasks/get)."""
        p = self.spawn(server=task_server())
        p.rev = MODERN
        meta = tasks_meta(elicitation={})
        p.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "asks", "_meta": meta}})
        tid = p.recv()["result"]["taskId"]
        get = {"jsonrpc": "2.0", "id": 2, "method": "tasks/get", "params": {
            "taskId": tid, "_meta": meta}}
        return p, meta, tid, get

    def test_input_rounds_of_a_modern_task(self):
        p, meta, tid, get = self.modern_task_that_asks()
        got = p.request(get)["result"]
        self.assertEqual(got["status"], "input_required")
        (key, ask), = got["inputRequests"].items()
        self.assertEqual(ask["method"], "elicitation/create")
        r = p.request({"jsonrpc": "2.0", "id": 3, "method": "tasks/update", "params": {
            "taskId": tid, "inputResponses": {"unknown": {}, key: {
                "action": "accept", "content": {"yes": True}}}, "_meta": meta}})
        self.assertEqual(r["result"]["resultType"], "complete")
        got = p.request({"jsonrpc": "2.0", "id": 4, "method": "tasks/get", "params": {
            "taskId": tid, "_meta": meta}})["result"]
        self.assertEqual((got["status"], got["result"]["content"][0]["text"]),
                         ("completed", "ok"))

    def test_tasks_result_waits_without_a_worker(self):
        server = mcp_stdio.Server("s", "1")
        release = threading.Event()

        @server.tool(task="optional")
        def slow(ctx: mcp_stdio.Context) -> str:
            """Waits."""
            release.wait(10)
            return "done"
        lines = []
        conn = connect(server, lines.append, lock=threading.Lock())
        conn.feed(json.dumps(init_msg(0)).encode() + b"\n")
        call = task_call(conn, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                      "params": {"name": "slow", "task": {}}}, lines)
        worker = threading.Thread(target=call.run)
        worker.start()
        deadline = time.monotonic() + TIMEOUT
        while not any(b'"task"' in line for line in lines) and time.monotonic() < deadline:
            time.sleep(0.01)
        tid = json.loads([line for line in lines if b'"task"' in line][0])["result"]["task"][
            "taskId"]
        out = conn.feed(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tasks/result",
                                    "params": {"taskId": tid}}).encode() + b"\n")
        self.assertEqual(out, [])                  # deferred: no line, nothing to run
        self.assertFalse([line for line in lines if b'"id":2' in line])
        release.set()
        worker.join(TIMEOUT)
        answer = [json.loads(line) for line in lines if b'"id":2' in line]
        self.assertEqual(answer[0]["result"]["content"], [{"type": "text", "text": "done"}])

    def test_a_cancelled_task_stays_cancelled(self):
        server = mcp_stdio.Server("s", "1")
        started, release = threading.Event(), threading.Event()

        @server.tool(task="optional")
        def stubborn(ctx: mcp_stdio.Context) -> str:
            """Ignores cancellation until released."""
            started.set()
            release.wait(10)
            return "finished anyway"
        lines = []
        conn = connect(server, lines.append, lock=threading.Lock())
        meta = tasks_meta()
        call = task_call(conn, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                      "params": {"name": "stubborn", "_meta": meta}}, lines)
        worker = threading.Thread(target=call.run)
        worker.start()
        self.assertTrue(started.wait(TIMEOUT))
        tid = json.loads(lines[0])["result"]["taskId"]
        out = conn.feed(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tasks/cancel",
                                    "params": {"taskId": tid, "_meta": meta}}).encode() + b"\n")
        self.assertEqual(json.loads(out[0])["result"]["resultType"], "complete")
        self.assertTrue(call.cancelled)
        release.set()
        worker.join(TIMEOUT)
        out = conn.feed(json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tasks/get",
                                    "params": {"taskId": tid, "_meta": meta}}).encode() + b"\n")
        self.assertEqual(json.loads(out[0])["result"]["status"], "cancelled")

    def test_tasks_end_with_the_connection(self):
        server = mcp_stdio.Server("s", "1")
        started, seen = threading.Event(), []

        @server.tool(task="optional")
        def waits(ctx: mcp_stdio.Context) -> str:
            """Waits for cancellation."""
            started.set()
            seen.append(ctx.sleep(10))
            return "late"
        lines = []
        conn = connect(server, lines.append, lock=threading.Lock())
        call = task_call(conn, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                      "params": {"name": "waits", "_meta": tasks_meta()}}, lines)
        worker = threading.Thread(target=call.run)
        worker.start()
        self.assertTrue(started.wait(TIMEOUT))
        conn.close()
        worker.join(TIMEOUT)
        self.assertEqual(seen, [True])              # woken by the cancellation
        self.assertEqual([t.status for t in conn.tasks.all()], ["cancelled"])

    def test_the_store_is_bounded_and_tasks_expire(self):
        p, _ = self.legacy(max_tasks=2, task_ttl_ms=1000)
        ids = self.started_tasks(p, 2)
        r = p.request({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "maybe", "arguments": {"x": 5}, "task": {}}})
        self.assertEqual(r["error"], {"code": -31000, "message": "Too many tasks: the server "
                                      "holds 2 already; try again when one has ended",
                                      "data": {"reason": "too-many-tasks", "maxTasks": 2}})
        p.advance(1.5)                              # past the TTL: dropped, results and all
        self.assertEqual(err_code(p.request(req_msg(6, "tasks/get", {"taskId": ids[0]}))),
                         -32602)
        p.send({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
            "name": "maybe", "arguments": {"x": 7}, "task": {}}})
        self.assertIn("task", p.recv()["result"])

    def ask_in_a_task(self, tool):
        """Call tool as a 2025-11-25 task that asks; return (conn, what was sent, task id, question)."""
        lines = []
        conn = connect(task_server(), lines.append, lock=threading.Lock())
        conn.feed(json.dumps(init_msg(0, "2025-11-25", {"elicitation": {}})).encode() + b"\n")
        call = task_call(conn, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                      "params": {"name": tool, "task": {}}}, lines)
        call.run()                                  # returns at once: nothing waits
        sent = [json.loads(line) for line in lines]
        tid = [m for m in sent if m.get("id") == 1][0]["result"]["task"]["taskId"]
        ask = [m for m in sent if m.get("method") == "elicitation/create"][0]
        self.assertEqual(ask["params"]["_meta"], {"io.modelcontextprotocol/related-task":
                                                  {"taskId": tid}})
        for m in sent:
            self.assertEqual(WireSchemas.problems("2025-11-25", m, "tools/call" if m.get("id")
                                                  == 1 else None), [])
        return conn, sent, tid, ask

    def answer_and_get_the_result(self, conn, tid, ask):
        rerun, = conn.feed(json.dumps({"jsonrpc": "2.0", "id": ask["id"], "result": {
            "action": "accept", "content": {"yes": True}}}).encode() + b"\n")
        rerun.run()
        out = conn.feed(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tasks/result",
                                    "params": {"taskId": tid}}).encode() + b"\n")
        self.assertEqual(json.loads(out[0])["result"]["content"], [{"type": "text",
                                                                    "text": "ok"}])

    def test_a_2025_11_25_task_asks_without_holding_a_thread(self):
        """Its questions go out as requests; the answers come back as a Call to run."""
        conn, sent, tid, ask = self.ask_in_a_task("asks")
        self.assertIn("input_required", [m["params"]["status"] for m in sent
                                         if m.get("method") == "notifications/tasks/status"])
        self.answer_and_get_the_result(conn, tid, ask)

    def tasks_request(self, conn, rid, method, tid, **params):
        out = conn.feed(json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                                    "params": dict(params, taskId=tid)}).encode() + b"\n")
        return [json.loads(line) for line in out if type(line) is bytes]

    def test_a_task_that_ends_as_its_result_is_deferred_leaves_no_id_in_use(self):
        """tasks/result defers, releasing the lock; the task's work ending before the call is
        recorded as in flight answers it then, and the id is free again: nothing stays in
        flight (the interleaving is forced: the work runs inside the handler's return)."""
        from unittest import mock
        lines = []
        conn = connect(task_server(), lines.append, lock=threading.Lock())
        conn.feed(json.dumps(init_msg(0, "2025-11-25")).encode() + b"\n")
        call = task_call(conn, {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                "params": {"name": "maybe", "arguments": {"x": 1}, "task": {}}},
                         lines)
        tid = json.loads(lines[0])["result"]["task"]["taskId"]
        route = mcp_stdio._ROUTES["tasks/result"]

        def deferred_then_done(conn_, c):
            r = route.handler(conn_, c)
            self.assertIs(type(r), mcp_stdio._Deferred)
            call.run()                  # the worker ends the task here, before the record
            return r
        with mock.patch.dict(mcp_stdio._ROUTES, {"tasks/result": mcp_stdio._Route(
                deferred_then_done, route.feature, route.capability)}):
            self.assertEqual(self.tasks_request(conn, 2, "tasks/result", tid), [])
        answered, = [json.loads(line) for line in lines if b'"id":2' in line]
        self.assertEqual(answered["result"]["content"], [{"type": "text", "text": "maybe 1"}])
        self.assertEqual(conn.inflight, {})
        again, = self.tasks_request(conn, 2, "tasks/get", tid)     # the id is free
        self.assertEqual(again["result"]["status"], "completed")

    def test_a_task_waiting_for_input_can_be_cancelled(self):
        """It has no running work to settle: cancel ends it, and tasks/result is answered."""
        lines = []
        conn, _, tid, ask = self.ask_in_a_task("asks")
        conn.emit = lines.append
        self.assertEqual(self.tasks_request(conn, 2, "tasks/result", tid), [])   # waits
        cancelled, = self.tasks_request(conn, 3, "tasks/cancel", tid)
        self.assertEqual(cancelled["result"]["status"], "cancelled")
        waited, = [json.loads(line) for line in lines if b'"id":2' in line]
        self.assertEqual(waited["error"]["code"], -32600)
        self.assertIn("was cancelled", waited["error"]["message"])
        late = conn.feed(json.dumps({"jsonrpc": "2.0", "id": ask["id"], "result": {
            "action": "accept", "content": {"yes": True}}}).encode() + b"\n")
        self.assertEqual(late, [])                  # an answer after the end runs nothing
        got, = self.tasks_request(conn, 4, "tasks/get", tid)
        self.assertEqual(got["result"]["status"], "cancelled")

    def test_a_question_that_fails_ends_the_task_and_its_waiters(self):
        """As in a plain legacy call, the handler's question raises a ToolError."""
        for ending, text in (
                ("error", "The client could not answer 'elicit-1': \"no\""),
                ("bad answer", "The client sent an invalid answer: the answer to 'elicit-1' is "
                               "not an ElicitResult (action accept, decline or cancel)"),
                ("close", "The client closed the connection before answering 'elicit-1'.")):
            with self.subTest(ending=ending):
                lines = []
                conn, _, tid, ask = self.ask_in_a_task("asks")
                conn.emit = lines.append
                self.assertEqual(self.tasks_request(conn, 2, "tasks/result", tid), [])
                if ending == "close":
                    lines += conn.close()
                else:
                    rerun, = conn.feed(json.dumps(dict({"jsonrpc": "2.0", "id": ask["id"]}, **(
                        {"error": {"code": -32603, "message": "no"}} if ending == "error"
                        else {"result": {"action": "maybe"}}))).encode() + b"\n")
                    rerun.run()                     # the handler runs again, and fails
                waited, = [json.loads(line) for line in lines if b'"id":2' in line]
                self.assertEqual(waited["result"], {
                    "content": [{"type": "text", "text": text}], "isError": True,
                    "_meta": {"io.modelcontextprotocol/related-task": {"taskId": tid}}})
                self.assertEqual([t.status for t in conn.tasks.all()], ["failed"])

    def test_a_modern_task_waiting_for_input_can_be_cancelled(self):
        p, meta, tid, get = self.modern_task_that_asks()
        (key, _), = p.request(get)["result"]["inputRequests"].items()
        p.request({"jsonrpc": "2.0", "id": 3, "method": "tasks/cancel", "params": {
            "taskId": tid, "_meta": meta}})
        self.assertEqual(p.request(dict(get, id=4))["result"]["status"], "cancelled")
        p.request({"jsonrpc": "2.0", "id": 5, "method": "tasks/update", "params": {
            "taskId": tid, "inputResponses": {key: {"action": "accept", "content": {
                "yes": True}}}, "_meta": meta}})
        self.assertEqual(p.request(dict(get, id=6))["result"]["status"], "cancelled")

    def test_a_task_that_tasks_result_waits_on_outlives_its_ttl(self):
        p = self.spawn(server=task_server())
        p.initialize("2025-11-25", {"elicitation": {}})
        p.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
            "name": "asks", "task": {"ttl": 1000}}})
        tid = p.recv()["result"]["task"]["taskId"]
        p.send(req_msg(2, "tasks/result", {"taskId": tid}))
        self.lines(p)                               # its status, its question
        p.advance(1.5)                              # past its TTL, but waited on
        got = p.request(req_msg(3, "tasks/get", {"taskId": tid}))
        self.assertEqual(got["result"]["status"], "input_required")

    def test_a_2025_11_25_call_is_answered_with_its_task_at_once(self):
        """task_start="handler" cannot answer first there: the questions are the task's."""
        conn, sent, tid, ask = self.ask_in_a_task("asks_then_task")
        self.assertEqual(sent[0].get("id"), 1)      # the task first, before any question
        self.answer_and_get_the_result(conn, tid, ask)

    def test_the_client_runs_tasks_in_both_eras(self):
        """call_tool polls a task to its end, answering its questions, in either design."""
        accept = lambda params: {"action": "accept", "content": {"yes": True}}  # noqa: E731
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                statuses = []
                with mcp_stdio.InProcessClient(task_server(), era=era, on_elicit=accept) as c:
                    r = c.call_tool("maybe", {"x": 5}, task=True,
                                    on_status=lambda *s: statuses.append(s))
                    self.assertEqual(r["content"], [{"type": "text", "text": "maybe 5"}])
                    self.assertEqual(statuses[-1][0], "completed")
                    self.assertEqual(c.call_tool("must", task=True)["content"][0]["text"],
                                     "must")
                    self.assertEqual(c.call_tool("asks", task=True)["content"][0]["text"], "ok")
                    r = c.call_tool("oops", task=True)
                    self.assertTrue(r["isError"])

    def test_on_progress_hears_a_task_in_both_eras(self):
        """A 2025-11-25 task's progress notifications keep the call's token after its answer;
        a modern task's last progress rides in its Task's _meta, read as the client polls."""
        server = mcp_stdio.Server("p", "1")

        @server.tool(task="optional")
        def work(n: int, ctx: mcp_stdio.Context) -> str:
            for i in range(n):
                ctx.progress(i + 1, n, "step %d" % (i + 1))
            return "done"
        for era, task, heard in (("legacy", True, [(1, 3, "step 1"), (2, 3, "step 2"),
                                                   (3, 3, "step 3")]),
                                 ("modern", None, [(3, 3, "step 3")]),
                                 ("modern", False, [(1, 3, "step 1"), (2, 3, "step 2"),
                                                    (3, 3, "step 3")])):
            with self.subTest(era=era, task=task):
                got, lines = [], []
                with mcp_stdio.InProcessClient(server, era=era, transcript=lines) as c:
                    r = c.call_tool("work", {"n": 3}, task=task,
                                    on_progress=lambda *a: got.append(a))
                    self.assertEqual(r["content"], [{"type": "text", "text": "done"}])
                    self.assertEqual(c._hearing, {})          # heard no longer
                self.assertEqual(got, heard)
                received = [json.loads(line) for way, line in lines if way == "received"]
                revision = "2025-11-25" if era == "legacy" else MODERN
                for m in received:
                    self.assertEqual(WireSchemas.problems(revision, m), [], m)
                polled = [m["result"] for m in received if "taskId" in m.get("result", {})
                          and m["result"].get("status") == "completed"]
                if era == "modern" and task is None:
                    self.assertEqual(polled[-1]["_meta"]["mcp-stdio/progress"],
                                     {"progress": 3, "total": 3})

    def test_status_notifications_on_a_listen_stream(self):
        p, meta, tid, _ = self.modern_task_that_asks()
        self.lines(p)
        r = p.request({"jsonrpc": "2.0", "id": 2, "method": "subscriptions/listen", "params": {
            "notifications": {"taskIds": [tid, "unknown"]}, "_meta": modern_meta()}})
        self.assertEqual(err_code(r), -32021)       # taskIds need the extension
        p.send({"jsonrpc": "2.0", "id": 3, "method": "subscriptions/listen", "params": {
            "notifications": {"taskIds": [tid, "unknown"]}, "_meta": meta}})
        ack = p.recv()
        self.assertEqual(ack["params"]["notifications"], {"taskIds": [tid]})
        p.request({"jsonrpc": "2.0", "id": 4, "method": "tasks/get", "params": {
            "taskId": tid, "_meta": meta}})
        key = "elicit-1"
        p.send({"jsonrpc": "2.0", "id": 5, "method": "tasks/update", "params": {
            "taskId": tid, "inputResponses": {key: {"action": "decline"}}, "_meta": meta}})
        heard = [json.loads(line) for line in p.lines]
        notes = [m for m in heard if m.get("method") == "notifications/tasks"]
        self.assertEqual([n["params"]["status"] for n in notes], ["working", "completed"])
        self.assertEqual(notes[-1]["params"]["result"]["content"][0]["text"], "no")
        self.assertEqual(notes[-1]["params"]["_meta"],
                         {"io.modelcontextprotocol/subscriptionId": 3})


@about("tasks")
class TaskAdmission(ProcTest):
    """A task is created on admission, whatever the workers are doing."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.script = os.path.join(tmp.name, "queue.py")
        with open(self.script, "w", encoding="utf-8") as f:
            f.write(TASK_QUEUE_SERVER)

    def nap(self, p, era, rid, name, seconds):
        params = {"name": "nap", "arguments": {"name": name, "seconds": seconds}}
        if era == MODERN:
            params["_meta"] = tasks_meta()
        else:
            params["task"] = {}
        p.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params})

    def until(self, p, rid):
        """The response to rid, and the notifications that came before it."""
        heard = []
        while True:
            m = p.recv()
            if m.get("id") == rid:
                return m, heard
            heard.append(m)

    def tasks_request(self, p, era, rid, method, tid):
        params = {"taskId": tid}
        if era == MODERN:
            params["_meta"] = tasks_meta()
        p.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.until(p, rid)[0]["result"]

    def test_a_queued_task_answers_at_once_and_times_out_from_its_start_legacy(self):
        self.queued_task_answers_at_once("2025-11-25")

    def test_a_queued_task_answers_at_once_and_times_out_from_its_start_modern(self):
        self.queued_task_answers_at_once(MODERN)

    def queued_task_answers_at_once(self, era):
        p = self.spawn("--workers", "1", "--backlog", "1", "--timeout", "2.5",
                       script=self.script)
        p.open(era)
        ids = {}
        for rid, name in ((1, "a"), (2, "b"), (3, "c")):
            # "a" runs 2 s: room for a busy machine to admit "b" and "c" meanwhile.
            self.nap(p, era, rid, name, 2.0 if name == "a" else 1.0)
            r, heard = self.until(p, rid)
            created = r["result"] if era == MODERN else r["result"]["task"]
            self.assertEqual(created["status"], "working")
            # Before "a" ends: its task answers while the only worker is busy
            # (0.7.0 answered "b" only when "a" had finished).
            self.assertFalse([m for m in heard if m["params"].get("status")
                              not in (None, "working")], heard)
            ids[name] = created["taskId"]
        # "c" waits behind "b": cancelled while queued, its handler never runs.
        cancelled = self.tasks_request(p, era, 4, "tasks/cancel", ids["c"])
        if era != MODERN:
            self.assertEqual(cancelled["status"], "cancelled")
        # "b" waited 2 s for the worker and then ran 1 s: past 2.5 s from its
        # admission, within it from its start.
        deadline = time.monotonic() + 3 * TIMEOUT
        got = {}
        while time.monotonic() < deadline and len(got) < 3:
            for i, name in enumerate("abc"):
                got[name] = self.tasks_request(p, era, 10 + i + 10 * len(got),
                                               "tasks/get", ids[name])
            got = {k: v for k, v in got.items() if v["status"] != "working"}
            time.sleep(0.2)
        self.assertEqual({k: v["status"] for k, v in got.items()},
                         {"a": "completed", "b": "completed", "c": "cancelled"})
        if era == MODERN:
            self.assertEqual(got["b"]["result"]["content"][0]["text"], "slept b")
        else:
            r = self.tasks_request(p, era, 99, "tasks/result", ids["b"])
            self.assertEqual(r["content"][0]["text"], "slept b")
        self.assertEqual(p.close(), 0)
        self.assertEqual(p.stderr.count(b"start "), 2, p.stderr)
        self.assertNotIn(b"start c", p.stderr)

    def test_queued_tasks_do_not_count_against_the_backlog(self):
        p = self.spawn("--workers", "1", "--backlog", "1", "--max-tasks", "3",
                       script=self.script)
        p.open("2025-11-25")
        for rid in range(1, 4):
            self.nap(p, "2025-11-25", rid, "t%d" % rid, 0.5)
            self.assertIn("task", self.until(p, rid)[0]["result"])
        self.nap(p, "2025-11-25", 4, "t4", 0.5)       # past --max-tasks: a JSON-RPC error
        self.assertEqual(self.until(p, 4)[0]["error"]["code"], -31000)
        # A plain call still has its backlog place behind the queued tasks.
        p.send({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {
            "name": "nap", "arguments": {"name": "plain", "seconds": 0}}})
        r = self.until(p, 5)[0]["result"]
        self.assertEqual(r["content"][0]["text"], "slept plain")
        self.assertEqual(p.close(), 0)


###############################################################################
# Skills: front matter and folders (the skills extension) #####################
###############################################################################


@about("skills")
class Skills(unittest.TestCase):
    """serve_skills(folder): the skills extension in both eras."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = os.path.join(tmp.name, "skills")
        write_skill(self.root, "pdf-processing", "name: pdf-processing\ndescription: >-\n  Work "
                    "with PDF files.\n  Fill forms.\nmetadata:\n  version: \"1.0\"", {
                        "references/FORMS.md": b"# Forms\n", "assets/logo.png": b"\x89PNG\x00\xff",
                        "a b/c%d.txt": "é\n".encode()})
        write_skill(self.root, "team/review", "name: review\ndescription: Review changes.",
                    {"scripts/run.sh": b"echo hi\n"})
        write_skill(self.root, "team/review/inner", "name: inner\ndescription: Nested.")

    def client(self, server, era="modern"):
        c = mcp_stdio.InProcessClient(server, era=era)
        self.addCleanup(c.close)
        return c.connect()

    def test_a_skill_file_is_read_as_its_bytes(self):
        """A skill's file comes back byte for byte: CRLF, a NUL and byte 0x1A (where a
        Windows text-mode read stops) stay; the read is binary wherever the system has a
        text mode (O_BINARY, Windows')."""
        data = b"\x89PNG\r\n\x1a\n\x00\x00\r\nend"
        write_skill(self.root, "bin", "name: bin\ndescription: Bytes.", {"x.png": data})
        server = mcp_stdio.Server("s", "1")
        server.serve_skills(self.root)
        contents = self.client(server).read_resource("skill://bin/x.png")["contents"][0]
        self.assertEqual(base64.b64decode(contents["blob"]), data)
        import types
        posix = types.SimpleNamespace(O_RDONLY=0, O_NOFOLLOW=0x20000, O_NONBLOCK=0x800)
        windows = types.SimpleNamespace(O_RDONLY=0, O_BINARY=0x8000)   # no O_NOFOLLOW there
        self.assertEqual(mcp_stdio._read_flags(posix), 0x20800)
        self.assertEqual(mcp_stdio._read_flags(windows), 0x8000)

    def test_front_matter_reads_as_the_yaml_package_does(self):
        for text, expected in FRONT_MATTER_CORPUS:
            with self.subTest(text=text[:60]):
                if isinstance(expected, str):
                    with self.assertRaises(mcp_stdio.FrontMatterError) as cm:
                        mcp_stdio.read_front_matter(text)
                    self.assertEqual("refused: " + str(cm.exception).split(": ", 1)[1],
                                     expected)
                    self.assertRegex(str(cm.exception), r"^SKILL\.md(:\d+)?: ")
                else:
                    got = mcp_stdio.read_front_matter(text)
                    # Numbers compare as numbers, as JSON readers see them (1.0 is 1).
                    self.assertEqual(json.loads(json.dumps(got)), expected)

    def test_the_short_way_for_key_and_words_reads_as_the_full_reader(self):
        # Front matter of only "key: words" lines skips the full reader: same values.
        r = random.Random(11)
        words = "abcXYZ019 ,.;!?'\"()/\\-_+=*&%@`|>~<^$\u00e9\u2014"
        chars = words + "\t:#[]{}\u00a0\x85\u2028\ufeff"
        short = 0
        for _ in range(3000):
            lines = []
            for _ in range(r.randint(1, 4)):
                key = r.choice(("name", "description", "allowed-tools", "x_y", "true", "Null",
                                "a-b", "K2", "\u00e9", "2k", "-k", "k k"))
                value = r.choice(("true", "False", "null", "NULL", "~", "yes", "nan", "x")) \
                    if r.random() < 0.3 else \
                    r.choice("abcXYZ\u00e9") + "".join(
                        r.choice(words if r.random() < 0.97 else chars) for _ in range(20))
                lines.append(key + r.choice((": ", ": ", ": ", ":  ", ":", ":\t")) + value +
                             r.choice(("", "", " ", "\r", "\t")))
            fast = mcp_stdio._simple_front_matter(lines)
            if fast is None:
                continue
            short += 1
            self.assertEqual(fast, mcp_stdio._FrontMatter("\n".join(lines), "SKILL.md", 2)
                             .document(), lines)
        self.assertGreater(short, 100)        # the short way was taken often enough to tell

    def test_deep_front_matter_is_refused_not_a_crash(self):
        deep = "".join(" " * i + "k%d:\n" % i for i in range(3000)) + " " * 3000 + "v: 1"
        listed = "k:\n" + "".join(" " * (2 * i) + "-\n" for i in range(3000))
        for body in (deep, listed):
            with self.assertRaises(mcp_stdio.FrontMatterError) as cm:
                mcp_stdio.read_front_matter("---\nname: x\ndescription: d\n%s\n---\n" % body)
            self.assertRegex(str(cm.exception), r"^SKILL\.md:3[67]: nesting deeper than 32 "
                                                r"levels is outside the supported YAML subset$")
        write_skill(self.root, "deep", "name: deep\ndescription: d\n" + deep)
        server = mcp_stdio.Server("s", "1")
        problems = server.serve_skills(self.root).problems
        self.assertEqual(len(problems), 1)
        self.assertIn("deep/SKILL.md:36: nesting deeper than 32 levels", problems[0])
        self.assertEqual(len(self.client(server).list_skills()), 3)

    def test_a_huge_skill_md_is_refused_unread(self):
        folder = write_skill(self.root, "huge", "name: huge\ndescription: Big.")
        with open(os.path.join(folder, "SKILL.md"), "r+b") as f:
            try:
                f.truncate(1 << 40)                # a terabyte, sparse: never read
            except OSError:                        # a file system without such files
                f.truncate(4 * mcp_stdio._MAX_SKILL_BYTES)
        server = mcp_stdio.Server("s", "1")
        problems = server.serve_skills(self.root).problems
        self.assertEqual(problems, ["skills: %s: not a regular file of at most 16777216 bytes "
                                    "that can be read" % os.path.join(folder, "SKILL.md")])
        self.assertEqual(len(self.client(server).list_skills()), 3)

    def test_names_no_uri_can_carry_are_reported_not_served(self):
        folder = os.path.join(self.root, "team", "review")
        made = []
        for name in (b"bad\xffname.txt", b"back\\slash.txt", b"dir\xfe"):
            try:
                if name.startswith(b"dir"):
                    os.mkdir(os.path.join(os.fsencode(folder), name))
                    name += b"/f.txt"
                with open(os.path.join(os.fsencode(folder), name), "wb") as f:
                    f.write(b"x")
                made.append(name.split(b"/")[0])
            except OSError:                   # a file system that refuses such names
                pass
        if not made:
            self.skipTest("this file system refuses names that are not UTF-8")
        server = mcp_stdio.Server("s", "1")
        problems = server.serve_skills(self.root).problems
        self.assertEqual(len(problems), len(made), problems)
        for line in problems:
            self.assertRegex(line, r"^skills: .*/team/review/.*: no skill:// URI can name it "
                                   r"\(not UTF-8, or a backslash\); not served$")
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                c = self.client(server, era)
                skill = c.get_skill("skill://team/review/SKILL.md")
                self.assertEqual([r["uri"] for r in skill["resources"]], [
                    "skill://team/review/SKILL.md", "skill://team/review/inner/SKILL.md",
                    "skill://team/review/scripts/run.sh"])

    def test_directory_reads_list_every_child_and_page(self):
        os.makedirs(os.path.join(self.root, "team", "review", "empty"))
        for name in ("a.md", "b.md"):
            with open(os.path.join(self.root, "team", "review", "scripts", name), "w") as f:
                f.write("x\n")
        server = mcp_stdio.Server("s", "1", page_size=2)
        server.serve_skills(self.root)
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                c = self.client(server, era)
                names = [r["name"] for r in c.read_directory("skill://team/review")]
                # The nested skill's folder and an empty folder are children like any other.
                self.assertEqual(names, ["SKILL.md", "empty", "inner", "scripts"])
                self.assertEqual(c.read_directory("skill://team/review/empty"), [])
                self.assertEqual([r["name"] for r in c.read_directory(
                    "skill://team/review/inner")], ["SKILL.md"])
                page = c.request("resources/directory/read", {"uri": "skill://team/review"})
                self.assertEqual([r["name"] for r in page["resources"]], ["SKILL.md", "empty"])
                if era == "modern":
                    self.assertEqual((page["ttlMs"], page["cacheScope"]), (3600000, "public"))
                else:
                    self.assertNotIn("ttlMs", page)
                page = c.request("resources/directory/read", {"uri": "skill://team/review",
                                                              "cursor": page["nextCursor"]})
                self.assertEqual([r["name"] for r in page["resources"]], ["inner", "scripts"])
                self.assertNotIn("nextCursor", page)
                self.assertEqual(len(c.request("resources/directory/read", {
                    "uri": "skill://team/review", "cursor": None})["resources"]), 2)
                for bad in ("garbage", "", 123, {"x": 1}):
                    with self.subTest(cursor=bad):
                        with self.assertRaises(mcp_stdio.ServerError) as cm:
                            c.request("resources/directory/read", {"uri": "skill://team/review",
                                                                   "cursor": bad})
                        self.assertEqual(cm.exception.code, -32602)
                with self.assertRaises(mcp_stdio.ServerError) as cm:
                    c.request("resources/directory/read", {"uri": "skill://team/review/SKILL.md"})
                self.assertEqual(cm.exception.code, -32602)

    def test_a_relative_skills_folder_follows_the_server_file(self):
        """As a host starts it: from another folder, with a bare environment."""
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        here = os.path.join(tmp.name, "team-server")
        write_skill(os.path.join(here, "skills"), "review", "name: review\ndescription: R.")
        script = os.path.join(here, "server.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write("import sys\nsys.path.insert(0, %r)\nimport mcp_stdio\n"
                    "server = mcp_stdio.Server('team', '1')\nserver.serve_skills('skills')\n"
                    "raise SystemExit(server.run([]))\n" % HERE)
        listing = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "skills/list", "params": {
            "_meta": modern_meta()}}).encode() + b"\n"
        r = subprocess.run(PY + [script], input=listing, capture_output=True,
                           cwd="/", env={"PATH": os.environ.get("PATH", "")}, timeout=TIMEOUT)
        self.assertEqual((r.returncode, r.stderr), (0, b""))
        self.assertEqual([s["uri"] for s in json.loads(r.stdout)["result"]["skills"]],
                         ["skill://review/SKILL.md"])
        # With no source file (python -c), the working folder; an absolute path stays.
        code = "import sys; sys.path.insert(0, %r); import mcp_stdio; s = mcp_stdio.Server('x', " \
               "'1'); print(s.serve_skills(%%r).path)" % HERE
        for cwd, given, expected in ((here, "skills", os.path.join(here, "skills")),
                                     ("/", os.path.join(here, "skills"),
                                      os.path.join(here, "skills"))):
            r = subprocess.run(PY + ["-c", code % given], capture_output=True,
                               cwd=cwd, timeout=TIMEOUT)
            self.assertEqual(r.stdout.decode().strip(), expected, r.stderr)

    def test_front_matter_fields_the_specification_defines_are_checked(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        root = os.path.join(tmp.name, "skills")
        for name, extra in (("tools-list", "allowed-tools:\n  - Read\n  - Grep"),
                            ("numeric-meta", "metadata:\n  version: 1.0"),
                            ("odd-compat", "compatibility: 7"),
                            ("long-compat", "compatibility: " + "x" * 501),
                            ("licence-list", "license: [MIT]"),
                            ("good", "license: MIT\nallowed-tools: Read Grep\ncompatibility: "
                                     "Python 3.9+\nmetadata:\n  version: \"1.0\"\n"
                                     "x-team:\n  owner: 7")):
            write_skill(root, name, "name: %s\ndescription: D.\n%s" % (name, extra))
        server = mcp_stdio.Server("s", "1")
        folder = server.serve_skills(root)
        self.assertEqual(sorted(folder.skills), ["skill://good/SKILL.md"])
        self.assertEqual(folder.skills["skill://good/SKILL.md"].frontmatter["x-team"],
                         {"owner": 7})                 # a field it does not define: verbatim
        said = "\n".join(folder.problems)
        for name, field in (("tools-list", "allowed-tools must be one string"),
                            ("numeric-meta", "metadata must map strings to strings"),
                            ("odd-compat", "compatibility must be a string of 1-500"),
                            ("long-compat", "compatibility must be a string of 1-500"),
                            ("licence-list", "license must be a string")):
            self.assertRegex(said, r"skills: .*%s/SKILL\.md: %s" % (name, re.escape(field)))

    def test_serving_a_folder_in_both_eras(self):
        server = mcp_stdio.Server("s", "1")
        folder = server.serve_skills(self.root)
        self.assertEqual(folder.problems, [])
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                c = self.client(server, era)
                self.assertEqual(c.server_capabilities["extensions"],
                                 {"io.modelcontextprotocol/skills": {"directoryRead": True}})
                self.assertIn("resources", c.server_capabilities)
                skills = {s["uri"]: s for s in c.list_skills()}
                self.assertEqual(sorted(skills), ["skill://pdf-processing/SKILL.md",
                                                  "skill://team/review/SKILL.md",
                                                  "skill://team/review/inner/SKILL.md"])
                pdf = skills["skill://pdf-processing/SKILL.md"]
                self.assertEqual(pdf["frontmatter"], {"name": "pdf-processing", "description":
                                 "Work with PDF files. Fill forms.", "metadata": {"version": "1.0"}})
                files = {r["uri"]: r for r in pdf["resources"]}
                self.assertEqual(list(files)[0], "skill://pdf-processing/SKILL.md")
                self.assertEqual(sorted(files), [
                    "skill://pdf-processing/SKILL.md", "skill://pdf-processing/a%20b/c%25d.txt",
                    "skill://pdf-processing/assets/logo.png",
                    "skill://pdf-processing/references/FORMS.md"])
                for uri, entry in files.items():          # the bytes served are the bytes digested
                    contents = c.read_resource(uri)["contents"][0]
                    data = base64.b64decode(contents["blob"]) if "blob" in contents else \
                        contents["text"].encode("utf-8")
                    self.assertEqual(entry["size"], len(data))
                    self.assertEqual(entry["digest"], "sha256:" + hashlib.sha256(data).hexdigest())
                self.assertEqual(c.read_resource("skill://pdf-processing/SKILL.md")["contents"][0]
                                 ["mimeType"], "text/markdown")
                self.assertIn("blob", c.read_resource("skill://pdf-processing/assets/logo.png")
                              ["contents"][0])
                review = c.get_skill("skill://team/review/SKILL.md")
                self.assertEqual([r["uri"] for r in review["resources"]], [   # complete: its
                    "skill://team/review/SKILL.md", "skill://team/review/inner/SKILL.md",  # nested
                    "skill://team/review/scripts/run.sh"])                     # skill's files too
                listed = {r["uri"]: r for r in c.list_resources()}
                self.assertEqual((listed["skill://team/review/SKILL.md"]["name"],
                                  listed["skill://team/review/SKILL.md"]["description"],
                                  listed["skill://team/review/SKILL.md"]["mimeType"]),
                                 ("review", "Review changes.", "text/markdown"))
                self.assertNotIn("skill://team/review/scripts/run.sh", listed)
                self.assertEqual(c.read_directory("skill://pdf-processing"), [
                    {"uri": "skill://pdf-processing/SKILL.md", "name": "SKILL.md",
                     "mimeType": "text/markdown"},
                    {"uri": "skill://pdf-processing/a%20b", "name": "a b",
                     "mimeType": "inode/directory"},
                    {"uri": "skill://pdf-processing/assets", "name": "assets",
                     "mimeType": "inode/directory"},
                    {"uri": "skill://pdf-processing/references", "name": "references",
                     "mimeType": "inode/directory"}])
                self.assertEqual([r["name"] for r in c.read_directory(
                    "skill://pdf-processing/references/")], ["FORMS.md"])
                for uri in ("skill://pdf-processing/SKILL.md", "skill://nowhere",
                            "skill://team"):
                    with self.assertRaises(mcp_stdio.ServerError) as cm:
                        c.read_directory(uri)
                    self.assertEqual(cm.exception.code, -32602)
                with self.assertRaises(mcp_stdio.ServerError) as cm:
                    c.get_skill("skill://nowhere/SKILL.md")
                self.assertEqual(cm.exception.code, -32602)
                result = c.request("skills/list")
                self.assertEqual(("ttlMs" in result, "cacheScope" in result),
                                 (era == "modern",) * 2)

    @unittest.skipIf(os.name == "nt", "symlinks need a privilege on Windows")
    def test_nothing_outside_the_skills_is_readable(self):
        outside = os.path.join(os.path.dirname(self.root), "secret.txt")
        with open(outside, "w") as f:
            f.write("secret")
        pdf = os.path.join(self.root, "pdf-processing")
        os.symlink(outside, os.path.join(pdf, "link.txt"))
        os.symlink(os.path.dirname(self.root), os.path.join(pdf, "up"))
        for name in (".env", ".git/config"):
            os.makedirs(os.path.dirname(os.path.join(pdf, name)), exist_ok=True)
            with open(os.path.join(pdf, name), "w") as f:
                f.write("hidden")
        server = mcp_stdio.Server("s", "1")
        server.serve_skills(self.root)
        c = self.client(server)
        for uri in ("skill://pdf-processing/../../secret.txt", "skill://pdf-processing/%2e%2e/x",
                    "skill://pdf-processing/%2E%2E%2F%2E%2E%2Fsecret.txt",
                    "skill://pdf-processing/link.txt", "skill://pdf-processing/up/secret.txt",
                    "skill://pdf-processing/.env", "skill://pdf-processing/.git/config",
                    "skill://pdf-processing//SKILL.md", "skill://pdf-processing/./SKILL.md",
                    "skill://x/../../etc/passwd", "skill://pdf-processing/references%2FFORMS.md"):
            with self.subTest(uri=uri), self.assertRaises(mcp_stdio.ServerError) as cm:
                c.read_resource(uri)
            self.assertEqual(cm.exception.code, -32602)
        names = [r["uri"] for r in c.get_skill("skill://pdf-processing/SKILL.md")["resources"]]
        self.assertFalse([n for n in names if "link" in n or "up/" in n or "/." in n], names)
        # A file swapped for a link after the scan is refused too.
        forms = os.path.join(pdf, "references", "FORMS.md")
        os.remove(forms)
        os.symlink(outside, forms)
        with self.assertRaises(mcp_stdio.ServerError):
            c.read_resource("skill://pdf-processing/references/FORMS.md")
        if hasattr(os, "mkfifo"):            # and one swapped for a FIFO: refused, no hang
            os.remove(forms)
            os.mkfifo(forms)
            with self.assertRaises(mcp_stdio.ServerError) as cm:
                c.read_resource("skill://pdf-processing/references/FORMS.md")
            self.assertEqual(cm.exception.code, -32602)

    def test_bad_skills_are_reported_and_the_others_served(self):
        write_skill(self.root, "Bad_Name", "name: Bad_Name\ndescription: x")
        write_skill(self.root, "other", "name: mismatch\ndescription: x")
        write_skill(self.root, "empty", "name: empty\ndescription: ''")
        write_skill(self.root, "anchored", "name: anchored\ndescription: &d x")
        write_skill(self.root, "double--hyphen", "name: double--hyphen\ndescription: x")
        many = {"f%03d.txt" % i: b"x" for i in range(mcp_stdio._MAX_SKILL_FILES)}
        write_skill(self.root, "too-many", "name: too-many\ndescription: x", many)
        write_skill(self.root, "wordy", "name: wordy\ndescription: " + "w" * 1025)
        server = mcp_stdio.Server("s", "1")
        folder = server.serve_skills(self.root)
        problems = "\n".join(folder.problems)
        for expected in ("wordy/SKILL.md: the description has 1025 characters, over the Agent "
                         "Skills limit of 1024 (served; a client may refuse the skill)",
                         "Bad_Name/SKILL.md: name must be 1-64 lowercase letters",
                         "other/SKILL.md: name 'mismatch' must equal the skill's folder name",
                         "empty/SKILL.md: description must be a non-empty string",
                         "anchored/SKILL.md:3: anchors are outside the supported YAML subset",
                         "double--hyphen/SKILL.md: name must be",
                         "too-many/SKILL.md: the skill has 513 files; a skill has at most 512"):
            self.assertIn(expected, problems)
        self.assertEqual(len(folder.problems), 7)
        reports = []
        server.freeze(reports.append)
        self.assertEqual(len([r for r in reports if "skills:" in r]), 7)
        c = self.client(server)
        self.assertEqual(len(c.list_skills()), 4)         # the wordy one is served

    def test_pages_stay_within_the_response_limit(self):
        for i in range(12):
            write_skill(self.root, "s%02d" % i, "name: s%02d\ndescription: %s" % (i, "d" * 600))
        server = mcp_stdio.Server("s", "1", max_response=4000, page_size=100)
        server.serve_skills(self.root)
        c = self.client(server)
        pages, cursor = [], None
        while True:
            r = c.request("skills/list", {"cursor": cursor} if cursor else {})
            pages.append(r["skills"])
            self.assertLessEqual(len(json.dumps(r)), 4000)
            cursor = r.get("nextCursor")
            if not cursor:
                break
        self.assertGreater(len(pages), 2)
        self.assertEqual(len({s["uri"] for p in pages for s in p}), 15)     # none split or lost

    def live(self):
        """A live server of the folder that rescans at every request, its 3 skills listed."""
        server = mcp_stdio.Server("s", "1", live=True)
        server.serve_skills(self.root).RESCAN = 0
        p = InProc(self, server=server)
        p.initialize()
        self.assertEqual(len(p.request(req_msg(1, "skills/list"))["result"]["skills"]), 3)
        return p

    def test_a_live_folder_is_noticed(self):
        p = self.live()
        write_skill(self.root, "added", "name: added\ndescription: New.")
        r = p.answer(req_msg(2, "skills/list"))["result"]
        self.assertEqual(len(r["skills"]), 4)
        self.assertIn({"jsonrpc": "2.0", "method": "notifications/resources/list_changed"},
                      getattr(p, "heard", []))
        shutil.rmtree(os.path.join(self.root, "team"))
        self.assertEqual([s["uri"] for s in p.answer(req_msg(3, "skills/list"))["result"]
                          ["skills"]], ["skill://added/SKILL.md",
                                        "skill://pdf-processing/SKILL.md"])
        self.assertEqual(err_code(p.request(req_msg(4, "resources/read", {
            "uri": "skill://team/review/SKILL.md"}))), -32002)
        # A changed file is digested again before it is listed or served.
        with open(os.path.join(self.root, "added", "SKILL.md"), "a") as f:
            f.write("more\n")
        entry = p.answer(req_msg(5, "skills/get", {"uri": "skill://added/SKILL.md"}))["result"]
        with open(os.path.join(self.root, "added", "SKILL.md"), "rb") as f:
            data = f.read()
        self.assertEqual(entry["skill"]["resources"][0]["digest"],
                         "sha256:" + hashlib.sha256(data).hexdigest())

    def test_a_folder_that_cannot_be_read_is_skipped(self):
        from unittest import mock
        locked = os.path.join(self.root, "team")
        scandir = os.scandir

        def refusing(path):
            if path == locked:
                raise PermissionError(13, "Permission denied")
            return scandir(path)
        server = mcp_stdio.Server("s", "1")
        with mock.patch("os.scandir", refusing):
            problems = server.serve_skills(self.root).problems
        self.assertEqual(problems, ["skills: %s: cannot be read (Permission denied); not "
                                    "served" % locked])
        self.assertEqual([s["uri"] for s in self.client(server).list_skills()],
                         ["skill://pdf-processing/SKILL.md"])

    def test_a_live_folder_that_goes_away_and_comes_back(self):
        p = self.live()
        moved = self.root + "-moved"
        os.rename(self.root, moved)
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr):
            for rid in (2, 3):                      # no skills, and said once
                self.assertEqual(p.answer(req_msg(rid, "skills/list"))["result"]["skills"], [])
        self.assertEqual(stderr.getvalue(), "mcp_stdio: warning: skills: %s is not a folder; "
                         "no skills are served until it can be read\n" % self.root)
        self.assertEqual(p.answer(req_msg(4, "resources/list"))["result"]["resources"], [])
        os.rename(moved, self.root)
        self.assertEqual(len(p.answer(req_msg(5, "skills/list"))["result"]["skills"]), 3)

    def test_grants_name_skills_by_their_skill_md(self):
        server = mcp_stdio.Server("s", "1", grant_resources=["skill://team/review/SKILL.md"])
        server.serve_skills(self.root)
        c = self.client(server)
        self.assertEqual([s["uri"] for s in c.list_skills()], ["skill://team/review/SKILL.md"])
        self.assertEqual(c.read_resource("skill://team/review/scripts/run.sh")["contents"][0]
                         ["text"], "echo hi\n")
        for uri in ("skill://pdf-processing/SKILL.md", "skill://pdf-processing/assets/logo.png"):
            with self.assertRaises(mcp_stdio.ServerError):
                c.read_resource(uri)
        with self.assertRaises(mcp_stdio.ServerError):
            c.get_skill("skill://pdf-processing/SKILL.md")
        # Nothing granted: the extension is not offered at all.
        server = mcp_stdio.Server("s", "1", grant_resources=[])
        server.serve_skills(self.root)
        caps = self.client(server).server_capabilities
        self.assertNotIn("extensions", caps)
        self.assertNotIn("resources", caps)
        # directory_read=False: no directoryRead, no method.
        server = mcp_stdio.Server("s", "1")
        server.serve_skills(self.root, directory_read=False)
        c = self.client(server)
        self.assertEqual(c.server_capabilities["extensions"],
                         {"io.modelcontextprotocol/skills": {}})
        with self.assertRaises(mcp_stdio.ServerError) as cm:
            c.read_directory("skill://pdf-processing")
        self.assertEqual(cm.exception.code, -32601)

    def test_a_server_without_skills_offers_no_skills(self):
        c = self.client(mcp_stdio.demo_server())
        self.assertNotIn("extensions", c.server_capabilities)
        with self.assertRaises(mcp_stdio.ServerError) as cm:
            c.request("skills/list")
        self.assertEqual(cm.exception.code, -32601)

    def test_the_inspector_shows_skills(self):
        script = os.path.join(HERE, "examples", "conformance", "skills_server.py")
        r = subprocess.run(SERVE + ["inspect", "--"] + PY + [script], capture_output=True,
                           cwd=HERE, timeout=60, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(b"skills (3)\n  skill://pdf-processing/SKILL.md  3 files\n", r.stdout)
        r = subprocess.run(SERVE + ["skill", "skill://team/code-review/SKILL.md", "--"] + PY
                           + [script], capture_output=True, cwd=HERE,
                           timeout=60, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(b"  name: code-review\n", r.stdout)
        self.assertIn(b"skill://team/code-review/scripts/diffstat.sh  31 bytes  sha256:",
                      r.stdout)

    def test_the_inspector_says_what_the_server_refused(self):
        script = os.path.join(vendored_project(), "team_tools.py")
        for words in ([], ["--json"]):
            r = subprocess.run(SERVE + ["inspect"] + words + ["--"] + PY + [script, "skills"],
                               capture_output=True, cwd=HERE, timeout=60,
                               stdin=subprocess.DEVNULL)
            self.assertEqual((r.returncode, r.stderr), (0, b""))
            refused = ("team-tools: warning: skills: %s: name must be 1-64 lowercase letters, "
                       "digits and hyphens, without a hyphen at either end or twice in a row"
                       % os.path.join(os.path.dirname(script), "skills", "bad", "SKILL.md"))
            if words:
                report = json.loads(r.stdout)
                self.assertEqual(report["stderr"], refused + "\n")
                self.assertEqual([k["uri"] for k in report["skills"]], ["skill://good/SKILL.md"])
            else:
                self.assertIn("\nskills (1)\n  skill://good/SKILL.md  1 file\n", r.stdout.decode())
                self.assertTrue(r.stdout.decode().endswith(
                    "\nthe server said on stderr (1 line)\n  %s\n" % refused), r.stdout)


###############################################################################
# MCP Apps: tools that show a view (the ui extension) #########################
###############################################################################


class AppsSession:
    """One client of a server in a revision, declaring caps (per request when modern)."""

    def __init__(self, test, server, rev, caps=None):
        self.p, self.rev, self.caps, self.next = InProc(test, server=server), rev, caps, 1
        if rev == MODERN:
            self.p.rev = MODERN
        else:
            self.p.initialize(rev, caps)

    def ask(self, method, params=None, caps="same"):
        params = dict(params or {})
        if self.rev == MODERN:
            params["_meta"] = modern_meta(**{"io.modelcontextprotocol/clientCapabilities":
                                             (self.caps if caps == "same" else caps) or {}})
        self.next += 1
        return self.p.answer({"jsonrpc": "2.0", "id": self.next, "method": method,
                              "params": params}, rev=self.rev)

    def tools(self, **kw):
        return {t["name"]: t.get("_meta") for t in self.ask("tools/list", **kw)["result"]["tools"]}


@about("apps")
class Apps(unittest.TestCase):
    """MCP Apps: views, the tools linked to them, and what each kind of client sees."""

    def test_declared_in_every_revision_when_a_view_is_served(self):
        for rev in LEGACY + (MODERN,):
            with self.subTest(rev=rev):
                for server, declared in ((board_server(), {APPS_KEY: {}}),
                                         (mcp_stdio.demo_server(), None)):
                    p = InProc(self, server=server)
                    if rev == MODERN:
                        p.rev = MODERN
                        caps = p.request(req_msg(1, "server/discover", modern=True),
                                         rev=MODERN)["result"]["capabilities"]
                    else:
                        caps = p.initialize(rev)["result"]["capabilities"]
                    self.assertEqual((caps.get("extensions") or {}).get(APPS_KEY),
                                     (declared or {}).get(APPS_KEY))

    def test_a_client_that_renders_apps_sees_links_and_metadata(self):
        link = {"ui": {"resourceUri": "ui://board"}, "ui/resourceUri": "ui://board"}
        only = {"ui": {"resourceUri": "ui://board", "visibility": ["app"]},
                "ui/resourceUri": "ui://board"}
        for rev in ("2025-06-18", "2025-11-25", MODERN):
            with self.subTest(rev=rev):
                s = AppsSession(self, board_server(), rev, APPS_CAPS)
                self.assertEqual(s.tools(), {"plain": None, "refresh": only, "show": link})
                listed = s.ask("resources/list")["result"]["resources"]
                self.assertEqual(listed, [
                    {"uri": "notes://a", "name": "a"},
                    {"uri": "ui://board", "name": "ui://board", "mimeType": APP_MIME,
                     "_meta": {"ui": BOARD_UI}}])
                read = s.ask("resources/read", {"uri": "ui://board"})["result"]["contents"]
                self.assertEqual(read, [{"uri": "ui://board", "mimeType": APP_MIME,
                                         "text": BOARD_HTML, "_meta": {"ui": BOARD_UI}}])
                for name, said in (("refresh", "refreshed"), ("show", "apps")):
                    r = s.ask("tools/call", {"name": name, "arguments": {}})["result"]
                    self.assertEqual(r["content"], [{"type": "text", "text": said}])

    def test_any_other_client_sees_no_ui_metadata_and_no_app_only_tool(self):
        """D-26: no _meta.ui, no flat key, no app-only tool (its call answers like an unknown
        tool's); ui:// stays listed and readable. 2024-11-05 and 2025-03-26 count as clients
        without apps whatever they declare."""
        others = [(rev, None) for rev in LEGACY + (MODERN,)] + [
            (rev, {"extensions": {APPS_KEY: settings}}) for rev in ("2025-11-25", MODERN)
            for settings in ({}, {"mimeTypes": ["text/html"]}, {"mimeTypes": APP_MIME}, [])] + [
            ("2024-11-05", APPS_CAPS), ("2025-03-26", APPS_CAPS)]
        unknown = mcp_stdio.Server("board", "1")      # where refresh does not exist at all
        unknown.add(mcp_stdio.Tool("plain", lambda a, c: "x"))
        for rev, caps in others:
            with self.subTest(rev=rev, caps=caps):
                s = AppsSession(self, board_server(), rev, caps)
                self.assertEqual(s.tools(), {"plain": None, "show": None})
                listed = s.ask("resources/list")["result"]["resources"]
                self.assertEqual([r.get("_meta") for r in listed], [None, None])
                self.assertEqual(listed[1]["mimeType"], APP_MIME)
                read = s.ask("resources/read", {"uri": "ui://board"})["result"]["contents"]
                self.assertEqual(read, [{"uri": "ui://board", "mimeType": APP_MIME,
                                         "text": BOARD_HTML}])
                refused = s.ask("tools/call", {"name": "refresh", "arguments": {}})
                elsewhere = AppsSession(self, unknown, rev, caps).ask(
                    "tools/call", {"name": "refresh", "arguments": {}})
                self.assertEqual(refused["error"], elsewhere["error"])
                self.assertEqual(refused["error"]["code"], -32602)
                r = s.ask("tools/call", {"name": "show", "arguments": {}})["result"]
                self.assertEqual(r["content"], [{"type": "text", "text": "text"}])

    def test_a_modern_client_is_read_per_request(self):
        """One connection: each request's own capabilities decide, and each listing is
        cached for its audience (the second round is served from the cache, unchanged)."""
        s = AppsSession(self, board_server(), MODERN)
        for _ in range(2):
            self.assertEqual(sorted(s.tools(caps=APPS_CAPS)), ["plain", "refresh", "show"])
            self.assertEqual(s.tools(caps={}), {"plain": None, "show": None})
            self.assertIn("error", s.ask("tools/call", {"name": "refresh"}, caps={}))
            self.assertIn("result", s.ask("tools/call", {"name": "refresh"}, caps=APPS_CAPS))

    def test_the_catalog_refuses_what_the_specification_does_not_allow(self):
        view = mcp_stdio.View
        cases = [
            (lambda: view("https://x/board", html=BOARD_HTML),
             "view 'https://x/board': a view's URI starts with ui:// (the MCP Apps scheme)"),
            (lambda: view("ui://b"), "view 'ui://b': give exactly one of html, path or render"),
            (lambda: view("ui://b", html="hello"),
             "view 'ui://b': the document must be HTML: after whitespace and comments it starts "
             "with <!DOCTYPE html> or <html>"),
            (lambda: view("ui://b", html="<!-- never closed <html>"),
             "view 'ui://b': the document ends inside a comment"),
            (lambda: view("ui://b", html=BOARD_HTML, csp={"connectDomains": "https://a.com"}),
             "view 'ui://b': csp.connectDomains must be a list of origins"),
            (lambda: view("ui://b", html=BOARD_HTML, csp={"scriptDomains": []}),
             "view 'ui://b': csp.scriptDomains is not a CSP field (connectDomains, "
             "resourceDomains, frameDomains, baseUriDomains)"),
            (lambda: view("ui://b", html=BOARD_HTML, permissions=["usb"]),
             "view 'ui://b': permissions.usb is not a permission (camera, microphone, "
             "geolocation, clipboardWrite)"),
            (lambda: view("ui://b", html=BOARD_HTML, prefers_border="yes"),
             "view 'ui://b': prefersBorder must be true or false"),
            (lambda: view("ui://b", html=BOARD_HTML, domain=""),
             "view 'ui://b': domain must be a non-empty string"),
            (lambda: view("ui://b", html=BOARD_HTML, meta={"ui": {}}),
             "view 'ui://b': _meta.ui is made from csp=, permissions=, domain= and "
             "prefers_border="),
            (lambda: mcp_stdio.Tool("t", lambda a, c: "x", app="notes://a"),
             "tool 't': app must be the ui:// URI of a view"),
            (lambda: mcp_stdio.Tool("t", lambda a, c: "x", visibility=["agent"]),
             'tool \'t\': visibility must list "model", "app" or both'),
            (lambda: mcp_stdio.Tool("t", lambda a, c: "x", visibility="app"),
             'tool \'t\': visibility must list "model", "app" or both'),
            (lambda: mcp_stdio.Tool("t", lambda a, c: "x", meta={"ui/resourceUri": "ui://b"}),
             "tool 't': _meta.ui is made from app= and visibility="),
        ]
        for make, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(mcp_stdio.CatalogError) as e:
                    make()
                self.assertEqual(str(e.exception), message)

    def test_csp_entries_are_origins(self):
        good = ["https://api.example.com", "https://*.example.com", "http://localhost:8080",
                "wss://realtime.example.com", "https://[::1]:3000", "https://a-b.c9.io:443"]
        bad = ["https://a.com/", "https://a.com/api", "'self'", "https://a.com;", "*",
               "https://*", "a.com", "https://a.com 'unsafe-eval'", "https://a.*.com",
               "data:", "https://a.com?x", 'https://"a.com"', 3]
        mcp_stdio.View("ui://b", html=BOARD_HTML, csp={k: good for k in (
            "connectDomains", "resourceDomains", "frameDomains", "baseUriDomains")})
        for origin in bad:
            with self.subTest(origin=origin):
                with self.assertRaises(mcp_stdio.CatalogError) as e:
                    mcp_stdio.View("ui://b", html=BOARD_HTML, csp={"frameDomains": [origin]})
                self.assertIn("csp.frameDomains[0] %s is not an origin (scheme://host[:port], "
                              "a leading '*.' allowed; no path, quote, ';' or keyword)"
                              % mcp_stdio._short(origin, 60), str(e.exception))

    def test_documents(self):
        good = ["<!DOCTYPE html><html></html>", "<!doctype HTML>\n<html>", "<html lang=en>",
                "<html>", "\ufeff  \n<!-- a -->\n<!-- b --><!DOCTYPE html>", b"<html></html>"]
        bad = ["", "<div>", "<htmlx>", "<!DOCTYPE xml>", "text <html>", "<!-- a --> b <html>",
               b"\x89PNG", 42]
        for doc in good:
            self.assertIsNone(mcp_stdio._document_problem(doc), doc)
        for doc in bad:
            self.assertIsNotNone(mcp_stdio._document_problem(doc), doc)

    def test_links_are_checked_when_serving_starts_and_on_a_live_server(self):
        server = mcp_stdio.Server("s", "1")
        server.add(mcp_stdio.Tool("t", lambda a, c: "x", app="ui://later",    # before its view
                                  description="T."))
        server.app("ui://later", html=BOARD_HTML)
        server.freeze()
        lonely = mcp_stdio.Server("s", "1", tools=[
            mcp_stdio.Tool("t", lambda a, c: "x", app="ui://missing", description="T.")])
        with self.assertRaises(mcp_stdio.CatalogError) as e:
            lonely.freeze()
        self.assertEqual(str(e.exception), "tool 't': its view 'ui://missing' is not registered "
                         "(add it with server.app('ui://missing', ...))")
        plain = mcp_stdio.Server("s", "1", resources=[
            mcp_stdio.Resource("ui://fake", lambda u, c: "<html>", mime_type="text/html")])
        with self.assertRaises(mcp_stdio.CatalogError) as e:
            plain.freeze()
        self.assertEqual(str(e.exception), "resource 'ui://fake': a ui:// resource is an MCP App "
                         "view, served as text/html;profile=mcp-app: register it with "
                         "server.app()")
        live = board_server(live=True)
        live.freeze()
        catalog = live.catalog
        with self.assertRaises(mcp_stdio.CatalogError):
            live.remove_resource("ui://board")              # show and refresh still link it
        with self.assertRaises(mcp_stdio.CatalogError):
            live.add(mcp_stdio.Tool("t2", lambda a, c: "x", app="ui://gone"))
        with self.assertRaises(mcp_stdio.CatalogError):
            live.add(mcp_stdio.Resource("ui://board", lambda u, c: "<html>"), replace=True)
        self.assertIs(live.catalog, catalog)                # nothing changed
        self.assertIsInstance(live.resources["ui://board"], mcp_stdio.View)
        self.assertNotIn("t2", live.tools)
        live.remove_tool("show")
        live.remove_tool("refresh")
        live.remove_resource("ui://board")                   # no tool links it now
        self.assertNotIn("ui://board", live.catalog.resources)

    def test_granting_a_tool_grants_its_view_and_a_view_scoped_away_takes_the_link(self):
        s = AppsSession(self, board_server(grant=["show"], grant_resources=["notes://a"]),
                        "2025-11-25", APPS_CAPS)
        self.assertEqual(s.tools(), {"show": {"ui": {"resourceUri": "ui://board"},
                                              "ui/resourceUri": "ui://board"}})
        self.assertEqual([r["uri"] for r in s.ask("resources/list")["result"]["resources"]],
                         ["notes://a", "ui://board"])
        s = AppsSession(self, board_server(grant_resources=["notes://a"]), "2025-11-25",
                        APPS_CAPS)
        self.assertEqual(s.tools(), {"plain": None, "show": None})     # refresh goes with it
        self.assertEqual([r["uri"] for r in s.ask("resources/list")["result"]["resources"]],
                         ["notes://a"])
        self.assertIn("error", s.ask("tools/call", {"name": "refresh"}))
        caps = InProc(self, server=board_server(grant_resources=["notes://a"])).initialize(
            "2025-11-25", APPS_CAPS)["result"]["capabilities"]
        self.assertNotIn("extensions", caps)             # no view is served: none declared

    def test_a_view_from_a_file_follows_its_source_and_its_edits(self):
        """D-27: a relative path follows the file that made the view, not the working
        folder; an edited file is read again; a missing one is refused by name."""
        with tempfile.TemporaryDirectory() as tmp:
            os.mkdir(os.path.join(tmp, "views"))
            page = os.path.join(tmp, "views", "page.html")
            with open(page, "w", encoding="utf-8") as f:
                f.write("<!DOCTYPE html><p>one")
            script = os.path.join(tmp, "srv.py")
            with open(script, "w", encoding="utf-8") as f:
                f.write("import mcp_stdio\nserver = mcp_stdio.Server('s', '1')\n"
                        "view = server.app('ui://page', 'views/page.html')\n")
            import runpy
            made = runpy.run_path(script)         # the working folder is not tmp
            self.assertNotEqual(os.getcwd(), tmp)
            self.assertEqual(made["view"].path, os.path.normpath(page))
            with mcp_stdio.InProcessClient(made["server"], era="legacy") as c:
                self.assertEqual(c.read_view("ui://page"), {
                    "uri": "ui://page", "html": "<!DOCTYPE html><p>one", "ui": {}})
                with open(page, "w", encoding="utf-8") as f:
                    f.write("<!DOCTYPE html><p>two, longer")
                self.assertEqual(c.read_view("ui://page")["html"], "<!DOCTYPE html><p>two, longer")
            with open(page, "wb") as f:
                f.write(b"<!DOCTYPE html>\xff")
            with self.assertRaises(mcp_stdio.CatalogError) as e:
                mcp_stdio.View("ui://x", path=page)
            self.assertEqual(str(e.exception), "view 'ui://x': %s is not UTF-8" % page)
            with self.assertRaises(mcp_stdio.CatalogError) as e:
                mcp_stdio.View("ui://x", path=os.path.join(tmp, "nope.html"))
            self.assertEqual(str(e.exception), "view 'ui://x': cannot read %s (No such file or "
                             "directory)" % os.path.join(tmp, "nope.html"))

    def test_a_rendered_view_is_checked_at_each_read_and_may_be_bytes(self):
        server = mcp_stdio.Server("s", "1")
        pages = ["<!DOCTYPE html>first", b"<html>second</html>", "not a page"]

        @server.app("ui://r", csp={"connectDomains": ["https://a.example"]})
        def render(uri, ctx):
            """The rendered view."""
            return pages.pop(0)
        self.assertEqual(server.resources["ui://r"].description, "The rendered view.")
        with mcp_stdio.InProcessClient(server, era="modern", capabilities=APPS_CAPS) as c:
            self.assertEqual(c.read_view("ui://r"), {"uri": "ui://r", "html": "<!DOCTYPE html>first",
                                                     "ui": {"csp": {"connectDomains": [
                                                         "https://a.example"]}}})
            blob = c.read_resource("ui://r")["contents"][0]
            self.assertEqual(base64.b64decode(blob["blob"]), b"<html>second</html>")
            with self.assertRaises(mcp_stdio.ServerError) as e:
                c.read_resource("ui://r")
            self.assertEqual(e.exception.code, -32603)
            self.assertIn("view 'ui://r': the document must be HTML", c.stderr)

    def test_read_view_refuses_what_is_not_a_view(self):
        with mcp_stdio.InProcessClient(board_server(), era="legacy") as c:
            with self.assertRaises(mcp_stdio.MalformedResult) as e:
                c.read_view("notes://a")
            self.assertEqual(str(e.exception), "the server's resources/read result is malformed: "
                             "\"notes://a\" is not a view (no contents served as "
                             "text/html;profile=mcp-app)")

    def test_the_ext_apps_schemas_accept_every_tool_and_view(self):
        path = os.path.join(EXT_APPS_SCHEMA, "dist", "src", "generated", "schema.json")
        if not os.path.isfile(path):
            self.skipTest("the ext-apps package comes with the MCP Inspector (.ci/run)")
        with open(path, encoding="utf-8") as f:
            defs = json.load(f)["$defs"]          # each a schema document of its own

        def check(name, value):
            v = mcp_stdio.compile_schema(defs[name])
            self.assertEqual(v.errors(value), [], (name, value))
        check("McpUiClientCapabilities", mcp_stdio._INSPECTS[APPS_KEY])
        server = board_server()
        server.app("ui://full", html=BOARD_HTML, csp={k: ["https://a.example"] for k in (
            "connectDomains", "resourceDomains", "frameDomains", "baseUriDomains")},
            permissions=["camera", "microphone", "geolocation", "clipboardWrite"],
            domain="a904794854a047f6.claudemcpcontent.com", prefers_border=False)
        for rev in ("2025-11-25", MODERN):
            s = AppsSession(self, server, rev, APPS_CAPS)
            for name, meta in s.tools().items():
                if meta is not None:
                    check("McpUiToolMeta", meta["ui"])
            for r in s.ask("resources/list")["result"]["resources"]:
                if r.get("mimeType") == APP_MIME:
                    check("McpUiResourceMeta", r["_meta"]["ui"])
                    for c in s.ask("resources/read", {"uri": r["uri"]})["result"]["contents"]:
                        check("McpUiResourceMeta", c["_meta"]["ui"])

    def test_inspect_marks_views_and_what_is_wrong(self):
        marks = mcp_stdio._apps_marks
        report = {"resources": [{"uri": "ui://v", "mimeType": APP_MIME},
                                {"uri": "ui://text", "mimeType": "text/html"}]}
        self.assertEqual(marks("tools", {"name": "a", "_meta": {"ui": {
            "resourceUri": "ui://v", "visibility": ["app"]}}}, report), ["view ui://v", "app-only"])
        self.assertEqual(marks("tools", {"name": "a"}, report), [])
        self.assertEqual(marks("tools", {"name": "a", "_meta": {"ui": {
            "resourceUri": "ui://gone", "csp": {}}, "ui/resourceUri": "ui://v"}}, report), [
            "view ui://gone", "problem: _meta.ui.csp is not a field of a tool (resourceUri, "
            "visibility)", "problem: ui://gone is not among the listed resources",
            "problem: _meta[\"ui/resourceUri\"] names another view"])
        self.assertEqual(marks("tools", {"_meta": {"ui": {"resourceUri": "ui://text"}}}, report),
                         ["view ui://text", "problem: ui://text is served as text/html, not "
                          "text/html;profile=mcp-app"])
        self.assertEqual(marks("resources", {"uri": "ui://v", "mimeType": APP_MIME, "_meta": {
            "ui": {"csp": {"connectDomains": ["https://a.com/x"]}}}}, report), [
            "view", "problem: csp.connectDomains[0] \"https://a.com/x\" is not an origin "
            "(scheme://host[:port], a leading '*.' allowed; no path, quote, ';' or keyword)"])

    def test_the_csp_a_host_builds(self):
        self.assertEqual(mcp_stdio._view_csp({}), (
            "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' "
            "'unsafe-inline'; img-src 'self' data:; media-src 'self' data:; connect-src 'none'"))
        self.assertEqual(mcp_stdio._view_csp({"csp": {
            "connectDomains": ["https://api.example.com", "https://x.com; script-src *"],
            "resourceDomains": ["https://*.cdn.example"], "frameDomains": [],
            "baseUriDomains": ["https://base.example"]}}), (
            "default-src 'none'; script-src 'self' 'unsafe-inline' https://*.cdn.example; "
            "style-src 'self' 'unsafe-inline' https://*.cdn.example; "
            "connect-src 'self' https://api.example.com; img-src 'self' data: "
            "https://*.cdn.example; font-src 'self' https://*.cdn.example; media-src 'self' "
            "data: https://*.cdn.example; frame-src 'none'; object-src 'none'; "
            "base-uri https://base.example"))          # what is not an origin is dropped


@about("apps")
class AppProcesses(unittest.TestCase):
    """MCP Apps through real processes: the example, and preview without a browser."""

    def tmp_dir(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        return tmp.name

    @unittest.skipIf(os.name == "nt", "Windows has no SIGINT to send a process")
    def test_preview_serves_its_two_origins_to_the_token_only(self):
        """Without a browser: what each origin answers, and to whom."""
        import http.client
        script = os.path.join(self.tmp_dir(), "server.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent("""
                import sys
                sys.path.insert(0, %r)
                import mcp_stdio
                server = mcp_stdio.Server("p", "1")
                server.app("ui://v", html="<!DOCTYPE html><title>v</title>",
                           csp={"connectDomains": ["https://api.example.com"]},
                           permissions=["camera", "clipboardWrite"])

                @server.tool(app="ui://v")
                def show(n: int) -> dict:
                    "Show n."
                    return {"n": n}

                @server.tool(app="ui://v", visibility=["app"])
                def app_only() -> str:
                    "For the view."
                    return "yes"

                @server.tool(app="ui://v", visibility=["model"])
                def model_only() -> str:
                    "Not for the view."
                    return "no"

                @server.tool
                def plain() -> str:
                    "No view."
                    return "plain"
                import os
                if os.environ.get("PID_FILE"):
                    with open(os.environ.get("PID_FILE"), "w") as f:
                        f.write(str(os.getpid()))
                server.run()
                """) % HERE)
        env = dict(os.environ, PYTHONPATH=HERE)
        for words, said in ((["plain"], b"error: tool 'plain' has no view (no "
                             b"_meta.ui.resourceUri)\n"),
                            (["nope"], b"error: the server lists no tool 'nope'\n")):
            r = subprocess.run(SERVE + ["preview"] + words + ["--"] + PY + [script],
                               capture_output=True, timeout=60, env=env)
            self.assertEqual((r.returncode, r.stderr), (2, said))
        import socket
        with socket.socket() as taken:                  # --port N, when N is in use
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            busy = taken.getsockname()[1]
            r = subprocess.run(SERVE + ["preview", "show", "n=1", "--port", str(busy), "--"] +
                               PY + [script], capture_output=True,
                               timeout=60, env=env)
        self.assertEqual((r.returncode, r.stderr), (3, b"error: cannot listen on 127.0.0.1:%d "
                                                       b"(Address already in use)\n" % busy))
        p, port, token = start_preview(self, ["show", "n=5", "--"] + PY + [script], env)

        def ask(path, port=port, method="GET", body=None, **headers):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            try:
                c.request(method, path, body=body, headers=dict(
                    {"Host": "127.0.0.1:%d" % port}, **headers))
                r = c.getresponse()
                return r.status, dict(r.getheaders()), r.read()
            finally:
                c.close()
        page = ask("/?token=" + token)
        self.assertEqual(page[0], 200)
        view_port = int(re.search(rb'src="http://127\.0\.0\.1:(\d+)/view\?token=', page[2]).group(1))
        self.assertNotEqual(view_port, port)
        self.assertIn(b'allow="camera; clipboard-write"', page[2])
        self.assertIn(b'sandbox="allow-scripts allow-same-origin allow-forms"', page[2])
        rpc = {"X-Preview-Token": token, "Content-Type": "application/json"}
        for status, path, kw in ((403, "/", {}), (403, "/?token=" + token[:-1], {}),
                                 (403, "/?token=" + token, {"Host": "localhost:%d" % port}),
                                 (403, "/?token=" + token, {"Sec-Fetch-Site": "cross-site"}),
                                 (403, "/rpc", dict(rpc, Origin="http://evil.example")),
                                 (404, "/view?token=" + token, {}),   # the view's origin only
                                 (404, "/nothing?token=" + token, {})):
            with self.subTest(path=path, headers=kw):
                self.assertEqual(ask(path, method="POST" if path == "/rpc" else "GET",
                                     body=b"{}" if path == "/rpc" else None, **kw)[0], status)
        status, headers, body = ask("/view?token=" + token, port=view_port)
        self.assertEqual((status, body), (200, b"<!DOCTYPE html><title>v</title>"))
        self.assertEqual(headers["Content-Security-Policy"], mcp_stdio._view_csp(
            {"csp": {"connectDomains": ["https://api.example.com"]}}))
        self.assertEqual(ask("/view?token=x", port=view_port)[0], 403)
        self.assertEqual(ask("/?token=" + token, port=view_port)[0], 404)
        # The icon every browser asks for: an empty one, without the token, Host checked.
        for at in (port, view_port):
            status, headers, body = ask("/favicon.ico", port=at)
            self.assertEqual((status, headers["Content-Type"], body), (200, "image/x-icon", b""))
            self.assertEqual(ask("/favicon.ico", port=at, Host="localhost:%d" % at)[0], 403)
            self.assertEqual(ask("/favicon.ico", port=at, method="POST", body=b"")[0], 403)

        def relay(method, params):
            status, _, body = ask("/rpc", method="POST", body=json.dumps(
                {"method": method, "params": params}).encode(), **rpc)
            self.assertEqual(status, 200)
            return json.loads(body)
        self.assertEqual(relay("tools/call", {"name": "app_only", "arguments": {}})["result"][
            "content"], [{"type": "text", "text": "yes"}])
        self.assertEqual(relay("tools/call", {"name": "model_only", "arguments": {}}), {
            "error": {"code": -32602, "message": 'The view may not call "model_only": its '
                      'visibility is ["model"], without "app"'}})
        self.assertEqual(relay("resources/read", {"uri": "ui://v"})["result"]["contents"][0][
            "mimeType"], "text/html;profile=mcp-app")
        self.assertEqual(relay("prompts/list", {})["error"]["code"], -32601)
        self.assertEqual(relay("tools/call", {"name": "nope"})["error"]["code"], -32602)
        status, _, body = ask("/result", **rpc)
        self.assertEqual(json.loads(body)["result"]["structuredContent"], {"n": 5})
        self.assertEqual(ask("/closed?token=" + token, method="POST")[0], 204)
        self.assertEqual(p.wait(timeout=30), 0)
        self.assertTrue(p.stderr.read().endswith(b"preview stopped\n"))
        # Ctrl-C stops it too, and the server with it.
        pid_file = os.path.join(os.path.dirname(script), "pid")
        q = start_preview(self, ["show", "n=1", "--"] + PY + [script],
                          dict(env, PID_FILE=pid_file))[0]
        q.send_signal(signal.SIGINT)
        self.assertEqual(q.wait(timeout=30), 0)
        self.assertTrue(q.stderr.read().endswith(b"preview stopped\n"))
        with open(pid_file) as f:
            server_pid = int(f.read())
        with self.assertRaises(ProcessLookupError):
            os.kill(server_pid, 0)


    def test_the_example_in_both_eras_through_a_real_process(self):
        """examples/apps/board.py from another folder: inspect marks its views (exit 0), read
        --output saves the view's file as it is, a client with apps calls the app-only tool,
        one without never sees it."""
        script = os.path.join(HERE, "examples", "apps", "board.py")
        with tempfile.TemporaryDirectory() as cwd:
            r = subprocess.run(SERVE + ["inspect", "--json", "--"] + PY + [script],
                               capture_output=True, timeout=60, cwd=cwd,
                               env=dict(os.environ, PYTHONPATH=HERE))
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(json.loads(r.stdout)["marks"], {
                "tools": {"move_card": ["view ui://board/view", "app-only"],
                          "show_board": ["view ui://board/view"]},
                "resources": {"ui://board/view": ["view"]}})
            saved = os.path.join(cwd, "view.html")
            r = subprocess.run(SERVE + ["read", "ui://board/view", "--output", saved, "--"] +
                               PY + [script], capture_output=True,
                               timeout=60, cwd=cwd, env=dict(os.environ, PYTHONPATH=HERE))
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(saved, "rb") as f, open(os.path.join(os.path.dirname(script),
                                                           "board.html"), "rb") as g:
                self.assertEqual(f.read(), mcp_stdio._with_bridge(g.read()))   # bridge=True
            for era in ("legacy", "modern"):
                with self.subTest(era=era):
                    with mcp_stdio.Client(PY + [script], era=era, cwd=cwd, timeout=TIMEOUT,
                                          capabilities=APPS_CAPS) as c:
                        moved = c.call_tool("move_card", {"card": 3, "column": "done"})
                        self.assertEqual(moved["structuredContent"]["columns"][2]["cards"],
                                         [{"id": 3, "title": "Ship 1.0"}])
                        self.assertIn("done: Ship 1.0", moved["content"][0]["text"])
                        view = c.read_view("ui://board/view")
                        self.assertTrue(view["html"].startswith("<!DOCTYPE html>"))
                        self.assertEqual(view["ui"], {"prefersBorder": True})
                    with mcp_stdio.Client(PY + [script], era=era, cwd=cwd,
                                          timeout=TIMEOUT) as c:
                        self.assertEqual([t["name"] for t in c.list_tools()], ["show_board"])
                        board = c.call_tool("show_board")
                        self.assertEqual(board["content"][0]["text"], "todo: Add a view, Ship "
                                         "1.0\ndoing: Write the README\ndone: -")


@about("apps")
@unittest.skipUnless(SLOW and os.environ.get("MCP_STDIO_NODE_BIN") and os.path.isfile(CHROMIUM)
                     and os.path.isdir(os.path.join(BROWSER_TOOLS, "node_modules",
                                                    "playwright-core"))
                     and os.path.isfile(os.path.join(EXT_APPS_SRC, "app-bridge.js")),
                     "needs MCP_STDIO_SLOW=1, Chromium, playwright-core, esbuild and ext-apps "
                     "(.ci/run installs them)")
class Browser(unittest.TestCase):
    """Views in headless Chromium against the official other side: AppBridge hosts our
    example's view (written on our bridge); our preview hosts a view written on App."""

    def node(self, script, *args, timeout=120):
        path = os.path.join(self.tmp, "script%d.js" % len(os.listdir(self.tmp)))
        with open(path, "w", encoding="utf-8") as f:
            f.write(script)
        r = subprocess.run([os.path.join(os.environ["MCP_STDIO_NODE_BIN"], "node"), path] +
                           list(args), capture_output=True, timeout=timeout,
                           stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace")[-3000:])
        return r.stdout.decode()

    def bundle(self, source):
        """source (an ES module importing by absolute path) as one browser script."""
        entry = os.path.join(self.tmp, "entry%d.mjs" % len(os.listdir(self.tmp)))
        with open(entry, "w", encoding="utf-8") as f:
            f.write(source)
        r = subprocess.run([os.path.join(BROWSER_TOOLS, "node_modules", ".bin", "esbuild"),
                            entry, "--bundle", "--format=iife", "--platform=browser",
                            "--log-level=error"], capture_output=True, timeout=120,
                           env=dict(os.environ, PATH=os.environ["MCP_STDIO_NODE_BIN"] +
                                    os.pathsep + os.environ.get("PATH", "")))
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace")[-3000:])
        return r.stdout.decode().replace("</script", "<\\/script")

    def drive(self, steps):
        head = DRIVER_HEAD % (json.dumps(os.path.join(BROWSER_TOOLS, "node_modules",
                                                      "playwright-core")), json.dumps(CHROMIUM))
        out = json.loads(self.node(head + steps + DRIVER_TAIL))
        self.assertNotIn("error", out, out.get("error"))
        self.assertNotIn("pageErrors", out, out.get("pageErrors"))
        return out

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name

    def serve(self, routes):
        """An HTTP server on 127.0.0.1 answering routes {path: fn(body) -> (type, bytes)}."""
        import http.server

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self, body):
                route = routes.get(self.path.split("?")[0])
                if route is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                kind, data = route(body)
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                self.answer(None)

            def do_POST(self):
                self.answer(self.rfile.read(int(self.headers["Content-Length"])))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        return "http://127.0.0.1:%d" % server.server_address[1]

    def test_the_official_app_bridge_hosts_the_example_on_our_bridge(self):
        import runpy
        board = runpy.run_path(os.path.join(HERE, "examples", "apps", "board.py"),
                               run_name="board")
        lock = threading.Lock()
        client = mcp_stdio.InProcessClient(board["server"], era="modern", capabilities=APPS_CAPS)
        client.connect()
        self.addCleanup(client.close)
        view = client.read_view("ui://board/view")["html"].encode("utf-8")

        def rpc(body):
            message = json.loads(body)
            with lock:
                result = client.request(message["method"], message["params"])
            return "application/json", json.dumps(result).encode()
        view_origin = self.serve({"/view": lambda body: ("text/html", view)})
        host = self.bundle("""
import { AppBridge, PostMessageTransport } from %s;
const record = window.record = {events: [], calls: [], context: []};
const rpc = (method, params) => fetch("/rpc", {method: "POST",
  body: JSON.stringify({method, params})}).then((r) => r.json());
const frame = document.createElement("iframe");
frame.sandbox = "allow-scripts allow-same-origin";
frame.src = %s;
document.body.appendChild(frame);
const bridge = new AppBridge(null, {name: "test-host", version: "1"},
  {serverTools: {}, serverResources: {}, logging: {}, openLinks: {}, updateModelContext: {}},
  {hostContext: {theme: "dark", styles: {variables: {"--color-text-primary": "rgb(1, 2, 3)"}}}});
bridge.oninitialized = async () => {
  record.events.push("initialized");
  await bridge.sendToolInput({arguments: {}});
  await bridge.sendToolResult(await rpc("tools/call", {name: "show_board", arguments: {}}));
  record.events.push("result sent");
};
bridge.oncalltool = async (params) => { record.calls.push(params); return rpc("tools/call", params); };
bridge.onupdatemodelcontext = async (params) => { record.context.push(params); return {}; };
bridge.onsizechange = (size) => { record.size = size; };
window.teardown = async () => { await bridge.teardownResource({reason: "test"});
  record.events.push("teardown answered"); };
bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
""" % (json.dumps(os.path.join(EXT_APPS_SRC, "app-bridge.js")), json.dumps(view_origin + "/view")))
        page = ("<!DOCTYPE html><html><body><script>%s</script></body></html>" % host).encode()
        origin = self.serve({"/": lambda body: ("text/html", page), "/rpc": rpc})
        out = self.drive("""
    await page.goto(%s);
    await page.waitForFunction(() => window.record.events.includes("result sent"));
    const view = await frameOf("/view");
    await view.click('[data-card="3"] button[data-to="done"]');
    await view.waitForSelector('[data-column="done"] [data-card="3"]');
    await page.waitForFunction(() => window.record.context.length > 0);
    out.theme = await view.evaluate(() => [getComputedStyle(document.documentElement)
      .getPropertyValue("--color-text-primary"), document.documentElement.dataset.theme]);
    await page.evaluate(() => window.teardown());
    out.status = await view.textContent("#status");
    out.record = await page.evaluate(() => window.record);
""" % json.dumps(origin + "/"))
        record = out["record"]
        self.assertEqual(record["events"], ["initialized", "result sent", "teardown answered"])
        self.assertEqual(record["calls"], [{"name": "move_card",
                                            "arguments": {"card": 3, "column": "done"}}])
        self.assertIn("done: Ship 1.0", record["context"][0]["content"][0]["text"])
        self.assertGreater(record["size"]["height"], 0)
        self.assertEqual(out["theme"], ["rgb(1, 2, 3)", "dark"])
        self.assertEqual(out["status"], "closing")          # the view heard the teardown

    def test_the_bridge_speaks_every_view_side_message_to_the_official_app_bridge(self):
        view = mcp_stdio._with_bridge("""<!DOCTYPE html><html><head><title>every</title></head>
<body><script>
var app = window.mcpApp, got = window.got = {partial: []};
app.appCapabilities = {availableDisplayModes: ["inline", "fullscreen"]};
app.on("toolinputpartial", function (p) { got.partial.push(p.arguments); });
app.on("toolinput", function (p) { got.input = p.arguments; });
app.on("toolresult", function (r) { got.result = r.content[0].text; });
app.on("toolcancelled", function (p) { got.cancelled = p.reason; });
app.on("hostcontext", function (c) { got.context = c.theme; });
app.on("teardown", function (p) { got.teardown = p.reason; });
window.exercise = async function () {
  got.read = (await app.readResource("notes://a")).contents[0].text;
  got.call = (await app.callTool("echo", {text: "hi"})).content[0].text;
  await app.sendMessage("hello host");
  await app.openLink("https://example.com/");
  got.mode = (await app.requestDisplayMode("fullscreen")).mode;
  await app.updateModelContext({structuredContent: {seen: 1}});
  app.log("info", "logged");
  try { await app.callTool("fails", {}); } catch (e) { got.failed = [e.code, e.message]; }
  return got;
};
</script></body></html>""").encode()
        view_origin = self.serve({"/view": lambda body: ("text/html", view)})
        host = self.bundle("""
import { AppBridge, PostMessageTransport } from %s;
const seen = window.seen = {};
const frame = document.createElement("iframe");
frame.sandbox = "allow-scripts allow-same-origin";
frame.src = %s;
document.body.appendChild(frame);
const bridge = new AppBridge(null, {name: "test-host", version: "1"},
  {serverTools: {}, serverResources: {}, logging: {}, openLinks: {}, updateModelContext: {}},
  {hostContext: {theme: "dark", availableDisplayModes: ["inline", "fullscreen"]}});
bridge.oninitialized = async () => {
  seen.app = bridge.getAppVersion && bridge.getAppVersion();
  await bridge.sendToolInputPartial({arguments: {a: 1}});
  await bridge.sendToolInput({arguments: {a: 1, b: 2}});
  await bridge.sendToolResult({content: [{type: "text", text: "done"}]});
  await bridge.sendHostContextChange({theme: "light"});
  await bridge.sendToolCancelled({reason: "stopped"});
  seen.ready = true;
};
bridge.onreadresource = async (p) => ({contents: [{uri: p.uri, text: "the note"}]});
bridge.oncalltool = async (p) => {
  if (p.name === "fails") { throw new Error("no such tool"); }
  return {content: [{type: "text", text: "echo " + p.arguments.text}]};
};
bridge.onmessage = async (p) => { seen.message = p; return {}; };
bridge.onopenlink = async (p) => { seen.link = p.url; return {}; };
bridge.onrequestdisplaymode = async (p) => { seen.asked = p.mode; return {mode: "fullscreen"}; };
bridge.onupdatemodelcontext = async (p) => { seen.context = p; return {}; };
bridge.onloggingmessage = (p) => { seen.log = p; };
bridge.onsizechange = (p) => { seen.size = p; };
window.teardown = () => bridge.teardownResource({reason: "bye"});
bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
""" % (json.dumps(os.path.join(EXT_APPS_SRC, "app-bridge.js")), json.dumps(view_origin + "/view")))
        page = ("<!DOCTYPE html><html><body><script>%s</script></body></html>" % host).encode()
        origin = self.serve({"/": lambda body: ("text/html", page)})
        out = self.drive("""
    await page.goto(%s);
    await page.waitForFunction(() => window.seen.ready && window.seen.size);
    const view = await frameOf("/view");
    await view.waitForFunction(() => window.got.cancelled);
    out.got = await view.evaluate(() => window.exercise());
    await page.waitForFunction(() => window.seen.log);
    await page.evaluate(() => window.teardown());
    out.teardown = await view.evaluate(() => window.got.teardown);
    out.seen = await page.evaluate(() => window.seen);
""" % json.dumps(origin + "/"))
        got, seen = out["got"], out["seen"]
        self.assertEqual(got["partial"], [{"a": 1}])
        self.assertEqual((got["input"], got["result"], got["context"], got["cancelled"]),
                         ({"a": 1, "b": 2}, "done", "light", "stopped"))
        self.assertEqual((got["read"], got["call"], got["mode"]), ("the note", "echo hi",
                                                                   "fullscreen"))
        self.assertEqual(got["failed"][1], "no such tool")
        self.assertEqual(out["teardown"], "bye")
        self.assertEqual(seen["message"], {"role": "user", "content": [
            {"type": "text", "text": "hello host"}]})
        self.assertEqual((seen["link"], seen["asked"]), ("https://example.com/", "fullscreen"))
        self.assertEqual(seen["context"], {"structuredContent": {"seen": 1}})
        self.assertEqual((seen["log"]["level"], seen["log"]["data"]), ("info", "logged"))


    def test_the_preview_hosts_a_view_on_the_official_app_class(self):
        view = self.bundle("""
import { App } from %s;
const results = window.results = {};
const app = new App({name: "official-view", version: "1"});
app.ontoolinput = (p) => { results.input = p.arguments; };
app.ontoolresult = async (r) => {
  results.result = r.structuredContent;
  results.appOnly = (await app.callServerTool({name: "app_only", arguments: {x: 2}}))
    .structuredContent;
  try { await app.callServerTool({name: "model_only", arguments: {}}); results.modelOnly = "ran"; }
  catch (e) { results.modelOnlyError = String(e.message || e); }
  results.read = (await app.readServerResource({uri: "notes://n"})).contents[0].text;
  results.done = true;
};
app.onteardown = async () => ({});
app.connect();
""" % json.dumps(os.path.join(EXT_APPS_SRC, "app-with-deps.js")))
        script = os.path.join(self.tmp, "server.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent("""
                import sys
                sys.path.insert(0, %r)
                import mcp_stdio
                server = mcp_stdio.Server("official", "1")
                server.app("ui://t", html=%r)
                server.add(mcp_stdio.Resource("notes://n", lambda uri, ctx: "the note"))

                @server.tool(app="ui://t")
                def show(n: int) -> mcp_stdio.ToolResult:
                    "Show n."
                    return mcp_stdio.ToolResult([mcp_stdio.text(str(n))], structured={"n": n})

                @server.tool(app="ui://t", visibility=["app"])
                def app_only(x: int) -> dict:
                    "Double x."
                    return {"double": 2 * x}

                @server.tool(app="ui://t", visibility=["model"])
                def model_only() -> str:
                    "Only the model calls it."
                    return "ran"
                server.run()
                """) % (HERE, "<!DOCTYPE html><html><head><meta charset=utf-8></head><body>"
                        "<script>%s</script></body></html>" % view))
        p, port, token = start_preview(self, ["show", "n=5", "--", sys.executable, script],
                                       dict(os.environ, PYTHONPATH=HERE))
        url = "http://127.0.0.1:%d/?token=%s" % (port, token)
        import http.client

        def status(path, host="127.0.0.1:%d" % port, **headers):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("GET" if not headers.get("body") else "POST", path,
                      body=headers.pop("body", None), headers=dict(headers, Host=host))
            try:
                return c.getresponse().status
            finally:
                c.close()
        self.assertEqual(status("/"), 403)                                  # no token
        wrong = token[:-1] + ("y" if token.endswith("x") else "x")   # 1 in 64 ended in x
        self.assertEqual(status("/?token=" + wrong), 403)
        self.assertEqual(status("/?token=" + token, host="localhost:%d" % port), 403)
        self.assertEqual(status("/rpc", body=b"{}", Origin="http://evil.example",
                                **{"X-Preview-Token": token}), 403)          # cross-origin
        self.assertEqual(status("/?token=" + token), 200)
        out = self.drive("""
    await page.goto(%s);
    const view = await frameOf("/view");
    await view.waitForFunction(() => window.results && window.results.done, null,
                               {timeout: 20000});
    out.results = await view.evaluate(() => window.results);
    out.csp = await page.evaluate(async () => (await fetch(document.getElementById("view").src))
      .headers.get("content-security-policy")).catch((e) => "unreadable: " + e);
    await page.click("#teardown");
    await page.waitForFunction(() => !document.getElementById("view"));
    out.log = await page.textContent("#log");
    await page.close({runBeforeUnload: true});
    await new Promise((r) => setTimeout(r, 500));
""" % json.dumps(url))
        results = out["results"]
        self.assertEqual(results["input"], {"n": 5})
        self.assertEqual(results["result"], {"n": 5})
        self.assertEqual(results["appOnly"], {"double": 4})
        self.assertNotIn("modelOnly", results)
        self.assertIn('"model_only": its visibility is ["model"], without "app"',
                      results["modelOnlyError"])
        self.assertEqual(results["read"], "the note")
        self.assertIn("torn down", out["log"])
        self.assertEqual(p.wait(timeout=30), 0)                 # the closed page stopped it
        self.assertIn(b"preview stopped", p.stderr.read())


###############################################################################
# Tool search: two tools in front of many #####################################
###############################################################################


def search_server(**options):
    """The demo with tool search, and a tool of its own pinned, one that may be a task, and
    one whose input a middleware rewrites (the chain sees the named tool)."""
    server = mcp_stdio.demo_server(tool_search=True, **options)

    @server.tool(pinned=True)
    def status() -> str:
        "Say whether the service is up."
        return "up"

    @server.tool(task="optional")
    def archive(folder: str) -> str:
        """Pack a folder of files into one compressed archive.

        Args:
            folder: The folder to pack.
        """
        return "packed " + folder
    seen = []

    @server.middleware(kinds="tool")
    def record(request, next):
        seen.append(request.params["name"])
        return next()
    server.seen = seen
    return server


class ToolSearch(unittest.TestCase):
    """--tool-search: two tools listed instead of the catalog, every tool still callable."""

    def test_the_listing_is_the_two_tools_and_the_pinned(self):
        for era, revision in (("legacy", "2025-11-25"), ("legacy", "2025-03-26"),
                              ("modern", MODERN)):
            with self.subTest(era=era, revision=revision), mcp_stdio.InProcessClient(
                    search_server(), era=era, revision=revision) as c:
                tools = {t["name"]: t for t in c.list_tools()}
                self.assertEqual(sorted(tools), ["call_tool", "search_tools", "status"])
                # Tools that may be tasks are called through call_tool: it may be one too.
                self.assertEqual(tools["call_tool"].get("execution"), {
                    "taskSupport": "optional"} if revision == "2025-11-25" and
                    "tasks" in SERVED else None)
                for name in tools:
                    result = {"tools": [tools[name]]}
                    if era == "modern":
                        result["resultType"] = "complete"
                    self.assertEqual(WireSchemas.problems(revision, {
                        "jsonrpc": "2.0", "id": 1, "result": result}), [])
                self.assertEqual(c.call_tool("echo", {"text": "hi"})["content"][0]["text"],
                                 "hi")                    # discovery, not access
        with mcp_stdio.InProcessClient(search_server(pin=["echo", "ad*"]), era="legacy") as c:
            self.assertEqual(sorted(t["name"] for t in c.list_tools()),
                             ["add", "call_tool", "echo", "search_tools", "status"])

    def test_a_pinned_tool_is_kept_loaded_by_a_host_that_searches(self):
        """A pinned tool carries _meta["anthropic/alwaysLoad"] (Claude Code keeps it loaded),
        a search_hint _meta["anthropic/searchHint"], with or without --tool-search, in both
        eras; not in revisions whose tool has no _meta; its own _meta kept beside them."""
        def server(**options):
            s = mcp_stdio.Server("s", "1", **options)

            @s.tool(pinned=True, search_hint="is the service up", meta={"vendor/x": 1})
            def status() -> str:
                "Say whether the service is up."
                return "up"

            @s.tool(search_hint="pack files")
            def archive(folder: str) -> str:
                "Pack a folder."
                return folder

            @s.tool
            def echo(text: str) -> str:
                "Echo."
                return text
            return s
        for searching in (False, True):
            for era, revision in (("legacy", "2025-11-25"), ("legacy", "2025-06-18"),
                                  ("legacy", "2025-03-26"), ("modern", MODERN)):
                with self.subTest(searching=searching, revision=revision), \
                        mcp_stdio.InProcessClient(server(tool_search=searching, pin=["echo"]),
                                                  era=era, revision=revision) as c:
                    metas = {t["name"]: t.get("_meta") for t in c.list_tools()}
                    has_meta = revision != "2025-03-26"
                    self.assertEqual(metas["status"], {
                        "vendor/x": 1, "anthropic/alwaysLoad": True,
                        "anthropic/searchHint": "is the service up"} if has_meta else None)
                    self.assertEqual(metas["echo"], {"anthropic/alwaysLoad": True}
                                     if has_meta and searching else None)
                    if searching:
                        self.assertNotIn("archive", metas)      # found by search_tools
                        self.assertEqual(metas["search_tools"]["anthropic/alwaysLoad"]
                                         if has_meta else None, True if has_meta else None)
                    else:
                        self.assertEqual(metas["archive"], {"anthropic/searchHint": "pack files"}
                                         if has_meta else None)
        for bad in ("", "  ", 5):
            with self.assertRaisesRegex(mcp_stdio.CatalogError, "search_hint must be a phrase"):
                mcp_stdio.Tool("t", lambda a, c: "", search_hint=bad)

    def test_a_mounted_tool_keeps_its_own_meta_but_what_we_govern(self):
        """A mounted tool's _meta is kept, but a view's link, the tasks key and where it came
        from, which this server says for its own callers; our pinned and search_hints add the
        keys a searching host reads."""
        outer = mcp_stdio.Server("outer", "1")
        outer.mount("m", PY + ["-c", "pass"], pinned=["t"], search_hints={"t": "find notes"})
        mount = outer.sources[0]
        listed = {"name": "t", "inputSchema": {"type": "object"}, "_meta": {
            "vendor/x": {"y": 1}, "ui": {"resourceUri": "ui://v"}, "ui/resourceUri": "ui://v",
            "io.modelcontextprotocol/tasks": {}, "io.github.mcp-stdio/mount": "forged",
            "anthropic/searchHint": "theirs", "anthropic/alwaysLoad": False}}
        self.assertEqual(mount._tool(listed).describe("2025-11-25")["_meta"], {
            "vendor/x": {"y": 1}, "anthropic/searchHint": "find notes",
            "anthropic/alwaysLoad": True,
            "io.github.mcp-stdio/mount": {"server": "m", "name": "t"}})
        other = dict(listed, name="u", _meta={"anthropic/searchHint": "theirs", "v/k": [1]})
        self.assertEqual(mount._tool(other).describe("2025-11-25")["_meta"], {
            "anthropic/searchHint": "theirs", "v/k": [1],
            "io.github.mcp-stdio/mount": {"server": "m", "name": "u"}})
        self.assertNotIn("_meta", mount._tool(dict(listed, name="w", _meta=[1])).describe(
            "2025-03-26"))
        with self.assertRaisesRegex(mcp_stdio.CatalogError, "search_hints must map"):
            outer.mount("n", PY, search_hints={"t": 5})

    def test_search_ranks_by_purpose_and_shows_tools_as_listed(self):
        server = search_server()
        for era, revision in (("legacy", "2025-11-25"), ("modern", MODERN),
                              ("legacy", "2025-03-26")):
            with self.subTest(era=era, revision=revision), mcp_stdio.InProcessClient(
                    server, era=era, revision=revision) as c:
                for query, first in (("divide one number by another", "divide"),
                                     ("pack files into a compressed archive", "archive"),
                                     ("send the text back unchanged", "echo"),
                                     ("sum of two numbers", "add")):
                    r = c.call_tool("search_tools", {"query": query, "limit": 3})
                    found = json.loads(r["content"][0]["text"])["tools"]
                    self.assertEqual(found[0]["name"], first, query)
                    self.assertLessEqual(len(found), 3)
                    if revision == "2025-03-26":        # no structured content yet
                        self.assertNotIn("structuredContent", r)
                    else:
                        self.assertEqual(r["structuredContent"], {"tools": found})
                # Each found tool as tools/list shows it (in that era) without tool search.
                with mcp_stdio.InProcessClient(mcp_stdio.demo_server(), era=era,
                                               revision=revision) as plain:
                    listed = {t["name"]: t for t in plain.list_tools()}
                r = c.call_tool("search_tools", {"query": "add numbers"})
                for t in json.loads(r["content"][0]["text"])["tools"]:
                    if t["name"] in listed:
                        self.assertEqual(t, listed[t["name"]])
                self.assertNotIn("search_tools", r["content"][0]["text"])
                r = c.call_tool("search_tools", {"query": "x", "limit": 21})
                self.assertTrue(r["isError"])               # at most 20

    def test_call_tool_is_a_direct_call_of_the_named_tool(self):
        server = search_server(grant=["echo", "add", "status", "archive"])
        for era in ("legacy", "modern"):
            with self.subTest(era=era), mcp_stdio.InProcessClient(server, era=era) as c:
                del server.seen[:]
                via = c.call_tool("call_tool", {"name": "add", "arguments": {"a": "x"}})
                direct = c.call_tool("add", {"a": "x"})
                for r in (via, direct):
                    r.pop("_meta", None)
                self.assertEqual(via, direct)
                self.assertTrue(via["isError"])
                self.assertEqual(server.seen, ["add", "add"])    # middleware: the named tool
                for name in ("nosuch", "divide", "search_tools", "call_tool"):  # scoped away
                    r = c.call_tool("call_tool", {"name": name})
                    self.assertEqual((r["isError"], r["content"][0]["text"]),
                                     (True, 'Unknown tool: "%s"' % name), name)
                r = c.call_tool("call_tool", {"arguments": {}})
                self.assertTrue(r["isError"])
                self.assertIn("Invalid arguments for tool 'call_tool'", r["content"][0]["text"])

    @about("apps")
    def test_a_view_stays_listed_where_views_are_shown_and_app_only_tools_are_never_found(self):
        server = board_server(tool_search=True)
        # A host shows a view by its listed tool, and lets the view call what only it may.
        for caps, listed in ((APPS_CAPS, ["call_tool", "refresh", "search_tools", "show"]),
                             ({}, ["call_tool", "search_tools"])):
            with self.subTest(views=bool(caps)), mcp_stdio.InProcessClient(
                    server, era="legacy", capabilities=caps) as c:
                self.assertEqual(sorted(t["name"] for t in c.list_tools()), listed)
                r = c.call_tool("search_tools", {"query": "refresh the board", "limit": 20})
                found = [t["name"] for t in r["structuredContent"]["tools"]]
                self.assertNotIn("refresh", found)            # only a view may call it
                self.assertIn("show", found)

    @about("tasks")
    def test_a_task_through_call_tool_is_the_named_tools(self):
        """call_tool asked as a task (2025-11-25) answers as a direct call asked so would:
        a task for a tool that may be one, the refusal of one that may not."""
        server = search_server()
        with mcp_stdio.InProcessClient(server, era="legacy") as c:
            r = c.call_tool("call_tool", {"name": "archive", "arguments": {"folder": "x"}},
                            task=True)
            self.assertEqual(r["content"][0]["text"], "packed x")
            outcomes = []
            for name, args in (("call_tool", {"name": "echo", "arguments": {"text": "t"}}),
                               ("echo", {"text": "t"})):
                try:
                    outcomes.append(c.call_tool(name, args, task=True))
                except mcp_stdio.ServerError as e:
                    outcomes.append((e.code, e.message))
            self.assertEqual(outcomes[0], outcomes[1])

    def test_names_that_cannot_clash(self):
        server = search_server()

        @server.tool
        def call_tool(name: str) -> str:
            "Call someone on the telephone."
            return name
        with self.assertRaises(mcp_stdio.CatalogError) as e:
            server.freeze()
        self.assertIn("tool search: the catalog has a tool 'call_tool' of its own", str(e.exception))
        server = search_server(tool_search_names=["find_tools", "use_tool"])
        server.add(mcp_stdio.Tool("call_tool", lambda a, c: "rang", description="Phone."))
        with mcp_stdio.InProcessClient(server, era="legacy") as c:
            self.assertEqual(sorted(t["name"] for t in c.list_tools()),
                             ["find_tools", "status", "use_tool"])
            r = c.call_tool("use_tool", {"name": "call_tool"})
            self.assertEqual(r["content"][0]["text"], "rang")

    def test_the_index_follows_a_live_catalog(self):
        server = search_server()
        server.configure(live=True)
        with mcp_stdio.InProcessClient(server, era="legacy") as c:
            r = c.call_tool("search_tools", {"query": "forecast the weather"})
            self.assertNotIn("weather", r["content"][0]["text"])
            server.add(mcp_stdio.Tool("weather", lambda a, c: "sunny",
                                      description="Forecast the weather of a city."))
            r = c.call_tool("search_tools", {"query": "forecast the weather"})
            self.assertEqual(json.loads(r["content"][0]["text"])["tools"][0]["name"], "weather")
            server.remove_tool("weather")
            r = c.call_tool("search_tools", {"query": "forecast the weather"})
            self.assertNotIn("weather", r["content"][0]["text"])

    def test_a_search_of_ten_thousand_tools_is_quick_enough_to_be_ranked_at_all(self):
        """Ten thousand tools: the purposes find their tools (speed is the benchmark's)."""
        words = ("read write list search create delete update file directory user issue "
                 "repository branch commit message channel email calendar event invoice "
                 "customer order product price stock weather forecast city route image "
                 "video transcript note project board card database table row record").split()
        r = random.Random(7)
        server = mcp_stdio.Server("big", "1", tool_search=True)
        for i in range(10000):
            w = r.sample(words, 4)
            server.add(mcp_stdio.Tool("%s_%s_%d" % (w[0], w[1], i), lambda a, c: "ok",
                                      description="%s the %s of a %s." % (w[0], w[1], w[2])))
        server.add(mcp_stdio.Tool("refund_order", lambda a, c: "ok", description=(
            "Give a customer their money back for an order they returned.")))
        with mcp_stdio.InProcessClient(server, era="legacy") as c:
            r = c.call_tool("search_tools", {"query": "money back for a returned order"})
            self.assertEqual(json.loads(r["content"][0]["text"])["tools"][0]["name"],
                             "refund_order")


###############################################################################
# Extensions: what each adds to the engine ####################################
###############################################################################


class ExtensionContract(unittest.TestCase):
    """An extension added through the contract the Extensions section states, without
    editing the module: a section and a row are all it takes."""

    def test_a_small_extension_of_our_own_serves(self):
        with open(SERVER, encoding="utf-8") as f:
            folder = built_module(self, module_with_hello(f.read()))
        session = [{"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                    "params": {"_meta": modern_meta()}},
                   {"jsonrpc": "2.0", "id": 2, "method": "hello/say",
                    "params": {"name": "Ada", "_meta": modern_meta()}},
                   {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
                       "name": "divide", "arguments": {"dividend": 1, "divisor": 2},
                       "_meta": modern_meta()}},
                   {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
                       "name": "add", "arguments": {"a": 1, "b": 2}, "_meta": modern_meta()}}]
        r = subprocess.run(PY + ["-m", "mcp_stdio"], cwd=folder, input=b"".join(
            json.dumps(m).encode() + b"\n" for m in session), capture_output=True,
            timeout=TIMEOUT, env=dict(os.environ, PYTHONPATH=folder))
        self.assertEqual((r.returncode, r.stderr), (0, b""))
        a = {m["id"]: m for m in map(json.loads, r.stdout.splitlines())}
        self.assertEqual(a[1]["result"]["capabilities"]["extensions"][
            "io.github.mcp-stdio-test/hello"], {"greets": True})
        self.assertEqual(a[2]["result"]["hello"], "Ada")
        self.assertEqual(a[3]["error"], {"code": -31999, "message": "divide is closed today",
                                         "data": {"tool": "divide"}})
        self.assertEqual(a[4]["result"]["structuredContent"], {"sum": 3})


class Rebuilds(unittest.TestCase):
    """The module rebuilt from its source: without an extension, with a later revision
    (real processes, beside the other process tests)."""

    @about("tasks", "skills", "apps")
    def test_the_engine_serves_without_each_extension(self):
        """The module rebuilt without the tasks section and its row (or the skills section,
        or MCP Apps', and its row) imports and serves every other method of both eras byte
        for byte as before."""
        with open(SERVER, encoding="utf-8") as f:
            source = f.read()
        builds = {"with": source, "without tasks": module_without(source, "tasks"),
                  "without skills": module_without(source, "skills"),
                  "without apps": module_without(source, "apps")}
        self.assertNotIn("class View(", builds["without apps"])
        self.assertNotIn("class _Tasks", builds["without tasks"])
        self.assertNotIn("class SkillFolder", builds["without skills"])
        self.assertIn("class SkillFolder", builds["without tasks"])
        common = [("tools/list", {}), ("tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}}),
                  ("tools/call", {"name": "divide", "arguments": {"dividend": 1, "divisor": 0}}),
                  ("resources/list", {}), ("resources/read", {"uri": "demo://readme"}),
                  ("resources/templates/list", {}), ("prompts/list", {}),
                  ("prompts/get", {"name": "summarize", "arguments": {"text": "t"}}),
                  ("completion/complete", {"ref": {"type": "ref/prompt", "name": "summarize"},
                                           "argument": {"name": "style", "value": "s"}}),
                  ("tasks/list", {}), ("tasks/get", {"taskId": "x"}), ("skills/list", {}),
                  ("ping", {}), ("logging/setLevel", {"level": "info"}), ("nothing/here", {}),
                  ("subscriptions/listen", {"notifications": {"toolsListChanged": True}})]
        openings = {"legacy": [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"}],
            "modern": [{"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                        "params": {"_meta": modern_meta()}}]}
        outputs = {}
        for name, text in builds.items():
            folder = built_module(self, text)
            for era, opening in openings.items():
                extra = {"_meta": modern_meta()} if era == "modern" else {}
                session = opening + [{"jsonrpc": "2.0", "id": i, "method": m,
                                      "params": dict(p, **extra)}
                                     for i, (m, p) in enumerate(common, 2)]
                r = subprocess.run(SERVE, input=b"".join(json.dumps(m).encode() + b"\n"
                                                         for m in session),
                                   capture_output=True, timeout=TIMEOUT, cwd=folder)
                self.assertEqual((r.returncode, r.stderr), (0, b""), name)
                outputs[name, era] = r.stdout
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                self.assertEqual(len(outputs["with", era].splitlines()),
                                 len(common) + (1 if era == "legacy" else 2))
                # Byte for byte, each answer; their order is the runtime's (a call moved
                # to a worker under load may answer after the next one).
                for name in ("without tasks", "without skills", "without apps"):
                    self.assertEqual(sorted(outputs[name, era].splitlines()),
                                     sorted(outputs["with", era].splitlines()), name)

    @unittest.skipUnless(os.environ.get("MCP_STDIO_REBUILDS") == "1", "the whole suite twice: "
                         "with MCP_STDIO_REBUILDS=1 (.ci/run sets it for one interpreter)")
    @about("tasks", "skills", "apps")
    def test_the_suite_passes_without_each_extension(self):
        """The whole default suite, run against the module rebuilt without each extension,
        passes but for the tests about that extension, which skip. It runs alone, one
        suite after the other: beside other tests, their load fails tests that wait."""
        with open(SERVER, encoding="utf-8") as f:
            source = f.read()
        runs = {name: checkout_with(self, module_without(source, name)) for name in EXTENSIONS}
        for name, folder in runs.items():
            with self.subTest(without=name):
                status, out, failed = suite_in(folder)
                self.assertEqual(status, 0, failed[-6000:] or out[-3000:])
                self.assertRegex(out, r"\nOK \(skipped=\d+\)\n$")
                self.assertIn("skipped 'the module is built without %s'" % name, out)

    @unittest.skipUnless(os.environ.get("MCP_STDIO_REBUILDS") == "1", "a suite of its own: "
                         "with MCP_STDIO_REBUILDS=1 (.ci/run sets it for one interpreter)")
    def test_the_library_passes_its_tests_without_the_commands(self):
        """The library's tests (LIBRARY_TESTS: none starts the demo or a command) pass
        against the file cut at the Commands banner."""
        with open(SERVER, encoding="utf-8") as f:
            source = f.read()
        status, out, failed = suite_in(checkout_with(self, library_cut(source)), *LIBRARY_TESTS)
        self.assertEqual(status, 0, failed[-6000:] or out[-3000:])
        self.assertRegex(out, r"\nRan [1-9]\d\d tests in ")

    def test_a_later_modern_revision_is_one_entry(self):
        """The module rebuilt from its source with "2027-03-01" appended to MODERN_VERSIONS
        serves a 2026-07-28 client byte for byte as before (but for the new entry of
        supportedVersions), and serves 2027-03-01 with every feature that has no end."""
        with open(SERVER, encoding="utf-8") as f:
            source = f.read()
        entry = '\nMODERN_VERSIONS = ("2026-07-28",)\n'
        self.assertEqual(source.count(entry), 1)
        later = source.replace(entry, '\nMODERN_VERSIONS = ("2026-07-28", "2027-03-01")\n')
        outputs = {}
        for name, text in (("now", source), ("later", later)):
            folder = built_module(self, text)
            for version in (MODERN, "2027-03-01") if name == "later" else (MODERN,):
                meta = json.dumps(dict(modern_meta(), **{
                    "io.modelcontextprotocol/protocolVersion": version}))
                session = [m.replace("META", meta) for m in (
                    '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":META}}',
                    '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":META}}',
                    '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"add",'
                    '"arguments":{"a":1,"b":2},"_meta":META}}',
                    '{"jsonrpc":"2.0","id":4,"method":"resources/list","params":{"_meta":META}}',
                    '{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":'
                    '"demo://readme","_meta":META}}',
                    '{"jsonrpc":"2.0","id":6,"method":"prompts/list","params":{"_meta":META}}',
                    '{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":META}}',
                    '{"jsonrpc":"2.0","id":8,"method":"logging/setLevel","params":{"level":'
                    '"info","_meta":META}}',
                    '{"jsonrpc":"2.0","id":9,"method":"resources/subscribe","params":{"uri":'
                    '"demo://readme","_meta":META}}',
                    '{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"_meta":META}}',
                    '{"jsonrpc":"2.0","id":11,"method":"tasks/list","params":{"_meta":META}}',
                    '{"jsonrpc":"2.0","id":12,"method":"subscriptions/listen","params":{'
                    '"notifications":{"toolsListChanged":true},"_meta":META}}')]
                r = subprocess.run(SERVE, input="\n".join(session).encode() + b"\n",
                                   capture_output=True, timeout=TIMEOUT, cwd=folder)
                self.assertEqual((r.returncode, r.stderr), (0, b""))
                outputs[name, version] = r.stdout
        now = outputs["now", MODERN]
        self.assertEqual(len(now.splitlines()), 13)     # 12 answers and the acknowledgement
        self.assertIn(b'"supportedVersions":["2026-07-28"]', now)
        for version in (MODERN, "2027-03-01"):
            with self.subTest(version=version):
                got = outputs["later", version]
                self.assertIn(b'"supportedVersions":["2026-07-28","2027-03-01"]', got)
                self.assertEqual(sorted(got.replace(b',"2027-03-01"]', b"]").splitlines()),
                                 sorted(now.splitlines()))      # each answer; order is the runtime's


###############################################################################
# Stdio runtime ###############################################################
###############################################################################


class RuntimeRaces(unittest.TestCase):
    """The stdio runtime's thread hand-offs, with the interleavings that CI hit forced."""

    class Stop(Exception):
        pass

    def runtime(self):
        r, w = os.pipe()
        self.addCleanup(os.close, r)
        self.addCleanup(os.close, w)
        return mcp_stdio._Runtime(mcp_stdio.Server("t", "1", workers=1), r, w)

    def test_calls_answered_later_behind_a_long_one_do_not_pile_up(self):
        """The runtime keeps calls left to be answered later (a mount's) for their deadline
        and the end of input; those settled behind a long one are dropped as it goes."""
        rt = self.runtime()

        def call(settled=False):
            return type("Call", (), {"settled": settled, "timeout": 300.0, "deadline": 1.0})()
        long = call()
        with rt.lock:
            rt._leave(long)
            for _ in range(5000):
                c = call()
                rt._leave(c)
                c.settled = True           # answered at once, as quick calls are
            self.assertLess(len(rt.left), 200)
            self.assertLess(len(rt.deadlines), 200)
            self.assertIs(rt.left[0], long)
            self.assertIs(rt.deadlines[0][2], long)

    def test_an_abandoned_thread_is_logged_before_anyone_can_see_it_counted(self):
        # A shutdown waiting for idle drains stderr and exits at once: the line
        # must already be queued when the new counts become visible.
        rt = self.runtime()
        call = type("Call", (), {"kind": "tool", "name": "sleepy"})()
        rt.active.add(call)
        rt.workers = 1
        held = []
        from unittest import mock
        with mock.patch.object(mcp_stdio, "_diag", lambda line: held.append(rt.lock.locked())):
            rt._release(call)
        self.assertEqual((held, rt.workers, rt.stuck), ([True], 0, 1))

    def test_a_call_that_begins_as_the_watchdog_parks_is_still_watched(self):
        # The leader marks its call and then looks whether the watchdog sleeps;
        # the watchdog decides to sleep and then says so. A call that begins in
        # between must still be handed on, not left on the reading thread.
        rt = self.runtime()
        clock = [0.0]
        stop = threading.Event()

        def now():
            if stop.is_set():
                raise self.Stop()
            clock[0] += 0.001
            return clock[0]
        call = type("Call", (), {"settled": False, "timeout": None, "deadline": None})()
        promoted = threading.Event()

        class Watched(mcp_stdio._Runtime):
            parks = 0

            def __setattr__(self, name, value):
                if name == "parked" and value and not self.parks:
                    type(self).parks += 1           # the leader's steps, just before
                    object.__setattr__(self, "inline", (call, clock[0]))
                    object.__setattr__(self, "inline_count", self.inline_count + 1)
                object.__setattr__(self, name, value)
        rt.__class__ = Watched
        rt._now = now
        rt.STALL = 0.001       # the watchdog's hundred quiet rounds wait this long each
        rt._thread = lambda target, args=(), **kw: threading.Thread(
            target=promoted.set if target == rt._lead else target)
        rt.parked = False

        def watch():
            try:
                rt._watch()
            except self.Stop:
                pass
        t = threading.Thread(target=watch, daemon=True)
        t.start()
        try:
            self.assertTrue(promoted.wait(5), "the call was never handed on")
            self.assertEqual((rt.workers, rt.active), (1, {call}))
        finally:
            stop.set()
            with rt.lock:
                rt.wake.notify_all()
            t.join(5)
        self.assertFalse(t.is_alive())


class Concurrency(ScriptTest):

    def test_reader_answers_while_every_worker_is_busy_modern(self):
        p = self.spawn("--workers", "3")          # two slow calls, and room for the echo
        p.rev = MODERN
        p.send(call_msg("slow1", "countdown", {"seconds": 1.2}, modern_meta()))
        p.send(call_msg("slow2", "countdown", {"seconds": 1.2}, modern_meta()))
        time.sleep(0.1)
        p.send({"jsonrpc": "2.0", "id": "d", "method": "server/discover",
                "params": {"_meta": modern_meta()}})
        p.send({"jsonrpc": "2.0", "id": "l", "method": "tools/list",
                "params": {"_meta": modern_meta()}})
        p.send(call_msg("fast", "echo", {"text": "now"}, modern_meta()))
        got = [p.recv()["id"] for _ in range(3)]
        self.assertEqual(sorted(got), ["d", "fast", "l"])
        self.assertEqual(sorted([p.recv()["id"], p.recv()["id"]]), ["slow1", "slow2"])

    def test_reader_answers_while_every_worker_is_busy_legacy(self):
        p = self.spawn("--workers", "2")
        p.initialize()
        p.send(call_msg("slow", "countdown", {"seconds": 1.2}))  # long: room for a busy machine
        time.sleep(0.1)
        p.send({"jsonrpc": "2.0", "id": "p", "method": "ping"})
        p.send({"jsonrpc": "2.0", "id": "l", "method": "tools/list"})
        p.send(call_msg("fast", "echo", {"text": "now"}))
        self.assertEqual(sorted(p.recv()["id"] for _ in range(3)), ["fast", "l", "p"])
        self.assertEqual(p.recv()["id"], "slow")

    def test_busy_beyond_the_backlog(self):
        # workers=2: two slow calls run, one waits, the next is refused with a count that is right
        p = self.spawn("--workers", "2", "--backlog", "1")
        p.initialize()
        # Long enough never to end by themselves on a loaded machine: they are cancelled.
        p.send(call_msg(1, "countdown", {"seconds": 30}))
        p.send(call_msg(2, "countdown", {"seconds": 30}))
        time.sleep(0.05)                        # both have left the reading thread
        p.send(call_msg(3, "echo", {"text": "queued"}))
        p.send(call_msg(4, "echo", {"text": "refused"}))
        r = p.recv()
        self.assertEqual(r["id"], 4)
        self.assertEqual(r["result"], {"content": [{"type": "text", "text": "The server is busy "
                         "(2 calls running, 1 waiting); try again shortly."}], "isError": True})
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": 5, "method": "ping"})["id"], 5)
        p.silent(0.1)                           # the queued call waits for a slot
        for rid in (1, 2):
            p.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": rid}})
        self.assertEqual(p.recv()["result"]["content"][0]["text"], "queued")
        self.assertEqual(p.close(), 0)
        self.assertFalse(any(b'"id":1,' in line or b'"id":2,' in line for line in p.raw))

    def test_cancel_a_running_call(self):
        p = self.spawn()
        p.initialize()
        p.send(call_msg("c", "countdown", {"seconds": 5}, {"progressToken": "tok"}))
        first = p.recv()
        self.assertEqual(first["method"], "notifications/progress")
        p.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": "c", "reason": "user"}})
        time.sleep(0.15)
        while not p.lines.empty():          # progress sent before the cancel arrived
            self.assertEqual(p.recv()["method"], "notifications/progress")
        p.silent(0.3)                       # at 0.1 s a step, progress would have come
        self.assertEqual(p.request(call_msg("n", "echo", {"text": "next"}))["id"], "n")
        p.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": "c"}})        # finished: ignored
        self.assertEqual(p.close(), 0)
        self.assertFalse(any(b'"id":"c"' in line for line in p.raw))

    def test_progress_only_with_a_token_and_in_order(self):
        p = self.spawn()
        p.initialize("2025-06-18")
        r = p.request(call_msg(1, "countdown", {"seconds": 0.1}))
        self.assertEqual(r["id"], 1)
        p.send(call_msg(2, "countdown", {"seconds": 0.5}, {"progressToken": 77}))
        seen = []
        while True:
            m = p.recv()
            if "id" in m:
                break
            self.assertEqual(m["method"], "notifications/progress")
            self.assertEqual(m["params"]["progressToken"], 77)
            self.assertEqual(m["params"]["total"], 5)
            seen.append(m["params"]["progress"])
        self.assertEqual(m["id"], 2)
        self.assertEqual(seen, [1, 2, 3, 4, 5])
        self.assertTrue(m["result"]["structuredContent"]["completed"])

    def test_progress_message_absent_on_2024_11_05(self):
        p = self.spawn()
        p.initialize("2024-11-05")
        p.send(call_msg(1, "countdown", {"seconds": 0.1}, {"progressToken": "t"}))
        m = p.recv()
        self.assertEqual(m["params"], {"progressToken": "t", "progress": 1, "total": 1})

    def test_modern_logging_follows_the_request_level(self):
        p = self.spawn_script()
        p.rev = MODERN
        p.send(call_msg(1, "logger", {}, modern_meta(**{"io.modelcontextprotocol/logLevel": "warning"})))
        msgs = [p.recv(), p.recv(), p.recv()]
        self.assertEqual([m.get("params", {}).get("level") for m in msgs[:2]], ["warning", "error"])
        self.assertEqual(msgs[0]["params"], {"level": "warning", "logger": "logger",
                                             "data": "at warning"})
        self.assertEqual(msgs[2]["id"], 1)
        self.assertEqual(p.request(call_msg(2, "logger", {}, modern_meta()))["id"], 2)
        p.close()
        self.assertIn(b"at debug", p.stderr)

    def test_legacy_logging_after_set_level(self):
        p = self.spawn_script()
        p.initialize()
        self.assertEqual(p.request(call_msg(1, "logger"))["id"], 1)
        p.request({"jsonrpc": "2.0", "id": 2, "method": "logging/setLevel",
                   "params": {"level": "info"}})
        p.send(call_msg(3, "logger"))
        levels = [p.recv()["params"]["level"] for _ in range(3)]
        self.assertEqual(levels, ["info", "warning", "error"])
        self.assertEqual(p.recv()["id"], 3)

    def test_timeout_gives_an_error_result(self):
        p = self.spawn_script()
        p.initialize()
        r = p.request(call_msg(1, "short_timeout", {"seconds": 30}))
        self.assertEqual(r["result"], {"content": [{"type": "text", "text":
                         "Tool 'short_timeout' timed out after 0.2 seconds."}], "isError": True})
        self.assertEqual(p.request(call_msg(2, "quick"))["id"], 2)

    def test_default_timeout(self):
        p = self.spawn_script("timeout=0.1")
        p.initialize()
        r = p.request(call_msg(1, "polite", {"seconds": 30}))
        self.assertTrue(r["result"]["isError"])

    def test_eof_lets_calls_in_flight_finish(self):
        p = self.spawn()
        p.initialize()
        p.send(call_msg(1, "countdown", {"seconds": 0.2}))
        p.send(call_msg(2, "countdown", {"seconds": 0.1}))
        self.assertEqual(p.close(), 0)
        ids = sorted(json.loads(line)["id"] for line in p.raw[1:])
        self.assertEqual(ids, [1, 2])

    def test_stuck_handler_is_abandoned_after_grace(self):
        p = self.spawn_script("grace=0.3")
        p.initialize()
        p.send(call_msg(1, "sleepy", {"seconds": 60}))
        start = time.monotonic()
        self.assertEqual(p.close(), 0)
        self.assertLess(time.monotonic() - start, 5)
        self.assertIn(b"abandoning 1 call", p.stderr)

    def test_duplicate_id_in_flight(self):
        p = self.spawn()
        p.initialize()
        p.send(call_msg(7, "countdown", {"seconds": 1.0}))     # still running under load
        r = p.request(call_msg(7, "echo", {"text": "dup"}))
        self.assertEqual((r["id"], r["error"]["code"]), (7, -32600))
        r = p.recv()
        self.assertEqual((r["id"], "structuredContent" in r["result"]), (7, True))
        self.assertEqual(p.request(call_msg(7, "echo", {"text": "again"}))["id"], 7)

    def test_capacity_comes_back_after_timeouts(self):
        # Handlers that ignore their timeout keep their threads, not their worker slots.
        p = self.spawn_script("workers=2", "timeout=0.3")
        p.initialize()
        for i in range(3):
            p.send(call_msg(i, "sleepy", {"seconds": 3}))
        for _ in range(3):
            r = p.recv()
            self.assertEqual(r["result"]["content"][0]["text"],
                             "Tool 'sleepy' timed out after 0.3 seconds.")
        # Their slots come back once a handler's grace after its timeout (0.25 s) is over: a
        # call sent sooner would wait for one within its own 0.3 s, too close under load.
        time.sleep(0.4)
        self.assertEqual(p.request(call_msg(9, "quick"))["result"]["content"][0]["text"], "quick")
        self.assertEqual(p.close(), 0)         # stuck threads do not hold the exit either
        self.assertIn(b"its thread is abandoned (2 such thread(s) now)", p.stderr)

    def test_stuck_threads_are_capped(self):
        p = self.spawn_script("workers=1", "timeout=0.1")
        p.initialize()
        for i in range(4):                      # four threads stuck: the cap for one worker
            # 60 s: all still stuck at the fifth call on a loaded machine (CI saw 5 s end).
            r = p.request(call_msg(i, "sleepy", {"seconds": 60}))
            self.assertIn("timed out", r["result"]["content"][0]["text"])
            time.sleep(0.3)                     # counted as stuck 0.25 s after its timeout
        r = p.request(call_msg(5, "quick"))
        self.assertEqual(r["result"], {"content": [{"type": "text", "text": "The server is busy: "
                         "4 calls are stuck in handlers that ignored their timeout; try again "
                         "later."}], "isError": True})
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": 6, "method": "ping"})["result"], {})

    def test_async_handlers_are_cancelled_at_their_timeout(self):
        p = self.spawn_script("workers=1", "timeout=0.15")
        p.initialize()
        for i in range(6):          # more than the stuck-thread cap of one worker
            r = p.request(call_msg(i, "async_sleeper"))
            self.assertIn("timed out", r["result"]["content"][0]["text"])
        # Six timeouts with one worker and room for four stuck threads: had the tasks not
        # been cancelled, the fifth call would have been refused as busy.
        self.assertEqual(p.request(call_msg(9, "quick"))["result"]["content"][0]["text"], "quick")
        self.assertEqual(p.close(), 0)

    def test_a_queued_call_times_out_on_time(self):
        # The only worker is busy with a long call; the watchdog has gone to sleep until
        # that call's distant deadline. A queued call with a short timeout wakes it.
        p = self.spawn_script("workers=1", "timeout=30")
        p.initialize()
        p.send(call_msg("long", "sleepy", {"seconds": 5.0}))
        p.send(call_msg("next", "sleepy", {"seconds": 0.1}))    # queued
        time.sleep(0.7)                           # the watchdog parks after 0.5 s of quiet
        p.send(call_msg("short", "short_timeout", {"seconds": 5}))
        r = p.recv()
        # Before "long" ends (4.3 s from now): a parked watchdog would see it only then.
        self.assertEqual(r["id"], "short")
        self.assertTrue(r["result"]["isError"])
        self.assertEqual([p.recv()["id"], p.recv()["id"]], ["long", "next"])

    def test_cancelled_queued_calls_free_their_slots(self):
        p = self.spawn_script("workers=1", "backlog=2")
        p.initialize()
        # Long enough never to end by itself on a loaded machine: it is cancelled.
        p.send(call_msg("long", "polite", {"seconds": 30}))
        time.sleep(0.05)
        p.send(call_msg("a", "quick"))
        p.send(call_msg("b", "quick"))
        for rid in ("a", "b"):
            p.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                    "params": {"requestId": rid}})
        p.send(call_msg("c", "quick"))
        p.silent(0.2)             # c waits in the freed backlog (not refused as busy)
        p.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": "long"}})
        self.assertEqual(p.recv()["id"], "c")
        p.silent(0.1)

    def test_randomised_mix_answers_every_id_once(self):
        r = random.Random(4242)
        p = self.spawn_script("workers=3")
        p.initialize()
        sent, cancelled = [], set()
        for i in range(80):
            kind = r.choice(["quick", "polite", "boom", "nope", "cancel", "ping", "bad"])
            if kind == "cancel" and sent:
                victim = r.choice(sent)
                cancelled.add(victim)
                p.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": victim}})
                continue
            rid = r.choice([i, "r%d" % i])
            if kind == "ping":
                p.send({"jsonrpc": "2.0", "id": rid, "method": "ping"})
            elif kind == "bad":
                p.send(call_msg(rid, "big", {"size": "x"}))
            else:
                p.send(call_msg(rid, kind if kind != "polite" else "polite",
                                {"seconds": r.uniform(0.01, 0.2)} if kind == "polite" else {}))
            sent.append(rid)
        self.assertEqual(p.close(), 0)
        answered = {}
        for line in p.raw[1:]:
            m = json.loads(line)
            key = json.dumps(m["id"])
            answered[key] = answered.get(key, 0) + 1
            self.assertEqual(WireSchemas.problems("2025-11-25", m), [])
        for rid in sent:
            n = answered.get(json.dumps(rid), 0)
            if rid in cancelled:
                self.assertLessEqual(n, 1)
            else:
                self.assertEqual(n, 1, rid)
        self.assertEqual(sum(answered.values()), len(answered))


class ScriptTools(ScriptTest):

    def start(self, *opts, version="2025-11-25"):
        p = self.spawn_script(*opts)
        p.initialize(version)
        return p

    def call(self, p, name, args=None, rid=1, meta=None):
        p.send(call_msg(rid, name, args, meta))

    def test_print_and_child_processes(self):
        p = self.start()
        self.call(p, "noisy")
        self.assertEqual(p.recv()["result"]["content"], [{"type": "text", "text": "quiet"}])
        self.call(p, "quick", rid=2)
        self.assertEqual(p.recv()["id"], 2)
        p.close()
        self.assertEqual(len(p.raw), 3)
        for s in (b"hello from print", b"raw write", b"fd one write", b"child process output"):
            self.assertIn(s, p.stderr)

    @unittest.skipIf(os.name == "nt", "closes fd 2 in the child before it starts (POSIX)")
    def test_the_guard_holds_with_stderr_closed(self):
        """Started with fd 2 closed (pythonw.exe, or a host that closes stderr), the server
        points fd 2 at the null device: its private copy of stdout is never fd 2, so a
        handler's prints and the server's own stderr lines stay out of the protocol stream."""
        msgs = [init_msg(), {"jsonrpc": "2.0", "method": "notifications/initialized"},
                call_msg(2, "noisy"), call_msg(3, "boom"), b"not json\n"]
        p = subprocess.Popen(PY + [self.script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             pass_fds=(), preexec_fn=lambda: os.close(2), cwd=HERE)
        self.addCleanup(p.kill)
        out, _ = p.communicate(b"".join(m if type(m) is bytes else json.dumps(m).encode() +
                                        b"\n" for m in msgs), timeout=TIMEOUT)
        self.assertEqual(p.returncode, 0)
        answers = {m.get("id"): m for m in map(json.loads, out.splitlines())}  # nothing else
        self.assertEqual(len(out.splitlines()), 4, out)
        self.assertEqual(sorted(answers, key=str), [1, 2, 3, None])
        self.assertEqual(answers[2]["result"]["content"], [{"type": "text", "text": "quiet"}])
        self.assertTrue(answers[3]["result"]["isError"])
        self.assertEqual(answers[None]["error"]["code"], -32700)

    @unittest.skipIf(os.name == "nt", "Windows has no SIGTERM to send")
    def test_sigterm_during_a_call(self):
        p = self.start()
        self.call(p, "sleepy", {"seconds": 30})
        time.sleep(0.2)
        p.p.send_signal(signal.SIGTERM)
        self.assertEqual(p.p.wait(5), 0)
        p.close()
        self.assertNotIn(b"Traceback", p.stderr)

    @unittest.skipUnless(hasattr(signal, "pthread_kill"), "POSIX threads only")
    def test_sigterm_that_lands_on_another_thread(self):
        # The kernel may give a process's SIGTERM to any thread; Python runs handlers on
        # the main thread only, which must therefore not sleep until EOF.
        script = os.path.join(self.tmp.name, "term_server.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent('''
                import signal, sys, threading
                sys.path.insert(0, %r)
                import mcp_stdio
                server = mcp_stdio.Server("term", "1")

                @server.tool
                def term() -> str:
                    """SIGTERM to this thread, which is not the main one."""
                    signal.pthread_kill(threading.get_ident(), signal.SIGTERM)
                    return "sent"
                sys.exit(server.run([]))
                ''' % HERE))
        p = subprocess.Popen(PY + [script], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.addCleanup(p.kill)
        p.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in (
            init_msg(), {"jsonrpc": "2.0", "method": "notifications/initialized"})))
        p.stdin.flush()
        self.assertIn(b'"id":1', p.stdout.readline())
        time.sleep(0.2)                  # the main thread now waits for the end
        p.stdin.write(json.dumps(call_msg(2, "term")).encode() + b"\n")
        p.stdin.flush()                  # stdin stays open: only the signal can end it
        self.assertEqual(p.wait(5), 0)
        self.assertIn(b"stopping on signal 15", p.stderr.read())
        for stream in (p.stdin, p.stdout, p.stderr):
            stream.close()

    def test_completion_handlers_cannot_stall_or_end_the_reader(self):
        p = self.start()

        def complete(rid, value):
            p.send(req_msg(rid, "completion/complete", {
                "ref": {"type": "ref/prompt", "name": "greet"},
                "argument": {"name": "name", "value": value}}))
        complete(1, "exit")                       # sys.exit() in author code
        r = p.recv()
        self.assertEqual((r["id"], r["error"]["code"]), (1, -32603))
        complete(2, "slow")                       # one second in author code
        p.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        self.assertEqual(p.recv()["id"], 3)       # answered meanwhile, not after it
        self.assertEqual(p.recv()["result"]["completion"]["values"], ["slow!"])
        self.assertEqual(p.close(), 0)
        self.assertIn(b"SystemExit", p.stderr)

    @unittest.skipUnless(sys.platform.startswith("linux"), "file descriptor limits: Linux")
    def test_out_of_file_descriptors(self):
        # Failure paths must not need what the failure took away: no import, no open().
        p = self.spawn(script=self.script, env={"TEST_NOFILE": "64"})
        p.initialize()
        for rid, name in ((1, "leak_fds"), (2, "boom")):
            self.call(p, name, rid=rid)
            r = p.recv()
            self.assertEqual(r["id"], rid)
            self.assertTrue(r["result"]["isError"])
            self.assertRegex(r["result"]["content"][0]["text"], r"^Tool %r failed: (OSError|"
                             r"RuntimeError) \(incident [0-9a-f]{8}\)" % name)
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": 3, "method": "ping"})["id"], 3)
        self.call(p, "release_fds", rid=4)
        self.assertEqual(p.recv()["result"]["content"][0]["text"], "released")
        self.call(p, "quick", rid=5)
        self.assertEqual(p.recv()["result"]["content"][0]["text"], "quick")
        self.assertEqual(p.close(), 0)

    def test_the_authors_logs_on_stderr(self):
        p = self.start()
        self.call(p, "logger", {"repeat": 3})
        self.assertEqual(p.recv()["result"]["content"][0]["text"], "logged")
        p.close()
        lines = p.stderr.decode().splitlines()
        self.assertIn("test-server: debug: at debug", lines)
        self.assertEqual(lines.count("test-server: info: the same line"), 3)   # never folded

    @unittest.skipUnless(hasattr(os, "openpty"), "needs a pseudo-terminal")
    def test_a_hint_when_started_in_a_terminal(self):
        master, slave = os.openpty()
        p = subprocess.Popen(SERVE, stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             cwd=HERE)
        self.addCleanup(p.kill)
        os.close(slave)
        first = p.stderr.readline()
        os.write(master, b"\x04")                   # Ctrl-D: end of input
        self.assertEqual(p.wait(TIMEOUT), 0)
        os.close(master)
        p.stdout.close()
        p.stderr.close()
        self.assertTrue(first.startswith(b"mcp-stdio-demo %s is an MCP server: it reads "
                                         b"JSON-RPC messages on stdin" % mcp_stdio.__version__.encode()))
        self.assertIn(b"Ctrl-D", first)

    def test_the_call_command_shows_an_incident(self):
        r = subprocess.run(SERVE + ["call", "boom", "--"] + PY + [self.script],
                           capture_output=True, cwd=HERE, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 1)
        self.assertRegex(r.stdout, rb"^Tool 'boom' failed: RuntimeError \(incident [0-9a-f]{8}\)")
        incident = r.stdout.split(b"incident ")[1][:8]
        self.assertIn(b"the server's stderr:\n", r.stderr)
        # The server names itself on stderr (its Server name), the command does too.
        self.assertIn(b"\ntest-server: incident " + incident + b" in tool \"boom\": RuntimeError",
                      r.stderr)
        self.assertIn(b"RuntimeError: secret internal detail", r.stderr)

    @unittest.skipIf(os.name == "nt", "Windows has no SIGINT to send a process")
    def test_a_server_stopped_by_a_signal_names_itself(self):
        p = subprocess.Popen(PY + [self.script], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.addCleanup(p.kill)
        p.stdin.write(json.dumps(init_msg()).encode() + b"\n")
        p.stdin.flush()
        self.assertIn(b'"result"', p.stdout.readline())
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=TIMEOUT)
        lines = err.splitlines()
        self.assertEqual(lines[-1], b"test-server: stopping on signal 2")
        self.assertEqual([x for x in lines if x.startswith(b"mcp_stdio:")], [])   # its warnings
        self.assertIn(b"test-server: warning: tool 'sleepy'", err)              # too

    @unittest.skipIf(os.name == "nt", "Windows has no SIGTERM, nor select() on pipes")
    def test_sigterm_finishes_the_line_being_written(self):
        p = subprocess.Popen(PY + [self.script, "max_response=8000000"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.addCleanup(p.kill)
        msgs = [init_msg(), {"jsonrpc": "2.0", "method": "notifications/initialized"},
                call_msg(2, "big", {"size": 3000000})]
        p.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in msgs))
        p.stdin.flush()
        self.assertIn(b'"id":1', p.stdout.readline())
        import select
        # The server has begun the 3 MB line (a loaded machine may take longer than a fixed
        # pause to get there), and is then blocked in its middle: the pipe holds 64 KB.
        self.assertTrue(select.select([p.stdout], [], [], 20)[0])
        time.sleep(0.3)
        start = time.monotonic()
        p.send_signal(signal.SIGTERM)
        # Read once the server says it stops (its main thread acts within 0.1 s): the
        # line's second of grace is then all the reader's, even on a loaded machine.
        err = b""
        while b"stopping on signal" not in err and time.monotonic() < start + 5:
            if select.select([p.stderr], [], [], 0.1)[0]:
                err += os.read(p.stderr.fileno(), 65536)
        self.assertIn(b"stopping on signal", err)
        rest = p.stdout.read()
        self.assertEqual(p.wait(5), 0)
        self.assertLess(time.monotonic() - start, 2.0)
        p.stdin.close()
        err += p.stderr.read()
        p.stdout.close()
        p.stderr.close()
        self.assertTrue(rest.endswith(b"\n"), "a cut line: %d bytes" % len(rest))
        self.assertEqual(json.loads(rest)["id"], 2)
        self.assertNotIn(b"Traceback", err)

    def test_handlers_cannot_take_stdin(self):
        p = self.start()
        self.call(p, "child_reads_stdin")       # a child that reads its stdin gets nothing
        for i in range(6):
            p.send({"jsonrpc": "2.0", "id": "ping%d" % i, "method": "ping"})
        got = [p.recv() for _ in range(7)]
        self.assertEqual([m["result"]["content"][0]["text"] for m in got if m["id"] == 1], ["0"])
        self.assertEqual(sorted(m["id"] for m in got if m["id"] != 1),
                         ["ping%d" % i for i in range(6)])
        self.call(p, "close_stdin", rid=2)      # closing fd 0 does not end serving
        self.assertEqual(p.recv()["result"]["content"][0]["text"], "closed")
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": 3, "method": "ping"})["id"], 3)
        self.assertEqual(p.close(), 0)

    def test_a_read_error_is_not_eof(self):
        rd, wr = os.pipe()                 # stdin is the write end: reading it fails (EBADF)
        try:
            r = subprocess.run(SERVE, stdin=wr, capture_output=True, cwd=HERE, timeout=TIMEOUT)
        finally:
            os.close(rd)
            os.close(wr)
        self.assertEqual((r.returncode, r.stdout), (1, b""))
        self.assertIn(b"cannot read stdin (Bad file descriptor); exiting", r.stderr)

    def test_stdout_guard_has_the_interface_of_stdout(self):
        p = self.start()
        self.call(p, "raw_stdout")
        self.assertEqual(p.recv()["result"]["content"][0]["text"], "ok")
        p.close()
        self.assertIn(b"bytes to stdout", p.stderr)
        self.assertIn(b"printed after close", p.stderr)

    def test_closed_stdout(self):
        r, w = os.pipe()
        p = subprocess.Popen(PY + [self.script], stdin=subprocess.PIPE, stdout=w,
                             stderr=subprocess.PIPE)
        self.addCleanup(p.kill)
        os.close(w)
        os.close(r)                      # the client closes its end of stdout
        msgs = [init_msg(), {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                             "params": {"name": "big", "arguments": {"size": 100000}}}]
        out, err = p.communicate(b"".join(json.dumps(m).encode() + b"\n" for m in msgs),
                                 timeout=TIMEOUT)
        self.assertEqual(p.returncode, 1)
        self.assertIn(b"stdout was closed", err)
        self.assertNotIn(b"Traceback", err)


###############################################################################
# Platforms: what to start, and how, on Linux, macOS and Windows ##############
###############################################################################

# A Windows machine as a host's server sees it: Node.js's folder on PATH (quoted, as an
# installer may write it), npm's .cmd shims in the user's folder, and names as Windows
# spells them (Path, SystemRoot).
WINDOWS_FILES = {"c:\\windows\\system32\\where.exe", "c:\\program files\\nodejs\\node.exe",
                 "c:\\program files\\nodejs\\npx.cmd", "c:\\users\\me\\appdata\\roaming\\npm"
                 "\\claude.cmd", "c:\\tools\\serve.bat", "c:\\tools\\serve"}
WINDOWS_ENV = {"Path": "C:\\Windows\\System32;\"C:\\Program Files\\nodejs\";;"
                       "C:\\Users\\me\\AppData\\Roaming\\npm",
               "PATHEXT": ".COM;.EXE;.BAT;.CMD;.VBS", "SystemRoot": "C:\\Windows"}


def windows_file(path):
    """A test of the files above, without case and with either slash, as Windows' file
    system has it."""
    return path.replace("/", "\\").lower() in WINDOWS_FILES


class Platforms(unittest.TestCase):
    """The platform decisions, each called with Windows', macOS's and Linux's facts."""

    def test_a_program_is_found_as_a_shell_finds_it_on_windows(self):
        find = mcp_stdio._find_program
        for program, found in (
                ("npx", "C:\\Program Files\\nodejs\\npx.cmd"),
                ("node", "C:\\Program Files\\nodejs\\node.exe"),
                ("NPX.CMD", "C:\\Program Files\\nodejs\\NPX.CMD"),
                ("claude", "C:\\Users\\me\\AppData\\Roaming\\npm\\claude.cmd"),
                ("where", "C:\\Windows\\System32\\where.exe"),
                ("C:\\tools\\serve", "C:\\tools\\serve.bat"),     # PATHEXT before the bare file
                ("C:/tools/serve.bat", "C:/tools/serve.bat"),
                ("uvx", None), ("C:\\tools\\nothing", None)):
            with self.subTest(program=program):
                self.assertEqual(find(program, WINDOWS_ENV, True, windows_file), found)
        # Without PATHEXT, Windows' default; the variable's name in any case.
        env = {"PATH": "C:\\Program Files\\nodejs"}
        self.assertEqual(find("npx", env, True, windows_file),
                         "C:\\Program Files\\nodejs\\npx.cmd")
        self.assertIsNone(find("npx", {}, True, windows_file))
        # Here, as POSIX shells do: PATH's own search.
        self.assertEqual(find("sh", {"PATH": "/nonexistent:/bin:/usr/bin"}, False),
                         shutil.which("sh", path="/bin:/usr/bin"))
        self.assertIsNone(find("sh", {"PATH": "/nonexistent"}, False))
        self.assertEqual(find(sys.executable, {}, False), sys.executable)

    def test_a_cmd_file_is_started_by_cmd_exe_with_its_arguments_quoted(self):
        start = mcp_stdio._what_to_start
        self.assertEqual(
            start(["npx", "-y", "@modelcontextprotocol/server-filesystem",
                   "C:\\Users\\me\\My Docs\\", "a&b|c<d>e^f(g)!h", ""], WINDOWS_ENV, True,
                  windows_file),
            '"C:\\Windows\\System32\\cmd.exe" /d /v:off /s /c ""C:\\Program Files\\nodejs'
            '\\npx.cmd" "-y" "@modelcontextprotocol/server-filesystem" "C:\\Users\\me\\My Docs'
            '\\\\" "a&b|c<d>e^f(g)!h" """')
        # An .exe gets its full path, and its arguments as Popen quotes a list.
        self.assertEqual(start(["node", "server.js", "a b"], WINDOWS_ENV, True, windows_file),
                         ["C:\\Program Files\\nodejs\\node.exe", "server.js", "a b"])
        # Not found: as given, for CreateProcess's own search and error.
        self.assertEqual(start(["uvx", "x"], WINDOWS_ENV, True, windows_file), ["uvx", "x"])
        # What cmd.exe reads even between quotes is refused, never passed through.
        for arg in ("%PATH%", 'say "hi"', "a\nb", "a\rb", "a\0b"):
            with self.subTest(arg=arg), self.assertRaisesRegex(ValueError, "cmd.exe reads"):
                start(["npx", "pkg", arg], WINDOWS_ENV, True, windows_file)
        # POSIX: the command as it is (Popen searches the environment's PATH).
        self.assertEqual(start(("npx", "%PATH%", 'a"b'), {"PATH": "/bin"}, False),
                         ["npx", "%PATH%", 'a"b'])

    def test_a_server_gets_a_process_group_of_its_own(self):
        self.assertEqual(mcp_stdio._popen_options(False), {"start_new_session": True})
        self.assertEqual(mcp_stdio._popen_options(True), {"creationflags": 0x08000200})

    def test_a_job_object_ends_what_the_server_started_or_none_is_made(self):
        """On Windows the server's process goes into a job that kills on close; a kernel
        that cannot make one (or raises) gives None, and the server runs without."""
        import ctypes

        class Kernel:
            def __init__(self, fails=None):
                self.fails, self.calls = fails, []

            def __getattr__(self, name):
                def call(*args):
                    self.calls.append((name, args))
                    if name == self.fails:
                        if name == "AssignProcessToJobObject":
                            raise OSError("access denied")
                        return 0
                    return 77 if name == "CreateJobObjectW" else 1
                return call
        kernel = Kernel()
        self.assertEqual(mcp_stdio._windows_job(5, kernel), 77)
        names = [name for name, _ in kernel.calls]
        self.assertEqual(names, ["CreateJobObjectW", "SetInformationJobObject",
                                 "AssignProcessToJobObject"])
        _, (job, kind, limits, size) = kernel.calls[1]
        self.assertEqual((job, kind, size), (77, 9, ctypes.sizeof(limits._obj)))
        self.assertEqual(limits._obj.BasicLimitInformation.LimitFlags, 0x2000)
        if ctypes.sizeof(ctypes.c_void_p) == 8:        # the documented x64 layout
            self.assertEqual(size, 144)
        self.assertEqual(kernel.calls[2][1], (77, 5))
        for fails, closed in (("CreateJobObjectW", False), ("SetInformationJobObject", True),
                              ("AssignProcessToJobObject", False)):
            with self.subTest(fails=fails):
                kernel = Kernel(fails)
                self.assertIsNone(mcp_stdio._windows_job(5, kernel))
                self.assertEqual(("CloseHandle", (77,)) in kernel.calls, closed)

    @unittest.skipIf(os.name == "nt", "process groups are POSIX")
    def test_without_waitid_a_child_left_in_the_group_ends_at_close(self):
        """macOS before Python 3.13 has no os.waitid, so close() reaps the server before it
        signals what the server left in its group: the group is signalled by its id."""
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        pid_file = os.path.join(folder, "child")
        code = ("import subprocess, sys\n"
                "c = subprocess.Popen([sys.executable, '-S', '-c', 'import time; "
                "time.sleep(120)'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n"
                "open(%r, 'w').write(str(c.pid))\n"
                "sys.stdin.readline()\n" % pid_file)
        c = mcp_stdio.Client(PY + ["-c", code], era="legacy", start_timeout=5)
        self.addCleanup(c.close)
        c.start()
        deadline = time.monotonic() + 10
        written = ""
        while not written:
            self.assertLess(time.monotonic(), deadline)
            time.sleep(0.05)
            if os.path.exists(pid_file):
                with open(pid_file) as f:
                    written = f.read()
        child = int(written)
        saved = os.waitid
        del os.waitid
        try:
            c.close(grace=0.5)
        finally:
            os.waitid = saved
        self.assertFalse(process_alive(child, 2.0), "the child outlived close()")

    @unittest.skipIf(os.name == "nt", "the POSIX way is what is compared")
    def test_closing_on_windows_leaves_a_held_pipe_to_its_reader(self):
        """On Windows a descriptor under a blocked read cannot be replaced without waiting
        for whoever holds its pipe: the wait for the readers ends at its bound, with the
        server gone and a child of it still holding stderr."""
        code = ("import subprocess, sys\n"
                "subprocess.Popen([sys.executable, '-S', '-c', 'import time; time.sleep(30)'],"
                " stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n")
        c = mcp_stdio.Client(PY + ["-c", code], era="legacy")
        self.addCleanup(c.close)
        c.start()
        self.assertEqual(c.exit_status(10), 0)
        start = time.monotonic()
        self.assertFalse(c._outputs_end(0.3, windows=True))
        self.assertLess(time.monotonic() - start, 2.0)
        self.assertTrue(any(t.is_alive() for t in c._readers))     # left reading, not replaced

    def test_a_host_on_windows_starts_servers_with_the_users_environment(self):
        """The doctor's model of a host on Windows: the user's PATH (";" between folders),
        PATHEXT and folders, so npx is found as Windows finds it; macOS's desktop apps get
        launchd's short PATH and "/"."""
        user = dict(WINDOWS_ENV, USERPROFILE="C:\\Users\\me", HOME="/ignored",
                    APPDATA="C:\\Users\\me\\AppData\\Roaming", SHELL="bash",
                    LOCALAPPDATA="C:\\Users\\me\\AppData\\Local", TEMP="C:\\Temp")
        desktop, code = mcp_stdio._HOSTS["claude-desktop"], mcp_stdio._HOSTS["claude-code"]
        env, cwd = mcp_stdio._host_environment(desktop, True, user)
        self.assertEqual(env, {"PATH": WINDOWS_ENV["Path"], "PATHEXT": WINDOWS_ENV["PATHEXT"],
                               "USERPROFILE": "C:\\Users\\me", "APPDATA": user["APPDATA"],
                               "LOCALAPPDATA": user["LOCALAPPDATA"],
                               "SystemRoot": "C:\\Windows", "TEMP": "C:\\Temp"})
        self.assertEqual(cwd, "C:\\Windows\\System32")
        self.assertEqual(mcp_stdio._host_environment(code, True, user)[1], "C:\\Users\\me")
        self.assertEqual(mcp_stdio._find_program("npx", env, True, windows_file),
                         "C:\\Program Files\\nodejs\\npx.cmd")
        mac = {"HOME": "/Users/me", "PATH": "/opt/homebrew/bin:/usr/bin:/bin"}
        self.assertEqual(mcp_stdio._host_environment(desktop, False, mac),
                         ({"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/Users/me"}, "/"))
        self.assertEqual(mcp_stdio._host_environment(code, False, mac),
                         ({"PATH": mac["PATH"], "HOME": "/Users/me"}, "/Users/me"))

    def test_claude_desktop_on_windows_reads_its_packages_file(self):
        """Claude Desktop is an MSIX package on Windows: its file is under LOCALAPPDATA's
        Packages\\Claude_*, preferred to a stale classic one; with several package folders
        install names them and writes nothing."""
        env = {"USERPROFILE": "C:\\Users\\me", "APPDATA": "C:\\Users\\me\\AppData\\Roaming",
               "LOCALAPPDATA": "C:\\Users\\me\\AppData\\Local"}
        classic = "C:\\Users\\me\\AppData\\Roaming\\Claude\\claude_desktop_config.json"
        packaged = ("C:\\Users\\me\\AppData\\Local\\Packages\\Claude_pzs8sxrjxfjjc\\LocalCache"
                    "\\Roaming\\Claude\\claude_desktop_config.json")

        def folders(*names):
            def listdir(path):
                self.assertEqual(path, "C:\\Users\\me\\AppData\\Local\\Packages")
                return list(names)
            return listdir

        def missing(path):
            raise FileNotFoundError(path)
        file = mcp_stdio._host_file
        self.assertEqual(file("claude-desktop", False, "win32", env, missing), classic)
        self.assertEqual(file("claude-desktop", False, "win32", env, folders("Other_1")),
                         classic)
        self.assertEqual(file("claude-desktop", False, "win32", env,
                              folders("Microsoft.X_1", "Claude_pzs8sxrjxfjjc")), packaged)
        with self.assertRaisesRegex(ValueError, "2 package folders.*Claude_a.*Claude_b"):
            file("claude-desktop", False, "win32", env, folders("Claude_b", "Claude_a"))
        self.assertEqual(file("cursor", False, "win32", env, missing),
                         "C:\\Users\\me\\.cursor\\mcp.json")
        self.assertEqual(file("claude-desktop", False, "darwin", {"HOME": "/Users/me"}),
                         "/Users/me/Library/Application Support/Claude/claude_desktop_config.json")
        self.assertEqual(file("vscode", False, "linux", {"HOME": "/home/me",
                                                         "XDG_CONFIG_HOME": "/home/me/.cfg"}),
                         "/home/me/.cfg/Code/User/mcp.json")

    def test_config_says_the_command_in_each_shell_of_windows(self):
        command = ["C:\\Program Files\\Python313\\python.exe", "C:\\srv\\server.py", "a b",
                   "it's", "C:\\My Docs\\", "x&y"]
        self.assertEqual(mcp_stdio._command_text(command, windows=True),
                         '"C:\\Program Files\\Python313\\python.exe" C:\\srv\\server.py "a b" '
                         '"it\'s" "C:\\My Docs\\\\" "x&y"')
        self.assertEqual(mcp_stdio._powershell_text(command),
                         "& 'C:\\Program Files\\Python313\\python.exe' 'C:\\srv\\server.py' 'a b' "
                         "'it''s' 'C:\\My Docs\\' 'x&y'")
        self.assertEqual(mcp_stdio._command_text(["/usr/bin/python3", "a b", "it's"],
                                                 windows=False),
                         "/usr/bin/python3 'a b' 'it'\"'\"'s'")

    def test_process_checks_look_without_proc(self):
        """The tests' check for a process left behind asks ps where there is no /proc
        (macOS), and agrees with /proc where there is one: a running process, a zombie,
        a process gone."""
        running = subprocess.Popen(PY + ["-S", "-c", "import time; time.sleep(30)"])
        self.addCleanup(running.wait)
        self.addCleanup(running.kill)
        zombie = subprocess.Popen(PY + ["-S", "-c", "pass"])
        self.addCleanup(zombie.wait)
        deadline = time.monotonic() + 10
        while process_runs(zombie.pid, "/nonexistent") and time.monotonic() < deadline:
            time.sleep(0.05)                 # exited, not yet reaped: a zombie
        gone = subprocess.Popen(PY + ["-S", "-c", "pass"])
        gone.wait()
        for proc in ("/proc", "/nonexistent"):
            if proc == "/proc" and not os.path.isdir(proc):
                continue
            with self.subTest(proc=proc):
                self.assertEqual([process_runs(p.pid, proc) for p in (running, zombie, gone)],
                                 [True, False, False])


###############################################################################
# Client ######################################################################
###############################################################################


class ClientTests(unittest.TestCase):

    def client(self, *args, **kw):
        c = mcp_stdio.Client(SERVE + list(args), timeout=TIMEOUT, cwd=HERE, **kw)
        self.addCleanup(c.close)
        return c.connect()

    def test_a_close_while_the_client_starts_joins_only_running_readers(self):
        """A proxy ending while a mount starts again closes a client whose start() is under
        way on another thread: close() never joins a reader that has not started (it
        raised RuntimeError, and the proxy's teardown failed with a traceback)."""
        from unittest import mock
        c = mcp_stdio.Client(SERVE, cwd=HERE)
        real_start, closed = threading.Thread.start, []

        def start(thread):           # this client's stdout reader (others may start too)
            if thread.name == "mcp-client-out" and not closed and \
                    getattr(getattr(thread, "_target", None), "__self__", None) is c:
                closed.append(c.close(0.5))     # another thread's close, within start()
            return real_start(thread)
        with mock.patch.object(threading.Thread, "start", start):
            c.start()
        self.assertEqual(closed, [0])
        self.assertEqual(c.close(), 0)

    def test_the_lines_a_request_is_sent_as(self):
        """Its _meta goes last, the caller's members after the ones every modern request
        carries (encoded once per client)."""
        trace = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        for era in ("modern", "legacy"):
            with self.subTest(era=era):
                transcript = []
                with mcp_stdio.InProcessClient(mcp_stdio.demo_server(), era=era,
                                               transcript=transcript) as c:
                    del transcript[:]
                    c.send("tools/call", {"name": "echo", "arguments": {"text": "é"},
                                          "_meta": {"traceparent": trace}},
                           on_progress=lambda *a: None).wait()
                    c.send("tools/list").wait()
                    c.send("tools/list", progress_token="t").wait()
                sent = [line for d, line in transcript if d == "sent"]
                # The capabilities name the extensions this build follows (tasks, if built in).
                followed = {r.key: {} for r in mcp_stdio._EXTENSIONS if r.follow is not None}
                stamp = ('"_meta":{"io.modelcontextprotocol/protocolVersion":"%s",'
                         '"io.modelcontextprotocol/clientInfo":{"name":"mcp_stdio-client",'
                         '"version":"%s"},"io.modelcontextprotocol/clientCapabilities":%s' % (
                             MODERN, mcp_stdio.__version__, json.dumps(
                                 {"extensions": followed} if followed else {},
                                 separators=(",", ":")))
                         ) if era == "modern" else None
                first, second, third = (line.decode("utf-8") for line in sent)
                head = '{"jsonrpc":"2.0","id":%d,"method":"%s","params":'
                if stamp:
                    self.assertEqual(first, head % (c._next_id - 2, "tools/call") +
                                     '{"name":"echo","arguments":{"text":"é"},' + stamp +
                                     ',"traceparent":"%s","progressToken":%d}}}\n' % (
                                         trace, c._next_id - 2))
                    self.assertEqual(second, head % (c._next_id - 1, "tools/list") +
                                     "{" + stamp + "}}}\n")
                    self.assertEqual(third, head % (c._next_id, "tools/list") +
                                     "{" + stamp + ',"progressToken":"t"}}}\n')
                else:
                    self.assertEqual(first, head % (c._next_id - 2, "tools/call") +
                                     '{"name":"echo","arguments":{"text":"é"},"_meta":{'
                                     '"traceparent":"%s","progressToken":%d}}}\n' % (
                                         trace, c._next_id - 2))
                    self.assertEqual(second, head % (c._next_id - 1, "tools/list") + "{}}\n")
                    self.assertEqual(third, head % (c._next_id, "tools/list") +
                                     '{"_meta":{"progressToken":"t"}}}\n')

    def test_each_era_and_revision(self):
        cases = [("auto", None, "modern", MODERN), ("modern", None, "modern", MODERN)]
        cases += [("legacy", r, "legacy", r) for r in LEGACY]
        for era, revision, got_era, got_rev in cases:
            with self.subTest(era=era, revision=revision):
                # The probe waits as long as the server may take to answer: on a loaded
                # machine a first answer after 3 s made auto initialize, and speak legacy.
                c = self.client(era=era, probe_timeout=TIMEOUT,
                                **({"revision": revision} if revision else {}))
                self.assertEqual((c.era, c.revision), (got_era, got_rev))
                self.assertEqual(c.server_info["name"], "mcp-stdio-demo")
                self.assertEqual([t["name"] for t in c.list_tools()],
                                 ["add", "confirm_echo", "countdown", "divide", "echo", "greet"])
                r = c.call_tool("add", {"a": 2, "b": 3})
                self.assertEqual(r["content"][0]["text"], '{"sum":5}')
                self.assertEqual(c.read_resource("demo://readme")["contents"][0]["mimeType"],
                                 "text/markdown")
                self.assertEqual(c.get_prompt("summarize", {"text": "x"})["messages"][0]["role"],
                                 "user")
                self.assertEqual(c.complete({"type": "ref/prompt", "name": "summarize"},
                                            "style", "s")["completion"]["values"], ["short"])
                with self.assertRaises(mcp_stdio.ProtocolError) as cm:
                    c.call_tool("nope")
                self.assertEqual(cm.exception.code, -32602)
                self.assertEqual(c.close(), 0)

    def test_pagination_is_followed(self):
        with mcp_stdio.InProcessClient(mcp_stdio.demo_server(page_size=1), era="legacy") as c:
            self.assertEqual(len(c.list_tools()), 6)
            self.assertEqual(len(c.list_resources()), 2)

    def test_progress_cancel_and_timeout(self):
        transcript = []
        c = self.client(era="legacy", transcript=transcript)
        seen = []
        r = c.call_tool("countdown", {"seconds": 0.3},
                        on_progress=lambda p, total, msg: seen.append((p, total)))
        self.assertEqual(seen, [(1, 3), (2, 3), (3, 3)])
        self.assertTrue(r["structuredContent"]["completed"])
        pending = c.send("tools/call", {"name": "countdown", "arguments": {"seconds": 5}})
        time.sleep(0.1)
        pending.cancel()
        with self.assertRaises(mcp_stdio.ClientError):
            pending.wait()
        # Timed out, a call is cancelled at the server (far from its end: a client starved
        # past it would find the answer there, and take it).
        with self.assertRaises(mcp_stdio.ClientError) as cm:
            c.call_tool("countdown", {"seconds": 10}, timeout=0.2)
        self.assertEqual(str(cm.exception), "no answer to tools/call within 0.2 s")
        cancels = [json.loads(line) for way, line in transcript
                   if way == "sent" and b"notifications/cancelled" in line]
        self.assertEqual([m["params"].get("reason") for m in cancels], [None, "timed out"])
        self.assertEqual(c.call_tool("echo", {"text": "still fine"})["structuredContent"],
                         {"text": "still fine"})
        start = time.monotonic()
        self.assertEqual(c.close(), 0)          # nothing left running at the server
        self.assertLess(time.monotonic() - start, 5)

    def test_logs_reach_the_callback(self):
        logs = []
        c = self.client(era="legacy", on_log=lambda level, data, logger: logs.append(level))
        c.request("logging/setLevel", {"level": "info"})
        c.call_tool("countdown", {"seconds": 0.1})
        self.assertEqual(logs, ["info"])

    def test_log_level_asks_for_log_messages_in_both_eras(self):
        for era in ("legacy", "modern"):
            for level, heard in (("debug", [("info", "countdown")]), ("error", []),
                                 (None, [])):
                with self.subTest(era=era, level=level):
                    logs = []
                    c = self.client(era=era, log_level=level, on_log=lambda *a: logs.append(a))
                    c.call_tool("countdown", {"seconds": 0.1})
                    self.assertEqual([(level, logger) for level, data, logger in logs], heard)
                    c.close()
        with self.assertRaises(ValueError):
            mcp_stdio.Client(SERVE, log_level="loud")

    def test_a_callback_that_raises_does_not_end_the_reader(self):
        def broken(level, data):          # one argument short
            raise AssertionError("never called with two")
        c = self.client(era="legacy", on_log=broken, log_level="info")
        self.assertTrue(c.call_tool("countdown", {"seconds": 0.1})["structuredContent"][
            "completed"])
        self.assertEqual(len(c.problems), 1)
        self.assertRegex(c.problems[0], r"^a callback for notifications/message raised "
                         r"TypeError: ")

    def test_misbehaving_servers(self):
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "broken.py")
            with open(script, "w") as f:
                f.write(BROKEN_SERVER)

            def connect(mode, **kw):
                kw.setdefault("timeout", TIMEOUT)      # generous: only a last guard
                c = mcp_stdio.Client(PY + [script, mode], **kw)
                self.addCleanup(c.close)
                return c
            c = connect("banner", era="legacy").connect()     # skipped, as official SDKs do
            self.assertEqual((c.skipped_lines, c.problems), (1, [
                "skipped a line that is not JSON-RPC: b'Starting my server v1.0'"]))
            with self.assertRaisesRegex(mcp_stdio.ClientError, "answered id 1001"):
                connect("wrong-id", era="legacy").connect()
            with self.assertRaisesRegex(mcp_stdio.ClientError, "no answer to initialize "
                                        "within 1 s of starting the server"):
                connect("silent", start_timeout=1, probe_timeout=0.2).connect()   # never answers
            with self.assertRaisesRegex(mcp_stdio.ClientError, "exited.*fatal: config missing"):
                connect("exit", era="legacy").connect()
            c = connect("legacy-only").connect()      # -32601 to the probe: fall back
            self.assertEqual((c.era, c.revision), ("legacy", "2025-06-18"))
            with self.assertRaisesRegex(mcp_stdio.ClientError, "the server does not speak "
                                        "protocol 2026-07-28 .*--era legacy"):
                connect("legacy-only", era="modern").connect()
            c = connect("legacy-only", era="legacy")
            self.assertEqual(c.list_tools(), [])     # the first request connects
            # A malformed answer answers its request (it waited for its timeout) and breaks
            # the connection: what else the server writes cannot be trusted.
            c = connect("null-result", era="legacy").connect()
            with self.assertRaises(mcp_stdio.ClientError) as cm:
                c.list_tools()
            self.assertEqual(str(cm.exception), "the server sent a malformed response: "
                             "b'{\"jsonrpc\": \"2.0\", \"id\": 2, \"result\": null}'")
            with self.assertRaisesRegex(mcp_stdio.ClientError, "malformed response"):
                c.request("ping")
            c = connect("answers-notifications", era="legacy").connect()
            c.list_tools()
            c.list_tools()      # the stray error after the first answer came before this one
            self.assertTrue(any("without id" in p for p in c.problems))

    def test_a_server_that_starts_slowly(self):
        """A late discover answer is used; -32022 to initialize means: speak modern."""
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "slow.py")
            with open(script, "w") as f:
                f.write(BROKEN_SERVER)
            # The command line runs meanwhile: inspected on the first run, the wait
            # said on stderr.
            cli = subprocess.Popen(SERVE + ["inspect", "--"] + PY + [script,
                                            "slow-modern"], cwd=HERE, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.addCleanup(cli.kill)
            waited = []
            c = mcp_stdio.Client(PY + [script, "slow-modern"],
                                 on_waiting=waited.append)
            self.addCleanup(c.close)
            c.connect()
            self.assertEqual((c.era, c.revision, c.server_info["name"]),
                             ("modern", "2026-07-28", "slow"))
            self.assertEqual(c.list_tools(), [])
            self.assertEqual(waited, [2.0])          # said once, after 2 s
            out, err = cli.communicate(timeout=120)
            self.assertEqual(cli.returncode, 0, err)
            self.assertIn(b"era: modern, protocol 2026-07-28", out)
            self.assertIn(b"waiting for the server to answer", err)

    def test_the_last_words_on_stderr_are_kept(self):
        """A server's stderr can end after it exits: the error still quotes it."""
        code = ("import subprocess, sys\n"
                "sys.stdin.readline()\n"
                "subprocess.Popen([sys.executable, '-S', '-c', 'import sys, time; "
                "time.sleep(0.05); sys.stderr.write(\"fatal: late\\\\n\")'],\n"
                "                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)\n"
                "sys.exit(3)\n")
        c = mcp_stdio.Client(PY + ["-c", code], era="legacy")
        self.addCleanup(c.close)
        with self.assertRaisesRegex(mcp_stdio.ClientError, r"status 3\); stderr: fatal: late"):
            c.connect()

    def test_command_must_be_a_list(self):
        with self.assertRaises(ValueError):
            mcp_stdio.Client("python server.py")

    def test_time_limits_must_be_ones_a_wait_can_take(self):
        for name in ("timeout", "probe_timeout", "start_timeout"):
            for value in (0, -1, None, float("inf"), float("nan"), 1e10, "30"):
                with self.subTest(name=name, value=value):
                    with self.assertRaises(ValueError) as cm:
                        mcp_stdio.Client(["x"], **{name: value})
                    self.assertEqual(str(cm.exception),
                                     "%s must be a positive number of seconds" % name)


class ClientAnswers(unittest.TestCase):
    """The built-in client answers what a server asks, in both eras, or says it cannot."""

    def test_modern_rounds_use_the_callbacks(self):
        with mcp_stdio.InProcessClient(asking_server(), era="modern",
                                       on_elicit=lambda p: {"action": "accept",
                                                            "content": {"name": "Bo"}},
                                       on_sample=lambda p: SAMPLED,
                                       roots=lambda: ROOTS["roots"]) as c:
            self.assertEqual(c.call_tool("trio")["content"][0]["text"],
                             "accept|Bo|Hello there|file:///work,file:///tmp")
            self.assertEqual(c.call_tool("rounds")["content"][0]["text"], "Bo/Hello there")

    def test_async_handlers_ask_too(self):
        server = mcp_stdio.Server("a", "1")

        @server.tool
        async def ask_async(ctx: mcp_stdio.Context) -> str:
            """Ask from a coroutine."""
            r = ctx.ask(n=mcp_stdio.Form("Name?", NAME_FORM), s=mcp_stdio.Sample("hi"))
            return "%s %s" % (r["n"].content["name"], r["s"].text)
        for era in ("modern", "legacy"):
            with mcp_stdio.InProcessClient(server, era=era, on_sample=lambda p: SAMPLED,
                                           on_elicit=lambda p: {"action": "accept",
                                                                "content": {"name": "Al"}}) as c:
                self.assertEqual(c.call_tool("ask_async")["content"][0]["text"],
                                 "Al Hello there", era)

    def test_a_question_without_an_answer(self):
        with mcp_stdio.InProcessClient(asking_server(), era="modern",
                                       capabilities={"sampling": {}}) as c:
            with self.assertRaises(mcp_stdio.ClientError) as cm:
                c.call_tool("swallow")
            self.assertIn('asks "sample-1" ("sampling/createMessage"), which this client '
                          'cannot answer', str(cm.exception))

    def test_ping_and_unknown_server_requests(self):
        c = mcp_stdio.InProcessClient(mcp_stdio.Server("s", "1"), era="legacy",
                                      transcript=[])
        with c:
            c._receive(b'{"jsonrpc":"2.0","id":"p1","method":"ping"}')
            c._receive(b'{"jsonrpc":"2.0","id":"r1","method":"roots/list"}')
            sent = [json.loads(line) for d, line in c.transcript if d == "sent"][-2:]
        self.assertEqual(sent, [{"jsonrpc": "2.0", "id": "p1", "result": {}},
                                {"jsonrpc": "2.0", "id": "r1", "error": {
                                    "code": -32601, "message": "Method not found"}}])


class InProcess(unittest.TestCase):
    """InProcessClient: the methods of Client over a Server object in this process."""

    def example(self, name):
        import runpy
        return runpy.run_path(os.path.join(HERE, "examples", name), run_name="example")

    def test_a_tool_test_in_microseconds(self):
        server = mcp_stdio.Server("calc", "1.0")
        ran_on = set()

        @server.tool
        def add(a: float, b: float) -> dict:
            """Add two numbers."""
            ran_on.add(threading.get_ident())
            return {"sum": a + b}
        with mcp_stdio.InProcessClient(server) as client:
            self.assertEqual(client.call_tool("add", {"a": 1, "b": 2})["structuredContent"],
                             {"sum": 3})
            # No process, no pipe, no other thread: each call runs on this one, at once
            # (its speed is benchmarks/' to measure; a timed assertion failed under load).
            for _ in range(200):
                client.call_tool("add", {"a": 1, "b": 2})
            self.assertEqual((client._proc, client._readers, ran_on),
                             (None, [], {threading.get_ident()}))

    def test_text_results_exactly(self):
        # Text is the most common answer and takes a short path: the same bytes as the
        # general one, long text included, and still an error where an outputSchema
        # promised structured content.
        m = mcp_stdio
        server = m.Server("s", "1", tools=[
            m.Tool("t", lambda a, c: "h\u00e9 \"q\"\n"), m.Tool("long", lambda a, c: "x" * 5000),
            m.Tool("typed", lambda a, c: "text", output_schema={"type": "object"}),
            m.Tool("odd", lambda a, c: "\x01\t\u2028\U0001f600\\"),
            m.Tool("lone", lambda a, c: "a\ud800")])
        for modern in (False, True):
            out = []
            conn = connect(server, out.append)
            if not modern:
                conn.feed(json.dumps(req_msg(0, "initialize", {
                    "protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "c", "version": "1"}})).encode() + b"\n")
            for rid, name in enumerate(("t", "long", "typed", "odd", "lone"), 1):
                for item in conn.feed(json.dumps(req_msg(rid, "tools/call", {"name": name},
                                                         modern)).encode() + b"\n"):
                    conn.run(item)
            stamp = b',"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":' \
                    b'{"name":"s","version":"1"}}' if modern else b""
            self.assertEqual(out[0], b'{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":'
                             b'"text","text":"h\xc3\xa9 \\"q\\"\\n"}]' + stamp + b'}}\n')
            self.assertEqual(out[1], b'{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":'
                             b'"text","text":"' + b"x" * 5000 + b'"}]' + stamp + b'}}\n')
            self.assertEqual(json.loads(out[2])["result"]["isError"], True)
            self.assertIn("declares an outputSchema but returned no structured content",
                          json.loads(out[2])["result"]["content"][0]["text"])
            odd = json.dumps({"content": [{"type": "text", "text": "\x01\t\u2028\U0001f600\\"}]},
                             ensure_ascii=False, separators=(",", ":"))
            self.assertEqual(out[3], b'{"jsonrpc":"2.0","id":4,"result":' + odd[:-1].encode()
                             + stamp + b'}}\n')
            lone = json.loads(out[4])["result"]
            self.assertEqual(lone["isError"], True)
            self.assertIn("returned an invalid result: it holds a string that is not valid "
                          "Unicode", lone["content"][0]["text"])

    def test_asking_the_user_in_both_eras(self):
        answers = []

        def on_elicit(params):
            answers.append(params["message"])
            return {"action": "accept", "content": {"confirm": True}}
        for era in ("legacy", "modern"):
            with mcp_stdio.InProcessClient(mcp_stdio.demo_server(), era=era,
                                           on_elicit=on_elicit) as c:
                r = c.call_tool("confirm_echo", {"text": "hi"})
                self.assertEqual(r["content"], [{"type": "text", "text": "hi"}])
            with mcp_stdio.InProcessClient(mcp_stdio.demo_server(), era=era) as c:
                if era == "legacy":         # no way to ask: a tool error the model can read
                    r = c.call_tool("confirm_echo", {"text": "hi"})
                    self.assertIn("does not support elicitation", r["content"][0]["text"])
                else:                       # the client capability is missing: -32021
                    with self.assertRaises(mcp_stdio.ProtocolError) as cm:
                        c.call_tool("confirm_echo", {"text": "hi"})
                    self.assertEqual(cm.exception.code, -32021)
        self.assertEqual(len(answers), 2)

    def test_lifespan_and_state(self):
        events = []

        def lifespan(server):
            events.append("setup")
            yield {"answer": 42}
            events.append("teardown")
        server = mcp_stdio.Server("s", "1", lifespan=lifespan)

        @server.tool
        def answer(ctx: mcp_stdio.Context) -> str:
            """The answer."""
            return str(ctx.state["answer"])
        with mcp_stdio.InProcessClient(server, era="legacy") as c:
            self.assertEqual(events, ["setup"])
            self.assertEqual(c.call_tool("answer")["content"][0]["text"], "42")
        self.assertEqual(events, ["setup", "teardown"])

    def test_adding_a_decorated_function_while_serving(self):
        """server.tool(fn) adds while serving; add() of what it registered does nothing more."""
        server = mcp_stdio.Server("s", "1", live=True)
        with mcp_stdio.InProcessClient(server) as c:
            def late(x: int) -> int:
                """Added while serving."""
                return x + 1
            self.assertIs(server.add(server.tool(late)), None)
            self.assertEqual([t["name"] for t in c.list_tools()], ["late"])
            self.assertEqual(c.call_tool("late", {"x": 1})["content"][0]["text"], "2")
            server.add(late)                       # again: nothing happens
            self.assertEqual(len(server.tools), 1)
            with self.assertRaisesRegex(mcp_stdio.CatalogError, r"register a function with "
                                        r"server\.tool\(fn\)"):
                server.add(lambda: 1)

    def test_a_resource_may_return_any_json_value(self):
        """Lists of objects are JSON data, not contents: contents are marked ResourceContents."""
        server = mcp_stdio.Server("s", "1")

        @server.resource("data://rows")
        def rows():
            """Rows."""
            return [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]

        @server.resource("data://answer", mime_type="text/x-number")
        def answer():
            """The answer."""
            return 42

        @server.resource("data://two")
        def two():
            """Two contents."""
            return mcp_stdio.ResourceContents([{"uri": "data://two#1", "text": "one"},
                                               {"uri": "data://two#2", "blob": "AAE="}])

        @server.resource_template("data://row/{n}")
        def row(n: int):
            """One row."""
            return [{"uri": "x", "text": "looks like contents"}][:n]
        with mcp_stdio.InProcessClient(server) as c:
            self.assertEqual(c.read_resource("data://rows")["contents"], [{
                "uri": "data://rows", "text": '[{"id":1,"name":"a"},{"id":2,"name":"b"}]',
                "mimeType": "application/json"}])
            self.assertEqual(c.read_resource("data://answer")["contents"], [{
                "uri": "data://answer", "text": "42", "mimeType": "text/x-number"}])
            self.assertEqual(c.read_resource("data://two")["contents"], [
                {"uri": "data://two#1", "text": "one"}, {"uri": "data://two#2", "blob": "AAE="}])
            self.assertEqual(c.read_resource("data://row/1")["contents"], [{
                "uri": "data://row/1", "text": '[{"uri":"x","text":"looks like contents"}]',
                "mimeType": "application/json"}])
            self.assertEqual(c.read_resource("data://row/0")["contents"][0]["text"], "[]")

    def test_each_serve_enters_the_lifespan_afresh(self):
        """The README's testing pattern: a client per test, each with its own setup and teardown."""
        import sqlite3
        events = []

        @contextlib.contextmanager
        def lifespan(server):
            db = sqlite3.connect(":memory:", check_same_thread=False)
            db.execute("create table t (x)")
            events.append("setup")
            yield {"db": db}
            db.close()
            events.append("teardown")
        server = mcp_stdio.Server("s", "1", lifespan=lifespan)

        @server.tool
        def count(ctx: mcp_stdio.Context) -> str:
            """Add a row and count the rows of this serve's database."""
            ctx.state["db"].execute("insert into t values (1)")
            return str(ctx.state["db"].execute("select count(*) from t").fetchone()[0])
        for _ in range(2):              # each test of a suite: a fresh database
            with mcp_stdio.InProcessClient(server) as c:
                self.assertEqual(c.call_tool("count")["content"][0]["text"], "1")
                self.assertEqual(c.call_tool("count")["content"][0]["text"], "2")
        self.assertEqual(events, ["setup", "teardown"] * 2)
        with mcp_stdio.InProcessClient(server) as a, mcp_stdio.InProcessClient(server) as b:
            self.assertEqual(a.call_tool("count")["content"][0]["text"], "1")
            self.assertEqual(a.call_tool("count")["content"][0]["text"], "2")
            self.assertEqual(b.call_tool("count")["content"][0]["text"], "1")   # its own state
            self.assertIs(server.state, b._lifespan.state)     # the serve that started last
        self.assertEqual(events, ["setup", "teardown"] * 2 + ["setup", "setup", "teardown",
                                                             "teardown"])

    def test_async_lifespans(self):
        import asyncio
        events = []

        async def agen(server):
            await asyncio.sleep(0)
            events.append("setup")
            yield "from an async generator"
            events.append("teardown")

        @contextlib.asynccontextmanager
        async def acm(server):
            events.append("setup")
            yield "from an async context manager"
            events.append("teardown")
        for lifespan in (agen, acm):
            server = mcp_stdio.Server("s", "1", lifespan=lifespan)
            server.add(mcp_stdio.Tool("state", lambda a, ctx: ctx.state))
            with mcp_stdio.InProcessClient(server, era="modern") as c:
                self.assertEqual(c.call_tool("state")["content"][0]["text"], server.state)
            self.assertTrue(server.state.startswith("from an async"))
        self.assertEqual(events, ["setup", "teardown"] * 2)


class InProcessBytes(unittest.TestCase):
    """InProcessClient and a real process exchange the same bytes."""

    def example(self, name):
        import runpy
        return runpy.run_path(os.path.join(HERE, "examples", name), run_name="example")

    def test_the_same_bytes_as_a_real_process(self):
        script = os.path.join(HERE, "examples", "notes_server.py")
        for era in ("legacy", "modern"):
            with self.subTest(era=era), tempfile.TemporaryDirectory() as tmp:
                transcripts = []
                for local in (True, False):
                    folder = os.path.join(tmp, "local" if local else "process")
                    lines = []
                    if local:
                        # The folder is set in the module, never in os.environ: a process
                        # another test starts meanwhile would inherit it.
                        example = self.example("notes_server.py")
                        example["add_note"].__globals__["NOTES"] = folder
                        for uri in list(example["server"].resources):   # from the default
                            example["server"].remove_resource(uri)
                        client = mcp_stdio.InProcessClient(example["server"], era=era,
                                                           transcript=lines)
                    else:
                        client = mcp_stdio.Client(PY + [script], era=era,
                                                  transcript=lines, timeout=TIMEOUT,
                                                  env=dict(os.environ, NOTES_DIR=folder))
                    with client as c:
                        c.list_tools()
                        c.call_tool("add_note", {"name": "groceries", "text": "eggs, milk"})
                        c.call_tool("search_notes", {"query": "MILK"})
                        c.call_tool("add_note", {"name": "bad name!", "text": "x"})
                        c.read_resource("notes://groceries")
                        c.get_prompt("summarize_note", {"name": "groceries"})
                        c.complete({"type": "ref/resource", "uri": "notes://{name}"},
                                   "name", "gro")
                        if not local:    # a process sends change notifications a little later
                            want = sum(b'"id"' not in line and way == "received"
                                       for way, line in transcripts[0])
                            end = time.monotonic() + TIMEOUT
                            while time.monotonic() < end and sum(
                                    b'"id"' not in line and way == "received"
                                    for way, line in lines) < want:
                                time.sleep(0.01)
                    transcripts.append(lines)
                # Change notifications are timing-dependent: a real process coalesces them
                # for a few milliseconds, in-process they come at once. All else is equal.
                exchanged = [[(way, line) for way, line in t if b'"id"' in line or way == "sent"]
                             for t in transcripts]
                self.assertEqual(exchanged[0], exchanged[1])
                self.assertGreater(len(exchanged[0]), 12)
                heard = [sorted(line for way, line in t if b'"id"' not in line and
                                way == "received") for t in transcripts]
                self.assertEqual(heard[0], heard[1])


###############################################################################
# Mounting: one server in front of many #######################################
###############################################################################


class Mounting(unittest.TestCase):
    """Another server served as part of ours, in this process."""

    def test_a_relayed_result_is_shaped_as_our_own_for_the_callers_revision(self):
        """A mounted tool's result is checked as the client checks any (a malformed one is
        MalformedResult), then shaped as our handler's value would be: down-levelled for
        the caller's revision and held to the tool's output schema."""
        import types
        plain = mcp_stdio.Tool("t", lambda a, c: "")
        typed = mcp_stdio.Tool("s", lambda a, c: "", output_schema={
            "type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]})
        text = {"type": "text", "text": "hi"}
        dated = dict(text, annotations={"lastModified": "2025-01-01T00:00:00Z"})

        def relayed(tool, r, revision):
            call = types.SimpleNamespace(target=tool, revision=revision, keeper=None,
                                         conn=types.SimpleNamespace(_chains={}))
            try:
                return mcp_stdio._relayed_result(call, r)
            except Exception as e:   # noqa: BLE001 - the exception's kind is compared
                return type(e).__name__
        old, new = "2024-11-05", "2025-11-25"
        for tool, r, revision, expected in (
                (plain, {"content": [text]}, old, {"content": [text]}),
                (plain, {"content": [text], "isError": True, "structuredContent": {"n": 1}},
                 new, {"content": [text], "isError": True}),
                (plain, {"content": [dated]}, old, {"content": [dict(text, annotations={})]}),
                (plain, {"content": [dated]}, new, {"content": [dated]}),
                (plain, {"content": [dict(text, _meta={"k": 1})]}, old, {"content": [text]}),
                (plain, {"content": [text], "structuredContent": {"n": 1}}, old,
                 {"content": [text]}),
                (plain, {"content": [text], "structuredContent": {"n": 1}}, new,
                 {"content": [text], "structuredContent": {"n": 1}}),
                (plain, {"content": [text], "structuredContent": [1]}, new,
                 {"content": [text], "structuredContent": {"result": [1]}}),
                (plain, {"content": [text], "resultType": "complete", "_meta": {"x": 1}}, new,
                 {"content": [text]}),
                (plain, {"content": []}, new, {"content": []}),
                (plain, {"content": "hi"}, new, "MalformedResult"),
                (plain, {"content": [{"type": "text"}]}, new, "MalformedResult"),
                (plain, {"content": [text], "isError": "yes"}, new, "MalformedResult"),
                (typed, {"content": [text], "structuredContent": {"n": 1}}, new,
                 {"content": [text], "structuredContent": {"n": 1}}),
                (typed, {"content": [text], "structuredContent": {"n": "one"}}, new,
                 "_ResultInvalid"),
                (typed, {"content": [text]}, new, "_ResultInvalid"),
                (typed, {"content": [text], "isError": True}, new,
                 {"content": [text], "isError": True})):
            with self.subTest(tool=tool.name, result=r, revision=revision):
                self.assertEqual(relayed(tool, r, revision), expected)

    def test_a_servers_instructions_are_its_own_then_each_mounts(self):
        """initialize and server/discover give this server's instructions, then each mount's
        under its name, in the order mounted; a mount without any adds nothing; one still
        starting when mount_wait ends is named so; the whole is cut to 2,048 characters,
        each mount's to its share."""
        outer = mcp_stdio.Server("outer", "1", instructions="Outer notes.")
        outer.mount("a", mcp_stdio.Server("a", "1", instructions="Use a for x."))
        outer.mount("b", mcp_stdio.Server("b", "1"))
        outer.mount("c", mcp_stdio.Server("c", "1", instructions="C first."))
        for era in ("legacy", "modern"):
            with self.subTest(era=era), mcp_stdio.InProcessClient(outer, era=era) as c:
                self.assertEqual(c.instructions, "Outer notes.\n\n## a\nUse a for x.\n\n"
                                                 "## c\nC first.")
        long = mcp_stdio.Server("long", "1")
        long.mount("x", mcp_stdio.Server("x", "1", instructions="word " * 600))
        long.mount("y", mcp_stdio.Server("y", "1", instructions="short."))
        with mcp_stdio.InProcessClient(long, era="legacy") as c:
            text = c.instructions
        self.assertLessEqual(len(text), 2048)
        self.assertTrue(text.startswith("## x\nword word"))
        self.assertIn(" ...\n\n## y\nshort.", text)
        slow = mcp_stdio.Server("slow", "1", mount_wait=0.3)
        slow.mount("late", PY + ["-S", "-c", "import time; time.sleep(30)"], start_timeout=5)
        slow.mount("demo", mcp_stdio.demo_server())
        started = time.monotonic()
        with mcp_stdio.InProcessClient(slow, era="legacy") as c:
            self.assertLess(time.monotonic() - started, 3.0)
            self.assertEqual(c.instructions.split("\n\n")[0],
                             "## late\n(starting: its instructions are not in yet)")
            self.assertIn("## demo\nDemo server of mcp_stdio.", c.instructions)

    def test_a_mounted_error_keeps_its_code_only_where_it_means_the_same(self):
        inner = mcp_stdio.Server("inner", "1")
        for code in (-32602, -31005, 7, -32001, -32022, -32099, -32021, -32002, -32042):
            def fails(a, c, code=code):
                raise mcp_stdio.ProtocolError(code, "said by the mount", {"k": code})
            inner.add(mcp_stdio.Tool("t%d" % -code, fails))
        outer = mcp_stdio.Server("outer", "1")
        outer.mount("m", inner)
        legacy = {-32602: -32602, -31005: -31005, 7: 7, -32001: -32603, -32022: -32603,
                  -32099: -32603, -32002: -32002, -32042: -32603}
        modern = dict(legacy)
        modern.update({-32021: -32021, -32002: -32602})
        for era, want in (("legacy", legacy), ("modern", modern)):
            with mcp_stdio.InProcessClient(outer, era=era) as c:
                c.list_tools()
                if era == "legacy":       # a capability refused as a legacy tool refuses it
                    self.assertEqual(c.call_tool("m_t32021", {}), {"content": [
                        {"type": "text", "text": "said by the mount"}], "isError": True})
                for code, got in want.items():
                    with self.subTest(era=era, code=code):
                        with self.assertRaises(mcp_stdio.ServerError) as e:
                            c.call_tool("m_t%d" % -code, {})
                        self.assertEqual((e.exception.code, e.exception.data), (got, {"k": code}))
                        self.assertEqual(e.exception.message, "said by the mount" if got == code
                                         else "Internal error: mount 'm' answered %d: said by "
                                         "the mount" % code if got == -32603 else
                                         "said by the mount")

    def test_a_kind_that_fails_to_list_is_served_empty_and_the_rest_serve(self):
        """As mcp-server-sqlite does: it declares resources and answers -32601 to
        resources/templates/list."""
        inner = mcp_stdio.Server("sqlite-like", "1")
        inner.add(mcp_stdio.Tool("read_query", lambda a, c: "rows"))
        inner.add(mcp_stdio.Resource("memo://insights", lambda u, c: "memo"))

        @inner.middleware(kinds="list")
        def no_templates(request, next):
            if request.method == "resources/templates/list":
                raise mcp_stdio.ProtocolError(-32601, "Method not found")
            return next()
        outer = mcp_stdio.Server("outer", "1")
        outer.mount("sqlite", inner)
        for era in ("legacy", "modern"):
            with self.subTest(era=era), mcp_stdio.InProcessClient(outer, era=era) as c:
                self.assertEqual([t["name"] for t in c.list_tools()], ["sqlite_read_query"])
                self.assertEqual(c.call_tool("sqlite_read_query", {})["content"][0]["text"],
                                 "rows")
                self.assertEqual([r["uri"] for r in c.list_resources()], ["memo://insights"])
                self.assertEqual(c.list_resource_templates(), [])
            self.assertIn("mount 'sqlite': resources/templates/list failed: -32601 Method not "
                          "found; its resource templates are served empty", c.stderr)
            self.assertNotIn("starting it again", c.stderr)

    def test_names_uris_and_answers_in_both_eras(self):
        server = mounted_server()
        for era, rev in (("legacy", "2025-11-25"), ("modern", MODERN)):
            with self.subTest(era=era):
                transcript = []
                with mcp_stdio.InProcessClient(server, era=era, transcript=transcript) as c:
                    tools = [t["name"] for t in c.list_tools()]
                    self.assertEqual(tools, ["demo_" + t for t in sorted(
                        mcp_stdio.demo_server().tools)] + ["hello"])     # listed by name
                    self.assertEqual(c.call_tool("demo_add", {"a": 1, "b": 2})[
                        "structuredContent"], {"sum": 3})
                    r = c.call_tool("demo_divide", {"dividend": 1, "divisor": 0})
                    self.assertTrue(r["isError"])                 # the mount's own isError
                    self.assertEqual([p["name"] for p in c.list_prompts()], ["demo_summarize"])
                    text = c.get_prompt("demo_summarize", {"text": "abc"})["messages"][0]
                    self.assertIn("abc", text["content"]["text"])
                    done = c.complete({"type": "ref/prompt", "name": "demo_summarize"},
                                      "style", "b")
                    self.assertEqual(done["completion"]["values"], ["bullet points"])
                    # URIs stay as they are; ours wins a clash, the mount's others are served.
                    uris = [r["uri"] for r in c.list_resources()]
                    self.assertEqual(sorted(uris), ["demo://logo.png", "demo://readme"])
                    self.assertEqual(c.read_resource("demo://readme")["contents"][0]["text"],
                                     "our readme")
                    self.assertTrue(c.read_resource("demo://logo.png")["contents"][0]["blob"])
                    self.assertEqual(c.list_resource_templates()[0]["uriTemplate"],
                                     "demo://greeting/{name}")
                    self.assertIn("Ada", c.read_resource("demo://greeting/Ada")[
                        "contents"][0]["text"])
                    done = c.complete({"type": "ref/resource", "uri": "demo://greeting/{name}"},
                                      "name", "A")
                    self.assertIn("Ada", done["completion"]["values"])
                self.assertIn("mount 'demo': resource 'demo://readme' is served already (by the "
                              "server or an earlier mount); this one is not", c.stderr)
                if WireSchemas.available():
                    for direction, line in transcript:
                        if direction == "received":
                            m = json.loads(line)
                            self.assertEqual(WireSchemas.problems(rev, m), [], line[:200])

    def test_a_mounts_list_changes_and_resource_updates_become_ours(self):
        """A mount's list change reaches our clients as ours (a modern mount's comes on the
        listen stream its client opens), and so does an update of a resource we serve of
        it, to the clients subscribed to it: four pairings of the eras."""
        for mount_era, our_era in itertools.product(("legacy", "modern"), repeat=2):
            with self.subTest(mount=mount_era, ours=our_era):
                inner = mcp_stdio.Server("inner", "1", live=True)
                inner.add(mcp_stdio.Tool("first", lambda a, ctx: "1"),
                          mcp_stdio.Resource("notes://a", lambda uri, ctx: "a"),
                          mcp_stdio.Resource("notes://b", lambda uri, ctx: "b"))
                outer = mcp_stdio.Server("front", "1")
                outer.mount("in", inner, era=mount_era)
                changes, updates = [], []
                with mcp_stdio.InProcessClient(outer, era=our_era, on_changed=changes.append,
                                               on_updated=updates.append) as c:
                    self.assertEqual([t["name"] for t in c.list_tools()], ["in_first"])
                    mount = outer.sources[0]
                    self.assertEqual(mount.client.era, mount_era)
                    c.listen(["notes://a"])
                    del changes[:]
                    inner.add(mcp_stdio.Tool("second", lambda a, ctx: "2"))
                    deadline = time.monotonic() + 10
                    names = []
                    while time.monotonic() < deadline and not (
                            "notifications/tools/list_changed" in changes and
                            names == ["in_first", "in_second"]):
                        time.sleep(0.02)
                        names = [t["name"] for t in c.list_tools()]
                    self.assertIn("notifications/tools/list_changed", changes)
                    self.assertEqual(names, ["in_first", "in_second"])
                    inner.notify_resource_updated("notes://b")      # nobody subscribed
                    inner.notify_resource_updated("notes://a")
                    deadline = time.monotonic() + 10
                    while not updates and time.monotonic() < deadline:
                        time.sleep(0.01)
                    time.sleep(0.05)
                    self.assertEqual(updates, ["notes://a"])
                self.assertNotIn("cannot subscribe", c.stderr)

    def test_what_mount_refuses(self):
        server = mcp_stdio.Server("front", "1")
        for prefix, command in (("a b", ["x"]), ("", ["x"]), ("x" * 65, ["x"]),
                                ("ok", "python server.py"), ("ok", [])):
            with self.subTest(prefix=prefix, command=command):
                with self.assertRaises(mcp_stdio.CatalogError) as cm:
                    server.mount(prefix, command)
                self.assertIn("mount ", str(cm.exception))
        for name in ("start_timeout", "ping_timeout"):
            for value in (0, -1, float("inf"), float("nan"), 1e10, True, "10"):
                with self.subTest(name=name, value=value):
                    with self.assertRaises(mcp_stdio.CatalogError) as cm:
                        server.mount("ok", ["x"], **{name: value})
                    self.assertEqual(str(cm.exception),
                                     "mount 'ok': %s must be a positive number of seconds" % name)
        for options, said in (
                ({"include": "echo"}, "include must be a list of names or shell-style patterns"),
                ({"exclude": ["ok", ""]}, "exclude must be a list of names or shell-style "
                                          "patterns"),
                ({"rename": [("a", "b")]}, "rename must map the mount's names to ours "
                                           "(strings)"),
                ({"rename": {"a": 1}}, "rename must map the mount's names to ours (strings)")):
            with self.subTest(options=options):
                with self.assertRaises(mcp_stdio.CatalogError) as cm:
                    server.mount("ok", ["x"], **options)
                self.assertEqual(str(cm.exception), "mount 'ok': " + said)
        server.mount("ok", ["x"])
        with self.assertRaises(mcp_stdio.CatalogError):
            server.mount("ok", ["y"])
        self.assertTrue(server.live)            # its catalog follows the mount's
        server.freeze()
        with self.assertRaises(mcp_stdio.CatalogError):
            server.mount("late", ["x"])

    def test_names_are_not_prefixed_twice_and_prefix_chooses_another(self):
        """A name that starts with the prefix already is served as it is (git's git_status
        under "git", and a tool named "git" itself); a clash this makes is refused when the
        mount lists, naming both; prefix chooses another prefix, or none."""
        inner = mcp_stdio.Server("git", "1")
        for tool in ("git_status", "git_log", "diff", "status", "git"):
            inner.add(mcp_stdio.Tool(tool, lambda a, c, t=tool: t,
                                     input_schema={"type": "object"}))
        for prefix, names in ((None, ["git", "git_diff", "git_log", "git_status"]),
                              ("", ["diff", "git", "git_log", "git_status", "status"]),
                              ("vcs", ["vcs_diff", "vcs_git", "vcs_git_log", "vcs_git_status",
                                       "vcs_status"])):
            outer = mcp_stdio.Server("front", "1")
            outer.mount("git", inner, **({} if prefix is None else {"prefix": prefix}))
            with self.subTest(prefix=prefix), mcp_stdio.InProcessClient(outer) as c:
                self.assertEqual(sorted(t["name"] for t in c.list_tools()), names)
                first = "git_status" if prefix is None else names[-2]
                self.assertEqual(c.call_tool(first, {})["content"][0]["text"], "git_status")
                said = [line for line in c.diagnostics if "would both be served" in line]
                self.assertEqual(said, ["mount 'git': tools 'git_status' and 'status' would "
                                        "both be served as 'git_status'; the first is, "
                                        "'status' is not (rename one)"] if prefix is None
                                 else [])
        for bad in ("a b", 5, "_" * 65):
            with self.subTest(bad=bad), self.assertRaises(mcp_stdio.CatalogError):
                mcp_stdio.Server("s", "1").mount("git", inner, prefix=bad)

    def test_a_mounting_servers_text_tool_keeps_the_fast_path(self):
        """A server with mounts has middleware of its own around lists only: a plain text
        result (its own tool's or an in-process mount's) is encoded directly, as on a server
        without mounts; middleware around tool calls reads it as a value instead."""
        from unittest import mock
        for around in (None, "tool"):
            inner = mcp_stdio.Server("inner", "1")

            @inner.tool
            def echo(text: str) -> str:
                "Echo."
                return text
            outer = mcp_stdio.Server("outer", "1", tools=[mcp_stdio.Tool(
                "own", lambda a, c: "mine", input_schema={"type": "object"})])
            outer.mount("in", inner)
            if around:
                outer.middleware(lambda request, next: next(), kinds=around)
            shaped = []
            real = mcp_stdio.Tool.work

            def work(call, ctx):    # the names of the tools whose result is not JSON text
                r = real(call, ctx)
                return r if type(r[0]) is str else shaped.append(call.target.name) or r
            with self.subTest(around=around), mock.patch.object(
                    mcp_stdio.Tool, "work", staticmethod(work)), \
                    mcp_stdio.InProcessClient(outer, era="legacy") as c:
                self.assertEqual(c.call_tool("in_echo", {"text": "hi"}),
                                 {"content": [{"type": "text", "text": "hi"}]})
                self.assertEqual(c.call_tool("own", {}),
                                 {"content": [{"type": "text", "text": "mine"}]})
                self.assertEqual(shaped, ["in_echo", "own"] if around else [])

    def test_an_in_process_mount_passes_values_not_bytes(self):
        """A Server object mounted in this process serves its entries directly: its handler
        runs for our call (the request's own id), with its own serve's state; with
        middleware of its own, it is served through its engine as a process is."""
        def life(name):
            @contextlib.contextmanager
            def lifespan(server):
                yield {"db": name}
            return lifespan
        for wrapped in (False, True):
            inner = mcp_stdio.Server("inner", "1", lifespan=life("inner"))
            ran = []

            @inner.tool
            def where(ctx: mcp_stdio.Context) -> dict:
                "Who serves this call."
                ctx.progress(1, 1)
                return {"id": ctx.request_id, "db": ctx.state["db"]}

            @inner.resource("inner://db")
            def db(ctx: mcp_stdio.Context) -> str:
                "The database's name."
                return ctx.state["db"]
            if wrapped:
                inner.middleware(lambda request, next: ran.append(request.method) or next(),
                                 kinds=("tool", "resource"))
            outer = mcp_stdio.Server("outer", "1", lifespan=life("outer"))
            outer.mount("in", inner)
            for era in ("legacy", "modern"):
                transcript, heard = [], []
                with self.subTest(wrapped=wrapped, era=era), mcp_stdio.InProcessClient(
                        outer, era=era, transcript=transcript) as c:
                    r = c.call_tool("in_where", {}, on_progress=lambda *p: heard.append(p))
                    sent = [json.loads(line) for d, line in transcript if d == "sent" and
                            b'"tools/call"' in line][-1]
                    self.assertEqual(r["structuredContent"]["db"], "inner")
                    self.assertEqual(r["structuredContent"]["id"] == sent["id"], not wrapped)
                    self.assertEqual([p[:2] for p in heard], [(1, 1)])
                    self.assertEqual(c.read_resource("inner://db")["contents"][0]["text"],
                                     "inner")
            self.assertEqual(ran, ["tools/call", "resources/read"] * 2 if wrapped else [])

    def test_an_in_process_mount_starting_again_is_waited_for(self):
        """A call of a mounted Server object's entry, listed by an earlier serve, made
        while the mount starts again (its lifespan setup is slow): its handler waits and
        runs with its own serve's state, never ours."""
        @contextlib.contextmanager
        def slow(server):
            time.sleep(0.3)
            yield {"db": "inner"}
        inner = mcp_stdio.Server("inner", "1", lifespan=slow)

        @inner.tool
        def where(ctx: mcp_stdio.Context) -> dict:
            "Who serves this call."
            return {"db": ctx.state["db"]}
        outer = mcp_stdio.Server("outer", "1", lifespan=lambda s: iter([{"db": "outer"}]))
        outer.mount("in", inner)
        for _ in range(2):          # the second serve finds in_where listed already
            with mcp_stdio.InProcessClient(outer) as c:
                r = c.call_tool("in_where", {})
                self.assertEqual(r["structuredContent"], {"db": "inner"})

    def test_choosing_what_a_mount_serves(self):
        """include and exclude take shell-style patterns of the mount's own names and URIs,
        for every kind; rename gives a tool or prompt our name; scoping applies after."""
        outer = mcp_stdio.Server("front", "1", grant=["say", "demo_divide"])
        outer.mount("demo", mcp_stdio.demo_server(), include=["echo", "add", "divide",
                                                               "summarize", "demo://logo*",
                                                               "demo://greeting/*"],
                    exclude=["div*"], rename={"echo": "say", "summarize": "tldr"})
        for era in ("legacy", "modern"):
            with self.subTest(era=era), mcp_stdio.InProcessClient(outer, era=era) as c:
                tools = c.list_tools()
                self.assertEqual([t["name"] for t in tools], ["say"])     # scoped after
                self.assertEqual(tools[0]["_meta"], {"io.github.mcp-stdio/mount": {
                    "server": "demo", "name": "echo"}})
                self.assertEqual(c.call_tool("say", {"text": "hi"})["content"],
                                 [{"type": "text", "text": "hi"}])
                self.assertEqual([p["name"] for p in c.list_prompts()], ["tldr"])
                self.assertEqual([r["uri"] for r in c.list_resources()], ["demo://logo.png"])
                self.assertEqual([t["uriTemplate"] for t in c.list_resource_templates()],
                                 ["demo://greeting/{name}"])
                with self.assertRaises(mcp_stdio.ServerError):
                    c.call_tool("demo_echo", {"text": "hi"})     # its own name is ours no more

    @about("tasks")
    def test_a_mounted_task_only_tool_is_listed_as_optional(self):
        """A mounted tool that must run as a task is listed as one that may: a client that
        asks none (or cannot: before 2025-11-25) gets its result, the task followed here."""
        inner = mcp_stdio.Server("inner", "1")

        @inner.tool(task="required")
        def research(topic: str) -> str:
            "Research a topic."
            return "report on " + topic
        outer = mcp_stdio.Server("front", "1")
        outer.mount("m", inner, era="legacy")       # a modern listing says no task support
        for era, revision, execution in (("legacy", "2025-06-18", None),
                                         ("legacy", "2025-11-25", {"taskSupport": "optional"}),
                                         ("modern", "2025-11-25", None)):
            with self.subTest(era=era, revision=revision), mcp_stdio.InProcessClient(
                    outer, era=era, revision=revision) as c:
                tool, = c.list_tools()
                self.assertEqual(tool.get("execution"), execution)
                self.assertEqual(c.call_tool("m_research", {"topic": "x"}, task=False)[
                    "content"], [{"type": "text", "text": "report on x"}])

    def test_a_name_that_would_break_the_rule_is_left_out_and_said(self):
        inner = mcp_stdio.Server("inner", "1")
        inner.add(mcp_stdio.Tool("t" * 126, lambda a, ctx: "long"),
                  mcp_stdio.Tool("short", lambda a, ctx: "ok"))
        outer = mcp_stdio.Server("front", "1")
        outer.mount("abc", inner)
        with mcp_stdio.InProcessClient(outer) as c:
            self.assertEqual([t["name"] for t in c.list_tools()], ["abc_short"])
        self.assertIn("mount 'abc': tool %r is not served: tool 'abc_%s': the name must be "
                      "1-128 characters" % ("t" * 126, "t" * 126), c.stderr)

    def test_middleware_and_trace_context_reach_mounted_entries(self):
        server, seen = mounted_server(), []

        @server.middleware
        def record(request, next):
            seen.append((request.method, request.name))
            return next()
        inner_seen = []
        inner = server.sources[0].target

        @inner.middleware(kinds="tool")
        def inner_record(request, next):
            inner_seen.append(request.ctx.trace)
            return next()
        with mcp_stdio.InProcessClient(server, era="legacy") as c:
            c.list_tools()
            c.request("tools/call", {"name": "demo_echo", "arguments": {"text": "x"},
                                     "_meta": {"traceparent": TRACEPARENT}})
        self.assertIn(("tools/call", "demo_echo"), seen)
        self.assertEqual(inner_seen, [{"traceparent": TRACEPARENT}])

    def test_the_mounted_servers_questions_reach_our_client(self):
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                asked = []

                def answer(params):
                    asked.append(params["message"])
                    return {"action": "accept", "content": {"confirm": True}}
                with mcp_stdio.InProcessClient(mounted_server(), era=era,
                                               on_elicit=answer) as c:
                    c.list_tools()
                    r = c.call_tool("demo_confirm_echo", {"text": "hi"})
                    self.assertEqual(r["content"], [{"type": "text", "text": "hi"}])
                self.assertEqual(asked, ["Echo this text?\n\nhi"])
                # A client that cannot be asked: the mount is told so (a modern mount's
                # call declares what our caller declared), and answers as to such a client.
                with mcp_stdio.InProcessClient(mounted_server(), era=era) as c:
                    c.list_tools()
                    if era == "modern":
                        with self.assertRaises(mcp_stdio.ServerError) as e:
                            c.call_tool("demo_confirm_echo", {"text": "hi"})
                        self.assertEqual((e.exception.code, e.exception.data), (
                            -32021, {"requiredCapabilities": {"elicitation": {}}}))
                    else:                 # as the same tool refuses a legacy client
                        r = c.call_tool("demo_confirm_echo", {"text": "hi"})
                        self.assertEqual(r, {"isError": True, "content": [{
                            "type": "text", "text": "This tool needs to ask the client, but "
                            "the client does not support elicitation."}]})


class MountProcesses(unittest.TestCase):
    """Mounted servers in processes of their own, through the proxy command."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name
        self.script = os.path.join(self.dir, "leaf.py")
        with open(self.script, "w", encoding="utf-8") as f:
            f.write(MOUNTED_SERVER)

    def config(self, servers):
        path = os.path.join(self.dir, "servers.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"mcpServers": servers}, f)
        return path

    def leaf(self, name, *args):
        folder = os.path.join(self.dir, name)
        os.makedirs(folder, exist_ok=True)
        return {"command": sys.executable, "args": ["-S", "leaf.py", folder] + list(args)}, \
            folder

    def test_a_mounted_call_leaves_nothing_to_the_cycle_collector(self):
        """Its call, context and request refer to each other until answered; then freed.
        Counted in a process of its own: the collector sees the whole process."""
        leaf, _ = self.leaf("leaf")
        script = textwrap.dedent('''
            import gc, sys
            import mcp_stdio
            outer = mcp_stdio.Server("front", "1")
            outer.mount("leaf", sys.argv[1:])
            with mcp_stdio.InProcessClient(outer, era="legacy") as c:
                c.list_tools()
                c.call_tool("leaf_where", {})
                gc.collect()
                gc.disable()
                for _ in range(300):
                    assert c.call_tool("leaf_where", {})["content"][0]["text"] == "-"
                print(gc.collect())
            ''')
        r = subprocess.run([sys.executable, "-c", script, leaf["command"]] + leaf["args"],
                           capture_output=True, cwd=self.dir, timeout=60,
                           env=dict(os.environ, PYTHONPATH=HERE))
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        # 16 per call when they were left to it (8 when the answer came before its callback
        # was set); room is left for the few a thread that ended meanwhile leaves.
        self.assertLess(int(r.stdout), 300, r.stdout)

    def test_a_mounts_own_questions_are_answered_within_what_we_declared(self):
        """A legacy mount asks in no call: roots get our client's (asked of a legacy client
        that declared them, else none), a form is cancelled, a sample refused, whatever our
        client declared; its initialize was told all of them, URL elicitation included."""
        script = os.path.join(self.dir, "asker.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(ASKING_SERVER)
        cancel = '{"result":{"action":"cancel"},"jsonrpc":"2.0","id":"form-1"}'
        refuse = ('{"error":{"code":-1,"message":"User rejected sampling request"},'
                  '"jsonrpc":"2.0","id":"sample-1"}')
        roots = [{"uri": "file:///work", "name": "work"}]
        for era, given, seen in (("legacy", None, []), ("modern", None, []),
                                 ("legacy", roots, roots)):
            folder = os.path.join(self.dir, "asker-%s-%s" % (era, bool(given)))
            os.makedirs(folder)
            path = self.config({"asker": {"command": sys.executable,
                                          "args": ["-S", script, folder]}})
            answers = os.path.join(folder, "answers")
            with self.subTest(era=era, roots=bool(given)), mcp_stdio.Client(
                    SERVE + ["proxy", path], cwd=HERE, era=era, roots=given) as c:
                c.list_tools()
                open(os.path.join(folder, "go"), "w").close()
                # A client with roots that arrives while the mount is up tells it they
                # changed (it may have asked before): answered with them too.
                told = lambda lines: [json.loads(x) for x in lines if "roots-changed" in x]
                lines = wait_for_lines(answers, 3, lambda lines: len(lines) - len(
                    told(lines)) >= 3)
                self.assertEqual(sorted(x for x in lines if "roots-changed" not in x), sorted([
                    compact({"result": {"roots": seen}, "jsonrpc": "2.0", "id": "roots-1"}),
                    cancel, refuse]))
                self.assertTrue(all(m["result"] == {"roots": seen} for m in told(lines)))
                if given is not None:            # our client's change reaches the mount
                    c.roots_changed()
                    more = wait_for_lines(answers, len(lines) + 1)[len(lines):]
                    self.assertEqual(told(more), [{"result": {"roots": seen}, "jsonrpc": "2.0",
                                                   "id": "roots-changed-%d" % (
                                                       len(told(lines)) + 1)}])
            with open(os.path.join(folder, "told")) as f:
                self.assertEqual(json.load(f), {"roots": {"listChanged": True}, "sampling": {},
                                                "elicitation": {"form": {}, "url": {}}})
            self.assertNotIn("Traceback", c.stderr)

    def test_a_modern_clients_roots_reach_a_legacy_mount_that_asked_before(self):
        """A modern client can be asked only within a call: a legacy mount that asked for
        roots before one was made got none; the client's first call asks for them, tells the
        mount they changed, and the mount's new question gets them before the call goes."""
        script = os.path.join(self.dir, "asker.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(ASKING_SERVER)
        folder = os.path.join(self.dir, "asker")
        os.makedirs(folder)
        open(os.path.join(folder, "go"), "w").close()        # it asks at once
        path = self.config({"asker": {"command": sys.executable, "args": ["-S", script, folder]}})
        roots = [{"uri": "file:///work", "name": "work"}]
        answers = os.path.join(folder, "answers")
        with mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE, era="modern",
                              roots=roots) as c:
            c.list_tools()
            self.assertIn(compact({"result": {"roots": []}, "jsonrpc": "2.0", "id": "roots-1"}),
                          wait_for_lines(answers, 3))
            self.assertEqual(c.call_tool("asker_noop", {})["content"][0]["text"], "ok")
            self.assertEqual(wait_for_lines(answers, 4)[3], compact(
                {"result": {"roots": roots}, "jsonrpc": "2.0", "id": "roots-changed-1"}))
            c.call_tool("asker_noop", {})                      # asked once: known now
            time.sleep(0.2)
            with open(answers) as f:
                self.assertEqual(len(f.read().splitlines()), 4)

    def test_a_modern_mounts_call_declares_what_our_caller_declared(self):
        """A modern mount cannot ask outside a request: each call we relay declares what our
        caller declared for it (and we can relay); our own requests declare none. A legacy
        mount was told everything at initialize."""
        leaf, _ = self.leaf("leaf", "caps")
        path = self.config({"leaf": leaf})
        followed = {r.key: {} for r in mcp_stdio._EXTENSIONS if r.follow is not None}
        tasks = {"extensions": followed} if followed else {}
        for era, options, declared in (
                ("modern", {"on_elicit": lambda p: None, "roots": []},
                 {"elicitation": {}, "roots": {}}),
                ("legacy", {"on_sample": lambda p: None}, {"sampling": {}}),
                ("modern", {}, {})):
            with self.subTest(era=era, declared=declared), mcp_stdio.Client(
                    SERVE + ["proxy", path], cwd=HERE, era=era, **options) as c:
                r = c.call_tool("leaf_caps", {})
                self.assertEqual(r["content"][0]["text"], "modern " + json.dumps(
                    dict(declared, **tasks), sort_keys=True))
                if "elicitation" not in declared:   # it refuses as it refuses such a client
                    if era == "legacy":
                        self.assertEqual(c.call_tool("leaf_confirm", {"text": "x"}), {
                            "isError": True, "content": [{"type": "text", "text": "This tool "
                                                          "needs the client's elicitation "
                                                          "capability, which the client did "
                                                          "not declare."}]})
                    else:
                        with self.assertRaises(mcp_stdio.ServerError) as e:
                            c.call_tool("leaf_confirm", {"text": "x"})
                        self.assertEqual(e.exception.code, -32021)
        outer = mcp_stdio.Server("front", "1")
        outer.mount("leaf", [leaf["command"]] + leaf["args"], cwd=self.dir, era="legacy")
        with mcp_stdio.InProcessClient(outer, era="modern") as c:
            self.assertEqual(c.call_tool("leaf_caps", {})["content"][0]["text"],
                             'legacy {"elicitation": {"form": {}, "url": {}}, "roots": '
                             '{"listChanged": true}, "sampling": {}}')

    def test_an_answer_to_an_id_never_sent_fails_the_mount_at_once(self):
        """An answer whose id we never sent, of any JSON type (True is no 1, and an object
        cannot be looked up), fails the mount: the call in flight gets an isError naming the
        fault at once, the mount starts again, and no traceback reaches stderr."""
        script = os.path.join(self.dir, "rogue.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(ROGUE_SERVER)
        for rid in ('{"a":1}', '[1]', 'true', '"2"', '1.0', 'null', '999'):
            folder = os.path.join(self.dir, "rogue-%d" % len(os.listdir(self.dir)))
            os.makedirs(folder)
            path = self.config({"rogue": {"command": sys.executable,
                                          "args": ["-S", script, folder, "foreign-id", rid]}})
            with self.subTest(id=rid), mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE,
                                                        era="legacy", timeout=30) as c:
                c.list_tools()
                began = time.monotonic()
                r = c.call_tool("rogue_noop", {})
                self.assertLess(time.monotonic() - began, 10)
                self.assertIs(r.get("isError"), True, r)
                said = "the server answered id %s, which is not in flight" % json.dumps(
                    json.loads(rid))
                self.assertIn(said, r["content"][0]["text"])
                wait_for_lines(os.path.join(folder, "starts"), 2)     # started again
            self.assertNotIn("Traceback", c.stderr)
            self.assertIn("mount 'rogue': " + said, c.stderr)

    def test_a_mount_that_closes_its_stdout_or_pages_for_ever(self):
        """A mount that closes its stdout and runs on fails the call in flight at once (not at
        the call's timeout) and starts again; one whose tools/list repeats a cursor is said
        and served empty, not asked 10,000 pages."""
        script = os.path.join(self.dir, "rogue.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(ROGUE_SERVER)
        path = self.config({"shut": {"command": sys.executable,
                                     "args": ["-S", script, self.dir, "closes-stdout"]},
                            "loop": {"command": sys.executable,
                                     "args": ["-S", script, self.dir, "cursor-loop"]}})
        with mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE, era="legacy",
                              timeout=60) as c:
            self.assertEqual([t["name"] for t in c.list_tools()], ["shut_noop"])
            began = time.monotonic()
            r = c.call_tool("shut_noop", {})
            self.assertLess(time.monotonic() - began, 20)
            self.assertEqual(r["content"][0]["text"], "mount 'shut': the server closed its "
                                                      "stdout and did not exit")
        self.assertIn("mount 'loop': tools/list failed: the server's tools/list result is "
                      "malformed: nextCursor 'again' came a second time: its pages never end; "
                      "its tools are served empty", c.stderr)
        self.assertNotIn("Traceback", c.stderr)

    def test_a_call_that_waited_for_the_first_listing_outlives_the_end_of_input(self):
        """A call sent with initialize, before the mount has listed, waits for it and is then
        in flight like any other: input ending 3 s later leaves it its grace period, and
        its answer is the tool's (not the mount ended under it)."""
        leaf, _ = self.leaf("leaf")
        path = self.config({"leaf": leaf})
        init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": LEGACY[-1], "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"}}}
        lines = [init, {"jsonrpc": "2.0", "method": "notifications/initialized"},
                 call_msg(2, "leaf_wait", {"seconds": 5})]
        p = subprocess.Popen(SERVE + ["proxy", path], cwd=HERE, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.addCleanup(p.kill)
        p.stdin.write(b"".join(compact(m).encode() + b"\n" for m in lines))
        p.stdin.flush()
        time.sleep(3)
        out, err = p.communicate(timeout=30)      # input ends here
        answers = [json.loads(line) for line in out.splitlines()]
        self.assertEqual([m["id"] for m in answers], [1, 2], err)
        self.assertEqual(answers[1]["result"], {"content": [{"type": "text",
                                                             "text": "waited"}]})
        self.assertEqual(p.returncode, 0)

    def test_test_clients_in_a_row_share_a_servers_mounts(self):
        """The README's client per test: each InProcessClient in a row starts the mounts
        again and calls at once, without listing first; each call is answered by the mount
        (its new client is waited for, not read before it has an era)."""
        leaf, _ = self.leaf("leaf")
        outer = mcp_stdio.Server("front", "1")
        outer.mount("leaf", [leaf["command"]] + leaf["args"], cwd=self.dir)
        for era in ("modern", "legacy", "modern", "legacy"):
            with self.subTest(era=era), mcp_stdio.InProcessClient(outer, era=era) as c:
                r = c.call_tool("leaf_where", {})
                self.assertEqual(r["content"], [{"type": "text", "text": "-"}], c.diagnostics)

    def test_a_legacy_mounts_question_with_two_calls_in_flight_is_no_ones(self):
        """A legacy request says no call: with two in flight at the mount, its question is
        answered within the capability (cancelled), never put to one call's client."""
        leaf, _ = self.leaf("leaf")
        outer = mcp_stdio.Server("front", "1")
        outer.mount("leaf", [leaf["command"]] + leaf["args"], cwd=self.dir, era="legacy")
        asked = []
        with mcp_stdio.InProcessClient(outer, era="legacy", on_elicit=lambda p: asked.append(
                p) or {"action": "accept", "content": {}}) as c:
            self.assertEqual(c.call_tool("leaf_confirm", {"text": "one"})["content"],
                             [{"type": "text", "text": "one"}])      # the one call: asked
            waiting = c.send("tools/call", {"name": "leaf_wait", "arguments": {"seconds": 60}})
            self.assertEqual(c.call_tool("leaf_confirm", {"text": "two"})["content"],
                             [{"type": "text", "text": "declined"}])
            waiting.cancel()
        self.assertEqual(len(asked), 1)

    @unittest.skipIf(os.name == "nt", "process groups are POSIX")
    def test_no_mounted_server_outlives_the_proxy(self):
        """A mount slow to end that leaves a child behind: after the proxy's SIGTERM, or
        the end of its input, none of the mount's processes is left."""
        for ending in ("SIGTERM", "end of input"):
            with self.subTest(ending=ending):
                leaf, folder = self.leaf(ending.replace(" ", "-"), "stubborn")
                path = self.config({"s": leaf})
                p = subprocess.Popen(SERVE + ["proxy", path], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=HERE)
                self.addCleanup(lambda p=p: p.poll() is None and (p.kill(), p.communicate()))
                p.stdin.write(json.dumps(init_msg(1)).encode() + b"\n" + json.dumps(
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).encode() + b"\n")
                p.stdin.flush()
                p.stdout.readline()
                self.assertIn(b"s_wait", p.stdout.readline())
                start = time.monotonic()
                if ending == "SIGTERM":
                    p.send_signal(signal.SIGTERM)
                p.communicate(timeout=TIMEOUT)       # the end of its input, or after it
                took = time.monotonic() - start
                # Far below the mount's 60 s: the proxy did not wait for it (1.8 s after
                # SIGTERM here, 2.0 s after the end of input; a loaded CI took 3.1 s).
                self.assertLess(took, 6.0)
                pids = []
                for name in ("starts", "child"):
                    with open(os.path.join(folder, name)) as f:
                        pids += [int(x) for x in f.read().split()]
                self.assertEqual(len(pids), 2)
                for pid in pids:
                    self.assertFalse(process_alive(pid, 2.0), "process %d was left" % pid)

    def test_a_proxy_serves_each_under_its_key_in_both_eras(self):
        a, a_dir = self.leaf("a")
        b, _ = self.leaf("b")
        path = self.config({"a": a, "b": b, "demo": {
            "command": sys.executable, "args": ["-S", "-m", "mcp_stdio", "--tools", "echo"],
            "env": {"PYTHONPATH": HERE}}})
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                asked = []
                c = mcp_stdio.Client(SERVE + ["proxy", path], era=era, cwd=HERE,
                                     on_elicit=lambda p: asked.append(p["message"]) or {
                                         "action": "accept", "content": {}})
                with c:
                    names = [t["name"] for t in c.list_tools()]
                    self.assertEqual(names, ["a_confirm", "a_wait", "a_where", "b_confirm",
                                             "b_wait", "b_where", "demo_echo"])
                    self.assertEqual(c.call_tool("demo_echo", {"text": "x"})["content"],
                                     [{"type": "text", "text": "x"}])
                    self.assertEqual(c.call_tool("b_confirm", {"text": "y"})["content"],
                                     [{"type": "text", "text": "y"}])
                    self.assertEqual(asked, ["Echo y?"])
                    r = c.request("tools/call", {"name": "a_where", "arguments": {},
                                                 "_meta": {"traceparent": TRACEPARENT}})
                    self.assertEqual(r["content"][0]["text"], TRACEPARENT)
                    # Cancelling our call cancels the mount's.
                    heard = []
                    req = c.send("tools/call", {"name": "a_wait", "arguments": {"seconds": 20}},
                                 on_progress=lambda *p: heard.append(p))
                    time.sleep(0.5)
                    req.cancel()
                    deadline = time.monotonic() + 10
                    while not os.path.exists(os.path.join(a_dir, "cancelled")) and \
                            time.monotonic() < deadline:
                        time.sleep(0.05)
                    self.assertTrue(os.path.exists(os.path.join(a_dir, "cancelled")))
                    os.remove(os.path.join(a_dir, "cancelled"))
                self.assertEqual(c.close(), 0)
                self.assertNotIn("Traceback", c.stderr)

    def test_a_mounted_call_times_out_as_ours_and_is_cancelled_at_the_mount(self):
        """A mounted call waits on no thread of ours, yet our timeout still ends it, and
        cancels the mount's call."""
        a, a_dir = self.leaf("a")
        path = self.config({"a": a})
        cancelled = os.path.join(a_dir, "cancelled")
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                with mcp_stdio.Client(SERVE + ["proxy", path, "--timeout", "0.5"], era=era,
                                      cwd=HERE) as c:
                    c.list_tools()
                    start = time.monotonic()
                    r = c.request("tools/call", {"name": "a_wait", "arguments": {"seconds": 20}})
                    self.assertLess(time.monotonic() - start, 10)
                    self.assertEqual(r["content"], [{"type": "text", "text":
                                                     "Tool 'a_wait' timed out after 0.5 seconds."}])
                    self.assertIs(r["isError"], True)
                    deadline = time.monotonic() + 10
                    while not os.path.exists(cancelled) and time.monotonic() < deadline:
                        time.sleep(0.02)
                    self.assertTrue(os.path.exists(cancelled))
                    os.remove(cancelled)
                self.assertNotIn("Traceback", c.stderr)

    def test_mounted_calls_beyond_our_workers_and_at_the_end_of_input(self):
        """Mounted calls in flight at once are all answered beyond our workers, and one in
        flight at the end of input is answered before the proxy exits."""
        a, _ = self.leaf("a")
        path = self.config({"a": a})
        with mcp_stdio.Client(SERVE + ["proxy", path, "--workers", "2"], era="modern",
                              cwd=HERE) as c:
            c.list_tools()
            calls = [c.send("tools/call", {"name": "a_wait", "arguments": {"seconds": 0.2}})
                     for _ in range(12)]
            self.assertEqual([q.wait(20)["content"][0]["text"] for q in calls],
                             ["waited"] * 12)
        self.assertNotIn("Traceback", c.stderr)
        p = subprocess.Popen(SERVE + ["proxy", path], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=HERE)
        for m in ({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"}}},
                  {"jsonrpc": "2.0", "method": "notifications/initialized"},
                  {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}):
            p.stdin.write(json.dumps(m).encode() + b"\n")
        p.stdin.flush()
        # Until the list is answered (a change notification may come before it): the mount
        # has listed, so its tool is known.
        while b'"id":1,' not in p.stdout.readline():
            pass
        out, err = p.communicate(b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":'
                                 b'{"name":"a_wait","arguments":{"seconds":0.2}}}\n', 30)
        self.assertIn(b'{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":'
                      b'"waited"}]}}\n', out)
        self.assertEqual(p.returncode, 0, err[-2000:])

    @unittest.skipIf(os.name == "nt", "Windows has no SIGKILL to send")
    def test_a_mount_that_fails_or_dies_costs_its_own_entries_only(self):
        a, a_dir = self.leaf("a")
        path = self.config({"a": a, "broken": {"command": sys.executable, "args": [
            "-S", "-c", "import sys; sys.exit(4)"]}})
        c = mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE, era="legacy")
        with c:
            self.assertEqual([t["name"] for t in c.list_tools()],
                             ["a_confirm", "a_wait", "a_where"])
            with open(os.path.join(a_dir, "starts")) as f:
                pid = int(f.read().split()[0])
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 10
            r = None
            while time.monotonic() < deadline:
                r = c.call_tool("a_wait", {"seconds": 0})
                if r.get("isError"):
                    break
                time.sleep(0.05)
            self.assertTrue(r["isError"], r)
            self.assertRegex(r["content"][0]["text"], r"^mount 'a'")
            self.assertEqual([t["name"] for t in c.list_tools()],   # its entries stay listed
                             ["a_confirm", "a_wait", "a_where"])
            while time.monotonic() < deadline:                 # and it comes back
                r = c.call_tool("a_wait", {"seconds": 0})
                if not r.get("isError"):
                    break
                time.sleep(0.1)
            self.assertEqual(r["content"], [{"type": "text", "text": "waited"}])
            with open(os.path.join(a_dir, "starts")) as f:
                self.assertEqual(len(f.read().split()), 2)
        self.assertIn("mount 'broken': the server exited (status 4); starting it again in "
                      "1 s", c.stderr)
        self.assertIn("mount 'a': the server was ended by SIGKILL (signal 9); starting it "
                      "again in 1 s\n", c.stderr)
        self.assertRegex(c.stderr, r"mount 'a' is up again, after \d+\.\d s down\n")

    @unittest.skipIf(os.name == "nt", "Windows has no SIGSTOP")
    def test_a_mount_that_hangs_is_stopped_and_started_again(self):
        leaf, folder = self.leaf("leaf")
        outer = mcp_stdio.Server("front", "1")
        outer.mount("leaf", [leaf["command"]] + leaf["args"], cwd=self.dir, ping_timeout=0.3)
        with mcp_stdio.InProcessClient(outer) as c:
            c.list_tools()
            with open(os.path.join(folder, "starts")) as f:
                pid = int(f.read().split()[0])
            os.kill(pid, signal.SIGSTOP)        # alive, and answering nothing
            self.addCleanup(lambda: os.kill(pid, signal.SIGKILL) if os.path.exists(
                "/proc/%d" % pid) else None)
            r = c.call_tool("leaf_wait", {"seconds": 0})
            self.assertTrue(r["isError"], r)
            self.assertTrue(r["content"][0]["text"].startswith("mount 'leaf'"), r)
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:             # started again, and answering
                r = c.call_tool("leaf_wait", {"seconds": 0})
                if not r.get("isError"):
                    break
                time.sleep(0.1)
            self.assertEqual(r["content"], [{"type": "text", "text": "waited"}])
        self.assertIn("mount 'leaf': it did not answer a ping within 0.3 s; starting it again "
                      "in 1 s", c.stderr)

    def test_the_first_list_waits_for_a_slow_mount_within_its_start_timeout(self):
        slow, _ = self.leaf("slow", "slow")
        path = self.config({"slow": slow})
        with mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE, era="modern") as c:
            start = time.monotonic()
            self.assertIn("tools", c.discover()["capabilities"])
            self.assertLess(time.monotonic() - start, 1.0)        # answered at once
            self.assertEqual(len(c.list_tools()), 3)              # after the mount listed

    def test_a_request_before_the_first_list_waits_for_the_mounts(self):
        """A client that kept an earlier listing calls at once: the mount's tool is served
        once the mount has listed, and a name nobody has is refused as before, after it."""
        slow, gate = self.leaf("slow", "gated")
        path = self.config({"slow": slow})
        for era in ("modern", "legacy"):
            transcript = []
            if os.path.exists(os.path.join(gate, "go")):
                os.remove(os.path.join(gate, "go"))
            with self.subTest(era=era), mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE,
                                                         era=era, transcript=transcript) as c:
                call = {"name": "slow_wait", "arguments": {"seconds": 0}}
                known, cancelled = c.send("tools/call", call), c.send("tools/call", call)
                cancelled.cancel()
                unknown = c.send("tools/call", {"name": "slow_nothing", "arguments": {}})
                prompt = c.send("prompts/get", {"name": "slow_nothing"})
                completion = c.send("completion/complete", {
                    "ref": {"type": "ref/prompt", "name": "slow_nothing"},
                    "argument": {"name": "a", "value": ""}})
                missing = c.send("resources/read", {"uri": "leaf://nothing"})
                if era == "legacy":                               # answered at once
                    self.assertEqual(c.request("ping"), {})
                else:
                    self.assertIn("tools", c.discover()["capabilities"])
                self.assertFalse(known.answered(0))               # the mount waits
                open(os.path.join(gate, "go"), "w").close()
                self.assertEqual(known.wait(20)["content"],
                                 [{"type": "text", "text": "waited"}])
                for request, code, message in (
                        (unknown, -32602, 'Unknown tool: "slow_nothing"'),
                        (prompt, -32602, 'Unknown prompt: "slow_nothing"'),
                        (completion, -32602, 'Unknown prompt: "slow_nothing"'),
                        (missing, -32002 if era == "legacy" else -32602,
                         "Resource not found")):
                    with self.assertRaises(mcp_stdio.ServerError) as e:
                        request.wait(20)
                    self.assertEqual((e.exception.code, e.exception.message), (code, message))
                self.assertEqual(len(c.list_tools()), 3)
            answered = [[line for d, line in transcript if d == "received" and
                         b'"id":%d,' % r.id in line] for r in (known, cancelled)]
            self.assertEqual([len(lines) for lines in answered], [1, 0])   # cancelled waiting

    def test_the_wait_for_the_mounts_is_not_counted_in_the_timeout(self):
        """A first list, and a call naming a mount's tool before it has listed, take our
        timeout from the mounts' listing: a mount slower to start, or to list, than
        --timeout is listed and called, not timed out."""
        slow, _ = self.leaf("slow", "slow")
        path = self.config({"slow": slow})
        for era in ("legacy", "modern"):
            with self.subTest(era=era), mcp_stdio.Client(
                    SERVE + ["proxy", path, "--timeout", "0.5"], cwd=HERE, era=era) as c:
                call = c.send("tools/call", {"name": "slow_wait", "arguments": {"seconds": 0}})
                self.assertEqual(sorted(t["name"] for t in c.list_tools()),
                                 ["slow_confirm", "slow_wait", "slow_where"])   # after 1 s
                self.assertEqual(call.wait(20)["content"], [{"type": "text", "text": "waited"}])
            self.assertNotIn("Traceback", c.stderr)
        # Listing is part of starting: a mount that lists slower than --timeout is listed.
        slow, _ = self.leaf("slow-list", "slow-list")
        path = self.config({"slow": slow})
        with mcp_stdio.Client(SERVE + ["proxy", path, "--timeout", "0.3"], cwd=HERE,
                              era="legacy") as c:
            self.assertEqual(len(c.list_tools()), 3, c.stderr)          # after 1 s
        self.assertNotIn("mount 'slow'", c.stderr)

    def test_a_legacy_mounts_question_reaches_a_modern_client_by_its_retry(self):
        """A modern client asks by retrying its call: the mount's call waits meanwhile."""
        leaf, _ = self.leaf("leaf")
        outer = mcp_stdio.Server("front", "1")
        outer.mount("leaf", [leaf["command"]] + leaf["args"], cwd=self.dir,
                    era="legacy")
        for era in ("modern", "legacy"):
            with self.subTest(era=era):
                asked, transcript = [], []

                def answer(params):
                    asked.append(params["message"])
                    return {"action": "accept", "content": {}}
                with mcp_stdio.InProcessClient(outer, era=era, on_elicit=answer,
                                               transcript=transcript) as c:
                    c.list_tools()
                    r = c.call_tool("leaf_confirm", {"text": "twice"})
                    self.assertEqual(r["content"], [{"type": "text", "text": "twice"}])
                    r = c.call_tool("leaf_where", {})           # the mount goes on serving
                    self.assertEqual(r["content"], [{"type": "text", "text": "-"}])
                self.assertEqual(asked, ["Echo twice?"])
                rounds = [line for d, line in transcript if d == "received" and
                          b'"input_required"' in line]
                self.assertEqual(len(rounds), 1 if era == "modern" else 0)

    def test_a_mount_that_answers_malformed_is_started_again(self):
        """A malformed answer from a mounted server answers its call at once, with an error
        naming the mount, and the mount starts again (its stream cannot be trusted)."""
        script = os.path.join(self.dir, "broken.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(BROKEN_SERVER)
        path = self.config({"m": {"command": sys.executable, "args": ["-S", script,
                                                                      "null-call"]}})
        said = "mount 'm': the server sent a malformed response: b'{\"jsonrpc\": \"2.0\", " \
               "\"id\": 4, \"result\": null}'"
        with mcp_stdio.Client(SERVE + ["proxy", path, "--timeout", "60"], cwd=HERE,
                              era="legacy") as c:
            c.list_tools()
            self.assertEqual(c.call_tool("m_bad", {}), {"content": [{"type": "text",
                                                                     "text": said}],
                                                        "isError": True})
            deadline = time.monotonic() + 30
            while said + "; starting it again in 1 s" not in c.stderr and \
                    time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertIn(said + "; starting it again in 1 s", c.stderr)
            while time.monotonic() < deadline:       # started again: it answers
                r = c.call_tool("m_good", {})
                if not r.get("isError"):
                    break
                time.sleep(0.1)
            self.assertEqual(r, {"content": [{"type": "text", "text": "good"}]})
        self.assertNotIn("Traceback", c.stderr)

    def test_the_first_mount_in_the_file_keeps_a_shared_name(self):
        """Two mounts list the same URI (and prompt name, renamed alike): the first in the
        file keeps it whichever lists first; a later one that took it is told so."""
        script = own_script(self, "shared.py", """
            import time
            name, delay = sys.argv[1], float(sys.argv[2])
            time.sleep(delay)
            server = mcp_stdio.Server(name, "1")
            server.add(mcp_stdio.Resource("shared://x", lambda uri, ctx: name, name="x"))
            server.add(mcp_stdio.Prompt("hello", lambda args, ctx: name))
            raise SystemExit(server.run([]))
            """)
        for first_delay, second_delay in ((1.0, 0.0), (0.0, 1.0)):
            path = self.config({
                "first": {"command": sys.executable, "args": [
                    "-S", script, "first", str(first_delay)],
                    "mcp-stdio": {"rename": {"hello": "hello"}}},
                "second": {"command": sys.executable, "args": [
                    "-S", script, "second", str(second_delay)],
                    "mcp-stdio": {"rename": {"hello": "hello"}}}})
            with self.subTest(first_delay=first_delay), mcp_stdio.Client(
                    SERVE + ["proxy", path], cwd=HERE, era="legacy") as c:
                self.assertEqual([r["uri"] for r in c.list_resources()], ["shared://x"])
                self.assertEqual(c.read_resource("shared://x")["contents"][0]["text"], "first")
                self.assertEqual(c.get_prompt("hello")["messages"][0]["content"]["text"],
                                 "first")
            said = [line for line in c.stderr.splitlines() if "shared://x" in line]
            self.assertEqual(said, [
                "mcp-stdio-proxy: mount 'second': resource 'shared://x' is served by mount "
                "'first', which comes first; this one is not" if first_delay else
                "mcp-stdio-proxy: mount 'second': resource 'shared://x' is served already (by "
                "the server or an earlier mount); this one is not"], c.stderr)

    def test_options_come_before_or_after_the_file(self):
        """proxy takes its options and the server options on either side of the file."""
        a, _ = self.leaf("a")
        path = self.config({"a": a})
        for args in (["--tool-search", path], [path, "--tool-search"],
                     ["--start-timeout", "5", "--tool-search", "--pin", "a_wait", path],
                     ["--start-timeout=5", path, "--pin", "a_wait", "--tool-search"]):
            with self.subTest(args=args), mcp_stdio.Client(SERVE + ["proxy"] + args, cwd=HERE,
                                                           era="legacy") as c:
                self.assertEqual(sorted(t["name"] for t in c.list_tools()), sorted(
                    ["call_tool", "search_tools"] + (["a_wait"] if "--pin" in args else [])))
        r = subprocess.run(SERVE + ["proxy", "--tools", "a_wait"], capture_output=True,
                           cwd=HERE, stdin=subprocess.DEVNULL, timeout=60)
        self.assertEqual((r.returncode, r.stderr),
                         (2, b"error: usage: proxy CONFIG.json [server options]\n"))

    def test_the_proxys_instructions_are_its_own_then_each_servers(self):
        """A proxy's instructions: the file's own (or --instructions), then each server's
        under its key, in the file's order; a server without any adds nothing, and the
        first answer waits for the servers to start (--mount-wait)."""
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        quiet = os.path.join(folder, "quiet.py")
        with open(quiet, "w") as f:
            f.write("import sys\nsys.path.insert(0, %r)\nimport mcp_stdio\n"
                    "s = mcp_stdio.Server('quiet', '1', instructions=None)\n"
                    "raise SystemExit(s.run())\n" % HERE)
        path = os.path.join(folder, "servers.json")
        with open(path, "w") as f:
            json.dump({"mcp-stdio": {"instructions": "Proxy notes."}, "mcpServers": {
                "quiet": {"command": PY[0], "args": PY[1:] + [quiet]},
                "demo": {"command": SERVE[0], "args": SERVE[1:], "cwd": HERE}}}, f)
        demo = mcp_stdio.demo_server().instructions
        for extra, own in (([], "Proxy notes."), (["--instructions", "Ours."], "Ours.")):
            for era in ("legacy", "modern"):
                with self.subTest(extra=extra, era=era), mcp_stdio.Client(
                        SERVE + ["proxy", path] + extra, era=era, cwd=HERE) as c:
                    self.assertEqual(c.instructions, own + "\n\n## demo\n" + demo)
        with open(path, "w") as f:
            json.dump({"mcp-stdio": {"instructions": 5}, "mcpServers": {
                "demo": {"command": SERVE[0], "args": SERVE[1:]}}}, f)
        r = subprocess.run(SERVE + ["proxy", path], capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, cwd=HERE, timeout=60)
        self.assertEqual((r.returncode, r.stderr), (2, 'error: proxy: %s: its top-level '
                                                       '"mcp-stdio" must be {"instructions": '
                                                       '"..."}\n' % path))

    def test_what_the_proxy_command_refuses(self):
        """A file with no server the proxy can serve: each entry said, then exit 2."""
        path = self.config({"web": {"url": "https://example.com/mcp"}, "x": {"args": []},
                            "x y": {"command": "x"}, "off": {"command": "x", "disabled": True},
                            "bad": {"command": "x", "args": [1]},
                            "opts": {"command": "x", "mcp-stdio": {"pins": ["a"]}},
                            "pat": {"command": "x", "mcp-stdio": {"include": "a*"}}})
        r = subprocess.run(SERVE + ["proxy", path], capture_output=True, cwd=HERE,
                           stdin=subprocess.DEVNULL, timeout=60)
        self.assertEqual((r.returncode, r.stderr.decode()), (2, "".join(
            "mcp_stdio: proxy: server %s is left out: %s\n" % pair for pair in (
                ("'web'", "a remote (HTTP) server: the proxy mounts stdio servers only"),
                ("'x'", 'it has no "command"'),
                ("'x y'", "the prefix must be 1-64 characters of A-Z, a-z, 0-9, '_', '-' or "
                          "'.' (it starts every tool name)"),
                ("'off'", 'it is disabled ("disabled": true)'),
                ("'bad'", '"args" must be a list of strings'),
                ("'opts'", '"mcp-stdio" has no key "pins" (did you mean \'pinned\'?); its keys '
                           'are include, exclude, rename, pinned, prefix, search_hints'),
                ("'pat'", '"mcp-stdio": "include" must be a list of names or shell-style '
                          'patterns (strings), not "a*"'))) +
            "error: proxy: %s has no server the proxy can serve (each was left out, said "
            "above)\n" % path))
        r = subprocess.run(SERVE + ["proxy"], capture_output=True, cwd=HERE,
                           stdin=subprocess.DEVNULL, timeout=60)
        self.assertEqual((r.returncode, r.stderr),
                         (2, b"error: usage: proxy CONFIG.json [server options]\n"))
        path = self.config({"a": self.leaf("a")[0]})
        for args, said in ((["--start-timeout"], b"--start-timeout needs a value"),
                           (["--start-timeout", "0"], b"bad value for --start-timeout: '0'"),
                           (["--start-timeout=nan"], b"bad value for --start-timeout: 'nan'"),
                           (["--tools", "a_wait", "--start-timeout", "inf"],
                            b"bad value for --start-timeout: 'inf'")):
            with self.subTest(args=args):
                r = subprocess.run(SERVE + ["proxy", path] + args, capture_output=True,
                                   cwd=HERE, stdin=subprocess.DEVNULL, timeout=60)
                self.assertEqual(r.returncode, 2)
                self.assertEqual(r.stderr.splitlines()[0], b"error: " + said)
                self.assertIn(b"\n  --start-timeout SECONDS\n" + b" " * 22 + b"time each "
                              b"server may take to start and list (default 10)\n", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "a", "starts")))  # none started

    def test_the_proxy_reads_a_hosts_file_as_hosts_do(self):
        """Disabled and remote entries are left out, each said in one line, and the rest
        serve; keys a host adds are ignored; our own key chooses what an entry serves."""
        a, _ = self.leaf("a")
        b, _ = self.leaf("b")
        path = self.config({
            "off": dict(a, disabled=True), "web": {"url": "https://example.com/mcp"},
            "remote": {"type": "sse", "command": "x"},
            "a": dict(a, disabled=False, autoApprove=["wait"], timeout=60),
            "b": dict(b, **{"mcp-stdio": {"exclude": ["conf*"], "rename": {"where": "here"}}})})
        with mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE, era="legacy") as c:
            self.assertEqual(sorted(t["name"] for t in c.list_tools()),
                             ["a_confirm", "a_wait", "a_where", "b_wait", "here"])
            self.assertEqual(c.call_tool("here", {})["content"][0]["text"], "-")
        self.assertEqual(c.stderr.splitlines(), [
            "mcp_stdio: proxy: server 'off' is left out: it is disabled "
            "(\"disabled\": true)",
            "mcp_stdio: proxy: server 'web' is left out: a remote (HTTP) server: the proxy "
            "mounts stdio servers only",
            "mcp_stdio: proxy: server 'remote' is left out: a remote (HTTP) server: the "
            "proxy mounts stdio servers only"])

    def test_a_crashed_servers_last_lines_are_said_whole(self):
        """A server that fails at start: its exit, then its last lines on stderr (up to 20),
        each marked with the mount's name, where the error that says why is."""
        script = os.path.join(self.dir, "crasher.py")
        with open(script, "w") as f:
            f.write("import sys\nfor i in range(40):\n    sys.stderr.write('noise %d\\n' % i)\n"
                    "import no_such_module_for_the_mount\n")
        path = self.config({"crash": {"command": sys.executable, "args": ["-S", script]}})
        with mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE, era="legacy") as c:
            self.assertEqual(c.list_tools(), [])
        lines = c.stderr.splitlines()
        first = lines.index("mcp-stdio-proxy: mount 'crash': the server exited (status 1); "
                            "starting it again in 1 s")
        said = lines[first + 1:first + 22]
        self.assertEqual(said[0], "mount 'crash' | its last lines on stderr:")
        self.assertTrue(all(line.startswith("mount 'crash' | ") for line in said), said)
        self.assertEqual(said[-1], "mount 'crash' | ModuleNotFoundError: No module named "
                                   "'no_such_module_for_the_mount'")
        self.assertIn("mount 'crash' | noise 39", said)

    def test_a_fault_in_an_entrys_block_leaves_that_entry_out(self):
        """An entry's "mcp-stdio" block of a wrong type, or with a key it does not have, leaves
        that entry out with one line (the key, what it must be, the closest known key); the
        others serve. A pattern that matches none of a mount's names is said once it has
        listed, and inspect shows it."""
        good, _ = self.leaf("good")
        entries = {"t": dict(good, **{"mcp-stdio": {"include": True}}),
                   "f": dict(good, **{"mcp-stdio": {"exclude": 5}}),
                   "p": dict(good, **{"mcp-stdio": {"pinned": "wait"}}),
                   "r": dict(good, **{"mcp-stdio": {"rename": ["a"]}}),
                   "k": dict(good, **{"mcp-stdio": {"exlude": ["wait"]}}),
                   "n": dict(good, **{"mcp-stdio": []}),
                   "x": dict(good, **{"mcp-stdio": {"prefix": 5}}),
                   "i": dict(good, **{"mcp-stdio": {"include": ["raed_*", "w*"],
                                                    "pinned": ["wiat"]}}),
                   "none": dict(good, **{"mcp-stdio": {"prefix": "", "include": ["wait"]}}),
                   "other": dict(good, **{"mcp-stdio": {"prefix": "o", "include": ["wait"]}})}
        path = self.config(entries)
        with mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE, era="legacy") as c:
            self.assertEqual([t["name"] for t in c.list_tools()], ["i_wait", "i_where", "o_wait",
                                                                   "wait"])
        must = "a list of names or shell-style patterns (strings)"
        self.assertEqual(c.stderr.splitlines(), [
            "mcp_stdio: proxy: server 't' is left out: \"mcp-stdio\": \"include\" must be "
            "%s, not true" % must,
            "mcp_stdio: proxy: server 'f' is left out: \"mcp-stdio\": \"exclude\" must be "
            "%s, not 5" % must,
            "mcp_stdio: proxy: server 'p' is left out: \"mcp-stdio\": \"pinned\" must be "
            "%s, not \"wait\"" % must,
            "mcp_stdio: proxy: server 'r' is left out: \"mcp-stdio\": \"rename\" must be "
            "an object of the server's names and ours (strings), not [\"a\"]",
            "mcp_stdio: proxy: server 'k' is left out: \"mcp-stdio\" has no key "
            "\"exlude\" (did you mean 'exclude'?); its keys are include, exclude, rename, "
            "pinned, prefix, search_hints",
            "mcp_stdio: proxy: server 'n' is left out: \"mcp-stdio\" must be an object "
            "with the keys include, exclude, rename, pinned, prefix, search_hints, not []",
            "mcp_stdio: proxy: server 'x' is left out: \"mcp-stdio\": \"prefix\" must be a "
            "string (\"\" for none), not 5",
            "mcp-stdio-proxy: mount 'i': include 'raed_*' matches none of its names or URIs",
            "mcp-stdio-proxy: mount 'i': pinned 'wiat' matches none of its tools"])
        r = subprocess.run(SERVE + ["inspect", "--", *SERVE, "proxy", path], cwd=HERE,
                           capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("  mcp-stdio-proxy: mount 'i': include 'raed_*' matches none of its names "
                      "or URIs\n", r.stdout)
        self.assertNotIn("Traceback", r.stdout + r.stderr)
        # mount() itself refuses what is not a list, never with a TypeError.
        for value in (True, 5, "w*"):
            with self.subTest(value=value), self.assertRaises(mcp_stdio.CatalogError):
                mcp_stdio.Server("s", "1").mount("m", ["x"], include=value)

    def test_a_file_with_comments_serves_and_an_unreadable_one_is_one_line(self):
        """The proxy reads JSON with comments and trailing commas (VS Code's files): a "//"
        inside a string is kept. A file it cannot read or parse is one line naming it, exit
        2, whatever the fault."""
        leaf, _ = self.leaf("leaf")
        path = os.path.join(self.dir, "servers.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write('// mine\n{"mcpServers": {"leaf": {"command": %s, /* its args */ "args": '
                    '%s, "env": {"URL": "http://x//y"},},},}\n' % (
                        json.dumps(leaf["command"]), json.dumps(leaf["args"] + ["caps"])))
        with mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE, era="legacy") as c:
            self.assertIn("leaf_caps", [t["name"] for t in c.list_tools()])
        for text, said in (("[" * 1000 + "]" * 1000, "nests arrays or objects more than 100 "
                                                     "deep"),
                           ('{"mcpServers": {"a" 1}}', "is not JSON (line 1 column 21): "
                                                       "Expecting ':' delimiter"),
                           (b"\xfe", "is not UTF-8 text (byte 0xfe at offset 0)"),
                           ("", "is not JSON (line 1 column 1): Expecting value"),
                           (None, "cannot read %s: No such file or directory")):
            with self.subTest(text=text[:20] if text else text):
                bad = os.path.join(self.dir, "bad.json")
                with contextlib.suppress(FileNotFoundError):
                    os.remove(bad)
                if text is not None:
                    with open(bad, "wb") as f:
                        f.write(text if isinstance(text, bytes) else text.encode())
                r = subprocess.run(SERVE + ["proxy", bad], capture_output=True, text=True,
                                   cwd=HERE, stdin=subprocess.DEVNULL, timeout=60)
                self.assertEqual((r.returncode, r.stdout), (2, ""))
                self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
                self.assertIn(said % bad if "%s" in said else said, r.stderr)
                self.assertIn(bad, r.stderr)

    def test_search_tools_waits_for_starting_mounts_and_names_the_absent(self):
        """search_tools sent before the mounts have listed waits for them as tools/list does
        (within the start timeout); a mount still not up is named in "unavailable", in the
        structured result and in its text, the JSON copy of it."""
        slow, _ = self.leaf("slow", "slow")
        gated, _ = self.leaf("gated", "gated")            # never let start
        path = self.config({"slow": slow, "gated": gated})
        with mcp_stdio.Client(SERVE + ["proxy", path, "--tool-search", "--start-timeout", "3"],
                              cwd=HERE, era="legacy") as c:
            r = c.call_tool("search_tools", {"query": "wait or stop when cancelled",
                                             "limit": 1})
            self.assertEqual(r["structuredContent"]["unavailable"], ["gated"])
            self.assertEqual([t["name"] for t in r["structuredContent"]["tools"]],
                             ["slow_wait"])
            self.assertEqual(json.loads(r["content"][0]["text"]), r["structuredContent"])
        with mcp_stdio.Client(SERVE + ["proxy", self.config({"slow": slow}), "--tool-search"],
                              cwd=HERE, era="modern") as c:
            r = c.call_tool("search_tools", {"query": "wait or stop when cancelled",
                                             "limit": 1})
            self.assertNotIn("unavailable", r["structuredContent"])
            self.assertEqual([t["name"] for t in r["structuredContent"]["tools"]],
                             ["slow_wait"])

    def test_scoping_takes_patterns_and_says_what_it_did(self):
        """--tools takes shell-style patterns; once the mounts have listed, what scoping
        left out is said, and so is a name or pattern that matches nothing."""
        a, _ = self.leaf("a")
        path = self.config({"a": a})
        with mcp_stdio.Client(SERVE + ["proxy", path, "--tools", "a_w*,nosuch"], cwd=HERE,
                              era="legacy") as c:
            self.assertEqual([t["name"] for t in c.list_tools()], ["a_wait", "a_where"])
            with self.assertRaises(mcp_stdio.ServerError):
                c.call_tool("a_confirm", {"text": "x"})
        self.assertEqual(c.stderr, "mcp-stdio-proxy: --tools: 'nosuch' matches no tool\n"
                                   "mcp-stdio-proxy: --tools serves 2 of 3 tools; it leaves out "
                                   "a_confirm\n")
        # A server of its own: a pattern is checked at start like a name.
        r = subprocess.run(SERVE + ["--tools", "ec*,nope*"], capture_output=True, cwd=HERE,
                           stdin=subprocess.DEVNULL, timeout=60)
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"grant: unknown tool(s): nope*", r.stderr)

    @unittest.skipIf(os.name == "nt", "Windows has no SIGKILL to send")
    def test_change_notices_only_for_changes(self):
        """No list_changed before the client's first list of that kind (mounts add their
        entries at start), nor after a restart that lists the same."""
        a, a_dir = self.leaf("a")
        b, _ = self.leaf("b")
        path = self.config({"a": a, "b": b})
        transcript = []
        with mcp_stdio.Client(SERVE + ["proxy", path], cwd=HERE, era="legacy",
                              transcript=transcript) as c:
            self.assertEqual(len(c.list_tools()), 6)
            received = [json.loads(line) for d, line in transcript if d == "received"]
            self.assertEqual([m.get("method") for m in received], [None, None])   # answers
            with open(os.path.join(a_dir, "starts")) as f:
                os.kill(int(f.read().split()[0]), signal.SIGKILL)
            deadline = time.monotonic() + 20
            while "mount 'a' is up again" not in c.stderr and time.monotonic() < deadline:
                time.sleep(0.02)
            self.assertEqual(c.call_tool("a_where", {})["content"][0]["text"], "-")
            time.sleep(0.3)                          # a notice would have been sent by now
            self.assertEqual([m for d, line in transcript if d == "received" for m in
                              [json.loads(line)] if "method" in m], [])

    @unittest.skipUnless(SLOW and os.environ.get("MCP_STDIO_SQLITE"),
                         "mcp-server-sqlite (PyPI) is installed by .ci/run")
    def test_a_real_server_that_cannot_list_one_kind_serves_the_rest(self):
        """mcp-server-sqlite declares resources and answers -32601 to their templates'
        listing: its six tools serve, and the failed listing is said with its method."""
        path = self.config({"sqlite": {"command": os.environ["MCP_STDIO_SQLITE"],
                                       "args": ["--db-path", os.path.join(self.dir, "t.db")]}})
        for era in ("legacy", "modern"):
            with self.subTest(era=era), mcp_stdio.Client(SERVE + ["proxy", path] + REAL_START,
                                                         cwd=HERE, era=era) as c:
                self.assertEqual(sorted(t["name"] for t in c.list_tools()), [
                    "sqlite_append_insight", "sqlite_create_table", "sqlite_describe_table",
                    "sqlite_list_tables", "sqlite_read_query", "sqlite_write_query"])
                self.assertEqual(c.call_tool("sqlite_list_tables", {})["content"],
                                 [{"type": "text", "text": "[]"}])
            self.assertIn("mount 'sqlite': resources/templates/list failed: -32601 Method not "
                          "found; its resource templates are served empty", c.stderr)

    def test_a_call_waits_for_a_mount_that_is_starting(self):
        """Three in-process clients in a row, each calling a mounted tool without listing
        first: each serve starts the mount afresh, and the call waits for it."""
        leaf, _ = self.leaf("leaf")        # starting a process: it is still starting
        outer = mcp_stdio.Server("front", "1")
        outer.mount("leaf", [leaf["command"]] + leaf["args"], cwd=self.dir)
        for i in range(3):
            with self.subTest(client=i), mcp_stdio.InProcessClient(outer, era="legacy") as c:
                r = c.call_tool("leaf_where", {})
                self.assertEqual(r, {"content": [{"type": "text", "text": "-"}]})

    def test_the_proxy_start_timeout_bounds_each_servers_start(self):
        """--start-timeout is each mount's time to start and list: a server slower than it
        is left out of the first list, said on stderr with the time it had, and not killed
        for it: it goes on starting and joins with a list change, started once."""
        slow, folder = self.leaf("slow", "slow")
        path = self.config({"slow": slow})
        changed = []
        with mcp_stdio.Client(SERVE + ["proxy", path, "--start-timeout=0.3"], cwd=HERE,
                              era="legacy", on_changed=changed.append) as c:
            self.assertEqual(c.list_tools(), [])          # the mount sleeps 1 s first
            said = r"mcp-stdio-proxy: mount 'slow' has not listed within 0\.3 s " \
                   r"\(start_timeout\); it is left out of the first list, goes on starting " \
                   r"\(3 s at most\) and joins when it has listed\nmcp-stdio-proxy: mount " \
                   r"'slow' is up, after \d+\.\d s\n"
            deadline = time.monotonic() + 20
            while not re.search(said, c.stderr) and time.monotonic() < deadline:
                time.sleep(0.02)
            self.assertRegex(c.stderr, said)
            while not changed and time.monotonic() < deadline:
                time.sleep(0.02)
            self.assertIn("notifications/tools/list_changed", changed)
            self.assertEqual([t["name"] for t in c.list_tools()],
                             ["slow_confirm", "slow_wait", "slow_where"])
        with open(os.path.join(folder, "starts")) as f:
            self.assertEqual(len(f.read().split()), 1)

    @unittest.skipIf(os.name == "nt", "symlinks need a privilege on Windows")
    def test_relative_paths_follow_the_configuration_file(self):
        # cwd "." and a command with a slash are the file's folder's, wherever we run.
        link = os.path.join(self.dir, "py")
        os.symlink(sys.executable, link)
        path = self.config({"a": {"command": "./py", "args": ["-S", "leaf.py", "."],
                                  "cwd": "."}})
        with tempfile.TemporaryDirectory() as elsewhere:
            with mcp_stdio.Client(SERVE + ["proxy", path, "--tools", "a_where"],
                                  cwd=elsewhere, env=dict(os.environ, PYTHONPATH=HERE)) as c:
                self.assertEqual([t["name"] for t in c.list_tools()], ["a_where"])


@unittest.skipUnless(SLOW and os.environ.get("MCP_STDIO_REAL_SERVERS") and
                     os.environ.get("MCP_STDIO_NODE_BIN") and
                     os.environ.get("MCP_STDIO_SDK_PYTHON"),
                     "real servers from npm and PyPI are installed by .ci/run (MCP_STDIO_SLOW=1, "
                     "MCP_STDIO_REAL_SERVERS)")
class RealMounts(unittest.TestCase):
    """The proxy over server-everything and server-filesystem (npm) and mcp-server-time (PyPI),
    through our client, the official Python and TypeScript SDKs and the Inspector."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.path, self.commands, self.files = real_servers(tmp.name)
        self.calls = [(n, dict(a, path=os.path.join(self.files, a["path"])) if "path" in a
                       else a, want) for n, a, want in REAL_CALLS]

    def direct_names(self, answers=True):
        names = []
        for key, command in self.commands.items():
            with mcp_stdio.Client(command, **(_answers() if answers else {})) as c:
                names += ["%s_%s" % (key, t["name"]) for t in c.list_tools()]
        return sorted(names)

    def reset_files(self):
        """The files folder as it was: the calls write."""
        for name in os.listdir(self.files):
            path = os.path.join(self.files, name)
            shutil.rmtree(path) if os.path.isdir(path) else os.remove(path)
        with open(os.path.join(self.files, "a.txt"), "w") as f:
            f.write("alpha\n")

    def task_calls(self):
        """(name, arguments) for every tool that must run as a task."""
        calls = []
        for key, command in self.commands.items():
            with mcp_stdio.Client(command) as c:
                calls += [["%s_%s" % (key, t["name"]), schema_arguments(t["inputSchema"],
                                                                        self.files)]
                          for t in c.list_tools()
                          if (t.get("execution") or {}).get("taskSupport") == "required"]
        return calls

    def every_call(self):
        """(name, arguments) for every tool that does not ask and need not run as a task
        (an SDK client that cannot answer or follow would fail it directly too), then the
        checked calls last, on the files as they were."""
        calls = []
        for key, command in self.commands.items():
            with mcp_stdio.Client(command) as c:
                for t in c.list_tools():
                    name = "%s_%s" % (key, t["name"])
                    if (t.get("execution") or {}).get("taskSupport") != "required" and \
                            name not in [n for n, _, _ in self.calls]:
                        calls.append([name, dict(schema_arguments(t["inputSchema"], self.files),
                                                 **_QUICKER.get(name, {}))])
        return [c[:2] for c in self.calls] + calls

    def test_our_client_in_both_eras(self):
        direct = self.direct_names()
        with mcp_stdio.Client(self.commands["everything"]) as d:
            theirs = d.instructions
        self.assertTrue(theirs)
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                heard, updated = [], []
                self.reset_files()
                with mcp_stdio.Client(SERVE + ["proxy", self.path] + REAL_START, era=era,
                                      cwd=HERE, on_updated=updated.append,
                                      **_answers()) as c:
                    self.assertEqual(sorted(t["name"] for t in c.list_tools()), direct,
                                     c.stderr[-2000:])    # what a mount left out said why
                    # The first thing a host that searches tools shows its model: theirs.
                    self.assertIn("## everything\n" + theirs[:300], c.instructions)
                    for name, args, want in self.calls:
                        r = c.call_tool(name, args)
                        self.assertIn(want, r["content"][0]["text"], r)
                    # The mount's questions reach us and our answers go back, in both eras.
                    r = c.call_tool("everything_trigger-elicitation-request", {})
                    self.assertIn("Name: Ada", json.dumps(r))
                    r = c.call_tool("everything_trigger-sampling-request", {"prompt": "hi"})
                    self.assertIn("sampled here", json.dumps(r))
                    r = c.call_tool("everything_get-roots-list", {})
                    self.assertIn("file:///probe-root", json.dumps(r))
                    r = c.call_tool("everything_trigger-long-running-operation",
                                    {"duration": 1, "steps": 2},
                                    on_progress=lambda *p: heard.append(p))
                    self.assertFalse(r.get("isError"), r)
                    self.assertEqual([p[:2] for p in heard], [(1, 2), (2, 2)])
                    # Our subscription to a mounted resource hears its updates (the mount
                    # is asked to report on every resource it lists).
                    uri = "demo://resource/static/document/architecture.md"
                    c.listen([uri])
                    c.call_tool("everything_toggle-subscriber-updates", {})
                    deadline = time.monotonic() + 20
                    while uri not in updated and time.monotonic() < deadline:
                        time.sleep(0.05)
                    self.assertIn(uri, updated)
                    # Every mounted tool answers a CallToolResult (a tool's own isError
                    # included), the one that must run as a task too (its task is ours).
                    for t in c.list_tools():
                        args = dict(schema_arguments(t["inputSchema"], self.files),
                                    **_QUICKER.get(t["name"], {}))
                        required = (t.get("execution") or {}).get("taskSupport") == "required"
                        r = c.call_tool(t["name"], args, task=True if required else None)
                        self.assertIsInstance(r["content"], list, (t["name"], r))

    def test_the_official_python_sdk_in_both_eras(self):
        direct = self.direct_names()
        with tempfile.TemporaryDirectory() as tmp:
            probe = os.path.join(tmp, "probe.py")
            with open(probe, "w") as f:
                f.write(REAL_SDK_PROBE)
            r = subprocess.run([_sdk_python(), probe, sys.executable, self.path, HERE,
                                json.dumps(self.every_call()),
                                os.path.join(self.files, "a.txt")], capture_output=True,
                               timeout=180, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace")[-2000:])
        out = json.loads(r.stdout.decode().splitlines()[-1])
        for mode, seen in out.items():
            with self.subTest(mode=mode):
                self.assertEqual(seen["tools"], direct)
                for name, _, want in self.calls:
                    self.assertIn(want, seen[name][0])
                    self.assertFalse(seen[name][1])

    @unittest.skipUnless(os.environ.get("MCP_STDIO_TS_SDK"), "needs the TypeScript SDK")
    def test_the_typescript_sdk(self):
        direct = self.direct_names()
        sdk = os.environ["MCP_STDIO_TS_SDK"]
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "probe.mjs")
            with open(script, "w") as f:
                f.write(REAL_TS_PROBE % {"sdk": sdk.replace(os.sep, "/"),
                                         "python": json.dumps(sys.executable),
                                         "config": json.dumps(self.path),
                                         "here": json.dumps(HERE),
                                         "calls": json.dumps(self.every_call()),
                                         "task_calls": json.dumps(self.task_calls())})
            node = os.path.join(os.environ["MCP_STDIO_NODE_BIN"], "node")
            r = subprocess.run([node, script], capture_output=True, timeout=180,
                               stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace")[-2000:])
        out = json.loads(r.stdout.decode().splitlines()[-1])
        self.assertEqual(out["tools"], direct)
        for name, _, want in self.calls:
            self.assertIn(want, out[name][0])
            self.assertFalse(out[name][1])
        tasks = self.task_calls()
        self.assertEqual([n for n, _ in tasks], ["everything_simulate-research-query"])
        for name, _ in tasks:
            self.assertEqual(out[name][0], ["taskCreated"])
            self.assertEqual(out[name][-1], ["result", False])

    @unittest.skipUnless(os.environ.get("MCP_STDIO_INSPECTOR"), "needs the Inspector")
    def test_the_inspector_in_both_eras(self):
        direct = self.direct_names(answers=False)      # it declares no elicitation, sampling
        home = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, home, True)
        env = dict(os.environ, HOME=home, NO_COLOR="1", PATH=os.environ["MCP_STDIO_NODE_BIN"] +
                   os.pathsep + os.environ.get("PATH", ""))
        proxy = ["-e", "PYTHONPATH=" + HERE, sys.executable, "-m", "mcp_stdio", "proxy",
                 self.path] + REAL_START
        rest = self.every_call()[len(self.calls):]
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                def inspector(*args, tool_error=False):
                    r = subprocess.run([os.environ["MCP_STDIO_INSPECTOR"], "--cli",
                                        "--protocol-era", era, "--format", "json", "-q"] +
                                       list(args) + proxy, capture_output=True, timeout=180,
                                       env=env, stdin=subprocess.DEVNULL)
                    # 5: the tool answered isError (the Inspector's exit for a tool's error)
                    self.assertIn(r.returncode, (0, 5) if tool_error else (0,),
                                  r.stderr.decode(errors="replace")[-2000:])
                    return json.loads(r.stdout)["result"]

                def call(name, args, tool_error=False):
                    return inspector("--method", "tools/call", "--tool-name", name, *[
                        w for k, v in args.items() for w in ("--tool-arg", "%s=%s" % (
                            k, v if isinstance(v, str) else json.dumps(v)))],
                        tool_error=tool_error)
                names = sorted(t["name"] for t in inspector("--method", "tools/list")["tools"])
                # The proxy's mounts declare what it can relay, so they list the tools that
                # ask too; the Inspector's own listing of each server would leave those out.
                self.assertEqual(sorted(set(names) - set(direct)), [
                    "everything_get-roots-list", "everything_trigger-elicitation-request",
                    "everything_trigger-sampling-request", "everything_trigger-url-elicitation"])
                self.assertEqual(sorted(set(direct) - set(names)), [])
                self.reset_files()
                for name, args, want in self.calls:
                    self.assertIn(want, call(name, args)["content"][0]["text"])
                # Then every other mounted tool but the task-only one, three Inspectors at
                # a time: each answers a CallToolResult (a tool's own isError included: the
                # calls share one folder, and the questions' tools are refused an answer).
                from concurrent.futures import ThreadPoolExecutor
                with ThreadPoolExecutor(3) as pool:
                    results = list(pool.map(lambda c: call(*c, tool_error=True), rest))
                for (name, _), result in zip(rest, results):
                    self.assertIsInstance(result["content"], list, name)

    def test_a_team_server_with_server_everything_mounted(self):
        """A server of one's own with server-everything mounted: a call right after start
        works in both eras (the mount's roots question at start belongs to no call), and the
        doctor passes every host (its task-only tool is listed as one that may be a task)."""
        script = own_script(self, "team.py", '''
            server = mcp_stdio.Server("team", "1")

            @server.tool
            def hello() -> str:
                "Say hello."
                return "hi"
            server.mount("everything", %r)
            raise SystemExit(server.run())
            ''' % self.commands["everything"])
        for era in ("modern", "legacy"):
            with self.subTest(era=era):
                r = subprocess.run(SERVE + ["call", "everything_trigger-long-running-operation",
                                            "duration=1", "steps=1", "--era", era, "--"] + PY +
                                   [script], capture_output=True, cwd=HERE, timeout=120,
                                   stdin=subprocess.DEVNULL)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertIn(b"Long running operation completed", r.stdout)
        r = subprocess.run(SERVE + ["doctor", "--"] + PY + [script], capture_output=True,
                           cwd=HERE, timeout=300, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertTrue(r.stdout.endswith(b"doctor: 7 of 7 host(s) would start it\n"), r.stdout)

    def test_tool_search_over_server_everything_and_the_demo(self):
        """proxy --tool-search: two tools listed in both eras; purposes find their tools;
        call_tool of a mounted tool is its direct call; the Inspector lists and calls."""
        path = os.path.join(os.path.dirname(self.path), "search.json")
        with open(path, "w") as f:
            json.dump({"mcpServers": {"everything": {
                "command": self.commands["everything"][0],
                "args": self.commands["everything"][1:]}, "demo": {
                    "command": sys.executable, "args": ["-S", "-m", "mcp_stdio"],
                    "env": {"PYTHONPATH": HERE}}}}, f)
        proxy = SERVE + ["proxy", path, "--tool-search"] + REAL_START
        purposes = (("show the environment variables of the server", "everything_get-env"),
                    ("a deep research report on a topic", "everything_simulate-research-query"),
                    ("compress a single file", "everything_gzip-file-as-resource"),
                    ("an operation that reports its progress", "everything_trigger-long-running-operation"),
                    ("divide one number by another", "demo_divide"),
                    ("a tiny logo", "everything_get-tiny-image"))
        for era in ("legacy", "modern"):
            with self.subTest(era=era), mcp_stdio.Client(proxy, era=era, cwd=HERE,
                                                         **_answers()) as c:
                self.assertEqual(sorted(t["name"] for t in c.list_tools()),
                                 ["call_tool", "search_tools"], c.stderr[-2000:])
                for query, intended in purposes:
                    r = c.call_tool("search_tools", {"query": query, "limit": 3})
                    names = [t["name"] for t in r["structuredContent"]["tools"]]
                    self.assertIn(intended, names, query)
                via = c.call_tool("call_tool", {"name": "everything_get-sum",
                                                "arguments": {"a": "one"}})
                direct = c.call_tool("everything_get-sum", {"a": "one"})
                self.assertTrue(via["isError"])
                self.assertEqual(via["content"], direct["content"])
                r = c.call_tool("call_tool", {"name": "everything_get-sum",
                                              "arguments": {"a": 1, "b": 2}})
                self.assertIn("3", r["content"][0]["text"])
        if not os.environ.get("MCP_STDIO_INSPECTOR"):
            return
        env = dict(os.environ, HOME=tempfile.mkdtemp(), NO_COLOR="1", PATH=os.environ[
            "MCP_STDIO_NODE_BIN"] + os.pathsep + os.environ.get("PATH", ""))
        self.addCleanup(shutil.rmtree, env["HOME"], True)
        for era in ("legacy", "modern"):
            with self.subTest(inspector=era):
                def inspector(*args):
                    r = subprocess.run([os.environ["MCP_STDIO_INSPECTOR"], "--cli",
                                        "--protocol-era", era, "--format", "json", "-q"] +
                                       list(args) + ["-e", "PYTHONPATH=" + HERE] + proxy,
                                       capture_output=True, timeout=180, env=env,
                                       stdin=subprocess.DEVNULL)
                    self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace")[-2000:])
                    return json.loads(r.stdout)["result"]
                listed = inspector("--method", "tools/list")
                self.assertEqual(sorted(t["name"] for t in listed["tools"]),
                                 ["call_tool", "search_tools"])
                r = inspector("--method", "tools/call", "--tool-name", "call_tool",
                              "--tool-arg", "name=demo_echo",
                              "--tool-arg", 'arguments={"text": "found"}')
                self.assertEqual(r["content"][0]["text"], "found")

    @unittest.skipUnless(os.environ.get("MCP_STDIO_HOSTS_BIN"), "needs Claude Code")
    def test_claude_code_connects_to_the_proxy(self):
        home = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, home, True)
        env = dict(os.environ, HOME=home, PYTHONPATH=HERE, PATH=os.pathsep.join((
            os.environ["MCP_STDIO_HOSTS_BIN"], os.environ["MCP_STDIO_NODE_BIN"],
            os.path.dirname(sys.executable), "/usr/bin", "/bin")))
        env.pop("XDG_CONFIG_HOME", None)
        r = subprocess.run(["claude", "mcp", "add", "--scope", "user", "proxy", "--",
                            sys.executable, "-m", "mcp_stdio", "proxy", self.path],
                           capture_output=True, env=env, cwd=home, timeout=120,
                           stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run(["claude", "mcp", "list"], capture_output=True, env=env, cwd=home,
                           timeout=180, stdin=subprocess.DEVNULL)
        listed = [line for line in r.stdout.decode().splitlines() if line.startswith("proxy")]
        self.assertEqual(len(listed), 1, r.stdout + r.stderr)
        self.assertIn("Connected", listed[0])


###############################################################################
# Server: identity, catalog and options #######################################
###############################################################################


class Lifespan(ProcTest):
    """Setup before serving, teardown on every way out, through real processes."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.script = os.path.join(tmp.name, "life.py")
        self.log = os.path.join(tmp.name, "events")
        with open(self.script, "w") as f:
            f.write(LIFESPAN_SERVER)

    def events(self):
        with open(self.log) as f:
            return f.read().split()

    def test_serving_freezes_what_setup_made(self):
        """What exists when serving starts is moved out of the cycle collector's walks
        (gc.freeze), after the young generations are collected: a cycle dropped just
        before is gone, the catalog is frozen."""
        script = textwrap.dedent("""
            import gc, sys, weakref
            gc.disable()                # only serving's own collection may free the cycle
            sys.path.insert(0, %r)
            import mcp_stdio
            server = mcp_stdio.Server("frozen", "1")
            class Node: pass
            node = Node(); node.me = node
            dropped = weakref.ref(node)
            del node

            @server.tool
            def state() -> str:
                return "%%d %%s" %% (gc.get_freeze_count(), dropped() is None)
            sys.exit(server.run([]))
            """) % HERE
        with mcp_stdio.Client(PY + ["-c", script], era="legacy") as c:
            frozen, gone = c.call_tool("state")["content"][0]["text"].split()
        self.assertGreater(int(frozen), 1000)
        self.assertEqual(gone, "True")

    def start(self, **env):
        p = self.spawn(script=self.script, env=dict(env, LIFESPAN_LOG=self.log))
        p.initialize()
        return p

    def test_teardown_at_end_of_input(self):
        p = self.start()
        self.assertEqual(p.request(call_msg(1, "db"))["result"]["content"][0]["text"],
                         "connected")
        self.assertEqual(p.close(), 0)
        self.assertEqual(self.events(), ["setup", "teardown"])

    @unittest.skipIf(os.name == "nt", "Windows has no SIGTERM to send")
    def test_teardown_on_sigterm(self):
        p = self.start()
        start = time.monotonic()
        p.p.send_signal(signal.SIGTERM)
        self.assertEqual(p.p.wait(5), 0)
        self.assertLess(time.monotonic() - start, 2.0)
        self.assertEqual(self.events(), ["setup", "teardown"])

    def test_teardown_when_stdout_closes(self):
        r, w = os.pipe()
        p = subprocess.Popen(PY + [self.script], stdin=subprocess.PIPE, stdout=w,
                             stderr=subprocess.PIPE, env=dict(os.environ, LIFESPAN_LOG=self.log))
        self.addCleanup(p.kill)
        os.close(w)
        os.close(r)
        msgs = [init_msg(), call_msg(2, "big")]
        out, err = p.communicate(b"".join(json.dumps(m).encode() + b"\n" for m in msgs),
                                 timeout=TIMEOUT)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(self.events(), ["setup", "teardown"])

    def test_a_failing_setup(self):
        p = self.spawn(script=self.script, env={"LIFESPAN_LOG": self.log, "FAIL_SETUP": "1"})
        self.assertEqual(p.close(), 1)
        self.assertEqual(p.raw, [])
        self.assertIn(b"lifespan setup failed: RuntimeError: no database", p.stderr)

    def test_a_failing_teardown(self):
        p = self.start(FAIL_TEARDOWN="1")
        self.assertEqual(p.close(), 0)
        self.assertIn(b"lifespan teardown failed: RuntimeError", p.stderr)


class UserCommandLine(unittest.TestCase):
    """A user's server has its own command line: name, version, options of its own."""

    def run_server(self, *args, input=b"", env=None):
        with tempfile.TemporaryDirectory() as cwd:      # no ./notes of the caller's
            return subprocess.run(PY + [os.path.join(HERE, "examples",
                                                                "notes_server.py")] + list(args),
                                  input=input, capture_output=True, timeout=TIMEOUT, cwd=cwd,
                                  env=env)

    def test_help_version_and_own_options(self):
        r = self.run_server("--help")
        self.assertEqual(r.returncode, 0)
        self.assertTrue(r.stdout.startswith(b"usage: python notes_server.py [options]\n\nServe "
                                            b"notes 1.0 as an MCP server"))
        self.assertIn(b"  --notes-dir DIR     where the notes are kept", r.stdout)
        self.assertIn(b"  --workers N", r.stdout)
        self.assertEqual(self.run_server("--version").stdout, b"notes 1.0\n")
        with tempfile.TemporaryDirectory() as tmp, tempfile.TemporaryDirectory() as other:
            with open(os.path.join(tmp, "kept.txt"), "w") as f:
                f.write("x")
            with open(os.path.join(other, "elsewhere.txt"), "w") as f:
                f.write("y")
            msgs = [init_msg(), req_msg(2, "resources/list")]
            # --notes-dir wins over $NOTES_DIR: only its notes are listed.
            r = self.run_server("--notes-dir", tmp, "--workers", "2",
                                input=b"".join(json.dumps(m).encode() + b"\n" for m in msgs),
                                env=dict(os.environ, NOTES_DIR=other))
        self.assertEqual(r.returncode, 0, r.stderr)
        listed = json.loads(r.stdout.splitlines()[1])["result"]["resources"]
        self.assertEqual([x["uri"] for x in listed], ["notes://kept"])
        r = self.run_server("--nope")
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"error: unknown argument '--nope'", r.stderr)


###############################################################################
# Appendix: JSON Schema 2020-12 subset checker ################################
###############################################################################


@unittest.skipUnless(os.path.isdir(SUITE), "JSON-Schema-Test-Suite not found in ../shared")
class OfficialSuite(unittest.TestCase):
    """The JSON-Schema-Test-Suite, 2020-12: every in-subset test passes, the rest is rejected."""

    def run_folder(self, folder):
        passed, rejected, failures = 0, 0, []
        for fname, group in _suite_groups(folder):
            try:
                v = compile_schema(group["schema"])
            except SchemaError:
                rejected += len(group["tests"])
                continue
            for t in group["tests"]:
                ok = not v.errors(t["data"])
                if ok == t["valid"]:
                    passed += 1
                else:
                    failures.append("%s | %s | %s" % (fname, group["description"],
                                                      t["description"]))
        return passed, rejected, failures

    def test_required_files(self):
        passed, rejected, failures = self.run_folder(SUITE)
        self.assertEqual(failures, [])
        self.assertEqual((passed, rejected), (969, 330))

    def test_out_of_subset_schemas_are_rejected_for_the_documented_reasons(self):
        reasons = {}
        for fname, group in _suite_groups(SUITE):
            try:
                compile_schema(group["schema"])
            except SchemaError as e:
                reasons.setdefault(fname, set()).add(str(e).split(": ", 1)[0].rsplit("/", 1)[-1])
        self.assertEqual(set(reasons), {
            "anchor.json", "defs.json", "dynamicRef.json", "not.json", "pattern.json",
            "patternProperties.json", "ref.json", "refRemote.json", "unevaluatedItems.json",
            "unevaluatedProperties.json", "vocabulary.json"})

    def test_optional_files(self):
        # ECMA-262 regex classes (\\d, \\w, \\s with U+FEFF) are translated, so every
        # optional test inside the subset passes.
        passed, rejected, failures = self.run_folder(os.path.join(SUITE, "optional"))
        self.assertEqual(failures, [])
        self.assertEqual(passed, 95)

    def test_optional_format_files_never_crash(self):
        # format is an annotation (the 2020-12 default): those tests that expect a
        # format assertion fail by design, and none may crash.
        passed, rejected, failures = self.run_folder(os.path.join(SUITE, "optional", "format"))
        self.assertEqual(passed + len(failures), 764)
        self.assertEqual(rejected, 0)


class SchemaChecker(unittest.TestCase):

    def errors(self, schema, instance):
        return compile_schema(schema).errors(instance)

    def test_message_names_pointer_and_keyword(self):
        s = {"type": "object", "properties": {"address": {"type": "object", "properties": {
            "zip": {"type": "string", "pattern": "^[0-9]{5}$"}}}}}
        self.assertEqual(self.errors(s, {"address": {"zip": "1234"}}),
                         ["/address/zip: does not match pattern '^[0-9]{5}$'"])
        self.assertEqual(self.errors({"required": ["a"]}, {}),
                         ['(root): missing required property "a"'])
        self.assertEqual(self.errors({"items": {"minimum": 3}}, [5, 1]),
                         ["/1: 1 is less than minimum 3"])
        self.assertEqual(self.errors({"properties": {"a/b~": {"type": "string"}}}, {"a/b~": 1}),
                         ["/a~1b~0: expected type string, got integer"])
        self.assertEqual(self.errors({"additionalProperties": False}, {"x": 1}),
                         ['(root): unexpected property "x" (additionalProperties)'])

    def test_json_value_semantics(self):
        self.assertTrue(self.errors({"type": "integer"}, True))
        self.assertTrue(self.errors({"type": "number"}, False))
        self.assertFalse(self.errors({"type": "integer"}, 1.0))
        self.assertFalse(self.errors({"type": "integer"}, 1e308))
        self.assertTrue(self.errors({"enum": [1]}, True))
        self.assertTrue(self.errors({"const": False}, 0))
        self.assertFalse(self.errors({"const": 1}, 1.0))
        self.assertTrue(self.errors({"const": [False]}, [0]))
        self.assertFalse(self.errors({"uniqueItems": True}, [1, True]))
        self.assertTrue(self.errors({"uniqueItems": True}, [1, 1.0]))
        self.assertTrue(self.errors({"uniqueItems": True}, [{"a": 1}, {"a": 1.0}]))
        self.assertFalse(self.errors({"maxLength": 1}, "\U0001F600"))

    def test_multiple_of_is_exact(self):
        self.assertFalse(self.errors({"multipleOf": 0.1}, 0.3))
        self.assertFalse(self.errors({"multipleOf": 0.0001}, 0.0075))
        self.assertTrue(self.errors({"multipleOf": 0.123}, 1e308))
        self.assertTrue(self.errors({"multipleOf": 2}, 7))

    def test_pattern_is_searched_and_ecma_anchored(self):
        self.assertFalse(self.errors({"pattern": "b"}, "abc"))
        self.assertTrue(self.errors({"pattern": "^abc$"}, "abc\n"))
        self.assertTrue(self.errors({"pattern": "^\\d$"}, "\u0661"))     # ECMA \d is ASCII
        self.assertFalse(self.errors({"pattern": "^[$]$"}, "$"))

    def test_unsupported_keywords_say_what_to_use(self):
        cases = {
            "unevaluatedProperties": "additionalProperties",
            "dependencies": "dependentRequired",
            "additionalItems": "prefixItems",
        }
        for kw, hint in cases.items():
            with self.assertRaises(SchemaError) as cm:
                compile_schema({"properties": {"x": {kw: False}}})
            self.assertIn("#/properties/x/" + kw, str(cm.exception))
            self.assertIn(hint, str(cm.exception))
        with self.assertRaisesRegex(SchemaError, "prefixItems"):
            compile_schema({"items": [{"type": "string"}]})

    def test_rejected_at_compile_time(self):
        bad = [
            {"$ref": "https://example.com/schema"}, {"$ref": "#/$defs/missing"},
            {"$ref": "#nowhere"}, {"$dynamicRef": "#x"},
            {"$schema": "http://json-schema.org/draft-04/schema#"},
            {"properties": {"a": {"$id": "inner"}}}, {"properties": {"a": {"$schema": "x"}}},
            {"pattern": "\\p{L}"}, {"pattern": "(?P<x>a)"}, {"pattern": "a++"}, {"pattern": "("},
            {"minimum": "3"}, {"required": "a"}, {"type": "int"}, {"maxLength": -1},
            {"multipleOf": 0}, {"enum": 3}, {"anyOf": []}, {"properties": []}, 3, None,
            {"type": ["string", "string"]}, {"required": ["a", "a"]}, {"$anchor": "1x"},
            {"$ref": "#"}, {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}},
        ]
        for s in bad:
            with self.subTest(schema=s), self.assertRaises(SchemaError):
                compile_schema(s)

    def test_refs_pointers_anchors(self):
        s = {"$defs": {"a/b": {"type": "integer"}, "c%d": {"type": "string"},
                       "n": {"$anchor": "num", "minimum": 0}},
             "properties": {"x": {"$ref": "#/$defs/a~1b"}, "y": {"$ref": "#/$defs/c%25d"},
                            "z": {"$ref": "#num"}, "t": {"$ref": "#"}}}
        v = compile_schema(s)
        self.assertEqual(v.errors({"x": 1, "y": "s", "z": 3, "t": {"x": 2}}), [])
        self.assertEqual(len(v.errors({"x": "1", "y": 2, "z": -1, "t": {"x": "2"}})), 4)

    def test_recursive_schema_and_deep_instance_are_bounded(self):
        v = compile_schema({"type": "array", "items": {"$ref": "#"}})
        deep = []
        for _ in range(500):
            deep = [deep]
        errs = v.errors(deep)
        self.assertEqual(len(errs), 1)
        self.assertIn("deeper than", errs[0])

    def test_nested_anyof_bomb_is_linear(self):
        defs = {"L0": {"type": "integer"}}
        for k in range(1, 17):
            branch = {"type": "array", "items": {"$ref": "#/$defs/L%d" % (k - 1)}}
            defs["L%d" % k] = {"anyOf": [branch, copy.deepcopy(branch)]}
        v = compile_schema({"$defs": defs, "$ref": "#/$defs/L16"})
        inst = "leaf"
        for _ in range(16):
            inst = [inst]
        calls, me = [], threading.current_thread()
        real = mcp_stdio._State.fail
        # Count the work through the error path: memoisation keeps it to ~2 per level.
        # Only this thread's: tests running beside this one validate too (CI counted 252).
        mcp_stdio._State.fail = lambda self, loc, msg: (
            threading.current_thread() is me and calls.append(1)) or real(self, loc, msg)
        try:
            self.assertTrue(v.errors(inst))
        finally:
            mcp_stdio._State.fail = real
        self.assertLess(len(calls), 200)

    def test_caps(self):
        deep = {}
        for _ in range(80):
            deep = {"items": deep}
        with self.assertRaisesRegex(SchemaError, "deeper"):
            compile_schema(deep)
        with self.assertRaisesRegex(SchemaError, "subschemas"):
            compile_schema({"properties": {str(i): {} for i in range(10001)}})
        v = compile_schema({"items": {"type": "string"}})
        self.assertEqual(len(v.errors(list(range(1000)))), 20)

    def test_draft07_accepted_where_it_agrees(self):
        d7 = "http://json-schema.org/draft-07/schema#"
        v = compile_schema({"$schema": d7, "type": "object", "properties": {
            "a": {"$ref": "#/definitions/A", "description": "annotations beside $ref are fine"}},
            "definitions": {"A": {"type": "string"}}})
        self.assertEqual(v.errors({"a": "x"}), [])
        self.assertTrue(v.errors({"a": 1}))
        for bad in ({"$ref": "#/definitions/A", "minLength": 1, "definitions": {"A": {}}},):
            bad = dict(bad, **{"$schema": d7})
            with self.subTest(schema=bad), self.assertRaises(SchemaError):
                compile_schema(bad)

    def test_annotations_and_unknown_keywords_are_accepted(self):
        v = compile_schema({"format": "email", "x-mcp-header": "X", "discriminator": {},
                            "contentMediaType": "application/json", "title": "t",
                            "$comment": "c", "deprecated": True})
        self.assertEqual(v.errors("not an email"), [])

    def test_schema_object_is_left_unchanged(self):
        s = {"type": "object", "$defs": {"a": {"$anchor": "x"}}, "properties": {
            "a": {"$ref": "#x"}, "b": {"anyOf": [{"type": "null"}, {"type": "string"}]}}}
        before = copy.deepcopy(s)
        v = compile_schema(s)
        v.errors({"a": 1, "b": 2})
        self.assertEqual(s, before)
        self.assertIs(v.schema, s)

    def test_validate_caches(self):
        s = {"type": "string"}
        self.assertEqual(validate(s, "x"), [])
        self.assertEqual(validate(s, 1), ["(root): expected type string, got integer"])

    def test_conformance_fixture(self):
        fixture = {
            "$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
            "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {
                "street": {"type": "string"}, "city": {"type": "string"}}}},
            "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                           "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                           "phone": {"type": "string"}, "email": {"type": "string"}},
            "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
            "if": {"properties": {"contactMethod": {"const": "phone"}},
                   "required": ["contactMethod"]},
            "then": {"required": ["phone"]}, "else": {"required": ["email"]},
            "additionalProperties": False}
        v = compile_schema(fixture)
        self.assertEqual(v.errors({"contactMethod": "phone", "phone": "1"}), [])
        self.assertTrue(v.errors({"contactMethod": "phone", "email": "a@b"}))
        self.assertTrue(v.errors({"phone": "1", "extra": 1}))


class Draft07Forms(unittest.TestCase):
    """Draft-07 keywords that 2020-12 renamed are translated when the schema says draft-07."""

    D7 = "http://json-schema.org/draft-07/schema#"

    def test_tuple_items_and_additional_items(self):
        v = compile_schema({"$schema": self.D7, "type": "array", "additionalItems": False,
                            "items": [{"type": "string"}, {"type": "number"}]})
        self.assertEqual(v.errors(["a", 1]), [])
        self.assertEqual(v.errors(["a", 1, 2]), ["/2: no value is allowed here (false schema)"])
        self.assertEqual(v.errors([1]), ["/0: expected type string, got integer"])
        open_tail = compile_schema({"$schema": self.D7, "items": [{"type": "string"}]})
        self.assertEqual(open_tail.errors(["a", 1, None]), [])
        ignored = compile_schema({"$schema": self.D7, "items": {"type": "string"},
                                  "additionalItems": False})     # ignored without the tuple
        self.assertEqual(ignored.errors(["a", "b"]), [])

    def test_dependencies(self):
        v = compile_schema({"$schema": self.D7, "dependencies": {
            "a": ["b"], "c": {"required": ["d"]}}})
        self.assertEqual(v.errors({"a": 1}),
                         ['(root): property "a" requires property "b" (dependentRequired)'])
        self.assertEqual(v.errors({"c": 1}), ['(root): missing required property "d"'])
        self.assertEqual(v.errors({"a": 1, "b": 2, "c": 3, "d": 4}), [])

    def test_references_follow_the_renaming(self):
        schema = {"$schema": self.D7, "definitions": {"t": {
            "items": [{"type": "string"}], "additionalItems": {"type": "integer"}}},
            "properties": {"x": {"$ref": "#/definitions/t"},
                           "y": {"$ref": "#/definitions/t/items/0"},
                           "z": {"$ref": "#/definitions/t/additionalItems"}}}
        before = json.dumps(schema)
        v = compile_schema(schema)
        self.assertEqual(json.dumps(schema), before)              # the author's dict is untouched
        self.assertIs(v.schema, schema)
        self.assertEqual(v.errors({"x": ["a", 1, 2], "y": "s", "z": 1}), [])
        self.assertEqual(v.errors({"x": ["a", "b"], "y": 3, "z": "q"}), [
            "/x/1: expected type integer, got string", "/y: expected type string, got integer",
            "/z: expected type integer, got string"])

    def test_the_2020_dialect_still_refuses_them(self):
        for schema, word in (({"items": [{}]}, "prefixItems"),
                             ({"dependencies": {"a": ["b"]}}, "dependentRequired"),
                             ({"additionalItems": False}, "prefixItems")):
            with self.assertRaises(SchemaError) as cm:
                compile_schema(schema)
            self.assertIn(word, str(cm.exception))

    def test_ecma_named_groups(self):
        v = compile_schema({"type": "string", "pattern": "^(?<year>[0-9]{4})-\\k<year>$"})
        self.assertEqual(v.errors("2020-2020"), [])
        self.assertEqual(len(v.errors("2020-2021")), 1)
        behind = compile_schema({"type": "string", "pattern": "(?<=a)b"})   # not a group name
        self.assertEqual((behind.errors("ab"), len(behind.errors("cb"))), ([], 1))
        with self.assertRaises(SchemaError) as cm:
            compile_schema({"type": "string", "pattern": "\\p{L}+"})
        self.assertIn("Unicode property escapes", str(cm.exception))


class SchemaProperties(unittest.TestCase):
    """Random schemas and instances (fixed seed): only SchemaError, stable verdicts."""

    KEYWORDS = ["type", "enum", "const", "minimum", "maximum", "exclusiveMinimum", "multipleOf",
                "minLength", "maxLength", "pattern", "items", "prefixItems", "contains",
                "minItems", "uniqueItems", "properties", "required", "additionalProperties",
                "patternProperties", "propertyNames", "dependentRequired", "dependentSchemas",
                "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "$defs",
                "unevaluatedItems", "minContains", "maxProperties", "bogus"]

    def value(self, r, depth=0):
        k = r.randrange(9 if depth < 3 else 6)
        if k == 6:
            return [self.value(r, depth + 1) for _ in range(r.randrange(3))]
        if k == 7:
            return {r.choice("abc"): self.value(r, depth + 1) for _ in range(r.randrange(3))}
        return [None, True, r.randint(-5, 5), r.random() * 10 - 5, r.choice(["", "a", "ab", "1"]),
                r.choice([0.5, -0.0, 3.0]), None, None, r.choice(["x", "aa", "2"])][k]

    def schema(self, r, depth=0):
        if depth > 3 or r.random() < 0.15:
            return r.choice([True, False, {}])
        s = {}
        for _ in range(r.randrange(1, 4)):
            kw = r.choice(self.KEYWORDS)
            sub = lambda: self.schema(r, depth + 1)  # noqa: E731
            s[kw] = {
                "type": lambda: r.choice(["string", "integer", ["null", "number"], "array", "obj"]),
                "enum": lambda: [self.value(r) for _ in range(r.randrange(3))],
                "const": lambda: self.value(r),
                "pattern": lambda: r.choice(["^a", "b$", "[", "\\d+", "(a|b)*"]),
                "items": sub, "contains": sub, "not": sub, "if": sub, "then": sub, "else": sub,
                "additionalProperties": sub, "propertyNames": sub, "prefixItems": lambda: [sub()],
                "properties": lambda: {r.choice("abc"): sub()},
                "patternProperties": lambda: {r.choice(["^a", "b"]): sub()},
                "dependentSchemas": lambda: {"a": sub()},
                "dependentRequired": lambda: {"a": ["b"]},
                "required": lambda: r.choice([["a"], ["a", "b"], "a"]),
                "allOf": lambda: [sub(), sub()], "anyOf": lambda: [sub()], "oneOf": lambda: [sub(), sub()],
                "$ref": lambda: r.choice(["#", "#/$defs/x", "#/properties/a", "http://x"]),
                "$defs": lambda: {"x": sub()},
            }.get(kw, lambda: r.choice([0, 1, 2.5, -1, "3", True]))()
        return s

    def test_random_schemas(self):
        r = random.Random(20261130)
        compiled = 0
        for _ in range(1500):
            s = self.schema(r)
            try:
                v1 = compile_schema(s)
            except SchemaError:
                continue
            v2 = compile_schema(copy.deepcopy(s))
            compiled += 1
            for _ in range(5):
                x = self.value(r)
                self.assertEqual(v1.errors(x), v2.errors(x))
        self.assertGreater(compiled, 300)

    def test_the_subschema_table_drives_every_walk(self):
        table = mcp_stdio._SUBSCHEMA_KEYWORDS
        anchored = {"$ref": "#a", "properties": {"x": {"$anchor": "a", "type": "string"}}}
        cyclic = {"$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}
        self.assertEqual(compile_schema(anchored).errors(5), ["(root): expected type string, "
                                                              "got integer"])
        with self.assertRaises(SchemaError):
            compile_schema(cyclic)
        saved = dict(table)
        try:
            del table["properties"]          # anchors inside properties are no longer found
            with self.assertRaises(SchemaError) as cm:
                compile_schema(anchored)
            self.assertEqual(str(cm.exception), '#/$ref: anchor "#a" is not defined')
            table.update(saved)
            table["allOf"] = ("list", False)  # allOf no longer applies in place: no cycle seen
            compile_schema(cyclic)
        finally:
            table.clear()
            table.update(saved)

    def test_the_fused_object_check_covers_only_what_it_enforces(self):
        # The fast object check stands in for the general one only when a schema
        # uses nothing but the keywords it enforces; the compiler records the rest.
        for s, bad in (({"type": "object", "minProperties": 1}, {}),
                       ({"type": "object", "maxProperties": 0}, {"a": 1}),
                       ({"type": "object", "propertyNames": {"maxLength": 1}}, {"ab": 1}),
                       ({"type": "object", "dependentRequired": {"a": ["b"]}}, {"a": 1}),
                       ({"type": "object", "properties": {"a": {"minimum": 3}}}, {"a": 1}),
                       ({"type": "object", "allOf": [{"required": ["a"]}]}, {})):
            self.assertNotEqual(validate(s, bad), [], s)
        saved = mcp_stdio._OBJECT_CHECK_KEYWORDS
        try:   # claim the fused check enforces minProperties: the check now fails
            mcp_stdio._OBJECT_CHECK_KEYWORDS = saved | {"minProperties"}
            self.assertEqual(compile_schema({"type": "object", "minProperties": 1}).errors({}), [])
        finally:
            mcp_stdio._OBJECT_CHECK_KEYWORDS = saved
        self.assertNotEqual(compile_schema({"type": "object", "minProperties": 1}).errors({}), [])

    def test_flat_object_shortcut_agrees_with_full_check(self):
        # Validator.errors skips the full check when a quick exact-type test accepts
        # a flat object; that test must never accept what the full check rejects.
        r = random.Random(20261201)
        types = ["string", "integer", "number", "boolean", "null", "array", "object",
                 ["string", "null"], ["integer", "boolean"]]
        used = accepted = 0
        for _ in range(400):
            props = {}
            for name in r.sample("abcd", r.randrange(0, 4)):
                props[name] = r.choice([{"type": r.choice(types)}, {"type": r.choice(types),
                                        "description": "d"}, True, {}])
            s = {"type": "object", "properties": props}
            if props and r.random() < 0.7:
                s["required"] = r.sample(sorted(props), r.randrange(1, len(props) + 1))
            if r.random() < 0.6:
                s["additionalProperties"] = r.choice([False, True, {}])
            v = compile_schema(s)
            self.assertIsNotNone(v._accept, s)
            full = mcp_stdio.Validator(s, v._root)
            used += 1
            for _ in range(10):
                x = r.choice([{k: self.value(r) for k in r.sample("abcde", r.randrange(0, 5))},
                              self.value(r), {"a": 1.0, "b": True, "c": "x"}])
                if v._accept(x):
                    accepted += 1
                    self.assertEqual(full.errors(x), [], (s, x))
                self.assertEqual(v.errors(x), full.errors(x), (s, x))
        self.assertGreater(accepted, 200)
        # Anything beyond a type keeps the full check.
        for s in ({"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}},
                  {"type": "object", "additionalProperties": {"type": "string"}},
                  {"type": "object", "properties": {"a": {"$ref": "#"}}}, {"type": "string"}):
            self.assertIsNone(compile_schema(s)._accept, s)


###############################################################################
# Appendix: schemas from type hints ###########################################
###############################################################################


class SchemasFromHints(unittest.TestCase):

    def schema(self, annotation, **kw):
        server = mcp_stdio.Server("s", "1")
        ns = {"T": annotation}
        if "default" in kw:
            exec("def f(x: T = D): return 'ok'", dict(ns, D=kw["default"]), ns)
        else:
            exec("def f(x: T): return 'ok'", ns, ns)
        server.tool(ns["f"])
        return server.tools["f"].input_schema["properties"]["x"]

    def test_each_supported_annotation(self):
        cases = [
            (str, {"type": "string"}), (int, {"type": "integer"}), (float, {"type": "number"}),
            (bool, {"type": "boolean"}), (type(None), {"type": "null"}), (typing.Any, {}),
            (list[int], {"type": "array", "items": {"type": "integer"}}),
            (typing.List[str], {"type": "array", "items": {"type": "string"}}),
            (tuple[int, str], {"type": "array", "minItems": 2, "maxItems": 2,
                               "prefixItems": [{"type": "integer"}, {"type": "string"}]}),
            (tuple[int, ...], {"type": "array", "items": {"type": "integer"}}),
            (dict[str, float], {"type": "object", "additionalProperties": {"type": "number"}}),
            (Union[int, str], {"anyOf": [{"type": "integer"}, {"type": "string"}]}),
            (Optional[int], {"anyOf": [{"type": "integer"}, {"type": "null"}]}),
            (Literal["a", "b"], {"type": "string", "enum": ["a", "b"]}),
            (Literal[1, "a"], {"enum": [1, "a"]}),
            (Color, {"type": "string", "enum": ["red", "blue"]}),
            (Movie, {"type": "object", "properties": {"title": {"type": "string"},
                                                      "year": {"type": "integer"}},
                     "additionalProperties": False}),
            (Book, {"type": "object", "properties": {"isbn": {"type": "string"}},
                    "required": ["isbn"], "additionalProperties": False}),
            (Point, {"type": "object", "properties": {"x": {"type": "number"},
                                                      "y": {"type": "number", "default": 0.0}},
                     "required": ["x"], "additionalProperties": False}),
            (Annotated[str, "A name"], {"type": "string", "description": "A name"}),
            (Annotated[int, Field(minimum=1, maximum=5, description="d")],
             {"type": "integer", "minimum": 1, "maximum": 5, "description": "d"}),
            (Annotated[str, Field(min_length=2, max_length=4, pattern="^a")],
             {"type": "string", "minLength": 2, "maxLength": 4, "pattern": "^a"}),
            (Annotated[list[int], Field(min_items=1)],
             {"type": "array", "items": {"type": "integer"}, "minItems": 1}),
        ]
        if sys.version_info >= (3, 10):
            cases.append((eval("int | None"), {"anyOf": [{"type": "integer"}, {"type": "null"}]}))
        for annotation, expected in cases:
            with self.subTest(annotation=annotation):
                self.assertEqual(self.schema(annotation), expected)

    def test_defaults_optional_and_required(self):
        server = mcp_stdio.Server("s", "1")

        @server.tool
        def f(a: int, b: str = "x", c: Optional[int] = None, color: Color = Color.BLUE):
            return "ok"
        s = server.tools["f"].input_schema
        self.assertEqual(s, {"type": "object", "properties": {
            "a": {"type": "integer"}, "b": {"type": "string", "default": "x"},
            "c": {"type": "integer"}, "color": {"type": "string", "enum": ["red", "blue"],
                                                "default": "blue"}},
            "required": ["a"], "additionalProperties": False})

    def test_short_path_matches_the_general_one(self):
        # Plain parameters take a short path at registration; these cases sit on its
        # edges: a float default JSON cannot carry is dropped, Optional[T] = None and
        # T | None = None mean "null is absent", None as a default alone does not.
        server = mcp_stdio.Server("s", "1")
        ns = {"Optional": Optional}
        exec("def f(a: float = 0.5, b: float = float('nan'), c: float = float('-inf'),\n"
             "      d: Optional[str] = None, e: int = None, g: bool = True,\n"
             "      h: Optional[float] = None):\n"
             "    return repr((a, b, c, d, e, g, h))\n", ns)
        server.tool(ns["f"])
        tool = server.tools["f"]
        self.assertEqual(tool.input_schema, {"type": "object", "properties": {
            "a": {"type": "number", "default": 0.5}, "b": {"type": "number"},
            "c": {"type": "number"}, "d": {"type": "string"}, "e": {"type": "integer"},
            "g": {"type": "boolean", "default": True}, "h": {"type": "number"}},
            "additionalProperties": False})
        self.assertEqual(tool.nullable, {"d", "h"})
        r = tool.handler({"a": 2, "d": None, "h": 3, "e": 4}, None)
        self.assertEqual(r, "(2.0, nan, -inf, None, 4, True, 3.0)")
        if sys.version_info >= (3, 10):
            exec("def k(x: int | None = None, y: None | int = None) -> str:\n"
                 "    return repr((x, y))\n", ns)
            server.tool(ns["k"])
            tool = server.tools["k"]
            self.assertEqual(tool.input_schema["properties"], {
                "x": {"type": "integer"}, "y": {"type": "integer"}})
            self.assertEqual(tool.nullable, {"x", "y"})
            self.assertEqual(tool.handler({"x": 1.0, "y": None}, None), "(1, None)")

    def test_no_parameters(self):
        server = mcp_stdio.Server("s", "1")

        @server.tool()
        def f(ctx) -> str:
            return "ok"
        self.assertEqual(server.tools["f"].input_schema,
                         {"type": "object", "additionalProperties": False})

    def test_docstrings(self):
        server = mcp_stdio.Server("s", "1")

        @server.tool
        def google(a: int, b: int) -> str:
            """Add numbers.

            More text.

            Args:
                a: The first
                    number.
                b (int): The second.

            Returns:
                The sum.
            """
            return "x"

        @server.tool(description="Given.")
        def rest(a: int) -> str:
            """Ignored.

            :param a: The value.
            :returns: nothing
            """
            return "x"
        g = server.tools["google"]
        self.assertEqual(g.description, "Add numbers.\n\nMore text.")
        self.assertEqual(g.input_schema["properties"]["a"]["description"], "The first number.")
        self.assertEqual(g.input_schema["properties"]["b"]["description"], "The second.")
        self.assertEqual(server.tools["rest"].description, "Given.")
        self.assertEqual(server.tools["rest"].input_schema["properties"]["a"]["description"],
                         "The value.")

    def test_the_usual_layout_reads_as_line_by_line(self):
        # _parse_docstring reads the usual Google layout with string methods: on 40,000
        # docstrings made of the usual lines, near misses and traps (seeded), it must give
        # what the line-by-line reader gives, and take that layout for a good share.
        pieces = ["Summary.", "Summary:", ":Summary", "", " ", "More text.", "Args:",
                  "Arguments:", "Params:", "Returns:", "Notes:", "Args :", "Args:\r", "Args",
                  "x: text", "x:text", "y (int): typed", "*z: star", "deep: x:", "q: ends:",
                  "Args: inline", ":param x: p", "name :spaced", "\u00e9: accent", "_b: ok\r",
                  "a1: one.", "\u00a0nbsp", "\tTab: t", "Example:", "Returns: x", "1x: digit",
                  "\x0cfeed: f", "\u3000wide", "x:", "Returns :", "p0: again.", "\r", "  Args:"]
        r = random.Random(54)
        fast = 0
        for _ in range(40000):
            margin = " " * r.choice((0, 2, 4, 8))
            lines = [r.choice(("Do the work.", "", " Do it. ") + tuple(pieces))]
            if r.random() < 0.3:                      # a summary on the second line, or
                lines += [margin + r.choice(("Do the work.", "Go on", "  Deeper."))]
            if r.random() < 0.3:                      # a paragraph after it
                lines += ["", margin + "More about it,", margin + r.choice(("", " ")) + "here."]
            if r.random() < 0.7:                      # the usual layout, perturbed below
                lines += ["", margin + r.choice(("Args:", "Args:", "Parameters:"))] + [
                    margin + " " * r.choice((4, 4, 4, 1, 3)) + "p%d: Parameter %d." % (i, i)
                    for i in range(r.randint(1, 4))]
                if r.random() < 0.4:
                    lines += ["", margin + "Returns:", margin + "    The result."]
            for _ in range(r.randint(0, 3)):
                at = r.randint(1, len(lines))
                lines.insert(at, r.choice(("", margin, "  ", margin + "    ", margin + " " * 5,
                                           margin + " " * 9)) + r.choice(pieces))
            doc = "\n".join(lines) + r.choice(("", "\n", "\n" + margin, "\n  "))
            got, want = mcp_stdio._parse_docstring(doc), mcp_stdio._read_docstring(doc)
            if got != want:
                self.fail("%r: %r, line by line %r" % (doc, got, want))
            if ":param" not in doc and "\t" not in doc and mcp_stdio._read_usual(doc):
                fast += 1
        self.assertGreater(fast, 6500)

    def test_docstring_parameter_lines_of_every_shape(self):
        # "name: text" is read with string methods, the other shapes with a regular
        # expression: both must give what the expression alone gives.
        doc = ("Summary.\n\n    Args:\n        a: plain\n        b (list[int]): typed\n"
               "        *c: starred\n        **d : spaced\n        n\u00e9: accented\n"
               "        e:\n            on the next line\n        x:tight\n"
               "            f: deeper than a parameter, so part of x\n"
               "        not a parameter line\n    Returns:\n        g: not a parameter\n")
        summary, params = mcp_stdio._parse_docstring(doc)
        self.assertEqual(summary, "Summary.")
        self.assertEqual(params, {
            "a": "plain", "b": "typed", "c": "starred", "d": "spaced", "n\u00e9": "accented",
            "e": "on the next line",
            "x": "tight f: deeper than a parameter, so part of x not a parameter line"})

    def test_unsupported_annotations_name_the_parameter(self):
        class Node:
            pass

        def no_hint(x):
            return "x"

        def star(*args: int):
            return "x"

        def bad_key(x: dict[int, str]):
            return "x"

        def odd(x: Node):
            return "x"

        def recursive(x: Tree):
            return "x"
        for fn, fragment in ((no_hint, "'x' needs a type annotation"), (star, "*args"),
                             (bad_key, "parameter 'x'"), (odd, "Node"),
                             (recursive, "refers to itself")):
            with self.subTest(fn=fn.__name__), self.assertRaises(mcp_stdio.CatalogError) as cm:
                mcp_stdio.Server("s", "1").tool(fn)
            self.assertIn(fragment, str(cm.exception))
        with self.assertRaises(mcp_stdio.CatalogError):
            mcp_stdio.Server("s", "1").tool(annotations={"readOnly": True})(lambda: "x")
        with self.assertRaises(mcp_stdio.CatalogError):
            mcp_stdio.Field(minimun=1)

    def test_arguments_are_converted(self):
        server = mcp_stdio.Server("s", "1")
        seen = {}

        @server.tool
        def f(p: Point, c: Color, t: tuple[int, str], pts: list[Point], n: Optional[int] = None,
              u: Union[int, Point] = 0) -> str:
            seen.update(p=p, c=c, t=t, pts=pts, n=n, u=u)
            return "ok"
        r = call_tool(server, "f", {"p": {"x": 1, "y": 2}, "c": "blue", "t": [1, "a"],
                                    "pts": [{"x": 3}], "n": None, "u": {"x": 5}})
        self.assertEqual(r["result"]["content"], [{"type": "text", "text": "ok"}])
        self.assertEqual(seen, {"p": Point(1, 2), "c": Color.BLUE, "t": (1, "a"),
                                "pts": [Point(3, 0.0)], "n": None, "u": Point(5, 0.0)})

    def test_return_values(self):
        server = mcp_stdio.Server("s", "1")

        @server.tool
        def as_text() -> str:
            return "hi"

        @server.tool
        def as_dict() -> dict:
            return {"a": 1}

        @server.tool
        def as_dataclass() -> Point:
            return Point(1.5)

        @server.tool
        def as_typeddict() -> Book:
            return {"isbn": "1"}

        @server.tool
        def as_list() -> list[int]:
            return [1, 2]

        @server.tool
        def as_image():
            return mcp_stdio.image(b"\x89PNG", "image/png")

        @server.tool
        def as_mixed():
            return [mcp_stdio.text("t"), mcp_stdio.audio(b"RIFF", "audio/wav"),
                    mcp_stdio.resource_link("file:///a", "a"),
                    mcp_stdio.embedded_resource("file:///b", "body")]

        @server.tool
        def as_error():
            raise mcp_stdio.ToolError("Try again with b.")

        @server.tool
        async def as_async(x: int) -> dict:
            return {"x": x}

        @server.tool
        def as_bytes():
            return b"raw"
        r = lambda n, a=None: call_tool(server, n, a or {})  # noqa: E731
        self.assertEqual(r("as_text")["result"]["content"], [{"type": "text", "text": "hi"}])
        self.assertEqual(r("as_dict")["result"]["structuredContent"], {"a": 1})
        self.assertEqual(server.tools["as_dict"].output_schema, {"type": "object"})
        res = r("as_dataclass")["result"]
        self.assertEqual(res["structuredContent"], {"x": 1.5, "y": 0.0})
        self.assertEqual(res["content"], [{"type": "text", "text": '{"x":1.5,"y":0.0}'}])
        self.assertEqual(server.tools["as_dataclass"].output_schema["required"], ["x"])
        self.assertEqual(r("as_typeddict")["result"]["structuredContent"], {"isbn": "1"})
        res = r("as_list")["result"]       # not an object: wrapped, the text the plain value
        self.assertEqual((res["structuredContent"], res["content"]),
                         ({"result": [1, 2]}, [{"type": "text", "text": "[1,2]"}]))
        self.assertEqual(server.tools["as_list"].output_schema, {
            "type": "object", "properties": {"result": {"type": "array", "items": {
                "type": "integer"}}}, "required": ["result"], "additionalProperties": False})
        self.assertEqual(r("as_image")["result"]["content"],
                         [{"type": "image", "data": "iVBORw==", "mimeType": "image/png"}])
        self.assertEqual([b["type"] for b in r("as_mixed")["result"]["content"]],
                         ["text", "audio", "resource_link", "resource"])
        self.assertEqual(r("as_error")["result"], {
            "content": [{"type": "text", "text": "Try again with b."}], "isError": True,
            "resultType": "complete", "_meta": {"io.modelcontextprotocol/serverInfo":
                                                {"name": "s", "version": "1"}}})
        self.assertEqual(r("as_async", {"x": 4})["result"]["structuredContent"], {"x": 4})
        self.assertEqual(r("as_bytes")["result"]["isError"], True)
        self.assertIn("returned an invalid result: it is bytes: wrap them with mcp_stdio.image()",
                      r("as_bytes")["result"]["content"][0]["text"])
        # The same shape in every revision that has structured output.
        self.assertEqual(call_tool(server, "as_list", {}, modern=False)["result"]
                         ["structuredContent"], {"result": [1, 2]})
        for rev in ("2025-06-18", "2025-11-25", MODERN):
            with self.subTest(rev=rev):
                p = InProc(self, server=server)
                listed = {t["name"]: t for t in p.open(rev) and p.request(
                    req_msg(1, "tools/list", modern=True))["result"]["tools"] or p.request(
                    req_msg(1, "tools/list"))["result"]["tools"]}
                self.assertEqual(listed["as_list"]["outputSchema"],
                                 server.tools["as_list"].output_schema)
        number = mcp_stdio.Server("n", "1", tools=[
            mcp_stdio.Tool("n", lambda a, ctx: 42),
            mcp_stdio.Tool("s", lambda a, ctx: [1], output_schema={
                "$defs": {"i": {"type": "integer"}}, "type": "array",
                "items": {"$ref": "#/$defs/i"}})])
        for modern in (False, True):
            self.assertEqual(call_tool(number, "n", {}, modern=modern)["result"]
                             ["structuredContent"], {"result": 42})
            self.assertEqual(call_tool(number, "s", {}, modern=modern)["result"]
                             ["structuredContent"], {"result": [1]})
        self.assertEqual(number.tools["s"].output_schema["$defs"], {"i": {"type": "integer"}})

    def test_resources_templates_and_prompts(self):
        server = mcp_stdio.Server("s", "1")

        @server.resource("notes://all", mime_type="application/json")
        def notes():
            """All the notes."""
            return {"n": 2}

        @server.resource_template("notes://{id}")
        def note(id: int, uri: str, ctx):
            return "note %d at %s" % (id, uri)

        @server.prompt
        def review(code: str, language: Optional[str] = None, ctx=None) -> str:
            """Review code.

            Args:
                code: The code.
            """
            return "Review %s" % code
        def counted(n: int) -> str:
            return "x"
        with self.assertRaises(mcp_stdio.CatalogError):
            server.prompt(counted)                              # ...prompt arguments are strings
        self.assertEqual(server.resources["notes://all"].description, "All the notes.")
        conn = connect(server)

        def rpc(method, params):
            out = conn.receive_line(json.dumps(req_msg(1, method, params, True)).encode())
            if isinstance(out[0], mcp_stdio.Call):
                out[0].run()
                return json.loads(conn.outbox.pop())
            return json.loads(out[0])
        self.assertEqual(rpc("resources/read", {"uri": "notes://all"})["result"]["contents"],
                         [{"uri": "notes://all", "text": '{"n":2}', "mimeType": "application/json"}])
        self.assertEqual(rpc("resources/read", {"uri": "notes://7"})["result"]["contents"][0]["text"],
                         "note 7 at notes://7")
        self.assertEqual(rpc("resources/read", {"uri": "notes://x"})["error"]["code"], -32602)
        self.assertEqual(rpc("prompts/list", {})["result"]["prompts"][0]["arguments"],
                         [{"name": "code", "description": "The code.", "required": True},
                          {"name": "language"}])
        self.assertEqual(rpc("prompts/get", {"name": "review", "arguments": {"code": "x"}})
                         ["result"]["messages"][0]["content"]["text"], "Review x")

    def test_portability_warnings(self):
        server = mcp_stdio.Server("s", "1", instructions="i" * 3000, tools=[
            mcp_stdio.Tool("a.b", lambda a, c: "x", description="d" * 2100),
            mcp_stdio.Tool("n" * 70, lambda a, c: "x", description="d"),
            mcp_stdio.Tool("fine", lambda a, c: "x", description="d"),
            mcp_stdio.Tool("mute", lambda a, c: "x")])
        lines = connect(server).reports
        self.assertEqual(len(lines), 5, lines)
        self.assertTrue(all(line.startswith("warning: ") for line in lines))
        self.assertIn("warning: tool 'a.b': description is 2100 characters; some hosts cut it at 2048",
                      lines)
        self.assertIn("tool 'mute' has no description: the model sees only its name", lines[-1])

    def test_mistakes_are_refused_at_registration(self):
        class Ge:                                  # what annotated-types' Ge looks like
            def __init__(self, ge):
                self.ge = ge

            def __repr__(self):
                return "Ge(ge=%r)" % self.ge

        def gen():
            yield "x"

        async def agen():
            yield "x"

        def when() -> complex:
            return 1j

        def bounded(n: Annotated[int, Ge(0)]) -> str:
            return str(n)

        class Options:
            pass

        def options(o: Options) -> str:
            return ""
        cases = [(gen, "tool 'gen': a generator cannot be a tool"),
                 (agen, "tool 'agen': a generator cannot be a tool"),
                 (when, "tool 'when': return annotation complex: its values cannot be sent "
                        "as JSON; return str, a dict, a dataclass, a TypedDict, a pydantic model"),
                 (bounded, "tool 'bounded': parameter 'n': Annotated metadata Ge(ge=0) is not "
                           "understood"),
                 (options, "cannot express Options as a JSON Schema (use str, int, float, bool, "
                           "a list, a dict, an Enum, a Literal, a dataclass, a TypedDict, a "
                           "pydantic model, datetime")]
        for fn, message in cases:
            with self.subTest(fn=fn.__name__), self.assertRaises(mcp_stdio.CatalogError) as cm:
                mcp_stdio.tool_from_function(fn)
            self.assertIn(message, str(cm.exception))
        server = mcp_stdio.Server("s", "1")
        with self.assertRaises(mcp_stdio.CatalogError) as cm:
            server.tool(annotations={"destructive": True})(lambda: "x")
        self.assertIn("tool '<lambda>': unknown annotation(s): destructive", str(cm.exception))

        @server.resource("r://none")
        def nothing():
            return None
        with mcp_stdio.InProcessClient(server) as c:
            with self.assertRaises(mcp_stdio.ProtocolError) as cm:
                c.read_resource("r://none")
            self.assertEqual(cm.exception.code, -32603)
            self.assertIn("returned None", c.stderr)

    def test_registration_after_serving_is_refused(self):
        server = mcp_stdio.Server("s", "1")
        connect(server)
        with self.assertRaises(mcp_stdio.CatalogError):
            server.tool(lambda: "x")


###############################################################################
# Client commands on a terminal: questions asked, results shown ###############
###############################################################################


class CommandLineQuestions(unittest.TestCase):
    """call answers a server's questions on a terminal, and refuses without one."""

    def test_no_terminal_no_answer(self):
        """Without a terminal call declares no elicitation, in either era: the server sees a
        client that cannot ask, and the outcome is one (exit 1, saying so), directly or
        through a proxy's mount."""
        folder, leaf = leaf_folder(self)
        path = servers_file(folder, {"leaf": {"command": sys.executable,
                                              "args": ["-S", leaf, folder]}})
        needs = b"This tool needs to ask the client, but the client does not support elicitation"
        for tool, server, legacy_out in (
                (["confirm_echo", "text=hi"], SERVE, needs),
                (["leaf_confirm", "text=hi"], SERVE + ["proxy", path], b"This tool needs the "
                 b"client's elicitation capability, which the client did not declare.")):
            for era in ("legacy", "modern"):
                with self.subTest(tool=tool[0], era=era):
                    r = subprocess.run(SERVE + ["call"] + tool + ["--era", era, "--"] + server,
                                       capture_output=True, cwd=HERE, timeout=60,
                                       stdin=subprocess.DEVNULL)
                    self.assertEqual(r.returncode, 1, r.stderr)
                    self.assertNotIn(b"Traceback", r.stderr)
                    if era == "legacy":
                        self.assertTrue(r.stdout.startswith(legacy_out), r.stdout)
                    else:
                        self.assertEqual(r.stdout, b"")
                        self.assertTrue(r.stderr.startswith(
                            b"error: the server needs a capability this command declares only "
                            b"on a terminal (stdin is not one, so nobody can be asked): Missing "
                            b"required client capability\n  requiredCapabilities: "
                            b'{"elicitation": {}}\n'), r.stderr)

    @unittest.skipUnless(hasattr(os, "openpty"), "needs a pseudo-terminal")
    def test_answers_typed_on_a_terminal(self):
        for era, typed, expected in (("modern", b"\nAda\n", b"Hello, Ada!\n"),
                                     ("legacy", b"y\nGrace\n", b"Hello, Grace!\n"),
                                     ("legacy", b"n\n", b"No greeting: the user did not give "
                                                        b"a name.\n")):
            master, slave = os.openpty()
            try:
                os.write(master, typed)
                r = subprocess.run(SERVE + ["call", "greet", "--era", era, "--"] + SERVE,
                                   capture_output=True, cwd=HERE, timeout=60, stdin=slave)
            finally:
                os.close(master)
                os.close(slave)
            self.assertEqual(r.stdout, expected, r.stderr)
            self.assertIn(b"The server asks: What is your name?", r.stderr)

    @unittest.skipUnless(hasattr(os, "openpty"), "needs a pseudo-terminal")
    def test_a_field_is_asked_with_its_description(self):
        for era in ("modern", "legacy"):
            with self.subTest(era=era):
                master, slave = os.openpty()
                try:
                    os.write(master, b"y\ny\n")
                    r = subprocess.run(SERVE + ["call", "confirm_echo", "text=hi", "--era", era,
                                                "--"] + SERVE, capture_output=True, cwd=HERE,
                                       timeout=60, stdin=slave)
                finally:
                    os.close(master)
                    os.close(slave)
                self.assertEqual(r.stdout, b"hi\n", r.stderr)
                self.assertIn(b"[c]ancel: Echo it - Tick to echo the text. (y/n): ", r.stderr)
        from unittest import mock
        for prop, label in (({"type": "string", "description": "  Two\n lines. "},
                             "f - Two lines. (string) [optional]: "),
                            ({"type": "integer", "title": "Count", "default": 3},
                             "Count (integer, default 3) [optional]: "),
                            ({"type": "string", "enum": ["a", "b"], "description": "Pick."},
                             "f - Pick. (a/b) [optional]: ")):
            with self.subTest(prop=prop):
                err = io.StringIO()
                with mock.patch("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\n"))), \
                        mock.patch("sys.stderr", err):
                    mcp_stdio._read_field("f", prop, False)
                self.assertEqual(err.getvalue(), label)

    def test_fields_are_typed_and_checked(self):
        from unittest import mock
        cases = ((b"x\n7\n", {"type": "integer", "minimum": 1}, True, 7),
                 (b"0\n3\n", {"type": "integer", "minimum": 1}, True, 3),
                 (b"maybe\ny\n", {"type": "boolean"}, True, True),
                 # Only the words of yes and no: "yellow" is not yes, "fixed in 2.3" not
                 # no, and an empty line asks again (0.7.0 read the first letter).
                 (b"yellow\nfixed in 2.3\n\nNo\n", {"type": "boolean"}, True, False),
                 (b"TRUE\n", {"type": "boolean"}, False, True),
                 (b"\nyes\n", {"type": "boolean"}, False, True),
                 (b"\n", {"type": "boolean", "default": False}, True, False),
                 (b"\n", {"type": "number", "default": 2.5}, True, 2.5),
                 (b"\n", {"type": "string"}, False, None),
                 (b"blue\nred\n", {"type": "string", "enum": ["red", "green"]}, True, "red"),
                 (b"a, b\n", {"type": "array", "items": {"type": "string"}}, True, ["a", "b"]))
        for typed, prop, required, expected in cases:
            with self.subTest(prop=prop, typed=typed):
                stdin = io.TextIOWrapper(io.BytesIO(typed))
                with mock.patch("sys.stdin", stdin), mock.patch("sys.stderr", io.StringIO()):
                    self.assertEqual(mcp_stdio._read_field("f", prop, required), expected)


    def test_a_closed_terminal_answers_cancel(self):
        from unittest import mock

        class Terminal(io.StringIO):
            def isatty(self):
                return True
        form = {"message": "Close it?", "requestedSchema": {"type": "object", "properties": {
            "confirm": {"type": "boolean"}}, "required": ["confirm"]}}
        for typed, expected in (("", {"action": "cancel"}),           # input ended at once
                                ("yes\nyellow\n", {"action": "cancel"}),   # ... mid-form
                                ("nope\nc\n", {"action": "cancel"}),
                                ("no\n", {"action": "decline"}),
                                ("\nyes\n", {"action": "accept", "content": {"confirm": True}})):
            with self.subTest(typed=typed):
                with mock.patch("sys.stdin", Terminal(typed)), \
                        mock.patch("sys.stderr", io.StringIO()):
                    self.assertEqual(mcp_stdio._ask_on_terminal(form), expected)
        url = {"message": "Sign in", "mode": "url", "url": "https://example.com/x"}
        with mock.patch("sys.stdin", Terminal("")), mock.patch("sys.stderr", io.StringIO()):
            self.assertEqual(mcp_stdio._ask_on_terminal(url), {"action": "cancel"})

    def test_a_form_that_cannot_be_filled_in_is_refused_before_asking(self):
        from unittest import mock

        class Terminal(io.StringIO):
            def isatty(self):
                return True
        for schema, problem in (
                ({"type": "object", "properties": "name"},
                 "/properties: expected type object, got string"),
                ({"type": "object", "properties": {"n": {"type": "string"}}, "required": 3},
                 "/required: expected type array, got integer"),
                ({"type": "object", "properties": {"n": {"title": "N"}}},
                 '/properties/n: missing required property "type"'),
                ({"type": "object", "properties": {"n": {"type": "string", "enum": "ab"}}},
                 "/properties/n/enum: expected type array, got string"),
                ({"type": "object", "properties": {"n": {"type": "string", "pattern": "("}}},
                 "#/properties/n/pattern: ")):
            with self.subTest(schema=schema):
                err = io.StringIO()
                with mock.patch("sys.stdin", Terminal("y\nAda\n")), \
                        mock.patch("sys.stderr", err), \
                        self.assertRaises(mcp_stdio.ClientError) as cm:
                    mcp_stdio._ask_on_terminal({"message": "Name?", "requestedSchema": schema})
                self.assertTrue(str(cm.exception).startswith(
                    "the server's form cannot be filled in: " + problem), cm.exception)
                self.assertNotIn("Answer?", err.getvalue())     # nothing asked


###############################################################################
# Client commands: inspect, call, read, get and skill #########################
###############################################################################


class ClientCommandLine(unittest.TestCase):

    def run_cli(self, *args):
        return subprocess.run(SERVE + list(args), capture_output=True, cwd=HERE,
                              timeout=60, stdin=subprocess.DEVNULL)

    def printed(self, result):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            mcp_stdio._print_result(None, result, False)
        return out.getvalue()

    def test_output_is_utf8_whatever_the_code_page(self):
        """A tool's emoji, piped out of call under cp1252 (Windows' pipes before Python
        3.15), is written as UTF-8, not a UnicodeEncodeError."""
        env = dict(os.environ, PYTHONIOENCODING="cp1252")
        r = subprocess.run(SERVE + ["call", "echo", "text=h\u00e9llo \U0001F600", "--"] + SERVE,
                           capture_output=True, cwd=HERE, timeout=60,
                           stdin=subprocess.DEVNULL, env=env)
        self.assertEqual((r.returncode, r.stdout, r.stderr),
                         (0, "h\u00e9llo \U0001F600\n".encode("utf-8"), b""))
        r = subprocess.run(SERVE + ["call", "echo", "text=\U0001F600", "--json", "--"] + SERVE,
                           capture_output=True, cwd=HERE, timeout=60,
                           stdin=subprocess.DEVNULL, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("\U0001F600".encode("utf-8"), r.stdout)

    @unittest.skipIf(os.name == "nt", "process groups are POSIX")
    def test_closing_never_waits_on_a_pipe_a_child_holds(self):
        """A server that takes 2.3 s to exit once its input ends and leaves a child holding
        its stderr (a FastMCP proxy of a node server): call answers, returns within 5 s
        with exit 0, and no process of the server's group is left."""
        folder = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, folder)
        script = os.path.join(folder, "slow_exit.py")
        pid_file = os.path.join(folder, "child")
        with open(script, "w") as f:
            f.write(textwrap.dedent('''\
                import subprocess, sys, time
                sys.path.insert(0, %r)
                import mcp_stdio
                child = subprocess.Popen([sys.executable, "-S", "-c",
                                          "import time; time.sleep(120)"],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
                with open(%r, "w") as f:
                    f.write(str(child.pid))
                def life(server):
                    yield
                    time.sleep(2.3)
                server = mcp_stdio.Server("slow", "1", lifespan=life)

                @server.tool
                def echo(text: str) -> str:
                    "Echo."
                    return text
                raise SystemExit(server.run())
                ''' % (HERE, pid_file)))
        start = time.monotonic()
        r = self.run_cli("call", "echo", "text=hi", "--", *PY, script)
        took = time.monotonic() - start
        self.assertEqual((r.returncode, r.stdout), (0, b"hi\n"), r.stderr)
        self.assertLess(took, 5.0)
        with open(pid_file) as f:
            child = int(f.read())
        self.assertFalse(process_alive(child, 2.0), "the child outlived close()")
        # Ctrl-C while call closes (it has printed its answer): cancelled, 130, no traceback,
        # and the group is killed at once.
        os.remove(pid_file)
        p = subprocess.Popen(SERVE + ["call", "echo", "text=hi", "--"] + PY + [script],
                             cwd=HERE, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
        self.addCleanup(p.kill)
        self.assertEqual(p.stdout.readline(), b"hi\n")
        time.sleep(0.3)                      # closing: the server's teardown takes 2.3 s
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=TIMEOUT)
        self.assertEqual((p.returncode, out, err), (130, b"", b"cancelled\n"))
        with open(pid_file) as f:
            self.assertFalse(process_alive(int(f.read()), 2.0), "the child outlived Ctrl-C")

    def test_call_read_and_get_show_the_servers_log_messages(self):
        script = own_script(self, "logs.py", '''\
            server = mcp_stdio.Server("logs", "1")

            def chat(ctx, what):
                for level in ("debug", "info", "error"):
                    ctx.log(level, "%s at %s" % (what, level))

            @server.tool
            def chatty(ctx: mcp_stdio.Context) -> str:
                "Log at three levels."
                chat(ctx, "call")
                return "done"

            @server.resource("logs://r")
            def r(ctx: mcp_stdio.Context) -> str:
                chat(ctx, "read")
                return "read"

            @server.prompt()
            def p(ctx: mcp_stdio.Context) -> str:
                "A prompt."
                chat(ctx, "get")
                return "got"
            raise SystemExit(server.run())
            ''')
        # Every level through call, in both eras; read and get at the default level (the
        # level is the same option for the three).
        levels = ((None, ("info", "error")), ("debug", ("debug", "info", "error")),
                  ("error", ("error",)), ("off", ()))
        for era in ("modern", "legacy"):
            for command, name, logger in (("call", "chatty", "chatty"), ("read", "logs://r",
                                                                         "logs://r"),
                                          ("get", "p", "p")):
                for level, shown in levels if command == "call" else levels[:1]:
                    with self.subTest(era=era, command=command, level=level):
                        r = self.run_cli(command, name, "--era", era, *(
                            ("--log-level", level) if level else ()), "--", *PY, script)
                        self.assertEqual(r.returncode, 0, r.stderr)
                        self.assertEqual(r.stderr.decode(), "".join(
                            "log %s %s: %s at %s\n" % (x, logger, command, x) for x in shown))
        r = self.run_cli("call", "chatty", "--log-level", "loud", "--", *PY, script)
        self.assertEqual(r.returncode, 2)
        self.assertTrue(r.stderr.startswith(b"error: bad argument 'loud'\n"), r.stderr)

    def test_a_time_limit_no_wait_can_take_is_refused(self):
        for value in ("inf", "nan", "0", "-1", "1e10", "soon"):
            for flag in ("--timeout", "--start-timeout"):
                with self.subTest(flag=flag, value=value):
                    r = self.run_cli("inspect", flag, value, "--", sys.executable, "-c", "")
                    self.assertEqual((r.returncode, r.stdout), (2, b""))
                    self.assertTrue(r.stderr.startswith(("error: bad argument %r\n\nusage: "
                                                         % value).encode()), r.stderr)

    def test_structured_content_is_shown_once(self):
        """Shown again only when it says more than the text, compared by value."""
        value = {"time": "10:00", "zone": ["UTC", 1]}
        for text in (json.dumps(value, separators=(",", ":")), json.dumps(value, indent=2),
                     json.dumps(value)):
            with self.subTest(text=text):
                self.assertEqual(self.printed({"content": [{"type": "text", "text": text}],
                                               "structuredContent": value}), text + "\n")
        # The filesystem server's form: the text, wrapped in a one-member object.
        self.assertEqual(self.printed({"content": [{"type": "text", "text": "a\nb"}],
                                       "structuredContent": {"content": "a\nb"}}), "a\nb\n")
        self.assertEqual(self.printed({"content": [{"type": "text", "text": "[1, 2]"}],
                                       "structuredContent": {"result": [1, 2]}}), "[1, 2]\n")
        # More than the text: shown.
        out = self.printed({"content": [{"type": "text", "text": "2 files"}],
                            "structuredContent": {"files": ["a", "b"]}})
        self.assertIn("structured content:\n{\n  \"files\"", out)
        out = self.printed({"content": [{"type": "text", "text": "1"}],
                            "structuredContent": {"result": True}})
        self.assertIn("structured content:", out)

    # Good results of each method the client reads; the fuzz below breaks them.
    GOOD = {
        "initialize": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                       "serverInfo": {"name": "s", "version": "1"}},
        "server/discover": {"capabilities": {"extensions": {}}, "_meta": {
            mcp_stdio.SERVER_INFO_KEY: {"name": "s", "version": "1"}}},
        "tools/list": {"tools": [{"name": "t", "description": "d", "inputSchema": {
            "type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}}]},
        "resources/list": {"resources": [{"uri": "a://b", "name": "b", "mimeType": "text/plain"}]},
        "resources/templates/list": {"resourceTemplates": [{"uriTemplate": "a://{x}",
                                                            "name": "x"}]},
        "prompts/list": {"prompts": [{"name": "p", "arguments": [{"name": "a",
                                                                  "required": True}]}]},
        "skills/list": {"skills": [{"uri": "skill://a/SKILL.md", "frontmatter": {
            "name": "a", "description": "d"}, "resources": [{"uri": "skill://a/SKILL.md",
                                                             "digest": "sha256:00", "size": 3}]}]},
        "tools/call": {"content": [{"type": "text", "text": "t"}, {"type": "image", "data": "AA==",
                                                                  "mimeType": "image/png"},
                                   {"type": "resource", "resource": {"uri": "a://b", "blob": "AA=="}},
                                   {"type": "resource_link", "uri": "a://b", "name": "b"}],
                       "structuredContent": {"a": 1}, "isError": False},
        "resources/read": {"contents": [{"uri": "a://b", "text": "t"}, {"uri": "a://c",
                                                                        "blob": "AA=="}]},
        "prompts/get": {"messages": [{"role": "user", "content": {"type": "text", "text": "x"}}]},
    }

    def test_malformed_results_are_said_not_raised(self):
        """Whatever a server sends, the client says it is malformed or prints it."""
        r = random.Random(8)

        def mutate(v, depth=0):
            if r.random() < 0.12:
                return _junk(r)
            if isinstance(v, dict):
                v = {k: mutate(x, depth + 1) for k, x in v.items() if r.random() > 0.08}
                if r.random() < 0.15:
                    v[r.choice(("type", "text", "name", "uri", "nextCursor", "arguments",
                                "description", "resources", "blob"))] = _junk(r)
                return v
            if isinstance(v, list):
                return [mutate(x, depth + 1) for x in v] + ([_junk(r)] if r.random() < 0.2
                                                            else [])
            return v
        said = printed = 0
        shaped = mcp_stdio._result_shapes()       # the methods of the extensions it has
        for _ in range(400):
            results = {m: mutate(copy.deepcopy(v)) for m, v in self.GOOD.items() if m in shaped}
            checked = {}
            for method, result in results.items():
                try:
                    checked[method] = mcp_stdio._checked(method, result)
                except mcp_stdio.MalformedResult as e:
                    self.assertTrue(str(e).startswith("the server's %s result is malformed: "
                                                      % method), e)
                    said += 1

            class Seen:                            # a client that was answered so
                era, revision, instructions, stderr = "legacy", "2025-11-25", None, ""
                server_info = (checked.get("initialize") or {}).get("serverInfo")
                server_capabilities = dict((checked.get("initialize") or {}).get(
                    "capabilities") or {}, resources={}, prompts={}, extensions={
                        EXTENSIONS["skills"]: {}})

                @staticmethod
                def list_all(method, field):             # every list, as the inspector reads it
                    if method not in checked:
                        raise mcp_stdio.MalformedResult(method, ["broken"])
                    return checked[method][field]

                @staticmethod
                def close():                         # before its stderr is read to the end
                    return 0

            for tool in (checked.get("tools/list") or {}).get("tools", []):
                with contextlib.suppress(mcp_stdio._BadArguments):   # call's KEY=VALUE words
                    mcp_stdio._key_values(["a=1", "b=x"], tool["inputSchema"])
            with contextlib.redirect_stdout(io.StringIO()):
                mcp_stdio._print_inspection(Seen, False)
                mcp_stdio._print_inspection(Seen, True)
                for method in ("tools/call", "resources/read", "prompts/get"):
                    if method in checked:
                        mcp_stdio._print_result(None, dict(checked[method], isError=False),
                                                False)
                        printed += 1
        self.assertGreater(said, 300)
        self.assertGreater(printed, 100)

    def test_the_result_shapes_are_whole_for_every_thread_from_the_first_use(self):
        """Clients on several threads check their first results at once: none finds the
        shapes table half built (it was filled while compiling, and a reader took it as
        ready: KeyError)."""
        saved = dict(mcp_stdio._COMPILED_SHAPES)
        self.addCleanup(lambda: (mcp_stdio._COMPILED_SHAPES.clear(),
                                 mcp_stdio._COMPILED_SHAPES.update(saved)))
        interval = sys.getswitchinterval()
        self.addCleanup(sys.setswitchinterval, interval)
        sys.setswitchinterval(1e-5)
        order = list(mcp_stdio._result_shapes())      # the last ones made, to be asked for
        methods = sorted((m for m in self.GOOD if m in order), key=order.index)
        for _ in range(3):
            mcp_stdio._COMPILED_SHAPES.clear()
            start, failed = threading.Barrier(16), []

            def check(method):
                start.wait()
                try:
                    mcp_stdio._checked(method, self.GOOD[method])
                except Exception as e:      # noqa: BLE001 - what the thread met, reported
                    failed.append("%s: %r" % (method, e))
            threads = [threading.Thread(target=check, args=(methods[-1 - i % 3],))
                       for i in range(16)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            self.assertEqual(failed, [])

    def test_a_server_that_answers_wrongly_gets_exit_3_and_a_readable_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "wrong.py")
            with open(script, "w", encoding="utf-8") as f:
                f.write(textwrap.dedent("""\
                    import json, sys
                    answers = {
                        "initialize": {"protocolVersion": "2025-11-25", "serverInfo": {
                            "name": "wrong", "version": "1"}, "capabilities": {
                            "tools": {}, "resources": {}, "prompts": {}}},
                        "tools/list": {"tools": [{"name": 5, "inputSchema": {}}]},
                        "resources/list": {"resources": "none"},
                        "resources/templates/list": {"resourceTemplates": []},
                        "prompts/list": {"prompts": [{"name": "p"}]},
                        "tools/call": {"content": [True]},
                    }
                    for line in sys.stdin:
                        m = json.loads(line)
                        if "id" in m and m.get("method") in answers:
                            print(json.dumps({"jsonrpc": "2.0", "id": m["id"],
                                              "result": answers[m["method"]]}), flush=True)
                        elif "id" in m:
                            print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "error": {
                                "code": -32601, "message": "no"}}), flush=True)
                    """))
            r = self.run_cli("inspect", "--", *PY, script)
            self.assertEqual(r.returncode, 3, r.stderr)
            out = r.stdout.decode()
            self.assertIn("\ntools: failed (the server's tools/list result is malformed: "
                          "/tools/0/name: expected type string, got integer)\n", out)
            self.assertIn("\nresources: failed (the server's resources/list result is malformed: "
                          "/resources: expected type array, got string)\n", out)
            self.assertIn("\nprompts (1)\n  p  ()\n", out)
            r = self.run_cli("call", "t", "--", *PY, script)
            self.assertEqual((r.returncode, r.stdout), (3, b""))
            self.assertEqual(r.stderr, b"error: the server's tools/call result is malformed: "
                                       b"/content/0: expected type object, got boolean\n")

    def test_inspect(self):
        r = self.run_cli("inspect", "--", *SERVE)
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.decode()
        self.assertIn("server: mcp-stdio-demo %s (mcp_stdio demo)" % mcp_stdio.__version__, out)
        self.assertIn("era: modern, protocol 2026-07-28", out)
        self.assertIn("  add  (a: number, b: number)", out)
        self.assertIn("  demo://greeting/{name}  greeting  text/plain", out)
        self.assertIn("  summarize  (text, style?)", out)
        r = self.run_cli("inspect", "--json", "--era", "legacy", "--revision", "2025-03-26", "--",
                         *SERVE)
        report = json.loads(r.stdout)
        self.assertEqual((report["era"], report["revision"]), ("legacy", "2025-03-26"))
        self.assertEqual(len(report["tools"]), 6)
        # What a host that searches tools shows its model first, beside the whole listing:
        # the instructions and the tools' names.
        names = [t["name"] for t in report["tools"]]
        size = len(json.dumps({"instructions": report["instructions"], "tools": names},
                              separators=(",", ":"), ensure_ascii=False).encode())
        self.assertEqual(report["first_seen"], {"instructions": len(report["instructions"]),
                                                "names": 6, "bytes": size, "tokens": size // 4})
        self.assertIn("  what a host that searches tools shows first (the instructions and the "
                      "names): %.1f KB, about %d tokens\n" % (size / 1024.0, size // 4), out)
        self.assertLess(size, report["listing"]["tools"]["bytes"] / 4)

    def test_call(self):
        r = self.run_cli("call", "echo", '{"text": "hello"}', "--", *SERVE)
        self.assertEqual((r.returncode, r.stdout), (0, b"hello\n"))     # says nothing more
        r = self.run_cli("call", "add", "a=1", "b=2.5", "--", *SERVE)    # typed from the schema
        self.assertEqual((r.returncode, r.stdout), (0, b'{"sum":3.5}\n'))
        schema = {"properties": {"a": {"type": "number"}, "s": {"type": "string"},
                                 "f": {"type": ["boolean", "null"]}, "l": {"type": "array"}}}
        self.assertEqual(mcp_stdio._key_values(["a=1.5", "s=1.5", "f=true", "l=[1,2]", "x=y"],
                                               schema),
                         {"a": 1.5, "s": "1.5", "f": True, "l": [1, 2], "x": "y"})
        with self.assertRaises(ValueError) as cm:
            mcp_stdio._key_values(["a=one"], schema)
        self.assertEqual(str(cm.exception), "a=one: a number is expected")
        r = self.run_cli("call", "add", '{"a": 1', "--", *SERVE)
        self.assertEqual(r.returncode, 2)
        self.assertIn(b"error: the arguments are not valid JSON: Expecting", r.stderr)
        r = self.run_cli("call", "countdown", "seconds=0.2", "--", *SERVE)
        self.assertEqual(r.stderr, b"log info countdown: countdown of 2 steps started\n"
                         b"progress 1/2: 1 of 2 steps\nprogress 2/2: 2 of 2 steps\n")
        r = self.run_cli("call", "divide", '{"dividend": 1, "divisor": 0}', "--",
                         *SERVE)
        self.assertEqual((r.returncode, r.stdout),
                         (1, b"Cannot divide by zero: pass a non-zero 'divisor'.\n"))
        r = self.run_cli("call", "nope", "--", *SERVE)
        self.assertEqual(r.returncode, 4)
        self.assertIn(b"Unknown tool", r.stderr)
        r = self.run_cli("call", "add", '{"a": 1, "b": 2}', "--json", "--", *SERVE)
        self.assertEqual(json.loads(r.stdout)["structuredContent"], {"sum": 3})

    def test_read_get_and_content_blocks(self):
        r = self.run_cli("read", "demo://logo.png", "--", *SERVE)
        self.assertEqual((r.returncode, r.stdout),
                         (0, b"[resource demo://logo.png, image/png, %d bytes of blob]\n"
                          % len(mcp_stdio._DEMO_PNG)))
        r = self.run_cli("get", "summarize", "text=hello", "style=short", "--", *SERVE)
        self.assertEqual(r.stdout, b"[user] Summarize the following text (style: short):\n\n"
                                   b"hello\n")
        self.assertEqual(mcp_stdio._blocks({"content": [
            mcp_stdio.image(b"\x89PNG"), mcp_stdio.resource_link("file:///a", "a"),
            mcp_stdio.embedded_resource("file:///b", "body", mime_type="text/plain")]}),
            ["[image image/png, 4 bytes]", "[link: a <file:///a>]",
             "[resource file:///b, text/plain]\nbody"])

    def test_signatures_show_types_enums_and_defaults(self):
        schema = {"type": "object", "$defs": {"Mode": {"enum": ["fast", "slow"]}},
                  "properties": {"q": {"type": "string"},
                                 "mode": {"$ref": "#/$defs/Mode", "default": "fast"},
                                 "n": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
                                 "tags": {"type": "array", "items": {"type": "string"}},
                                 "kind": {"type": ["boolean", "string"]},
                                 "start": {"type": "string", "format": "date-time"},
                                 "days": {"type": "array", "items": {"type": "string",
                                                                     "format": "date"}}},
                  "required": ["q"]}
        self.assertEqual(mcp_stdio._signature_of(schema),
                         '(q: string, mode?: "fast"|"slow" = "fast", n?: integer|null, '
                         'tags?: array of string, kind?: boolean|string, '
                         'start?: string<date-time>, days?: array of string<date>)')
        self.assertEqual(mcp_stdio._first_line("word " * 30, 22), "word word word word ...")

    def test_what_the_command_line_says(self):
        """Error data, argument messages, -e/--cwd, read --output, nested shapes."""
        schema = {"properties": {"n": {"type": "integer"}, "l": {"type": "array"},
                                 "o": {"type": "object"}}}
        for words, message in ((["n=x"], "n=x: an integer is expected"),
                               (["l=x"], "l=x: an array is expected"),
                               (["o=no"], "o=no: an object is expected"),
                               (["l=[1,2"], "l=[1,2: not valid JSON (Expecting")):
            with self.assertRaises(ValueError) as cm:
                mcp_stdio._key_values(words, schema)
            self.assertTrue(str(cm.exception).startswith(message), str(cm.exception))
        r = self.run_cli("call", "add", "a=1", "b", "--", *SERVE)
        self.assertEqual((r.returncode, r.stderr), (2, b"error: 'b' is not KEY=VALUE: give the "
                                                       b"arguments as KEY=VALUE words or one "
                                                       b"JSON object\n"))
        script = textwrap.dedent("""
            import os, mcp_stdio
            server = mcp_stdio.Server("cli", "1")

            @server.tool
            def where() -> str:
                "Where the server runs."
                return os.getcwd() + " " + os.environ.get("CLI_TEST", "-")

            @server.tool
            def needs() -> str:
                "Needs sampling."
                raise mcp_stdio.ProtocolError(-32021, "Missing required client capability",
                                              {"requiredCapabilities": {"sampling": {}}})

            from typing import List, TypedDict
            class Point(TypedDict):
                x: int
                label: str

            @server.tool
            def shapes(rows: List[dict], points: List[Point]) -> str:
                "Nested shapes."
                return "ok"
            server.run()
        """)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cli_server.py")
            with open(path, "w") as f:
                f.write(script)
            env = dict(os.environ, PYTHONPATH=HERE)
            run = lambda *a: subprocess.run(SERVE + list(a), capture_output=True, cwd=HERE,  # noqa
                                            timeout=60, stdin=subprocess.DEVNULL, env=env)
            r = run("call", "where", "-e", "CLI_TEST=set here", "--cwd", tmp, "--",
                    sys.executable, path)
            self.assertEqual(r.stdout.decode().strip(), os.path.realpath(tmp) + " set here",
                             r.stderr)
            r = run("call", "needs", "--", *PY, path)
            self.assertEqual(r.returncode, 4)
            self.assertIn(b"error: the server answered with error -32021: Missing required "
                          b'client capability\n  requiredCapabilities: {"sampling": {}}\n',
                          r.stderr)
            r = run("inspect", "--", *PY, path)
            self.assertIn("  shapes  (rows: array of object, points: array of {x: integer, "
                          "label: string})", r.stdout.decode())
            out = os.path.join(tmp, "logo.png")
            r = run("read", "demo://logo.png", "--output", out, "--", *SERVE)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out, "rb") as f:
                self.assertEqual(f.read(), mcp_stdio._DEMO_PNG)
            self.assertIn(b"saved %d bytes (image/png) to" % len(mcp_stdio._DEMO_PNG),
                          r.stderr)
        self.assertEqual(mcp_stdio._tail("word " * 100 + "end", 42), "...word word word word "
                         "word word word end")     # cut at a word, and marked

    def test_inspection_survives_a_failing_list(self):
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "broken.py")
            with open(script, "w") as f:
                f.write(BROKEN_SERVER)
            r = self.run_cli("inspect", "--", *PY, script, "partial")
        self.assertEqual(r.returncode, 0, r.stderr)
        out = r.stdout.decode()
        self.assertIn("tools (0)", out)
        self.assertIn("resources (1)\n  a://b  b\n", out)
        self.assertIn("resource templates: failed (resource templates: error -32601: Method not "
                      "found)", out)
        self.assertIn("prompts: not offered", out)

    def test_usage_names_how_it_was_started(self):
        r = self.run_cli("inspect", "--help")              # started as python -m mcp_stdio
        self.assertTrue(r.stdout.startswith(b"usage: python -m mcp_stdio inspect"))
        r = subprocess.run([sys.executable, SERVER, "--help"], capture_output=True,
                           timeout=TIMEOUT)
        self.assertTrue(r.stdout.startswith(b"usage: python mcp_stdio.py [options]"))

    def test_usage_and_failures(self):
        for args in (["inspect"], ["call", "echo", "[1]", "--", "x"], ["call", "--", "x"],
                     ["inspect", "--era", "new", "--", "x"]):
            r = self.run_cli(*args)
            self.assertEqual(r.returncode, 2, args)
        r = self.run_cli("inspect", "--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn(b"exit status", r.stdout)
        r = self.run_cli("inspect", "--timeout", "2", "--", *PY, "-c", "pass")
        self.assertEqual(r.returncode, 3)
        r = self.run_cli("inspect", "--", "/nonexistent/server")
        self.assertEqual(r.returncode, 3)


@about("tasks")
class TaskCommandLine(unittest.TestCase):
    """call runs a task tool to its end, in each era (real processes)."""

    def call(self, era, *args):
        script = os.path.join(HERE, "examples", "conformance", "tasks_server.py")
        return subprocess.Popen(SERVE + ["call"] + list(args) + ["--era", era, "--"] + PY
                                + [script],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=HERE,
                                stdin=subprocess.DEVNULL)

    def runs_a_required_task_tool(self, era):
        done = self.call(era, "slow_compute", "seconds=0.3")
        failing = self.call(era, "failing_job")
        out, err = done.communicate(timeout=60)
        self.assertEqual((done.returncode, out), (0, b"Computed after 0.3 seconds.\n"), err)
        out, err = failing.communicate(timeout=60)
        self.assertEqual((failing.returncode, out), (1, b"The job failed.\n"), err)
        self.assertIn(b"task working\n", err)

    def test_inspect_marks_the_tools_that_may_run_as_tasks(self):
        script = os.path.join(HERE, "examples", "conformance", "tasks_server.py")
        r = subprocess.run(SERVE + ["inspect", "--era", "legacy", "--"] + PY + [script],
                           capture_output=True, cwd=HERE, timeout=60, stdin=subprocess.DEVNULL)
        out = r.stdout.decode()
        self.assertIn("\n  failing_job  ()  [task required]\n", out)
        self.assertIn("\n  multi_input  ()  [task optional]\n", out)
        self.assertIn("\n  greet  (name: string)\n", out)
        r = subprocess.run(SERVE + ["inspect", "--era", "legacy", "--json", "--"] + PY + [script],
                           capture_output=True, cwd=HERE, timeout=60, stdin=subprocess.DEVNULL)
        marks = json.loads(r.stdout)["marks"]     # what every extension adds, in one shape
        self.assertEqual(list(marks), ["tools"])
        self.assertEqual((marks["tools"]["failing_job"], marks["tools"]["multi_input"]),
                         (["task required"], ["task optional"]))
        self.assertNotIn("greet", marks["tools"])

    def test_each_step_of_a_task_is_shown_once(self):
        script = own_script(self, "steps.py", '''\
            server = mcp_stdio.Server("steps", "1")

            @server.tool(task="required")
            def job(ctx: mcp_stdio.Context) -> str:
                "Three steps."
                for i in range(1, 4):
                    ctx.progress(i, 3, "step %d/3" % i)
                    ctx.sleep(0.15)
                return "done"
            raise SystemExit(server.run())
            ''')
        for era in ("modern", "legacy"):
            with self.subTest(era=era):
                r = subprocess.run(SERVE + ["call", "job", "--era", era, "--"] + PY + [script],
                                   capture_output=True, cwd=HERE, timeout=60,
                                   stdin=subprocess.DEVNULL)
                self.assertEqual((r.returncode, r.stdout), (0, b"done\n"), r.stderr)
                lines = r.stderr.decode().splitlines()
                for i in (1, 2, 3):      # polled, a step may be missed; never said twice
                    self.assertLessEqual(sum("step %d/3" % i in x for x in lines), 1, lines)
                self.assertIn("task working", lines)
                self.assertEqual(lines[-1][:14], "task completed", lines)

    def test_the_command_line_runs_a_required_task_tool_legacy(self):
        self.runs_a_required_task_tool("legacy")

    def test_the_command_line_runs_a_required_task_tool_modern(self):
        self.runs_a_required_task_tool("modern")


@unittest.skipUnless(hasattr(os, "killpg"), "needs process groups")
class CtrlC(ProcTest):
    """Ctrl-C during call cancels the call at the server and exits 130, in both eras."""

    def test_a_terminal_interrupt_cancels_the_call(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        script = os.path.join(tmp.name, "waits.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(CTRL_C_SERVER)
        for era, tool, extra in (("modern", "plain", []), ("legacy", "plain", []),
                                 ("modern", "long", []), ("legacy", "long", ["--task"])):
            with self.subTest(era=era, tool=tool):
                mark = os.path.join(tmp.name, "%s-%s" % (era, tool))
                p = subprocess.Popen(SERVE + ["call", tool, "--era", era] + extra +
                                     ["--"] + PY + [script], cwd=HERE,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=dict(os.environ, MARK=mark),
                                     start_new_session=True)      # a terminal's group
                self.addCleanup(p.kill)
                deadline = time.monotonic() + TIMEOUT
                while not os.path.exists(mark) and time.monotonic() < deadline:
                    time.sleep(0.02)
                time.sleep(0.2)                  # a task: its first poll has gone out
                os.killpg(p.pid, signal.SIGINT)  # what Ctrl-C does: the whole group
                out, err = p.communicate(timeout=TIMEOUT)
                self.assertEqual(p.returncode, 130, err)
                self.assertNotIn(b"Traceback", err)
                self.assertTrue(err.endswith(b"cancelled\n"), err)
                with open(mark) as f:
                    self.assertEqual(f.read(), "started\ncancelled=True\n")   # it was told


###############################################################################
# Host setup: the hosts and the doctor ########################################
###############################################################################


class Doctor(unittest.TestCase):
    """doctor starts a server as each host does and names what would fail (real processes)."""

    def setUp(self):
        self.script = os.path.join(vendored_project(), "team_tools.py")

    def doctor(self, *args, command=None):
        r = subprocess.run(SERVE + ["doctor"] + list(args) + ["--"] + (command or PY + [
            self.script]), capture_output=True, cwd=HERE, timeout=120,
            stdin=subprocess.DEVNULL)
        self.assertFalse(r.stderr, r.stderr.decode())
        return r.returncode, r.stdout.decode()

    def test_a_good_server_passes(self):
        code, out = self.doctor("--host", "claude-code")
        self.assertEqual(code, 0, out)
        self.assertEqual(out, "doctor: starts %s -S %s\n" % (sys.executable, self.script) +
                         "claude-code: ok  (models Claude Code 2.1.283 (2026-09-28), probes, "
                         "then 2025-11-25; https://github.com/anthropics/claude-code/issues/84136)"
                         "\ndoctor: 1 of 1 host(s) would start it\n")

    @unittest.skipUnless(SLOW, "six starts and two more: with MCP_STDIO_SLOW=1 (.ci/run sets it)")
    def test_a_good_server_passes_every_host(self):
        code, out = self.doctor()
        self.assertEqual(code, 0, out)
        self.assertEqual([line.split(":")[0] for line in out.splitlines() if
                          not line.startswith(" ")][1:-1], sorted(mcp_stdio._HOSTS))
        self.assertTrue(out.endswith("doctor: 7 of 7 host(s) would start it\n"), out)
        self.assertIn("codex: ok  (models Codex CLI 0.165.0 (2026-11-03), speaks 2025-06-18; "
                      "https://github.com/openai/codex/issues/11851)", out)
        self.assertIn("claude-code: ok  (models Claude Code 2.1.283 (2026-09-28), probes, then "
                      "2025-11-25", out)

    def test_a_banner_on_stdout_fails_quoting_it(self):
        code, out = self.doctor("--host", "claude-desktop", command=PY + [self.script, "banner"])
        self.assertEqual(code, 1, out)
        self.assertIn("claude-desktop: FAIL", out)
        self.assertIn("  fault: output on stdout before the first message: "
                      "b'Starting team tools v1.0'\n    fix: write diagnostics to sys.stderr", out)

    def test_a_failing_import_fails_quoting_its_last_line(self):
        code, out = self.doctor("--host", "codex", command=PY + [self.script, "broken"])
        self.assertEqual(code, 1, out)
        self.assertIn("  fault: the server did not start: \"ModuleNotFoundError: No module named "
                      "'no_such_module_for_the_doctor'\"", out)

    def test_paths_the_host_cannot_follow(self):
        code, out = self.doctor("--host", "claude-desktop",
                                command=["no-such-python-3", self.script])
        self.assertEqual(code, 1, out)
        self.assertIn("  fault: the host cannot find 'no-such-python-3' (PATH "
                      "/usr/bin:/bin:/usr/sbin:/sbin, working folder /)", out)
        code, out = self.doctor("--host", "claude-desktop",
                                command=PY + [os.path.relpath(SERVER, HERE)])
        self.assertEqual(code, 1, out)
        self.assertIn("    fix: give the absolute path of mcp_stdio.py (the host starts it in /;",
                      out)

    def test_a_script_runs_with_this_interpreter_and_a_missing_path_is_said(self):
        """After --, a first word ending in .py runs with this interpreter, as for config and
        install; an absolute path that does not exist is said so, not "give the absolute
        path"."""
        code, out = self.doctor("--host", "codex", command=[self.script])
        self.assertEqual(code, 0, out)
        self.assertTrue(out.startswith("doctor: starts %s %s\n" % (
            os.path.abspath(sys.executable), self.script)), out)
        missing = os.path.join(os.path.dirname(self.script), "no-such-program")
        code, out = self.doctor("--host", "codex", command=[missing, "x"])
        self.assertEqual(code, 1, out)
        self.assertIn("  fault: %s does not exist\n    fix: give the path of the program that "
                      "starts the server (config prints the absolute path of one on your "
                      "PATH)\n" % missing, out)

    def test_a_proxys_entries_that_fail_are_named_and_hosts_share_starts(self):
        """A proxy whose entries fail to start (a missing command, one that exits at once, one
        that never answers) fails, each entry named with its last lines on stderr. Hosts
        that start a server alike share one start, and the starts run at once: seven hosts,
        four starts (0.11.2: eight for six); the two without tasks learn which tools run only
        as a task from another host's listing."""
        folder, leaf = leaf_folder(self)
        path = servers_file(folder, {
            "good": {"command": sys.executable, "args": ["-S", leaf, folder]},
            "missing": {"command": os.path.join(folder, "no-such-server")},
            "quits": {"command": sys.executable, "args": [
                "-S", "-c", "import sys; sys.stderr.write('one\\ntwo: no config\\n'); "
                "sys.exit(3)"]},
            "mute": {"command": sys.executable, "args": [
                "-S", "-c", "import time; time.sleep(60)"]}})
        code, out = self.doctor(command=PY + [SERVER, "proxy", path, "--start-timeout", "2"])
        self.assertEqual(code, 1, out)
        faults = ("  fault: mount 'missing' does not start: cannot start %s: [Errno 2] No such "
                  "file or directory: %r\n    fix: run its command yourself to see why\n"
                  "  fault: mount 'mute' does not start: it did not list within its start "
                  "timeout\n    fix: run its command yourself to see why\n"
                  "  fault: mount 'quits' does not start: the server exited (status 3)\n"
                  "    fix: its last lines on stderr: one | two: no config\n" % (
                      os.path.join(folder, "no-such-server"),
                      os.path.join(folder, "no-such-server")))
        self.assertEqual(out.count(faults), 7, out)
        self.assertTrue(out.endswith("doctor: 0 of 7 host(s) would start it\n"), out)
        with open(os.path.join(folder, "starts")) as f:
            self.assertEqual(len(f.read().split()), 4)

    def test_what_a_host_refuses_in_the_tool_list(self):
        code, out = self.doctor("--host", "gemini-cli", command=PY + [self.script, "nested"])
        self.assertEqual(code, 1, out)
        self.assertIn("  fault: tool 'nested': / uses $defs; / requires 'q', which is not one of "
                      "its properties; /properties/p uses $ref; /properties/tags is an array "
                      "without items\n", out)
        self.assertEqual(self.doctor("--host", "claude-code", command=PY + [
            self.script, "nested"])[0], 0)

    def test_a_listing_over_a_hosts_tool_budget_is_warned_of(self):
        """A host that loads every schema holds about 40 tools well: past that the doctor
        says so, with the size and which tools a host that keeps the first 40 would lose
        (in the order listed), and recommends tool search; said as conditional where the
        host searches with some models; not where it searches them itself, which needs the
        server's instructions instead."""
        code, out = self.doctor("--host", "claude-desktop", command=PY + [self.script, "many"])
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"\n  warning: it lists 45 tools \(\d+\.\d KB, about \d+ tokens, "
                              r"estimated as bytes / 4\); Claude Desktop loads every tool's "
                              r"schema on every turn, and a host that keeps the first 40 would "
                              r"not see t39, t40, t41, t42, t43\n    fix: list two search tools "
                              r"instead "
                              r"\(--tool-search: the rest stay callable and are found by "
                              r"search_tools\), or serve fewer: --tools with names or patterns "
                              r"\('fs_\*'\), or mount\(\.\.\., include=, exclude=\) for a mounted "
                              r"server's\n")
        code, out = self.doctor("--host", "vscode", command=PY + [self.script, "many"])
        self.assertEqual((code, out.count("warning")), (0, 0), out)      # 128 for Copilot
        # The fix it names: with tool search the host lists two tools (and the pinned).
        code, out = self.doctor("--host", "claude-desktop", command=PY + [
            self.script, "many", "--tool-search"])
        self.assertEqual((code, out.count("warning")), (0, 0), out)
        code, out = self.doctor("--host", "codex", command=PY + [self.script, "many"])
        self.assertIn("\n    fix: where the model in use has no tool search of the host's own: "
                      "list two search tools instead (--tool-search", out)
        # A host that searches: no tool search of ours, but what its search needs.
        for host in ("claude-code", "cursor"):
            code, out = self.doctor("--host", host, command=PY + [self.script, "many"])
            self.assertEqual((code, out.count("warning")), (0, 1), out)
            self.assertNotIn("--tool-search", out)
            self.assertIn("warning: it lists 45 tools and no instructions: ", out)

    def test_a_mounted_tool_a_host_refuses_names_the_mounts_options(self):
        """The author cannot change someone else's tool: the fix is the mount's options. A
        mounted task-only tool is listed as one that may run as a task: no host refuses it."""
        code, out = self.doctor("--host", "gemini-cli", command=PY + [self.script, "mounted"])
        self.assertEqual(code, 1, out)
        self.assertEqual(out.count("  fault: "), 1, out)
        self.assertIn("  fault: tool 'other_deep': / uses $defs\n    fix: it is tool 'deep' of "
                      "mount 'other': leave it out (mount(..., exclude=['deep'])) or rename it "
                      "(rename={'deep': ...})\n", out)
        code, out = self.doctor("--host", "codex", command=PY + [self.script, "mounted"])
        self.assertEqual(code, 0, out)

    @about("tasks")
    def test_a_task_only_tool_fails_where_the_host_has_no_tasks(self):
        """Alone, the host's start of its own finds it; among hosts with tasks, their
        listing tells the two without."""
        fault = ("  fault: tool 'add' runs only as a task; the host speaks 2025-06-18, which has "
                 "no tasks (it is not listed)\n    fix: register it with task=\"optional\"\n")
        code, out = self.doctor("--host", "codex", command=PY + [self.script, "task"])
        self.assertEqual(code, 1, out)
        self.assertIn(fault, out)
        code, out = self.doctor(command=PY + [self.script, "task"])
        self.assertEqual(code, 1, out)
        self.assertEqual(out.count(fault), 2, out)
        self.assertTrue(out.endswith("doctor: 5 of 7 host(s) would start it\n"), out)

    @about("skills")
    def test_a_refused_skill_fails_and_a_relative_folder_is_found(self):
        code, out = self.doctor("--host", "claude-desktop", command=PY + [self.script, "skills"])
        self.assertEqual(code, 1, out)
        self.assertEqual(out.count("  fault: "), 1, out)
        self.assertIn("  fault: a skill was refused at start: \"team-tools: warning: skills: ", out)
        self.assertIn("bad/SKILL.md: name must be 1-64 lowercase letters", out)

    def test_each_host_names_what_it_models_and_where_that_is_reported(self):
        path = os.path.join(SHARED, "docs", "clients-in-the-wild.md")
        if not os.path.exists(path):
            self.skipTest("../shared/docs is not here")
        with open(path, encoding="utf-8") as f:
            reported = f.read()
        for name, host in mcp_stdio._HOSTS.items():
            issue = re.match(r"https://github\.com/[^/]+/([^/]+)/(?:issues|pull)/(\d+)\Z",
                             host.source)      # the document may write it "repo #N"
            self.assertTrue(host.source in reported or issue is not None and
                            "%s #%s" % issue.groups() in reported, name)
            if name != "gemini-cli":          # its version is from a trial, not the document
                self.assertIn(host.title.split(" (")[0].rsplit(" ", 1)[-1], reported, name)

    def test_a_slow_start_is_said(self):
        code, out = self.doctor("--host", "codex", command=PY + [self.script, "slow"])
        self.assertEqual(code, 0, out)
        self.assertRegex(out, r"  warning: the first answer took [2-9]\.\d s of the host's "
                              r"10 s\n")       # 2.7 s asleep, and a busy machine's start

    def test_usage(self):
        for args in ((), ("--host", "nowhere", "--"), ("--host",)):
            r = subprocess.run(SERVE + ["doctor"] + list(args), capture_output=True, cwd=HERE,
                               stdin=subprocess.DEVNULL, timeout=60)
            self.assertEqual(r.returncode, 2, args)
            self.assertTrue(r.stderr.startswith(b"error: "), r.stderr)


###############################################################################
# Host setup: config and install ##############################################
###############################################################################


class Install(unittest.TestCase):
    """install writes config's entry into each host's own file (real processes, a fake home)."""

    FILES = {"claude-desktop": ".config/Claude/claude_desktop_config.json",
             "cursor": ".cursor/mcp.json", "vscode": ".config/Code/User/mcp.json",
             "gemini-cli": ".gemini/settings.json", "codex": ".codex/config.toml",
             "copilot-cli": ".copilot/mcp-config.json"}

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.home = tmp.name
        self.script = os.path.join(vendored_project(), "team_tools.py")

    def install(self, *args, cwd=None):
        env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
        env.update(HOME=self.home, PATH=os.path.dirname(sys.executable),   # no claude on it
                   PYTHONPATH=HERE)
        r = subprocess.run(SERVE + ["install"] + list(args), capture_output=True, env=env,
                           cwd=cwd or self.home, timeout=120, stdin=subprocess.DEVNULL)
        return r.returncode, r.stdout.decode(), r.stderr.decode()

    @unittest.skipUnless(SLOW, "the other JSON hosts: with MCP_STDIO_SLOW=1 (.ci/run sets it)")
    def test_claude_desktop(self):
        self.keeps_the_rest_and_a_repeat_changes_nothing("claude-desktop")

    def test_cursor(self):
        self.keeps_the_rest_and_a_repeat_changes_nothing("cursor")

    @unittest.skipUnless(SLOW, "the other JSON hosts: with MCP_STDIO_SLOW=1 (.ci/run sets it)")
    def test_vscode(self):
        self.keeps_the_rest_and_a_repeat_changes_nothing("vscode")

    @unittest.skipUnless(SLOW, "the other JSON hosts: with MCP_STDIO_SLOW=1 (.ci/run sets it)")
    def test_gemini_cli(self):
        self.keeps_the_rest_and_a_repeat_changes_nothing("gemini-cli")

    @unittest.skipUnless(SLOW, "the other JSON hosts: with MCP_STDIO_SLOW=1 (.ci/run sets it)")
    def test_copilot_cli(self):
        self.keeps_the_rest_and_a_repeat_changes_nothing("copilot-cli")

    def test_codex(self):
        self.keeps_the_rest_and_a_repeat_changes_nothing("codex")

    def copy_of_the_script(self, name):
        """A copy of the server beside it (where it finds mcp_stdio), of a name of this test's
        own: the project is shared by tests that run at once, and a copy being written
        reads as an empty script that exits 0."""
        path = os.path.join(os.path.dirname(self.script), name)
        shutil.copy(self.script, path)
        self.addCleanup(os.remove, path)
        return path

    def keeps_the_rest_and_a_repeat_changes_nothing(self, host):
        entry = {"command": os.path.abspath(sys.executable), "args": [self.script]}
        rel = self.FILES[host]
        path = os.path.join(self.home, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        top = "servers" if host == "vscode" else "mcpServers"
        before = '[mcp_servers.other]\ncommand = "x"\n' if host == "codex" else \
            json.dumps({"theme": "dark", top: {"other": {"command": "x"}}}, indent=4) + "\n"
        with open(path, "w", encoding="utf-8") as f:
            f.write(before)
        code, out, err = self.install(host, "--", self.script)
        self.assertEqual((code, err), (0, ""), out)
        self.assertEqual(out, "%s: installed 'team-tools' (the old file is in %s.bak)\n"
                         "  it runs %s %s\n" % (path, path, sys.executable, self.script))
        with open(path, encoding="utf-8") as f:
            after = f.read()
        if host == "codex":
            self.assertEqual(after, before + "\n[mcp_servers.team-tools]\ncommand = %s\n"
                             "args = [%s]\n" % (json.dumps(entry["command"]),
                                                json.dumps(self.script)))
        else:
            data = json.loads(after)
            want = dict({"type": "stdio"} if host == "vscode" else {"type": "local", "tools": [
                "*"]} if host == "copilot-cli" else {}, **entry)
            self.assertEqual(data, {"theme": "dark", top: {"other": {"command": "x"},
                                                           "team-tools": want}})
            self.assertIn('\n    "theme"', after)        # its indentation kept
        with open(path + ".bak", encoding="utf-8") as f:
            self.assertEqual(f.read(), before)
        code, out, _ = self.install(host, "--", self.script)
        self.assertEqual(code, 0)
        self.assertIn("is installed already; nothing changed", out)
        with open(path, encoding="utf-8") as f:
            self.assertEqual(f.read(), after)
        self.assertEqual(sorted(os.listdir(os.path.dirname(path))),
                         sorted([os.path.basename(path), os.path.basename(path) + ".bak"]))
        if host not in ("cursor", "codex"):   # one JSON host and the TOML one suffice
            return
        # Another server of the same name is kept unless --force.
        other = self.copy_of_the_script("other_%s.py" % host)
        code, _, err = self.install(host, "--name", "team-tools", "--", other)
        self.assertEqual(code, 1)
        self.assertIn("already has a different server named 'team-tools'", err)
        code, _, _ = self.install(host, "--force", "--name", "team-tools", "--", other)
        self.assertEqual(code, 0)
        with open(path, encoding="utf-8") as f:
            replaced = f.read()
        self.assertIn(json.dumps(other), replaced)
        self.assertNotIn(json.dumps(self.script), replaced)
        with open(path + ".bak", encoding="utf-8") as f:
            self.assertEqual(f.read(), before)       # the first backup stays

    def test_what_it_refuses(self):
        path = os.path.join(self.home, ".cursor", "mcp.json")
        os.makedirs(os.path.dirname(path))
        with open(path, "w", encoding="utf-8") as f:
            f.write('{\n  // mine\n  "mcpServers": {}\n}\n')
        code, out, err = self.install("cursor", "--", self.script)
        self.assertEqual((code, out), (2, ""))
        entry = {"mcpServers": {"team-tools": {"command": os.path.abspath(sys.executable),
                                               "args": [self.script]}}}
        self.assertEqual(err, "error: %s, line 2 column 3: a comment, which cursor's reader does "
                              "not allow; nothing written. Add the entry by hand:\n%s"
                         % (path, json.dumps(entry, indent=2) + "\n"))
        with open(path, encoding="utf-8") as f:
            self.assertEqual(f.read(), '{\n  // mine\n  "mcpServers": {}\n}\n')
        broken = os.path.join(os.path.dirname(self.script), "broken.py")
        with open(broken, "w", encoding="utf-8") as f:
            f.write("import no_such_module_for_the_installer\n")
        code, _, err = self.install("gemini-cli", "--", broken)
        self.assertEqual(code, 1)
        self.assertIn("the doctor found what gemini-cli would fail on; nothing written", err)
        self.assertFalse(os.path.exists(os.path.join(self.home, ".gemini")))
        self.assertEqual(self.install("codex", "--project", "--", self.script)[0], 2)

    def test_comments_are_kept_where_the_hosts_reader_takes_them(self):
        """VS Code's file keeps its comments and trailing commas, Gemini CLI's its comments
        (and gets no trailing comma); Gemini CLI's reader refuses a trailing comma, and every
        file that cannot be read or parsed is one line naming it, exit 2, nothing written."""
        command = json.dumps(os.path.abspath(sys.executable))
        vscode = ('{\n  // my servers\n  "servers": {\n    "x": {"command": "a // not a comment"},'
                  ' /* old */\n  },\n}\n')
        gemini = '{\n  "theme": "dark" // mine\n  /* nothing else */\n}\n'
        for host, before, after in (
                ("vscode", vscode, vscode.replace(
                    ' /* old */\n  },', ' /* old */\n    "team-tools": {\n      "type": "stdio",\n'
                    '      "command": %s,\n      "args": [\n        %s\n      ]\n    }\n  },'
                    % (command, json.dumps(self.script)))),
                ("gemini-cli", gemini, gemini.replace('"dark"', '"dark",').replace(
                    '/* nothing else */\n', '/* nothing else */\n  "mcpServers": {\n    "team-to'
                    'ols": {\n      "command": %s,\n      "args": [\n        %s\n      ]\n    }'
                    '\n  }\n' % (command, json.dumps(self.script))))):
            with self.subTest(host=host):
                path = os.path.join(self.home, self.FILES[host])
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(before)
                code, out, err = self.install(host, "--", self.script)
                self.assertEqual((code, err), (0, ""), out)
                with open(path, encoding="utf-8") as f:
                    self.assertEqual(f.read(), after)
                code, out, _ = self.install(host, "--", self.script)
                self.assertEqual(code, 0)
                self.assertIn("is installed already; nothing changed", out)
        path = os.path.join(self.home, self.FILES["gemini-cli"])
        for text, said in (
                ('{"mcpServers": {},}', "line 1 column 18: a trailing comma, which gemini-cli's "
                                        "reader does not allow"),
                ("[" * 1000 + "]" * 1000, "nests arrays or objects more than 100 deep"),
                ('{"mcpServers": {"a" 1}}', "is not JSON (line 1 column 21): Expecting ':' "
                                            "delimiter"),
                (b"\xff{}", "is not UTF-8 text (byte 0xff at offset 0)"),
                ("[]", "its top level or 'mcpServers' is not a JSON object")):
            with self.subTest(text=text[:20]):
                with open(path, "wb") as f:
                    f.write(text if isinstance(text, bytes) else text.encode())
                code, out, err = self.install("gemini-cli", "--", self.script)
                self.assertEqual((code, out), (2, ""))
                self.assertTrue(err.startswith("error: %s" % path), err)
                self.assertIn(said, err.splitlines()[0])
                self.assertNotIn("Traceback", err)
                with open(path, "rb") as f:
                    self.assertEqual(f.read(), text if isinstance(text, bytes) else text.encode())

    def test_a_command_or_a_script_after_the_dashes(self):
        """config and install take what the doctor takes: a first word ending in .py is a
        script run with this interpreter, anything else a command found as a shell finds it
        (by its absolute path in the entry, its file arguments absolute too); each says what
        it registers."""
        python = os.path.basename(sys.executable)        # on the PATH install() gives
        servers = os.path.join(self.home, "servers.json")
        with open(servers, "w") as f:
            json.dump({"mcpServers": {"demo": {"command": sys.executable,
                                               "args": ["-m", "mcp_stdio"],
                                               "env": {"PYTHONPATH": HERE}}}}, f)
        code, out, err = self.install("claude-code", "--name", "front", "--", python,
                                      SERVER, "proxy", "servers.json")
        self.assertEqual((code, err), (0, ""), out)
        self.assertEqual(out, "claude is not on PATH; run:\n  claude mcp add --scope user front "
                              "-- %s %s proxy %s\n" % (sys.executable, SERVER, servers))
        code, out, err = self.install("cursor", "--", python, SERVER, "proxy", "servers.json")
        self.assertEqual((code, err), (0, ""), out)
        with open(os.path.join(self.home, self.FILES["cursor"])) as f:
            entry, = json.load(f)["mcpServers"].values()
        self.assertEqual(entry, {"command": sys.executable,
                                 "args": [SERVER, "proxy", servers]})
        self.assertTrue(out.endswith("  it runs %s %s proxy %s\n" % (sys.executable, SERVER,
                                                                     servers)), out)
        for words, said in (([os.path.join(self.home, "nope")], "%s does not exist" %
                             os.path.join(self.home, "nope")),
                            (["no-such-program-here"], "'no-such-program-here' is not on PATH"),
                            (["gone.py"], "%s does not exist" % os.path.join(self.home,
                                                                             "gone.py"))):
            with self.subTest(words=words):
                code, out, err = self.install("cursor", "--", *words)
                self.assertEqual((code, out), (2, ""))
                self.assertTrue(err.startswith("error: " + said), err)
        r = subprocess.run(SERVE + ["config", "claude-desktop", "--name", "t", "--", sys.executable,
                                    self.script], capture_output=True, text=True, cwd=HERE,
                           timeout=60, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout), {"mcpServers": {"t": {
            "command": sys.executable, "args": [self.script]}}})
        self.assertIn("; it runs %s %s)" % (sys.executable, self.script), r.stderr)

    def test_a_repeat_answers_alike_for_every_host(self):
        """An identical entry is installed already (exit 0) for Claude Code too, read from the
        file its own command writes; a different one of that name is refused naming --force
        (exit 1), and --force replaces it (for Claude Code, removing it first)."""
        home = self.home
        with open(os.path.join(home, ".claude.json"), "w") as f:
            json.dump({"mcpServers": {"team-tools": {
                "type": "stdio", "command": sys.executable, "args": [self.script], "env": {}}},
                "numStartups": 3}, f)
        code, out, err = self.install("claude-code", "--", self.script)
        self.assertEqual((code, out, err), (0, "%s: 'team-tools' is installed already; nothing "
                                               "changed\n" % os.path.join(home, ".claude.json"),
                                            ""))
        other = self.copy_of_the_script("other_repeat.py")
        code, out, err = self.install("claude-code", "--name", "team-tools", "--", other)
        self.assertEqual((code, out), (1, ""))
        self.assertIn("already has a different server named 'team-tools': give another --name, "
                      "or --force", err)
        code, out, err = self.install("claude-code", "--force", "--name", "team-tools", "--",
                                      other)
        self.assertEqual((code, err), (0, ""))
        self.assertEqual(out, "claude is not on PATH; run:\n  claude mcp remove team-tools "
                              "--scope user\n  claude mcp add --scope user team-tools -- %s %s\n"
                         % (sys.executable, other))

    def test_a_file_with_a_byte_order_mark_is_read(self):
        """Windows PowerShell 5.1 writes UTF-8 with a byte order mark: a host's file and a
        proxy's file that start with one are read as any other."""
        path = os.path.join(self.home, self.FILES["cursor"])
        os.makedirs(os.path.dirname(path))
        with open(path, "wb") as f:
            f.write(b"\xef\xbb\xbf" + json.dumps({"mcpServers": {"other": {
                "command": "x"}}}).encode())
        code, out, err = self.install("cursor", "--", self.script)
        self.assertEqual((code, err), (0, ""), out)
        with open(path, encoding="utf-8") as f:
            self.assertEqual(sorted(json.load(f)["mcpServers"]), ["other", "team-tools"])
        proxy = os.path.join(self.home, "servers.json")
        with open(proxy, "wb") as f:
            f.write(b"\xef\xbb\xbf" + json.dumps({"mcpServers": {"demo": {
                "command": SERVE[0], "args": SERVE[1:]}}}).encode())
        self.assertEqual([m.prefix for m in mcp_stdio._proxy_server(proxy).sources], ["demo"])

    def test_always_load_where_a_host_has_it(self):
        """--always-load writes what keeps a server's tools out of a host's own search:
        "deferTools": "never" in Copilot CLI's entry (and says so), Claude Code's
        "alwaysLoad": true through its add-json; a host without such a setting refuses."""
        code, out, err = self.install("copilot-cli", "--always-load", "--", self.script)
        path = os.path.join(self.home, self.FILES["copilot-cli"])
        self.assertEqual((code, err), (0, ""), out)
        self.assertEqual(out, "%s: installed 'team-tools'\n  it runs %s %s\n  with \"deferTools\": "
                              "\"never\", so the host keeps its tools loaded\n"
                         % (path, sys.executable, self.script))
        with open(path, encoding="utf-8") as f:
            self.assertEqual(json.load(f), {"mcpServers": {"team-tools": {
                "type": "local", "tools": ["*"], "command": os.path.abspath(sys.executable),
                "args": [self.script], "deferTools": "never"}}})
        code, out, _ = self.install("claude-code", "--always-load", "--", self.script)
        entry = {"type": "stdio", "command": os.path.abspath(sys.executable),
                 "args": [self.script], "alwaysLoad": True}
        self.assertEqual((code, out), (0, "claude is not on PATH; run:\n  claude mcp add-json "
                                          "--scope user team-tools %s\n" % shlex.quote(
                                              json.dumps(entry))))
        code, out, err = self.install("cursor", "--always-load", "--", self.script)
        self.assertEqual((code, out, err), (2, "", "error: --always-load: cursor has no setting "
                                                   "that keeps a server's tools loaded "
                                                   "(claude-code and copilot-cli have)\n"))

    def test_a_project_file_and_claude_code(self):
        project = os.path.dirname(self.script)
        code, out, _ = self.install("vscode", "--project", "--", self.script, cwd=project)
        self.assertEqual(code, 0, out)
        with open(os.path.join(project, ".vscode", "mcp.json"), encoding="utf-8") as f:
            self.assertIn("team-tools", json.load(f)["servers"])
        code, out, _ = self.install("claude-code", "--project", "--", self.script)
        self.assertEqual((code, out), (0, "claude is not on PATH; run:\n  claude mcp add --scope "
                                          "project team-tools -- %s %s\n"
                                       % (os.path.abspath(sys.executable), self.script)))


@unittest.skipUnless(SLOW and os.environ.get("MCP_STDIO_HOSTS_BIN") and
                     os.environ.get("MCP_STDIO_NODE_BIN"),
                     "needs MCP_STDIO_SLOW=1 and Claude Code and Gemini CLI (.ci/run installs)")
class Hosts(unittest.TestCase):
    """Real hosts list a server that install registered, started from folders of their own."""

    def test_claude_code_and_gemini_cli_connect_from_another_folder(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        home, elsewhere = os.path.join(tmp.name, "home"), os.path.join(tmp.name, "elsewhere")
        project = os.path.join(tmp.name, "project")
        for folder in (home, elsewhere, project):
            os.mkdir(folder)
        script = os.path.join(project, "team_tools.py")
        with open(script, "w", encoding="utf-8") as f:
            f.write(DOCTOR_SERVER.replace('mode = sys.argv[1] if len(sys.argv) > 1 else "good"',
                                          'mode = "skills"'))
        shutil.copy(SERVER, project)
        write_skill(os.path.join(project, "skills"), "good", "name: good\ndescription: Good.")
        env = dict(os.environ, HOME=home, PYTHONPATH=HERE, PATH=os.pathsep.join((
            os.environ["MCP_STDIO_HOSTS_BIN"], os.environ["MCP_STDIO_NODE_BIN"],
            os.path.dirname(sys.executable), "/usr/bin", "/bin")))
        env.pop("XDG_CONFIG_HOME", None)
        # The MCP Apps example too: these hosts render no views, and nothing may break.
        apps = os.path.join(project, "examples", "apps")
        os.makedirs(apps)
        for name in ("board.py", "board.html"):
            shutil.copy(os.path.join(HERE, "examples", "apps", name), apps)
        # Gemini CLI's settings.json takes comments: the user's stay, and it reads the result.
        settings = os.path.join(home, ".gemini", "settings.json")
        os.makedirs(os.path.dirname(settings))
        with open(settings, "w") as f:
            f.write('{\n  // my own settings\n  "ui": {"hideTips": true} /* kept */\n}\n')
        for host in ("claude-code", "gemini-cli"):
            for words in ([script], ["--name", "task-board", os.path.join(apps, "board.py")],
                          [script]):           # again: the same entry, nothing changed
                r = subprocess.run(SERVE + ["install", host] + words[:-1] + ["--", words[-1]],
                                   capture_output=True, env=env, cwd=project, timeout=120,
                                   stdin=subprocess.DEVNULL)
                self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn(b"is installed already; nothing changed", r.stdout)
        with open(settings) as f:
            self.assertIn('  // my own settings\n  "ui": {"hideTips": true}, /* kept */', f.read())
        with open(os.path.join(home, ".gemini", "trustedFolders.json"), "w") as f:
            json.dump({elsewhere: "TRUST_FOLDER"}, f)    # it runs no server in other folders
        # --always-load: Claude Code's own command writes what keeps the tools loaded.
        r = subprocess.run(SERVE + ["install", "claude-code", "--always-load", "--name", "kept",
                                    "--", script], capture_output=True, env=env, cwd=project,
                           timeout=120, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(b'wrote "alwaysLoad": true for \'kept\'', r.stdout)
        with open(os.path.join(home, ".claude.json")) as f:
            self.assertIs(json.load(f)["mcpServers"]["kept"]["alwaysLoad"], True)
        for words in (["claude", "mcp", "list"], ["gemini", "mcp", "list"]):
            with self.subTest(host=words[0]):
                r = subprocess.run(words, capture_output=True, env=env, cwd=elsewhere,
                                   timeout=180, stdin=subprocess.DEVNULL)
                said = (r.stdout + r.stderr).decode("utf-8", "replace")    # gemini: on stderr
                for name in ("team-tools", "task-board"):
                    listed = [line for line in said.splitlines() if name in line]
                    self.assertEqual(len(listed), 1, r.stdout + r.stderr)
                    self.assertIn("Connected", listed[0])


@unittest.skipUnless(SLOW and os.environ.get("MCP_STDIO_HOSTS_BIN") and os.path.exists(
    os.path.join(os.environ.get("MCP_STDIO_HOSTS_BIN", ""), "copilot")),
    "Copilot CLI from npm: with MCP_STDIO_SLOW=1 and MCP_STDIO_HOSTS_BIN (.ci/run sets them)")
class CopilotHost(unittest.TestCase):
    """Copilot CLI reads the file install writes: its own "mcp list" and "mcp get" (which
    need no login) name the server, as --always-load wrote it."""

    def test_copilot_cli_reads_what_install_wrote(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        env = dict(os.environ, HOME=tmp.name, PYTHONPATH=HERE, PATH=os.pathsep.join((
            os.environ["MCP_STDIO_HOSTS_BIN"], os.path.dirname(sys.executable), "/usr/bin",
            "/bin")))
        env.pop("XDG_CONFIG_HOME", None)
        r = subprocess.run(SERVE + ["install", "copilot-cli", "--always-load", "--", SERVER],
                           capture_output=True, env=env, cwd=tmp.name, timeout=120,
                           stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr)
        r = subprocess.run(["copilot", "mcp", "list", "--json"], capture_output=True, env=env,
                           cwd=tmp.name, timeout=120, stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr)
        entry = json.loads(r.stdout)["mcpServers"]["mcp-stdio-demo"]
        self.assertEqual((entry["type"], entry["command"], entry["args"], entry["deferTools"],
                          entry["enabled"]),
                         ("local", os.path.abspath(sys.executable), [SERVER], "never", True))
        r = subprocess.run(["copilot", "mcp", "get", "mcp-stdio-demo"], capture_output=True,
                           env=env, cwd=tmp.name, timeout=120, stdin=subprocess.DEVNULL)
        self.assertIn(b"Status: Enabled", r.stdout, r.stderr)


class ConfigCommand(unittest.TestCase):
    """config: client configurations that start a server by absolute paths (in-process)."""

    def run_cli(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = mcp_stdio.main(list(args))
        return subprocess.CompletedProcess(args, code, out.getvalue().encode(),
                                           err.getvalue().encode())

    def test_the_demo_names_every_tool(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(mcp_stdio.main(["--help"]), 0)
        server = mcp_stdio.demo_server()
        for name in server.tools:
            self.assertIn(name, out.getvalue())
            self.assertIn(name, server.instructions)

    def test_an_installed_demo_is_configured_with_dash_m(self):
        saved = mcp_stdio.__file__
        mcp_stdio.__file__ = os.path.join(os.sep, "venv", "lib", "python3.12", "site-packages",
                                          "mcp_stdio.py")
        try:
            r = self.run_cli("config", "claude-desktop")
        finally:
            mcp_stdio.__file__ = saved
        entry = json.loads(r.stdout)["mcpServers"]["mcp-stdio-demo"]
        self.assertEqual((entry["command"], entry["args"]), (sys.executable, ["-m", "mcp_stdio"]))


class ConfigProcesses(unittest.TestCase):
    """config through real processes, beside the other process tests: it starts each server."""

    def run_cli(self, *args):
        return subprocess.run(SERVE + list(args), capture_output=True, cwd=HERE, timeout=60,
                              stdin=subprocess.DEVNULL)

    def test_config_for_each_client(self):
        script = os.path.join(HERE, "examples", "notes_server.py")
        for client in ("claude-desktop", "cursor", "gemini-cli", "vscode"):
            # The first asks the server its name; the others are told it (one start each).
            named = [] if client == "claude-desktop" else ["--name", "notes"]
            r = self.run_cli("config", client, *named, "--", script)
            self.assertEqual(r.returncode, 0)
            config = json.loads(r.stdout)
            entry = list(config.values())[0]["notes"]       # the server's own name
            self.assertEqual((entry["command"], entry["args"]), (sys.executable, [script]))
            self.assertTrue(os.path.isabs(entry["command"]))
        r = self.run_cli("config", "claude-code", "--name", "notes", "--", script)
        self.assertEqual(r.stdout.decode(), "claude mcp add notes -- %s %s\n"
                         % (sys.executable, script))
        r = self.run_cli("config", "codex")
        self.assertEqual(r.stdout.decode(), '[mcp_servers.mcp-stdio-demo]\ncommand = %s\n'
                         'args = [%s]\n' % (json.dumps(sys.executable), json.dumps(SERVER)))
        r = self.run_cli("config", "notepad")
        self.assertEqual(r.returncode, 2)
        with tempfile.TemporaryDirectory() as tmp:      # a server that cannot say its name
            broken = os.path.join(tmp, "team_tools.py")
            with open(broken, "w", encoding="utf-8") as f:
                f.write("import sys\nsys.exit(3)\n")
            r = self.run_cli("config", "cursor", "--", broken)
            self.assertEqual(list(json.loads(r.stdout)["mcpServers"]), ["team-tools"])
            named = os.path.join(tmp, "named.py")
            with open(named, "w", encoding="utf-8") as f:
                f.write("import sys\nsys.path.insert(0, %r)\nimport mcp_stdio\nraise SystemExit("
                        "mcp_stdio.Server('Team Tools: v2!', '1').run([]))\n" % HERE)
            r = self.run_cli("config", "cursor", "--", named)
            self.assertEqual(list(json.loads(r.stdout)["mcpServers"]), ["Team-Tools--v2"])
        # The printed configuration starts the server with a PATH that has no python at all.
        r = self.run_cli("config", "claude-desktop", "--", script)
        entry = json.loads(r.stdout)["mcpServers"]["notes"]
        with tempfile.TemporaryDirectory() as tmp:
            c = mcp_stdio.Client([entry["command"]] + entry["args"], timeout=TIMEOUT,
                                 env={"PATH": tmp, "NOTES_DIR": tmp})
            with c:
                self.assertIn("add_note", [t["name"] for t in c.list_tools()])


###############################################################################
# Demo catalog ################################################################
###############################################################################


class DemoTools(InProcTest):

    def setUp(self):
        self.p = self.spawn()
        self.p.initialize("2025-11-25")

    def call(self, name, args=None, rid=1, **params):
        params.update({"name": name})
        if args is not None:
            params["arguments"] = args
        return self.p.request({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                               "params": params})

    def test_echo(self):
        r = self.call("echo", {"text": "h\u00e9llo \U0001F600"})["result"]
        self.assertEqual(r, {"content": [{"type": "text", "text": "h\u00e9llo \U0001F600"}],
                             "structuredContent": {"text": "h\u00e9llo \U0001F600"}})

    def test_divide_reports_actionable_error(self):
        r = self.call("divide", {"dividend": 1, "divisor": 0})["result"]
        self.assertEqual(r, {"content": [{"type": "text", "text":
                             "Cannot divide by zero: pass a non-zero 'divisor'."}], "isError": True})
        r = self.call("divide", {"dividend": 1, "divisor": 4})["result"]
        self.assertEqual(r["structuredContent"], {"quotient": 0.25})

    def test_protocol_errors(self):
        for params in ({}, {"name": 5}, {"name": "echo", "arguments": []},
                       {"name": "echo", "arguments": "x"}):
            r = self.p.request({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
            self.assertEqual(err_code(r), -32602)
        r = self.call("nope", {})
        self.assertEqual(r["error"], {"code": -32602, "message": 'Unknown tool: "nope"'})

    def test_invalid_arguments_are_a_tool_error(self):
        r = self.call("add", {"a": "1", "c": 2})["result"]
        self.assertTrue(r["isError"])
        self.assertEqual(r["content"][0]["text"], "Invalid arguments for tool 'add':\n"
                         '- /a: expected type number, got string\n'
                         '- (root): unexpected property "c" (additionalProperties)\n'
                         '- (root): missing required property "b"')
        self.assertNotIn("structuredContent", r)
        r = self.call("echo")["result"]          # arguments absent means {}
        self.assertTrue(r["isError"])

    def test_grant_hides_tools(self):
        p = self.spawn("--tools", "echo,add")
        p.initialize()
        names = [t["name"] for t in p.request({"jsonrpc": "2.0", "id": 1,
                                               "method": "tools/list"})["result"]["tools"]]
        self.assertEqual(names, ["add", "echo"])
        hidden = p.request({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                            "params": {"name": "divide", "arguments": {}}})
        missing = p.request({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                             "params": {"name": "divide2", "arguments": {}}})
        self.assertEqual(hidden["error"]["message"].replace("divide", "X"),
                         missing["error"]["message"].replace("divide2", "X"))


###############################################################################
# Command line: the demo server and the commands ##############################
###############################################################################


class CommandLine(ProcTest):

    def run_cli(self, *args, script=False):
        # As a script the file is compiled at every start (a quarter second here),
        # so only the test of the README's own command starts it that way.
        return subprocess.run((PY + [SERVER] if script else SERVE) + list(args),
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT,
                              cwd=HERE)

    def test_help_and_version(self):
        r = self.run_cli("--help", script=True)
        self.assertEqual(r.returncode, 0)
        self.assertTrue(r.stdout.startswith(b"usage: python mcp_stdio.py"))
        r = self.run_cli("--version")
        self.assertEqual((r.returncode, r.stdout),
                         (0, ("mcp_stdio %s\n" % mcp_stdio.__version__).encode()))

    def test_bad_arguments(self):
        r = self.run_cli("--workers", "0")
        self.assertEqual((r.returncode, r.stdout), (2, b""))
        self.assertIn(b"error: server: workers must be an integer of at least 1\n\nusage: "
                      b"python -m mcp_stdio [options]", r.stderr)


###############################################################################
# The file as a whole: its rules and its README ###############################
###############################################################################


class Structure(unittest.TestCase):
    """What the file's layout promises: a sans-IO engine, one revision table, one options table."""

    def test_the_engine_does_no_io(self):
        import tokenize
        engine = section("Protocol engine (sans-IO): calls and methods") + \
            section("Protocol engine (sans-IO): the era machine and Connection")
        self.assertIn("class Connection", engine)
        names = [t.string for t in tokenize.generate_tokens(io.StringIO(engine).readline)
                 if t.type in (tokenize.NAME, tokenize.OP)]
        dotted = {a + b + c for a, b, c in zip(names, names[1:], names[2:]) if b == "."}
        bare = {b for a, b in zip(["("] + names, names) if a != "."}   # not an attribute
        for name in ("sys.stdout", "sys.stderr", "os.write", "os.urandom", "threading.Thread",
                     "time.time", "time.sleep"):
            self.assertFalse(name in dotted, name)
        for name in ("sys", "os", "time", "_monotonic", "threading", "select", "sleep", "_diag",
                     "print", "_report", "Context", "_exit", "open"):
            self.assertFalse(name in bare, name)

    def test_every_error_code_the_module_names_keeps_mcps_policy(self):
        """Codes defined as constants and written in the view bridge: JSON-RPC's, MCP's
        defined ones, or our own outside the reserved range, never -32000..-32019."""
        text, _ = module_tree()
        codes = {int(c) for c in re.findall(r"\n[A-Z_]+ = (-\d{5})\b", text)}
        bridge = getattr(mcp_stdio, "_VIEW_BRIDGE", "")     # none when built without apps
        codes |= {int(c) for c in re.findall(r"code: (-?\d+)", bridge)}
        self.assertIn(-31000, codes)
        for code in codes:
            self.assertTrue(any(code_problem(rev, {"error": {"code": code}}) is None
                                for rev in mcp_stdio.REVISIONS), code)
        self.assertNotIn("-3200", bridge)

    def test_rooms(self):
        """Where a newcomer edits: one place per method, revision, kind, outcome and command."""
        import ast
        text, tree = module_tree()
        for node in module_nodes():
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.assertLessEqual(node.end_lineno - node.lineno + 1, 100, node.name)
            if isinstance(node, ast.ClassDef) and node.name == "Connection":
                self.assertLess(node.end_lineno - node.lineno + 1, 450)
                methods = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
                self.assertFalse(methods & {"_discover", "_call_tool", "_list", "_initialize"})
        # One table each: modern revisions, kinds, routes, outcomes, era rules, commands.
        for table in ("MODERN_VERSIONS = (", "_CORE_KINDS = (", "_EXTENSIONS = (", "_ROUTES = {",
                      "_OUTCOMES = {", "_ERA_RULES = {", "_ERA_MACHINE = {", "_COMMANDS = {",
                      "_OPTIONS = ("):
            self.assertEqual(text.count("\n" + table), 1, table)
        # No branch on the era outside the era machine and the era rules, in any spelling,
        # anywhere in the file but the revision table.
        table = text[text.index("\n_REVISION_TABLE = {"):text.index("\ndef _has(")]
        for spelling in ("== MODERN", "!= MODERN", "== LEGACY", "!= LEGACY", '== "modern"',
                         '== "legacy"', '!= "modern"', '!= "legacy"', "era == ", "era != "):
            self.assertFalse(spelling in text.replace(table, ""), spelling)
        # Every route names a method handler beside it and a known revision feature.
        for method, route in mcp_stdio._ROUTES.items():
            self.assertTrue(route.feature is None or route.feature in mcp_stdio._REVISION_TABLE,
                            method)
        self.assertEqual(sorted(k.list_method for k in mcp_stdio._KINDS),
                         sorted(m for m in mcp_stdio._ROUTES if m.endswith("/list") and
                                m != "tasks/list"))      # tasks are a connection's, not a kind
        lines = text.splitlines()

        def source_of(name):
            node = next(n for n in tree.body if getattr(n, "name", None) == name)
            return "\n".join(lines[node.lineno - 1:node.end_lineno])
        # The client follows the same tables: no era or revision comparison in Client.
        client = source_of("Client")
        for spelling in ("== MODERN", "!= MODERN", "== LEGACY", "!= LEGACY", "era == ",
                         "era != ", "revision == ", "revision != ", "revision < ",
                         "revision > ", '"ttlMs"', "MODERN_VERSIONS"):
            self.assertFalse(spelling in client, spelling)
        # A feature is rows and hooks: Connection names no feature at all, as a whole word
        # (singular or plural): no extension's identifier or kind, nor apps, views, mounts
        # or middleware.
        connection = source_of("Connection").lower()
        words = {"extension", "task", "skill", "app", "view", "mount", "middleware", "ui"}
        words |= {r.key.lower() for r in mcp_stdio._EXTENSIONS}
        words |= {w for k in mcp_stdio._EXTENSION_KINDS for w in (k.attr, k.noun)}
        for word in sorted(words):
            self.assertIsNone(re.search(r"(?<![\w/.-])%ss?(?![\w/-])" % re.escape(word),
                                        connection), word)
        # Each extension is a section of its own: its hooks are defined under its banner.
        banners = [i for i, line in enumerate(lines) if line.startswith("# ") and
                   line.endswith("##") and lines[i - 1].startswith("####")]

        def banner_of(function):
            at = next(i for i, line in enumerate(lines)
                      if line.startswith(("def %s(" % function.__name__,
                                          "class %s:" % function.__name__,
                                          "class %s(" % function.__name__)))
            return lines[max(b for b in banners if b < at)]
        homes = []
        for row in mcp_stdio._EXTENSIONS:
            # Every hook and class of its row, and its methods' handlers and kinds' views.
            fields = [getattr(row, f) for f in mcp_stdio._Extension.__slots__
                      if f not in ("key", "routes", "kinds", "tool_fields", "inspects")]
            fields += [r.handler for r in row.routes.values()]
            fields += [k.shown for k in row.kinds] + [k.cls for k in row.kinds]
            hooks = [h for h in fields if callable(h) and h.__name__ != "<lambda>"]
            self.assertTrue(hooks, row.key)
            home = {banner_of(h) for h in hooks}
            self.assertEqual(len(home), 1, row.key)
            homes.extend(home)
        self.assertEqual(len(set(homes)), len(homes))
        self.assertFalse([h for h in homes if h.startswith(("# Protocol engine", "# Server:",
                                                            "# Client "))])

    def test_each_section_is_a_room_of_its_size(self):
        """No section over 1,200 lines or 45 top-level names, but the appendices (libraries
        of their own); the engine is two sections within them."""
        import ast
        text, tree = module_tree()
        lines = text.split("\n")
        banners = [i for i, line in enumerate(lines) if line.startswith("# ") and
                   line.endswith("##") and lines[i - 1].startswith("####")]
        self.assertGreater(len(banners), 20)
        for k, at in enumerate(banners):
            end = banners[k + 1] if k + 1 < len(banners) else len(lines)
            title = lines[at]
            if title.startswith("# Appendix:"):
                continue
            names = [n for n in tree.body if at < n.lineno <= end and isinstance(
                n, (ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign))]
            self.assertLessEqual(end - at, 1200, title)
            self.assertLessEqual(len(names), 45, title)

    def test_the_tests_follow_the_modules_sections(self):
        """The test file's banners that name a section of the module come in its order."""
        text, _ = module_tree()
        with open(__file__, encoding="utf-8") as f:
            tests = f.read()

        def titles(source):
            lines = source.split("\n")
            return [line[2:].rstrip("# ").rstrip() for i, line in enumerate(lines)
                    if line.startswith("# ") and line.endswith("##") and i and
                    lines[i - 1].startswith("####")]
        module = titles(text)
        ours = [t for t in titles(tests) if t in module]
        self.assertGreater(len(ours), 15)
        self.assertEqual(ours, sorted(ours, key=module.index))

    def test_mounting_reads_no_private_attribute_of_another_class(self):
        """What Mounting needs of the client, the engine and the server is their in-file
        interface: it reads no attribute with a leading underscore but its own objects'."""
        self.assertEqual(private_reads(section("Mounting: one server in front of many")), [])
        self.assertEqual(private_reads("x = ctx._call\ny = self._own\nz = getattr(c, '_p')\n"),
                         ["ctx._call", "getattr(c, '_p')"])

    def test_the_files_rules(self):
        """The rules in mcp_stdio's header: dates in one table, nothing used before it exists."""
        import ast
        text, tree = module_tree()
        self.assertIn("The file's rules, each held by a structural test:", text)
        first = text[:text.index("\nLEGACY_VERSIONS = (")].count("\n") + 2
        last = text[:text.index("\n}", text.index("\n_REVISION_TABLE = {"))].count("\n") + 1
        dates = [n.lineno for n in module_nodes() if isinstance(n, ast.Constant) and
                 isinstance(n.value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", n.value)]
        self.assertTrue(dates)
        hosts = next(n for n in tree.body if isinstance(n, ast.Assign) and
                     getattr(n.targets[0], "id", None) == "_HOSTS")
        self.assertEqual([n for n in dates if not first <= n <= last and
                          not hosts.lineno <= n <= hosts.end_lineno], [])
        self.assertEqual(used_before_defined(text, tree), [])
        self.assertEqual(used_before_defined("A = 1\nB = A + C\nclass D(E):\n    x = A\n"
                                             "    def f(self, a=F):\n        return G\n"
                                             "C = E = F = G = 2\n"),
                         [("C", 2), ("E", 3), ("F", 5)])

    @about("tasks", "skills", "apps")      # the crossings of the whole module
    def test_each_section_names_only_sections_above_it(self):
        """A section names only sections above it, at import and at run time (the appendices,
        libraries of their own, excepted); the library comes before the commands' banner."""
        text, tree = module_tree()

        def short(title):
            return title.split(":")[0].split(" (")[0]
        self.assertEqual(crossings(text, tree), {})
        titles = [short(line[2:].rstrip("# ")) for i, line in enumerate(text.split("\n")) if
                  line.startswith("# ") and line.endswith("##") and i and
                  text.split("\n")[i - 1].startswith("####")]
        self.assertGreater(titles.index("Commands"), 15)     # the library's sections first
        banner = lambda title: "#" * 79 + "\n# %s ###\n" % title + "#" * 79 + "\n"   # noqa
        self.assertEqual(crossings(
            banner("A") + "def f(x):\n    return g() + x + h + _p\n" +
            "def k():\n    g = 1\n    return g\n" + banner("B") + "def g():\n    return f\n" +
            "x = 1\n" + banner("Appendix: C") + "def h():\n    return 0\n_p = 2\n"),
            {("A", "B"): ["g"]})

    def test_no_two_names_differ_only_by_case_or_underscores(self):
        """A reader tells the module's names apart by their words (_Kind, _KIND were two)."""
        import ast
        _, tree = module_tree()
        names = set()
        for st in tree.body:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(st.name)
            for t in getattr(st, "targets", [getattr(st, "target", None)]):
                names.update(x.id for x in ast.walk(t) if isinstance(x, ast.Name)) \
                    if t is not None else None
        words = {}
        for name in sorted(names):
            words.setdefault(name.replace("_", "").lower(), []).append(name)
        self.assertEqual([same for same in words.values() if len(same) > 1], [])

    def test_the_header_lists_every_section_in_order(self):
        """The module's docstring names each banner's section, in the file's order, and
        every banner has code under it."""
        import ast
        text, tree = module_tree()
        lines = text.split("\n")
        banners = [(i, line[2:].rstrip("# ").rstrip()) for i, line in enumerate(lines)
                   if line.startswith("# ") and line.endswith("##") and i and
                   lines[i - 1].startswith("####")]
        header = text[text.index("The file is organised in sections"):
                      text.index("The file's rules")]
        at = 0
        for _, title in banners:
            name = title.split(":")[0].split(" (")[0].replace("Appendix", "Appendices")
            found = header.find(name, at)
            self.assertGreaterEqual(found, 0, "%r is not in the header after %r" % (
                name, header[max(0, at - 40):at]))
            at = found
        starts = [i + 1 for i, _ in banners] + [len(lines) + 1]
        for (i, title), end in zip(banners, starts[1:]):
            defined = [st for st in tree.body if i + 1 < st.lineno < end and
                       not isinstance(st, ast.Expr)]
            self.assertTrue(defined, "no code under the banner %r" % title)

    def test_the_library_serves_without_the_commands(self):
        """The file cut at the Commands banner imports, and serves: a server of its own with
        a mounted one, in both eras in this process and over a real pipe; of __all__ only
        main() is gone."""
        with open(SERVER, encoding="utf-8") as f:
            source = f.read()
        cut = library_cut(source)
        self.assertNotIn("\ndef main(", cut)
        folder = built_module(self, cut)
        script = textwrap.dedent('''
            import json, subprocess, sys
            import mcp_stdio
            server, inner = mcp_stdio.Server("lib", "1"), mcp_stdio.Server("inner", "1")

            @server.tool
            def add(a: int, b: int) -> int:
                "Add."
                return a + b

            @inner.tool
            def echo(text: str) -> str:
                "Echo."
                return text
            server.mount("in", inner)
            if sys.argv[1:] == ["serve"]:
                raise SystemExit(server.run([]))
            seen = [[n for n in mcp_stdio.__all__ if not hasattr(mcp_stdio, n)]]
            for era in ("legacy", "modern"):
                with mcp_stdio.InProcessClient(server, era=era) as c:
                    seen.append([c.call_tool("add", {"a": 1, "b": 2})["content"][0]["text"],
                                 c.call_tool("in_echo", {"text": "hi"})["content"][0]["text"]])
            with mcp_stdio.Client([sys.executable, "-S", __file__, "serve"]) as c:
                seen.append([t["name"] for t in c.list_tools()])
            print(json.dumps(seen))
            ''')
        path = os.path.join(folder, "lib_server.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(script)
        r = subprocess.run(PY + [path], capture_output=True, text=True, cwd=folder,
                           stdin=subprocess.DEVNULL, timeout=60,
                           env=dict(os.environ, PYTHONPATH=folder))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout), [["main"], ["3", "hi"], ["3", "hi"],
                                                ["add", "in_echo"]])

    def test_tests_that_patch_what_threads_share_run_alone(self):
        """A test that patches process-wide state never runs beside another test."""
        with open(__file__, encoding="utf-8") as f:
            source = f.read()
        shared = re.compile("|".join(re.escape(w) for w in (
            "mock." + "patch", "redirect_" + "std", "sys.modules" + "[", "os.environ" + "[",
            "os." + "chdir")))
        # Each method's lines, read by indentation (parsing this file takes a quarter second).
        found, methods, cls, name = [], {}, None, None
        for line in source.splitlines():
            head = re.match(r"(class |    def |    @|\S)(\w*)", line)
            if head and head.group(1) == "class ":
                cls, name = head.group(2), None
            elif head and head.group(1) == "    def " and cls:
                name = "%s.%s" % (cls, head.group(2))
                methods[name] = []
            elif head:
                name = None
                if re.match(r"(def |\w+ = )", line):
                    cls = None          # a module-level statement: no class's method follows
            if name is not None:
                methods[name].append(line)
        for name, body in methods.items():
            cls = name.split(".")[0]
            if cls not in PARALLEL_CLASSES and cls not in EXCLUSIVE_TESTS and \
                    name not in EXCLUSIVE_TESTS and shared.search("\n".join(body)):
                found.append(name)
        self.assertTrue(shared.search("\n".join(
            methods["Structure.test_feed_makes_no_call_to_the_world"])))
        self.assertEqual(found, [])
        tests = unittest.TestLoader().loadTestsFromModule(sys.modules.get(__name__))
        every = {t.id().split(".", 1)[1] for t in _flatten(tests)}
        every |= {t.id().split(".", 1)[1] for t in _flatten(list(tests)[0].meanwhile)}
        self.assertEqual(every - set(methods), set())     # the scan saw every test
        meanwhile = {t.id().split(".", 1)[1] for t in _flatten(list(tests)[0].meanwhile)}
        self.assertNotIn("Structure.test_feed_makes_no_call_to_the_world", meanwhile)
        self.assertIn("Structure.test_rooms", meanwhile)

    def test_feed_makes_no_call_to_the_world(self):
        """feed() of every method makes no file-system call and reads no clock but its own."""
        from unittest import mock
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        root = os.path.join(tmp.name, "skills")
        write_skill(root, "pdf-processing", "name: pdf-processing\ndescription: PDFs.",
                    {"references/FORMS.md": b"# Forms\n"})
        server = mcp_stdio.demo_server()
        server.configure(live=True)
        if "skills" in SERVED:
            server.serve_skills(root)

        @server.tool(task="optional")
        def later(x: int) -> str:
            """May be a task."""
            return "later %d" % x
        uri = "skill://pdf-processing/SKILL.md"
        params = {"tools/call": {"name": "later", "arguments": {"x": 1}},
                  "resources/read": {"uri": uri}, "resources/subscribe": {"uri": uri},
                  "resources/unsubscribe": {"uri": uri}, "prompts/get": {"name": "summarize",
                                                                       "arguments": {"text": "t"}},
                  "completion/complete": {"ref": {"type": "ref/prompt", "name": "summarize"},
                                          "argument": {"name": "style", "value": "s"}},
                  "logging/setLevel": {"level": "info"}, "skills/get": {"uri": uri},
                  "resources/directory/read": {"uri": "skill://pdf-processing"},
                  "subscriptions/listen": {"notifications": {"toolsListChanged": True}},
                  "tasks/get": {"taskId": "x"}, "tasks/cancel": {"taskId": "x"},
                  "tasks/result": {"taskId": "x"}, "tasks/update": {"taskId": "x",
                                                                    "inputResponses": {}}}

        def fail(*args, **kw):
            raise AssertionError("the engine made a call to the world")
        patches = [mock.patch.object(os, name, fail) for name in (
            "read", "stat", "lstat", "scandir", "open", "fstat", "listdir")] + [
            mock.patch("builtins.open", fail), mock.patch("time.time", fail),
            mock.patch("time.monotonic", fail), mock.patch.object(mcp_stdio, "_monotonic", fail)]
        for era in ("2025-11-25", MODERN):
            with self.subTest(era=era):
                lines, calls = [], []
                ticks = iter(range(10 ** 6))
                conn = connect(server, lines.append, clock=lambda: next(ticks),
                               wall_clock=lambda: 1.8e9, random=lambda n: b"\x01" * n)
                msgs = [init_msg(0, era, {"elicitation": {}})] if era != MODERN else []
                routes = sorted(mcp_stdio._ROUTES) + [   # a skill's file: read where handlers run
                    ("resources/read", {"uri": "skill://pdf-processing/references/FORMS.md"})]
                for i, route in enumerate(routes):
                    method, p = route if type(route) is tuple else (
                        route, copy.deepcopy(params.get(route, {})))
                    if era == MODERN:
                        p["_meta"] = tasks_meta()
                    msgs.append({"jsonrpc": "2.0", "id": i + 1, "method": method, "params": p})
                with contextlib.ExitStack() as stack:
                    for patch in patches:
                        stack.enter_context(patch)
                    for msg in msgs:
                        out = conn.feed(json.dumps(msg).encode() + b"\n")
                        lines += [x for x in out if type(x) is bytes]
                        calls += [x for x in out if type(x) is not bytes]
                self.assertGreater(len(lines) + len(calls), len(msgs) - 1)
                if "skills" in SERVED:                 # a skills list waits like a call
                    self.assertIn("skills/list", [c.name for c in calls])
                for call in calls:                   # the runtime's side: it may read files
                    call.run()
                self.assertEqual([x for x in conn.reports if "incident" in x], [])
                conn.close()
        # A mount that has not listed yet: a request naming what it may add, and a list,
        # become Calls that wait for it, their timeouts its start timeout longer; no clock.
        outer = mcp_stdio.Server("front", "1", timeout=5.0)
        outer.mount("m", [sys.executable, "-c", "pass"], start_timeout=2.0)
        outer.sources[0].started = 0.0        # started and not listed, as begin() leaves it
        for era in ("2025-11-25", MODERN):
            with self.subTest(era=era, mount="starting"):
                ticks = iter(range(10 ** 6))
                conn = connect(outer, [].append, clock=lambda: next(ticks),
                               wall_clock=lambda: 1.8e9, random=lambda n: b"\x01" * n)
                if era != MODERN:
                    conn.feed(json.dumps(init_msg(0, era)).encode() + b"\n")
                msgs = [(m, p) for m, p in (("tools/call", {"name": "m_x", "arguments": {}}),
                                            ("resources/read", {"uri": "m://x"}),
                                            ("prompts/get", {"name": "m_p"}),
                                            ("tools/list", {}))]
                out = []
                with contextlib.ExitStack() as stack:
                    for patch in patches:
                        stack.enter_context(patch)
                    for i, (method, p) in enumerate(msgs):
                        if era == MODERN:
                            p = dict(p, _meta=modern_meta())
                        out += conn.feed(json.dumps({"jsonrpc": "2.0", "id": i + 1, "method":
                                                     method, "params": p}).encode() + b"\n")
                self.assertEqual([type(x).__name__ for x in out], ["Call"] * 4)
                self.assertEqual({x.timeout for x in out}, {7.0})

    def test_no_revision_date_compared_outside_the_table(self):
        with open(SERVER, encoding="utf-8") as f:
            text = f.read()
        table = text[text.index("_REVISION_TABLE = {"):text.index("def _has(")]
        rest = text.replace(table, "")
        self.assertEqual(re.findall(r'(?:[<>]=?|[=!]=)\s*"20\d\d-\d\d-\d\d"|"20\d\d-\d\d-\d\d"\s*(?:[<>]|[<>=!]=)',
                                    rest), [])
        self.assertNotIn("revision >=", rest)
        self.assertNotIn("revision <", rest)
        # The table's rows name dates, never "the latest" (which a new revision would move);
        # the latest is the client's alone, as the revision it offers.
        client = text.index("\n# Client ####")
        self.assertNotIn("MODERN_VERSION", text[:client].replace("MODERN_VERSIONS", ""))
        self.assertEqual(text.count("\nMODERN_VERSION = "), 1)
        self.assertNotIn("MODERN_VERSIONS[-1]", table)

    @about("tasks")                    # the tasks section uses the task features
    def test_the_revision_table(self):
        has = mcp_stdio._has
        self.assertEqual([r for r in mcp_stdio.REVISIONS if has(r, "batches")], ["2025-03-26"])
        self.assertEqual([r for r in mcp_stdio.REVISIONS if has(r, "audio")],
                         ["2025-03-26", "2025-06-18", "2025-11-25", MODERN])
        self.assertEqual([r for r in mcp_stdio.REVISIONS if has(r, "cache_hints")], [MODERN])
        for name, (since, until) in mcp_stdio._REVISION_TABLE.items():
            self.assertIn(since, mcp_stdio.REVISIONS, name)
            self.assertTrue(until is None or until in mcp_stdio.REVISIONS, name)
            self.assertTrue('"%s"' % name in section("Catalog: tools and results") +
                            section("Catalog: resources, prompts and the kinds of entry") +
                            section("Outcomes: results and errors on the wire") +
                            section("Asking the client: questions and answers") +
                            section("Protocol engine (sans-IO): calls and methods") +
                            section("Protocol engine (sans-IO): the era machine and "
                                    "Connection") +
                            section("Tasks: long-running tool calls the client polls") +
                            section("Server: identity, catalog and options") +
                            section("Client"),
                            "feature %r is never asked about" % name)

    def test_the_era_machine_is_total(self):
        events = {"initialize", "modern", "discover", "modern_initialize", "ping",
                  "plain_discover", "plain"}
        machine = mcp_stdio._ERA_MACHINE
        self.assertEqual(set(machine), {(e, v) for e in ("unlocked", "legacy", "modern")
                                        for v in events})
        for (era, event), (action, after) in machine.items():
            if era != "unlocked":
                self.assertEqual(after, era, "a locked era never changes")
        self.assertEqual([k for k, (a, after) in machine.items() if after != k[0]],
                         [("unlocked", "initialize"), ("unlocked", "modern")])

    def test_the_options_table_drives_server_configure_and_help(self):
        names = [o.name for o in mcp_stdio._OPTIONS]
        server = mcp_stdio.Server("s", "1", elicit_timeout=1.5, error_details=True)
        self.assertEqual((server.elicit_timeout, server.error_details), (1.5, True))
        server.configure(elicit_timeout=2)          # was "unknown option" before the table
        self.assertEqual(server.elicit_timeout, 2)
        for o in mcp_stdio._OPTIONS:
            self.assertEqual(getattr(mcp_stdio.Server("s", "1"), o.name), o.default)
        with self.assertRaises(mcp_stdio.CatalogError) as cm:
            server.configure(worker=3)
        self.assertIn("unknown option(s): worker", str(cm.exception))
        for bad in ({"workers": 0}, {"workers": True}, {"backlog": -1}, {"timeout": 0},
                    {"grace": "1"}, {"null_error_id": 1}, {"grant": "echo"}, {"grant": [1]}):
            with self.subTest(bad=bad), self.assertRaises(mcp_stdio.CatalogError):
                mcp_stdio.Server("s", "1", **bad)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(server.run(["--help"]), 0)
        usage = out.getvalue()
        self.assertIn("Serve s 1 as an MCP server", usage)
        for o in mcp_stdio._OPTIONS:
            self.assertTrue(o.flag is None or o.flag in usage, o.name)
        self.assertEqual(len(names), len(set(names)))

    def test_bad_arguments_are_refused_before_serving(self):
        for args in (["--nope"], ["--workers"], ["--workers", "x"], ["--tools", "echo,nope"],
                     ["--workers", "0"], ["--null-error-id=1"], ["--timeout", "-1"],
                     # No wait can take these: a wait on them raised OverflowError at the
                     # end of input (--grace inf), so the server never exited.
                     ["--grace", "inf"], ["--timeout", "nan"], ["--elicit-timeout", "1e10"]):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                self.assertEqual(mcp_stdio.main(args), 2, args)
            self.assertEqual(out.getvalue(), "")
            self.assertTrue(err.getvalue().startswith("error: "), args)
            self.assertIn("usage: python mcp_stdio.py [options]", err.getvalue())

    def test_main_and_run_return_their_status(self):
        server = mcp_stdio.Server("notes", "2.5", description="Notes of the team.")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.assertEqual(server.run(["--version"]), 0)
            self.assertEqual(server.run(["--workers", "x"]), 2)
            self.assertEqual(mcp_stdio.main(["--version"]), 0)
            self.assertEqual(mcp_stdio.main(["--nope"]), 2)
        self.assertEqual(out.getvalue(), "notes 2.5\nmcp_stdio %s\n" % mcp_stdio.__version__)
        self.assertIn("error: bad value for --workers: 'x'", err.getvalue())
        self.assertIn("Notes of the team.", err.getvalue())


class ReadmeTutorial(unittest.TestCase):
    """The README's tutorial code runs as written (through InProcessClient)."""

    def blocks(self, start, end):
        with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
            text = f.read()
        part = text[text.index(start):text.index(end)]
        return "\n".join(re.findall(r"```python\n(.*?)```", part, re.S))

    def test_the_first_screen_shows_the_commands_a_server_and_the_contents(self):
        """A newcomer sees the two commands, a server in Python and where the rest is, in
        the first 60 lines; every section is in the contents; prose keeps to 100 columns."""
        with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
            text = f.read()
        first = "\n".join(text.split("\n")[:60])
        for seen in ("python3 mcp_stdio.py ", "python3 -m unittest", "```python\nimport "
                     "mcp_stdio", "## Contents"):
            self.assertIn(seen, first)
        contents = text[text.index("## Contents"):text.index("\n## ", text.index(
            "## Contents") + 1)]
        for heading in re.findall(r"^## (.+)$", text, re.M)[1:]:
            anchor = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
            self.assertIn("(#%s)" % anchor, contents, heading)
        fence, long = False, []
        for line in text.split("\n"):
            if line.startswith("```"):
                fence = not fence
            elif not fence and not line.startswith("|") and len(line) > 100 and \
                    len(re.sub(r"`[^`]*`", "", line)) > 100:
                long.append(line[:60])
        self.assertEqual(long, [])

    def test_every_runnable_block_serves(self):
        """Each python block with a main (or marked <!-- runnable -->) starts as a server beside
        the vendored file, in a folder of its own, and answers a session of both eras; started
        from another working folder, as hosts start servers, it writes nothing there (the
        README's rule: a file's paths follow the file, not the working folder)."""
        with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
            text = f.read()
        found = [(marked, code) for marked, code in re.findall(
            r"(<!-- runnable -->\n)?```python\n(.*?)```", text, re.S)
            if marked or 'if __name__ == "__main__"' in code]
        self.assertGreaterEqual(len(found), 2)
        for marked, code in found:
            if 'if __name__ == "__main__"' not in code:
                code += 'if __name__ == "__main__":\n    raise SystemExit(server.run())\n'
            with self.subTest(block=code.splitlines()[0]), tempfile.TemporaryDirectory() as tmp, \
                    tempfile.TemporaryDirectory() as elsewhere:
                with open(os.path.join(tmp, "server.py"), "w", encoding="utf-8") as f:
                    f.write(code)
                for era, session in (("legacy", [init_msg(1), {"jsonrpc": "2.0", "method":
                                                               "notifications/initialized"},
                                                 req_msg(2, "tools/list")]),
                                     (MODERN, [{"jsonrpc": "2.0", "id": 1, "method":
                                                "server/discover", "params": {
                                                    "_meta": modern_meta()}},
                                               {"jsonrpc": "2.0", "id": 2, "method":
                                                "tools/list", "params": {
                                                    "_meta": modern_meta()}}])):
                    data = b"".join(json.dumps(m).encode() + b"\n" for m in session)
                    r = subprocess.run(PY + [os.path.join(tmp, "server.py")], cwd=elsewhere,
                                       input=data, capture_output=True, timeout=TIMEOUT,
                                       env=dict(os.environ, PYTHONPATH=HERE))
                    # A block that writes to stderr itself (the timing middleware) is
                    # checked for what it writes by a test of its own.
                    self.assertEqual((r.returncode, r.stderr if "sys.stderr.write" not in code
                                      else b""), (0, b""))
                    answers = [json.loads(line) for line in r.stdout.splitlines()]
                    self.assertEqual([a.get("id") for a in answers], [1, 2])
                    self.assertTrue(answers[1]["result"]["tools"], answers[1])
                    for a in answers:
                        self.assertEqual(WireSchemas.problems(
                            "2025-11-25" if era == "legacy" else era, a), [], a)
                    self.assertEqual(os.listdir(elsewhere), [])

    @about("tasks", "skills", "apps")      # the Reference documents the whole module
    def test_the_reference_names_every_public_name_as_it_is(self):
        """README's Reference: every name of __all__, each named parameter real, none missing."""
        import inspect
        with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
            text = f.read()
        ref = text[text.index("\n## Reference\n"):text.index("\n## How it behaves\n")]
        seen, checked = set(), 0
        for name, params in re.findall(r"`([A-Za-z_][\w.]*)(\([^`]*\))?`", ref):
            head, _, attr = name.partition(".")
            if head not in mcp_stdio.__all__:
                continue
            seen.add(head)
            obj = getattr(mcp_stdio, head)
            if attr:
                obj = getattr(obj, attr)
            if not params:
                continue
            sig = inspect.signature(obj)
            real = {n: p for n, p in sig.parameters.items() if n != "self"}
            documented = []
            for part in re.split(r",\s*(?![^(]*\))", params[1:-1]):
                part = part.strip()
                if not part or part in ("*", "/") or part.startswith("*"):
                    continue                     # *args and **options: a shorthand
                documented.append(part.split("=")[0].strip())
            with self.subTest(name=name):
                open_ended = any(p.kind is p.VAR_KEYWORD for p in real.values())
                self.assertEqual([n for n in documented if n not in real and not open_ended], [])
                self.assertEqual([n for n, p in real.items() if p.default is p.empty and
                                  p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and
                                  n not in documented], [])
                checked += 1
        self.assertEqual(sorted(set(mcp_stdio.__all__) - seen), [])
        self.assertGreater(checked, 40)

    def test_the_middleware_examples_change_what_the_wire_shows(self):
        """Section 9 as written: a timing line per request on stderr; the sixth call of a
        tool in 10 s is an isError result; a handler sees the request's trace context."""
        code = self.blocks("### 9. Middleware", "### 10. One server")
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "server.py"), "w", encoding="utf-8") as f:
                f.write(code)
            # One call after the other's answer: pipelined, a call that waits for a worker
            # may meet the limit after the next one (on a loaded machine, it did).
            p = subprocess.Popen(PY + ["server.py"], cwd=tmp, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 env=dict(os.environ, PYTHONPATH=HERE))
            results = []
            for m in [init_msg(1), {"jsonrpc": "2.0", "method": "notifications/initialized"}] + [
                    req_msg(i, "tools/call", {"name": "greet", "arguments": {"name": "Ada"}})
                    for i in range(2, 8)]:
                p.stdin.write(json.dumps(m).encode() + b"\n")
                p.stdin.flush()
                if "id" in m:
                    results.append(json.loads(p.stdout.readline())["result"])
            _, err = p.communicate(timeout=TIMEOUT)
        self.assertEqual(p.returncode, 0, err)
        results = results[1:]
        self.assertEqual([x["content"][0]["text"] for x in results],
                         ["Hello, Ada!"] * 5 + ["Rate limit: greet runs at most 5 times in 10 s."])
        self.assertEqual([x.get("isError", False) for x in results], [False] * 5 + [True])
        lines = err.decode().splitlines()
        self.assertEqual(len(lines), 6, lines)
        for i, line in enumerate(lines):
            self.assertRegex(line, r"^greet %sin \d+\.\d ms$" % (
                "\\(isError\\) " if i == 5 else ""))

    @about("tasks", "skills", "apps")      # the figures of the whole module
    def test_the_figures_it_quotes_hold(self):
        """Line counts, the version and the tasks example say what the file does."""
        with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
            text = f.read()
        with open(SERVER, encoding="utf-8") as f:
            lines = sum(1 for _ in f)
        for quoted in re.findall(r"the ([0-9,]+) lines of `mcp_stdio.py`", text):
            self.assertEqual(round(lines, -3), int(quoted.replace(",", "")), quoted)
        changes = text[text.index("## Changes"):]
        self.assertEqual(re.search(r"- \*\*([0-9.]+)\*\*", changes).group(1),
                         mcp_stdio.__version__)
        tasks = self.blocks("### 7. Long-running tools", "### 8. Tools with a view")
        self.assertIn("if ctx.sleep(", tasks)          # its comment says what the value means
        compile("from mcp_stdio import Context\nserver = None\n" + tasks, "s7", "exec")

    def test_sections_one_to_three(self):
        code = self.blocks("### 1. One tool", "### 4. Asking the user").replace(
            'if __name__ == "__main__":\n    raise SystemExit(server.run())', "")
        ns = {"__name__": "tutorial"}
        exec(compile(code, "tutorial.py", "exec"), ns)
        err = io.StringIO()
        with mcp_stdio.InProcessClient(ns["server"], era="modern") as c:
            self.assertEqual(c.call_tool("add", {"a": 1, "b": 2})["structuredContent"],
                             {"sum": 3.0})
            with contextlib.redirect_stderr(err):      # the log line: no client asked for it
                self.assertEqual(c.call_tool("crunch", {"rounds": 0})["structuredContent"],
                                 {"rounds": 0})
            self.assertEqual(err.getvalue(), "calc: info: done\n")
            self.assertEqual(c.read_resource("notes://groceries")["contents"][0]["text"],
                             "eggs, milk")
            self.assertIn("Summarize", json.dumps(c.get_prompt("summarize", {"text": "x"})))

    def test_section_four(self):
        code = self.blocks("### 1. One tool", "### 5. A live server").replace(
            'if __name__ == "__main__":\n    raise SystemExit(server.run())', "")
        ns = {"__name__": "tutorial"}
        exec(compile(code, "tutorial.py", "exec"), ns)
        for era in ("modern", "legacy"):
            with mcp_stdio.InProcessClient(
                    ns["server"], era=era, on_elicit=lambda p: {"action": "accept",
                                                                "content": {"city": "Rome"}},
                    on_sample=lambda p: SAMPLED, roots=ROOTS["roots"]) as c:
                self.assertEqual(c.call_tool("plan_trip")["content"][0]["text"],
                                 "Rome: Hello there (files in 2 roots)")
            with mcp_stdio.InProcessClient(ns["server"], era=era) as c:
                r = c.send("tools/call", {"name": "plan_trip", "arguments": {}})
                if era == "modern":
                    with self.assertRaises(mcp_stdio.ProtocolError) as cm:
                        r.wait()
                    self.assertEqual(cm.exception.code, -32021)
                else:
                    self.assertTrue(r.wait()["isError"])

    def test_section_five(self):
        code = self.blocks("### 5. A live server", "### 6. A folder of Agent Skills")
        with tempfile.TemporaryDirectory() as tmp:
            ns = {"__name__": "tutorial", "__file__": os.path.join(tmp, "server.py")}
            exec(compile(code, "tutorial.py", "exec"), ns)
            with mcp_stdio.InProcessClient(ns["server"], era="legacy") as c:
                self.assertEqual(c.call_tool("add_note", {"name": "a", "text": "hi"})[
                    "content"][0]["text"], "Saved.")
                self.assertEqual(c.read_resource("notes://a")["contents"][0]["text"], "hi")
            self.assertEqual(os.listdir(tmp), ["notes.db"])     # beside the file


###############################################################################
# Outsiders: the conformance suite, the official SDKs and the Inspector #######
###############################################################################


@unittest.skipUnless(SLOW and os.environ.get("MCP_STDIO_CONFORMANCE"),
                     "the official conformance suite is installed by .ci/run (MCP_STDIO_SLOW=1)")
class Conformance(unittest.TestCase):
    """The official conformance suite against a server written on the public API."""

    def test_asking_scenarios(self):
        self.scenarios("server.py", CONFORMANCE_SCENARIOS)

    def test_skills_scenarios(self):
        """SEP-2640's three scenarios, at 2026-07-28 and (forced) at 2025-11-25."""
        self.scenarios("skills_server.py", [(v, s) for v in (MODERN, "2025-11-25") for s in (
            "sep-2640-skills-enumeration", "sep-2640-skills-manifest",
            "sep-2640-skills-directory")], ["--force"])

    def test_tasks_scenarios(self):
        """SEP-2663's scenarios (the HTTP-only request-headers one aside), forced at 2026-07-28."""
        self.scenarios("tasks_server.py", [(MODERN, s) for s in (
            "tasks-lifecycle", "tasks-capability-negotiation", "tasks-wire-fields",
            "tasks-request-state-removal", "tasks-mrtr-input", "tasks-dispatch-and-envelope",
            "tasks-required-task-error", "tasks-mrtr-composition")], ["--force"])

    def scenarios(self, server, cases, extra=()):
        examples = os.path.join(HERE, "examples", "conformance")
        gateway = subprocess.Popen(
            [sys.executable, os.path.join(examples, "http_gateway.py"), "--port", "0", "--",
             sys.executable, os.path.join(examples, server)],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.addCleanup(gateway.wait, 10)
        self.addCleanup(gateway.stderr.close)
        self.addCleanup(gateway.terminate)
        url = re.search(r"http://\S+", gateway.stderr.readline().decode()).group(0)
        env = dict(os.environ, PATH=os.environ.get("MCP_STDIO_NODE_BIN", "") + os.pathsep +
                   os.environ.get("PATH", ""), NO_COLOR="1")

        def run(case):
            version, scenario = case
            r = subprocess.run([os.environ["MCP_STDIO_CONFORMANCE"], "server", "--url", url,
                                "--scenario", scenario, "--spec-version", version] + list(extra),
                               capture_output=True, timeout=120, env=env,
                               stdin=subprocess.DEVNULL)
            return case, r.returncode, r.stdout.decode(errors="replace")
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(4) as pool:
            for (version, scenario), status, out in pool.map(run, cases):
                with self.subTest(version=version, scenario=scenario):
                    summary = re.search(r"Passed: (\d+)/(\d+), (\d+) failed, (\d+) warnings",
                                        out)
                    self.assertIsNotNone(summary, out[-2000:])
                    self.assertEqual((status, summary.group(3), summary.group(4)), (0, "0", "0"),
                                     out[-3000:])
                    self.assertEqual(summary.group(1), summary.group(2), out[-3000:])


@unittest.skipUnless(SLOW and os.environ.get("MCP_STDIO_TS_SDK") and
                     os.environ.get("MCP_STDIO_NODE_BIN"),
                     "the TypeScript SDK is installed by .ci/run (MCP_STDIO_SLOW=1, MCP_STDIO_TS_SDK)")
class TypeScriptSDK(unittest.TestCase):
    """The official TypeScript SDK's client runs our task tools in the 2025-11-25 design."""

    def test_tasks_run_to_their_end(self):
        sdk = os.environ["MCP_STDIO_TS_SDK"]
        server = os.path.join(HERE, "examples", "conformance", "tasks_server.py")
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "tasks.mjs")
            with open(script, "w") as f:
                f.write(TS_TASKS_SCRIPT % {"sdk": sdk.replace(os.sep, "/"),
                                           "python": json.dumps(sys.executable),
                                           "server": json.dumps(server)})
            node = os.path.join(os.environ["MCP_STDIO_NODE_BIN"], "node")
            r = subprocess.run([node, script], capture_output=True, timeout=120,
                               stdin=subprocess.DEVNULL)
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace")[-3000:])
        self.assertEqual(r.stdout.decode().splitlines(), [
            'tasks {"list":{},"cancel":{},"requests":{"tools":{"call":{}}}}',
            "slow_compute: created, result Computed after 0.3 seconds.",
            'asked "Delete a.txt?" for a task',
            "confirm_delete: created, result Deleted a.txt.",
            'asked "What is your name?" for a task',
            "test_tool_with_task: created, result Hello, Ada, from a task.",
            "failing_job: created, error",          # an isError result fails the task here
            "slow_compute: created, error",         # 0.7.0: a plain result the SDK refused
            "cancel: cancelled",
            "then: cancelled",
            "listed: completed,completed,completed,failed,failed,cancelled"])


@unittest.skipUnless(SLOW and os.environ.get("MCP_STDIO_INSPECTOR") and
                     os.environ.get("MCP_STDIO_NODE_BIN"),
                     "the MCP Inspector is installed by .ci/run (MCP_STDIO_SLOW=1, "
                     "MCP_STDIO_INSPECTOR)")
class OfficialInspector(unittest.TestCase):
    """The official Inspector's command line (2.12) runs our task tools, verifies our skills
    and probes our views."""

    def inspector(self, era, *args):
        home = tempfile.mkdtemp()                 # its catalog and state stay out of ~
        self.addCleanup(shutil.rmtree, home, True)
        env = dict(os.environ, HOME=home, NO_COLOR="1", PATH=os.environ["MCP_STDIO_NODE_BIN"] +
                   os.pathsep + os.environ.get("PATH", ""))
        r = subprocess.run([os.environ["MCP_STDIO_INSPECTOR"], "--cli", "--protocol-era", era,
                            "--format", "json", "-q"] + list(args), capture_output=True,
                           timeout=120, env=env, stdin=subprocess.DEVNULL)
        return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")

    def test_its_load_test_gets_every_answer_directly_and_through_the_proxy(self):
        """--load: 400 calls, ten at a time, each answered without an error, in both eras, by
        the demo and by the proxy in front of it."""
        with tempfile.TemporaryDirectory() as tmp:
            config = os.path.join(tmp, "servers.json")
            with open(config, "w") as f:
                json.dump({"mcpServers": {"demo": {"command": sys.executable,
                                                   "args": [SERVER]}}}, f)
            for era in ("legacy", "modern"):
                for name, server in (("echo", [SERVER]), ("demo_echo", [SERVER, "proxy",
                                                                        config])):
                    with self.subTest(era=era, tool=name):
                        code, out, err = self.inspector(
                            era, "--method", "tools/call", "--tool-name", name, "--tool-arg",
                            "text=hi", "--load", "--load-requests", "400", sys.executable,
                            *server)
                        self.assertEqual(code, 0, err[-2000:])
                        r = json.loads(out)["result"]
                        self.assertEqual((r["requests"], r["ok"], r["toolErrors"], r["errors"],
                                          r["errorMessages"]), (400, 400, 0, 0, []))

    def test_strict_finds_no_portability_error_in_the_schemas_we_make(self):
        """--strict judges every schema our annotations make (input and output) portable:
        no error-severity finding (it found "items": false in a tuple's)."""
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "every_annotation.py")   # not types.py: the stdlib's
            with open(script, "w") as f:
                f.write(EVERY_ANNOTATION_SERVER % HERE)
            for era in ("legacy", "modern"):
                with self.subTest(era=era):
                    code, out, err = self.inspector(era, "--method", "tools/list", "--strict",
                                                    sys.executable, script)
                    self.assertEqual(code, 0, err[-3000:])
                    self.assertEqual(len(json.loads(out)["result"]["tools"]), 5)
                    self.assertNotIn("Error:", err)

    @about("apps")
    def test_app_info_reports_every_tool_with_a_view_in_both_eras(self):
        script = os.path.join(HERE, "examples", "apps", "board.py")
        view = {"hasApp": True, "resourceUri": "ui://board/view", "prefersBorder": True,
                "resourceMimeType": "text/html;profile=mcp-app"}
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                code, out, err = self.inspector(era, "--method", "tools/list", "--app-info",
                                                "--advertise-apps", sys.executable, script)
                self.assertEqual(code, 0, err[-2000:])
                self.assertEqual([json.loads(line) for line in out.splitlines()], [
                    dict(view, toolName="move_card", visibility=["app"]),
                    dict(view, toolName="show_board")])

    def test_a_required_task_tool_runs_to_its_end(self):
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "research.py")
            with open(script, "w") as f:
                f.write(INSPECTOR_TASK_SERVER % HERE)
            for era in ("legacy", "modern"):
                with self.subTest(era=era):
                    code, out, err = self.inspector(era, sys.executable, script, "--method",
                                                    "tools/call", "--tool-name", "research",
                                                    "--tool-arg", "topic=owls")
                    self.assertEqual(code, 0, err[-2000:])
                    result = json.loads(out)["result"]
                    self.assertEqual(result["content"], [
                        {"type": "text", "text": "Found three things about owls."}])
                    if era == "legacy":            # a 2025-11-25 task's result names its task
                        self.assertIn("io.modelcontextprotocol/related-task", result["_meta"])

    def test_a_task_call_with_bad_arguments_is_a_task_it_can_read(self):
        """0.7.0 answered it with a plain result: "Protocol value failed schema validation"."""
        with tempfile.TemporaryDirectory() as tmp:
            script = os.path.join(tmp, "research.py")
            with open(script, "w") as f:
                f.write(INSPECTOR_TASK_SERVER % HERE)
            for era, code_expected in (("legacy", 1), ("modern", 5)):
                with self.subTest(era=era):
                    code, out, err = self.inspector(era, sys.executable, script, "--method",
                                                    "tools/call", "--tool-name", "research",
                                                    "--tool-arg", "topic=7")
                    self.assertEqual(code, code_expected, (out + err)[-2000:])
                    self.assertNotIn("schema", (out + err).lower())
                    text = "Invalid arguments for tool 'research':\n- /topic: expected type " \
                        "string, got integer"
                    first = json.loads((out.strip() or err.strip()).splitlines()[0])
                    if era == "legacy":            # the failed task's statusMessage says why
                        self.assertEqual(first["error"]["message"], text)
                    else:                          # completed, with the isError result inlined
                        self.assertEqual(first["result"], {"content": [{"type": "text",
                                                           "text": text}], "isError": True})

    def test_a_skill_folder_reads_in_both_eras(self):
        server = os.path.join(HERE, "examples", "conformance", "skills_server.py")
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                code, out, err = self.inspector(era, sys.executable, server, "--method",
                                                "resources/directory/read", "--uri",
                                                "skill://pdf-processing")
                self.assertEqual(code, 0, (out + err)[-2000:])
                result = json.loads(out)["result"]
                self.assertEqual([r["name"] for r in result["resources"]],
                                 ["SKILL.md", "assets", "references"])
                self.assertEqual("ttlMs" in result, era == "modern")

    def test_skills_pass_its_verification(self):
        server = os.path.join(HERE, "examples", "conformance", "skills_server.py")
        for era in ("legacy", "modern"):
            with self.subTest(era=era):
                code, out, err = self.inspector(era, sys.executable, server, "--method",
                                                "skills/list", "--verify")
                self.assertEqual(code, 0, (out + err)[-2000:])
                reports = [json.loads(line) for line in out.splitlines() if line.strip()]
                self.assertEqual(len(reports), 3, out[-2000:])
                for report in reports:
                    self.assertEqual((report["ok"], report["outcome"], report["conformance"]),
                                     (True, "verified", []), report["uri"])
                    self.assertTrue(all(f["status"] == "verified" for f in report["files"]))


@unittest.skipUnless(_sdk_python(), "the official MCP SDK (pip install mcp) is not installed")
class OfficialSDK(unittest.TestCase):

    def probe(self, source, *args):
        """Run an SDK probe script with args; return the JSON of its last line."""
        with tempfile.TemporaryDirectory() as tmp:
            probe = os.path.join(tmp, "probe.py")
            with open(probe, "w", encoding="utf-8") as f:
                f.write(source)
            r = subprocess.run([_sdk_python(), probe, sys.executable] +
                               [a(tmp) if callable(a) else a for a in args],
                               capture_output=True, timeout=120, cwd=tmp)
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace")[-2000:])
        return json.loads(r.stdout.decode().strip().splitlines()[-1])

    def test_sdk_client_in_each_mode(self):
        results = self.probe(SDK_PROBE, SERVER, "legacy", "auto", MODERN)
        expect_protocol = {"legacy": "2025-11-25", "auto": MODERN, MODERN: MODERN}
        for mode, out in results.items():
            with self.subTest(mode=mode):
                self.assertEqual(out["protocol"], expect_protocol[mode])
                self.assertEqual(out["tools"], ["add", "confirm_echo", "countdown", "divide", "echo", "greet"])
                self.assertEqual(out["echo"], ["hi", {"text": "hi"}, False])
                self.assertEqual(out["divide"],
                                 ["Cannot divide by zero: pass a non-zero 'divisor'.", True])
                self.assertIn("Unknown tool", out["unknown"])
                self.assertEqual(out["resource"], "# mcp_stdio demo")
                self.assertTrue(out["prompt"].startswith("Summarize the following text"))

    def test_sdk_client_answers_a_server_that_asks(self):
        out = self.probe(SDK_ASK_PROBE, os.path.join(HERE, "examples", "conformance", "server.py"),
                         "legacy", MODERN)
        for mode, protocol in (("legacy", "2025-11-25"), (MODERN, MODERN)):
            self.assertEqual(out[mode], {
                "protocol": protocol,
                "test_input_required_result_multiple_inputs": ["Good day, Ada (1 roots)", False],
                "test_sampling": ["LLM response: Good day", False],
                "test_input_required_result_list_roots": ["Roots: file:///probe", False],
                "test_input_required_result_multi_round": ["Ada likes Ada", False],
                "prompt": "Use this context: Ada"}, mode)

    def test_a_fastmcp_style_server_runs_unchanged(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = {}
            for kind, header in TYPED_HEADERS.items():
                paths[kind] = os.path.join(tmp, "typed_%s.py" % kind)   # not fastmcp.py
                with open(paths[kind], "w", encoding="utf-8") as f:
                    f.write(header + TYPED_BODY)
            out = self.probe(TYPED_PROBE, paths["ours"], paths["fastmcp"])
        for mode, result in out["ours"].items():
            with self.subTest(mode=mode):
                self.assertEqual(result["problems"], [])
                self.assertEqual(result["fuzz"], 84)
                self.assertEqual(result["bad"], [[name, True, True] for name in (
                    "create_event", "create_event", "search_events", "days_between", "plan")])
                self.assertEqual([c[1] for c in result["calls"]], [False] * 7, result["calls"])
        if out["fastmcp"] is None:
            self.skipTest("FastMCP is not installed beside the SDK")
        for ours, theirs in zip(out["ours"]["legacy"]["calls"], out["fastmcp"]["calls"]):
            if ours[0] != "days_between":        # a str result: FastMCP wraps it, we do not
                self.assertEqual(ours[:3], theirs[:3])

    def test_sdk_client_hears_a_live_catalog(self):
        out = self.probe(SDK_LIVE_PROBE, os.path.join(HERE, "examples", "notes_server.py"),
                         lambda tmp: os.path.join(tmp, "notes"))
        self.assertEqual(out["legacy"]["heard"], [
            ["notifications/resources/list_changed", None],
            ["notifications/resources/updated", "notes://groceries"]])
        self.assertEqual(out["modern"], {
            "events": ["ResourceUpdated:notes://milk", "ResourcesListChanged:"],
            "honored": {"resources_list_changed": True, "resource_subscriptions": ["notes://milk"]}})


###############################################################################
# Fuzzing (fixed seeds) #######################################################
###############################################################################
#
# Structure-aware mutations of valid messages of both eras, random bytes, invalid
# UTF-8, CR/LF/BOM placement, random splits of the stream. Properties: the server
# never dies; it writes only complete, valid JSON-RPC lines; every well-formed
# request ("ok-N" ids) is answered exactly once; no id is answered twice (every
# message gets its own id); every message validates against the official schema
# of the revision in use. MCP_STDIO_FUZZ=N runs a long campaign of about N
# messages per era through the sans-IO engine (plus N/20 through processes).


class Fuzzer:
    """Generates one session's byte stream and remembers what must be answered."""

    def __init__(self, seed, era):
        self.r = random.Random(seed)
        self.era = era
        self.n = 0
        self.must_answer = set()      # json.dumps(id) of well-formed requests
        self.methods = {}             # json.dumps(id) -> method
        self.codes = {}               # json.dumps(id) -> the error code its answer must have

    def valid(self):
        r = self.r
        choices = [
            ("tools/list", {}), ("tools/call", {"name": "echo", "arguments": {"text": "hi \u00e9"}}),
            ("tools/call", {"name": "add", "arguments": {"a": r.randint(-9, 9), "b": 2.5}}),
            ("tools/call", {"name": "divide", "arguments": {"dividend": 1, "divisor": 0}}),
            ("tools/call", {"name": "add", "arguments": {"a": "x"}}),
            ("resources/list", {}), ("resources/templates/list", {}),
            ("resources/read", {"uri": r.choice(["demo://readme", "demo://logo.png",
                                                 "demo://greeting/Zo%C3%A9", "demo://none"])}),
            ("prompts/list", {}), ("prompts/get", {"name": "summarize", "arguments": {"text": "t"}}),
            ("completion/complete", {"ref": {"type": "ref/prompt", "name": "summarize"},
                                     "argument": {"name": "style", "value": "s"}}),
        ]
        if self.era == MODERN:
            choices += [("server/discover", {}),
                        ("subscriptions/listen", {"notifications": {
                            "toolsListChanged": True, "resourceSubscriptions": ["demo://readme"]}}),
                        ("tools/call", {"name": "confirm_echo", "arguments": {"text": "t"},
                                        "requestState": r.choice(["x.y", "", "a" * 50]),
                                        "inputResponses": {"elicit-1": {"action": "accept"}}}),
                        ("tools/call", {"name": "greet", "arguments": {},
                                        "inputResponses": r.choice([
                                            {}, {"name": "bad"}, {"greeting": [1]},
                                            {"name": {"action": "accept",
                                                      "content": {"name": "Zoé"}},
                                             "greeting": SAMPLED, "other": None}])})]
        else:
            choices += [("ping", {}), ("logging/setLevel", {"level": "error"})]
        method, params = r.choice(choices)
        params = copy.deepcopy(params)
        if self.era == MODERN:
            params["_meta"] = modern_meta(**{"io.modelcontextprotocol/clientCapabilities":
                                             r.choice([{}, {"elicitation": {}},
                                                       {"elicitation": {}, "sampling": {}}])})
        elif r.random() < 0.3:
            params["_meta"] = {"progressToken": r.choice(["t", 5])}
        return {"jsonrpc": "2.0", "id": None, "method": method, "params": params}

    def new_id(self, prefix, method):
        self.n += 1
        rid = self.r.choice(["%s-%d" % (prefix, self.n), self.n * 2 + (prefix == "ok")])
        self.methods[json.dumps(rid)] = method
        return rid

    def mutate(self, msg):
        r = self.r
        kind = r.randrange(16)
        p = msg["params"]
        if kind == 0:
            del msg[r.choice(["jsonrpc", "method", "params", "id"])]
        elif kind == 1:
            msg[r.choice(["jsonrpc", "method", "params"])] = r.choice(
                [None, 1, -1, 2.5, True, [], {}, "", "x" * 300, [1, 2]])
        elif kind == 2:
            msg["id"] = r.choice([None, True, 1.5, [], {}, 2 ** 53, -(2 ** 60), 10 ** 10 + self.n])
        elif kind == 3:
            msg["method"] = r.choice(["nope", "rpc.x", "tools/nope", "initialize", "ping",
                                      "notifications/cancelled", "server/discover",
                                      "subscriptions/listen", "\u00e9" * 70])
        elif kind == 4:
            del msg["id"]                  # a notification that looks like a request
        elif kind == 5:
            nest = "x"
            for _ in range(r.randint(25, 36)):
                nest = [nest] if r.random() < 0.5 else {"k": nest}
            p["deep"] = nest
        elif kind == 6:
            p[r.choice(["name", "arguments", "uri", "cursor", "level", "ref", "_meta"])] = \
                r.choice([None, 1, "z" * r.randint(0, 5000), [], {"a": 1}, -1e308, 10 ** 30])
        elif kind == 7:
            p["extra"] = {"\u2028": "\u0000", "\U0001F600": [1e-300, -0.0]}
        elif kind == 8 and "_meta" in p:
            p["_meta"] = r.choice([{}, {"io.modelcontextprotocol/protocolVersion": r.choice(
                ["2025-11-25", "2099-01-01", 3])}, [], modern_meta(
                **{"io.modelcontextprotocol/logLevel": "loud"})])
        elif kind == 9:
            p.clear()
        elif kind == 10:
            # Shaped like a response, often malformed: never answered with its id, which
            # is registered nowhere, so check_output fails on any answer carrying it.
            rid = r.choice(["resp-%d" % self.n, 10 ** 12 + self.n])
            msg = r.choice([
                {"jsonrpc": "2.0", "id": rid, "result": {}},
                {"jsonrpc": "1.0", "id": rid, "result": {}},
                {"j\ufeffsonrpc": "2.0", "id": rid, "result": {}},
                {"jsonrpc": "2.0", "id": rid, "result": {}, "extra": 1},
                {"jsonrpc": "2.0", "id": rid, "result": {}, "error": {"code": 1, "message": "x"}},
                {"jsonrpc": "2.0", "id": rid, "error": "nope", "params": {"x": [[[[[]]]]]}},
                {"id": rid, "error": {"code": 1, "message": "x"}},
                {"jsonrpc": "2.0", "id": rid, "result": {"deep": json.loads("[" * 40 + "]" * 40)}}])
        elif kind == 11:
            msg = [msg, self.valid()] if r.random() < 0.5 else []
        elif kind == 12:
            p[r.choice(["cursor", "requestState", "inputResponses", "notifications"])] = r.choice(
                ["", "abc", "dG9vbHM6MTAwOmZmZmY", 7, {"k": []}, {"k": {"action": 1}}, [None]])
        else:
            if "arguments" in p and isinstance(p["arguments"], dict):
                p["arguments"][r.choice(["text", "a", "b", "zz"])] = r.choice(
                    [None, [], "q" * 20000, 1e308, -(10 ** 15), True])
        return msg

    def cut_string(self):
        """A line nested past the limit whose string cannot end: a control byte, a bad
        escape or the line's end cuts it, at any length up to the line limit (the shape
        that once sent the grammar check into exponential backtracking)."""
        r = self.r
        size = min(int(2 ** r.uniform(3, 20)), (1 << 20) - 200)
        body = r.choice([b"x", b"ab", b'\\"', b"\\n", b"\\u00e9", b" "]) * size
        body = body[:size]
        cut = r.choice([b"\x01", b"\x1f", b"\\x", b"\\u12", b"\\", b""])
        deep = b"[" * r.randint(33, 40)
        line = r.choice([
            b'{"jsonrpc":"2.0","id":%s,"method":"ping","params":{"a":"%s%s","b":%s%s}}' % (
                json.dumps(self.new_id("m", "ping")).encode(), body, cut, deep,
                b"]" * len(deep)),
            deep + b'"' + body + cut,
            deep + b'"' + body + cut + b'"' + b"]" * len(deep)])
        return line[:1 << 20]

    def garbage(self):
        r = self.r
        kind = r.randrange(9)
        if kind == 8:
            return self.cut_string()
        if kind == 0:
            return bytes(r.randrange(256) for _ in range(r.randrange(1, 80))).replace(b"\n", b"")
        if kind == 1:
            return b'{"jsonrpc":"2.0","id":"g","method":"ping","x":"\xff\xfe"}'
        if kind == 2:
            return b'{"jsonrpc":"2.0","id":1,"method":"ping"' [:r.randrange(1, 40)]
        if kind == 3:
            return b"\xef\xbb\xbf" + b'{"jsonrpc":"2.0","method":"x"}'
        if kind == 4:
            return b'{"a":1}\r{"b":2}'
        if kind == 5:
            return r.choice([b"NaN", b"[NaN]", b'{"a":Infinity}', b"\x00", b"[]", b"null",
                             b'"\\ud800"', b"1" * 5000])
        if kind == 6:
            return b"[" * r.randint(30, 40) + b"]" * r.randint(30, 40)
        return b"   \t  "

    def hostile(self):
        """A line that carries ids it must never be answered with, or JSON we refuse.

        The ids of the first kind are those of requests already answered (or
        never sent): any answer carrying one is a foreign or a second answer.
        """
        r = self.r
        old = [r.choice(sorted(self.must_answer)) if self.must_answer else '"never"'
               for _ in range(2)]
        deep = "[" * r.randint(33, 40) + "]" * 40
        deep = deep[:deep.index("]")] + "]" * (deep.index("]"))
        head = '{"jsonrpc":"2.0","method":%s' % r.choice([deep, '"ping"', '"tools/list"'])
        kind = r.randrange(12)
        if kind < 8:
            line = r.choice([
                '{"jsonrpc":"2.0","method":%s,"id":1e400}' % deep,
                head + ',"id":%s}{"jsonrpc":"2.0","id":%s,"method":"ping"}' % tuple(old),
                '{"jsonrpc":"2.0","method":%s,"id":%s,"id":%s}' % (deep, old[0], old[1]),
                head + ',"id":%s} x' % old[0],
                head + ',"id":%s' % old[0],
                head[:-1] + ',"id":%s}' % old[0],
                head + ',"id":%s,}' % old[0],
                '{"jsonrpc":"2.0","id":%s,"result":%s}' % (old[0], deep),
                '{"jsonrpc":"2.0","id":"\\ud800","method":%s}' % deep,
            ]).encode()
            if r.random() < 0.2:
                line = line.replace(b',"id"', b',"x":"\xff","id"')   # and invalid UTF-8
            return line
        # Well-formed, refused: answered -32600 with a fresh id.
        rid = self.new_id("ok", "ping")
        key = json.dumps(rid)
        self.must_answer.add(key)
        self.codes[key] = -32600
        bad = r.choice(['{"a":1,"a":2}', '{"a":"\\udc00"}', '{"\\ud83d":1}', "1e400",
                        "-2E+999", "9" * 4301, deep])
        return ('{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"add",'
                '"arguments":{"a":1,"b":%s}}}' % (key, bad)).encode()

    def stream(self, count):
        """Return the session's bytes: a valid opening, then count fuzzed lines."""
        r = self.r
        out = []
        if self.era != MODERN:
            rid = self.new_id("ok", "initialize")
            self.must_answer.add(json.dumps(rid))
            out.append(json.dumps(init_msg(rid, self.era)).encode() + b"\n")
            out.append(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        for _ in range(count):
            roll = r.random()
            if roll < 0.45:
                msg = self.valid()
                msg["id"] = self.new_id("ok", msg["method"])
                self.must_answer.add(json.dumps(msg["id"]))
                if self.era == "2025-03-26" and r.random() < 0.2:
                    msg = [msg]
                line = json.dumps(msg, ensure_ascii=r.random() < 0.5).encode()
            elif roll < 0.85:
                msg = self.valid()
                msg["id"] = self.new_id("m", msg["method"])
                msg = self.mutate(msg)
                for m in (msg if isinstance(msg, list) else [msg]):
                    if isinstance(m, dict) and "id" in m and ("method" in m or not (
                            "result" in m or "error" in m)):   # what was sent, after mutation
                        try:
                            self.methods[json.dumps(m["id"])] = m.get("method")
                        except (TypeError, ValueError):
                            pass
                    if isinstance(m, dict) and m is not msg and m.get("id") is None and \
                            "method" in m:
                        m["id"] = self.new_id("m", m["method"])
                try:
                    line = json.dumps(msg).encode()
                except ValueError:
                    continue
            elif roll < 0.93:
                line = self.garbage()
            else:
                line = self.hostile()
            if r.random() < 0.05:
                line += b"\r"
            out.append(line + b"\n")
            if r.random() < 0.02:
                out.append(b"\n" if r.random() < 0.5 else b"\r\n")
        return b"".join(out)

    def splits(self, data):
        """Split data at random points, as a pipe might deliver it."""
        r, i, parts = self.r, 0, []
        while i < len(data):
            n = r.choice([1, 7, 64, 500, 4096, 65536])
            parts.append(data[i:i + n])
            i += n
        return parts


class TaskSkillFuzzer:
    """Hostile requests to the task and skills methods, and a client that answers some questions."""

    def __init__(self, seed, era, send):
        self.r, self.era, self.send = random.Random(seed), era, send
        self.methods, self.task_ids, self.asked = {}, ["nope"], set()

    def request(self, rid):
        r = self.r
        method = r.choice(("tasks/get", "tasks/update", "tasks/cancel", "tasks/result",
                           "tasks/list", "tools/call", "tools/call", "skills/list", "skills/get",
                           "resources/read", "resources/directory/read", "resources/list"))
        if method == "tools/call":
            params = {"name": r.choice(("plain", "maybe", "must", "oops", "asks",
                                        "asks_then_task", "nope")),
                      "arguments": r.choice(({}, {"x": 1}, {"x": "y"}, _junk(r)))}
            if r.random() < 0.5:
                params["task"] = r.choice(({"ttl": 1000}, {}, {"ttl": -1}, {"ttl": 1e300},
                                           _junk(r)))
        elif method.startswith("tasks/"):
            params = {"taskId": r.choice(self.task_ids + [_junk(r)])}
            if method == "tasks/update":
                params["inputResponses"] = r.choice(({}, _junk(r), {"q": {
                    "action": "accept", "content": {"yes": True}}}))
        elif method in ("skills/get", "resources/read", "resources/directory/read"):
            params = {"uri": r.choice(_SKILL_URIS + (_junk(r),))}
        else:
            params = r.choice(({}, {"cursor": _junk(r)}))
        if r.random() < 0.1:
            params = _junk(r)
        if self.era == MODERN and isinstance(params, dict):
            params["_meta"] = tasks_meta() if r.random() < 0.7 else modern_meta()
        self.methods[json.dumps(rid)] = method
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})

    def saw(self, lines):
        """Learn task ids from what the server wrote, and answer some of its questions."""
        for line in lines:
            m = json.loads(line)
            res = m.get("result")
            task = res.get("task", res) if isinstance(res, dict) else None
            if isinstance(task, dict) and isinstance(task.get("taskId"), str):
                self.task_ids.append(task["taskId"])
            if "method" in m and "id" in m and json.dumps(m["id"]) not in self.asked:
                self.asked.add(json.dumps(m["id"]))
                if self.r.random() < 0.8:
                    self.send({"jsonrpc": "2.0", "id": m["id"], "result": self.r.choice((
                        {"action": "accept", "content": {"yes": True}}, {"action": "decline"},
                        _junk(self.r)))})

    def check(self, test, lines):
        answered = {}
        for line in lines:
            m = json.loads(line)
            if "method" in m:           # a question or a notification to the client
                test.assertEqual(WireSchemas.problems(self.era, m, None), [], line[:300])
                continue
            key = json.dumps(m["id"])
            answered[key] = answered.get(key, 0) + 1
            test.assertEqual(answered[key], 1, "answered twice: %s" % key)
            test.assertNotEqual(m.get("error", {}).get("code"), -32603, line[:300])
            test.assertEqual(WireSchemas.problems(self.era, m, self.methods[key]), [],
                             line[:300])
        test.assertEqual(set(self.methods) - set(answered), set(), "requests never answered")


class Fuzz(ProcTest):

    def test_engine(self):
        total = int(os.environ.get("MCP_STDIO_FUZZ", "0"))
        for i, era in enumerate(FUZZ_ERAS):
            with self.subTest(era=era):
                if total:
                    done, seed = 0, 1000 * i
                    while done < total:
                        fuzz_engine(self, seed, era, min(20000, total - done))
                        done += 20000
                        seed += 1
                else:          # half as many in the default run: CI (SLOW) sends them all
                    fuzz_engine(self, 7 + i, era, 800 if SLOW else 400)

    @about("tasks", "skills")
    def test_tasks_and_skills(self):
        root, _, count = fuzz_skills(self)
        for i, era in enumerate(("2025-06-18", "2025-11-25", MODERN)):
            with self.subTest(era=era):
                fuzz_tasks_and_skills(self, root, 40 + i, era, count)


class FuzzProcesses(ProcTest):
    """The fuzzer through real server processes (framing, splits, the runtime)."""

    def test_processes(self):
        total = int(os.environ.get("MCP_STDIO_FUZZ", "0")) // 20
        for i, era in enumerate(FUZZ_ERAS):
            with self.subTest(era=era):
                fuzz_process(self, 100 + i, era, max(total, 400))

    @about("tasks", "skills")
    def test_tasks_and_skills(self):
        root, script, count = fuzz_skills(self)
        for i, era in enumerate(("2025-06-18", "2025-11-25", MODERN)):
            with self.subTest(era=era):
                fuzz_tasks_and_skills_process(self, script, root, 50 + i, era, count)


###############################################################################
# Adversarial catalogue #######################################################
###############################################################################


class Adversarial(ScriptTest):

    def test_lone_surrogates_in_keys_and_strings(self):
        p = self.spawn()
        for raw in (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"\\udfff":1}}',
                    b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":"x\\ud83d"}}'):
            p.send_bytes(raw + b"\n")
            r = p.recv()
            self.assertEqual((err_code(r), r["id"]), (-32600, 1))

    def test_carriage_return_alone(self):
        p = self.spawn()
        p.send_bytes(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\r{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
        self.assertEqual(err_code(p.recv()), -32700)
        p.send_bytes(b"\r\n\r\r\n")
        p.send_bytes(b'{"jsonrpc":"2.0","id":3,"method":"ping"}\n')
        r = p.recv()
        if "error" in r:                       # "\r\r" is a line of one CR after stripping
            self.assertEqual(err_code(r), -32700)
            r = p.recv()
        self.assertEqual(r["id"], 3)

    def test_ten_thousand_requests_in_an_array_without_batches(self):
        p = self.spawn()
        p.initialize("2025-11-25")
        batch = [{"jsonrpc": "2.0", "id": i, "method": "ping"} for i in range(10000)]
        p.send(batch)
        self.assertEqual(err_code(p.recv()), -32600)
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": "after", "method": "ping"})["id"], "after")

    def test_batch_limits_on_2025_03_26(self):
        """Over 100 messages: refused whole; the answer array stays within the response limit."""
        p = self.spawn("--max-response", "20000")
        p.initialize("2025-03-26")
        p.send([{"jsonrpc": "2.0", "id": i, "method": "ping"} for i in range(101)])
        self.assertEqual(p.recv_line(), b'{"jsonrpc":"2.0","error":{"code":-32600,"message":'
                         b'"Invalid Request: a batch of 101 messages exceeds the limit of 100"}}\n')
        p.send([{"jsonrpc": "2.0", "id": i, "method": "ping"} for i in range(100)])
        answers = json.loads(p.recv_line())
        self.assertEqual([a["id"] for a in answers], list(range(100)))
        # 20 listings of about 2,400 bytes each: those that fit go in, the rest are errors.
        p.send([{"jsonrpc": "2.0", "id": i, "method": "tools/list"} for i in range(20)])
        line = p.recv_line()
        self.assertLessEqual(len(line) - 1, 20000)
        answers = json.loads(line)
        self.assertEqual([a["id"] for a in answers], list(range(20)))
        fits = [a for a in answers if "result" in a]
        self.assertTrue(6 <= len(fits) < 20, len(fits))
        self.assertTrue(all("result" in a for a in answers[:6]))
        for a in answers:
            if "result" in a:
                continue
            self.assertEqual(a["error"]["code"], -32603)
            self.assertEqual(a["error"]["data"]["limit"], 20000)
            self.assertGreater(a["error"]["data"]["size"], 20000 - 20 * 150)
        p.send([{"jsonrpc": "2.0", "id": "x" * 5000 + str(i), "method": "ping"} for i in range(4)])
        self.assertIn(b"could not fit in a response of 20000 bytes", p.recv_line())

    def test_ten_thousand_unknown_cancellations(self):
        p = self.spawn()
        p.initialize()
        p.send_bytes(b"".join(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                          "params": {"requestId": i}}).encode() + b"\n"
                              for i in range(10000)))
        self.assertEqual(p.request({"jsonrpc": "2.0", "id": "x", "method": "ping"})["id"], "x")
        self.assertEqual(len(p.raw), 2)

    def test_stdin_closed_while_a_large_response_is_written(self):
        p = self.spawn_script("max_response=4000000")
        p.send(init_msg(0))
        p.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "big", "arguments": {"size": 3000000}}})
        self.assertEqual(p.close(), 0)
        self.assertEqual(len(json.loads(p.raw[1])["result"]["content"][0]["text"]), 3000000)

    def test_tool_printing_two_mebibytes(self):
        p = self.spawn_script()
        p.initialize()
        p.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "noisy", "arguments": {}}})
        self.assertEqual(p.recv()["id"], 1)

    @unittest.skipIf(os.name == "nt", "select() takes no pipes on Windows")
    def test_stderr_not_read_by_the_client(self):
        # A client that never reads stderr must not stall the server (clients-in-the-wild 16).
        p = subprocess.Popen(PY + [self.script], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.addCleanup(p.kill)
        msgs = [init_msg(0), {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                              "params": {"name": "loud", "arguments": {"lines": 25000}}},
                {"jsonrpc": "2.0", "id": 2, "method": "ping"}]
        p.stdin.write(b"".join(json.dumps(m).encode() + b"\n" for m in msgs))
        p.stdin.flush()
        import select
        # Raw reads from the descriptor: a buffered readline() could take several answers
        # into its buffer, where select() no longer sees them (CI waited 30 s for two).
        data, fd = b"", p.stdout.fileno()
        deadline = time.monotonic() + 3 * TIMEOUT    # a busy machine prints slowly
        while data.count(b"\n") < 3 and time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                data += chunk
        lines = data.splitlines()
        by_id = {json.loads(l)["id"]: json.loads(l) for l in lines}
        self.assertEqual(sorted(by_id), [0, 1, 2])
        self.assertEqual(by_id[1]["result"]["content"][0]["text"], "printed")
        # Read now, while it serves: the note comes with the next of its stderr writes (at
        # its exit it has half a second to finish them, which a busy machine can miss).
        err, fd = b"", p.stderr.fileno()
        while b"were dropped" not in err and time.monotonic() < deadline:
            if select.select([fd], [], [], 0.5)[0]:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                err += chunk
        self.assertIn(b"bytes of stderr output were dropped", err)
        p.communicate(timeout=TIMEOUT)
        self.assertEqual(p.returncode, 0)

    def test_huge_and_odd_numbers(self):
        p = self.spawn()
        p.initialize()
        for value in (1e308, -1e308, 10 ** 300, -0.0, 5e-324):
            r = p.request({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                           "params": {"name": "add", "arguments": {"a": value, "b": 0}}})
            self.assertIn("result", r)
        r = p.request({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                       "params": {"name": "add", "arguments": {"a": 1e308, "b": 1e308}}})
        # inf is not JSON: a tool execution error naming the problem, never the value
        text = r["result"]["content"][0]["text"]
        self.assertTrue(r["result"]["isError"])
        self.assertRegex(text, r"^Tool 'add' returned an invalid result: .*NaN or infinity.* "
                               r"\(incident [0-9a-f]{8}\)\.$")
        self.assertNotIn("inf", text.replace("infinity", ""))


###############################################################################
# Running: tests that mostly wait on processes run a few at a time ############
###############################################################################

# These classes drive real processes and spend most of their time waiting for
# them; they run eight at a time, each test's outcome reported in order, while
# the tests in this process run meanwhile on the main thread. The exclusive
# classes patch what every thread shares (os, time, sys.modules, sys.stderr,
# the module's own functions), so they run last, with nothing else running; so
# does Browser, whose Chromium would load the machine under tests that wait.
# The library's tests: none starts the demo or a command, so they pass against the file cut
# at the Commands banner (Rebuilds runs them there).
LIBRARY_TESTS = ("AskingLegacy", "AskingModern", "BacktrackingProcess", "ClientAnswers", "Codec",
                 "Draft07Forms", "ElicitationPromptsAndResources", "ElicitationTwoQuestions",
                 "Examples", "ForeignTypes", "InProcessBytes", "LargeCatalogs", "Lifespan",
                 "OfficialSuite", "Registration", "RuntimeRaces", "SchemaChecker",
                 "SchemaProperties", "SchemasFromHints", "TaskAdmission", "Tasks",
                 "UserCommandLine", "ValueTypes")
PARALLEL_CLASSES = ("Install", "Doctor", "Hosts", "CopilotHost", "Typing", "AppProcesses", "BacktrackingProcess",
                    "TaskAdmission", "RealMounts", "ConfigProcesses", "MountProcesses",
                    "Rebuilds", "ClientTests", "TaskCommandLine",
                    "CtrlC", "FuzzProcesses", "Concurrency", "ClientCommandLine", "ScriptTools",
                    "Framing", "CommandLine", "Adversarial", "Lifespan", "UserCommandLine",
                    "InProcessBytes", "Examples", "ElicitationLegacy", "OfficialSDK",
                    "AskingOverPipes", "CommandLineQuestions", "Conformance", "TypeScriptSDK",
                    "OfficialInspector", "ExtensionContract")   # the longest first: first
EXCLUSIVE_TESTS = ("ConfigCommand", "RuntimeRaces", "Browser",
                   "Platforms.test_without_waitid_a_child_left_in_the_group_ends_at_close",
                   "Rebuilds.test_the_suite_passes_without_each_extension",
                   "Rebuilds.test_the_library_passes_its_tests_without_the_commands",
                   "Engine.test_incidents_keep_the_cause_and_the_source",
                   "ReadmeTutorial.test_sections_one_to_three",
                   "Structure.test_feed_makes_no_call_to_the_world",
                   "Structure.test_the_options_table_drives_server_configure_and_help",
                   "Structure.test_bad_arguments_are_refused_before_serving",
                   "Structure.test_main_and_run_return_their_status",
                   "Skills.test_a_folder_that_cannot_be_read_is_skipped",
                   "Skills.test_a_live_folder_that_goes_away_and_comes_back",
                   "Tasks.test_a_task_that_ends_as_its_result_is_deferred_leaves_no_id_in_use",
                   "Mounting.test_a_mounting_servers_text_tool_keeps_the_fast_path",
                   "ClientTests.test_a_close_while_the_client_starts_joins_only_running_readers")


class _Outcome(unittest.TestResult):
    """The outcome of one test, recorded to be replayed into the real result."""

    def __init__(self):
        unittest.TestResult.__init__(self)
        self.events = []

    def _record(name):
        def record(self, *args):
            self.events.append((name, args))
        return record

    for _name in ("addSuccess", "addError", "addFailure", "addSkip", "addSubTest",
                  "addExpectedFailure", "addUnexpectedSuccess", "addDuration"):
        locals()[_name] = _record(_name)
    del _name, _record


class _Overlapped(unittest.TestSuite):
    """Runs its tests on a few threads and replays their outcomes in order."""

    WIDTH = 8

    def __init__(self, tests=(), meanwhile=()):
        unittest.TestSuite.__init__(self, tests)
        self.meanwhile = unittest.TestSuite(meanwhile)

    def run(self, result, debug=False):
        from concurrent.futures import ThreadPoolExecutor
        tests = list(self)
        classes = list(dict.fromkeys(type(t) for t in tests))
        for cls in classes:
            cls.setUpClass()

        def one(test):
            outcome = _Outcome()
            test(outcome)
            return outcome
        try:
            with ThreadPoolExecutor(self.WIDTH) as pool:
                futures = [(t, pool.submit(one, t)) for t in tests]
                self.meanwhile.run(result)
                for test, future in futures:
                    outcome = future.result()
                    result.startTest(test)
                    for name, args in outcome.events:
                        if hasattr(result, name):
                            getattr(result, name)(*args)
                    result.stopTest(test)
        finally:
            for cls in classes:
                cls.tearDownClass()
        return result


def _flatten(suite):
    for t in suite:
        if isinstance(t, unittest.TestSuite):
            yield from _flatten(t)
        else:
            yield t


def load_tests(loader, tests, pattern):
    overlapped, meanwhile, exclusive = [], [], unittest.TestSuite()
    for t in _flatten(tests):
        cls = type(t).__name__
        if cls in PARALLEL_CLASSES:
            overlapped.append(t)
        elif cls in EXCLUSIVE_TESTS or "%s.%s" % (cls, t._testMethodName) in EXCLUSIVE_TESTS:
            exclusive.addTest(t)
        else:
            meanwhile.append(t)
    overlapped.sort(key=lambda t: PARALLEL_CLASSES.index(type(t).__name__))
    return unittest.TestSuite([_Overlapped(overlapped, meanwhile), exclusive])


if __name__ == "__main__":
    unittest.main()
