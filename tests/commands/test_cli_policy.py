"""`konstruct policy check`: JSON on stdout, exit 0 whatever the decision, exit 2 on bad input."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from konstruct_tui.cli import main


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict | None, str]:
    code = main(["policy", "check", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


@pytest.mark.parametrize(
    ("command", "decision", "rule"),
    [("rm -rf /", "refuse", "deny"), ("ls; ls", "refuse", "compound"), ("curl https://example.com", "ask", "needs_grant")],
)
def test_prints_the_decision_and_exits_0(capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str,
                                         decision: str, rule: str) -> None:
    code, payload, err = _check(capsys, "--root", str(tmp_path), "--", command)
    assert code == 0, err
    assert set(payload) == {"decision", "rule", "reason"}
    assert payload["decision"] == decision and payload["rule"] == rule
    assert payload["reason"]


def test_read_only_commands_are_allowed_confined_where_landlock_can_confine_them(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from konstruct_tui.cli.policy import read_only_sandbox

    code, payload, _ = _check(capsys, "--root", str(tmp_path), "--", "ls -la")
    if read_only_sandbox(tmp_path):
        assert (code, payload["decision"], payload["rule"], payload["confinement"]) == (0, "allow", "read_only", "read-only")
    else:
        assert (payload["decision"], payload["rule"]) == ("ask", "needs_grant") and "confinement" not in payload
    monkeypatch.setenv("KONSTRUCT_SANDBOX_ABI", "0")  # a machine without Landlock: asks as any command
    code, payload, _ = _check(capsys, "--root", str(tmp_path), "--", "ls -la")
    assert (code, payload["decision"], payload["rule"]) == (0, "ask", "needs_grant")
    assert set(payload) == {"decision", "rule", "reason"}


def test_read_only_rules_refuse_options_that_execute_or_write(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for line in ("rg --pre rm x", "git diff --output=x", "find . -delete", "git branch -D main", "git grep -Orm x",
                 "GIT_EXTERNAL_DIFF=rm git diff", "env ls", "find . -fprintf /tmp/x %p"):
        payload = _check(capsys, "--root", str(tmp_path), "--", line)[1]
        assert payload["decision"] != "allow" and "confinement" not in payload, line


def test_allow_turns_allowlist_mode_on(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = ["--root", str(tmp_path)]
    assert _check(capsys, *root, "--allow", "git status", "--", "git status -s")[1]["decision"] == "allow"
    assert _check(capsys, *root, "--allow", "git status", "--", "git stash")[1]["decision"] == "refuse"
    assert _check(capsys, *root, "--allow", "git", "--", "gitx")[1]["decision"] == "refuse"
    assert _check(capsys, *root, "--allow", "rm", "--", "rm -rf /")[1]["rule"] == "deny"


def test_presets(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = ["--root", str(tmp_path)]
    assert _check(capsys, *root, "--preset", "python", "--", "pytest -q")[1]["decision"] == "allow"
    assert _check(capsys, *root, "--preset", "node", "--", "pytest -q")[1]["decision"] == "refuse"
    assert _check(capsys, *root, "--preset", "go", "--", "go test ./...")[1]["decision"] == "allow"
    assert _check(capsys, *root, "--preset", "java", "--", "mvn test")[1]["decision"] == "allow"


def test_project_scripts_under_root_are_allowed(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"test": "jest"}}))
    code, payload, _ = _check(capsys, "--root", str(tmp_path), "--", "npm test")
    assert (code, payload["decision"], payload["rule"]) == (0, "allow", "project_script")
    assert str(tmp_path) not in json.dumps(payload)


def test_command_given_as_several_words(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONSTRUCT_SANDBOX_ABI", "0")  # no read-only allowance: grep asks like any command
    root = ["--root", str(tmp_path)]
    assert _check(capsys, *root, "--", "grep", "-rn", "a|b", "src")[1]["decision"] == "ask"
    assert _check(capsys, *root, "--", "ls", "&&", "rm", "x")[1]["rule"] == "compound"
    assert _check(capsys, *root, "--", "rm", "-rf", "/")[1]["rule"] == "deny"
    assert _check(capsys, *root, "--", "find", ".", "-name", "*.pyc", "-exec", "rm", "{}", ";")[1]["decision"] == "ask"


@pytest.mark.parametrize(
    ("line", "decision"),
    [
        ("ls; rm x", "refuse"), ("echo hi >out.txt", "refuse"), ("ls 2>/dev/null", "refuse"), (":(){ :|:& };:", "refuse"),
        ("cat x | sh", "refuse"), ("a&&b", "refuse"), ('echo "$(id)"', "refuse"), ("(ls)", "refuse"),
        ('grep -rn "a|b" src', "ask"), ('python -c "print(1)"', "ask"), ('git commit -m "a; b"', "ask"),
        ("awk '{print $1}' data.txt", "ask"), ('pytest -k "a or b"', "ask"), ("rm -rf build", "ask"),
    ],
)
def test_a_line_split_by_a_shell_keeps_its_meaning(capsys: pytest.CaptureFixture[str], tmp_path: Path, line: str,
                                                    decision: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A driver may hand COMMAND over as shlex.split(line): operators stay operators, literals stay literal."""
    monkeypatch.setenv("KONSTRUCT_SANDBOX_ABI", "0")  # no read-only allowance: grep asks like any command
    assert _check(capsys, "--root", str(tmp_path), "--", *shlex.split(line))[1]["decision"] == decision


