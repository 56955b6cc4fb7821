"""run_command runs every command confined in the project's mode and says which mode, which
Landlock ABI and what happens to the network; it says "unsandboxed" where Landlock is missing, and
refuses instead when the project asks for that."""

from __future__ import annotations

import shlex
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sandbox_helpers import needs_landlock, refused

from konstruct_tui.sandbox import SandboxConfig, SandboxSettings, kernel_abi
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.trust import TrustDecision, TrustRequest, TrustSession, TrustStore
from konstruct_tui.workspace import Workspace


def _run(root: Path, command: list[str], **context_extra: Any) -> dict[str, Any]:
    with Workspace(root) as workspace:
        context = ToolContext(workspace)
        for name, value in context_extra.items():
            setattr(context, name, value)
        return call("run_command", {"command": shlex.join(command)}, context).to_json()


def _write(path: str | Path) -> list[str]:
    return [sys.executable, "-I", "-c", "import sys; open(sys.argv[1], 'w').write('x')", str(path)]


@needs_landlock
def test_default_mode_is_workspace_write_and_the_result_says_so(workspace_root: Path) -> None:
    result = _run(workspace_root, _write("made.txt"))
    assert result["status"] == "ok", result
    sandbox = result["sandbox"]
    assert (sandbox["mode"], sandbox["abi"]) == ("workspace-write", kernel_abi())
    assert sandbox["network"] == ("blocked" if kernel_abi() >= 4 else "unrestricted")
    assert (workspace_root / "made.txt").exists()


@needs_landlock
def test_writing_outside_through_run_command_fails_at_the_kernel(workspace_root: Path,
                                                                  outside_paths: Callable[[str], Path]) -> None:
    escape = outside_paths(tempfile.gettempdir())
    result = _run(workspace_root, _write(escape))
    assert result["status"] == "failed" and refused(result["stderr"])
    assert not escape.exists()


@needs_landlock
def test_the_stored_project_mode_is_used(workspace_root: Path) -> None:
    SandboxConfig().update(workspace_root, mode="read-only", allow_network=True)
    result = _run(workspace_root, _write("made.txt"))
    assert result["sandbox"]["mode"] == "read-only" and result["sandbox"]["network"] == "allowed"
    assert result["status"] == "failed" and not (workspace_root / "made.txt").exists()


def test_without_landlock_the_result_says_unsandboxed(workspace_root: Path) -> None:
    result = _run(workspace_root, _write("made.txt"), sandbox_abi=0)
    assert result["status"] == "ok"
    assert result["sandbox"]["mode"] == "unsandboxed" and result["sandbox"]["abi"] == 0
    assert result["sandbox"]["network"] == "unrestricted"
    assert result["sandbox"]["requested_mode"] == "workspace-write"
    assert "no Landlock" in result["sandbox"]["note"]


def test_the_abi_override_variable_also_means_unsandboxed(workspace_root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONSTRUCT_SANDBOX_ABI", "0")
    assert _run(workspace_root, ["true"])["sandbox"]["mode"] == "unsandboxed"


def test_the_refuse_switch_refuses_unsandboxed_runs(workspace_root: Path) -> None:
    SandboxConfig().update(workspace_root, refuse_unsandboxed=True)
    result = _run(workspace_root, _write("made.txt"), sandbox_abi=0)
    assert result["status"] == "refused" and "unsandboxed" in result["reason"]
    assert result["sandbox"]["mode"] == "unsandboxed"
    assert "exit_code" not in result and not (workspace_root / "made.txt").exists()


@needs_landlock
def test_the_refuse_switch_does_not_matter_where_landlock_works(workspace_root: Path) -> None:
    SandboxConfig().update(workspace_root, refuse_unsandboxed=True)
    assert _run(workspace_root, ["true"])["status"] == "ok"


def test_full_mode_needs_its_own_grant_from_the_agent(workspace_root: Path, outside_paths: Callable[[str], Path]) -> None:
    escape = outside_paths(tempfile.gettempdir())
    session = TrustSession(workspace_root)
    session.record(TrustRequest("commands", "x"), TrustDecision(True, "session"))
    full = SandboxSettings(mode="full")
    asked = _run(workspace_root, _write(escape), trust=session, sandbox=full)
    assert asked["status"] == "needs_grant" and asked["trust_request"]["capability"] == "full_access"
    assert not escape.exists()
    session.record(TrustRequest("full_access", "x"), TrustDecision(True, "always"))
    ran = _run(workspace_root, _write(escape), trust=session, sandbox=full)
    assert ran["status"] == "ok" and ran["sandbox"]["mode"] == "full" and escape.exists()
    # asked every session: "always" was kept for this session only, never stored
    assert TrustStore().grants(workspace_root) == []
    assert not TrustSession(workspace_root).is_granted("full_access")


def test_the_full_access_grant_cannot_be_stored(workspace_root: Path, konstruct: Any) -> None:
    code, _, err = konstruct("trust", "grant", "--root", str(workspace_root), "full_access")
    assert code == 2 and "every session" in err
    assert TrustStore().grants(workspace_root) == []


def test_the_persons_own_call_in_full_mode_needs_no_grant(workspace_root: Path) -> None:
    result = _run(workspace_root, ["true"], sandbox=SandboxSettings(mode="full"))
    assert result["status"] == "ok" and result["sandbox"] == {
        "mode": "full", "abi": result["sandbox"]["abi"], "network": "unrestricted",
        "note": "no confinement: the project's mode is full"}
