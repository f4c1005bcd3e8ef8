#!/usr/bin/env python3
"""Tests the web host in headless Chromium, against the real server.

    OUTLINE_SERVER=... python3 test_web_host.py [-v]
    WEB_HOST_SCREENSHOT=screenshot.png python3 test_web_host.py   # also saves the README's picture

The page is loaded through bridge.py (started here on a free port, with the
Debian package outline and examples/contacts.yaml) in Debian's chromium,
driven by Tests/text/chromium.py over --remote-debugging-pipe. What is
checked, each time the page has settled (what it shows is what the server
said for its scroll position and width):

- the page drew exactly the rows the server has in the viewport and its
  margin, and for each the DOM's height (getBoundingClientRect) is the
  server's `height` and its offset in the list the server's `top`; the list
  is the server's `contentHeight` high;
- the page measured no text: before its scripts run, the DOM's geometry
  calls (getBoundingClientRect, offsetHeight, clientHeight, Range rects,
  measureText, getComputedStyle, ResizeObserver, IntersectionObserver, ...)
  are wrapped, and any use on an element other than the list itself fails
  the test;
- after "Expand all" and a scroll to the very end, the outline's last row
  is drawn at the bottom of the viewport;
- a click on a header collapses its group: the header stays put and the rows
  below move up by exactly what the server says the group took; Enter
  opens it again and every row is back where it was;
- a narrower window: the server lays out again (setLayout width), the row
  at the top stays at the top, and the checks above hold at the new width.

Two controls show the checks can fail: a stylesheet that makes the browser's
lines 1 px taller than the server's is caught, and so is a measuring call.

The Debian outline is examples/generated/debian-packages.yaml, made by
scripts/make-examples when missing; without apt lists it cannot be made and
its test is skipped with the reason printed.
"""

import base64
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "Tests" / "text"))
import chromium  # noqa: E402

CONTACTS = ROOT / "examples" / "contacts.yaml"
DEBIAN = ROOT / "examples" / "generated" / "debian-packages.yaml"
WAIT = 60.0  # s: the longest any condition is waited for
SAMPLES = 20  # screens of the Debian outline checked at one width, top to end
# Chromium lays out in units of 1/64 px and tests a line's fit on widths cut
# to that unit: a line it fits may measure up to 1/64 px past its box.
LAYOUT_UNIT = 1 / 64

# Runs before the page's own scripts: every way a page could measure laid-out
# text is wrapped, and a use on anything but the list (#scroller) or the root
# element (for the stylesheet's custom properties) is recorded in
# window.__violations. The test's own measuring sets window.__measuring.
TRAP = r"""
(() => {
  const violations = [];
  window.__violations = violations;
  window.__measuring = false;
  const describe = (el) => !el || el.nodeType !== 1 ? String(el) :
    el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className ? "." + String(el.className).trim().split(/\s+/).join(".") : "");
  const allowed = (el) => el === document.documentElement || (el && el.nodeType === 1 && el.id === "scroller");
  const note = (api, el) => {
    if (!window.__measuring && !allowed(el)) violations.push(api + " on " + describe(el));
  };
  const method = (proto, name, label) => {
    const orig = proto[name];
    proto[name] = function (...args) { note(label, this); return orig.apply(this, args); };
  };
  const getter = (proto, name) => {
    const d = Object.getOwnPropertyDescriptor(proto, name);
    Object.defineProperty(proto, name, { ...d, get() { note(name, this); return d.get.call(this); } });
  };
  method(Element.prototype, "getBoundingClientRect", "getBoundingClientRect");
  method(Element.prototype, "getClientRects", "getClientRects");
  method(Element.prototype, "computedStyleMap", "computedStyleMap");
  for (const name of ["offsetWidth", "offsetHeight", "offsetTop", "offsetLeft"]) getter(HTMLElement.prototype, name);
  for (const name of ["clientWidth", "clientHeight", "scrollWidth", "scrollHeight"]) getter(Element.prototype, name);
  for (const name of ["getBoundingClientRect", "getClientRects"]) {
    const orig = Range.prototype[name];
    Range.prototype[name] = function (...args) { note("Range." + name, null); return orig.apply(this, args); };
  }
  for (const proto of [CanvasRenderingContext2D.prototype, OffscreenCanvasRenderingContext2D.prototype]) {
    const orig = proto.measureText;
    proto.measureText = function (...args) { note("measureText", null); return orig.apply(this, args); };
  }
  const computed = window.getComputedStyle;
  window.getComputedStyle = function (el, ...args) { note("getComputedStyle", el); return computed.call(this, el, ...args); };
  const resize = ResizeObserver.prototype.observe;
  ResizeObserver.prototype.observe = function (el, ...args) { note("ResizeObserver", el); return resize.call(this, el, ...args); };
  const intersect = IntersectionObserver.prototype.observe;
  IntersectionObserver.prototype.observe = function (el, ...args) { note("IntersectionObserver", el); return intersect.call(this, el, ...args); };
})();
"""

