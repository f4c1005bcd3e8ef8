#!/usr/bin/env python3
"""Connects a web page to outline-server's stdin/stdout, and serves the page.

    python3 bridge.py [FILE ...] [--port N] [--server PATH]

Spawns one outline-server, initializes it, and serves on 127.0.0.1 only:

    GET  /             the page (index.html, app.js, style.css from page/)
    GET  /outlines     {"outlines": [{"name", "uri"}], "server": <initialize result>}:
                       the FILEs given (default: the Debian package outline
                       made by scripts/make-examples, and examples/contacts.yaml)
    POST /rpc          one JSON-RPC 2.0 request (or notification) as the body,
                       Content-Type: application/json; the reply is the
                       server's response with the page's own id, or 204 for a
                       notification. Requests reach the server in the order
                       they arrive and are answered in that order.

The bridge gives each request an id of its own (pages may reuse theirs) and
maps the answer back. It owns the server's lifecycle: `initialize` and
`initialized` on start, `shutdown` and `exit` on Ctrl-C; a page's own
`initialize` is refused by the server as a second one.

Only this machine's pages reach it: it binds 127.0.0.1, answers only Host
names 127.0.0.1:PORT and localhost:PORT (no DNS rebinding), refuses a
request whose Origin is another site, and takes only Content-Type
application/json on /rpc (a cross-site form or simple fetch cannot send
that without a preflight, which is refused).

The server is --server PATH, else $OUTLINE_SERVER, else the newer of the
repository's .build/release and .build/debug builds. Standard library only.
Prints "serving http://127.0.0.1:PORT/" on stdout when ready (--port 0 picks
a free port); logs go to stderr.
"""

import argparse
import http.server
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import urllib.parse

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
PAGE = HERE / "page"
DEBIAN = ROOT / "examples" / "generated" / "debian-packages.yaml"
CONTACTS = ROOT / "examples" / "contacts.yaml"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".png": "image/png"}


def log(message):
    print(f"bridge: {message}", file=sys.stderr, flush=True)


def find_server(given):
    """The outline-server binary to spawn; exits naming what to do when there is none."""
    if given or os.environ.get("OUTLINE_SERVER"):
        path = given or os.environ["OUTLINE_SERVER"]
        if not os.access(path, os.X_OK):
            sys.exit(f"bridge: {path} is not an executable file")
        return path
    builds = [p for p in (ROOT / ".build" / "release" / "outline-server", ROOT / ".build" / "debug" / "outline-server")
              if os.access(p, os.X_OK)]
    if not builds:
        sys.exit("bridge: no outline-server: run `swift build` in the repository, or pass --server PATH")
    return str(max(builds, key=lambda p: p.stat().st_mtime))


class OutlineServer:
    """The spawned server: JSON-RPC 2.0 with LSP framing on its stdin/stdout.

    `call` may be used from many threads: messages are written whole under a
    lock, and one reader thread hands each response to the caller waiting
    for its id. Notifications from the server are dropped: the page asks for
    what it shows (and opens no watched file).
    """

    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.write_lock = threading.Lock()
        self.lock = threading.Condition()
        self.next_id = 0
        self.waiting = {}  # our id -> response, None until it arrives
        self.ended = None
        self.closing = False
        threading.Thread(target=self._read_loop, daemon=True).start()

    def _write(self, message):
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        with self.write_lock:
            self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.proc.stdin.flush()

    def _read_message(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length))

    def _read_loop(self):
        while (message := self._read_message()) is not None:
            if "method" in message and "id" in message:
                # A request from the server: this bridge offers no client methods.
                self._write({"jsonrpc": "2.0", "id": message["id"],
                             "error": {"code": -32601, "message": f"unknown method {message['method']}"}})
                continue
            with self.lock:
                if "method" not in message and message.get("id") in self.waiting:
                    self.waiting[message["id"]] = message
                self.lock.notify_all()
        with self.lock:
            self.ended = f"outline-server exited with status {self.proc.wait()}"
            self.lock.notify_all()
        if not self.closing:
            log(self.ended)

    def call(self, message):
        """Sends one request (returns the response, with the id it came with)
        or notification (returns None)."""
        if "id" not in message:
            self._write(message)
            return None
        with self.lock:
            if self.ended:
                raise ConnectionError(self.ended)
            self.next_id += 1
            ours = self.next_id
            self.waiting[ours] = None
        self._write({**message, "id": ours})
        with self.lock:
            while self.waiting[ours] is None and not self.ended:
                self.lock.wait()
            response = self.waiting.pop(ours)
        if response is None:
            raise ConnectionError(self.ended)
        return {**response, "id": message["id"]}

    def request(self, method, params=None):
        """The result of one request of the bridge's own; raises on an error answer."""
        response = self.call({"jsonrpc": "2.0", "id": 0, "method": method, "params": params or {}})
        if "error" in response:
            raise RuntimeError(f"{method}: {response['error'].get('message')}")
        return response["result"]

    def close(self):
        self.closing = True
        try:
            self.request("shutdown")
            self.call({"jsonrpc": "2.0", "method": "exit"})
            self.proc.stdin.close()
            self.proc.wait(5)
        except (OSError, RuntimeError, ConnectionError, subprocess.TimeoutExpired):
            self.proc.kill()


