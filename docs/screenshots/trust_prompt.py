"""Makes the trust prompt's pictures for docs/workbench.md and docs/commands-and-trust.md (SVG,
Textual's own screenshot): a scripted run asks to run a command, then a chain (the project's policy
allows chains), then to change two files; the pictures show the grant scopes offered, the rule being
edited, the warning before "every command", the chain's choices with a rule per step, and the edit
prompt with its glob. No model, no network.

    PYTHONPATH=$PWD python docs/screenshots/trust_prompt.py [OUT_DIR]   (default: docs/screenshots)
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

CALC = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n\n\ndef neg(a):\n    return -a\n"
TEST = "from calc.core import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
TURNS = [
    {"text": "Reading.", "tool_calls": [{"name": "read_code", "arguments": {"paths": ["calc/core.py"]}}]},
    {"text": "Running the test.", "tool_calls": [{"name": "run_command", "arguments": {"command": "mypy --strict calc"}}]},
    {"text": "Lint, then test.", "tool_calls": [{"name": "run_command", "arguments": {"command": "ruff check calc && mypy calc"}}]},
    {"text": "Fixing.", "tool_calls": [{"name": "write_code", "arguments": {"edits": [
        {"path": "calc/core.py", "revision": "$revision:calc/core.py", "replacements": [{"old": "a - b", "new": "a + b"}]},
        {"path": "calc/util.py", "create": True, "content": "def twice(x):\n    return x + x\n"}]}}]},
    {"text": "Done."},
]


async def _until(pilot, condition, seconds: float = 30) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        await pilot.pause(0.1)
    await pilot.pause(0.3)


async def main(out: Path) -> None:
    from konstruct_tui.agent import Limits
    from konstruct_tui.app import WorkbenchSetup
    from konstruct_tui.providers import resolve
    from konstruct_tui.trust import TrustStore
    from konstruct_tui.ui.app import Workbench
    from konstruct_tui.ui.trust_prompt import TrustPrompt

    work = Path(tempfile.mkdtemp(prefix="konstruct-shots-"))
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        os.environ[name] = str(work / name.lower())
    script = work / "script.json"
    script.write_text(json.dumps({"turns": TURNS}))
    settings = resolve(provider="scripted", script=str(script), turn_deadline_s=30, config={})
    for size in ((120, 40), (80, 24)):
        suffix = "" if size == (120, 40) else "-80x24"
        root = work / f"calc-{size[0]}" / "calc"
        (root / "calc").mkdir(parents=True)
        (root / "tests").mkdir()
        (root / "calc" / "__init__.py").write_text("")
        (root / "calc" / "core.py").write_text(CALC)
        (root / "tests" / "test_core.py").write_text(TEST)
        TrustStore().set_command_settings(root, chains=True)  # `konstruct policy set --chains`
        app = Workbench(WorkbenchSetup(root, settings, None, Limits()))
        async with app.run_test(size=size) as pilot:
            app.query_one("#request").cursor_blink = False  # type: ignore[attr-defined]
            app.submit("make the test pass")  # type: ignore[attr-defined]
            await _until(pilot, lambda: isinstance(app.screen, TrustPrompt))
            app.save_screenshot(str(out / f"trust-command{suffix}.svg"))
            if size == (120, 40):
                await pilot.press("r")
                await pilot.pause(0.3)
                app.save_screenshot(str(out / "trust-rule.svg"))
                await pilot.press("escape", "e")
                await pilot.pause(0.3)
                app.save_screenshot(str(out / "trust-every-command.svg"))
                await pilot.press("escape")
            await pilot.press("s")  # this exact command, this session
            await _until(pilot, lambda: isinstance(app.screen, TrustPrompt) and bool(app.screen.preview.chain))
            app.save_screenshot(str(out / f"trust-chain{suffix}.svg"))
            if size == (120, 40):
                await pilot.press("r")
                await pilot.pause(0.3)
                app.save_screenshot(str(out / "trust-chain-rules.svg"))
                await pilot.press("escape")
            await pilot.press("s")  # this exact chain, this session
            await _until(pilot, lambda: isinstance(app.screen, TrustPrompt) and app.screen.preview.capability == "edit")
            app.save_screenshot(str(out / f"trust-edit{suffix}.svg"))
            await pilot.press("escape")
            await pilot.pause(0.3)


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
    target.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(target.resolve()))
