#!/usr/bin/env python3
"""Cross-checks the server's wrapping of real text against a wrapper written
here, independently, from the rules in docs/text-layout.md, on `wcwidth`
widths; and, for ASCII-only text, against Python's textwrap.

Corpus: the one-line descriptions of the Debian package outline
(scripts/make-examples), the long descriptions of the installed packages
(dpkg-query), and mixed CJK / Latin / emoji / right-to-left lines below.
The server's line counts come from rowHeights (cell unit, indent 0,
padding 0) at several widths.

The corpus is refused (exit 1) when a source fails (make-examples or
dpkg-query exits non-zero), when it is smaller than its floor (at least 100
one-line descriptions from make-examples and 100 long ones from dpkg-query:
a minimal Debian with the toolchain has several hundred packages), or when
rowHeights answers fewer heights than there are texts: every text is
checked, or the run fails.

Prints `N passed, N failed` last and exits non-zero on a failure.
"""

import json
import os
import re
import subprocess
import sys
import textwrap
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server  # noqa: E402

import wcwidth  # noqa: E402

WIDTHS = [7, 20, 40, 60, 80]

MIXED = [
    "中文字符和English混合的一行文本，用于测试换行。",
    "张伟 / Zhang Wei：在北京出差，周五回来（大概）。",
    "日本語の文章です。句読点「、」や「。」は行頭に来ない。カタカナもテスト！",
    "한국어 문장입니다. 띄어쓰기가 있는 한글 텍스트를 줄바꿈합니다.",
    "emoji: 👨‍🦲👨‍🦲👨‍🦲 👍🏽👍🏿 🇫🇷🇯🇵🇧🇷 1️⃣2️⃣#️⃣ ☺ ☺️ ❤️ 🏳️‍🌈 done",
    "On holiday: no laptop, no phone, no problem 🌴",
    "שלום עולם, זוהי שורה בעברית עם מספר 12345 ומילה English באמצע.",
    "مرحبا بالعالم، هذا سطر باللغة العربية مع بعض الكلمات الأخرى.",
    "Café naïve façade — e\u0301e\u0301e\u0301 combining marks, ñ and n\u0303.",
    "key:\tvalue\tanother\tone",
    "first line\nsecond line\r\nthird\u2028fourth\n",
    "ＦＵＬＬＷＩＤＴＨ　ｔｅｘｔ　ａｎｄ　ﾊﾝｶｸｶﾀｶﾅ",
    "a" * 130,
    "zero\u200bwidth\u200bspace\u200bseparated\u200bwords\u200bthat\u200bwrap",
    "no\u00a0break\u00a0space\u00a0keeps\u00a0these\u00a0words\u00a0together ok",
    "考研倒计时 30 天，勿扰。正在听：周杰伦《晴天》",
    "（中文括号）与「日文引号」之间、还有顿号，以及问号？感叹号！",
    "   leading spaces, then text",
    "Ελληνικά κείμενα και кириллица тоже переносятся по словам.",
    "हिन्दी में एक वाक्य जिसमें संयुक्ताक्षर हैं।",
]


