"""The blueprint file: what a person writes, and errors that name the line and the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from konstruct_tui.blueprint import BlueprintInvalid, parse_blueprint

GOOD = '''title = "Three phases"

[[phases]]
id = "p1"
title = "One"
goal = "first"
relevant = ["src/", "calc.py"]
verify = ["python -m pytest -q"]

[[phases.tasks]]
id = "t1"
text = "do one"

[[phases]]
id = "p2"
title = "Two"
goal = "second"
tasks = [{id = "a", text = "do a"}, {id = "b", text = "do b"}]
'''


def test_a_good_blueprint_reads_into_phases_and_tasks() -> None:
    plan = parse_blueprint(GOOD)
    assert plan.title == "Three phases"
    assert [p.id for p in plan.phases] == ["p1", "p2"]
    assert plan.phases[0].relevant == ("src/", "calc.py") and plan.phases[0].verify == ("python -m pytest -q",)
    assert plan.phase("p2").task_ids() == ("a", "b") and plan.phase("p2").verify == ()


@pytest.mark.parametrize(("text", "expected"), [
    (GOOD.replace('goal = "second"\n', ""), "plan.toml:14: phases[2].goal: is missing"),
    (GOOD.replace('relevant = ["src/", "calc.py"]', 'relevent = ["src/"]'), "plan.toml:7: phases[1].relevent: unknown key"),
    (GOOD.replace('id = "t1"', 'id = 7'), "plan.toml:11: phases[1].tasks[1].id: must be a non-empty string"),
    (GOOD.replace('id = "p2"', 'id = "p1"'), "plan.toml:15: phases[2].id: duplicate phase id 'p1'"),
    (GOOD.replace('"calc.py"]', '"../outside.py"]'), "plan.toml:7: phases[1].relevant: '../outside.py' must be a workspace-relative path"),
    (GOOD.replace('title = "One"', 'title = "One'), "plan.toml:5: not valid TOML"),
    ('title = "x"\n', "plan.toml: phases: at least one [[phases]] table is needed"),
])
def test_a_malformed_blueprint_names_the_line_and_the_key(text: str, expected: str) -> None:
    with pytest.raises(BlueprintInvalid) as caught:
        parse_blueprint(text, "plan.toml")
    assert str(caught.value).startswith(expected), str(caught.value)


def test_the_cli_refuses_a_malformed_blueprint_with_exit_2_and_writes_nothing(tmp_path: Path, konstruct, private_user_dirs: Path) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(GOOD.replace('goal = "first"\n', ""))
    code, out, err = konstruct("blueprint", "run", str(plan), "--root", str(tmp_path), "--provider", "scripted", "--script", str(plan))
    assert code == 2 and out is None
    assert err.strip() == "konstruct: error: plan.toml:3: phases[1].goal: is missing"
    assert not list(private_user_dirs.rglob("runs.sqlite3"))


def test_the_cli_refuses_a_verify_command_the_policy_refuses(tmp_path: Path, konstruct, private_user_dirs: Path) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(GOOD.replace('verify = ["python -m pytest -q"]', 'verify = ["pytest -q && rm -rf /"]'))
    code, _, err = konstruct("blueprint", "run", str(plan), "--root", str(tmp_path), "--provider", "scripted", "--script", str(plan))
    assert code == 2 and "verify command 'pytest -q && rm -rf /' is refused by the command policy" in err
    assert not list(private_user_dirs.rglob("runs.sqlite3"))


def test_unknown_runs_and_missing_files_are_usage_errors(tmp_path: Path, konstruct, private_user_dirs: Path) -> None:
    code, _, err = konstruct("blueprint", "status", "bp-nope")
    assert code == 2 and "no blueprint run has been started yet" in err
    assert konstruct("blueprint", "status", "--json")[1] == {"runs": []}
    assert not [p for p in private_user_dirs.rglob("*") if p.is_file()]  # asking wrote nothing
    assert konstruct("blueprint", "resume", "bp-nope")[0] == 2
    assert konstruct("blueprint", "report", "bp-nope")[0] == 2
    code, _, err = konstruct("blueprint", "run", str(tmp_path / "missing.toml"))
    assert code == 2 and "cannot read blueprint" in err


def test_relevant_files_and_task_targets_are_read_in_one_spelling() -> None:
    text = GOOD.replace('"calc.py"]', '"src/../calc.py", "./docs//", "."]')
    phase = parse_blueprint(text).phases[0]
    assert phase.relevant == ("src/", "calc.py", "docs/", "**")
    with_targets = GOOD.replace('text = "do one"', 'text = "do one"\nfiles = ["./tests/../tests/test_calc.py"]')
    assert parse_blueprint(with_targets).phases[0].tasks[0].files == ("tests/test_calc.py",)
    with pytest.raises(BlueprintInvalid, match="must be a workspace-relative path"):
        parse_blueprint(GOOD.replace('"calc.py"]', '"src/../../calc.py"]'))
