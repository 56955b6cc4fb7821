"""What the policy answers, as (decision, rule), for the program tests: a project root given, the
read-only sandbox available (so a look around is allowed confined, as on a machine with Landlock)."""

from __future__ import annotations

from pathlib import Path

from konstruct_tui.commands import PolicyConfig, decide


def answer(command: str, root: Path, **config: object) -> tuple[str, str]:
    decision = decide(command, PolicyConfig.build(root=root, read_only_sandbox=True, **config))  # type: ignore[arg-type]
    return decision.decision, decision.rule
