"""A phase's `verify` commands, run through the command layer after every settled phase turn.

The commands are the person's own (they wrote them into the blueprint, like a project script), so
they need no trust grant; the policy's refusals and the hard deny list still apply, and a refused
command is reported when the blueprint is loaded, before anything runs (`refused_commands`). They run
without a shell, in their own process group, with the phase's timeout and the providers' keys
scrubbed from the environment, exactly as `run_command` runs a command.

The gate runs them in the workspace, or in a scratch copy of it (scratch.py) when the phase's edits
to its pinned verification must be reverted, under a leash: a tiny launcher
that leads the command's process group and kills the whole group the moment the run's process is
gone, even by SIGKILL (it watches the run's process through a pidfd). Why not PR_SET_PDEATHSIG: it
fires when the *thread* that started the child ends, and the sandbox starts every child from a
throwaway thread that ends at once.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..commands import (
    Cancellation,
    PolicyConfig,
    ProcessOutcome,
    decide,
    discover_scripts,
    run_process,
    scrubbed_environment,
)
from ..commands.wrappers import is_assignment
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
) -> list[VerifyResult]:
    """Each command in `folder` (a scratch copy; default the workspace itself)."""
    results = []
    for command in commands:
        started_after = last_call()
        outcome, code, output = await _run_one(command, workspace, timeout_s, folder)
        failing = failing_paths(output, str(workspace.root)) if outcome != "ok" else []
        results.append(VerifyResult(
            command, outcome, code, workspace.scrub(output), implication(failing, touched),
            started_after, started_after >= last_write,
        ))
    return results


_LEASH = r"""
import os, select, signal, sys
parent = int(sys.argv[1])
try:
    watch = os.pidfd_open(parent)
except (AttributeError, OSError):
    watch = None
if os.getppid() != parent:
    os._exit(137)
try:
    child = os.posix_spawnp(sys.argv[2], sys.argv[2:], os.environ)
except FileNotFoundError:
    sys.stderr.write("konstruct-leash: not found\n")
    os._exit(127)
except OSError as error:
    sys.stderr.write("%r could not be started: %s\n" % (sys.argv[2], error.strerror))
    os._exit(126)
try:
    mine = os.pidfd_open(child)
except (AttributeError, OSError):
    mine = None
while True:
    if watch is not None and mine is not None:
        ready = select.select([watch, mine], [], [])[0]
        gone = watch in ready
    else:
        select.select([], [], [], 0.1)
        gone = os.getppid() != parent
    if gone:
        os.killpg(0, signal.SIGKILL)
    done, status = os.waitpid(child, os.WNOHANG)
    if done:
        break
code = os.waitstatus_to_exitcode(status)
if code < 0:
    signal.signal(-code, signal.SIG_DFL)
    os.kill(os.getpid(), -code)
os._exit(code & 0xFF)
"""


def leashed(argv: Sequence[str]) -> list[str]:
    """`argv` run by the leash, which dies (and takes the command's whole group) with this process."""
    return [sys.executable, "-I", "-S", "-c", _LEASH, str(os.getpid()), *argv]


async def _run_one(command: str, workspace: Workspace, timeout_s: float, folder: Path | None = None) -> tuple[str, int | None, str]:
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
    cancellation = Cancellation()

    def confined() -> ProcessOutcome:
        with Confinement(plan) as confinement:
            return run_process(leashed(argv), folder or workspace.root, timeout_s=timeout_s, env=scrubbed_environment(extra=assignments),
                               cap_bytes=OUTPUT_CAP_BYTES, cancellation=cancellation, confinement=confinement)

    work = asyncio.create_task(asyncio.to_thread(confined))
    try:
        done = await asyncio.shield(work)
    except asyncio.CancelledError:
        cancellation.cancel()  # the run is being stopped: the command's whole process group dies now
        raise
    if done.exit_code == 127 and done.stderr.strip() == "konstruct-leash: not found":
        return "not_found", None, f"[no program named {argv[0]!r} was found]"
    output = (done.stdout + ("\n" if done.stdout and done.stderr else "") + done.stderr).strip()
    if done.reason and done.status != "ok":
        output = f"{output}\n[{done.reason}]".strip()
    if folder is not None:  # paths in the copy are the workspace's paths
        for spelling in sorted({str(folder), os.path.realpath(folder)}, key=len, reverse=True):
            output = output.replace(spelling, str(workspace.root))
    return done.status, done.exit_code, output
