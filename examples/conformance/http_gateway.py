"""Serve a stdio MCP server over Streamable HTTP, for tools that only speak HTTP.

    python examples/conformance/http_gateway.py --port 3001 -- python examples/conformance/server.py

A test aid, standard library only: it lets the official conformance suite
(which connects by URL) drive a server written on mcp_stdio. Each legacy
session (an initialize request) gets its own server process and an
Mcp-Session-Id; requests without a session (the 2026-07-28 era, stateless)
share one process. A POST is answered with JSON, or with an event stream
when the server sends anything (progress, logs, its own requests) before the
response. Ids are rewritten on the way in so concurrent clients cannot clash.
Not a production gateway: no authentication, localhost only.
"""

import http.server
import itertools
import json
import queue
import subprocess
import sys
import threading
import uuid

# How long one POST waits for the server's response (seconds): longer than any
# tool the conformance suite calls.
WAIT = 60.0
# JSON-RPC errors that are the client's fault get HTTP 400 in the modern era,
# an unknown method 404 (the 2026-07-28 HTTP transport).
_STATUS = {-32700: 400, -32600: 400, -32602: 400, -32020: 400, -32021: 400, -32022: 400,
           -32601: 404}


PV_KEY = "io.modelcontextprotocol/protocolVersion"


class _Process:
    """One stdio server process and the POSTs waiting on it."""

    def __init__(self, command, modern):
        self.modern = modern
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lock = threading.Lock()
        self.waiting = {}          # gateway id -> (queue, the client's id)
        self.streams = []          # queues of the POSTs in flight, newest last
        threading.Thread(target=self._read, daemon=True).start()

    def send(self, msg):
        with self.lock:
            self.proc.stdin.write(json.dumps(msg).encode("utf-8") + b"\n")
            self.proc.stdin.flush()

    def _read(self):
        for line in self.proc.stdout:
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            with self.lock:
                rid = msg.get("id") if isinstance(msg, dict) else None
                if isinstance(msg, dict) and "method" not in msg and rid in self.waiting:
                    q, original = self.waiting.pop(rid)
                    msg["id"] = original
                    q.put(("response", msg))
                elif self.streams:
                    self.streams[-1].put(("event", msg))
        with self.lock:
            for q, _ in self.waiting.values():
                q.put(("gone", None))

    def close(self):
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


class Gateway(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, command):
        http.server.ThreadingHTTPServer.__init__(self, address, _Handler)
        self.command = command
        self.sessions = {}
        self.modern = None
        self.ids = itertools.count(1)
        self.lock = threading.Lock()

    def process_for(self, session, msg):
        """The process for a message: (process, new session id or None), or (None, None)."""
        with self.lock:
            if isinstance(msg, dict) and msg.get("method") == "initialize":
                meta = (msg.get("params") or {}).get("_meta") or {}
                if PV_KEY not in meta:
                    sid = uuid.uuid4().hex
                    self.sessions[sid] = _Process(self.command, False)
                    return self.sessions[sid], sid
            if session:
                return self.sessions.get(session), None
            if self.modern is None:
                self.modern = _Process(self.command, True)
            return self.modern, None

    def server_close(self):
        http.server.ThreadingHTTPServer.server_close(self)
        for p in list(self.sessions.values()) + [self.modern]:
            if p is not None:
                p.close()


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def _json(self, status, body, extra=()):
        data = json.dumps(body).encode("utf-8") if body is not None else b""
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in extra:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self._json(405, None)

    def do_DELETE(self):
        sid = self.headers.get("Mcp-Session-Id")
        p = self.server.sessions.pop(sid, None)
        if p is not None:
            p.close()
        self._json(200 if p else 404, None)

    def do_POST(self):
        try:
            msg = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        except ValueError:
            return self._json(400, {"jsonrpc": "2.0", "id": None,
                                    "error": {"code": -32700, "message": "Parse error"}})
        sid = self.headers.get("Mcp-Session-Id")
        proc, new_sid = self.server.process_for(sid, msg)
        if proc is None:
            return self._json(404, {"jsonrpc": "2.0", "id": None,
                                    "error": {"code": -32600, "message": "Unknown session"}})
        if not (isinstance(msg, dict) and "method" in msg and "id" in msg):
            proc.send(msg)                     # a notification or a response
            return self._json(202, None)
        meta = msg.get("params", {}).get("_meta") if isinstance(msg.get("params"), dict) else None
        version = meta.get(PV_KEY) if isinstance(meta, dict) else None
        if proc.modern and version is not None and \
                self.headers.get("MCP-Protocol-Version") != version:
            return self._json(400, {"jsonrpc": "2.0", "id": msg["id"], "error": {
                "code": -32020, "message": "Header mismatch: MCP-Protocol-Version must equal "
                "the protocolVersion of _meta"}})
        q = queue.Queue()
        gid = next(self.server.ids)
        with proc.lock:
            proc.waiting[gid] = (q, msg["id"])
            proc.streams.append(q)
        try:
            proc.send(dict(msg, id=gid))
            self._relay(q, proc, [("Mcp-Session-Id", new_sid)] if new_sid else [])
        finally:
            with proc.lock:
                proc.waiting.pop(gid, None)
                proc.streams.remove(q)

    def _relay(self, q, proc, extra):
        streaming = False
        while True:
            try:
                kind, msg = q.get(timeout=WAIT)
            except queue.Empty:
                kind, msg = "gone", None
            if kind == "gone":
                if not streaming:
                    self._json(504, None)
                return
            if kind == "response" and not streaming:
                error = msg.get("error") if isinstance(msg.get("error"), dict) else None
                status = _STATUS.get(error.get("code"), 200) if error and proc.modern else 200
                return self._json(status, msg, extra)
            if not streaming:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.send_header("Connection", "close")
                for k, v in extra:
                    self.send_header(k, v)
                self.end_headers()
                streaming = True
            self.wfile.write(b"event: message\ndata: " + json.dumps(msg).encode("utf-8") +
                             b"\n\n")
            self.wfile.flush()
            if kind == "response":
                self.close_connection = True
                return


def main(argv):
    port = 3001
    if "--" not in argv:
        sys.stderr.write(__doc__)
        return 2
    i = argv.index("--")
    opts, command = argv[:i], argv[i + 1:]
    if opts[:1] == ["--port"] and len(opts) == 2:
        port = int(opts[1])
    gateway = Gateway(("127.0.0.1", port), command)
    sys.stderr.write("serving %s at http://localhost:%d/mcp\n" % (" ".join(command),
                                                                  gateway.server_port))
    try:
        gateway.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        gateway.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