# What the page shows, measured by the DOM: the list's scroll position and
# size, and for every drawn item its offset in the list and its height.
GEOMETRY = r"""
(() => {
  window.__measuring = true;
  try {
    const s = document.getElementById("scroller");
    const c = document.getElementById("content");
    const sr = s.getBoundingClientRect();
    const cr = c.getBoundingClientRect();
    return {
      scrollTop: s.scrollTop, clientHeight: s.clientHeight, clientWidth: s.clientWidth,
      contentHeight: cr.height, contentWidth: cr.width, scrollHeight: s.scrollHeight,
      uri: outlinePage.state.uri, layoutWidth: outlinePage.state.layoutWidth,
      items: [...c.children].map(el => {
        const r = el.getBoundingClientRect();
        return {id: el.dataset.id, kind: el.classList.contains("group") ? "group" : "row",
                expanded: el.getAttribute("aria-expanded"),
                top: r.top - cr.top, height: r.height, width: r.width, viewY: r.top - sr.top - s.clientTop,
                x: r.left + 40, y: r.top + Math.min(r.height, 20) / 2};
      }),
      violations: window.__violations.slice(),
      errors: outlinePage.state.errors.slice(),
    };
  } finally {
    window.__measuring = false;
  }
})()
"""


# ?render=lines: for every drawn row, its line blocks' texts and how far the
# widest one reaches past the row's text box (px; <= 0 when all fit).
LINES = r"""
(() => {
  window.__measuring = true;
  try {
    return [...document.querySelectorAll("#content .row")].map(el => {
      const right = el.getBoundingClientRect().right - parseFloat(getComputedStyle(el).paddingRight);
      let over = -1e9;
      const range = document.createRange();
      for (const line of el.querySelectorAll(".line")) {
        range.selectNodeContents(line);
        if (line.firstChild) over = Math.max(over, range.getBoundingClientRect().right - right);
      }
      return [el.dataset.id, [...el.querySelectorAll(".line")].map(l => l.textContent), over];
    });
  } finally {
    window.__measuring = false;
  }
})()
"""


def expanded(item_id):
    """A page expression: the aria-expanded of the drawn item `item_id`."""
    return (f"[...document.querySelectorAll('#content .item')].find(e => e.dataset.id === {json.dumps(item_id)})"
            "?.getAttribute('aria-expanded')")


