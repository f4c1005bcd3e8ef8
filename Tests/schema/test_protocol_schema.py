#!/usr/bin/env python3
"""Run a scripted session against the built server and validate every reply.

Spawns the server (path from $OUTLINE_SERVER, default .build/debug/outline-
server under the repository root), speaks JSON-RPC 2.0 to it with LSP
Content-Length framing, and calls every method of protocol sections 2 to 5
on examples/contacts.yaml, of section 6 (filterOutline, navigate,
getViewState, setViewState; openOutline with a workDoneToken and its
$/progress notifications), and of section 9 (changeOutline edits,
visibleRows include range, itemAtPosition, revealItem). Every result is validated against the
<method>.result definition of schemas/protocol.schema.json, every error
against ResponseError, and every notification the server sends against
its params definition. A few contract rules that a schema cannot state are
checked too (change lists rebuild the new visible list, tops add up, ids
of toggles, filter matches and ranges, where navigate moves the focus,
progress order, exit status 0 after shutdown). The server runs with a
fresh --state-dir, so no saved view state leaks in or out.

Needs PyYAML and jsonschema (4.x):
    apt-get install python3-yaml python3-jsonschema
or  python3 -m pip install pyyaml 'jsonschema>=4'

Run:  swift build && python3 Tests/schema/test_protocol_schema.py
      OUTLINE_SERVER=/path/to/outline-server python3 Tests/schema/test_protocol_schema.py
The last line is "N passed, N failed"; the exit status is 1 on any failure.
Set OUTLINE_TEST_VERBOSE=1 to print every message sent and received.
"""

import json
import os
import pathlib
import queue
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
SERVER = os.environ.get("OUTLINE_SERVER", str(ROOT / ".build" / "debug" / "outline-server"))
CONTACTS = ROOT / "examples" / "contacts.yaml"
TIMEOUT = float(os.environ.get("OUTLINE_TEST_TIMEOUT", "30"))
VERBOSE = os.environ.get("OUTLINE_TEST_VERBOSE") == "1"

try:
    import jsonschema
    import yaml
except ImportError as e:
    print(f"missing Python package: {e.name}", file=sys.stderr)
    print("install with: apt-get install python3-yaml python3-jsonschema", file=sys.stderr)
    print("          or: python3 -m pip install pyyaml 'jsonschema>=4'", file=sys.stderr)
    print("0 passed, 1 failed")
    sys.exit(1)

with open(ROOT / "schemas" / "protocol.schema.json", encoding="utf-8") as f:
    PROTOCOL = json.load(f)


def validator_for(name):
    if name not in PROTOCOL["$defs"]:
        raise KeyError(f"protocol.schema.json has no $defs/{name}")
    pointer = name.replace("~", "~0").replace("/", "~1")  # "$/progress.params" has a slash
    schema = {"$schema": PROTOCOL["$schema"], "$defs": PROTOCOL["$defs"], "$ref": f"#/$defs/{pointer}"}
    return jsonschema.Draft202012Validator(schema)


passed = 0
failed = 0


def record(ok, name, why=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name}{': ' + why if why else ''}")


def validate(name, value, label):
    errors = list(validator_for(name).iter_errors(value))
    why = "; ".join(
        f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in errors[:5]
    )
    record(not errors, f"{label} matches {name}", why)
    return not errors


class ServerError(Exception):
    def __init__(self, error):
        super().__init__(f"{error.get('code')}: {error.get('message')}")
        self.error = error


