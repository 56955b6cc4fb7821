"""Makes the pictures of readable results for docs/workbench.md (SVG, Textual's own screenshot):
command blocks in the transcript (a passing test run, a network fetch the sandbox blocked, a command
the policy refused) and a trust diff at 80x24 that scrolls sideways. No model, no network: the
results are posted as the agent loop would post them, with the shapes confined runs really return.

    PYTHONPATH=$PWD python docs/screenshots/results.py [OUT_DIR]   (default: docs/screenshots)
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

SANDBOX = {"mode": "workspace-write", "abi": 7, "network": "blocked", "home": "hidden", "git": "read-only"}
RESULTS = [
    {"command": "pytest -q tests/test_calc.py", "sandbox": SANDBOX, "status": "ok", "exit_code": 0, "duration_s": 0.42,
     "stdout": "..\n2 passed in 0.01s\n", "stderr": ""},
    {"command": "pip download click", "sandbox": SANDBOX, "status": "failed", "exit_code": 1, "duration_s": 0.61,
     "stdout": "", "reason": "exited with status 1",
     "stderr": "WARNING: Retrying after connection broken by 'NewConnectionError: Failed to establish a new connection: "
               "[Errno 13] Permission denied'\nERROR: Could not find a version that satisfies the requirement click\n"},
    {"command": "touch /etc/motd", "status": "refused", "reason": "touch '/etc/motd' would overwrite or remove a system directory"},
]
CALC = "src/konstruct/numerics/arithmetic/floating_point/core/calc.py"
LONG = "    return a + b  # sum, not difference: the docstring and every caller in cli.py expect it"
DIFF = f"--- a/{CALC}\n+++ b/{CALC}\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+{LONG}\n"


async def main(out: Path) -> None:
    from konstruct_tui.agent import Limits
    from konstruct_tui.agent.events import ToolFinished, ToolStarted, TurnStarted
    from konstruct_tui.app import TrustPreview, WorkbenchSetup
    from konstruct_tui.ui.app import Workbench
    from konstruct_tui.ui.messages import Reported
    from konstruct_tui.ui.panes.request_input import RequestInput
    from konstruct_tui.ui.panes.transcript import ToolCallEntry, Transcript
    from konstruct_tui.ui.trust_prompt import TrustPrompt

    work = Path(tempfile.mkdtemp(prefix="konstruct-shots-"))
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        os.environ[name] = str(work / name.lower())
    root = work / "project"
    (root / "calc").mkdir(parents=True)
    (root / "calc" / "core.py").write_text("def add(a, b):\n    return a - b\n", encoding="utf-8")

    for size, suffix in (((120, 40), ""), ((80, 24), "-80x24")):
        app = Workbench(WorkbenchSetup(root, None, "no model configured (screenshot)", Limits(max_turns=10)))
        async with app.run_test(size=size) as pilot:
            app.query_one(RequestInput).cursor_blink = False
            events: list[object] = [TurnStarted(1)]
            for n, result in enumerate(RESULTS):
                events += [ToolStarted(1, f"c{n}", "run_command", {"command": result["command"]}),
                           ToolFinished(1, f"c{n}", "run_command", True, result)]
            for event in events:
                app.post_message(Reported(event))  # type: ignore[arg-type]
            await pilot.pause(0.5)
            for entry in app.query(ToolCallEntry):
                entry.collapsed = False
            await pilot.pause(0.5)
            transcript = app.query_one(Transcript)
            transcript.anchor(False)  # from the first call down
            transcript.scroll_home(animate=False)
            await pilot.pause(0.3)
            app.save_screenshot(str(out / f"command-blocks{suffix}.svg"))
            if suffix:
                app.push_screen(TrustPrompt(TrustPreview("write_code", "edit", f"change {CALC}", (CALC,), diffs=((CALC, DIFF),),
                                                         blast_radius=("src/konstruct/command_line/entry_points/main.py",))))
                await pilot.pause(0.5)
                app.save_screenshot(str(out / "trust-diff-80x24.svg"))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent))
