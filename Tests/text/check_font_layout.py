#!/usr/bin/env python3
"""Cross-checks the server's line counts in unit `font` (PROTOCOL §10) against
headless Chromium, on real text.

Both lay out the same texts in the same fonts (Noto Sans, Noto Sans CJK SC,
Noto Color Emoji at 14 px, line height 20 px) at widths 120, 173, 240, 317,
400 and 517 px. Chromium draws each text in a div styled `white-space:
pre-wrap; overflow-wrap: anywhere` (Tests/text/chromium.py); the server
counts it as the title of a row (indent 0, padding 0) and answers
rowHeights, and `visibleRows` with `include: ["lines"]` for its lines.

Corpus (Tests/text/font_corpus.py): Debian package descriptions in English,
Chinese and Japanese, and the hand-written mixed scripts of font-mixed.txt.
- default: the fixed slice in font-slice.jsonl (a few hundred texts; what
  scripts/test runs);
- `--full`: the whole corpus (scripts/check-font-layout runs it; `--fetch`
  downloads apt's translation lists first when the machine lacks them);
- `--cases FILE`: texts each at its own width (font-cases.txt: where the two
  were found to differ), line breaks compared.
The slice run also checks font-regressions.txt, cases (as in --cases) that
once differed and agree now.

Prints agreement per width and language, then every disagreement with the
text, both line breakings, and a guessed cause; `N passed, N failed` last
(one per text and width, on line counts); exits non-zero on a failure.
Texts whose counts agree but whose lines break elsewhere are listed as well
(they do not fail: a row's height depends on the count alone).

The server's lines come from `visibleRows` with `include: ["lines"]`
(PROTOCOL §9) where the server has it, else from `outline-server render FILE
--font … --size … --width …`.

While the server does not offer unit `font` (initialize's
capabilities.units), only the browser side is checked: each text's lines, as
read from the browser, join back to the text and number its height ÷ line
height.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chromium  # noqa: E402
import font_corpus  # noqa: E402
import server  # noqa: E402

WIDTHS = [120, 173, 240, 317, 400, 517]
FAMILIES = ["Noto Sans", "Noto Sans CJK SC", "Noto Color Emoji"]
SIZE = 14
LINE_HEIGHT = 20
LANGS = ["en", "zh", "ja", "mixed"]
SLICE_PACKAGES = 60  # per Debian language, in the committed slice
REGRESSIONS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "font-regressions.txt")


# ---------------------------------------------------------------- the server side


class ServerUnavailable(Exception):
    pass


class ServerFontLayout:
    """The texts as rows of one outline, laid out by the server in unit font."""

    def __init__(self, texts, families=FAMILIES, size=SIZE, line_height=LINE_HEIGHT):
        self.server = server.Server()
        units = self.server.units()
        if "font" not in units:
            self.server.close()
            raise ServerUnavailable(f'the server offers no unit "font" (capabilities.units = {units})')
        self.line_height = line_height
        self.families = list(families)
        self.size = size
        self.texts = texts
        self.uri = "mem:font-cross-check"
        self.count = len(texts)
        self.render_file = None
        layout = {
            "unit": "font",
            "font": {"family": list(families), "size": size},
            "lineHeight": line_height,
            "headerHeight": line_height,
            "rowHeight": "auto",
            "indent": 0,
            "width": WIDTHS[0],
        }
        rows = [(t, None) for t in texts]
        self.server.call("openOutline", {"uri": self.uri, "text": server.outline_yaml(rows), "layout": layout})
        self.fonts = self.server.call("setLayout", {"uri": self.uri, **layout}).get("fonts")

    def counts(self, width):
        """Line counts of every text at `width` px (the row heights ÷ line height)."""
        heights = []
        start = 1  # index 0 is the group's header
        while start <= self.count:
            params = {"uri": self.uri, "start": start, "count": 10000}
            if start == 1:
                params["width"] = width
            got = self.server.call("rowHeights", params)["heights"]
            if not got:
                break
            heights.extend(got)
            start += len(got)
        return [h / self.line_height for h in heights]

    def lines(self, width, indices=None):
        """{index: [line]} as the server broke each text at `width` (the last counts' width):
        from `visibleRows` with `include: ["lines"]` (PROTOCOL §9), else from `render --font`."""
        wanted = set(range(self.count)) if indices is None else set(indices)
        out = {}
        start = 1
        while start <= self.count and len(out) < len(wanted):
            rows = self.server.call(
                "visibleRows", {"uri": self.uri, "start": start, "count": 10000, "include": ["lines"]}
            )["rows"]
            if not rows:
                break
            if any("lines" not in row for row in rows[1 if start == 1 else 0 :]):
                return self.rendered_lines(width, wanted)
            for row in rows:
                i = row["index"] - 1
                if i in wanted:
                    out[i] = row["lines"]["title"]
            start += len(rows)
        return out

    def rendered_lines(self, width, wanted):
        """{index: [line]} from `outline-server render FILE --font … --width W`, which prints
        `ID<TAB>title<TAB>line` for each line (tabs expanded, spaces at a break dropped)."""
        if self.render_file is None:
            fd, self.render_file = tempfile.mkstemp(prefix="font-cross-check-", suffix=".yaml")
            body = ["layout:", "  indent: 0", f"  lineHeight: {self.line_height:g}", f"  headerHeight: {self.line_height:g}"]
            body += ["groups:", "  - title: G", "    id: g", "    expanded: true", "    rows:"]
            for i, text in enumerate(self.texts):
                body.append(f"      - id: t{i}")
                body.append(f"        title: {server.yaml_quote(text)}")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write("\n".join(body) + "\n")
        done = subprocess.run(
            [
                server.server_path(), "render", self.render_file, "--font", ",".join(self.families),
                "--size", f"{self.size:g}", "--width", f"{width:g}",
            ],
            capture_output=True,
        )
        if done.returncode != 0:
            raise SystemExit(f"render --font --width {width}: exit {done.returncode}: {done.stderr.decode()[-500:]}")
        out = {i: [] for i in wanted}
        for line in done.stdout.decode("utf-8").split("\n"):
            ident, _, rest = line.partition("\t")
            field, _, text = rest.partition("\t")
            if ident.startswith("t") and field == "title":
                i = int(ident[1:])
                if i in out:
                    out[i].append(text)
        return out

    def close(self):
        self.server.close()
        if self.render_file is not None:
            os.unlink(self.render_file)


# ---------------------------------------------------------------- causes


def in_ranges(cp, ranges):
    return any(lo <= cp <= hi for lo, hi in ranges)


CJK_PUNCT = set("、。，．：；？！（）「」『』【】〔〕《》〈〉“”‘’・…—～〜｛｝［］｟｠〘〙〚〛")
CJK_PUNCT |= {chr(c) for c in range(0xFF01, 0xFF10)} | {chr(c) for c in range(0xFF1A, 0xFF21)}
SMALL_KANA = set("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿーｧｨｩｪｫｬｭｮｯｰ々ゝゞヽヾ")
EMOJI = [(0x1F000, 0x1FAFF), (0x2600, 0x27BF), (0xFE0F, 0xFE0F), (0x20E3, 0x20E3), (0x200D, 0x200D), (0xE0020, 0xE007F)]
SCRIPTS = {
    "Arabic": [(0x0600, 0x06FF), (0x0750, 0x077F), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)],
    "Hebrew": [(0x0590, 0x05FF), (0xFB1D, 0xFB4F)],
    "Thai": [(0x0E00, 0x0E7F)],
    "Devanagari": [(0x0900, 0x097F)],
    "Bengali": [(0x0980, 0x09FF)],
    "Tamil": [(0x0B80, 0x0BFF)],
    "Gujarati": [(0x0A80, 0x0AFF)],
    "Hangul": [(0x1100, 0x11FF), (0xAC00, 0xD7AF)],
}


# What hangs at the end of a pre-wrap line (CSS Text 3 §4.1.3: spaces, tabs and
# other space separators), and line ends: the server's lines leave them out at a break.
HANGING = set(" \t\r\n\u1680\u205f\u3000") | {chr(c) for c in range(0x2000, 0x200B)}


def signature(line):
    """A line's text without what may hang at a break: equal signatures, equal breaks."""
    return "".join(ch for ch in line if ch not in HANGING)


def unhung(line):
    """The line without what hangs at its end (tabs as spaces), as it is measured to fit."""
    end = len(line)
    while end > 0 and line[end - 1] in HANGING:
        end -= 1
    return line[:end].replace("\t", " ")


def first_difference(a, b):
    sa, sb = [signature(x) for x in a], [signature(x) for x in b]
    for k in range(max(len(sa), len(sb))):
        if k >= len(sa) or k >= len(sb) or sa[k] != sb[k]:
            return k
    return None


def guess_cause(text, width, browser_lines, server_lines, measure):
    """A short guess at why the server's lines differ from the browser's.
    `measure(strings)` gives widths in px as the browser measures them."""
    tags = []
    if text.endswith("\n"):
        tags.append("a trailing line feed (the browser draws no empty last line)")
    if "\u2028" in text or "\u2029" in text:
        tags.append("U+2028/U+2029 (no line break in the browser's pre-wrap)")
    if "\r" in text.replace("\r\n", ""):
        tags.append("a lone CR")
    k = first_difference(browser_lines, server_lines)
    if k is None:
        return "; ".join(tags) or "the lines have the same text (spaces differ)"
    b = browser_lines[k] if k < len(browser_lines) else ""
    s = server_lines[k] if k < len(server_lines) else ""
    b_sig, s_sig = signature(b), signature(s)
    b_next = browser_lines[k + 1] if k + 1 < len(browser_lines) else ""
    around = b[-6:] + s[-6:] + b_next[:3]
    if len(s_sig) > len(b_sig):
        (ws,) = measure([unhung(s)])
        if ws > width:
            tags.append(
                f"line {k + 1}: the server's line measures {ws:.3f} px in the browser, {ws - width:.3f} px over "
                "the width: the server's advances are narrower than the browser's"
            )
        else:
            extra = s_sig[len(b_sig) :][:2] if s_sig.startswith(b_sig) else "?"
            tags.append(
                f"line {k + 1}: the server's line fits ({ws:.3f} px ≤ {width}), yet the browser moves {extra!r}… "
                f"to the next line: the browser has no break opportunity where the server breaks "
                f"(after {s.rstrip()[-2:]!r})"
            )
    else:
        (wb,) = measure([unhung(b)])
        slack = width - wb
        if b.rstrip("\n") == unhung(b):
            where = f"the browser breaks between {b[-2:]!r} and {b_next[:2]!r}, with no space"
        else:
            where = f"the browser breaks after spaces, before {b_next[:2]!r}"
        if slack < 0:
            tags.append(
                f"line {k + 1}: the browser's line is {wb:.3f} px, over the {width} px width: a cluster "
                "wider than the line, or what the browser lets hang"
            )
        elif slack < 1 / 64:
            tags.append(f"line {k + 1}: the browser's line is {wb:.4f} px, within 1/64 px of the width (layout units)")
        elif slack < 1:
            tags.append(
                f"line {k + 1}: the browser's line fits with {slack:.3f} px to spare and the server broke earlier: "
                f"its advances add up wider than the browser's ({where})"
            )
        else:
            tags.append(
                f"line {k + 1}: the browser's line fits with {slack:.3f} px to spare and the server broke "
                f"earlier: {where}; a break opportunity the server lacks, or much wider advances"
            )
    chars = b + s + (browser_lines[k + 1] if k + 1 < len(browser_lines) else "")
    if any(ch in CJK_PUNCT for ch in chars) and any(
        x in CJK_PUNCT and y in CJK_PUNCT for x, y in zip(chars, chars[1:])
    ):
        tags.append("adjacent CJK punctuation (text-spacing-trim)")
    nxt = [ln for ln in (browser_lines[k + 1 : k + 2] + server_lines[k + 1 : k + 2]) if ln]
    if any(ln[0] in SMALL_KANA for ln in nxt):
        tags.append("small kana or ー at a line start (line-break: auto)")
    if "/" in around:
        tags.append("'/' near the break")
    if "\t" in b or "\t" in text and "\t" in s:
        tags.append("tab")
    if any(in_ranges(ord(ch), EMOJI) for ch in chars):
        tags.append("emoji on the line")
    scripts = [name for name, ranges in SCRIPTS.items() if any(in_ranges(ord(ch), ranges) for ch in chars)]
    if scripts:
        tags.append("fallback font for " + ", ".join(scripts))
    if any(unicodedata.category(ch) in ("Mn", "Me", "Cf") for ch in chars):
        tags.append("combining or format characters")
    return "; ".join(tags)


# ---------------------------------------------------------------- the run


def load_slice():
    items = []
    with open(font_corpus.SLICE_FILE, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            try:
                entry = json.loads(line)
                items.append((entry["lang"], entry["text"]))
            except (ValueError, KeyError) as e:
                raise SystemExit(f"{font_corpus.SLICE_FILE}:{number}: {e}")
    return items


def write_slice():
    c = font_corpus.corpus(packages=SLICE_PACKAGES, fetch=True)
    missing = [lang for lang in LANGS if lang not in c]
    if missing:
        raise SystemExit(f"write-slice: no texts for {missing}; the slice needs every language")
    with open(font_corpus.SLICE_FILE, "w", encoding="utf-8") as f:
        f.write("// The font layout cross-check's CI slice: check_font_layout.py --write-slice\n")
        f.write(f"// ({SLICE_PACKAGES} packages per Debian language, two texts each, and every mixed text).\n")
        for lang in LANGS:
            for text in c[lang]:
                f.write(json.dumps({"lang": lang, "text": text}, ensure_ascii=False) + "\n")
    print(f"wrote {font_corpus.SLICE_FILE}: {sum(len(v) for v in c.values())} texts")


def unique_texts(items):
    seen = set()
    out = []
    for lang, text in items:
        if text and text not in seen:
            seen.add(text)
            out.append((lang, text))
    return out


def show_lines(label, lines, around=None):
    """Prints the lines; only those near line `around` (0-based) when there are many."""
    print(f"    {label}:")
    lo, hi = 0, len(lines)
    if around is not None and len(lines) > 12:
        lo, hi = max(0, around - 3), min(len(lines), around + 5)
    if lo > 0:
        print(f"      ({lo} lines above)")
    for n in range(lo, hi):
        print(f"      {n + 1:>3} |{lines[n]!r}")
    if hi < len(lines):
        print(f"      ({len(lines) - hi} lines below)")


def table(agree, total, langs, widths):
    head = f"  {'width':>6}" + "".join(f"  {lang:>20}" for lang in langs + ["all"])
    print(head)
    for w in widths:
        cells = []
        for lang in langs + ["all"]:
            n, a = total[w].get(lang, 0), agree[w].get(lang, 0)
            cells.append(f"{a}/{n} {100.0 * a / n:7.3f} %" if n else "-")
        print(f"  {w:>6}" + "".join(f"  {c:>20}" for c in cells))


def browser_only(browser, texts, widths):
    """Checks the browser's answers on their own; returns (passed, failed)."""
    passed = failed = 0
    laid = browser.layout(texts, widths, FAMILIES, SIZE, LINE_HEIGHT, lines=True)
    for w in widths:
        for text, r in zip(texts, laid[w]):
            ok = "".join(r["text"]) == text and len(r["text"]) == r["lines"] and r["lines"] >= 1
            if ok:
                passed += 1
            else:
                failed += 1
                print(f"FAIL width {w}: the browser's lines do not join back to the text or miscount: {text[:60]!r}")
                show_lines("browser", r["text"])
    return passed, failed


def load_cases(path):
    """(width, text) from a file of `WIDTH<TAB>text` lines (font-mixed.txt's escapes; # comments)."""
    cases = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            width, sep, text = line.partition("\t")
            if not sep or not width.isdigit():
                raise SystemExit(f"{path}:{number}: want WIDTH, a tab, then the text")
            cases.append((int(width), font_corpus.decode_escapes(text, f"{path}:{number}")))
    return cases


def run_cases(browser, path):
    """Compares the line breaks (not only the counts) of each case at its own width; returns (passed, failed)."""
    cases = load_cases(path)
    texts = list(dict.fromkeys(t for _, t in cases))
    index = {t: i for i, t in enumerate(texts)}
    srv = ServerFontLayout(texts)
    passed = failed = 0
    try:
        for width in sorted({w for w, _ in cases}):
            mine = [t for w, t in cases if w == width]
            laid = browser.layout(mine, [width], FAMILIES, SIZE, LINE_HEIGHT, lines=True)[width]
            srv.counts(width)
            server_lines = srv.lines(width, [index[t] for t in mine])
            for text, r in zip(mine, laid):
                sl = server_lines[index[text]]
                if first_difference(r["text"], sl) is None:
                    passed += 1
                    continue
                failed += 1
                print(f"\n  width {width}: browser {r['lines']} lines, server {len(sl)}")
                print(f"    text: {text!r}")
                k = first_difference(r["text"], sl)
                show_lines("browser", r["text"], k)
                show_lines("server", sl, k)
                measure = lambda strings: browser.measure(strings, FAMILIES, SIZE, LINE_HEIGHT)  # noqa: E731
                print(f"    cause: {guess_cause(text, width, r['text'], sl, measure)}")
    finally:
        srv.close()
    return passed, failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--full", action="store_true", help="the whole corpus instead of the CI slice")
    ap.add_argument("--fetch", action="store_true", help="download apt's translation lists when absent (--full)")
    ap.add_argument("--packages", type=int, default=1400, help="packages per Debian language with --full")
    ap.add_argument("--langs", default=",".join(LANGS), help="languages to check (en,zh,ja,mixed)")
    ap.add_argument("--widths", default=",".join(map(str, WIDTHS)), help="widths in px")
    ap.add_argument("--breaks", action="store_true", help="compare every text's line breaks too (the slice always does)")
    ap.add_argument("--show", type=int, default=200, help="disagreements printed in full at most")
    ap.add_argument("--write-slice", action="store_true", help="rewrite font-slice.jsonl from the corpus and stop")
    ap.add_argument("--cases", metavar="FILE", help="check the `WIDTH<TAB>text` cases of FILE (e.g. font-cases.txt), breaks and all")
    args = ap.parse_args()
    if args.write_slice:
        write_slice()
        return
    if args.cases:
        with chromium.Chromium() as browser:
            passed, failed = run_cases(browser, args.cases)
        print(f"\n{passed} passed, {failed} failed")
        sys.exit(1 if failed else 0)
    widths = [int(w) for w in args.widths.split(",")]
    langs = [lang for lang in args.langs.split(",") if lang]
    if args.full:
        c = font_corpus.corpus(packages=args.packages, langs=langs, fetch=args.fetch)
        items = [(lang, t) for lang in langs for t in c.get(lang, [])]
    else:
        items = [(lang, t) for lang, t in load_slice() if lang in langs]
        args.breaks = True
    items = unique_texts(items)
    langs = [lang for lang in langs if any(x[0] == lang for x in items)]
    texts = [t for _, t in items]
    print(
        f"corpus: {len(texts)} texts ("
        + ", ".join(f"{lang} {sum(1 for x in items if x[0] == lang)}" for lang in langs)
        + f"), {sum(map(len, texts))} characters; widths {widths} px"
    )

    started = time.monotonic()
    try:
        browser = chromium.Chromium()
    except chromium.ChromiumError as e:
        print(f"check_font_layout: {e}", file=sys.stderr)
        sys.exit(2)
    with browser:
        print(f"browser: {browser.version['product']}; fonts {', '.join(FAMILIES)} at {SIZE} px, line height {LINE_HEIGHT} px")
        try:
            srv = ServerFontLayout(texts)
        except ServerUnavailable as e:
            print(f"server: {e}; checking the browser side alone")
            passed, failed = browser_only(browser, texts, widths)
            print(f"{passed} passed, {failed} failed")
            sys.exit(1 if failed else 0)
        try:
            print(f"server: fonts used {srv.fonts}")
            laid = browser.layout(texts, widths, FAMILIES, SIZE, LINE_HEIGHT, lines=args.breaks)
            t_browser = time.monotonic() - started

            def measure(strings):
                return browser.measure(strings, FAMILIES, SIZE, LINE_HEIGHT)

            agree = {w: {} for w in widths}
            total = {w: {} for w in widths}
            disagreements = []
            other_breaks = []
            for w in widths:
                counts = srv.counts(w)
                if len(counts) != len(texts):
                    raise SystemExit(f"width {w}: the server gave {len(counts)} heights for {len(texts)} texts")
                wrong = [i for i, (r, n) in enumerate(zip(laid[w], counts)) if r["lines"] != n]
                need_lines = wrong if not args.breaks else None
                server_lines = srv.lines(w, need_lines) if (wrong or args.breaks) else {}
                if wrong and not args.breaks:
                    again = browser.layout([texts[i] for i in wrong], [w], FAMILIES, SIZE, LINE_HEIGHT, lines=True)[w]
                    browser_lines = {i: r["text"] for i, r in zip(wrong, again)}
                else:
                    browser_lines = {i: r.get("text") for i, r in enumerate(laid[w])}
                for i, ((lang, text), r, n) in enumerate(zip(items, laid[w], counts)):
                    total[w][lang] = total[w].get(lang, 0) + 1
                    total[w]["all"] = total[w].get("all", 0) + 1
                    if r["lines"] == n:
                        agree[w][lang] = agree[w].get(lang, 0) + 1
                        agree[w]["all"] = agree[w].get("all", 0) + 1
                        if args.breaks and first_difference(browser_lines[i], server_lines[i]) is not None:
                            other_breaks.append((w, lang, i, r["lines"], n, browser_lines[i], server_lines[i]))
                    else:
                        disagreements.append((w, lang, i, r["lines"], n, browser_lines[i], server_lines[i]))
        finally:
            srv.close()

        print(f"\nidentical line counts (browser laid out in {t_browser:.1f} s):")
        table(agree, total, langs, widths)

        for title, rows in (
            ("disagreements in line count", disagreements),
            ("same line count, other breaks", other_breaks),
        ):
            if not rows:
                continue
            print(f"\n{title}: {len(rows)}")
            for w, lang, i, nb, ns, bl, sl in rows[: args.show]:
                text = texts[i]
                print(f"\n  width {w}, {lang}, text {i}: browser {nb} lines, server {ns:g}")
                print(f"    text: {text!r}")
                k = first_difference(bl, sl)
                show_lines("browser", bl, k)
                show_lines("server", sl, k)
                print(f"    cause: {guess_cause(text, w, bl, sl, measure)}")
            if len(rows) > args.show:
                print(f"\n  ... and {len(rows) - args.show} more")

        failed = len(disagreements)
        passed = sum(total[w].get("all", 0) for w in widths) - failed
        if not args.full and os.path.exists(REGRESSIONS_FILE):
            p, f = run_cases(browser, REGRESSIONS_FILE)
            print(f"\n{os.path.basename(REGRESSIONS_FILE)}: {p} passed, {f} failed")
            passed, failed = passed + p, failed + f
    print(f"\n{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
