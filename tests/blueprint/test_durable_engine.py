"""A run on one machine goes through the durable engine (issue 28): a DBOS workflow whose record
lives in the run store's own SQLite file, one checkpointed step per unit the store resumes from (a
phase's verify baseline, each executor attempt, the gate's verify tier and its adjudicator tier)."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest
from blueprint_harness import (
    DOC,
    DOCSTRING,
    EVIDENCE,
    ONE_TRY,
    PHASE_DOC,
    PHASE_FIX,
    blueprint_text,
    claim_done,
    edit,
    engine_record,
    read,
    run_blueprint,
    verdict,
    write_scripts,
)

def test_a_two_phase_run_is_one_workflow_with_a_step_per_unit(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
        "executor-p2": [read("calc.py"), edit("calc.py", *DOCSTRING)],
        "adjudicator-p2": [verdict("complete", {"t1": DOC})],
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX, PHASE_DOC), scripts)
    assert result.finished.reason == "done"

    [(workflow, status, output, steps)] = engine_record(result.store.path, result.run_id)
    assert (workflow, status) == (result.run_id, "SUCCESS")
    assert output == {"run": result.run_id, "reason": "done", "message": "all 2 phases closed"}
    assert steps == [("konstruct_unit", {"unit": unit}) for unit in
                     ("baseline p1", "attempt p1.1", "verify p1.1", "adjudicate p1.1", "baseline p2", "attempt p2.1", "adjudicate p2.1")]
    # One file: the ledger and the engine's tables side by side.
    tables = {row[0] for row in sqlite3.connect(result.store.path).execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"runs", "gates", "audit", "workflow_status", "operation_outputs"} <= tables


def test_a_unit_that_ends_the_run_is_recorded_as_raised_and_the_run_parks_as_before(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {  # claims done without changing anything: never closes
        "executor-p1": [read("calc.py"), claim_done()],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts, options=ONE_TRY)
    assert result.finished.reason == "stalled"
    [(_, status, output, steps)] = engine_record(result.store.path, result.run_id)
    assert status == "SUCCESS" and output["reason"] == "stalled"
    assert [s[1]["unit"] for s in steps] == ["baseline p1", "attempt p1.1", "verify p1.1", "adjudicate p1.1"]


def test_a_resume_is_the_next_continuation_and_replays_nothing(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
    })
    from blueprint_harness import RecordingBook, run_with

    first = run_with(project, blueprint_text(PHASE_FIX), RecordingBook(scripts, unreachable="adjudicator"), options=ONE_TRY)
    assert first.finished.reason == "error"  # fail-closed: no adjudicator, no close; resumable
    write_scripts(scripts, {"adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})]})
    again = run_blueprint(project, blueprint_text(PHASE_FIX), scripts, store=first.store, run_id=first.run_id, resumed=True, options=ONE_TRY)
    assert again.finished.reason == "done"

    record = engine_record(first.store.path, first.run_id)
    assert [(w, s, o["reason"]) for w, s, o, _ in record] == [(first.run_id, "SUCCESS", "error"), (f"{first.run_id}~1", "SUCCESS", "done")]
    # The continuation judges again (verify and adjudicator); the executor's recorded attempt is not re-run.
    assert [s[1]["unit"] for s in record[1][3]] == ["baseline p1", "verify p1.1", "adjudicate p1.1"]


def test_a_store_the_engine_cannot_use_is_one_line_and_no_run_is_recorded(project: Path, tmp_path: Path, konstruct) -> None:
    from konstruct_tui.blueprint import RunStore, default_path

    RunStore().close()
    with sqlite3.connect(default_path()) as db:  # someone's table where the engine keeps its workflows
        db.execute("CREATE TABLE workflow_status (who TEXT)")
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX))
    scripts = write_scripts(tmp_path / "s", {"executor-p1": [read("calc.py")]})
    code, out, err = konstruct("blueprint", "run", str(plan), "--root", str(project), "--provider", "scripted", "--script", str(scripts), "--headless")
    assert code == 2 and not out
    assert len(err.strip().splitlines()) == 1 and str(default_path()) in err and "durable engine" in err and "internal error" not in err
    assert [r.id for r in RunStore().runs()] == []
    assert (project / "calc.py").read_text().count("a - b") == 1


@pytest.mark.parametrize("twice", [False, True])
def test_one_process_drives_runs_of_one_store_only(tmp_path: Path, twice: bool) -> None:
    from konstruct_tui.blueprint import LocalEngine, RunStore, StoreUnusable

    first, second = RunStore(tmp_path / "a.sqlite3"), RunStore(tmp_path / "b.sqlite3")
    with contextlib.ExitStack() as users:  # one run of the store, or two at once (a workbench)
        for _ in range(2 if twice else 1):
            users.enter_context(LocalEngine(first.path))
        with pytest.raises(StoreUnusable, match="already drives a run"):
            LocalEngine(second.path).__enter__()
    with LocalEngine(second.path) as engine:  # once every run of the first is done, the other store is fine
        assert engine.steps("bp-x").workflow == "bp-x"


def test_a_run_cancelled_mid_unit_ends_as_the_orchestrator_says_and_the_engine_records_it(tmp_path: Path) -> None:
    """The watchdog's `quiet` alarm cancels the run's task wherever it is, also inside a step: the
    orchestrator turns that into its ending, and the workflow ends with it (nothing left pending)."""
    import asyncio

    from konstruct_tui.agent import Finished
    from konstruct_tui.blueprint import LocalEngine, RunStore

    store = RunStore(tmp_path / "runs.sqlite3")

    async def run() -> Finished:
        async def hang() -> None:
            asyncio.current_task().cancel()  # type: ignore[union-attr]
            await asyncio.sleep(30)

        try:
            await steps.run("attempt p1.1", hang)
        except asyncio.CancelledError:
            return Finished(reason="error", session_id="bp-q", turns=0, message="watchdog: no session running")
        raise AssertionError("the cancel did not reach the run")

    with LocalEngine(store.path) as engine:
        steps = engine.steps("bp-q", new=True)
        finished = asyncio.run(steps.drive(run))
    assert finished.reason == "error"
    [(workflow, status, output, units)] = engine_record(store.path, "bp-q")
    assert (workflow, status, output["reason"]) == ("bp-q", "SUCCESS", "error") and units == []


def test_a_resume_never_reuses_a_workflow_the_engine_already_finished(tmp_path: Path) -> None:
    """A continuation deleted from the engine's tables (its garbage collection, a hand) leaves a gap:
    the next resume goes past the highest id there is, never onto a finished workflow whose
    recorded result DBOS would hand back without running anything."""
    import asyncio

    from konstruct_tui.agent import Finished
    from konstruct_tui.blueprint import LocalEngine, RunStore, StoreUnusable
    from konstruct_tui.blueprint.engine import EngineSteps

    store = RunStore(tmp_path / "runs.sqlite3")
    ran: list[str] = []

    def drive(steps) -> Finished:  # type: ignore[no-untyped-def]
        async def run() -> Finished:
            ran.append(steps.workflow)
            return Finished(reason="done", session_id="bp-g", turns=0, message="ok")

        return asyncio.run(steps.drive(run))

    with LocalEngine(store.path) as engine:
        for _ in range(3):
            drive(engine.steps("bp-g"))
        with sqlite3.connect(store.path) as db:  # RUN~1 gone: RUN and RUN~2 left
            db.execute("DELETE FROM workflow_status WHERE workflow_uuid = 'bp-g~1'")
        assert drive(engine.steps("bp-g")).reason == "done"
        # A workflow id the engine already finished (a store copied under a new run, a hand): one
        # line saying nothing ran, not a result replayed as if the run had gone on.
        with pytest.raises(StoreUnusable, match="already holds a finished workflow bp-g~3"):
            drive(EngineSteps("bp-g", "bp-g~3", store.path))
    assert ran == ["bp-g", "bp-g~1", "bp-g~2", "bp-g~3"]