class Client:
    """An LSP-framed JSON-RPC client over the server's stdin and stdout."""

    def __init__(self, argv):
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=self.stderr, cwd=ROOT)
        self.next_id = 1
        self.responses = {}
        self.notifications = []
        # Per response id: how many notifications had arrived before it.
        self.notifications_before = {}
        self.inbox = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        out = self.proc.stdout
        try:
            while True:
                headers = {}
                while True:
                    line = out.readline()
                    if not line:
                        self.inbox.put(("eof", None))
                        return
                    line = line.rstrip(b"\r\n")
                    if not line:
                        break
                    name, _, value = line.decode("ascii").partition(":")
                    headers[name.strip().lower()] = value.strip()
                length = int(headers["content-length"])
                body = out.read(length)
                if len(body) < length:
                    self.inbox.put(("eof", None))
                    return
                self.inbox.put(("message", json.loads(body.decode("utf-8"))))
        except Exception as e:  # noqa: BLE001 - a broken frame ends the session
            self.inbox.put(("broken", e))

    def send(self, message):
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        if VERBOSE:
            print(f"--> {body.decode('utf-8')[:400]}")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def _pump(self, deadline):
        kind, message = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
        if kind != "message":
            raise RuntimeError(f"server stream ended ({kind}{': ' + str(message) if message else ''})")
        if VERBOSE:
            print(f"<-- {json.dumps(message, ensure_ascii=False)[:400]}")
        if isinstance(message, dict) and "method" in message:
            if "id" in message:
                # A request from the server: none is expected in version 1.
                self.send({"jsonrpc": "2.0", "id": message["id"],
                           "error": {"code": -32601, "message": "not supported by the test client"}})
            else:
                self.notifications.append(message)
        elif isinstance(message, dict) and "id" in message:
            self.responses[json.dumps(message["id"])] = message
            self.notifications_before[json.dumps(message["id"])] = len(self.notifications)
        else:
            raise RuntimeError(f"unexpected message from server: {message!r}")

    def request(self, method, params=None, omit_params=False):
        """Send a request; return the result, or raise ServerError with the error."""
        self.last_id = rid = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": rid, "method": method}
        if not omit_params:
            message["params"] = params
        self.send(message)
        key = json.dumps(rid)
        deadline = time.monotonic() + TIMEOUT
        while key not in self.responses:
            try:
                self._pump(deadline)
            except queue.Empty:
                raise TimeoutError(f"no reply to {method} within {TIMEOUT:.0f} s") from None
        response = self.responses.pop(key)
        assert response.get("jsonrpc") == "2.0", f"reply without jsonrpc 2.0: {response!r}"
        assert response["id"] == rid and type(response["id"]) is type(rid), "id not echoed exactly"
        if "error" in response:
            raise ServerError(response["error"])
        assert "result" in response, f"reply with neither result nor error: {response!r}"
        return response["result"]

    def wait(self, timeout):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self, limit=2000):
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", errors="replace")[-limit:]

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Session:
    """The scripted calls, each validated against the schema."""

    def __init__(self, client):
        self.c = client

    def call(self, method, params=None, label=None, omit_params=False):
        label = label or method
        try:
            result = self.c.request(method, params, omit_params=omit_params)
        except ServerError as e:
            validate("ResponseError", e.error, f"{label} (error)")
            record(False, f"{label} succeeds", str(e))
            return None
        except (AssertionError, RuntimeError, TimeoutError) as e:
            record(False, f"{label} replies", str(e))
            raise
        validate(f"{method}.result", result, label)
        return result

    def expect_error(self, method, params, code, label):
        try:
            result = self.c.request(method, params)
        except ServerError as e:
            validate("ResponseError", e.error, f"{label} error")
            record(e.error.get("code") == code, f"{label} gives {code}",
                   f"got {e.error.get('code')}: {e.error.get('message')}")
            return e.error
        record(False, f"{label} gives {code}", f"got result {json.dumps(result)[:200]}")
        return None

    def expect(self, condition, label, why=""):
        record(bool(condition), label, why)


def visible_ids(s, uri, label):
    result = s.call("visibleRows", {"uri": uri}, label=f"visibleRows ({label})")
    return [] if result is None else [r["id"] for r in result["rows"]]


def check_changes(s, before, changes, after, label):
    """Applying changes to the previous visible list must give the new one."""
    ids = list(before)
    try:
        for ch in changes:
            if ch["kind"] == "delete":
                assert 0 <= ch["start"] and ch["start"] + ch["count"] <= len(ids), f"delete out of range: {ch}"
                del ids[ch["start"]:ch["start"] + ch["count"]]
            else:
                assert 0 <= ch["start"] <= len(ids), f"insert out of range: {ch}"
                ids[ch["start"]:ch["start"]] = [None] * ch["count"]
        assert len(ids) == len(after), f"{len(ids)} items after the changes, {len(after)} visible"
        wrong = [i for i, (x, y) in enumerate(zip(ids, after)) if x is not None and x != y]
        assert not wrong, f"kept items out of place at {wrong[:5]}"
    except AssertionError as e:
        s.expect(False, f"{label}: changes rebuild the new visible list", str(e))
        return
    s.expect(True, f"{label}: changes rebuild the new visible list")


def check_rows(s, result, start, label):
    if result is None:
        return
    rows = result["rows"]
    s.expect(rows, f"{label}: rows are returned")
    good = all(r["index"] == start + i for i, r in enumerate(rows))
    s.expect(good, f"{label}: indices are consecutive from {start}")
    good = all(a["top"] + a["height"] == b["top"] for a, b in zip(rows, rows[1:]))
    s.expect(good, f"{label}: each top is the previous top + height")


def check_progress(s, c, token):
    """$/progress for token: begin, reports with non-decreasing percentage, end, all before the response."""
    key = json.dumps(c.last_id)
    before = c.notifications_before.get(key, len(c.notifications))
    kinds, percents, late = [], [], 0
    for i, n in enumerate(c.notifications):
        if n["method"] != "$/progress" or n.get("params", {}).get("token") != token:
            continue
        validate("$/progress.params", n["params"], f"$/progress {n['params']['value'].get('kind')}")
        kinds.append(n["params"]["value"].get("kind"))
        if kinds[-1] == "report" and "percentage" in n["params"]["value"]:
            percents.append(n["params"]["value"]["percentage"])
        late += i >= before
    s.expect(kinds[:1] == ["begin"] and kinds[-1:] == ["end"] and set(kinds[1:-1]) <= {"report"},
             f"$/progress {token}: begin, reports, end", f"got {kinds}")
    s.expect(percents == sorted(percents), f"$/progress {token}: percentages never go down", f"got {percents}")
    s.expect(late == 0, f"$/progress {token}: every notification comes before the response")


