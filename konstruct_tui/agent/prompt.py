"""What the model reads before the request: how to work with the intent-shaped tools and revisions,
the project's AGENTS.md, and the code neighborhoods relevant to the request."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..workspace import NotAFile, PathMissing, PathRefused, Workspace
from .ports import ToolSpec

AGENTS_FILE = "AGENTS.md"
AGENTS_LIMIT = 32 * 1024  # bytes of AGENTS.md put in front of the model; the rest is cut, and says so

_RULES = """\
You are a coding agent working on a real repository through tools that execute on the local checkout.
Work turn by turn: call tools, read their results, and finish with a short plain-text summary of what
you changed and why, without a tool call, when the request is done.

How the tools work:
- Paths are relative to the project root. Batch: one read_code call can read many files or line ranges,
  and one write_code call can carry many edits. Every entry comes back with its own status.
- Every read returns a revision (sha256 of the exact bytes). An edit to an existing file must carry
  the revision of the read it was built on. If the file changed since, the entry is a `conflict` and the
  file is untouched: read it again and rebuild the edit on the new content.
- Prefer replacements [{"old", "new"}]: `old` must occur exactly once, verbatim (copy it from the read,
  with enough context to be unique). One replacement may change at most half a file, and all edits to
  one file in this run at most 65% of it: change what the request needs, not more.
- Use search, enumerate and traverse_graph (when present) to find code and see what depends on it
  before you change it; the results say how far to trust them (stale, ahead_of_index).
- A tool error or a `denied` result is final for that call: read the reason, do not repeat the same call.
  A denial means the person did not grant that capability; work without it or say what you need.
- Never ask the person questions mid-run; do what the request says, then summarise."""


def system_prompt(tools: Sequence[ToolSpec]) -> str:
    listing = "\n".join(f"- {t.name}: {t.description}" for t in tools)
    return f"{_RULES}\n\nTools available in this run:\n{listing}\n"


def agents_md(workspace: Workspace) -> str | None:
    """The project's AGENTS.md, read through the workspace layer (containment applies), or None."""
    try:
        snapshot = workspace.read(AGENTS_FILE)
    except (PathMissing, PathRefused, NotAFile):
        return None
    text = snapshot.data[:AGENTS_LIMIT].decode("utf-8", "replace")
    if len(snapshot.data) > AGENTS_LIMIT:
        text += f"\n[AGENTS.md cut at {AGENTS_LIMIT} bytes of {len(snapshot.data)}]"
    return text


def opening(request: str, agents: str | None, neighborhoods: Sequence[dict[str, Any]]) -> str:
    """The first user message: the project's instructions and the relevant neighborhoods, then the request."""
    parts = []
    if agents:
        parts.append(f"The project's AGENTS.md (instructions from its maintainers):\n<agents_md>\n{agents}\n</agents_md>")
    if neighborhoods:
        lines = []
        for hood in neighborhoods:
            members = ", ".join(hood.get("members", [])[:12])
            more = " ..." if hood.get("size", 0) > 12 else ""
            bridges = ", ".join(hood.get("bridges", [])[:5])
            lines.append(f"- {hood['name']} ({hood.get('size', 0)} files): {members}{more}" + (f"; bridges: {bridges}" if bridges else ""))
        parts.append("Code neighborhoods (files that depend on each other) relevant to the request:\n" + "\n".join(lines))
    parts.append(f"Request:\n{request}")
    return "\n\n".join(parts)
