"""run_command: run one of the project's scripts (`{"script": "test"}`) or, with its own grant, a
command line (`{"command": "pytest -q tests/test_x.py"}`). Never through a shell.

Who needs a grant: the agent. `konstruct tool run_command` is the person's own action and needs none;
the policy's refusals and the hard deny list apply to both, and so does the project's command policy
as the user set it with `konstruct policy set` (allowlist presets and prefixes, chains). The agent loop hands its grants in as
`context.trust` (anything with `use(capability) -> bool`, e.g. `TrustSession`) and its kill switch as
`context.cancellation` (a `Cancellation`); without them the call is the person's own. A call that
lacks a grant comes back `needs_grant` with the `trust_request` to put to the person; the loop asks
(through its `TrustBroker`) and calls again.
"""

from __future__ import annotations

import shlex
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from pydantic import Field, model_validator

from ..commands import (
    BadPrefix,
    Cancellation,
    chain_key,
    PolicyConfig,
    PolicyDecision,
    ProcessOutcome,
    decide,
    discover_scripts,
    find_script,
    is_assignment,
    rule_admits,
    run_chain,
    run_process,
    scrubbed_environment,
)
from ..sandbox import Confinement, LandlockError, SandboxPlan, project_plan, seccomp_filter
from ..trust import ChainCheck, CommandCheck, TrustStore
from .base import Tool, ToolContext, ToolInput, ToolResult

DEFAULT_TIMEOUT_S = 600.0
OUTPUT_CAP_BYTES = 64 * 1024


def stored_policy(root: Path) -> PolicyConfig:
    """The project's command policy as the user set it (`konstruct policy set`), else the default.
    Fails closed: a damaged trust store (see TrustStore) or a stored policy that no longer parses
    means allowlist mode with nothing allowed, never the default, which would allow more."""
    settings = TrustStore().command_settings(root) or {}
    if settings.get("locked"):
        return PolicyConfig((), True)
    try:
        return PolicyConfig.build(settings.get("presets", ()), settings.get("allow", ()), chains=settings.get("chains", False))
    except BadPrefix:
        return PolicyConfig((), True)


class GrantCheck(Protocol):
    def use(self, capability: str, path: str | None = None, command: CommandCheck | ChainCheck | None = None) -> bool: ...


class RunCommandInput(ToolInput):
    script: str | None = Field(default=None, description="a project script by name: test, build, make:lint, npm:dev ...")
    command: str | None = Field(default=None, description="a single command line (no ;, &&, |, redirections); needs the commands grant")
    timeout_s: float = Field(default=DEFAULT_TIMEOUT_S, gt=0, le=3600, description="seconds before the command is killed")

    @model_validator(mode="after")
    def _one_of(self) -> RunCommandInput:
        if (self.script is None) == (self.command is None):
            raise ValueError("give exactly one of script or command")
        if self.script is not None and not self.script.strip():
            raise ValueError("script is empty")
        return self


