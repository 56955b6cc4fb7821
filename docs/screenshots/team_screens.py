"""Makes the team pictures for docs/blueprints.md and docs/workbench.md (SVG, Textual's own
screenshot): the runs screen listing a team database's runs beside this machine's, an attached team
run, and the approvals screen with a parked request. The team database is a throwaway SQLite file
written directly (no worker, no model, no network).

    PYTHONPATH=$PWD python docs/screenshots/team_screens.py [OUT_DIR]   (default: docs/screenshots)
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path

# The run store and the request are the workbench tests' own (tests/ui/team_fixture.py), so the
# pictures show what the tests check.
sys.path[:0] = [str(Path(__file__).resolve().parents[2] / "tests" / d) for d in ("ui", "blueprint")]
from blueprint_harness import PHASE_FIX, blueprint_text  # noqa: E402
from team_fixture import store_image  # noqa: E402

PLAN = blueprint_text(PHASE_FIX)
ASKED = {"capability": "commands", "detail": "python tools/regen_fixtures.py", "paths": [], "command": "python tools/regen_fixtures.py",
         "rule": "needs_grant", "reason": "an arbitrary command: it runs only with the user's 'commands' grant",
         "diffs": [["calc.py", "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n"]],
         "blast_radius": ["cli.py", "tests/test_calc.py"], "notes": []}
RUNS = (("bp-20261205-091500-4f2a1c", "running", "build-1", "p1", 2.5), ("bp-20261205-084000-9b7d02", "waiting_approval", None, "p1", 3.1),
        ("bp-20261205-093000-c81e55", "queued", None, None, 2.0), ("bp-20261204-220000-1a2b3c", "done", None, "p1", 13.0))


def _team(url: str, folder: Path) -> None:
    import sqlalchemy as sa

    from konstruct_tui.team import DatabaseTarget, TeamDatabase

    db = TeamDatabase.open(DatabaseTarget(url), create=True)
    now = time.time()
    for run_id, status, worker, phase, hours in RUNS:
        db.add_run({"run_id": run_id, "title": "Calc fixes", "source": "plan.toml", "blueprint": PLAN, "repo": "git@git.example:team/calc.git",
                    "ref": "main", "base": "0" * 40, "model": '{"provider": "openai"}', "options": "{}", "approval_timeout": None,
                    "status": status, "continuation": 0, "stop_requested": 0})
        db.update_run(run_id, worker=worker, phase=phase)
        with db.transaction() as connection:
            connection.execute(sa.text("UPDATE konstruct_runs SET created=:t, updated=:t WHERE run_id=:r"), {"t": now - hours * 3600, "r": run_id})
        if status != "queued":
            db.put_store(run_id, store_image(folder, run_id, "/srv/konstruct/" + run_id, provider="openai"))
    db.ask(RUNS[1][0], "r5c0e19a2b7", ASKED, "build-2")
    db.close()


async def main(out: Path) -> None:
    from konstruct_tui.agent import Limits
    from konstruct_tui.app import WorkbenchSetup
    from konstruct_tui.ui.app import Workbench
    from konstruct_tui.ui.approvals_screen import ApprovalsScreen
    from konstruct_tui.ui.runs_screen import RunScreen, RunsScreen

    work = Path(tempfile.mkdtemp(prefix="konstruct-shots-"))
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        os.environ[name] = str(work / name.lower())
    (work / "images").mkdir()
    url = f"sqlite:///{work / 'team.sqlite3'}"
    _team(url, work / "images")
    root = work / "calc"
    root.mkdir()
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    from konstruct_tui.team import TeamWatch

    TeamWatch.shown = property(lambda self: "postgresql://alice@db.example/konstruct")  # type: ignore[method-assign,assignment]
    for size in ((120, 40), (80, 24)):
        suffix = "" if size == (120, 40) else "-80x24"
        app = Workbench(WorkbenchSetup(root, None, "no model (pictures)", Limits(), team_database=url))
        async with app.run_test(size=size) as pilot:
            await pilot.press("f2")
            while not (isinstance(app.screen, RunsScreen) and len(app.screen.rows) == len(RUNS)):
                await pilot.pause(0.1)
            await pilot.pause(0.5)
            app.save_screenshot(str(out / f"team-runs{suffix}.svg"))
            await pilot.press("down", "enter")
            while not (isinstance(app.screen, RunScreen) and app.screen.query(".verification")):
                await pilot.pause(0.1)
            await pilot.pause(0.5)
            if size == (120, 40):
                app.save_screenshot(str(out / "team-run-attached.svg"))
            await pilot.press("escape", "down", "w")
            while not (isinstance(app.screen, ApprovalsScreen) and app.screen.query("#approval-facts")):
                await pilot.pause(0.1)
            await pilot.pause(0.5)
            app.save_screenshot(str(out / f"approvals{suffix}.svg"))


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
    target.mkdir(parents=True, exist_ok=True)
    asyncio.run(main(target.resolve()))
