"""What a trust prompt shows, worked out before it is shown: the command and the policy rule that
said `ask`, or the files to be written with a preview diff and their blast radius from the graph.

It plans edits with the workspace's own planner (the write's rules: revisions, replacements,
guards) and asks the graph, so it runs on the loop's thread, never in a UI handler. Everything here
is best effort: a preview that cannot be made says why, and the question is still asked.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from ..agent import edited_paths
from ..commands import PolicyConfig, decide, discover_scripts
from ..sandbox import project_plan
from ..tools import ToolContext, ToolError, WriteCodeInput, call, stored_policy
from ..workspace import Workspace, preview_edits
from .grant_choices import ChainPart, chain_parts, confinement_line, proposed_glob, proposed_rule

MAX_DIFF_LINES = 5000  # every line a person approves is shown; past this the write is not reviewable here anyway
GRAPH_WAIT_S = 2.0  # the prompt never waits longer than this for the blast radius


@dataclass(frozen=True)
class TrustPreview:
    tool: str
    capability: str
    detail: str
    paths: tuple[str, ...] = ()
    command: str | None = None
    rule: str | None = None
    reason: str | None = None
    diffs: tuple[tuple[str, str], ...] = ()
    blast_radius: tuple[str, ...] | None = None  # None: the graph could not say (see blast_note)
    blast_note: str | None = None
    notes: tuple[str, ...] = ()
    # How narrow a grant the prompt offers (grant_choices.py): the argv the policy read (empty for a
    # chain or a script), the rule and glob it proposes, the sandbox the command would run under, and
    # the project's name (the warned "every command" choice names it).
    argv: tuple[str, ...] = ()
    proposed_rule: str | None = None
    proposed_glob: str | None = None
    confinement: str | None = None
    project: str = ""
    chain: tuple[ChainPart, ...] = ()  # a chain the policy lets ask: its steps, each with its own proposal


def build_preview(workspace: Workspace | None, tool: str, capability: str, detail: str, arguments: dict[str, Any] | None) -> TrustPreview:
    arguments = arguments or {}
    if workspace is None:
        return TrustPreview(tool, capability, detail, notes=("no preview: the workspace is not open here",))
    if tool == "run_command":
        return _command_preview(workspace, tool, capability, detail, arguments)
    paths = edited_paths(arguments)
    diffs, notes = _diffs(workspace, tool, arguments)
    radius, note = blast_radius(workspace, paths)
    return TrustPreview(tool, capability, detail, tuple(paths), diffs=tuple(diffs), blast_radius=radius, blast_note=note,
                        notes=tuple(notes), proposed_glob=proposed_glob(paths) if paths else None, project=workspace.root.name)


def _command_preview(workspace: Workspace, tool: str, capability: str, detail: str, arguments: dict[str, Any]) -> TrustPreview:
    script = arguments.get("script")
    confinement = _confinement(workspace)
    if isinstance(script, str):
        return TrustPreview(tool, capability, detail, command=f"project script {script!r}", rule="project_script",
                            reason="the project's own scripts need the `scripts` grant", confinement=confinement,
                            project=workspace.root.name)
    command = str(arguments.get("command") or "")
    try:
        # The project's own policy, as the command will be judged (its allowlist, whether chains may run).
        base = stored_policy(workspace.root)
        config = PolicyConfig(base.allowlist, base.allowlist_mode, tuple(discover_scripts(workspace)), workspace.root, base.chains)
        decision = decide(command, config)
    except Exception as error:  # the policy is asked again when the command runs; here it only informs
        return TrustPreview(tool, capability, detail, command=command, notes=(f"policy preview failed: {error}",),
                            confinement=confinement, project=workspace.root.name)
    return TrustPreview(tool, capability, detail, command=command, rule=decision.rule, reason=workspace.scrub(decision.reason),
                        argv=decision.argv, proposed_rule=proposed_rule(decision.argv) if decision.argv else None,
                        confinement=confinement, project=workspace.root.name, chain=chain_parts(decision.steps))


def _confinement(workspace: Workspace) -> str | None:
    """The sandbox the project's commands run under on this machine (best effort: it only informs)."""
    try:
        return confinement_line(project_plan(workspace.root).report())
    except Exception:  # noqa: BLE001 - a damaged sandbox settings file is reported where the command runs
        return None


def _diffs(workspace: Workspace, tool: str, arguments: dict[str, Any]) -> tuple[list[tuple[str, str]], list[str]]:
    """What each edit would change, planned in memory. The real write plans everything again."""
    if tool == "delete_code":
        return [], ["the listed files would be deleted"]
    try:
        params = WriteCodeInput.model_validate(arguments)
    except ValidationError:
        return [], ["no preview: the edits are not a valid write_code call (the write will say why)"]
    requests = [edit.request() for edit in params.edits]
    diffs: list[tuple[str, str]] = []
    notes: list[str] = []
    for preview in preview_edits(workspace, requests, MAX_DIFF_LINES):
        if preview.diff is None:
            notes.append(f"{preview.path}: no preview ({workspace.scrub(preview.problem or '')})")
        else:
            diffs.append((preview.path, preview.diff))
    return diffs, notes


def blast_radius(workspace: Workspace, paths: list[str], wait_s: float = GRAPH_WAIT_S) -> tuple[tuple[str, ...] | None, str | None]:
    """Files that depend directly on any of `paths` (graph `dependents`), within `wait_s`."""
    found: dict[str, Any] = {}

    def ask() -> None:
        context = ToolContext(workspace)
        dependents: set[str] = set()
        for path in paths:
            try:
                answer = call("traverse_graph", {"mode": "dependents", "target": path}, context).to_json()
            except ToolError as error:
                found["note"] = str(error)
                return
            if answer.get("status") not in ("ok", "no_references"):
                found["note"] = f"the graph says {answer.get('status')} for {path}"
                continue
            dependents.update(str(r["path"]) for r in answer.get("results") or [] if isinstance(r, dict) and "path" in r)
        found["radius"] = tuple(sorted(dependents - set(paths)))

    worker = threading.Thread(target=ask, name="blast-radius", daemon=True)
    worker.start()
    worker.join(wait_s)
    if "radius" in found:
        return found["radius"], found.get("note")
    return None, found.get("note") or "the code graph is still being built"
