"""Grants over MCP: the client on the other end of `konstruct mcp` is usually another agent, not
the person, so mutating tools and `run_command` need the same grants as the workbench's own agent.

A call that needs a grant not in force (the stored `always` grants, or this server session's) is put
to the client as an MCP elicitation ("grant edit for this session?") when the client declares the
elicitation capability; its answer is kept for `once` or this `session` (never `always`: that stays
the person's own `konstruct trust grant`). A client without elicitation gets a refusal that names
both ways forward: `konstruct trust grant ...` by the person, or `konstruct mcp --read-only`.
`konstruct tool` on the person's own shell is untouched: it needs no grant.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from ..agent import question_for
from ..tools import TOOLS, ToolContext, ToolResult, call
from ..trust import TrustDecision, TrustRequest, TrustSession


class GrantAnswer(BaseModel):
    """What the MCP client answers (a form with two fields)."""

    grant: bool = Field(description="allow this")
    scope: Literal["once", "session"] = Field(default="once", description="for this call only, or until the server stops")


class GrantRefused(Exception):
    """The grant is not in force and the client did not (or could not) give it."""


def _supports_elicitation(mcp_context: Any) -> bool:
    from mcp_types import ClientCapabilities, ElicitationCapability

    try:
        session = mcp_context.request_context.session
        return bool(session.check_client_capability(ClientCapabilities(elicitation=ElicitationCapability())))
    except Exception:  # noqa: BLE001 - no session or an SDK that cannot say: treat as unsupported
        return False


def _refusal(request: TrustRequest, root_hint: str, reason: str) -> str:
    grant = f"konstruct trust grant {request.capability}" + (" --root DIR" if root_hint else "")
    return (f"refused: {request.detail} needs the {request.capability!r} grant, which is not in force; {reason}. "
            f"The person can grant it with `{grant}`, or serve with `konstruct mcp --read-only`. Nothing was changed.")


async def ask_client(mcp_context: Any, session: TrustSession, request: TrustRequest, path: str | None = None,
                     *, spend: bool = True) -> None:
    """Make sure the grant is in force: use it, or ask the client through elicitation and keep the
    answer (`spend`: use it now; otherwise the tool spends it). Raises GrantRefused (its message is
    the refusal the client sees)."""
    if session.use(request.capability, path) if spend else session.is_granted(request.capability, path):
        return
    if mcp_context is None or not _supports_elicitation(mcp_context):
        raise GrantRefused(_refusal(request, "yes", "this MCP client cannot be asked (it offers no elicitation)"))
    message = f"Konstruct: allow the `{request.capability}` capability to {request.detail}?"
    try:
        answer = await mcp_context.elicit(message, GrantAnswer)
    except Exception as error:  # noqa: BLE001 - a client that fails to answer has not granted anything
        raise GrantRefused(_refusal(request, "yes", f"asking the client failed ({type(error).__name__})")) from None
    data = getattr(answer, "data", None)
    if getattr(answer, "action", None) != "accept" or data is None or not data.grant:
        raise GrantRefused(_refusal(request, "yes", "the client declined"))
    session.record(request, TrustDecision(True, data.scope, request.paths))
    if spend and not session.use(request.capability, path):
        raise GrantRefused(_refusal(request, "yes", "the grant did not cover this call"))


async def guarded_call(name: str, arguments: dict[str, Any], context: ToolContext, session: TrustSession,
                       mcp_context: Any) -> ToolResult:
    """Run one tool for an MCP client with the agent's grants. Raises GrantRefused or ToolError.
    `context` is the call's own (`mcp_calls.call_context`): cancelling the awaiting task kills it."""
    from .mcp_calls import in_thread

    tool = TOOLS.get(name)

    async def run() -> ToolResult:  # off the event loop: a command may run for minutes
        return await in_thread(lambda: call(name, arguments, context), context,
                               wait_on_cancel=tool is not None and tool.mutating)

    if tool is None or not tool.mutating:
        return await run()
    if name == "run_command":
        # run_command checks grants itself (a read-only command under the read-only sandbox needs
        # none); when it answers needs_grant, ask and run it again.
        result = await run()
        payload = result.to_json()
        wanted = payload.get("trust_request")
        if payload.get("status") != "needs_grant" or not wanted:
            return result
        await ask_client(mcp_context, session, TrustRequest(wanted["capability"], f"run {wanted['detail']!r}"), spend=False)
        return await run()
    question = question_for(name, arguments, "")
    paths = question.paths if question.capability == "edit" else ()
    request = TrustRequest(question.capability, question.detail, paths)
    if paths and all(session.is_granted("edit", p) for p in paths):
        for p in paths:
            session.use("edit", p)
    else:
        await ask_client(mcp_context, session, request, paths[0] if paths else None)
    return await run()
