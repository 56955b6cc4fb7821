"""Read-only commands (policy decision "allow", rule "read_only", confinement "read-only") run
without the `commands` grant only under the kernel sandbox in read-only mode with no network; where
that cannot be enforced, or the person chose to run unconfined, they ask as before (issue 13)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from sandbox_helpers import needs_network_rules

from konstruct_tui.commands import PolicyDecision
from konstruct_tui.sandbox import SandboxSettings
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.tools import run_command as run_command_module
from konstruct_tui.workspace import Workspace


class NoGrants:
    """An agent with no grant at all: every `use` is refused, and remembered."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def use(self, capability: str, path: str | None = None, command: object = None) -> bool:
        self.asked.append(capability)
        return False


@pytest.fixture
def read_only_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The policy's answer for a read-only command, as the policy layer gives it."""

    def decide(command: str, config: Any = None) -> PolicyDecision:
        return PolicyDecision("allow", "read_only", "a read-only command", tuple(shlex.split(command)),
                              None, confinement="read-only")

    monkeypatch.setattr(run_command_module, "decide", decide)


def _run(root: Path, argv: list[str], trust: NoGrants, **extra: Any) -> dict[str, Any]:
    with Workspace(root) as workspace:
        context = ToolContext(workspace)
        context.trust = trust
        for name, value in extra.items():
            setattr(context, name, value)
        return call("run_command", {"command": shlex.join(argv)}, context).to_json()


@needs_network_rules
def test_a_read_only_command_runs_without_a_grant_confined_read_only(workspace_root: Path,
                                                                      read_only_decision: None) -> None:
    (workspace_root / "src" / "a.py").write_text("x = 1\n")
    trust = NoGrants()
    listing = _run(workspace_root, ["ls", "src"], trust)
    assert listing["status"] == "ok" and listing["stdout"] == "a.py\n", listing
    assert listing["sandbox"]["mode"] == "read-only" and listing["sandbox"]["network"] == "blocked"
    assert trust.asked == []
    # and it really is read-only: the same path, a command that writes
    write = _run(workspace_root, [sys.executable, "-I", "-c", "open('made.txt', 'w')"], trust)
    assert write["status"] == "failed" and not (workspace_root / "made.txt").exists()


def test_without_landlock_a_read_only_command_asks_for_the_commands_grant(workspace_root: Path,
                                                                        read_only_decision: None) -> None:
    trust = NoGrants()
    result = _run(workspace_root, ["ls"], trust, sandbox_abi=0)
    assert result["status"] == "needs_grant" and result["trust_request"]["capability"] == "commands"
    assert trust.asked == ["commands"] and "stdout" not in result


def test_without_network_rules_it_asks_too(workspace_root: Path, read_only_decision: None) -> None:
    result = _run(workspace_root, ["ls"], NoGrants(), sandbox_abi=3)
    assert result["status"] == "needs_grant" and result["trust_request"]["capability"] == "commands"


def test_when_the_person_chose_to_run_unconfined_it_asks(workspace_root: Path, read_only_decision: None) -> None:
    result = _run(workspace_root, ["ls"], NoGrants(), sandbox=SandboxSettings(mode="full"))
    assert result["status"] == "needs_grant" and result["trust_request"]["capability"] == "commands"


@needs_network_rules
def test_the_policys_own_read_only_rule_runs_without_a_grant(workspace_root: Path) -> None:
    from konstruct_tui.commands import PolicyConfig

    if "read_only_sandbox" not in PolicyConfig.__dataclass_fields__:
        pytest.skip("this policy layer has no read-only rule yet")
    trust = NoGrants()
    result = _run(workspace_root, ["ls"], trust)  # the real policy, told the sandbox can hold it
    assert result["status"] == "ok" and result["policy"]["rule"] == "read_only", result
    assert result["sandbox"]["mode"] == "read-only" and trust.asked == []
    asked = _run(workspace_root, ["ls"], NoGrants(), sandbox_abi=0)  # and without Landlock it asks
    assert asked["status"] == "needs_grant"
