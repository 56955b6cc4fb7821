"""The third rung: a fresh session with read-only tools and none of the executor's history decides
whether the phase's tasks are done, with evidence. Fail-closed: a model that cannot be reached, a
session that ends without a valid verdict, or one that runs past its deadline gives no verdict, and
no verdict means the phase stays open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

from ..tools import TOOLS, Tool
from .gate import Veto
from .plan import Blueprint, Phase
from .prompts import adjudicator_brief
from .session import BlueprintSession
from .verdict import SubmitVerdict, Verdict, VerdictRejected, VerdictSlot, read_verdict
from .verification import VerifyResult

OpenSession = Callable[[str, dict[str, Tool[Any]], frozenset[str]], BlueprintSession]


def adjudicator_tools(slot: VerdictSlot) -> dict[str, Tool[Any]]:
    """The registry's read-only tools and submit_verdict: nothing that writes or runs commands."""
    tools: dict[str, Tool[Any]] = {name: tool for name, tool in TOOLS.items() if not tool.mutating}
    tools["submit_verdict"] = SubmitVerdict(slot)
    return tools


def verification_lines(results: Sequence[VerifyResult]) -> list[str]:
    lines = []
    for result in results:
        if result.outcome == "ok":
            lines.append(f"`{result.command}` passed")
        else:
            tail = "\n    ".join(result.output.splitlines()[-15:])
            lines.append(f"`{result.command}` {result.outcome} (exit {result.exit_code}); {result.implication.describe()}\n    {tail}")
    return lines


def _changed_line(change: Any) -> str:
    """`path` (a disk.Change or a bare path): how it changed, where known."""
    if isinstance(change, str):
        return change
    how = {"tool": f"by {change.detail}", "command": f"by the command `{change.detail}`"}.get(change.how, "by something the run did not see")
    return f"{change.path} ({change.kind} {how})"


async def adjudicate(
    open_session: OpenSession,
    blueprint: Blueprint,
    phase: Phase,
    changed: Sequence[Any],
    vetoes: Sequence[Veto],
    results: Sequence[VerifyResult],
    *,
    deadline_s: float,
    known: Sequence[str] = (),
    ignored: str = "",
) -> tuple[Verdict | None, str, str]:
    """(verdict or None, the problem when None, the adjudicator session id)."""
    slot = VerdictSlot(phase)
    try:
        session = open_session("adjudicator", adjudicator_tools(slot), frozenset({"submit_verdict"}))
    except Exception as error:  # noqa: BLE001 - no model to ask (a missing script, an unusable setting): no verdict
        return None, f"the adjudicator could not be started: {error}", ""
    # The session id makes every adjudicator's first message its own, so a server that keys
    # conversations on the first message (mock servers do) never mistakes one session for another.
    brief = f"Adjudicator session {session.session_id}.\n\n" + adjudicator_brief(
        blueprint, phase, [_changed_line(c) for c in changed], [v.message for v in vetoes], verification_lines(results), known, ignored)
    try:
        outcome = await asyncio.wait_for(session.advance(brief), deadline_s)
    except TimeoutError:
        return None, f"the adjudicator did not answer within {deadline_s:g} s", session.session_id
    if slot.verdict is None:
        if outcome.reason == "killed":
            return None, "killed", session.session_id
        why = {
            "error": f"the adjudicator could not be reached: {outcome.message}",
            "deadline": f"the adjudicator's turn ran past its deadline: {outcome.message}",
            "silent": "the adjudicator went silent and was stopped",
        }.get(outcome.reason)
        if why is None:
            rejected = f" (its submissions were refused: {slot.rejections[-1]})" if slot.rejections else ""
            why = f"the adjudicator ended ({outcome.reason}) without a valid verdict{rejected}"
        return None, why, session.session_id
    # The tool already checked it; check the recorded verdict again here, in plain code, so a phase
    # never closes on the tool's word alone.
    try:
        verdict = read_verdict(slot.arguments or {}, phase)
    except VerdictRejected as rejected:
        return None, f"the adjudicator's verdict is malformed: {rejected}", session.session_id
    return verdict, "", session.session_id

