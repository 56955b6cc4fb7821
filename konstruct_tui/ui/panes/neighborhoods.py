"""The neighborhoods pane: the code-graph clusters relevant to the session, their members, which of
them this session has read or written, and how far the graph can be trusted right now."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.markup import escape
from textual.widgets import Static

from ...agent import SessionStarted, ToolFinished
from ...app import batch_rows
from ..messages import Reportable
from ..untrusted import plain

_READ = {"ok"}
_WRITTEN = {"written", "created", "deleted"}
_MAX_MEMBERS = 12


@dataclass
class HoodView:
    name: str
    members: tuple[str, ...]
    bridges: tuple[str, ...]
    score: float | None = None
    stale: tuple[str, ...] = ()
    size: int = 0  # all members, when `members` was cut short for the screen
    touched: dict[str, str] = field(default_factory=dict)  # path -> "read" | "written"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HoodView:
        return cls(
            str(data.get("name", "?")),
            tuple(str(m) for m in data.get("members") or ()),
            tuple(str(b) for b in data.get("bridges") or ()),
            data.get("score") if isinstance(data.get("score"), (int, float)) else None,
            tuple(str(s) for s in data.get("stale") or ()),
            int(data.get("size") or len(data.get("members") or ())),
        )


class NeighborhoodsPane(Vertical):
    # The event types this pane draws: the app routes only these to `show` (see messages.EventRoutes).
    DRAWS: ClassVar[tuple[type, ...]] = (SessionStarted, ToolFinished)
    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.hoods: list[HoodView] = []
        self.graph_status = "graph: indexing…"

    def compose(self) -> ComposeResult:
        yield Static(id="graph-status")
        with VerticalScroll(id="hood-list"):
            yield Static(id="hood-lines")

    def on_mount(self) -> None:
        self.border_title = "Neighborhoods"
        self._paint()

    def set_graph_status(self, text: str) -> None:
        """Readiness and staleness, from whoever looked at the graph (a start-up worker, the loop)."""
        self.graph_status = text
        self._paint_status()

    def set_neighborhoods(self, hoods: list[dict[str, Any]]) -> None:
        touched = {path: how for hood in self.hoods for path, how in hood.touched.items()}
        self.hoods = [HoodView.from_json(h) for h in hoods]
        for hood in self.hoods:
            hood.touched = {p: how for p, how in touched.items() if p in hood.members}
        self._paint()

    def show(self, event: Reportable) -> None:
        if isinstance(event, SessionStarted) and event.neighborhoods:
            # The ones ranked for this request first, then the rest already on screen.
            ranked = list(event.neighborhoods)
            names = {str(h.get("name")) for h in ranked}
            rest = [_as_json(h) for h in self.hoods if h.name not in names]
            self.set_neighborhoods(ranked + rest)
        elif isinstance(event, ToolFinished) and self.hoods:
            changed = False
            for path, status, _reason in batch_rows(event):
                how = "written" if status in _WRITTEN else "read" if status in _READ else None
                if how is None:
                    continue
                for hood in self.hoods:
                    if path in hood.members and hood.touched.get(path) != "written":
                        hood.touched[path] = how
                        changed = True
            if changed:
                self._paint()

    def _paint_status(self) -> None:
        self.query_one("#graph-status", Static).update(Content.from_markup(f"[dim]{escape(self.graph_status)}[/dim]"))

    def _paint(self) -> None:
        self._paint_status()
        if not self.hoods:
            text = "[dim]none yet: the graph is indexing, or the project has no linked files[/dim]"
            self.query_one("#hood-lines", Static).update(Content.from_markup(text))
            return
        lines: list[str] = []
        for rank, hood in enumerate(self.hoods):
            touched = f" · [$accent]touched {len(hood.touched)}[/]" if hood.touched else ""
            stale = f" · [$warning]{len(hood.stale)} stale[/]" if hood.stale else ""
            opened = bool(hood.touched) or rank == 0
            mark = "▾" if opened else "▸"
            lines.append(f"{mark} [b]{plain(hood.name, keep_layout=False)}[/b] [dim]{max(hood.size, len(hood.members))} files[/dim]{touched}{stale}")
            if opened:
                shown = hood.members[:_MAX_MEMBERS]
                lines.extend("  " + _member_markup(member, hood) for member in shown)
                more = max(hood.size, len(hood.members)) - len(shown)
                if more > 0:
                    lines.append(f"  [dim]… {more} more[/dim]")
        self.query_one("#hood-lines", Static).update(Content.from_markup("\n".join(lines)))

    def reset(self) -> None:
        self.hoods = []
        self._paint()


def _as_json(hood: HoodView) -> dict[str, Any]:
    return {"name": hood.name, "members": list(hood.members), "bridges": list(hood.bridges), "score": hood.score,
            "stale": list(hood.stale), "size": hood.size}


def _member_markup(path: str, hood: HoodView) -> str:
    how = hood.touched.get(path)
    mark = "[$accent]✎[/]" if how == "written" else "[$primary]◉[/]" if how == "read" else "[dim]·[/dim]"
    bridge = " [dim](bridge)[/dim]" if path in hood.bridges else ""
    stale = " [$warning](stale)[/]" if path in hood.stale else ""
    return f"{mark} {plain(path, keep_layout=False)}{bridge}{stale}"
