"""Lays out texts in headless Chromium and reads back how many lines each took.

The browser is Debian's `chromium` (apt-get install chromium), started
headless with the DevTools protocol on `--remote-debugging-pipe`: commands go
to the browser's fd 3 and replies come from its fd 4, each a JSON message
ended by a NUL byte. No port is opened and no page is fetched: the page is
about:blank and the texts are put into it by script.

Each text becomes a `div lang="en"` styled

    white-space: pre-wrap; overflow-wrap: anywhere;
    font-family: <families>; font-size: <size>px; line-height: <lineHeight>px;
    width: <width>px

and its line count is the div's height divided by the line height (the
browser's height is exactly lines × line-height whatever fonts a line mixes;
a height that is not a whole number of lines is reported as an error).
Thousands of texts go in one page and one script call, laid out once per
width.

`lines=True` also reads each line's text: every grapheme cluster
(Intl.Segmenter) is put in a Range whose widest client rect tells the line it
sits on; a cluster without a box (a newline, a hanging space, a zero-width
character) stays on the line of the cluster before it.

Standard library only. `Chromium` is a context manager; the browser is always
ended with it (Browser.close, then SIGKILL to the process group it was started
in), and killed by the kernel if this process dies first (PR_SET_PDEATHSIG).
"""

import ctypes
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time

PR_SET_PDEATHSIG = 1  # linux/prctl.h
DEFAULT_FAMILIES = ["Noto Sans", "Noto Sans CJK SC", "Noto Color Emoji"]