def rows_of(s, uri, label):
    result = s.call("visibleRows", {"uri": uri}, label=f"visibleRows ({label})")
    return [] if result is None else result["rows"]


def units(text):
    """text in the negotiated encoding (utf-8 here), as a sequence of code units."""
    return text.encode("utf-8")


def view_state_session(s, uri):
    """filterOutline, navigate, getViewState, setViewState (PROTOCOL section 6)."""
    items = rows_of(s, uri, "before filter")
    before = [r["id"] for r in items]
    user = s.call("getViewState", {"uri": uri}, label="getViewState (before filter)")

    # A filter with matches.
    f = s.call("filterOutline", {"uri": uri, "query": "LI"}, label="filterOutline (matches)")
    shown = rows_of(s, uri, "filtered")
    if f is not None:
        check_changes(s, before, f["changes"], [r["id"] for r in shown], "filterOutline")
        s.expect(f["total"] == len(shown), "filterOutline total is the filtered length")
        s.expect(f["matches"], "filterOutline 'LI' matches rows")
        by_id = {r["id"]: r for r in shown}
        rows = [r for r in shown if r["kind"] == "row"]

        def own_match(r):
            texts = [r["title"]] + ([r.get("detail") or ""] if r["kind"] == "row" else [])
            return any("li" in t.casefold() for t in texts)

        s.expect([m["id"] for m in f["matches"]] == [r["id"] for r in shown if own_match(r)],
                 "matches list exactly the rows and groups shown whose own text matched, in list order")
        s.expect(all(by_id.get(m["id"], {}).get("index") == m["index"] for m in f["matches"]),
                 "each match's index is its row's index")
        s.expect(all(r["kind"] == "row" or r["expanded"] for r in shown), "groups shown by a filter are open")
        parents = {r["parent"] for r in rows}
        s.expect(all(r["kind"] == "row" or own_match(r) or any(x["parent"] == r["id"] for x in shown) for r in shown),
                 "every group shown matched or has a shown child")
        s.expect(parents <= set(by_id), "the group of every match is shown")
        bad = []
        for m in f["matches"]:
            r = by_id.get(m["id"], {})
            for rg in m["ranges"]:
                text = units(r.get(rg["field"]) or "")
                piece = text[rg["start"]:rg["start"] + rg["length"]].decode("utf-8", "replace")
                if piece.casefold() != "li":
                    bad.append((m["id"], rg, piece))
            for field in ("title", "detail"):
                want = (r.get(field) or "").casefold().count("li")
                if want != sum(rg["field"] == field for rg in m["ranges"]):
                    bad.append((m["id"], field, "count"))
        s.expect(not bad, "match ranges cover every occurrence of the query (utf-8 units)", repr(bad[:3]))

    # A filter by a group's name shows the group with everything in it.
    groups = [r for r in items if r["kind"] == "group"]
    if groups:
        g = groups[-1]
        f = s.call("filterOutline", {"uri": uri, "query": g["title"].upper()}, label="filterOutline (a group name)")
        shown = rows_of(s, uri, "filtered by a group name")
        if f is not None:
            s.expect(any(m["id"] == g["id"] and all(rg["field"] == "title" for rg in m["ranges"])
                         for m in f["matches"]), "a group matches by its title, ranges over the title")
            at = next((i for i, r in enumerate(shown) if r["id"] == g["id"]), None)
            inside = [r for r in shown[at + 1:]] if at is not None else []
            inside = inside[:next((i for i, r in enumerate(inside) if r["depth"] <= g["depth"]), len(inside))]
            s.expect(at is not None and sum(r["kind"] == "row" for r in inside) == g["rowCount"]
                     and all(r["kind"] == "row" or r["expanded"] for r in inside),
                     "a matching group is shown with every row of its subtree, every group in it open")

    # A filter with no match.
    f = s.call("filterOutline", {"uri": uri, "query": "no such text anywhere"}, label="filterOutline (no match)")
    if f is not None:
        s.expect(f["total"] == 0 and f["matches"] == [] and f["contentHeight"] == 0,
                 "a filter that matches nothing shows nothing")
        s.expect(rows_of(s, uri, "no match") == [], "visibleRows is empty under a filter with no match")

    # Filter, toggle a shown group, then clear: the user's expansion comes back.
    s.call("filterOutline", {"uri": uri, "query": "li"}, label="filterOutline (again)")
    shown = rows_of(s, uri, "filtered again")
    group = next((r["id"] for r in shown if r["kind"] == "group"), None)
    if group is not None:
        ids = [r["id"] for r in shown]
        t = s.call("toggleSection", {"uri": uri, "section": group}, label="toggleSection (while filtered)")
        if t is not None:
            s.expect(t["expanded"] is False, "a toggle while filtered closes a shown group")
            check_changes(s, ids, t["changes"], [r["id"] for r in rows_of(s, uri, "toggled while filtered")],
                          "toggleSection (while filtered)")
    g = s.call("getViewState", {"uri": uri}, label="getViewState (while filtered)")
    if g is not None and user is not None:
        s.expect(g["expanded"] == user["expanded"], "getViewState while filtered reports the user's expansion")
    ids = [r["id"] for r in rows_of(s, uri, "before clearing")]
    f = s.call("filterOutline", {"uri": uri, "query": ""}, label="filterOutline (clear)")
    if f is not None:
        after = [r["id"] for r in rows_of(s, uri, "cleared")]
        check_changes(s, ids, f["changes"], after, "filterOutline (clear)")
        s.expect(after == before and f["matches"] == [], "clearing the filter restores the user's visible list")

    # navigate, every key.
    items = rows_of(s, uri, "before navigate")
    if not items:
        s.expect(False, "navigate needs a visible list")
        return
    first, last = items[0], items[-1]

    def nav(frm, key, label):
        return s.call("navigate", {"uri": uri, "from": frm, "key": key}, label=f"navigate {label}")

    def lands(r, want_id, label):
        if r is not None:
            s.expect(r["focus"] == want_id, f"navigate {label} focuses {want_id}", f"got {r['focus']}")

    lands(nav(first["id"], "down", "down"), items[1]["id"] if len(items) > 1 else first["id"], "down")
    lands(nav(items[1]["id"], "up", "up"), first["id"], "up")
    lands(nav(first["id"], "up", "up on the first item"), first["id"], "up on the first item")
    lands(nav(first["id"], "end", "end"), last["id"], "end")
    lands(nav(last["id"], "down", "down on the last item"), last["id"], "down on the last item")
    lands(nav(last["id"], "home", "home"), first["id"], "home")
    closed = next((r for r in items if r["kind"] == "group" and not r["expanded"]), None)
    if closed is not None:
        ids = [r["id"] for r in items]
        r = nav(closed["id"], "right", "right (closed group)")
        if r is not None:
            s.expect(r.get("id") == closed["id"] and r.get("expanded") is True and r["focus"] == closed["id"],
                     "right on a closed group opens it and keeps the focus")
            now = rows_of(s, uri, "after right")
            check_changes(s, ids, r.get("changes", []), [x["id"] for x in now], "navigate right")
            child = next((x for x in now if x["parent"] == closed["id"]), None)
            if child is not None:
                lands(nav(closed["id"], "right", "right (open group)"), child["id"], "right (open group)")
                r2 = nav(child["id"], "left", "left (child)")
                lands(r2, closed["id"], "left (child)")
                s.expect(r2 is None or "changes" not in r2, "left to the parent changes no expansion")
            r = nav(closed["id"], "left", "left (open group)")
            if r is not None:
                s.expect(r.get("expanded") is False and r["focus"] == closed["id"],
                         "left on an open group closes it")
                check_changes(s, [x["id"] for x in now], r.get("changes", []),
                              [x["id"] for x in rows_of(s, uri, "after left")], "navigate left")
    lands(nav(first["id"], "left", "left (top level)"), first["id"], "left (top level)")
    s.call("visibleRows", {"uri": uri, "viewport": {"top": 0, "height": 4}}, label="visibleRows (page viewport)")
    items = rows_of(s, uri, "before page keys")
    r = nav(first["id"], "pageDown", "pageDown")
    if r is not None:
        want = next((x for x in items if x["top"] <= 4 < x["top"] + x["height"]), items[-1])
        s.expect(len(items) > 1 and r["index"] == max(1, want["index"]),
                 "pageDown moves by the last viewport's height", f"got {r['index']}, want {want['index']}")
        back = nav(r["focus"], "pageUp", "pageUp")
        if back is not None:
            s.expect(back["index"] < r["index"], "pageUp moves up")
    ids = [x["id"] for x in items]
    r = nav(first["id"], "expandSiblings", "expandSiblings")
    if r is not None:
        s.expect("id" not in r and "expanded" not in r, "expandSiblings has no id/expanded")
        now = rows_of(s, uri, "after expandSiblings")
        check_changes(s, ids, r.get("changes", []), [x["id"] for x in now], "navigate expandSiblings")
        s.expect(all(x["expanded"] for x in now if x["kind"] == "group" and x["parent"] is None),
                 "expandSiblings opens every top-level group")
    now = rows_of(s, uri, "before type-ahead")
    r = nav(now[0]["id"], {"type": "c"}, "type-ahead 'c'")
    if r is not None:
        want = next((x for x in now[1:] + now[:1] if x["title"].casefold().startswith("c")), now[0])
        lands(r, want["id"], "type-ahead 'c'")
    r = nav(now[0]["id"], {"type": "Fam"}, "type-ahead 'Fam'")
    if r is not None:
        want = next((x for x in now if x["title"].casefold().startswith("fam")), now[0])
        lands(r, want["id"], "type-ahead 'Fam'")
    s.expect_error("navigate", {"uri": uri, "from": "no-such-item", "key": "down"}, -32012, "navigate from an unknown id")
    s.expect_error("navigate", {"uri": uri, "from": now[0]["id"], "key": "sideways"}, -32602,
                   "navigate with an unknown key")

    # getViewState / setViewState.
    g = s.call("getViewState", {"uri": uri}, label="getViewState (after navigate)")
    if g is not None and r is not None:
        s.expect(g.get("focus") == r["focus"], "getViewState reports the focus navigate set")
    ids = [x["id"] for x in rows_of(s, uri, "before setViewState")]
    v = s.call("setViewState", {"uri": uri, "expanded": ["family", "no-such-group"], "focus": "mum",
                                "scrollTop": 2}, label="setViewState")
    if v is not None:
        now = rows_of(s, uri, "after setViewState")
        check_changes(s, ids, v["changes"], [x["id"] for x in now], "setViewState")
        s.expect([x["id"] for x in now if x["kind"] == "group" and x.get("expanded")] == ["family"],
                 "setViewState.expanded is the whole set of open groups")
        s.expect(v.get("scrollTop") == 2, "setViewState returns the scrollTop given")
    g = s.call("getViewState", {"uri": uri}, label="getViewState (after setViewState)")
    if g is not None:
        s.expect(g == {"expanded": ["family"], "focus": "mum", "scrollTop": 2},
                 "getViewState gives back what setViewState set", json.dumps(g))
    if user is not None:
        s.call("setViewState", {"uri": uri, "expanded": user["expanded"]}, label="setViewState (restore)")


