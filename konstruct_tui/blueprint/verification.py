"""A phase's `verify` commands, run through the command layer after every settled phase turn.

The commands are the person's own (they wrote them into the blueprint, like a project script), so
they need no trust grant (but mode `full` needs `full_access`, as any unconfined run); the policy's refusals and the hard deny list still apply, and a refused
command is reported when the blueprint is loaded, before anything runs (`refused_commands`). They run
without a shell, in their own process group, with the phase's timeout and the providers' keys
scrubbed from the environment, exactly as `run_command` runs a command.

The gate runs them in the workspace, or in a scratch copy of it (scratch.py) when the phase's edits
to its pinned verification must be reverted. A command still running when the run's process dies
(even by SIGKILL) dies with it: the command layer's guardian and PID namespace see to that
(commands/process_tree.py), as for every command.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..commands import (
    Cancellation,
    PolicyConfig,
    ProcessOutcome,
    decide,
    discover_scripts,
    is_assignment,
    run_process,
    scrubbed_environment,
)
from ..sandbox import Confinement, SandboxConfig, project_plan
from ..workspace import Workspace
from .failures import FailureImplication, failing_paths, implication

OUTPUT_CAP_BYTES = 64 * 1024


@dataclass(frozen=True)
class VerifyResult:
    command: str
    outcome: str  # ok, failed, timeout, killed, not_found, refused
    exit_code: int | None
    output: str
    implication: FailureImplication
    after_call: int  # the last recorded tool call when it started
    counts: bool  # it ran on the disk as the phase left it; a pass on older bytes proves nothing
    ignored: tuple[str, ...] = ()  # pinned files the phase edited, reverted for this run
    weakened: bool = False  # it fails as pinned but passes with the phase's own edits to its verification

    @property
    def passed(self) -> bool:
        return self.outcome == "ok" and self.counts


EXCERPT_LINES = 6  # lines from each end of a verification's output shown beside its veto and in the report
_EXCERPT_WIDTH = 200


def output_excerpt(output: str, lines: int = EXCERPT_LINES) -> list[str]:
    """The head and tail of a command's output (its own message is usually at one end or the other:
    a traceback's last line, a checker's first complaint), with a mark saying how much was left out."""
    text = [line[:_EXCERPT_WIDTH] + ("…" if len(line) > _EXCERPT_WIDTH else "") for line in output.strip().splitlines()]
    if len(text) <= 2 * lines:
        return text
    return [*text[:lines], f"… {len(text) - 2 * lines} more lines …", *text[-lines:]]


def refused_commands(commands: Sequence[str], workspace: Workspace) -> list[tuple[str, str]]:
    """(command, reason) for each command the policy refuses."""
    config = PolicyConfig(scripts=tuple(discover_scripts(workspace)), root=workspace.root)
    refused = []
    for command in commands:
        decision = decide(command, config)
        if decision.decision == "refuse":
            refused.append((command, decision.reason))
    return refused


async def run_verification(
    commands: Sequence[str],
    workspace: Workspace,
    touched: Sequence[str],
    *,
    timeout_s: float,
    last_call: Callable[[], int],
    last_write: int = 0,
    folder: Path | None = None,
    full_access: Callable[[], bool] | None = None,
) -> list[VerifyResult]:
    """Each command in `folder` (a scratch copy; default the workspace itself). `full_access` says
    whether the person granted unconfined runs for this session (needed in sandbox mode `full`)."""
    results = []
    for command in commands:
        started_after = last_call()
        outcome, code, output = await _run_one(command, workspace, timeout_s, folder, full_access)
        failing = failing_paths(output, str(workspace.root)) if outcome != "ok" else []
        results.append(VerifyResult(
            command, outcome, code, workspace.scrub(output), implication(failing, touched),
            started_after, started_after >= last_write,
        ))
    return results


async def _run_one(command: str, workspace: Workspace, timeout_s: float, folder: Path | None = None,
                   full_access: Callable[[], bool] | None = None) -> tuple[str, int | None, str]:
    decision = decide(command, PolicyConfig(scripts=tuple(discover_scripts(workspace)), root=workspace.root))
    if decision.decision == "refuse":
        return "refused", None, f"refused by the command policy ({decision.rule}): {decision.reason}"
    argv = list(decision.argv)
    assignments: dict[str, str] = {}
    while argv and is_assignment(argv[0]):
        name, value = argv.pop(0).split("=", 1)
        assignments[name] = value
    # The project's sandbox (issue 9), as run_command uses it; in a scratch copy the copy is the
    # writable place and the project's settings still apply.
    plan = project_plan(folder, SandboxConfig().settings(workspace.root)) if folder is not None else project_plan(workspace.root)
    if plan.refusal:
        return "refused", None, f"refused by the sandbox: {plan.refusal}"
    if not plan.confined and plan.mode == "full" and not (full_access is not None and full_access()):
        # Mode `full` runs the command unconfined: like any unconfined run it needs the person's
        # `full_access` grant for the session, which an unattended run never holds (issue 31).
        return "refused", None, ("refused by the sandbox: this project runs commands without the sandbox (mode full), "
                                 "which needs the 'full_access' grant; an unattended run never has it "
                                 "(konstruct sandbox set --mode workspace-write confines them)")
    cancellation = Cancellation()

    def confined() -> ProcessOutcome:
        # Python (and pytest's assertion rewriting) trust a cached .pyc whose recorded source time
        # and size match: an edit within the same second that keeps the size (`a - b` -> `a + b`),
        # a time set back, or a planted `__pycache__` file would have the check run code that is not
        # on disk. Each verification reads and writes bytecode in a cache of its own, empty at the
        # start, so it judges the source as it stands (unless the blueprint's command sets its own).
        with Confinement(plan) as confinement, tempfile.TemporaryDirectory(prefix="konstruct-pycache-") as cache:
            # The command's own TMPDIR when confined: a folder elsewhere in /tmp is not in its filesystem.
            prefix = os.path.join(confinement.temp_dir, "pycache") if confinement.temp_dir else cache
            env = scrubbed_environment(extra={"PYTHONPYCACHEPREFIX": prefix, **assignments})
            return run_process(argv, folder or workspace.root, timeout_s=timeout_s, env=env,
                               cap_bytes=OUTPUT_CAP_BYTES, cancellation=cancellation, confinement=confinement)

    work = asyncio.create_task(asyncio.to_thread(confined))
    try:
        done = await asyncio.shield(work)
    except asyncio.CancelledError:
        cancellation.cancel()  # the run is being stopped: the command's whole process group dies now
        raise
    output = (done.stdout + ("\n" if done.stdout and done.stderr else "") + done.stderr).strip()
    if done.reason and done.status != "ok":
        output = f"{output}\n[{done.reason}]".strip()
    if folder is not None:  # paths in the copy are the workspace's paths
        for spelling in sorted({str(folder), os.path.realpath(folder)}, key=len, reverse=True):
            output = output.replace(spelling, str(workspace.root))
    return done.status, done.exit_code, output
