"""The corpus of the font layout cross-check (Tests/text/check_font_layout.py).

Four languages, each a list of texts:
- `en`: Debian package descriptions in English, from apt's Translation-en
  lists (every package of the archive), else from /var/lib/dpkg/status (the
  installed packages);
- `zh` and `ja`: the same from apt's Translation-zh_CN and Translation-ja
  lists, skipped with a printed reason where the machine has none;
- `mixed`: Tests/text/font-mixed.txt, written by hand (Arabic, Hebrew, Thai,
  Devanagari, long words and URLs, CJK punctuation, small kana and ー, `/`
  between letters, emoji, tabs, runs of spaces).

A package gives two texts (each distinct text once): its short description (one line) and its long
description (Debian Policy §5.6.13) reflowed as a host would show it:
continuation lines of a paragraph joined (by a space, or by nothing between
two East Asian wide characters, since translators wrap CJK text anywhere),
paragraphs separated by a line feed, verbatim lines (two leading spaces) kept
as lines.

Apt keeps translation lists only for the languages of `Acquire::Languages`;
`fetch_translations` downloads them into a folder of this project's own
(`apt-get update` with its own state folders: the system's lists are left
alone), so that a machine that never fetched them can still run the whole
cross-check.

Sampling is deterministic: packages sorted by name, taken at evenly spaced
positions. The CI slice is a committed file (font-slice.jsonl), the same on
every machine.
"""

import glob
import os
import subprocess
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MIXED_FILE = os.path.join(HERE, "font-mixed.txt")
SLICE_FILE = os.path.join(HERE, "font-slice.jsonl")
SYSTEM_LISTS = "/var/lib/apt/lists"
OWN_LISTS = os.path.join(ROOT, ".build", "font-corpus", "lists")
LANGUAGES = {"en": "en", "zh": "zh_CN", "ja": "ja"}
APT_HELPER = "/usr/lib/apt/apt-helper"


def note(message):
    print(f"corpus: {message}", file=sys.stderr)


# ---------------------------------------------------------------- mixed file