def load_line_break_no_start():
    """UAX #14: Line_Break CL, CP, EX, IS, and NS punctuation do not start a line."""
    no_start = set()
    with open("/usr/share/unicode/LineBreak.txt", encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            cps, cls = [x.strip() for x in line.split(";")]
            lo, _, hi = cps.partition("..")
            for cp in range(int(lo, 16), int(hi or lo, 16) + 1):
                if cls in ("CL", "CP", "EX", "IS") or (cls == "NS" and unicodedata.category(chr(cp)).startswith("P")):
                    no_start.add(cp)
    return no_start


NO_START = load_line_break_no_start()


def is_extend(cp):
    cat = unicodedata.category(chr(cp))
    return (
        cat in ("Mn", "Me", "Mc")
        or cp == 0x200D
        or 0xFE00 <= cp <= 0xFE0F
        or 0xE0100 <= cp <= 0xE01EF
        or 0x1F3FB <= cp <= 0x1F3FF
        or 0xE0020 <= cp <= 0xE007F
        or 0x1160 <= cp <= 0x11FF
        or 0xD7B0 <= cp <= 0xD7FF
    )


# Indic_Conjunct_Break=Linker (Unicode 15.1): the viramas of Devanagari,
# Bengali, Gujarati, Oriya, Telugu and Malayalam.
INDIC_LINKERS = {0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D}


def is_ri(cp):
    return 0x1F1E6 <= cp <= 0x1F1FF


def clusters(text):
    """A subset of UAX #29 extended grapheme clusters, enough for the corpus."""
    out = []
    i = 0
    n = len(text)
    while i < n:
        j = i + 1
        cp = ord(text[i])
        if text[i] == "\r" and j < n and text[j] == "\n":
            out.append(text[i : j + 1])
            i = j + 1
            continue
        if cp < 0x20 or cp == 0x7F or cp == 0x2028:
            out.append(text[i])
            i = j
            continue
        if is_ri(cp) and j < n and is_ri(ord(text[j])):
            j += 1
        if 0xAC00 <= cp <= 0xD7A3 or 0x1100 <= cp <= 0x115F:  # Hangul syllable + conjoining jamo
            while j < n and 0x1160 <= ord(text[j]) <= 0x11FF:
                j += 1
        while j < n:
            c = ord(text[j])
            if is_extend(c):
                j += 1
                if c == 0x200D and j < n and wcwidth.wcwidth(text[j]) >= 1 and ord(text[j]) > 0x2000:
                    j += 1  # ZWJ sequence: the next pictograph joins
                elif c in INDIC_LINKERS and j < n and unicodedata.category(text[j]) == "Lo" and (
                    ord(text[j]) >> 7 == c >> 7
                ):
                    j += 1  # GB9c (Unicode 15.1): consonant + virama + consonant is one conjunct
            else:
                break
        out.append(text[i:j])
        i = j
    return out


def cluster_width(c):
    cps = [ord(ch) for ch in c]
    if len(cps) > 1:
        if 0xFE0F in cps or 0x20E3 in cps or (0x200D in cps and cps[0] > 0x2000):
            return 2
        if is_ri(cps[0]) or (0x1F3FB <= cps[1] <= 0x1F3FF):
            return 2
    for ch in c:
        w = wcwidth.wcwidth(ch)
        if w > 0:
            return w
    return 0


def reference_lines(text, width):
    """Wraps with the rules of docs/text-layout.md; returns the number of lines."""
    total = 0
    for para in re.split("\r\n|\n|\u2028", text):
        total += paragraph_lines(para, width)
    return total


def paragraph_lines(para, width):
    cs = clusters(para)
    space = [c in (" ", "\t") for c in cs]
    wide = [cluster_width(c) == 2 for c in cs]
    # Segments: a word (clusters up to a break opportunity) and the spaces after it.
    segments = []
    word, spaces = [], []
    for k, c in enumerate(cs):
        if k > 0:
            opportunity = (
                (space[k - 1] and not space[k])
                or cs[k - 1] == "\u200b"
                or (not space[k] and (wide[k] or wide[k - 1]) and ord(c[0]) not in NO_START)
            )
            if opportunity:
                segments.append((word, spaces))
                word, spaces = [], []
        (spaces if space[k] else word).append(c)
    segments.append((word, spaces))

    lines = 1
    x = 0
    for word, spaces in segments:
        ws = [cluster_width(c) for c in word]
        if word and x > 0 and x + sum(ws) > width:
            lines += 1
            x = 0
        for w in ws:
            if x > 0 and x + w > width:
                lines += 1
                x = 0
            x += w
        for s in spaces:
            x = (x // 8 + 1) * 8 if s == "\t" else x + 1
    return lines


def textwrap_lines(text, width):
    return len(
        textwrap.wrap(text, width=width, break_long_words=True, break_on_hyphens=False, drop_whitespace=True)
    ) or 1


# Fewest texts each source must give: below that the corpus has shrunk.
MIN_EXAMPLES = 100
MIN_DESCRIPTIONS = 100


def refuse(why):
    print(f"check_wrapping: {why}", file=sys.stderr)
    print("0 passed, 1 failed")
    sys.exit(1)


def output_of(argv):
    """The stdout of argv; refuses the corpus when it fails."""
    run = subprocess.run(argv, capture_output=True, text=True)
    if run.returncode != 0:
        refuse(f"{' '.join(argv)} exited with status {run.returncode}: {run.stderr.strip()[-500:]}")
    return run.stdout


def debian_corpus():
    examples = []
    out = output_of([os.path.join(server.ROOT, "scripts", "make-examples"), "--out", "-"])
    for m in re.finditer(r'^\s+detail: ("(?:[^"\\]|\\.)*")$', out, re.M):
        try:
            examples.append(json.loads(m.group(1)))
        except ValueError:
            refuse(f"make-examples wrote a detail that is not a JSON string: {m.group(1)[:80]}")
    if len(examples) < MIN_EXAMPLES:
        refuse(f"make-examples gave {len(examples)} details, fewer than {MIN_EXAMPLES}")
    descriptions = []
    desc = output_of(["dpkg-query", "-W", "-f", "${Description}\n\x1e\n"])
    for d in desc.split("\x1e\n"):
        lines = d.rstrip("\n").split("\n")
        if len(lines) < 2:
            continue
        # The long description: continuation lines start with a space; " ." is an empty line.
        body = [ln[1:] if ln != " ." else "" for ln in lines[1:]]
        descriptions.append("\n".join(body))
    if len(descriptions) < MIN_DESCRIPTIONS:
        refuse(f"dpkg-query gave {len(descriptions)} long descriptions, fewer than {MIN_DESCRIPTIONS}")
    return examples + descriptions


def main():
    debian = debian_corpus()
    corpus = MIXED + debian
    print(f"corpus: {len(MIXED)} mixed lines, {len(debian)} Debian descriptions, {sum(map(len, corpus))} characters")
    s = server.Server()
    passed = failed = 0
    tw_passed = tw_failed = 0
    try:
        for width in WIDTHS:
            layout = {"unit": "cell", "width": width, "indent": 0, "rowHeight": "auto", "headerHeight": 1}
            heights = s.row_heights(f"mem:wrap-{width}", [(t or " ", None) for t in corpus], layout)
            if len(heights) != len(corpus):
                refuse(f"width {width}: {len(heights)} heights for {len(corpus)} texts")
            for text, h in zip(corpus, heights):
                text = text or " "
                want = reference_lines(text, width)
                if int(h) == want:
                    passed += 1
                else:
                    failed += 1
                    if failed <= 20:
                        print(f"FAIL width {width}: server {int(h)} lines, reference {want}: {text[:80]!r}")
                # textwrap agrees with the rules on ASCII text without tabs, hard breaks or words longer than a line.
                # (textwrap drops a line of only leading spaces, so texts starting with one are left out.)
                if text.isascii() and text.strip() and not re.search(r"[\t\n\r]", text) and text[0] != " ":
                    if all(len(w) <= width for w in text.split()):
                        if int(h) == textwrap_lines(text, width):
                            tw_passed += 1
                        else:
                            tw_failed += 1
                            if tw_failed <= 20:
                                print(f"FAIL textwrap width {width}: server {int(h)}, textwrap "
                                      f"{textwrap_lines(text, width)}: {text[:80]!r}")
    finally:
        s.close()
    print(f"reference wrapper: {passed} passed, {failed} failed; textwrap (ASCII): {tw_passed} passed, {tw_failed} failed")
    print(f"{passed + tw_passed} passed, {failed + tw_failed} failed")
    sys.exit(1 if failed + tw_failed else 0)


if __name__ == "__main__":
    main()
