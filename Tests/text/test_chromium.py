#!/usr/bin/env python3
"""Tests the headless Chromium driver (Tests/text/chromium.py) against line
counts computed by hand, so that the font layout cross-check stands on a
browser side that is known to count right.

- hard line breaks: a text with N line feeds between non-empty lines has
  N + 1 lines at every width, in a batch of thousands of texts;
- 1 px width: one grapheme cluster per line (letters, a combining mark,
  an ideograph, a ZWJ family, a flag, a keycap, a skin-tone modifier);
- a monospace font (DejaVu Sans Mono, advance 1233/2048 em, 8.4287 px at
  14 px): n characters without a break take ceil(n / floor(width / advance))
  lines, words move whole, spaces hang, a tab advances to the next multiple
  of 8 spaces;
- what the browser does that a terminal does not: an empty text is 0 lines,
  a trailing line feed adds no line, U+2028 is not a line break;
- the driver itself: a missing browser is a clear error, a page that throws
  or never answers is an error, and the browser is ended in every case.

Prints `N passed, N failed` last; exits non-zero on a failure.
"""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402

MONO = ["DejaVu Sans Mono"]
MONO_ADVANCE = 1233 / 2048 * 14  # px at 14 px

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {what}")


def lines_at(browser, texts, widths, families=None, lines=False):
    return browser.layout(texts, widths, families or chromium.DEFAULT_FAMILIES, 14, 20, lines=lines)


def test_hard_breaks(b):
    texts = []
    want = []
    for i in range(3000):
        n = i % 7
        texts.append("\n".join(f"line {k} of text {i}" for k in range(n + 1)))
        want.append(n + 1)
    laid = lines_at(b, texts, [240, 517])
    for w in (240, 517):
        got = [r["lines"] for r in laid[w]]
        bad = [i for i, (g, e) in enumerate(zip(got, want)) if g != e]
        check(not bad, f"hard breaks at {w} px: texts {bad[:5]} have {[got[i] for i in bad[:5]]} lines")
    laid = lines_at(b, ["a\n\nb", "\nb", "a\n\n\n\nb"], [517], lines=True)[517]
    check([r["lines"] for r in laid] == [3, 2, 5], f"empty lines between breaks: {[r['lines'] for r in laid]}")
    check(laid[0]["text"] == ["a\n", "\n", "b"], f"lines of 'a\\n\\nb': {laid[0]['text']}")


def test_one_cluster_per_line(b):
    clusters = ["a", "W", "e\u0301", "中", "の", "👨\u200d👩\u200d👧", "🇫🇷", "1\ufe0f\u20e3", "👍🏽", "☺\ufe0f", "ก", "م", "ש"]
    laid = lines_at(b, ["".join(clusters)], [1], lines=True)[1][0]
    check(laid["lines"] == len(clusters), f"1 px: {laid['lines']} lines for {len(clusters)} clusters")
    check(laid["text"] == clusters, f"1 px: lines {laid['text']}")


def test_monospace(b):
    (w100,) = b.measure(["x" * 100], MONO, 14, 20)
    check(abs(w100 / 100 - MONO_ADVANCE) < 1e-3, f"DejaVu Sans Mono advance {w100 / 100} px, want {MONO_ADVANCE}")
    cases = []
    for n in (1, 11, 12, 50, 137):
        for width in (43, 100, 200, 517):
            per_line = math.floor(width / MONO_ADVANCE)
            cases.append(("x" * n, width, math.ceil(n / per_line)))
    # Words of 4 with one space: a line holds as many words as fit, spaces hanging.
    for width, want in ((80, 2), (75, 3), (160, 1)):
        # 9 characters fit in 80 px (75.86), not in 75 px; 14 characters fit in 160.
        cases.append(("xxxx xxxx xxxx", width, want))
    cases.append(("x" + " " * 200 + "x", 60, 2))
    cases.append(("x\tx", 80, 1))  # 8 spaces of tab then x: 75.86 px
    cases.append(("x\tx", 70, 2))
    cases.append(("xx\txx\txx", 517, 1))
    for text, width, want in cases:
        got = lines_at(b, [text], [width], MONO)[width][0]["lines"]
        check(got == want, f"DejaVu Sans Mono {text[:20]!r}… at {width} px: {got} lines, want {want}")


def test_browser_specifics(b):
    laid = lines_at(b, ["", "a\n", "a\n\n", "a\u2028b", "hello world"], [517], lines=True)[517]
    got = [r["lines"] for r in laid]
    check(got == [0, 1, 2, 1, 1], f"empty, trailing line feeds, U+2028, one line: {got}")


def test_lines_join(b):
    texts = [
        "The quick brown fox jumps over the lazy dog. " * 5,
        "中文字符和English混合的一行文本，用于测试换行。" * 3,
        "key:\tvalue\tanother\tone with   three spaces",
        "emoji 👨\u200d👩\u200d👧 🇫🇷 1\ufe0f\u20e3 ☺ ☺\ufe0f " * 4,
    ]
    laid = lines_at(b, texts, [120, 317], lines=True)
    for w, results in laid.items():
        for text, r in zip(texts, results):
            check("".join(r["text"]) == text, f"{w} px: lines do not join back to {text[:30]!r}")
            check(len(r["text"]) == r["lines"], f"{w} px: {len(r['text'])} line texts for {r['lines']} lines")


def process_group_gone(pid):
    return not chromium.live_group_members(pid)


def test_driver():
    old = os.environ.get("CHROMIUM")
    os.environ["CHROMIUM"] = "/nonexistent/chromium"
    try:
        chromium.Chromium()
        check(False, "a missing browser starts")
    except chromium.ChromiumError as e:
        check("/nonexistent/chromium" in str(e), f"a missing browser's error names it: {e}")
    finally:
        if old is None:
            del os.environ["CHROMIUM"]
        else:
            os.environ["CHROMIUM"] = old

    b = chromium.Chromium(timeout=2)
    pid = b.proc.pid
    try:
        b.evaluate("new Promise(() => {})")
        check(False, "a page that never answers returns")
    except chromium.ChromiumError as e:
        check("did not answer" in str(e), f"a page that never answers: {e}")
    try:
        b.evaluate("null.x")
        check(False, "a page that throws returns")
    except chromium.ChromiumError as e:
        check("TypeError" in str(e), f"a page that throws: {e}")
    b.close()
    check(process_group_gone(pid), "the browser's processes outlive close()")

    try:
        with chromium.Chromium() as b:
            pid = b.proc.pid
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        pass
    check(process_group_gone(pid), "the browser's processes outlive an interrupted run")


def main():
    try:
        browser = chromium.Chromium()
    except chromium.ChromiumError as e:
        print(f"test_chromium: {e}", file=sys.stderr)
        sys.exit(2)
    with browser:
        print(f"browser: {browser.version['product']}")
        for test in (test_hard_breaks, test_one_cluster_per_line, test_monospace, test_browser_specifics, test_lines_join):
            test(browser)
    test_driver()
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