def live_group_members(pgid):
    """Pids of the processes of group `pgid` that are not zombies (read from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid pgrp ...: comm may hold spaces, so split after its ')'.
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 2 and fields[0] != "Z" and int(fields[2]) == pgid:
            out.append(int(entry))
    return out


class ChromiumError(Exception):
    """The browser is missing, did not start, ended, answered with an error or timed out."""


def find_chromium():
    """The browser binary: $CHROMIUM, else Debian's /usr/lib/chromium/chromium
    (the real binary behind the /usr/bin/chromium launcher, whose defaults
    from /etc/chromium.d are not wanted here), else `chromium` or
    `chromium-browser` on PATH. Raises ChromiumError naming what to install."""
    path = os.environ.get("CHROMIUM")
    if path:
        if not os.access(path, os.X_OK):
            raise ChromiumError(f"CHROMIUM={path} is not an executable file")
        return path
    if os.access("/usr/lib/chromium/chromium", os.X_OK):
        return "/usr/lib/chromium/chromium"
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    raise ChromiumError(
        "chromium is not installed: apt-get install chromium (or scripts/install-deps --tests), "
        "or set CHROMIUM to the browser's path"
    )


# Runs in the page. Arguments: texts, widths, style, wantLines. Returns
# {widths: [{width, heights: [px], lines: [[string]] | null}], userAgent}.
PAGE_SCRIPT = r"""
(function (texts, widths, style, wantLines) {
  document.documentElement.lang = "en";
  document.body.style.margin = "0";
  const sheet = document.createElement("style");
  const family = style.families.map(f => JSON.stringify(f)).join(", ");
  sheet.textContent =
    "div.t { display: block; margin: 0; padding: 0; border: 0; " +
    "white-space: pre-wrap; overflow-wrap: anywhere; " +
    "font-family: " + family + "; font-size: " + style.size + "px; " +
    "font-weight: " + style.weight + "; font-style: " + style.style + "; " +
    "line-height: " + style.lineHeight + "px; }";
  document.head.appendChild(sheet);
  const box = document.createElement("div");
  document.body.appendChild(box);
  const divs = texts.map(t => {
    const d = document.createElement("div");
    d.className = "t";
    d.lang = "en";
    d.textContent = t;
    box.appendChild(d);
    return d;
  });
  const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });
  function linesOf(div, count) {
    const lines = Array.from({ length: count }, () => "");
    const node = div.firstChild;
    if (!node) return lines;
    const top = div.getBoundingClientRect().top;
    const range = document.createRange();
    let line = 0;
    for (const { segment, index } of segmenter.segment(node.data)) {
      range.setStart(node, index);
      range.setEnd(node, index + segment.length);
      // A cluster just after a break may also give an empty rect at the end of
      // the line before: the widest rect is where the cluster is drawn.
      let best = null;
      for (const r of range.getClientRects()) {
        if (r.height > 0 && (best === null || r.width > best.width)) best = r;
      }
      if (best !== null) {
        const at = Math.floor((best.top + best.height / 2 - top) / style.lineHeight);
        line = Math.max(line, Math.min(count - 1, Math.max(0, at)));
      }
      lines[line] += segment;
    }
    return lines;
  }
  const out = [];
  for (const width of widths) {
    box.style.width = width + "px";
    for (const d of divs) d.style.width = width + "px";
    const heights = divs.map(d => d.getBoundingClientRect().height);
    let lines = null;
    if (wantLines) {
      lines = divs.map((d, i) => linesOf(d, Math.round(heights[i] / style.lineHeight)));
    }
    out.push({ width, heights, lines });
  }
  box.remove();
  sheet.remove();
  return { widths: out, userAgent: navigator.userAgent };
})
"""


# Runs in the page. Arguments: strings, style. Returns each string's advance
# (px) laid out on one line (white-space: pre) in the style's fonts.
MEASURE_SCRIPT = r"""
(function (strings, style) {
  const family = style.families.map(f => JSON.stringify(f)).join(", ");
  const box = document.createElement("div");
  box.lang = "en";
  box.style.cssText = "position: absolute; top: 0; left: 0; white-space: pre; " +
    "font-family: " + family + "; font-size: " + style.size + "px; font-weight: " + style.weight +
    "; font-style: " + style.style + "; line-height: " + style.lineHeight + "px;";
  document.body.appendChild(box);
  const widths = strings.map(s => {
    const span = document.createElement("span");
    span.textContent = s;
    box.appendChild(span);
    const w = span.getBoundingClientRect().width;
    span.remove();
    return w;
  });
  box.remove();
  return widths;
})
"""


class Chromium:
    """A headless Chromium spoken to over --remote-debugging-pipe.

    `timeout` bounds each protocol command (seconds). Use as a context
    manager, or call close(); the browser is killed in every case.
    """

    def __init__(self, timeout=120.0, binary=None, extra_args=()):
        self.timeout = timeout
        self.binary = binary or find_chromium()
        self.profile = tempfile.mkdtemp(prefix="outline-chromium-")
        self.stderr = tempfile.TemporaryFile()
        self.next_id = 0
        self.buffer = b""
        self.proc = None
        self.session = None
        # Our ends: we write commands to to_browser, read replies from from_browser.
        cmd_read, cmd_write = os.pipe()
        reply_read, reply_write = os.pipe()
        args = [
            self.binary,
            "--headless",
            "--remote-debugging-pipe",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--disable-features=Translate,MediaRouter,OptimizationHints",
            "--lang=en-US",
            "--mute-audio",
            "--hide-scrollbars",
            f"--user-data-dir={self.profile}",
            *extra_args,
            "about:blank",
        ]

        def child_fds():
            # The browser reads commands on fd 3 and writes replies on fd 4.
            # (Copies first, so that neither end is closed by the other's dup2.)
            a, b = os.dup(cmd_read), os.dup(reply_write)
            os.dup2(a, 3)
            os.dup2(b, 4)
            # The browser is killed when this process dies, whatever kills it.
            if libc is not None:
                libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

        try:
            libc = ctypes.CDLL(None, use_errno=True)
        except OSError:
            libc = None

        try:
            self.proc = subprocess.Popen(
                args,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=self.stderr,
                pass_fds=(3, 4, cmd_read, reply_write),
                preexec_fn=child_fds,
                start_new_session=True,
                env={**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "en"},
            )
        except OSError as e:
            for fd in (cmd_read, cmd_write, reply_read, reply_write):
                os.close(fd)
            self._remove_profile()
            raise ChromiumError(f"{self.binary}: cannot start: {e}") from e
        os.close(cmd_read)
        os.close(reply_write)
        self.to_browser = cmd_write
        self.from_browser = reply_read
        try:
            self.version = self.call("Browser.getVersion")
            target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            self.session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            self.call("Runtime.enable", session=True)
        except BaseException:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _stderr_tail(self):
        try:
            self.stderr.seek(0)
            lines = self.stderr.read().decode("utf-8", "replace").strip().splitlines()
            return "\n".join(lines[-15:])
        except (OSError, ValueError):
            return ""

    def call(self, method, params=None, session=False, timeout=None):
        """Sends one command and waits for its reply; returns its result.
        Raises ChromiumError on a protocol error, the browser's end or the timeout."""
        if self.proc is None or self.proc.poll() is not None:
            raise ChromiumError(f"chromium is not running (during {method}); its last words:\n{self._stderr_tail()}")
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode("utf-8") + b"\0"
        deadline = time.monotonic() + (timeout or self.timeout)
        view = memoryview(data)
        while view:
            self._wait(select_write=True, deadline=deadline, method=method)
            n = os.write(self.to_browser, view[:65536])
            view = view[n:]
        while True:
            end = self.buffer.find(b"\0")
            if end < 0:
                self._wait(select_write=False, deadline=deadline, method=method)
                chunk = os.read(self.from_browser, 1 << 20)
                if not chunk:
                    raise ChromiumError(
                        f"chromium closed the pipe during {method}; its last words:\n{self._stderr_tail()}"
                    )
                self.buffer += chunk
                continue
            raw, self.buffer = self.buffer[:end], self.buffer[end + 1 :]
            reply = json.loads(raw)
            if reply.get("id") != self.next_id:
                continue  # an event, or the reply to an abandoned command
            if "error" in reply:
                raise ChromiumError(f"{method}: {reply['error'].get('message')} ({reply['error'].get('code')})")
            return reply.get("result", {})

    def _wait(self, select_write, deadline, method):
        fd = self.to_browser if select_write else self.from_browser
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ChromiumError(f"chromium did not answer {method} within {self.timeout:g} s")
            if select_write:
                ready = select.select([], [fd], [], min(left, 1.0))[1]
            else:
                ready = select.select([fd], [], [], min(left, 1.0))[0]
            if ready:
                return
            if self.proc.poll() is not None:
                raise ChromiumError(
                    f"chromium ended (exit {self.proc.returncode}) during {method}; "
                    f"its last words:\n{self._stderr_tail()}"
                )

    def evaluate(self, expression, timeout=None):
        """Runs `expression` in the page; returns its value (JSON). Raises
        ChromiumError with the page's exception text when it throws."""
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
            session=True,
            timeout=timeout,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise ChromiumError(f"the page threw: {text}")
        return result["result"].get("value")

    def layout(self, texts, widths, families=None, size=14, line_height=20, weight=400, style="normal", lines=False):
        """Lays out every text at every width (px).

        Returns {width: [result]} with one result per text, in order:
        {"height": px, "lines": count} and, with lines=True, "text": [string]
        (each line's clusters, a line's trailing spaces and newline included).
        Raises ChromiumError when a height is not a whole number of lines.
        - Complexity: one page script per call; the browser lays out
          len(texts) × len(widths) blocks, plus a Range per cluster with lines=True.
        """
        style_arg = self._style(families, size, line_height, weight, style)
        args = ", ".join(json.dumps(a, ensure_ascii=False) for a in (list(texts), list(widths), style_arg, lines))
        value = self.evaluate(f"{PAGE_SCRIPT}({args})", timeout=max(self.timeout, 1e-3 * len(texts) * len(widths)))
        self.user_agent = value["userAgent"]
        out = {}
        for per_width in value["widths"]:
            results = []
            for i, h in enumerate(per_width["heights"]):
                count = round(h / line_height)
                if abs(count * line_height - h) > 1e-3:
                    raise ChromiumError(
                        f"width {per_width['width']}: text {i} is {h} px high, not a whole number of "
                        f"{line_height} px lines: {texts[i][:60]!r}"
                    )
                r = {"height": h, "lines": count}
                if per_width["lines"] is not None:
                    r["text"] = per_width["lines"][i]
                results.append(r)
            out[per_width["width"]] = results
        return out

    @staticmethod
    def _style(families, size, line_height, weight, style):
        return {
            "families": list(families or DEFAULT_FAMILIES),
            "size": size,
            "lineHeight": line_height,
            "weight": weight,
            "style": style,
        }

    def measure(self, strings, families=None, size=14, line_height=20, weight=400, style="normal"):
        """Each string's width (px) on one unbroken line in the given fonts (for diagnostics)."""
        style_arg = self._style(families, size, line_height, weight, style)
        args = ", ".join(json.dumps(a, ensure_ascii=False) for a in (list(strings), style_arg))
        return self.evaluate(f"{MEASURE_SCRIPT}({args})")

    def close(self):
        """Ends the browser (Browser.close, then SIGKILL to its process group) and removes its profile."""
        proc, self.proc = self.proc, None
        if proc is not None:
            if proc.poll() is None:
                try:
                    self.proc = proc
                    self.call("Browser.close", timeout=5)
                except (ChromiumError, OSError, ValueError):
                    pass
                finally:
                    self.proc = None
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    pass
            # The renderer, GPU and zygote processes share the browser's process group
            # (started in a session of its own): kill what is left of it, and wait for it to go.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                pass
            deadline = time.monotonic() + 10
            while live_group_members(proc.pid) and time.monotonic() < deadline:
                time.sleep(0.05)
        for fd in ("to_browser", "from_browser"):
            if getattr(self, fd, None) is not None:
                try:
                    os.close(getattr(self, fd))
                except OSError:
                    pass
                setattr(self, fd, None)
        self._remove_profile()

    def _remove_profile(self):
        shutil.rmtree(self.profile, ignore_errors=True)
