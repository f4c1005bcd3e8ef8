#!/usr/bin/env python3
"""Validate every example outline against schemas/outline.schema.json.

Checks, for each file in examples/ (*.yaml, *.yml, *.json) and, when
present, examples/generated/*.yaml (make it with scripts/make-examples):
it loads, it matches the schema, its explicit ids are unique, and under
expansion: single no two sibling groups start open. Also checks that both
schemas are valid JSON Schema 2020-12 and that the outline schema refuses
a few known-bad documents.

Needs PyYAML and jsonschema (4.x, for draft 2020-12):
    apt-get install python3-yaml python3-jsonschema
or  python3 -m pip install pyyaml 'jsonschema>=4'

Run from anywhere:  python3 Tests/schema/test_examples.py
The last line is "N passed, N failed"; the exit status is 1 on any failure.
"""

import glob
import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(ROOT, "schemas")
EXAMPLES = os.path.join(ROOT, "examples")

try:
    import jsonschema
    import yaml
except ImportError as e:
    print(f"missing Python package: {e.name}", file=sys.stderr)
    print("install with: apt-get install python3-yaml python3-jsonschema", file=sys.stderr)
    print("          or: python3 -m pip install pyyaml 'jsonschema>=4'", file=sys.stderr)
    print("0 passed, 1 failed")
    sys.exit(1)

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

passed = 0
failed = 0


def check(name, fn):
    global passed, failed
    started = time.monotonic()
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - every failure is reported the same way
        failed += 1
        print(f"FAIL {name}: {type(e).__name__}: {e}")
    else:
        passed += 1
        print(f"ok   {name} ({time.monotonic() - started:.1f} s)")


def load_schema(name):
    with open(os.path.join(SCHEMAS, name), encoding="utf-8") as f:
        return json.load(f)


def load(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if path.endswith(".json"):
        doc = json.loads(text)
        # YAML is a superset of JSON: the YAML reading must agree.
        assert yaml.load(text, Loader=Loader) == doc, "YAML and JSON readings differ"
        return doc
    return yaml.load(text, Loader=Loader)


def walk(groups, siblings_hook=None):
    """Yield every group and row item (dicts) of a document's groups, depth first."""
    if siblings_hook:
        siblings_hook(groups)
    for g in groups:
        yield g
        yield from walk(g.get("groups", []), siblings_hook)
        yield from g.get("rows", [])


def norm_id(value):
    # A float that is a whole number is the integer (7.0 is 7); any other
    # scalar is its text.
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def example_checks(path, validator):
    rel = os.path.relpath(path, ROOT)
    state = {}

    def loads():
        state["doc"] = load(path)
        assert isinstance(state["doc"], dict), "top level is not a mapping"

    def valid():
        errors = sorted(validator.iter_errors(state["doc"]), key=lambda e: list(e.absolute_path))
        if errors:
            lines = [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in errors[:10]]
            raise AssertionError(f"{len(errors)} schema errors:\n  " + "\n  ".join(lines))

    def unique_ids():
        seen = set()
        for item in walk(state["doc"].get("groups", [])):
            if "id" in item:
                key = norm_id(item["id"])
                assert key not in seen, f"duplicate id {key!r}"
                seen.add(key)

    def single_policy():
        if state["doc"].get("expansion") != "single":
            return

        def hook(groups):
            opened = [g.get("title") for g in groups if g.get("expanded") is True]
            assert len(opened) <= 1, f"siblings open together under expansion: single: {opened}"

        for _ in walk(state["doc"].get("groups", []), hook):
            pass

    check(f"{rel}: loads", loads)
    if "doc" in state:
        check(f"{rel}: matches outline.schema.json", valid)
        check(f"{rel}: explicit ids are unique", unique_ids)
        check(f"{rel}: expansion single opens at most one sibling", single_policy)


def main():
    outline = load_schema("outline.schema.json")
    check("outline.schema.json is valid 2020-12",
          lambda: jsonschema.Draft202012Validator.check_schema(outline))
    check("protocol.schema.json is valid 2020-12",
          lambda: jsonschema.Draft202012Validator.check_schema(load_schema("protocol.schema.json")))
    validator = jsonschema.Draft202012Validator(outline)

    def refuses(doc):
        def fn():
            assert not validator.is_valid(doc), "schema accepted a bad document"
        return fn

    def accepts(doc):
        return lambda: validator.validate(doc)

    check("schema refuses a group without title", refuses({"groups": [{"id": "a"}]}))
    check("schema refuses a row without title", refuses({"groups": [{"title": "G", "rows": [{"id": "r"}]}]}))
    check("schema refuses an unknown key", refuses({"groups": [{"title": "G", "colour": "red"}]}))
    check("schema refuses a quoted boolean", refuses({"groups": [{"title": "G", "expanded": "true"}]}))
    check("schema refuses a bad expansion", refuses({"expansion": "several", "groups": []}))
    check("schema refuses a bad order", refuses({"groups": [{"title": "G", "order": "random"}]}))
    check("schema refuses a bad rowHeight", refuses({"layout": {"rowHeight": "tall"}, "groups": []}))
    check("schema accepts plain scalars as text",
          accepts({"groups": [{"title": 1.0, "rows": [{"title": False, "detail": 12}]}]}))
    check("schema accepts any data and heights",
          accepts({"layout": {"rowHeight": 2, "headerHeight": "auto", "padding": {"top": 1}},
                   "groups": [{"title": "G", "rows": [{"title": "r", "data": [1, {"a": None}]}]}]}))

    files = sorted(
        p for pattern in ("*.yaml", "*.yml", "*.json") for p in glob.glob(os.path.join(EXAMPLES, pattern))
    )
    generated = sorted(glob.glob(os.path.join(EXAMPLES, "generated", "*.yaml")))
    check("examples/ has files", lambda: (_ for _ in ()).throw(AssertionError("none found")) if not files else None)
    if not generated:
        print("note: no examples/generated/*.yaml (run scripts/make-examples to check it too)")
    for path in files + generated:
        example_checks(path, validator)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
