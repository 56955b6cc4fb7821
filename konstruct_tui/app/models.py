"""Which model a blueprint run talks to, from the provider settings the CLI resolved.

A real provider (OpenAI-compatible, Anthropic) serves every session of the run. The scripted
provider replays one script per session, because a script's turn N answers the N-th turn of one
transcript; `--script` may therefore name a folder of scripts, looked up per session as
`ROLE-PHASE-ATTEMPT.json`, then `ROLE-PHASE.json`, then `ROLE.json` (ROLE is `executor` or
`adjudicator`). A single file serves every session.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..agent import ModelCallPort
from ..blueprint import ModelSource, SharedModel
from ..providers import ProviderSettings, ScriptedProvider, ScriptInvalid, open_provider


class ScriptBook:
    """Scripted sessions from a folder (one script per session) or a single file."""

    provider = "scripted"
    note = "replaying recorded scripts: no model is called"

    def __init__(self, path: str | Path, turn_deadline_s: float = 300.0) -> None:
        self.path = Path(path)
        self.turn_deadline_s = turn_deadline_s
        self.model = f"scripted:{self.path.name}"
        if not self.path.exists():
            raise ScriptInvalid(f"script {str(path)!r} does not exist")
        if self.path.is_dir() and not any(self.path.glob("*.json")):
            raise ScriptInvalid(f"script folder {self.path.name!r} has no ROLE-PHASE.json scripts")

    def script_for(self, role: str, phase_id: str, attempt: int) -> Path:
        if self.path.is_file():
            return self.path
        for name in (f"{role}-{phase_id}-{attempt}.json", f"{role}-{phase_id}.json", f"{role}.json"):
            candidate = self.path / name
            if candidate.is_file():
                return candidate
        raise ScriptInvalid(f"no script for the {role} of phase {phase_id} attempt {attempt} in {self.path.name!r} "
                            f"(looked for {role}-{phase_id}-{attempt}.json, {role}-{phase_id}.json, {role}.json)")

    def open(self, role: str, phase_id: str, attempt: int) -> ModelCallPort:
        return ScriptedProvider(self.script_for(role, phase_id, attempt), turn_deadline_s=self.turn_deadline_s)

    async def aclose(self) -> None:
        return None


def model_source(settings: ProviderSettings) -> ModelSource:
    if settings.provider == "scripted":
        assert settings.script is not None
        return ScriptBook(settings.script, settings.turn_deadline_s)
    return SharedModel(open_provider(settings))


def describe_model(settings: ProviderSettings) -> dict[str, Any]:
    """What the run store keeps, so `resume` talks to the same model (never the key)."""
    described: dict[str, Any] = {"provider": settings.provider, "model": settings.model, "turn_deadline_s": settings.turn_deadline_s}
    if settings.provider != "scripted":
        described["base_url"] = settings.base_url
    if settings.script is not None:
        described["script"] = str(Path(settings.script).resolve())
    return described
