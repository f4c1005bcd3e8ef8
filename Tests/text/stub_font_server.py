#!/usr/bin/env python3
"""A stand-in for outline-server in unit `font`, to test check_font_layout.py
itself: the checker must pass on a server that lays out as the browser does
and fail, naming causes, on one that does not.

Speaks just enough JSON-RPC (ndjson, as Tests/text/server.py starts it):
initialize, openOutline, setLayout, rowHeights, visibleRows with
`include: ["lines"]`, closeOutline, shutdown, exit; for the one outline shape
server.outline_yaml writes (a group of rows with titles).

STUB_FONT_MODE picks the layout:
- `browser`: the lines headless Chromium makes (Tests/text/chromium.py);
- `naive`: greedy filling with 7.5 px for a narrow character and 14 px for
  a wide one, breaks after spaces and around wide characters only.
"""

import json
import os
import re
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

MODE = os.environ.get("STUB_FONT_MODE", "naive")


def unquote(s):
    """The text of a YAML double-quoted scalar as server.yaml_quote writes it."""
    out = []
    i = 1
    while i < len(s) - 1:
        ch = s[i]
        if ch != "\\":
            out.append(ch)
            i += 1
        elif s[i + 1] == "u":
            out.append(chr(int(s[i + 2 : i + 6], 16)))
            i += 6
        elif s[i + 1] == "U":
            out.append(chr(int(s[i + 2 : i + 10], 16)))
            i += 10
        else:
            out.append(s[i + 1])
            i += 2
    return "".join(out)


def naive_lines(text, width):
    out = []
    for para in text.split("\n"):
        line, x = "", 0.0
        tokens = re.findall(r"[^\s\u3000-\u9fff\uff00-\uffef]+\s*|[\u3000-\u9fff\uff00-\uffef]\s*|\s+", para) or [""]
        for tok in tokens:
            w = sum(14.0 if unicodedata.east_asian_width(c) in "WF" else 7.5 for c in tok.rstrip())
            if line and x + w > width:
                out.append(line)
                line, x = "", 0.0
            for c in tok:
                cw = 14.0 if unicodedata.east_asian_width(c) in "WF" else 7.5
                if line and not c.isspace() and x + cw > width:
                    out.append(line)
                    line, x = "", 0.0
                line += c
                x += cw
        out.append(line)
    return out


class Stub:
    def __init__(self):
        self.titles = []
        self.layout = {}
        self.cache = {}
        self.browser = None

    def lines(self, width):
        if width not in self.cache:
            if MODE == "browser":
                import chromium

                if self.browser is None:
                    self.browser = chromium.Chromium()
                font = self.layout["font"]
                laid = self.browser.layout(self.titles, [width], font["family"], font["size"], self.layout["lineHeight"], lines=True)
                self.cache[width] = [r["text"] for r in laid[width]]
            else:
                self.cache[width] = [naive_lines(t, width) for t in self.titles]
        return self.cache[width]

    def handle(self, method, params):
        if method == "initialize":
            return {"capabilities": {"units": ["cell", "px", "font"]}, "serverInfo": {"name": "stub"}}
        if method == "openOutline":
            self.titles = [unquote(m) for m in re.findall(r'^      - title: (".*")$', params["text"], re.M)]
            self.layout = dict(params.get("layout", {}))
            return {"version": 1, "total": len(self.titles) + 1}
        if method == "setLayout":
            self.layout.update({k: v for k, v in params.items() if k != "uri"})
            return {"version": 1, "contentHeight": 0, "fonts": self.layout["font"]["family"]}
        if method in ("rowHeights", "visibleRows"):
            if "width" in params:
                self.layout["width"] = params["width"]
            lh = self.layout["lineHeight"]
            laid = self.lines(self.layout["width"])
            start = params.get("start", 0)
            end = min(len(self.titles) + 1, start + params.get("count", 10000))
            if method == "rowHeights":
                return {"heights": [lh if i == 0 else lh * len(laid[i - 1]) for i in range(start, end)]}
            rows = []
            for i in range(start, end):
                row = {"index": i}
                if i > 0:
                    row["lines"] = {"title": laid[i - 1]}
                rows.append(row)
            return {"rows": rows}
        if method in ("closeOutline", "shutdown"):
            return None
        raise KeyError(method)


def main():
    stub = Stub()
    try:
        for line in sys.stdin:
            msg = json.loads(line)
            if msg.get("method") == "exit":
                break
            try:
                reply = {"jsonrpc": "2.0", "id": msg["id"], "result": stub.handle(msg["method"], msg.get("params") or {})}
            except KeyError as e:
                reply = {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": f"no {e}"}}
            sys.stdout.write(json.dumps(reply) + "\n")
            sys.stdout.flush()
    finally:
        if stub.browser is not None:
            stub.browser.close()


if __name__ == "__main__":
    main()
