"""`konstruct trust list|grant|revoke`: every grant is listed and revocable; bad input exits 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konstruct_tui.cli import main
from konstruct_tui.trust import TrustStore


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict | None, str]:
    code = main(["trust", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def test_grant_list_revoke(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = ["--root", str(tmp_path)]
    assert _run(capsys, "list", *root)[1] == {"grants": []}
    assert _run(capsys, "grant", *root, "edit", "--path", "src/**")[0] == 0
    assert _run(capsys, "grant", *root, "commands")[0] == 0
    listed = _run(capsys, "list", *root)[1]["grants"]
    assert [(g["capability"], g["scope"], g["paths"]) for g in listed] == [("edit", "always", ["src/**"]), ("commands", "always", [])]
    code, payload, _ = _run(capsys, "revoke", *root, "commands")
    assert code == 0 and [g["capability"] for g in payload["revoked"]] == ["commands"]
    assert [g["capability"] for g in _run(capsys, "list", *root)[1]["grants"]] == ["edit"]
    assert len(_run(capsys, "revoke", *root)[1]["revoked"]) == 1
    assert _run(capsys, "list", *root)[1] == {"grants": []}


def test_grants_from_another_process_show_up(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    TrustStore().grant(tmp_path, "scripts")
    assert [g["capability"] for g in _run(capsys, "list", "--root", str(tmp_path))[1]["grants"]] == ["scripts"]


def test_a_corrupt_store_warns_and_lists_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    store = TrustStore()
    store.grant(tmp_path, "commands")
    store.path.write_text("{oops")
    code, payload, err = _run(capsys, "list", "--root", str(tmp_path))
    assert code == 0 and payload == {"grants": []}
    assert "warning" in err and "corrupt-" in err


@pytest.mark.parametrize(
    "argv",
    [["grant", "root"], ["grant", "commands", "--path", "src/**"], ["revoke", "sudo"], ["revoke", "scripts", "--path", "x"],
     ["list", "--root", "/no/such/dir"], []],
)
def test_bad_input_exits_2_and_changes_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]) -> None:
    TrustStore().grant(tmp_path, "scripts")
    before = TrustStore().path.read_bytes()
    extra = ["--root", str(tmp_path)] if argv and "--root" not in argv else []
    code, payload, err = _run(capsys, *argv, *extra)
    assert code == 2 and payload is None
    assert err.startswith("konstruct: error:") and err.count("\n") == 1
    assert TrustStore().path.read_bytes() == before


@pytest.mark.parametrize("argv", [["policy", "show"], ["trust", "list"]])
def test_a_damaged_store_is_one_warning_line_whichever_command_meets_it(tmp_path: Path, argv: list[str]) -> None:
    # Python's own warning format is two lines (`file:line: TrustStoreWarning: ...` and the source
    # line); every command of the CLI says it as `konstruct: warning: ...`.
    import os
    import subprocess
    import sys

    config = tmp_path / "config"
    (config / "konstruct").mkdir(parents=True)
    (config / "konstruct" / "trust.json").write_text("{oops")
    project = tmp_path / "project"
    project.mkdir()
    env = {**os.environ, "XDG_CONFIG_HOME": str(config), "PYTHONWARNINGS": "default"}
    done = subprocess.run([sys.executable, "-m", "konstruct_tui", *argv, "--root", str(project)], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    lines = done.stderr.splitlines()
    assert lines and all(line.startswith("konstruct: warning: the trust store ") for line in lines), done.stderr
    assert len(lines) == len(set(lines)) and "TrustStoreWarning" not in done.stderr


def test_command_rules_are_listed_with_scope_time_and_what_they_allow(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = ["--root", str(tmp_path)]
    assert _run(capsys, "grant", *root, "commands", "--rule", "pytest")[0] == 0
    assert _run(capsys, "grant", *root, "commands", "--exact", "sleep 120")[0] == 0
    assert _run(capsys, "grant", *root, "edit", "--path", "src/**")[0] == 0
    listed = _run(capsys, "list", *root)[1]["grants"]
    assert [(g["scope"], g.get("command"), g["allows"]) for g in listed] == [
        ("always", {"match": "prefix", "argv": ["pytest"], "text": "pytest …"}, "commands pytest …"),
        ("always", {"match": "exact", "argv": ["sleep", "120"], "text": "sleep 120"}, "the command sleep 120"),
        ("always", None, "edits to src/**"),
    ]
    assert all(g["granted_at"].endswith("Z") for g in listed)
    # a rule is revoked on its own; the other grants stay
    code, payload, _ = _run(capsys, "revoke", *root, "commands", "--rule", "pytest")
    assert code == 0 and [g["command"]["text"] for g in payload["revoked"]] == ["pytest …"]
    assert [g["allows"] for g in _run(capsys, "list", *root)[1]["grants"]] == ["the command sleep 120", "edits to src/**"]


def test_an_exact_chain_is_granted_listed_and_revoked_as_the_prompt_keeps_it(capsys: pytest.CaptureFixture[str],
                                                                             tmp_path: Path) -> None:
    root = ["--root", str(tmp_path)]
    assert _run(capsys, "grant", *root, "commands", "--exact", "make  &&  make test;pytest -q")[0] == 0
    (listed,) = _run(capsys, "list", *root)[1]["grants"]
    assert listed["allows"] == "the chain make && make test ; pytest -q"
    assert [s["connector"] for s in listed["command"]["steps"]] == [None, "&&", ";"]
    code, payload, _ = _run(capsys, "revoke", *root, "commands", "--exact", "make && make test; pytest -q")
    assert code == 0 and len(payload["revoked"]) == 1 and _run(capsys, "list", *root)[1]["grants"] == []


@pytest.mark.parametrize("argv", [
    ["grant", "commands", "--rule", "git -c core.pager=less"],  # an unsafe option
    ["grant", "commands", "--rule", "pytest; rm -rf /"],  # shell syntax
    ["grant", "commands", "--rule", "CC=x make"],
    ["grant", "commands", "--exact", ""],
    ["grant", "edit", "--rule", "pytest"],  # rules scope commands only
    ["grant", "commands", "--rule", "pytest", "--exact", "pytest"],
    ["revoke", "scripts", "--exact", "pytest"],
    ["grant", "commands", "--exact", "make | tee log"],  # a pipe is never a chain
    ["grant", "commands", "--exact", "make && rm -rf /"],  # the deny list answers first
    ["grant", "commands", "--exact", "make &&"],
])
def test_a_bad_rule_is_one_line_exit_2_and_nothing_stored(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          argv: list[str]) -> None:
    try:
        code = main(["trust", argv[0], "--root", str(tmp_path), *argv[1:]])
    except SystemExit as exited:  # argparse's own usage errors
        code = exited.code  # type: ignore[assignment]
    err = capsys.readouterr().err
    assert code == 2 and "error" in err
    assert len(err.strip().splitlines()) == 1 or err.startswith("usage:")  # ours one line; argparse's usage + error
    assert TrustStore().grants(tmp_path) == [] and not TrustStore().path.exists()
