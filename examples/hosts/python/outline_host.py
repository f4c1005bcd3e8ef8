#!/usr/bin/env python3
"""A small host for outline-server: spawns it, opens an outline and prints
the pane, the way an editor plugin would draw it.

    python3 outline_host.py FILE [--width N] [--expand ID,...|all] [--server PATH]

The server is found in --server, else $OUTLINE_SERVER, else on PATH.
Only the standard library is used.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import unicodedata


class OutlineError(Exception):
    """A JSON-RPC error answer: code, message and data."""

    def __init__(self, error):
        super().__init__(f"{error.get('message')} ({error.get('code')})")
        self.code = error.get("code")
        self.data = error.get("data")


class OutlineClient:
    """JSON-RPC 2.0 over the server's stdin/stdout, with LSP framing."""

    def __init__(self, server):
        self.proc = subprocess.Popen(
            [server], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.next_id = 1
        self.notifications = []

    def _send(self, message):
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self):
        length = None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EOFError("outline-server closed its output")
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        return json.loads(self.proc.stdout.read(length).decode("utf-8"))

    def request(self, method, params=None):
        request_id = self.next_id
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}})
        while True:
            message = self._read()
            if "method" in message:  # a notification, e.g. outlineChanged
                self.notifications.append(message)
                continue
            if message.get("id") != request_id:
                continue
            if "error" in message:
                raise OutlineError(message["error"])
            return message["result"]

    def notify(self, method, params=None):
        self._send({"jsonrpc": "2.0", "method": method, "params": params or {}})

    def initialize(self):
        return self.request(
            "initialize",
            {"clientInfo": {"name": "python-host"},
             "capabilities": {"general": {"positionEncodings": ["utf-32"]}}},
        )

    def close(self, timeout=5):
        """shutdown, exit; returns the server's exit status."""
        try:
            self.request("shutdown")
            self.notify("exit")
            self.proc.stdin.close()
        except (BrokenPipeError, EOFError):
            pass
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


def cell_width(ch):
    if unicodedata.combining(ch) or ch in "\u200b\u200d\ufe0e\ufe0f":
        return 0
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def text_width(text):
    return sum(cell_width(c) for c in text)


def wrap(text, width):
    """Lines of text wrapped at width cells: after spaces, around wide
    characters, cutting words longer than a line."""
    if not text:
        return []
    width = max(1, width)
    out = []
    for para in text.replace("\r\n", "\n").replace("\u2028", "\n").split("\n"):
        tokens, cur = [], ""
        for ch in para:
            if ch in " \t":
                cur += ch
            elif cell_width(ch) >= 2:
                if cur:
                    tokens.append(cur)
                cur = ch
            else:
                if cur and (cur[-1] in " \t" or cell_width(cur[-1]) >= 2):
                    tokens.append(cur)
                    cur = ""
                cur += ch
        if cur:
            tokens.append(cur)
        line, used = "", 0
        for tok in tokens:
            core = tok.rstrip(" \t")
            if used and used + text_width(core) > width:
                out.append(line.rstrip())
                line, used = "", 0
            if text_width(core) > width:
                for ch in core:
                    if used and used + cell_width(ch) > width:
                        out.append(line)
                        line, used = "", 0
                    line, used = line + ch, used + cell_width(ch)
                tok = tok[len(core):]
            line, used = line + tok, used + text_width(tok)
        out.append(line.rstrip())
    return out


def join_lines(a, b):
    """Joins two wrapped lines back: a space between narrow characters."""
    if a and b and cell_width(a[-1]) < 2 and cell_width(b[0]) < 2:
        return a + " " + b
    return a + b


def fit(title, detail, height):
    """Makes title + detail lines exactly `height` lines. The server's height
    is the truth for positions; when this host's wrapping gives more lines
    (its widths differ), the last lines of a text are joined back."""
    while len(title) + len(detail) > height:
        if len(detail) > 1:
            detail[-2:] = [join_lines(*detail[-2:])]
        elif len(title) > 1:
            title[-2:] = [join_lines(*title[-2:])]
        elif detail:
            title[-1] = join_lines(title[-1], detail.pop())
        else:
            break
    return title, detail


def row_lines(row, width):
    """The lines of one visible row: exactly row["height"] of them."""
    indent = "  " * row["depth"]
    height = row.get("height", 1)
    if row["kind"] == "group":
        header = indent + ("▾ " if row["expanded"] else "▸ ") + row["title"]
        if row.get("badge"):
            header += " " + row["badge"]
        lines = [header + f"  {row['activeCount']}/{row['rowCount']}"]
    else:
        wrap_width = width - 2 * row["depth"] - 2
        title, detail = fit(wrap(row["title"], wrap_width) or [""],
                            wrap(row.get("detail", ""), wrap_width), height)
        marker = "● " if row["active"] else "○ "
        lines = [indent + (marker if i == 0 else "  ") + t for i, t in enumerate(title + detail)]
    return (lines + [""] * height)[:height]


def pane_text(rows, width):
    return "".join(line + "\n" for row in rows for line in row_lines(row, width))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--width", type=int, default=80)
    parser.add_argument("--expand", default="", help="group ids, comma-separated, or 'all'")
    parser.add_argument("--server", default=os.environ.get("OUTLINE_SERVER") or "outline-server")
    args = parser.parse_args(argv)

    client = OutlineClient(args.server)
    status = 0
    try:
        client.initialize()
        client.notify("initialized")
        uri = pathlib.Path(args.file).resolve().as_uri()
        try:
            client.request("openOutline", {"uri": uri})
        except OutlineError as e:
            for d in (e.data or {}).get("diagnostics", []):
                start = d["range"]["start"]
                print(f"{args.file}:{start['line'] + 1}:{start['character'] + 1}: {d['message']}",
                      file=sys.stderr)
            print(f"outline-server: {e}", file=sys.stderr)
            status = 1
        else:
            client.request("setLayout", {"uri": uri, "width": args.width, "padding": {"left": 2}})
            if args.expand == "all":
                client.request("expandAll", {"uri": uri})
            elif args.expand:
                for group_id in args.expand.split(","):
                    client.request("toggleSection", {"uri": uri, "section": group_id, "expanded": True})
            rows = client.request("visibleRows", {"uri": uri})["rows"]
            sys.stdout.write(pane_text(rows, args.width))
    finally:
        code = client.close()
    if code != 0:
        print(f"outline-server exited with status {code}", file=sys.stderr)
        status = status or 1
    return status


if __name__ == "__main__":
    sys.exit(main())
