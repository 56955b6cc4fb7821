"""Narrow terminals: below NARROW_WIDTH the side panes (48 columns) would leave the transcript under
52, so the transcript keeps the row alone and ctrl+b cycles it with the side panes and the batch
table, each full width in its place, like tabs (the stylesheet does the hiding, keyed on classes)."""

from __future__ import annotations

from textual.screen import Screen

NARROW_WIDTH = 100
VIEWS = ("-view-panes", "-view-batches")  # what ctrl+b cycles through after the transcript
LABELS = ("panes: budgets, neighborhoods, gate", "batches")


def fit_width(screen: Screen[object], width: int) -> None:
    narrow = width < NARROW_WIDTH
    screen.set_class(narrow, "-narrow")
    if not narrow:
        screen.remove_class(*VIEWS)


def next_view(screen: Screen[object]) -> str | None:
    """Show the next view; its name, or None when the terminal is wide (everything is on screen)."""
    if not screen.has_class("-narrow"):
        return None
    current = next((i for i, view in enumerate(VIEWS) if screen.has_class(view)), -1)
    screen.remove_class(*VIEWS)
    if current + 1 < len(VIEWS):
        screen.add_class(VIEWS[current + 1])
        return LABELS[current + 1]
    return "transcript"