class Handler(http.server.BaseHTTPRequestHandler):
    server_version = "outline-bridge"
    # Set by main().
    outline = None
    outlines = []
    info = {}

    def log_message(self, format, *args):
        pass  # one line per fetch would drown the server's own log

    def _send(self, status, body=b"", content_type="application/json"):
        self.send_response(status)
        if body:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        try:
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page went away (reloaded, closed) before its answer came

    def _json(self, value, status=200):
        self._send(status, json.dumps(value, ensure_ascii=False).encode("utf-8"))

    def _allowed(self):
        port = self.server.server_address[1]
        hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
        origin = self.headers.get("Origin")
        if self.headers.get("Host") not in hosts or (origin and origin not in {f"http://{h}" for h in hosts}):
            self._send(403, b"forbidden: this bridge answers its own pages only\n", "text/plain")
            return False
        return True

    def do_GET(self):
        if not self._allowed():
            return
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/outlines":
            return self._json({"outlines": self.outlines, "server": self.info})
        name = "index.html" if url.path == "/" else url.path.lstrip("/")
        file = (PAGE / name).resolve()
        if file.parent != PAGE or file.suffix not in TYPES or not file.is_file():
            return self._send(404, b"not found\n", "text/plain")
        self._send(200, file.read_bytes(), TYPES[file.suffix])

    def do_POST(self):
        if not self._allowed():
            return
        if self.path != "/rpc":
            return self._send(404, b"not found\n", "text/plain")
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            return self._send(415, b"Content-Type must be application/json\n", "text/plain")
        try:
            message = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
        except ValueError as e:
            return self._json({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": str(e)}})
        if not isinstance(message, dict):
            return self._json({"jsonrpc": "2.0", "id": None,
                               "error": {"code": -32600, "message": "one JSON-RPC message per POST"}})
        try:
            response = self.outline.call(message)
        except (ConnectionError, OSError) as e:
            return self._send(502, f"{e}\n".encode(), "text/plain")
        if response is None:
            return self._send(204)
        self._json(response)


def interrupt(signum, frame):
    raise KeyboardInterrupt


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="outline files to offer (default: the Debian packages and contacts)")
    parser.add_argument("--port", type=int, default=8642, help="port on 127.0.0.1 (0: a free one; default %(default)s)")
    parser.add_argument("--server", help="the outline-server binary")
    args = parser.parse_args(argv)

    files = [pathlib.Path(f).resolve() for f in args.files]
    if not files:
        if not DEBIAN.exists():
            log("making the Debian package outline (scripts/make-examples)")
            if subprocess.run([str(ROOT / "scripts" / "make-examples")]).returncode != 0:
                log("no Debian package outline (no apt lists?): showing the contacts only")
        files = [f for f in (DEBIAN, CONTACTS) if f.exists()]
    for f in files:
        if not f.is_file():
            sys.exit(f"bridge: {f}: no such file")

    outline = OutlineServer(find_server(args.server))
    try:
        info = outline.request("initialize", {
            "clientInfo": {"name": "web-bridge"},
            "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
        })
    except (RuntimeError, ConnectionError, OSError) as e:
        sys.exit(f"bridge: outline-server did not initialize: {e}")
    if "font" not in info["capabilities"].get("units", []):
        outline.close()
        sys.exit("bridge: this outline-server has no unit \"font\": rebuild it (swift build)")
    outline.call({"jsonrpc": "2.0", "method": "initialized", "params": {}})

    Handler.outline = outline
    Handler.info = info
    Handler.outlines = [{"name": f.name, "uri": f.as_uri()} for f in files]
    try:
        httpd = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    except OSError as e:
        outline.close()
        sys.exit(f"bridge: cannot listen on 127.0.0.1:{args.port}: {e} (try --port 0)")
    httpd.daemon_threads = True
    print(f"serving http://127.0.0.1:{httpd.server_address[1]}/", flush=True)
    # SIGTERM ends the bridge as Ctrl-C does: the server is shut down, not orphaned.
    signal.signal(signal.SIGTERM, interrupt)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
        outline.close()


if __name__ == "__main__":
    main()
