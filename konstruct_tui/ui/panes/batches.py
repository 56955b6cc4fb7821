"""The batches pane: every entry of the current and recent tool batches, one row each, with its status
and reason, colored by status through theme tokens (`$status-conflict`...)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.color import Color as RichColor
from rich.style import Style
from rich.text import Text
from textual.color import Color, ColorParseError
from textual.widgets import DataTable

from ...agent import ToolFinished
from ...app import batch_rows, status_token
from ...untrusted_text import neutralise
from ..messages import Reportable

# Recent history kept on screen; older batches scroll away (the transcript keeps every result).
MAX_ROWS = 500


@dataclass(frozen=True)
class BatchRow:
    batch: int
    tool: str
    path: str
    status: str
    reason: str


class BatchTable(DataTable[Text]):
    """Newest batch at the bottom, cursor following it. Status cells are colored from the theme;
    DataTable cells are Rich text, so a theme change re-colors the rows already shown."""
    # The event types this pane draws: the app routes only these to `show` (see messages.EventRoutes).
    DRAWS: ClassVar[tuple[type, ...]] = (ToolFinished,)

    def __init__(self, *, id: str | None = None) -> None:
        # renderable: a status keeps its color under the cursor row
        super().__init__(id=id, cursor_type="row", zebra_stripes=True, cursor_foreground_priority="renderable")
        self.rows_shown: list[BatchRow] = []
        self._batches = 0

    def on_mount(self) -> None:
        self.add_column("#", key="batch", width=3)
        self.add_column("tool", key="tool", width=12)
        self.add_column("path", key="path", width=34)
        self.add_column("status", key="status", width=11)
        self.add_column("reason", key="reason")
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._recolor())

    def show(self, event: Reportable) -> None:
        if not isinstance(event, ToolFinished):
            return
        rows = batch_rows(event)
        if not rows:
            return
        self._batches += 1
        for path, status, reason in rows:
            row = BatchRow(self._batches, event.tool, path, status, reason)
            self.rows_shown.append(row)
            self.add_row(*self._cells(row))
        while len(self.rows_shown) > MAX_ROWS:
            self.rows_shown.pop(0)
            self.remove_row(next(iter(self.rows)))
        self.move_cursor(row=self.row_count - 1)

    def _cells(self, row: BatchRow) -> tuple[Text, ...]:
        colour = self._colour(status_token(row.status))
        return (
            Text(str(row.batch), style="dim"),
            Text(neutralise(row.tool, keep_layout=False)),
            Text(neutralise(row.path, keep_layout=False), overflow="ellipsis"),
            Text(row.status, style=Style(color=colour, bold=row.status != "ok")),
            Text(neutralise(row.reason, keep_layout=False), overflow="ellipsis"),
        )

    def _colour(self, token: str) -> RichColor | None:
        value = self.app.theme_variables.get(token)
        if not value:
            return None
        try:
            return Color.parse(value).rich_color
        except ColorParseError:  # a user theme's odd value: plain text beats a crash
            return None

    def _recolor(self) -> None:
        shown = list(self.rows_shown)
        self.clear()
        for row in shown:
            self.add_row(*self._cells(row))

    def reset(self) -> None:
        self.rows_shown.clear()
        self._batches = 0
        self.clear()