def make_debian_outline(tmp):
    """The Debian package outline's path, or (None, reason) when it cannot be made."""
    if DEBIAN.exists():
        return DEBIAN, None
    out = pathlib.Path(tmp) / "debian-packages.yaml"
    made = subprocess.run([str(ROOT / "scripts" / "make-examples"), "--source", "apt", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    if made.returncode != 0:
        return None, f"no Debian package outline: {made.stderr.strip() or 'scripts/make-examples failed'}"
    return out, None


class WebHostTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="web-host-test-")
        cls.debian, cls.debian_missing = make_debian_outline(cls.tmp.name)
        files = [str(CONTACTS)] + ([str(cls.debian)] if cls.debian else [])
        # View state the server saves for file: outlines goes to a folder of the test's own.
        env = {**os.environ, "XDG_STATE_HOME": cls.tmp.name}
        cls.bridge = subprocess.Popen([sys.executable, str(HERE / "bridge.py"), "--port", "0", *files],
                                      stdout=subprocess.PIPE, env=env, text=True)
        line = cls.bridge.stdout.readline()
        if not line.startswith("serving "):
            cls.tearDownClass()
            raise RuntimeError(f"bridge.py did not start (exit {cls.bridge.wait()})")
        cls.url = line.split()[1]
        try:
            cls.browser = chromium.Chromium(timeout=WAIT)
        except BaseException:
            cls.browser = None
            cls.tearDownClass()
            raise
        cls.browser.call("Page.enable", session=True)
        cls.browser.call("Page.addScriptToEvaluateOnNewDocument", {"source": TRAP}, session=True)

    @classmethod
    def tearDownClass(cls):
        if getattr(cls, "browser", None):
            cls.browser.close()
        cls.bridge.terminate()
        try:
            cls.bridge.wait(10)
        except subprocess.TimeoutExpired:
            cls.bridge.kill()
            cls.bridge.wait()
        cls.bridge.stdout.close()
        cls.tmp.cleanup()

    # ------------------------------------------------------------ the browser

    def call(self, method, params=None):
        return self.browser.call(method, params, session=True)

    def js(self, expression):
        return self.browser.evaluate(expression)

    def wait_for(self, expression, what):
        """Waits until `expression` is true in the page (the page may be loading)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                if self.js(expression):
                    return
            except chromium.ChromiumError as e:
                if "page threw" in str(e):
                    raise
            time.sleep(0.02)
        errors = self.js("window.outlinePage ? outlinePage.state.errors : 'no page'")
        self.fail(f"waited {WAIT:g} s for {what}; page errors: {errors}")

    def settle(self):
        """Waits until the page shows what the server said for its scroll
        position and its width; returns the geometry."""
        self.wait_for(
            "window.outlinePage && outlinePage.state.uri && outlinePage.settled() && "
            "outlinePage.state.width === document.getElementById('scroller').clientWidth",
            "the page to settle",
        )
        return self.js(GEOMETRY)

    def viewport(self, width, height):
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def load(self, name, width=800, height=600, render=None):
        self.viewport(width, height)
        query = f"?outline={name}" + (f"&render={render}" if render else "")
        self.call("Page.navigate", {"url": self.url + query})
        self.wait_for(f"location.search === {json.dumps(query)} && document.readyState === 'complete'",
                      "the page to load")
        return self.settle()

    def click(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def press(self, key, code, key_code):
        self.call("Input.dispatchKeyEvent", {"type": "rawKeyDown", "key": key, "code": code,
                                             "windowsVirtualKeyCode": key_code})
        self.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code,
                                             "windowsVirtualKeyCode": key_code})

    def scroll_to(self, y):
        self.js(f"document.getElementById('scroller').scrollTop = {y}")
        return self.settle()

    # ------------------------------------------------------------ the server

    def rpc(self, method, params):
        """A request of the test's own to the page's server, through the bridge."""
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()
        request = urllib.request.Request(self.url + "rpc", body, {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            message = json.load(response)
        self.assertNotIn("error", message, f"{method}: {message.get('error')}")
        return message["result"]

    # ------------------------------------------------------------ the checks

    def check_rows(self, g):
        """The DOM shows exactly the server's rows for the viewport and the
        page's margin, each at the server's top and of the server's height."""
        self.assertFalse(g["violations"], f"the page measured laid-out content itself: {g['violations'][:5]}")
        self.assertEqual(g["errors"], [], "the page reported errors")
        self.assertEqual(g["layoutWidth"], g["clientWidth"], "the server laid out at the list's width")
        margin = self.js("outlinePage.margin")
        top = max(0, g["scrollTop"] - margin)
        server = self.rpc("visibleRows", {"uri": g["uri"], "viewport": {
            "top": top, "height": g["scrollTop"] + g["clientHeight"] + margin - top}, "include": ["lines"]})
        self.assertEqual(g["contentHeight"], server["contentHeight"], "the list is contentHeight high")
        drawn = {item["id"]: item for item in g["items"]}
        self.assertEqual(sorted(drawn), sorted(r["id"] for r in server["rows"]),
                         "the rows drawn are the server's rows for the viewport")
        bad = []
        for row in server["rows"]:
            item = drawn[row["id"]]
            if item["height"] != row["height"] or item["top"] != row["top"]:
                bad.append(f"{row['id']!r} at depth {row['depth']}: DOM top {item['top']} height {item['height']}, "
                           f"server top {row['top']} height {row['height']} ({row['title']!r} / {row.get('detail')!r})")
            self.assertEqual(item["width"], g["clientWidth"], f"{row['id']!r} spans the list")
        self.assertFalse(bad, f"{len(bad)} of {len(server['rows'])} rows disagree with the server "
                              f"at width {g['layoutWidth']}:\n" + "\n".join(bad[:10]))
        self.assertTrue(server["rows"], "something is shown")
        return server

    def top_item(self, g):
        """The drawn item at the top edge of the viewport."""
        return next(i for i in g["items"] if i["viewY"] <= 0 < i["viewY"] + i["height"])

    def check_collapse_and_reopen(self, g):
        """Collapses, with a click, an open group whose rows are all on screen,
        and opens it again with Enter."""
        server = self.check_rows(g)
        rows = server["rows"]
        view_end = g["scrollTop"] + g["clientHeight"]
        for i, row in enumerate(rows):
            if row["kind"] != "group" or not row["expanded"] or row["top"] < g["scrollTop"]:
                continue
            after = next((j for j in range(i + 1, len(rows)) if rows[j]["depth"] <= row["depth"]), None)
            if after is not None and rows[after]["top"] + rows[after]["height"] <= view_end:
                break
        else:
            self.fail("no open group with its rows and the item after them on screen")
        header, first_after = row, rows[after]
        removed = first_after["top"] - (header["top"] + header["height"])
        before = {item["id"]: item for item in g["items"]}
        self.click(before[header["id"]]["x"], before[header["id"]]["y"])
        self.wait_for(f"{expanded(header['id'])} === 'false'", f"{header['id']} to collapse")
        g2 = self.settle()
        self.check_rows(g2)
        now = {item["id"]: item for item in g2["items"]}
        self.assertEqual(g2["scrollTop"], g["scrollTop"], "a collapse below the top does not scroll")
        self.assertEqual(now[header["id"]]["viewY"], before[header["id"]]["viewY"], "the header stays put")
        moved = [(i, now[i]["viewY"] - before[i]["viewY"]) for i in before if i in now]
        above = [m for i, m in moved if before[i]["top"] <= header["top"]]
        below = [m for i, m in moved if before[i]["top"] >= first_after["top"]]
        self.assertTrue(below, "rows below the group are still drawn")
        self.assertEqual(set(above), {0}, "rows above the group do not move")
        self.assertEqual(set(below), {-removed}, f"rows below move up by the group's {removed} px")
        self.assertEqual(g2["contentHeight"], g["contentHeight"] - removed)
        # Enter on the focused header opens it again: every row is back.
        self.press("Enter", "Enter", 13)
        self.wait_for(f"{expanded(header['id'])} === 'true'", f"{header['id']} to open again")
        g3 = self.settle()
        self.check_rows(g3)
        self.assertEqual({i["id"]: (i["top"], i["viewY"], i["height"]) for i in g3["items"]},
                         {i["id"]: (i["top"], i["viewY"], i["height"]) for i in g["items"]})
        return g3

    def scroll_to_small_group(self, g):
        """Scrolls a little above the next open group, from the top of the
        viewport on, whose rows all fit in half the viewport."""
        at = self.rpc("rowAtOffset", {"uri": g["uri"], "y": g["scrollTop"]})
        rows = self.rpc("visibleRows", {"uri": g["uri"], "start": at["index"], "count": 5000})["rows"]
        for i, row in enumerate(rows):
            end = next((r for r in rows[i + 1:] if r["depth"] <= row["depth"]), None)
            if row["kind"] == "group" and row["expanded"] and end and end["top"] - row["top"] < g["clientHeight"] / 2:
                return self.scroll_to(row["top"] - 40)
        self.fail(f"no small open group in the 5,000 items after {at['id']!r}")

    def expand_all(self):
        self.js("document.getElementById('expand-all').click()")
        self.wait_for("[...document.querySelectorAll('#content .group')]"
                      ".every(e => e.getAttribute('aria-expanded') === 'true')", "every group to open")
        return self.settle()

    def check_end(self):
        """Scrolls to the very end: the last row is drawn at the bottom."""
        g = self.scroll_to(10**9)
        server = self.check_rows(g)
        total = server["total"]
        [last] = self.rpc("visibleRows", {"uri": g["uri"], "start": total - 1, "count": 1})["rows"]
        drawn = {item["id"]: item for item in g["items"]}
        self.assertIn(last["id"], drawn, "the last row is drawn")
        self.assertEqual(g["scrollTop"], g["contentHeight"] - g["clientHeight"], "scrolled to the end")
        self.assertEqual(drawn[last["id"]]["viewY"] + drawn[last["id"]]["height"], g["clientHeight"],
                         "the last row ends at the bottom of the viewport")
        self.assertEqual(last["top"] + last["height"], server["contentHeight"])
        return g

    def check_resize(self, g, width, height):
        """A new width: laid out again, the top row stays at the top."""
        top = self.top_item(g)
        self.viewport(width, height)
        self.wait_for(f"outlinePage.state.layoutWidth !== {g['layoutWidth']}", f"a layout for a {width} px window")
        g2 = self.settle()
        self.check_rows(g2)
        self.assertEqual(self.top_item(g2)["id"], top["id"], "the row at the top stays at the top")
        return g2

    # ------------------------------------------------------------ the tests

    def test_contacts(self):
        g = self.load("contacts.yaml", 800, 600)
        self.check_rows(g)
        g = self.check_collapse_and_reopen(g)
        g = self.expand_all()
        self.check_rows(g)
        g = self.check_resize(g, 360, 600)
        heights = {i["id"]: i["height"] for i in g["items"]}
        self.assertGreaterEqual(max(heights.values()), 3 * 20 + 6, "at 360 px some contact takes three lines")
        self.check_end()
        if os.environ.get("WEB_HOST_SCREENSHOT"):
            self.load("contacts.yaml", 440, 720)
            self.check_rows(self.expand_all())
            shot = self.call("Page.captureScreenshot", {"format": "png"})
            pathlib.Path(os.environ["WEB_HOST_SCREENSHOT"]).write_bytes(base64.b64decode(shot["data"]))

    def test_debian_packages(self):
        if self.debian is None:
            print(f"\nskipped: {self.debian_missing}", file=sys.stderr)
            self.skipTest(self.debian_missing)
        g = self.load(self.debian.name, 800, 600)
        self.check_rows(g)
        g = self.expand_all()
        self.check_rows(g)
        g = self.check_collapse_and_reopen(g)
        # Somewhere in the middle, then a narrower window: descriptions wrap.
        g = self.scroll_to(g["contentHeight"] // 2 + 7)
        self.check_rows(g)
        g = self.check_resize(g, 420, 600)
        g = self.check_collapse_and_reopen(self.scroll_to_small_group(g))
        # A sample of the whole outline at this width: screens spread evenly
        # from the top to the end, every row on them checked.
        self.viewport(420, 1400)
        g = self.settle()
        checked = 0
        for k in range(SAMPLES):
            g = self.scroll_to(k * (g["contentHeight"] - g["clientHeight"]) // (SAMPLES - 1))
            checked += len(self.check_rows(g)["rows"])
        self.assertGreater(checked, 500)
        self.check_end()

    def test_keyboard(self):
        """Keys move the focus as the server's navigate says, and the list
        scrolls to show the focused item whole."""
        g = self.load("contacts.yaml", 800, 300)
        g = self.expand_all()
        first = g["items"][0]
        self.click(first["x"], first["y"])
        self.wait_for(f"outlinePage.state.focus === {json.dumps(first['id'])}", "the focus on the first item")

        def focus_after(key, code, key_code):
            before = self.js("outlinePage.state.focus")
            self.press(key, code, key_code)
            self.wait_for(f"outlinePage.state.focus !== {json.dumps(before)}", f"{key} to move the focus")
            g = self.settle()
            self.check_rows(g)
            focus = self.js("outlinePage.state.focus")
            item = next(i for i in g["items"] if i["id"] == focus)
            self.assertGreaterEqual(item["viewY"], 0, f"after {key} the focused item is in view")
            self.assertLessEqual(item["viewY"] + item["height"], g["clientHeight"], f"after {key} it is whole")
            self.assertEqual(self.js("document.getElementById('scroller').getAttribute('aria-activedescendant')"),
                             self.js("document.querySelector('#content .focused').id"))
            return focus, item, g

        uri = g["uri"]
        focus, _, _ = focus_after("ArrowDown", "ArrowDown", 40)
        self.assertEqual(focus, self.rpc("visibleRows", {"uri": uri, "start": 1, "count": 1})["rows"][0]["id"])
        focus, _, g = focus_after("End", "End", 35)
        total = self.rpc("visibleRows", {"uri": uri, "count": 0})["total"]
        self.assertEqual(focus, self.rpc("visibleRows", {"uri": uri, "start": total - 1, "count": 1})["rows"][0]["id"])
        self.assertEqual(g["scrollTop"], g["contentHeight"] - g["clientHeight"])
        focus, item, g = focus_after("PageUp", "PageUp", 33)
        [row] = self.rpc("visibleRows", {"uri": uri, "start": total - 1, "count": 1})["rows"]
        at = self.rpc("rowAtOffset", {"uri": uri, "y": row["top"] - g["clientHeight"]})
        self.assertEqual(focus, at["id"], "PageUp: the item a viewport's height above")
        focus, _, g = focus_after("Home", "Home", 36)
        self.assertEqual(g["scrollTop"], 0)

    def test_contacts_lines(self):
        """?render=lines: each row drawn as the server's lines, and none of
        them wider than the row's text box."""
        g = self.load("contacts.yaml", 800, 600, render="lines")
        self.check_rows(g)
        g = self.expand_all()
        for width in (800, 360, 250):
            if width != 800:
                g = self.check_resize(g, width, 600)
            server = {r["id"]: r for r in self.check_rows(g)["rows"]}
            lines = self.js(LINES)
            self.assertTrue(lines)
            for row_id, texts, overflow in lines:
                row = server[row_id]
                self.assertEqual(texts, row["lines"]["title"] + row["lines"].get("detail", []), row_id)
                self.assertLessEqual(overflow, LAYOUT_UNIT,
                                     f"{row_id!r}: a line is wider than the row at {g['layoutWidth']} px")

    def test_controls(self):
        """The checks can fail: a 1 px disagreement and a measuring call are caught."""
        g = self.load("contacts.yaml", 800, 600)
        self.check_rows(g)
        self.js("document.head.insertAdjacentHTML('beforeend', "
                "'<style id=\"skew\">.row .detail { line-height: 21px }</style>')")
        with self.assertRaisesRegex(AssertionError, "rows disagree with the server"):
            self.check_rows(self.js(GEOMETRY))
        self.js("document.getElementById('skew').remove()")
        self.check_rows(self.js(GEOMETRY))
        self.js("document.querySelector('#content .row .title').offsetHeight")
        with self.assertRaisesRegex(AssertionError, "the page measured"):
            self.check_rows(self.js(GEOMETRY))
        self.js("window.__violations.length = 0")


if __name__ == "__main__":
    unittest.main()
