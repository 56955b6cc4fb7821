"""run_command: project scripts first, arbitrary commands under their own grant, the policy's decision
on every result, and per-call statuses."""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from konstruct_tui.cli import main
from konstruct_tui.commands import Cancellation
from konstruct_tui.tools import ToolContext, ToolError, call
from konstruct_tui.trust import DenyAll, TrustSession, TrustStore
from konstruct_tui.workspace import Workspace


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    py = sys.executable
    (root / "Makefile").write_text(
        f"test:\n\t{py} -c 'print(42)'\nfail:\n\t{py} -c 'import sys; sys.exit(4)'\nwipe:\n\trm -rf / --no-preserve-root\n"
    )
    (root / "tests").mkdir()
    (root / "tests" / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    return root


def _run(root: Path, context_extra: dict[str, Any] | None = None, **arguments: Any) -> dict[str, Any]:
    with Workspace(root) as workspace:
        context = ToolContext(workspace)
        for name, value in (context_extra or {}).items():
            setattr(context, name, value)
        return call("run_command", arguments, context).to_json()


def test_runs_a_project_script(project: Path) -> None:
    result = _run(project, script="make:test")
    assert result["status"] == "ok" and result["exit_code"] == 0
    assert "42" in result["stdout"]
    assert result["policy"] == {"decision": "allow", "rule": "project_script", "capability": "scripts",
                                "reason": result["policy"]["reason"]}
    assert isinstance(result["duration_s"], float)
    assert result["stdout_truncated"] is False


def test_failing_script_is_failed_with_its_exit_code(project: Path) -> None:
    result = _run(project, script="fail")
    assert (result["status"], result["exit_code"]) == ("failed", 2)  # make reports the recipe's failure as 2


def test_unknown_script_lists_the_known_ones(project: Path) -> None:
    result = _run(project, script="deploy")
    assert result["status"] == "not_found"
    assert "make:test" in result["reason"]


def test_a_script_whose_body_is_denied_is_refused(project: Path) -> None:
    result = _run(project, script="wipe")
    assert (result["status"], result["policy"]["rule"]) == ("refused", "deny")
    assert "exit_code" not in result


def test_command_runs_without_a_shell(project: Path) -> None:
    result = _run(project, command="echo '$HOME' 'a|b'")  # an unquoted $HOME is refused: only a shell knows it
    assert result["status"] == "ok"
    assert result["stdout"] == "$HOME a|b\n"
    # the person's own call: no grant needed (`echo` may also be a read-only command: allow, confined read-only)
    assert result["policy"]["decision"] in ("ask", "allow")


@pytest.mark.parametrize("command", ["rm -rf /", "ls; ls", "sudo ls", "bash -c 'ls && ls'"])
def test_refusals_apply_to_the_person_too(project: Path, command: str) -> None:
    result = _run(project, command=command)
    assert result["status"] == "refused"
    assert result["reason"] and result["policy"]["decision"] == "refuse"


def test_the_agent_needs_the_commands_grant_for_a_command(project: Path) -> None:
    session = TrustSession(project, broker=DenyAll())
    result = _run(project, {"trust": session}, command="touch hi.txt")  # not a read-only command
    assert result["status"] == "needs_grant"
    assert result["trust_request"] == {"capability": "commands", "detail": "touch hi.txt", "paths": []}
    assert "stdout" not in result
    TrustStore().grant(project, "commands")
    assert _run(project, {"trust": session}, command="touch hi.txt")["status"] == "ok"


def test_the_agent_needs_the_scripts_grant_for_a_script(project: Path) -> None:
    session = TrustSession(project, broker=DenyAll())
    assert _run(project, {"trust": session}, script="test")["status"] == "needs_grant"
    TrustStore().grant(project, "scripts")
    assert _run(project, {"trust": session}, script="test")["status"] == "ok"
    assert _run(project, {"trust": session}, command="touch hi.txt")["status"] == "needs_grant"  # scripts do not cover commands


def test_timeout_status(project: Path) -> None:
    result = _run(project, command=f"{sys.executable} -c 'import time; time.sleep(20)'", timeout_s=0.5)
    assert result["status"] == "timeout" and result["exit_code"] is None


def test_killed_status_when_the_run_is_cancelled(project: Path) -> None:
    cancellation = Cancellation()
    threading.Timer(0.3, cancellation.cancel).start()
    started = time.monotonic()
    result = _run(project, {"cancellation": cancellation}, command=f"{sys.executable} -c 'import time; time.sleep(20)'")
    assert result["status"] == "killed"
    assert time.monotonic() - started < 3


def test_leading_assignments_become_the_environment(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-nope")
    code = "import os; print(os.environ.get('GREETING'), os.environ.get('OPENAI_API_KEY'))"
    result = _run(project, command=f'GREETING=hello {sys.executable} -c "{code}"')
    assert result["stdout"] == "hello None\n"


def test_output_never_shows_the_workspace_location(project: Path) -> None:
    result = _run(project, command="pwd")
    assert str(project.resolve()) not in json.dumps(result)


@pytest.mark.parametrize("arguments", [{}, {"script": "test", "command": "ls"}, {"script": " "}, {"command": "ls", "timeout_s": 0}])
def test_bad_input_is_a_tool_error(project: Path, arguments: dict[str, Any]) -> None:
    with Workspace(project) as workspace, pytest.raises(ToolError):
        call("run_command", arguments, ToolContext(workspace))


def test_through_the_cli(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["tool", "run_command", "--root", str(project), "--json", json.dumps({"script": "make:test"})])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert json.loads(out)["status"] == "ok"


def test_the_stored_project_policy_applies(project: Path) -> None:
    TrustStore().set_command_settings(project, ("python",), ("make",), chains=True)
    assert _run(project, command="curl https://example.com")["policy"]["rule"] == "allowlist"
    allowed = _run(project, command="echo one && echo two")
    assert (allowed["status"], allowed["policy"]["decision"], allowed["stdout"]) == ("ok", "allow", "one\ntwo\n")
    session = TrustSession(project, broker=DenyAll())
    assert _run(project, {"trust": session}, command="ls")["status"] == "ok"  # allowlisted: no grant needed
    TrustStore().revoke(project)  # revoking grants keeps the policy
    assert TrustStore().command_settings(project)["presets"] == ["python"]
