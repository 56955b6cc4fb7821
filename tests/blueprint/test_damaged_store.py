"""A damaged run store: one line naming the file and what to do (exit 2), nothing changed by the
commands that only read, and a fresh run still starts, carrying over every run it can still read."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from blueprint_harness import (
    EVIDENCE,
    PHASE_FIX,
    blueprint_text,
    edit,
    read,
    verdict,
    write_scripts,
)

from konstruct_tui.blueprint.store import default_path


def _start(project: Path, tmp_path: Path, konstruct) -> tuple[str, list[str]]:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX))
    args = ["blueprint", "run", str(plan), "--root", str(project), "--provider", "scripted", "--script", str(scripts)]
    return str(plan), args


def _run_once(project: Path, tmp_path: Path, konstruct) -> str:
    (project / "calc.py").write_text((project / "calc.py").read_text().replace("a + b", "a - b"))
    _, args = _start(project, tmp_path, konstruct)
    code, out, err = konstruct(*args)
    assert code == 0, err
    return out.split("run ", 1)[1].split(" ", 1)[0]


def _settle(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def _one_line_error(code: int, err: str, path: Path) -> None:
    assert code == 2 and "internal error" not in err
    assert err.count("\n") == 1 and str(path) in err and "move it aside" in err


@pytest.mark.parametrize("damage", ["overwritten", "truncated", "emptied"])
def test_a_damaged_store_is_a_one_line_error_and_a_fresh_run_still_starts(project: Path, tmp_path: Path, konstruct, damage: str) -> None:
    first = _run_once(project, tmp_path, konstruct)
    _run_once(project, tmp_path, konstruct)
    path = default_path()
    _settle(path)
    if damage == "overwritten":
        path.write_text('{"runs": "someone saved a JSON file here"}\n' * 50)
    elif damage == "emptied":
        path.write_bytes(b"")
    else:
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    damaged = path.read_bytes()
    for args in (("status",), ("status", first), ("report", first), ("resume", first)):
        code, _, err = konstruct("blueprint", *args)
        _one_line_error(code, err, path)
    assert path.read_bytes() == damaged  # reading never repairs, moves or rewrites

    fresh = _run_once(project, tmp_path, konstruct)  # starting afresh sets the damaged store aside
    [aside] = list(path.parent.glob("runs.sqlite3.damaged-*[0-9]"))
    assert aside.read_bytes() == damaged
    code, listing, _ = konstruct("blueprint", "status", "--json")
    ids = [r["run_id"] for r in listing["runs"]]
    assert code == 0 and ids[0] == fresh
    if damage != "truncated":
        assert ids == [fresh]  # nothing was readable
        code, _, err = konstruct("blueprint", "status", first)
        assert code == 2 and f"no blueprint run {first!r} in {path}; a damaged store was set aside as {aside}" in err
    code, status, _ = konstruct("blueprint", "status", fresh, "--json")
    assert code == 0 and status["status"] == "done"


def test_the_readable_runs_of_a_damaged_store_are_carried_over(project: Path, tmp_path: Path, konstruct, capsys) -> None:
    runs = [_run_once(project, tmp_path, konstruct) for _ in range(2)]
    path = default_path()
    _settle(path)
    db = sqlite3.connect(path)  # damage one table's pages: the runs table stays readable
    page = db.execute("PRAGMA page_size").fetchone()[0]
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name='audit'").fetchone()[0]
    db.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page:(root - 1) * page + page] = b"\xff" * page
    path.write_bytes(bytes(data))
    _, args = _start(project, tmp_path, konstruct)
    (project / "calc.py").write_text((project / "calc.py").read_text().replace("a + b", "a - b"))
    code, _, err = konstruct(*args)
    assert code == 0 and "warning:" in err and "moved aside" in err and "2 earlier run(s) carried over" in err
    code, listing, _ = konstruct("blueprint", "status", "--json")
    assert {r["run_id"] for r in listing["runs"]} >= set(runs)
    code, status, _ = konstruct("blueprint", "status", runs[0], "--json")
    assert code == 0 and status["status"] == "done" and status["phases"][0]["status"] == "closed"


@pytest.mark.parametrize("damage", ["substr(blueprint, 1, 40) || '[[['", "replace(blueprint, 'id = \"p1\"', 'id = \"q9\"')"])
def test_a_damaged_blueprint_text_names_the_run_and_the_rest_still_works(project: Path, tmp_path: Path, konstruct, damage: str) -> None:
    broken = _run_once(project, tmp_path, konstruct)
    path = default_path()
    db = sqlite3.connect(path)
    db.execute(f"UPDATE runs SET blueprint = {damage}, status = 'parked' WHERE id = ?", (broken,))
    db.commit()
    db.close()
    for args in (("status", broken), ("resume", broken)):
        code, _, err = konstruct("blueprint", *args)
        assert code == 2 and "internal error" not in err and err.count("\n") == 1
        assert f"run {broken}'s blueprint text in {path} is damaged" in err and "konstruct blueprint run FILE" in err
    code, listing, _ = konstruct("blueprint", "status", "--json")
    assert code == 0 and listing["runs"][0]["run_id"] == broken
    code, report, _ = konstruct("blueprint", "report", broken)
    assert code == 0 and "## Audit trail" in report  # the recorded report does not need the blueprint text
    assert _run_once(project, tmp_path, konstruct) != broken


def test_the_workbench_sets_a_damaged_store_aside_and_says_so(project: Path, tmp_path: Path, konstruct) -> None:
    """A blueprint started from the workbench (not `konstruct blueprint run`) meets a damaged store
    the same way: set aside, a warning in the transcript, and the run goes on."""
    from konstruct_tui.agent import CollectingReporter, KillSwitch, ProviderWarning
    from konstruct_tui.app import read_blueprint, run_blueprint
    from konstruct_tui.providers import ProviderSettings
    from konstruct_tui.workspace import Workspace

    _run_once(project, tmp_path, konstruct)
    path = default_path()
    _settle(path)
    path.write_text("not a database\n" * 100)
    plan_path, args = _start(project, tmp_path, konstruct)
    (project / "calc.py").write_text((project / "calc.py").read_text().replace("a + b", "a - b"))
    workspace = Workspace(project)
    settings = ProviderSettings("scripted", "scripted", "", script=Path(args[args.index("--script") + 1]))
    reporter = CollectingReporter()
    finished = run_blueprint(read_blueprint(Path(plan_path), workspace), workspace, settings, reporter, KillSwitch())
    [warning] = [w for w in reporter.of(ProviderWarning) if w.kind == "run_store"]
    assert "moved aside" in warning.message and str(path) in warning.message
    assert finished.reason == "done"
    assert (project / "calc.py").read_text().count("a + b") == 1
    [aside] = list(path.parent.glob("runs.sqlite3.damaged-*[0-9]"))
    assert aside.read_text().startswith("not a database")
