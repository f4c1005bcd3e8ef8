#!/usr/bin/env python3
"""Cross-checks the server's width of every assigned code point against two
references no one here wrote: Python's wcwidth package (PyPI) and Neovim's
strdisplaywidth() (run headless).

The server's width of a code point c is read back through rowHeights: a row
titled c + TAB + "y", in px with narrowWidth 1, wideWidth 2 and tabSize 1,
measures 2 (zero), 3 (narrow) or 4 (wide); wrapped at 2.5 and at 3.5 it
takes (1, 1), (2, 1) or (2, 2) lines.

Every difference must match a row of the table between the
`width-differences` markers in docs/text-layout.md; any other fails.
Prints `N passed, N failed` last and exits non-zero on a failure.

Usage: Tests/text/check_widths.py [--report]   (--report prints every difference, grouped)
"""

import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import server  # noqa: E402

DATA = "/usr/share/unicode"
DOC = os.path.join(server.ROOT, "docs", "text-layout.md")
# Layout controls, not clusters: the wrapper handles them (tab stops, hard breaks).
NOT_CLUSTERS = {0x09, 0x0A, 0x2028}


def assigned_code_points():
    cps = []
    first = None
    with open(os.path.join(DATA, "UnicodeData.txt"), encoding="utf-8") as f:
        for line in f:
            fields = line.split(";")
            cp, name, cat = int(fields[0], 16), fields[1], fields[2]
            if name.endswith(", First>"):
                first = cp
                continue
            span = range(first, cp + 1) if name.endswith(", Last>") else [cp]
            if cat != "Cs":
                cps.extend(c for c in span if c not in NOT_CLUSTERS)
    return cps


def categories():
    cats = {}
    with open(os.path.join(DATA, "UnicodeData.txt"), encoding="utf-8") as f:
        for line in f:
            fields = line.split(";")
            cats[int(fields[0], 16)] = fields[2]
    return cats


def server_widths(cps):
    s = server.Server()
    try:
        rows = [(chr(cp) + "\ty", None) for cp in cps]
        layout = {"unit": "px", "narrowWidth": 1, "wideWidth": 2, "tabSize": 1, "indent": 0, "rowHeight": "auto"}
        narrow = s.row_heights("mem:widths-a", rows, dict(layout, width=2.5))
        wide = s.row_heights("mem:widths-b", rows, dict(layout, width=3.5))
    finally:
        s.close()
    table = {(1, 1): 0, (2, 1): 1, (2, 2): 2}
    out = {}
    for cp, a, b in zip(cps, narrow, wide):
        out[cp] = table.get((int(a), int(b)), f"?{a},{b}")
    return out


def wcwidth_widths(cps):
    import wcwidth

    return {cp: wcwidth.wcwidth(chr(cp)) for cp in cps}, wcwidth.__version__


def nvim_widths(cps):
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "cps.txt")
        dst = os.path.join(tmp, "widths.txt")
        lua = os.path.join(tmp, "widths.lua")
        with open(src, "w") as f:
            f.write("\n".join(str(cp) for cp in cps) + "\n")
        with open(lua, "w") as f:
            f.write(
                f"""
local out = {{}}
for line in io.lines("{src}") do
  local cp = tonumber(line)
  out[#out + 1] = vim.fn.strdisplaywidth(vim.fn.nr2char(cp))
end
local f = io.open("{dst}", "w")
f:write(table.concat(out, "\\n") .. "\\n")
f:close()
"""
            )
        subprocess.run(
            ["nvim", "--headless", "-u", "NONE", "-i", "NONE", "-c", f"luafile {lua}", "-c", "qa!"],
            stdin=subprocess.DEVNULL, check=True, timeout=600,
        )
        version = subprocess.run(["nvim", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
        with open(dst) as f:
            widths = [int(x) for x in f.read().split()]
    return dict(zip(cps, widths)), version


def expected_differences():
    """Rows of the table in docs/text-layout.md: (reference, ranges, ours, theirs, reason)."""
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    m = re.search(r"<!-- width-differences -->(.*?)<!-- /width-differences -->", doc, re.S)
    if not m:
        raise SystemExit(f"{DOC}: no width-differences table")
    rows = []
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 5 or not re.fullmatch(r"wcwidth|nvim", cells[0]):
            continue
        ranges = []
        for r in re.findall(r"[0-9A-F]{4,6}(?:\.\.[0-9A-F]{4,6})?", cells[1]):
            lo, _, hi = r.partition("..")
            ranges.append((int(lo, 16), int(hi or lo, 16)))
        cats = set(re.findall(r"gc=(\w\w)", cells[1]))
        rows.append(
            {"ref": cells[0], "ranges": ranges, "cats": cats, "ours": cells[2], "theirs": cells[3], "reason": cells[4]}
        )
    return rows


def matches(row, ref, cp, cat, ours, theirs):
    if row["ref"] != ref:
        return False
    if row["ours"] not in ("*", str(ours)) or row["theirs"] not in ("*", str(theirs)):
        return False
    return cat in row["cats"] or any(lo <= cp <= hi for lo, hi in row["ranges"])


def grouped(diffs, cats):
    """Differences merged into runs of consecutive code points with the same widths and category."""
    runs = []
    for ref, cp, ours, theirs in diffs:
        key = (ref, ours, theirs, cats.get(cp, "?"))
        if runs and runs[-1][0] == key and runs[-1][2] == cp - 1:
            runs[-1][2] = cp
        else:
            runs.append([key, cp, cp])
    return runs


def main():
    report = "--report" in sys.argv
    cps = assigned_code_points()
    ours = server_widths(cps)
    wc, wc_version = wcwidth_widths(cps)
    nv, nv_version = nvim_widths(cps)
    rows = expected_differences()
    cats = categories()
    print(f"{len(cps)} assigned code points (UnicodeData.txt); wcwidth {wc_version}; {nv_version}")

    passed = failed = 0
    unlisted = []
    diffs = []
    used = [0] * len(rows)
    for ref, theirs_map in (("wcwidth", wc), ("nvim", nv)):
        count = 0
        for cp in cps:
            o, t = ours[cp], theirs_map[cp]
            if o == t:
                passed += 1
                continue
            count += 1
            diffs.append((ref, cp, o, t))
            hit = next((k for k, row in enumerate(rows) if matches(row, ref, cp, cats.get(cp), o, t)), None)
            if hit is None:
                failed += 1
                unlisted.append((ref, cp, o, t))
            else:
                used[hit] += 1
                passed += 1
        print(f"{ref}: {count} differences")
    for row, n in zip(rows, used):
        print(f"  {n:6d}  {row['ref']:7s} ours {row['ours']} theirs {row['theirs']:>2s}  {row['reason'][:70]}")
    if report:
        for (ref, o, t, cat), lo, hi in grouped(diffs, cats):
            span = f"{lo:04X}" if lo == hi else f"{lo:04X}..{hi:04X}"
            print(f"{ref:7s} {span:14s} {cat} ours {o} theirs {t}")
    for ref, cp, o, t in unlisted[:50]:
        print(f"FAIL: {ref} U+{cp:04X} {cats.get(cp)}: ours {o}, theirs {t}, not listed in docs/text-layout.md")
    if len(unlisted) > 50:
        print(f"FAIL: … and {len(unlisted) - 50} more unlisted differences")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
