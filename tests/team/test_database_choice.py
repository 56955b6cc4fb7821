"""Which database a command uses, and the ones it refuses: one line, exit 2, no password shown,
nothing written."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from team_harness import make_repo, two_phase_plan


def test_an_unreachable_database_is_one_line_without_its_password(konstruct, tmp_path: Path) -> None:
    url = f"postgresql://alice:hunter2-secret@/nodb?host={tmp_path}/no-socket-here"
    for argv in (("blueprint", "status", "--database", url), ("approvals", "list", "--database", url), ("blueprint", "report", "r1", "--database", url)):
        code, out, err = konstruct(*argv)
        assert code == 2 and out is None, argv
        assert "hunter2-secret" not in err and "alice:***@" in err and len(err.strip().splitlines()) == 1, err


def test_the_environment_and_config_toml_choose_the_database(konstruct, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"postgresql://bob:pw-in-env@/x?host={tmp_path}/none"
    monkeypatch.setenv("KONSTRUCT_DATABASE_URL", url)
    code, _, err = konstruct("blueprint", "status")
    assert code == 2 and "bob:***@" in err and "pw-in-env" not in err
    monkeypatch.delenv("KONSTRUCT_DATABASE_URL")
    config = Path(__import__("os").environ["XDG_CONFIG_HOME"]) / "konstruct" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f'[team]\ndatabase = "postgresql://carol:pw-in-config@/y?host={tmp_path}/none"\n')
    code, _, err = konstruct("blueprint", "status", "--json")
    assert code == 2 and "carol:***@" in err and "pw-in-config" not in err


def test_a_database_of_someone_else_or_of_another_version_is_refused_and_left_alone(konstruct, tmp_path: Path) -> None:
    theirs = tmp_path / "theirs.sqlite3"
    with sqlite3.connect(theirs) as db:
        db.execute("CREATE TABLE invoices (id INTEGER)")
    before = theirs.read_bytes()
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path)
    for argv in (("blueprint", "status", "--database", f"sqlite:///{theirs}"),
                 ("blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts), "--database", f"sqlite:///{theirs}")):
        code, _, err = konstruct(*argv)
        assert code == 2 and "is not a konstruct team database" in err and "invoices" in err, err
    assert theirs.read_bytes() == before

    future = tmp_path / "future.sqlite3"
    with sqlite3.connect(future) as db:
        db.execute("CREATE TABLE konstruct_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO konstruct_meta VALUES ('schema_version', '99')")
    code, _, err = konstruct("approvals", "list", "--database", f"sqlite:///{future}")
    assert code == 2 and "schema version '99'" in err

    code, _, err = konstruct("blueprint", "status", "--database", "mysql://x@y/z")
    assert code == 2 and "sqlite:///PATH or postgresql://" in err


def test_bad_submissions_are_refused_before_anything_is_queued(konstruct, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path)
    url = f"sqlite:///{tmp_path / 'team.sqlite3'}"
    code, _, err = konstruct("blueprint", "submit", str(plan), "--repo", str(tmp_path / "nope"), "--database", url, "--provider", "scripted", "--script", str(scripts))
    assert code == 2 and "no such folder" in err
    code, _, err = konstruct("blueprint", "submit", str(plan), "--repo", str(repo), "--ref", "no-such-branch", "--database", url, "--provider", "scripted", "--script", str(scripts))
    assert code == 2 and "no-such-branch" in err
    (tmp_path / "bad.toml").write_text("title = 3\n")
    code, _, err = konstruct("blueprint", "submit", str(tmp_path / "bad.toml"), "--repo", str(repo), "--database", url)
    assert code == 2
    assert not (tmp_path / "team.sqlite3").exists()


def test_a_run_id_not_in_the_team_database_is_one_line(konstruct, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path)
    url = f"sqlite:///{tmp_path / 'team.sqlite3'}"
    code, out, err = konstruct("blueprint", "submit", str(plan), "--repo", str(repo), "--database", url, "--provider", "scripted", "--script", str(scripts))
    assert code == 0, err
    run_id = out["run"]
    code, listing, _ = konstruct("blueprint", "status", "--json", "--database", url)
    assert [r["run_id"] for r in listing["runs"]] == [run_id] and listing["runs"][0]["status"] == "queued"
    for argv in (("blueprint", "status", "bp-nope"), ("blueprint", "stop", "bp-nope"), ("approvals", "grant", "bp-nope", "r1")):
        code, _, err = konstruct(*argv, "--database", url)
        assert code == 2 and "bp-nope" in err, argv
    code, answer, err = konstruct("approvals", "grant", run_id, "r-nothing", "--database", url)
    assert code == 2 and "no approval request" in err
    code, stopped, _ = konstruct("blueprint", "stop", run_id, "--database", url)
    assert code == 0 and stopped == {"run": run_id, "status": "stopped"}
    code, resumed, _ = konstruct("blueprint", "resume", run_id, "--database", url)
    assert code == 0 and resumed == {"run": run_id, "status": "queued"}
    assert json.dumps(listing).count("password") == 0