def decode_escapes(line, where):
    """\\t, \\n, \\\\ and \\u{XXXX} in a line of font-mixed.txt; raises ValueError naming `where`."""
    out = []
    i = 0
    while i < len(line):
        ch = line[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = line[i + 1 : i + 2]
        if nxt == "t":
            out.append("\t")
            i += 2
        elif nxt == "n":
            out.append("\n")
            i += 2
        elif nxt == "\\":
            out.append("\\")
            i += 2
        elif nxt == "u" and line[i + 2 : i + 3] == "{":
            end = line.find("}", i + 3)
            if end < 0:
                raise ValueError(f"{where}, column {i + 1}: \\u{{ without }}")
            out.append(chr(int(line[i + 3 : end], 16)))
            i = end + 1
        else:
            raise ValueError(f"{where}, column {i + 1}: unknown escape \\{nxt}")
    return "".join(out)


def mixed(path=MIXED_FILE):
    """The hand-written texts, in file order."""
    texts = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            texts.append(decode_escapes(line, f"{os.path.relpath(path, ROOT)}:{number}"))
    return texts


# ---------------------------------------------------------------- Debian descriptions


def is_wide(ch):
    return unicodedata.east_asian_width(ch) in ("W", "F")


def reflow(long_lines):
    """A long description (its lines without the one leading space) as shown text."""
    out_lines = []
    paragraph = ""
    for line in long_lines:
        if line == ".":
            if paragraph:
                out_lines.append(paragraph)
                paragraph = ""
            out_lines.append("")
            continue
        if line.startswith(" "):  # verbatim
            if paragraph:
                out_lines.append(paragraph)
                paragraph = ""
            out_lines.append(line)
            continue
        line = line.strip()
        if not paragraph:
            paragraph = line
        elif line:
            glue = "" if is_wide(paragraph[-1]) and is_wide(line[0]) else " "
            paragraph += glue + line
    if paragraph:
        out_lines.append(paragraph)
    # Empty lines at the ends, and runs of them, add nothing to compare.
    text = "\n".join(out_lines).strip("\n")
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text


def parse_stanzas(text, field):
    """(package, short, long_lines) for each stanza holding `field` (e.g. Description-ja)."""
    out = []
    package = None
    desc = None
    collecting = False
    for line in text.split("\n") + [""]:
        if not line:
            if package and desc:
                out.append((package, desc[0].strip(), desc[1:]))
            package, desc, collecting = None, None, False
            continue
        if line[0] in " \t":
            if collecting:
                desc.append(line[1:])
            continue
        collecting = False
        name, _, value = line.partition(":")
        if name == "Package":
            package = value.strip()
        elif name == field:
            desc = [value]
            collecting = True
    return out


def read_list(path):
    """A list file's text, through apt-helper when it is compressed (lz4, xz, gz...)."""
    if path.endswith(("Translation-en", "Translation-ja", "Translation-zh%5fCN")):
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    done = subprocess.run([APT_HELPER, "cat-file", path], capture_output=True)
    if done.returncode != 0:
        raise RuntimeError(f"{APT_HELPER} cat-file {path}: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout.decode("utf-8", errors="replace")


def translation_files(code, dirs):
    """Translation list files of apt language `code` (e.g. zh_CN) in the first folder that has any."""
    pattern = "*_i18n_Translation-" + code.replace("_", "%5f")
    for d in dirs:
        found = sorted(glob.glob(os.path.join(d, pattern)) + glob.glob(os.path.join(d, pattern + ".*")))
        found = [f for f in found if not f.endswith(".diff") and "/partial/" not in f]
        if found:
            return found
    return []


def fetch_translations(lists=OWN_LISTS):
    """Downloads the English, Chinese and Japanese translation lists into `lists`
    (apt-get update with its own state and cache folders). Returns True on success."""
    cache = os.path.join(os.path.dirname(lists), "cache")
    for d in (os.path.join(lists, "partial"), os.path.join(cache, "archives", "partial")):
        os.makedirs(d, exist_ok=True)
    conf = os.path.join(os.path.dirname(lists), "apt.conf")
    with open(conf, "w") as f:
        # Overrides a machine-wide Acquire::Languages "none" (as Debian's container images set).
        f.write('#clear Acquire::Languages;\nAcquire::Languages { "en"; "zh_CN"; "ja"; };\n')
    note(f"fetching apt's translation lists into {os.path.relpath(lists, ROOT)}")
    done = subprocess.run(
        [
            "apt-get", "update", "-qq", "-c", conf,
            "-o", f"Dir::State::Lists={lists}",
            "-o", f"Dir::Cache={cache}",
            "-o", "Acquire::GzipIndexes=false",
            "-o", "Debug::NoLocking=1",
        ],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        note(f"apt-get update failed: {done.stderr.strip()[-400:]}")
        return False
    return True


def descriptions(lang, dirs):
    """{package: (short, long_lines)} for `lang` (en, zh or ja) from the lists found, else None."""
    code = LANGUAGES[lang]
    files = translation_files(code, dirs)
    if not files:
        return None
    out = {}
    for path in files:
        for package, short, long_lines in parse_stanzas(read_list(path), "Description-" + code):
            out.setdefault(package, (short, long_lines))
    return out


def dpkg_descriptions():
    """{package: (short, long_lines)} of the installed packages (English)."""
    with open("/var/lib/dpkg/status", encoding="utf-8", errors="replace") as f:
        stanzas = parse_stanzas(f.read(), "Description")
    return {p: (s, l) for p, s, l in stanzas}


def sample(items, count):
    """`count` of `items` at evenly spaced positions (all of them when fewer)."""
    if count is None or len(items) <= count:
        return list(items)
    step = len(items) / count
    return [items[int(i * step)] for i in range(count)]


def debian(lang, packages, dirs):
    """Texts of `packages` packages (short and long description each) in `lang`, with
    where they came from; ([], reason) when that language has no descriptions here."""
    found = descriptions(lang, dirs)
    source = "apt Translation-" + LANGUAGES[lang]
    if found is None and lang == "en":
        found = dpkg_descriptions()
        source = "/var/lib/dpkg/status (installed packages; apt's Translation-en is absent)"
    if not found:
        return [], (
            f"no Translation-{LANGUAGES[lang]} in {' or '.join(dirs)} "
            "(apt's Acquire::Languages leaves it out; check_font_layout.py --fetch downloads it)"
        )
    texts = []
    seen = set()
    for name in sample(sorted(found), packages):
        short, long_lines = found[name]
        # Related packages often share a long description: each text once.
        for text in (short, reflow(long_lines)):
            if text and text not in seen:
                seen.add(text)
                texts.append(text)
    return texts, f"{len(found)} packages in {source}"


def corpus(packages=1400, langs=("en", "zh", "ja", "mixed"), fetch=False):
    """{lang: [text]} for the whole cross-check; `packages` per Debian language
    (two texts each). Languages without descriptions here are left out, with a note."""
    dirs = [SYSTEM_LISTS, OWN_LISTS]
    wanted = [lang for lang in langs if lang in LANGUAGES]
    if fetch and any(not translation_files(LANGUAGES[lang], dirs) for lang in wanted):
        fetch_translations()
    out = {}
    for lang in langs:
        if lang == "mixed":
            out["mixed"] = mixed()
            note(f"mixed: {len(out['mixed'])} texts from {os.path.relpath(MIXED_FILE, ROOT)}")
            continue
        texts, why = debian(lang, packages, dirs)
        if texts:
            out[lang] = texts
            note(f"{lang}: {len(texts)} texts from {why}")
        else:
            note(f"{lang}: skipped: {why}")
    return out
