"""The core never imports textual: every module outside `ui/` imports cleanly without it."""

from __future__ import annotations

import json
import subprocess
import sys

_PROBE = """
import importlib, json, pkgutil, sys
import konstruct_tui
names = sorted(
    m.name for m in pkgutil.walk_packages(konstruct_tui.__path__, "konstruct_tui.")
    if not m.name.startswith("konstruct_tui.ui") and not m.name.endswith("__main__")
)
guilty = []
for name in names:
    importlib.import_module(name)
    if "textual" in sys.modules and not guilty:
        guilty.append(name)
print(json.dumps({"modules": names, "guilty": guilty}))
"""


def test_no_module_outside_ui_imports_textual() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True)
    report = json.loads(done.stdout)
    assert "konstruct_tui.workspace.containment" in report["modules"]
    assert "konstruct_tui.cli" in report["modules"]
    assert report["guilty"] == [], f"{report['guilty'][0]} pulls in textual"
