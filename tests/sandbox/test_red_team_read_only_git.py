"""Red team: a read-only git runs no program its configuration names. git reads configuration the
agent may have reached (a `.git` a command made in a project that had none); with `diff.external`
or a textconv driver there, `git diff` / `git show` (read-only, no grant) would start that program.
The read-only rule runs git as our own git runs (every such key overridden), so nothing starts."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

from sandbox_helpers import needs_network_rules

from konstruct_tui.commands import PolicyConfig, decide
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace


class NoGrants:
    def use(self, capability: str, path: str | None = None, command: object = None) -> bool:
        return False


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def _planted(root: Path) -> Path:
    """A repository whose config names programs: each prints a marker when it runs."""
    _git(root, "init", "-q")
    (root / "a.txt").write_text("one\n")
    _git(root, "add", ".")
    _git(root, "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "one")
    (root / "a.txt").write_text("one\ntwo\n")
    (root / ".gitattributes").write_text("a.txt diff=evil\n")
    _git(root, "config", "diff.external", "echo EXTERNAL-DIFF-RAN")
    _git(root, "config", "diff.evil.textconv", "echo TEXTCONV-RAN")
    return root


def _run(root: Path, command: str) -> dict[str, Any]:
    with Workspace(root) as workspace:
        context = ToolContext(workspace)
        context.trust = NoGrants()
        return call("run_command", {"command": command}, context).to_json()


def test_the_planted_programs_are_live_for_plain_git(workspace_root: Path) -> None:
    root = _planted(workspace_root)
    plain = subprocess.run(["git", "-C", str(root), "diff"], capture_output=True, text=True, check=False)
    shown = subprocess.run(["git", "-C", str(root), "log", "-p", "-1"], capture_output=True, text=True, check=False)
    assert "EXTERNAL-DIFF-RAN" in plain.stdout and "TEXTCONV-RAN" in shown.stdout


def test_the_read_only_rule_runs_git_with_every_program_key_overridden(workspace_root: Path) -> None:
    root = _planted(workspace_root)
    decision = decide("git diff", PolicyConfig(root=root, read_only_sandbox=True))
    assert (decision.decision, decision.rule) == ("allow", "read_only")
    assert "diff.external=" in decision.argv and "core.fsmonitor=false" in decision.argv
    assert any(w.startswith("diff.evil.textconv=/") and w.endswith("/cat") for w in decision.argv)
    assert decision.argv[-2:] == ("diff", "--no-ext-diff") and decision.argv[0].startswith("/")
    chain = decide("git status && git log -p", PolicyConfig(root=root, read_only_sandbox=True, chains=True))
    assert chain.rule == "chain" and all("core.hooksPath=/dev/null" in step.argv for step in chain.steps)


@needs_network_rules
def test_a_read_only_git_diff_without_a_grant_starts_no_planted_program(workspace_root: Path) -> None:
    root = _planted(workspace_root)
    for command in ("git diff", "git log -p -1", "git show HEAD~0"):
        result = _run(root, command)
        assert result["status"] == "ok" and result["policy"]["rule"] == "read_only", result
        assert "RAN" not in result["stdout"], (command, result["stdout"])
    diff = _run(root, "git diff")
    assert "+two" in diff["stdout"]  # the diff itself is still there, made by git