class RunCommand(Tool[RunCommandInput], name="run_command", mutating=True):
    """Run the project's own script ({"script": "test"}; see enumerate collection=scripts) or one
    command line ({"command": "pytest -q tests/test_x.py"}). No shell: no pipes, ;, &&, redirections
    or $(...). Statuses: ok, failed (non-zero exit), timeout, killed, not_found, refused,
    needs_grant. Output keeps its head and tail when long."""

    def run(self, params: RunCommandInput, context: ToolContext) -> ToolResult:
        workspace = context.workspace
        scripts = discover_scripts(workspace)
        base: PolicyConfig = context.command_policy or stored_policy(workspace.root)
        config = PolicyConfig(base.allowlist, base.allowlist_mode, tuple(scripts), workspace.root, base.chains)
        # The sandbox (issue 9): the project's mode on this kernel. `context.sandbox` (SandboxSettings)
        # and `context.sandbox_abi` override the stored settings and the kernel's ABI (tests, blueprint).
        plan = project_plan(workspace.root, context.sandbox, context.sandbox_abi)
        if _can_confine_read_only(plan) and hasattr(config, "read_only_sandbox"):
            config = replace(config, read_only_sandbox=True)  # the policy may answer `read_only` then
        if params.script is not None:
            script = find_script(scripts, params.script.strip())
            if script is None:
                known = ", ".join(s.qualified for s in scripts) or "none found"
                return self._result(context, {"status": "not_found", "script": params.script,
                                              "reason": f"no project script named {params.script!r}; known scripts: {known}"})
            command = shlex.join(script.argv)
        else:
            command = params.command or ""
        decision = decide(command, config)
        payload: dict[str, Any] = {"command": command, "policy": decision.to_json()}
        if params.script is not None:
            payload["script"] = params.script
        if decision.decision == "refuse":
            return self._result(context, {"status": "refused", "reason": decision.reason, **payload})
        grants: GrantCheck | None = context.trust
        capability = decision.capability
        if decision.decision == "allow" and decision.confinement == "read-only":
            # Allowed without a grant only because it runs read-only with no network (issue 13).
            # Where that cannot be enforced, or the person chose to run unconfined, it asks as before.
            read_only = _read_only_plan(workspace.root, plan, context.sandbox_abi)
            if read_only is not None:
                plan = read_only
            else:
                capability = "commands"
                payload["policy"] = {**payload["policy"], "capability": capability,
                                     "note": "read-only commands run without a grant only under the kernel "
                                             "sandbox in read-only mode with no network, which is not in force here"}
        if grants is not None and capability and not grants.use(capability, command=_judged(decision)):
            payload["sandbox"] = plan.report()
            return self._result(context, {
                "status": "needs_grant", **payload,
                "reason": f"running this needs the {capability!r} grant, which is not in force",
                "trust_request": {"capability": capability, "detail": command, "paths": []},
            })
        payload["sandbox"] = plan.report()
        if plan.refusal:
            return self._result(context, {"status": "refused", "reason": plan.refusal, **payload})
        if plan.mode == "full" and grants is not None and not grants.use("full_access"):
            return self._result(context, {
                "status": "needs_grant", **payload,
                "reason": "this project runs commands without the sandbox (mode full), which needs the "
                          "'full_access' grant for this session",
                "trust_request": {"capability": "full_access", "detail": f"run without the sandbox: {command}", "paths": []},
            })
        return self._result(context, {**payload, **self._execute(decision, params.timeout_s, context, plan)})

    def _execute(self, decision: PolicyDecision, timeout_s: float, context: ToolContext,
                 plan: SandboxPlan) -> dict[str, Any]:
        if context.killed():
            return {"status": "killed", "exit_code": None, "duration_s": 0.0, "stdout": "", "stderr": "",
                    "stdout_truncated": False, "stderr_truncated": False, "reason": "the run was killed before it started"}
        cancellation: Cancellation | None = context.cancellation

        def launch(words: tuple[str, ...], seconds: float) -> ProcessOutcome:
            argv = list(words)
            assignments: dict[str, str] = {}
            while argv and is_assignment(argv[0]):  # `CI=1 npm test`: no shell, so we set them ourselves
                name, value = argv.pop(0).split("=", 1)
                assignments[name] = value
            try:
                with Confinement(plan) as confinement:
                    return run_process(argv, context.workspace.root, timeout_s=seconds, cancellation=cancellation,
                                       env=scrubbed_environment(extra=assignments), cap_bytes=OUTPUT_CAP_BYTES,
                                       confinement=confinement)
            except LandlockError as error:  # never run unconfined because confining failed
                return ProcessOutcome("failed", None, 0.0, "", "",
                                      reason=f"the sandbox could not be set up, so the command did not run: {error.strerror}")

        steps: tuple[dict[str, Any], ...] = ()
        if decision.steps:
            chained = run_chain(decision.steps, launch, timeout_s)
            outcome, steps = chained.outcome, chained.steps
        else:
            outcome = launch(decision.argv, timeout_s)
        result: dict[str, Any] = {
            "status": outcome.status, "exit_code": outcome.exit_code, "duration_s": outcome.duration_s,
            "stdout": outcome.stdout, "stderr": outcome.stderr,
            "stdout_truncated": outcome.stdout_truncated, "stderr_truncated": outcome.stderr_truncated,
        }
        if outcome.signal is not None:
            result["signal"] = outcome.signal
        if outcome.reason:
            result["reason"] = outcome.reason
        if steps:
            result["steps"] = list(steps)
        return result

    def _result(self, context: ToolContext, payload: dict[str, Any]) -> ToolResult:
        scrub = context.workspace.scrub
        clean = {k: scrub(v) if isinstance(v, str) else v for k, v in payload.items()}
        return ToolResult(self.name, clean)


def _judged(decision: PolicyDecision) -> CommandCheck | ChainCheck:
    """How a narrow command grant is judged against this command: by the command layer, on the argv
    the policy read. A chain is judged whole (a chain grant for these very steps) or step by step,
    each step that needs a grant by the rule that would judge it alone (see trust.grants_cover)."""
    if decision.steps:
        asked = chain_key(decision.steps)
        parts = tuple((step.needs, _one(step.words)) for step in decision.steps if step.needs)
        return ChainCheck(lambda rule: rule.match == "chain" and rule.steps == asked, parts)
    return _one(decision.argv)


def _one(argv: tuple[str, ...]) -> CommandCheck:
    return lambda rule: rule.match != "chain" and rule_admits(rule.match, rule.argv, argv)


def _can_confine_read_only(plan: SandboxPlan) -> bool:
    """Whether a read-only, network-blocked plan is possible here (see `_read_only_plan`)."""
    return plan.confined and plan.abi >= 4 and seccomp_filter() is not None


def _read_only_plan(root: Path, plan: SandboxPlan, abi: int | None) -> SandboxPlan | None:
    """The plan a read-only command runs under without a grant: kernel-confined, read-only, no
    network. None when this machine or the person's choice cannot give exactly that."""
    if not _can_confine_read_only(plan):  # no Landlock here, or the person chose `full` (unconfined)
        return None
    candidate = project_plan(root, replace(plan.settings, mode="read-only", allow_network=False), abi)
    if candidate.mode != "read-only" or not candidate.blocks_network or seccomp_filter() is None:
        return None
    return candidate