def edits_session(s, uri, text):
    """Version 1.1 (PROTOCOL section 9): changeOutline edits, visibleRows ranges, itemAtPosition, revealItem."""
    lines = text.split("\n")

    def ranged(label):
        result = s.call("visibleRows", {"uri": uri, "include": ["range"]}, label=f"visibleRows include range ({label})")
        return [] if result is None else result["rows"]

    s.call("expandAll", {"uri": uri}, label="expandAll (before ranges)")
    rows = ranged("all open")
    s.expect(rows and all("range" in r for r in rows), "include range gives every row a range")

    # Each range starts where its mapping does: its first key, its brace or its anchor.
    def starts_a_mapping(r, lines):
        start = r["range"]["start"]
        head = units(lines[start["line"]])[start["character"]:].decode("utf-8", "replace")
        return head.startswith(("id:", "title:", "{", "&"))

    bad = [r["id"] for r in rows if not starts_a_mapping(r, lines)]
    s.expect(not bad, "every range starts at its mapping's first key, brace or anchor (utf-8 units)", repr(bad[:3]))
    ends = [r["id"] for r in rows if (r["range"]["end"]["line"], r["range"]["end"]["character"])
            <= (r["range"]["start"]["line"], r["range"]["start"]["character"])]
    s.expect(not ends, "every range ends after it starts", repr(ends[:3]))

    # itemAtPosition at each range's start gives that item back, at its index.
    wrong = []
    for r in rows:
        found = s.call("itemAtPosition", {"uri": uri, "position": r["range"]["start"]},
                       label=f"itemAtPosition ({r['id']})")
        if found is None or found["id"] != r["id"] or found["index"] != r["index"]:
            wrong.append(r["id"])
        elif found["ancestors"][-1:] != ([r["parent"]] if r["parent"] else []):
            wrong.append(r["id"] + " (ancestors)")
    s.expect(not wrong, "itemAtPosition at each range's start is that item", repr(wrong[:3]))
    past = s.call("itemAtPosition", {"uri": uri, "position": {"line": len(lines) + 5, "character": 0}},
                  label="itemAtPosition (past the end)")
    s.expect(past is None, "itemAtPosition past the end is null")

    # An edit above every item: ranges move, the version does not.
    version = s.call("visibleRows", {"uri": uri, "count": 0}, label="visibleRows (version before edits)")
    top = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
    ch = s.call("changeOutline", {"uri": uri, "edits": [{"range": top, "text": "# edited\n# twice\n"}]},
                label="changeOutline (edits)")
    if ch is not None and version is not None:
        s.expect(ch["applied"] is True and ch["changes"] == [], "an edit that moves no item changes no row")
        s.expect(ch["version"] == version["version"], "ranges alone do not move the version")
    moved = ranged("after an edit above")
    s.expect([r["range"]["start"]["line"] for r in moved] == [r["range"]["start"]["line"] + 2 for r in rows],
             "every range moved down by the lines the edit added")
    s.expect_error("changeOutline", {"uri": uri, "edits": [{"range": {"start": {"line": 10_000, "character": 0},
                                                                      "end": {"line": 10_000, "character": 0}},
                                                            "text": "x"}]},
                   -32602, "changeOutline with a range outside the text")
    s.expect_error("changeOutline", {"uri": uri, "text": text, "edits": []}, -32602,
                   "changeOutline with both text and edits")
    s.call("changeOutline", {"uri": uri, "edits": [{"range": {"start": {"line": 0, "character": 0},
                                                              "end": {"line": 2, "character": 0}}, "text": ""}]},
           label="changeOutline (edits back)")

    # revealItem: a row inside closed groups, in a viewport.
    s.call("collapseAll", {"uri": uri}, label="collapseAll (before reveal)")
    before = visible_ids(s, uri, "before reveal")
    r = s.call("revealItem", {"uri": uri, "id": "alice-chen", "scrollTop": 0, "viewportHeight": 4},
               label="revealItem (with a viewport)")
    if r is not None:
        items = rows_of(s, uri, "after reveal")
        check_changes(s, before, r["changes"], [x["id"] for x in items], "revealItem")
        at = next((x for x in items if x["id"] == "alice-chen"), None)
        s.expect(at is not None and r["index"] == at["index"], "revealItem's index is the item's")
        s.expect(r["id"] == "alice-chen" and "expanded" not in r, "revealItem names the item, without expanded")
        if at is not None:
            s.expect(r["scrollTop"] <= at["top"] and at["top"] + min(at["height"], 4) <= r["scrollTop"] + 4,
                     "the returned viewport shows the item")
    s.expect_error("revealItem", {"uri": uri, "id": "no-such-item"}, -32012, "revealItem of an unknown id")
    s.call("filterOutline", {"uri": uri, "query": "Lisbon"}, label="filterOutline (before reveal)")
    r = s.call("revealItem", {"uri": uri, "id": "mum"}, label="revealItem (hidden by the filter)")
    if r is not None:
        s.expect(r["index"] is None and r["changes"] == [], "an item the filter hides is not revealed")
    s.call("filterOutline", {"uri": uri, "query": ""}, label="filterOutline (clear after reveal)")


