"""The workbench on a shared PostgreSQL team database: the runs screen lists the team's runs, and in
the approvals screen a watcher role (SELECT only) is told in one line that it cannot approve while
the approver's answer is recorded with its database role."""

from __future__ import annotations

import sys
from pathlib import Path

from team_processes import Cluster

sys.path.insert(0, str(Path(__file__).parents[1] / "ui"))
from team_fixture import QUEUED, REQUEST, WAITING, team_database  # noqa: E402
from ui_harness import make_project, wait_for  # noqa: E402

from konstruct_tui.agent import Limits  # noqa: E402
from konstruct_tui.app import WorkbenchSetup  # noqa: E402
from konstruct_tui.ui.app import Workbench  # noqa: E402
from konstruct_tui.ui.approvals_screen import ApprovalsScreen  # noqa: E402
from konstruct_tui.ui.runs_screen import RunsScreen  # noqa: E402


async def test_a_watcher_sees_the_team_runs_but_only_an_approver_answers(cluster: Cluster, pg_url: str, tmp_path: Path) -> None:
    db = team_database(pg_url, tmp_path / "images")
    name = pg_url.split("/")[3].split("?")[0]
    cluster.sql(f"CREATE ROLE watcher_{name} LOGIN")
    for grant in (f"GRANT USAGE ON SCHEMA konstruct TO watcher_{name}", f"GRANT SELECT ON ALL TABLES IN SCHEMA konstruct TO watcher_{name}"):
        cluster.sql(grant, name)
    watcher = cluster.url(name, user=f"watcher_{name}")
    root = make_project(tmp_path)

    app = Workbench(WorkbenchSetup(root, None, "no model (test)", Limits(), team_database=watcher))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("f2")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen) and len(app.screen.rows) == 3, timeout=30)
        assert app.screen.rows[0].run_id == QUEUED and app.screen.team_problem is None
        await pilot.press("down", "w")
        screen = app.screen
        assert isinstance(screen, ApprovalsScreen)
        await wait_for(pilot, lambda: screen.requests, timeout=30)
        await pilot.press("o")
        await wait_for(pilot, lambda: screen.answered, timeout=30)
        assert screen.answered == ["Your database role can watch team runs but not approve (permission denied): answering needs the "
                                   "approver role (docs/blueprints.md, Permissions); nothing was changed."]
    assert db.approvals(WAITING)[0]["status"] == "pending"

    app = Workbench(WorkbenchSetup(root, None, "no model (test)", Limits(), team_database=pg_url))
    async with app.run_test(size=(120, 40)) as pilot:
        app.submit("/approvals")
        await wait_for(pilot, lambda: isinstance(app.screen, ApprovalsScreen) and app.screen.requests, timeout=30)
        await pilot.press("r")
        await wait_for(pilot, lambda: app.screen.answered, timeout=30)
    answer = db.approvals(WAITING)[0]
    assert (answer["status"], answer["scope"], answer["answered_role"]) == ("granted", "run", "postgres")
    assert db.run(WAITING)["status"] == "queued"
    assert [e["actor"] for e in db.audit(WAITING) if e["kind"] == "approval_granted"][0].startswith("postgres (")
    assert REQUEST in [a["request_id"] for a in db.approvals(WAITING)]
    db.close()
