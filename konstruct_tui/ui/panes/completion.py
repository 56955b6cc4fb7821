"""The completion list under the request input: slash commands after `/`, project files after `@`.

It only shows what the request input gives it and says which entry is highlighted; the input
decides what a choice does (app/slash_commands.py and app/mentions.py rank the entries)."""

from __future__ import annotations

from dataclasses import dataclass

from textual.content import Content
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...untrusted_text import neutralise


@dataclass(frozen=True)
class Completion:
    """One entry: `insert` replaces what was typed from `start` to the cursor."""

    insert: str
    label: str
    detail: str = ""
    kind: str = "file"  # file | command


class CompletionList(OptionList):
    """Never focused: keys stay in the request input, which moves the highlight."""

    can_focus = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entries: list[Completion] = []
        self.start = 0
        self.display = False

    def offer(self, start: int, entries: list[Completion]) -> None:
        self.start = start
        self.entries = entries
        self.clear_options()
        if not entries:
            self.display = False
            return
        labels = [neutralise(e.label, keep_layout=False) for e in entries]  # file names are anyone's
        width = max(len(label) for label in labels) + 2
        self.add_options([Option(Content.assemble(label.ljust(width), (neutralise(e.detail), "dim"))) for label, e in zip(labels, entries, strict=True)])
        self.highlighted = 0
        self.display = True

    def close(self) -> None:
        self.entries = []
        self.display = False

    def move(self, step: int) -> None:
        if self.entries:
            self.highlighted = ((self.highlighted or 0) + step) % len(self.entries)

    @property
    def chosen(self) -> Completion | None:
        if not self.display or not self.entries or self.highlighted is None:
            return None
        return self.entries[self.highlighted]