def expected_counts(doc):
    groups = rows = 0
    visible = 0

    def walk(gs, shown):
        nonlocal groups, rows, visible
        for g in gs:
            groups += 1
            visible += shown
            open_ = shown and g.get("expanded") is True
            walk(g.get("groups", []), open_)
            rows += len(g.get("rows", []))
            visible += len(g.get("rows", [])) if open_ else 0

    walk(doc.get("groups", []), 1)
    return groups, rows, visible


def run(c):
    s = Session(c)
    text = CONTACTS.read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    n_groups, n_rows, n_visible = expected_counts(doc)
    file_uri = CONTACTS.as_uri()
    mem_uri = "untitled:contacts.yaml"

    # Lifecycle.
    s.expect_error("visibleRows", {"uri": file_uri}, -32002, "a request before initialize")
    init = s.call("initialize", {"clientInfo": {"name": "test_protocol_schema", "version": "1"},
                                 "capabilities": {"general": {"positionEncodings": ["utf-8", "utf-16"]}}})
    if init is not None:
        s.expect(init["capabilities"]["positionEncoding"] == "utf-8",
                 "initialize picks the client's first supported encoding")
        s.expect(init["serverInfo"]["version"] == "1.2.0", "serverInfo.version is 1.2.0 (sections 9 and 10)")
        s.expect({"itemAtPosition", "revealItem"} <= set(init["capabilities"].get("methods", [])),
                 "capabilities.methods lists the methods of section 9")
    c.notify("initialized", {})
    s.expect_error("initialize", {}, -32600, "a second initialize")
    s.expect_error("noSuchMethod", {}, -32601, "an unknown method")

    # Documents.
    opened = s.call("openOutline", {"uri": file_uri, "workDoneToken": "open-1"},
                    label="openOutline (file: uri, workDoneToken)")
    check_progress(s, c, "open-1")
    if opened is not None:
        s.expect((opened["groupCount"], opened["rowCount"], opened["total"]) == (n_groups, n_rows, n_visible),
                 "openOutline counts the file's groups, rows and visible items",
                 f"got {(opened['groupCount'], opened['rowCount'], opened['total'])}, "
                 f"want {(n_groups, n_rows, n_visible)}")
        s.expect(opened["version"] == 1, "a new outline starts at version 1")
        s.expect(all(d["severity"] == 2 for d in opened["diagnostics"]), "contacts.yaml opens without errors")
    opened = s.call("openOutline", {"uri": mem_uri, "text": text, "policy": "multiple",
                                    "layout": {"width": 60}}, label="openOutline (text)")
    s.expect_error("openOutline", {"uri": "untitled:nothing"}, -32602, "openOutline of a non-file uri without text")
    err = s.expect_error("openOutline", {"uri": "untitled:bad", "text": "groups:\n  - title: A\n    title: B\n"},
                         -32011, "openOutline of text with a duplicate key")
    if err is not None:
        s.expect(err.get("data", {}).get("diagnostics"), "InvalidOutline carries data.diagnostics")
    s.expect_error("openOutline", {"uri": (ROOT / "examples" / "no-such-file.yaml").as_uri()}, -32013,
                   "openOutline of a missing file")
    s.expect_error("visibleRows", {"uri": "untitled:never-opened"}, -32010, "visibleRows of an unknown uri")

    # The visible list.
    first = s.call("visibleRows", {"uri": file_uri, "start": 0, "count": 5}, label="visibleRows (window)")
    check_rows(s, first, 0, "visibleRows (window)")
    if first is not None:
        s.expect(first["total"] >= 5 and len(first["rows"]) == 5, "visibleRows returns count rows",
                 f"{len(first['rows'])} rows of {first['total']}")
    past = s.call("visibleRows", {"uri": file_uri, "start": 10_000}, label="visibleRows (past the end)")
    if past is not None:
        s.expect(past["rows"] == [], "a window past the end is empty")
    view = s.call("visibleRows", {"uri": file_uri, "viewport": {"top": 2, "height": 4}},
                  label="visibleRows (viewport)")
    if view is not None:
        s.expect(view["rows"] and all(r["top"] < 6 and r["top"] + r["height"] > 2 for r in view["rows"]),
                 "viewport rows intersect [top, top+height)", f"{len(view['rows'])} rows")
    everything = s.call("visibleRows", {"uri": file_uri}, label="visibleRows (all)")
    check_rows(s, everything, 0, "visibleRows (all)")

    # Toggles.
    before = visible_ids(s, file_uri, "before toggle by id")
    t = s.call("toggleSection", {"uri": file_uri, "section": "family", "scrollTop": 0},
               label="toggleSection (by id, scrollTop)")
    if t is not None:
        s.expect(t["id"] == "family" and t["expanded"] is True, "toggleSection opens the closed group it names")
        s.expect("scrollTop" in t, "toggleSection with scrollTop returns scrollTop")
        s.expect("family" in t["updatedGroups"], "updatedGroups names the toggled group")
        after = visible_ids(s, file_uri, "after toggle by id")
        check_changes(s, before, t["changes"], after, "toggleSection (by id)")
        s.expect(t["total"] == len(after), "toggleSection total is the new visible length")
    before = visible_ids(s, file_uri, "before toggle by index")
    index = before.index("colleagues") if "colleagues" in before else 0
    t = s.call("toggleSection", {"uri": file_uri, "section": index, "scrollTop": 3, "viewportHeight": 10},
               label="toggleSection (by index, scrollTop)")
    if t is not None:
        s.expect(t["id"] == before[index], "toggleSection by index reports the targeted group's id")
        check_changes(s, before, t["changes"], visible_ids(s, file_uri, "after toggle by index"),
                      "toggleSection (by index)")
    t = s.call("toggleSection", {"uri": file_uri, "section": "colleagues", "expanded": True},
               label="toggleSection (expanded: true on an open group)")
    if t is not None:
        s.expect(t["changes"] == [] and t["expanded"] is True, "setting an open group open changes nothing")
    s.expect_error("toggleSection", {"uri": file_uri, "section": "alice-chen"}, -32012, "toggleSection of a row id")
    s.expect_error("toggleSection", {"uri": file_uri, "section": "no-such-group"}, -32012,
                   "toggleSection of an unknown id")
    s.expect_error("toggleSection", {"uri": file_uri, "section": 100_000}, -32012,
                   "toggleSection of an index out of range")
    s.expect_error("toggleSection", {"uri": file_uri, "section": -1}, -32012, "toggleSection of a negative index")

    before = visible_ids(s, file_uri, "before expandAll")
    t = s.call("expandAll", {"uri": file_uri})
    if t is not None:
        s.expect(t["expanded"] is True, "expandAll answers expanded: true")
        after = visible_ids(s, file_uri, "after expandAll")
        check_changes(s, before, t["changes"], after, "expandAll")
        s.expect(len(after) == n_groups + n_rows, "expandAll shows every group and row")
    before = visible_ids(s, file_uri, "before collapseAll")
    t = s.call("collapseAll", {"uri": file_uri})
    if t is not None:
        s.expect(t["expanded"] is False, "collapseAll answers expanded: false")
        after = visible_ids(s, file_uri, "after collapseAll")
        check_changes(s, before, t["changes"], after, "collapseAll")
        s.expect(len(after) == len(doc["groups"]), "collapseAll leaves the top-level groups")
    t = s.call("expandAll", {"uri": file_uri, "depth": 1}, label="expandAll (depth 1)")

    # Offsets and layout.
    hit = s.call("rowAtOffset", {"uri": file_uri, "y": 0}, label="rowAtOffset (0)")
    if hit is not None:
        s.expect(hit["index"] == 0, "rowAtOffset 0 is the first item")
    last = s.call("rowAtOffset", {"uri": file_uri, "y": 1e9}, label="rowAtOffset (past the end)")
    ids = visible_ids(s, file_uri, "for rowAtOffset")
    if last is not None and ids:
        s.expect(last["index"] == len(ids) - 1, "rowAtOffset past the end is the last item")
    lay = s.call("setLayout", {"uri": file_uri, "width": 40, "unit": "cell", "rowHeight": "auto",
                               "padding": {"top": 0, "bottom": 0, "left": 1, "right": 1}})
    heights = s.call("rowHeights", {"uri": file_uri, "start": 0, "count": 10})
    if heights is not None:
        hs, tops = heights["heights"], heights["tops"]
        s.expect(len(hs) == len(tops) == 10, "rowHeights gives a height and top per item", f"{len(hs)}, {len(tops)}")
        s.expect(all(a + h == b for a, h, b in zip(tops, hs, tops[1:])), "rowHeights: each top is the previous top + height")
        if lay is not None:
            s.expect(heights["contentHeight"] == lay["contentHeight"], "rowHeights agrees with setLayout")
    narrow = s.call("rowHeights", {"uri": file_uri, "width": 20}, label="rowHeights (width)")
    if narrow is not None and heights is not None:
        # contacts.yaml has details longer than 20 cells: they wrap to more lines.
        s.expect(narrow["contentHeight"] > heights["contentHeight"], "a narrower width is taller",
                 f"{narrow['contentHeight']} at width 20, {heights['contentHeight']} at 40")
    font = {"family": ["Noto Sans", "Noto Sans CJK SC", "Noto Color Emoji"], "size": 14}
    in_font = s.call("setLayout", {"uri": file_uri, "unit": "font", "font": font, "lineHeight": 20, "width": 320},
                     label="setLayout (unit font)")
    if in_font is not None:
        s.expect(in_font.get("fonts") == font["family"], "setLayout in unit font reports the families used")
    s.expect_error("setLayout", {"uri": file_uri, "unit": "font", "font": {"size": 14}}, -32602,
                   "setLayout with a font without family")
    lined = s.call("visibleRows", {"uri": file_uri, "start": 0, "count": 5, "include": ["lines"]},
                   label="visibleRows (include lines, unit font)")
    if lined is not None:
        s.expect(lined["rows"] and all(len(r["lines"]["title"]) >= 1 for r in lined["rows"]),
                 "every row carries its title's lines", f"{len(lined['rows'])} rows")
    s.call("setLayout", {"uri": file_uri, "unit": "cell", "lineHeight": 1, "width": 40}, label="setLayout (back to cells)")

    # Changes to the text.
    before = visible_ids(s, file_uri, "before changeOutline")
    new_text = text.replace("      - id: bob-li\n",
                            "      - id: new-friend\n        title: 新朋友\n        active: true\n"
                            "      - id: bob-li\n", 1)
    ch = s.call("changeOutline", {"uri": file_uri, "text": new_text}, label="changeOutline (good)")
    if ch is not None:
        s.expect(ch["applied"] is True, "a good changeOutline is applied")
        check_changes(s, before, ch["changes"], visible_ids(s, file_uri, "after changeOutline"), "changeOutline")
    version = ch["version"] if ch else None
    bad = s.call("changeOutline", {"uri": file_uri, "text": "groups:\n  - title: [unclosed\n"},
                 label="changeOutline (bad)")
    if bad is not None:
        s.expect(bad["applied"] is False, "a bad changeOutline is not applied")
        s.expect(any(d["severity"] == 1 for d in bad["diagnostics"]), "a bad changeOutline reports an error")
        s.expect(version is not None and bad["version"] == version, "a failed write keeps the version",
                 f"{bad.get('version')} after a good change at {version}")

    view_state_session(s, file_uri)
    edits_session(s, mem_uri, text)

    # Closing.
    s.expect(s.call("closeOutline", {"uri": mem_uri}) is None, "closeOutline answers null")
    s.expect_error("visibleRows", {"uri": mem_uri}, -32010, "visibleRows after closeOutline")
    s.call("closeOutline", {"uri": file_uri}, label="closeOutline (file)")

    # Notifications the server sent on the way.
    for n in c.notifications:
        name = f"{n['method']}.params"
        if name in PROTOCOL["$defs"]:
            validate(name, n.get("params"), f"notification {n['method']}")

    s.expect(s.call("shutdown", omit_params=True) is None, "shutdown answers null")
    s.expect_error("visibleRows", {"uri": file_uri}, -32600, "a request after shutdown")
    c.notify("exit")
    status = c.wait(10)
    s.expect(status == 0, "exit after shutdown ends the server with status 0", f"status {status}")


def main():
    if not (os.path.isfile(SERVER) and os.access(SERVER, os.X_OK)):
        print(f"server not found or not executable: {SERVER}", file=sys.stderr)
        print("build it with `swift build`, or set OUTLINE_SERVER", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    state_dir = tempfile.TemporaryDirectory()
    c = Client([SERVER, "--state-dir", state_dir.name])
    try:
        run(c)
    except Exception as e:  # noqa: BLE001 - the session cannot go on
        record(False, "session runs to the end", f"{type(e).__name__}: {e}")
        tail = c.stderr_tail()
        if tail:
            print("server stderr (last lines):\n" + tail, file=sys.stderr)
    finally:
        c.kill()
        state_dir.cleanup()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
