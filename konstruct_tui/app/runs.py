"""Building a pair-coding run: the loop over a workspace, the model the settings name, the run's
journal (so `konstruct undo` can take its edits back) and the code graph's neighborhood ranking.
`konstruct run` and the workbench build their loops here, so they cannot drift apart.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..agent import DEFAULT_BUDGET_CHARS, AgentLoop, KillSwitch, Limits, ProgressReporterPort, TrustGate
from ..providers import ProviderSettings, open_provider, with_server_window
from ..workspace import Workspace, WriteJournal

# Members listed per neighborhood in the opening message and the session_started event: enough to
# recognise a cluster; the agent asks `traverse_graph` for the rest.
NEIGHBORHOOD_MEMBERS = 20

Ranker = Callable[[Workspace, str], list[dict[str, Any]]]


def neighborhood_ranker() -> Ranker:
    """Neighborhoods relevant to a request, from an index that already exists: the run never waits
    for one to be built (the workbench builds it in the background at start-up)."""
    from ..graph import rank_neighborhoods
    from ..tools import ForegroundGraph

    def rank(workspace: Workspace, request: str) -> list[dict[str, Any]]:
        snapshot = ForegroundGraph(workspace).ensure(existing_only=True)
        if snapshot is None:
            return []
        return [{**hood.to_json(limit=NEIGHBORHOOD_MEMBERS), "score": score} for hood, score in rank_neighborhoods(snapshot, request)]

    return rank


def agent_loop(workspace: Workspace, settings: ProviderSettings, reporter: ProgressReporterPort, gate: TrustGate,
               limits: Limits, switch: KillSwitch, ranker: Ranker | None = None) -> AgentLoop:
    """One run's loop. Opening the provider may raise `ConfigInvalid`/`ScriptInvalid` (bad input)."""
    settings = with_server_window(settings)  # a local server's own context window, when the config names none
    model = open_provider(settings)
    return AgentLoop(
        workspace, model, reporter, gate, limits, settings.price(), switch,
        rank_neighborhoods=ranker if ranker is not None else neighborhood_ranker(),
        journal=WriteJournal(workspace.root),
        note=getattr(model, "note", None),
        header_extra={"script": os.path.abspath(settings.script)} if settings.script else {},
        # compaction starts near the model's window, when the config names it
        context_chars=settings.context_chars() or DEFAULT_BUDGET_CHARS,
    )


async def drive(loop: AgentLoop, request: str | None, record: Any = None) -> Any:
    """Run the loop to its end and close the provider afterwards."""
    try:
        return await loop.run(request, record)
    finally:
        await loop.model.aclose()
