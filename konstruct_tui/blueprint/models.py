"""Which model each blueprint session talks to: the run's `ModelSource` port.

The run is handed its source by whoever composes it (the CLI or the workbench, through
`konstruct_tui.app`): a real provider serves every session of the run (`SharedModel`: each session
sends its own transcript), the scripted provider one script per session (`app.ScriptBook`). The
blueprint layer itself imports no provider.
"""

from __future__ import annotations

from typing import Protocol

from ..agent import ModelCallPort


class ModelSource(Protocol):
    provider: str
    model: str

    def open(self, role: str, phase_id: str, attempt: int) -> ModelCallPort: ...

    async def aclose(self) -> None: ...


class SharedModel:
    """One model for every session (a real provider, or a test's scripted port)."""

    def __init__(self, model: ModelCallPort) -> None:
        self.port = model
        self.provider = model.provider
        self.model = model.model
        self.note = getattr(model, "note", None)

    def open(self, role: str, phase_id: str, attempt: int) -> ModelCallPort:
        return self.port

    async def aclose(self) -> None:
        await self.port.aclose()
