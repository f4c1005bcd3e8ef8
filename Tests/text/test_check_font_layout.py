#!/usr/bin/env python3
"""Tests check_font_layout.py itself, with stand-ins for the server
(stub_font_server.py): it passes a server that lays out as the browser does,
fails one that lays out naively (listing disagreements with both breakings
and a cause), and checks the browser side alone against a server without unit
`font`. On the mixed texts, to stay short.

Prints `N passed, N failed` last; exits non-zero on a failure.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_font_layout.py")
STUB = os.path.join(HERE, "stub_font_server.py")

passed = failed = 0


def check(ok, what, output=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {what}")
        if output:
            print("\n".join("    " + ln for ln in output.splitlines()[-30:]))


def run(mode, server=STUB, *args):
    env = {**os.environ, "OUTLINE_SERVER": server, "STUB_FONT_MODE": mode}
    done = subprocess.run(
        [sys.executable, CHECK, "--langs", "mixed", *args], env=env, capture_output=True, text=True, timeout=600
    )
    return done.returncode, done.stdout + done.stderr


def main():
    code, out = run("browser")
    check(code == 0, f"a server that lays out as the browser does fails the check (exit {code})", out)
    # 612 layouts of the slice's mixed texts, then the regression cases (font-regressions.txt).
    check(
        "100.000 %" in out and "font-regressions.txt: " in out and out.rstrip().endswith(" passed, 0 failed"),
        "its agreement is not 100 % of 612 and of the regression cases",
        out,
    )

    code, out = run("naive")
    check(code == 1, f"a naive server passes the check (exit {code})", out)
    check("disagreements in line count:" in out, "no disagreements are listed", out)
    check("    browser:\n" in out and "    server:\n" in out, "both breakings are not shown", out)
    check("cause: line " in out, "no cause is guessed", out)
    tail = out.strip().splitlines()[-1]
    check(tail.endswith("failed") and not tail.endswith(" 0 failed"), f"the last line is {tail!r}", out)

    server_bin = os.environ.get("OUTLINE_SERVER")
    if server_bin:
        code, out = run("", server_bin)
        if 'no unit "font"' in out:
            check(code == 0 and "checking the browser side alone" in out, "the browser side alone fails", out)

    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
