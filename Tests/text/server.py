"""Drives the built outline-server over JSON-RPC (ndjson framing) for the text checks.

The binary is $OUTLINE_SERVER, else the one `swift build --show-bin-path` names.
"""

import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def server_path():
    path = os.environ.get("OUTLINE_SERVER")
    if not path:
        bin_dir = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        path = os.path.join(bin_dir, "outline-server")
    if not os.access(path, os.X_OK):
        raise SystemExit(f"{path} is not built (swift build)")
    return path


def yaml_quote(text):
    """A YAML double-quoted scalar for any text, escaping what YAML may not carry raw."""
    out = ['"']
    for ch in text:
        cp = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif cp < 0x20 or 0x7F <= cp <= 0x9F or cp in (0x2028, 0x2029, 0xFEFF) or 0xFFFE <= cp <= 0xFFFF:
            out.append(f"\\u{cp:04X}" if cp <= 0xFFFF else f"\\U{cp:08X}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def outline_yaml(rows):
    """One expanded group holding a row per (title, detail-or-None)."""
    lines = ["groups:", "  - title: G", "    expanded: true", "    rows:"]
    for title, detail in rows:
        lines.append(f"      - title: {yaml_quote(title)}")
        if detail is not None:
            lines.append(f"        detail: {yaml_quote(detail)}")
    return "\n".join(lines) + "\n"


class Server:
    """An outline-server process spoken to in ndjson."""

    def __init__(self):
        self.proc = subprocess.Popen(
            [server_path(), "--framing", "ndjson"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            encoding="utf-8",
        )
        self.next_id = 0
        self.initialized = self.call("initialize", {"capabilities": {"general": {"positionEncodings": ["utf-32"]}}})

    def units(self):
        """The layout units the server offers (initialize's capabilities.units)."""
        return self.initialized.get("capabilities", {}).get("units", [])

    def call(self, method, params):
        self.next_id += 1
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise SystemExit(f"outline-server ended during {method}")
            reply = json.loads(line)
            if reply.get("id") == self.next_id:
                break
        if "error" in reply:
            raise SystemExit(f"{method}: {reply['error']}")
        return reply["result"]

    def row_heights(self, uri, rows, layout):
        """Heights of the rows (header excluded) of an outline of `rows` under `layout`."""
        opened = self.call("openOutline", {"uri": uri, "text": outline_yaml(rows), "layout": layout})
        total = opened["total"]
        heights = []
        start = 0
        while start < total:
            got = self.call("rowHeights", {"uri": uri, "start": start, "count": 10000})["heights"]
            heights.extend(got)
            start += len(got)
            if not got:
                break
        self.call("closeOutline", {"uri": uri})
        return heights[1:]

    def close(self):
        try:
            self.call("shutdown", None)
            self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "exit"}) + "\n")
            self.proc.stdin.close()
        finally:
            self.proc.wait(timeout=30)