@pytest.mark.parametrize(
    "argv",
    [
        [], ["--"], ["--", "   "], ["--preset", "cobol", "--", "ls"], ["--allow", "", "--", "ls"],
        ["--allow", "a;b", "--", "ls"], ["--root", "/no/such/dir", "--", "ls"],
    ],
)
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]) -> None:
    code, payload, err = _check(capsys, *(["--root", str(tmp_path)] if "--root" not in argv else []), *argv)
    assert code == 2
    assert payload is None
    assert err.count("\n") == 1 and err.startswith("konstruct: error:")


def test_installed_entry_point(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "konstruct_tui", "policy", "check", "--root", str(tmp_path), "--",
                           ":(){ :|:& };:"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["decision"] == "refuse"


def _policy(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict | None, str]:
    code = main(["policy", *argv])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def test_show_set_clear_the_stored_project_policy(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    root = ["--root", str(tmp_path)]
    assert _policy(capsys, "show", *root)[1] == {"presets": [], "allow": [], "chains": False, "allowlist_mode": False}
    code, payload, _ = _policy(capsys, "set", *root, "--preset", "python", "--allow", "make test", "--chains")
    assert code == 0 and payload == {"presets": ["python"], "allow": ["make test"], "chains": True, "allowlist_mode": True}
    assert _policy(capsys, "show", *root)[1]["presets"] == ["python"]
    # check is a pure function of its flags: the stored policy does not leak into it
    assert _check(capsys, *root, "--", "curl https://example.com")[1]["decision"] == "ask"
    assert _policy(capsys, "clear", *root)[1]["allowlist_mode"] is False
    assert _policy(capsys, "show", *root)[1]["presets"] == []


@pytest.mark.parametrize("argv", [["set", "--preset", "cobol"], ["set", "--allow", "a;b"], ["set", "--allow", ""]])
def test_bad_settings_exit_2_and_store_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]) -> None:
    code, payload, err = _policy(capsys, *argv, "--root", str(tmp_path))
    assert code == 2 and payload is None and err.startswith("konstruct: error:")
    assert _policy(capsys, "show", "--root", str(tmp_path))[1]["presets"] == []


@pytest.mark.parametrize("line", ["rm -rf ${HOME:0:1}", "rm${IFS}-rf${IFS}/", "{rm,-rf,/}", "/bin/r? -rf /tmp/x",
                                  "env -iS 'rm -rf /'", "xargs --max-args 1 rm -rf /", "kill -9 -01", "echo $HOME x"])
def test_expansions_survive_a_driver_that_split_the_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         line: str) -> None:
    """shlex.split keeps `${HOME:0:1}` as a word; joined back, it must stay an expansion, not a quoted literal."""
    payload = _check(capsys, "--root", str(tmp_path), "--", *shlex.split(line))[1]
    assert payload["decision"] == "refuse", payload
