"""The gate's rules do not change when a run goes through the durable engine: the blueprint suite's
gate scenarios, run once in-process (`konstruct blueprint run`'s path) and once submitted and served
by a worker on the one-machine SQLite database, end the same way: the same status, the same phases,
the same gate decisions at each attempt and tier, the same defects. (A phase is a step of the
workflow; the attempts of a phase happen inside its step.)"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from blueprint_harness import EVIDENCE, PHASE_FIX, THREE_TASK_EVIDENCE as E, THREE_TASKS, blueprint_text, claim_done, edit, read, run_with, shrinking_outstanding_scripts, verdict, write_scripts

from konstruct_tui.app import ScriptBook
from konstruct_tui.blueprint import RunOptions, RunStore
from konstruct_tui.team.database import default_url

from team_processes import cli
from team_harness import database, make_repo


SCENARIOS: dict[str, tuple[str, dict[str, list[dict[str, Any]]], int]] = {
    "closes when done and checked": (blueprint_text(PHASE_FIX), {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [read("calc.py"), verdict("complete", {"t1": EVIDENCE})],
    }, 3),
    "nothing changed never closes, however fooled the reviewer": (blueprint_text(PHASE_FIX), {
        "executor-p1": [claim_done("fixed add"), claim_done("really fixed add")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    }, 3),
    "a change outside the relevant files is vetoed": (blueprint_text(PHASE_FIX), {
        "executor-p1": [read("notes.md"), edit("notes.md", "# notes", "# notes\nadd is fixed")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    }, 0),
    "a shrinking outstanding set goes on until complete, with defects": (blueprint_text(THREE_TASKS), shrinking_outstanding_scripts(), 3),
    "the same outstanding set twice stalls": (blueprint_text(THREE_TASKS), {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b", marks=("t1", "t2", "t3")), claim_done("t2 done too")],
        "adjudicator-p1": [verdict("incomplete", E, outstanding=("t2", "t3"))],
    }, 3),
}


def _outcome(store: RunStore, run_id: str) -> dict[str, Any]:
    phases = store.phases(run_id)
    return {"phases": [(p.phase_id, p.status) for p in phases],
            "gates": [(g.phase_id, g.attempt, g.tier, g.decision, g.verdict, g.outstanding) for p in phases for g in store.gates(run_id, p.phase_id)],
            "defects": store.defects(run_id)}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_a_gate_scenario_ends_the_same_through_the_engine(name: str, tmp_path: Path) -> None:
    text, scripts_spec, retries = SCENARIOS[name]
    scripts = write_scripts(tmp_path / "scripts", scripts_spec)
    plan = tmp_path / "plan.toml"
    plan.write_text(text)

    here = make_repo(tmp_path / "in-process", {"notes.md": "# notes\n"})
    local = run_with(here, text, ScriptBook(scripts, 20), options=RunOptions(max_retries=retries, turn_deadline_s=20, adjudicator_deadline_s=30))
    expected = _outcome(local.store, local.run_id)

    repo = make_repo(tmp_path / "repo", {"notes.md": "# notes\n"})
    done = cli("blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts),
               "--max-retries", str(retries))
    assert done.returncode == 0, done.stderr
    run_id = json.loads(done.stdout)["run"]
    served = cli("worker", "--once", "--workdir", str(tmp_path / "w"), "--heartbeat", "0.3")
    assert served.returncode == 0, served.stderr
    db = database(default_url())
    row = db.run(run_id)
    assert (row["status"], row["reason"]) == (local.finished.reason, local.finished.reason), (row, local.finished)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "runs.sqlite3"
        path.write_bytes(db.store(run_id))
        store = RunStore.read_only(path)
        try:
            assert _outcome(store, run_id) == expected
        finally:
            store.close()
    assert expected["gates"], "a scenario that reached no gate proves nothing"
