#!/usr/bin/env python3
"""Tests the Python host against the real server ($OUTLINE_SERVER):
    OUTLINE_SERVER=... python3 -m unittest -v test_outline_host.py"""
import os
import pathlib
import subprocess
import sys
import unittest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE))
import outline_host  # noqa: E402

SERVER = os.environ.get("OUTLINE_SERVER", "outline-server")
CONTACTS = ROOT / "examples" / "contacts.yaml"


class HostTest(unittest.TestCase):
    def setUp(self):
        self.client = outline_host.OutlineClient(SERVER)
        self.addCleanup(self._kill)
        self.client.initialize()
        self.client.notify("initialized")
        self.uri = "file:///tmp/contacts-test.yaml"
        self.text = CONTACTS.read_text(encoding="utf-8")

    def _kill(self):
        if self.client.proc.poll() is None:
            self.client.proc.kill()
            self.client.proc.wait()
        for f in (self.client.proc.stdin, self.client.proc.stdout, self.client.proc.stderr):
            if f and not f.closed:
                f.close()

    def pane(self):
        rows = self.client.request("visibleRows", {"uri": self.uri})["rows"]
        return outline_host.pane_text(rows, 40)

    def test_open_toggle_error_restore_shutdown(self):
        self.client.request("openOutline", {"uri": self.uri, "text": self.text})
        self.client.request("setLayout", {"uri": self.uri, "width": 40, "padding": {"left": 2}})
        pane = self.pane()
        self.assertTrue(pane.startswith("▾ My Friends  4/10\n  ● 张伟 / Zhang Wei\n"))
        self.assertIn("    Working from Lisbon this week, back\n    on the Tuesday flight if the strike\n", pane)
        self.assertIn("▸ Family ♥  2/5\n", pane)

        result = self.client.request("toggleSection", {"uri": self.uri, "section": "friends", "scrollTop": 0})
        self.assertEqual(result["expanded"], False)
        self.assertEqual(self.pane(), "▸ My Friends  4/10\n▸ Family ♥  2/5\n▸ Colleagues  8/13\n"
                                      "▸ VIP ★  2/4\n▸ Blacklist  0/3\n")
        self.client.request("toggleSection", {"uri": self.uri, "section": "family"})
        self.assertIn("▾ Family ♥  2/5\n  ● 妈妈\n    记得周日回家吃饭\n  ○ 爸爸\n", self.pane())
        good = self.pane()

        bad = self.text.replace("    title: Family\n", "    title: Family\n    title: Again\n")
        result = self.client.request("changeOutline", {"uri": self.uri, "text": bad})
        self.assertFalse(result["applied"])
        [diag] = result["diagnostics"]
        line = bad.splitlines().index("    title: Again")
        self.assertEqual(diag["message"], 'duplicate key "title"')
        self.assertEqual(diag["range"]["start"], {"line": line, "character": 4})
        self.assertEqual(self.pane(), good, "the last good outline stays")

        result = self.client.request("changeOutline", {"uri": self.uri, "text": self.text})
        self.assertTrue(result["applied"])
        self.assertEqual(result["diagnostics"], [])
        self.assertEqual(self.pane(), good)
        self.assertEqual(self.client.close(), 0)

    def test_command_line(self):
        out = subprocess.run(
            [sys.executable, str(HERE / "outline_host.py"), str(CONTACTS), "--width", "40",
             "--expand", "family", "--server", SERVER],
            capture_output=True, text=True, timeout=30)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("▾ Family ♥  2/5\n  ● 妈妈\n", out.stdout)

    def test_command_line_error(self):
        bad = pathlib.Path(self.id().replace(".", "_") + ".yaml")
        bad = pathlib.Path(os.environ.get("TMPDIR", "/tmp")) / bad
        bad.write_text("groups:\n  - title: A\n    title: B\n", encoding="utf-8")
        self.addCleanup(bad.unlink)
        out = subprocess.run(
            [sys.executable, str(HERE / "outline_host.py"), str(bad), "--server", SERVER],
            capture_output=True, text=True, timeout=30)
        self.assertEqual(out.returncode, 1)
        self.assertIn(':3:5: duplicate key "title"', out.stderr)


if __name__ == "__main__":
    unittest.main()
