"""How narrow a grant the trust prompt offers, and checking what the person typed into it.

For a command: a proposed argv rule (`pytest` from `pytest -q tests/x`; the command layer's
`propose_rule`) that the person may edit, checked by the command layer before it becomes a grant.
For a chain the user's policy lets ask (`make && pytest -q`): this exact chain, or a rule for each
step that needs a grant, each proposed and checked as for that step alone (`ChainPart`).
For edits: a proposed path glob (`src/**` from `src/a.py, src/b/c.py`) that the person may edit,
checked as the trust store checks a stored glob. Either must cover what was asked: a grant that does
not cover the call in front of the person grants nothing they were asked about.
"""

from __future__ import annotations

import os
import posixpath
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..commands import BadPrefix, ChainStep, chain_key, parse_grant_rule, propose_rule
from ..trust import BadGrant, check_globs, exact_glob, glob_matches, normal_glob, workspace_path


class GrantChoiceError(ValueError):
    """A rule or glob the person typed that cannot be granted; the message says why, in one line."""


def proposed_rule(argv: Sequence[str]) -> str | None:
    """The rule the prompt offers, as text (`pytest`), or None when only the exact command can be granted."""
    words = propose_rule(argv)
    return shlex.join(words) if words else None


def command_rule(text: str, argv: Sequence[str]) -> tuple[str, ...]:
    """The words of the rule typed for the command `argv`, or GrantChoiceError saying why not."""
    if not argv:
        raise GrantChoiceError("this command is a chain of steps: grant it as it is, or a rule for each step")
    try:
        return parse_grant_rule(text, argv)
    except BadPrefix as error:
        raise GrantChoiceError(str(error)) from None


@dataclass(frozen=True)
class ChainPart:
    """One step of a chain as the prompt offers it: how it joins the step before (None for the
    first), its words as written, the grant it needs on its own (None: the policy allows it), and
    the rule proposed for it (None: only the exact step could be granted)."""

    connector: str | None
    argv: tuple[str, ...]
    needs: str | None
    proposed_rule: str | None

    def text(self) -> str:
        return shlex.join(self.argv)


def chain_parts(steps: Sequence[ChainStep]) -> tuple[ChainPart, ...]:
    return tuple(ChainPart(connector, argv, step.needs, proposed_rule(argv) if step.needs == "commands" else None)
                 for (connector, argv), step in zip(chain_key(steps), steps, strict=True))


def chain_steps(parts: Sequence[ChainPart]) -> tuple[tuple[str | None, tuple[str, ...]], ...]:
    """"This exact chain": its steps as a chain grant names them."""
    return tuple((part.connector, part.argv) for part in parts)


def rules_per_step(parts: Sequence[ChainPart]) -> bool:
    """Whether a rule for each step can cover the chain: every step that needs a grant needs the
    `commands` one (a project script in a chain is the `scripts` grant's) and has a rule proposed."""
    asking = [p for p in parts if p.needs]
    return bool(asking) and all(p.needs == "commands" and p.proposed_rule for p in asking)


def step_rules(texts: Sequence[str], parts: Sequence[ChainPart]) -> tuple[tuple[str, ...], ...]:
    """The rules typed for the steps of a chain that need a grant (one text each, in order), each
    checked as for that step alone; the same rule twice is kept once. GrantChoiceError names the step."""
    asking = [p for p in parts if p.needs]
    if len(texts) != len(asking):
        raise GrantChoiceError(f"give one rule for each of the {len(asking)} steps that need a grant")
    rules: list[tuple[str, ...]] = []
    for number, (text, part) in enumerate(zip(texts, asking, strict=True), 1):
        try:
            rules.append(command_rule(text, part.argv))
        except GrantChoiceError as problem:
            raise GrantChoiceError(f"step {number} ({part.text()}): {problem}") from None
    return tuple(dict.fromkeys(rules))


def proposed_glob(paths: Sequence[str]) -> str:
    """The folder the files share, as `folder/**` (`src/**` from `src/a.py` and `src/b/c.py`);
    `*` for files at the top; `**` (the project) when they share no folder."""
    folders = [posixpath.dirname(posixpath.normpath(p)) for p in paths]
    if not folders:
        return "**"
    common = posixpath.commonpath(folders) if all(folders) else ""
    if common:
        return f"{common}/**"
    return "*" if not any(folders) else "**"


def edit_glob(text: str, paths: Sequence[str]) -> str:
    """The glob typed for an edit of `paths`, spelled as it is matched, or GrantChoiceError: it must be
    workspace-relative (no leading `/`, no `..`) and cover every file asked."""
    glob = normal_glob(text.strip())
    try:
        check_globs((glob,), "edit")
    except BadGrant as error:
        raise GrantChoiceError(str(error)) from None
    missed = [p for p in paths if not glob_matches(glob, posixpath.normpath(p))]
    if missed:
        raise GrantChoiceError(f"{glob!r} does not cover {', '.join(missed[:3])}: it must cover every file asked")
    return glob


def file_globs(root: str | os.PathLike[str], paths: Sequence[str]) -> tuple[str, ...]:
    """"These files" as grant globs: each path as the workspace resolves it (`src/../a.py` is `a.py`),
    matching only itself (a file named `*` is not every file). A path that resolves outside the
    project is left out: the workspace refuses to write there whatever is granted."""
    resolved = (workspace_path(root, p) for p in paths)
    return tuple(dict.fromkeys(exact_glob(p) for p in resolved if p))


def confinement_line(report: dict[str, Any]) -> str:
    """The sandbox a command runs under, in one line: `workspace-write (Landlock ABI 4) · network
    blocked · .git read-only · home hidden`, or that nothing confines it."""
    mode = str(report.get("mode", "?"))
    if mode in ("full", "unsandboxed"):
        head = f"{mode}: not confined (network {report.get('network', 'unrestricted')})"
    else:
        head = f"{mode} (Landlock ABI {report.get('abi', '?')}) · network {report.get('network', '?')}"
        head += "".join(f" · {label} {report[key]}" for key, label in (("git", ".git"), ("home", "home")) if key in report)
    if report.get("requested_mode"):
        head += f" · asked for {report['requested_mode']}"
    return head
