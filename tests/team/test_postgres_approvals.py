"""Approvals travel: an unattended executor asking for a capability its run was not granted parks
the run as `waiting_approval` (freeing the worker's slot), and a person answers from another
process; the answer is recorded with who gave it, a deny is final, a watcher role cannot answer,
and a run nobody answers in time ends `stalled`."""

from __future__ import annotations

import json
import signal
from pathlib import Path

from team_processes import Cluster, cli, start_worker
from team_harness import database, git, make_repo, two_phase_plan, wait_for

ASK = {"text": "Checking first.", "tool_calls": [{"name": "run_command", "arguments": {"command": "python mark.py"}}]}
MARK = "open('marker.txt', 'w').write('the asked command ran')\n"  # what the asked command leaves in the tree


def test_parked_runs_are_answered_from_another_process(cluster: Cluster, pg_url: str, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", {"mark.py": MARK})
    plan, scripts = two_phase_plan(tmp_path, p1_first=[ASK], phases=1)
    submit = ("blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts), "--database", pg_url)
    granted, denied = (json.loads(cli(*submit).stdout)["run"] for _ in range(2))
    forgotten = json.loads(cli(*submit, "--approval-timeout", "1").stdout)["run"]
    # One slot: three runs can only all reach their question if a parked run gives its slot back.
    worker = start_worker("--database", pg_url, "--workdir", str(tmp_path / "w"), "--concurrency", "1", "--heartbeat", "0.3", log=tmp_path / "w.log")
    db = database(pg_url)
    try:
        wait_for(lambda: {db.run(r)["status"] for r in (granted, denied)} == {"waiting_approval"}, why="two runs to park")
        wait_for(lambda: db.run(forgotten)["status"] == "stalled", why="the unanswered run to stall")
        assert "no answer to its approval request within 1 s" in db.run(forgotten)["message"]

        listing = json.loads(cli("approvals", "list", "--json", "--database", pg_url).stdout)["approvals"]
        mine = [a for a in listing if a["run_id"] == granted]
        assert len(mine) == 1 and mine[0]["status"] == "pending"
        request = mine[0]["request"]
        assert request["capability"] == "commands" and request["command"] == "python mark.py" and request["rule"]
        rid = mine[0]["request_id"]
        shown = cli("approvals", "list", granted, "--database", pg_url).stdout
        assert rid in shown and "python mark.py" in shown

        # A watcher can look but not answer.
        cluster.sql("CREATE ROLE watcher LOGIN")
        database_name = pg_url.split("/")[3].split("?")[0]
        for grant in ("GRANT USAGE ON SCHEMA konstruct TO watcher", "GRANT SELECT ON ALL TABLES IN SCHEMA konstruct TO watcher"):
            cluster.sql(grant, database_name)
        watcher_url = cluster.url(database_name, user="watcher")
        assert cli("approvals", "list", granted, "--database", watcher_url).returncode == 0
        refused = cli("approvals", "grant", granted, rid, "--database", watcher_url)
        assert refused.returncode == 2 and "permission denied" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
        assert db.approvals(granted)[0]["status"] == "pending"

        answer = cli("approvals", "grant", granted, rid, "--database", pg_url)
        assert answer.returncode == 0, answer.stderr
        assert json.loads(answer.stdout)["status"] == "queued"
        other = db.approvals(denied)[0]["request_id"]
        assert cli("approvals", "deny", denied, other, "--message", "use the Makefile target", "--database", pg_url).returncode == 0
        again = cli("approvals", "grant", denied, other, "--database", pg_url)
        assert again.returncode == 2 and "already answered: denied" in again.stderr  # a deny is final

        wait_for(lambda: db.run(granted)["status"] == "done", why="the granted run to finish", state=lambda: db.run(granted), timeout=90)
        # A deny is final for that request: the run goes on without the command, and its gate (which
        # does not ask the executor's permissions) closes the phase on its own checks.
        wait_for(lambda: db.run(denied)["status"] == "done", why="the denied run to finish", state=lambda: db.run(denied), timeout=90)
    finally:
        worker.send_signal(signal.SIGTERM)
        worker.wait(30)
    kinds = {e["kind"]: e for e in db.audit(granted)}
    assert kinds["approval_granted"]["actor"].startswith("postgres (") and kinds["approval_granted"]["at"] > kinds["approval_requested"]["at"]
    # The granted command ran once the run resumed: what it wrote is in the pushed branch.
    assert git("show", f"konstruct/{granted}:marker.txt", cwd=repo) == "the asked command ran"
    # The denied one never ran: not asked again, refused to the executor, nothing of it in the branch.
    denied_kinds = [e["kind"] for e in db.audit(denied)]
    assert denied_kinds.count("approval_requested") == 1 and denied_kinds.count("approval_denied") == 1
    assert [a["status"] for a in db.approvals(denied)] == ["denied"]
    assert "marker.txt" not in git("ls-tree", "--name-only", f"konstruct/{denied}", cwd=repo).split()
    assert "return a + b" in git("show", f"konstruct/{denied}:calc.py", cwd=repo)
    # Each run asked twice (the step that parked, the step after the answer): the grant ran it the
    # second time, the deny refused it both times.
    assert [c.ok for c in _calls(db, granted) if c.tool == "run_command"] == [False, True]
    refusals = [c for c in _calls(db, denied) if c.tool == "run_command"]
    assert [c.ok for c in refusals] == [False, False]
    # The denier's message reached the executor as the refused call's result, as at a trust prompt.
    assert "use the Makefile target" in json.dumps(refusals[1].result) and "use the Makefile target" not in json.dumps(refusals[0].result)
    denial = next(e for e in db.audit(denied) if e["kind"] == "approval_denied")
    assert denial["detail"]["message"] == "use the Makefile target"
    report = cli("blueprint", "report", granted, "--database", pg_url).stdout
    assert "approval_granted by postgres" in report


def _calls(db, run_id: str) -> list:
    """The executor's tool calls as the run's own store recorded them (read as any reader does)."""
    import tempfile

    from konstruct_tui.blueprint import RunStore

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "runs.sqlite3"
        path.write_bytes(db.store(run_id))
        store = RunStore.read_only(path)
        try:
            return store.calls(run_id, "p1", "executor")
        finally:
            store.close()
