"""Edit guards: plain code that keeps one edit, and one run, from rewriting a file wholesale.

Two limits, because either alone was not enough in practice: a single replacement may not change
more than half of a file, and all edits to one file in one agent run together may not change more
than 65% of it (measured against the file as the run first saw it, so small steps add up).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

MAX_EDIT_FRACTION = 0.50
MAX_RUN_FRACTION = 0.65


class EditRejected(Exception):
    """The edit breaks a rule; the message says which and what to do instead."""


def changed_fraction(before: str, after: str) -> float:
    """The share of `before` (in characters, counted by whole lines) that `after` removes or rewrites.

    A line that is touched at all counts whole: reindenting or renaming on every line is a
    wholesale change. Pure insertions cost nothing. A file of one line has no lines to count by,
    so there only the characters that actually change count.
    """
    if not before:
        return 0.0
    prefix = _common_prefix(before, after)
    suffix = _common_suffix(before[prefix:], after[prefix:])
    if prefix + suffix >= len(before):
        return 0.0
    if before.count("\n") <= 1 and not before.rstrip("\n").count("\n"):
        return min(1.0, (len(before) - prefix - suffix) / len(before))
    # Widen the changed span to whole lines, then diff line by line inside it.
    start = before.rfind("\n", 0, prefix) + 1
    end_cut = len(before) - suffix
    newline = before.find("\n", end_cut)
    end = len(before) if newline < 0 else newline + 1
    if end_cut > start and before[end_cut - 1] == "\n":
        end = end_cut
    after_end = len(after) - (len(before) - end)
    old_lines = before[start:end].splitlines(keepends=True)
    new_lines = after[start:after_end].splitlines(keepends=True)
    removed = 0
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if tag in ("delete", "replace"):
            removed += sum(len(line) for line in old_lines[i1:i2])
    return min(1.0, removed / len(before))


def apply_replacement(text: str, old: str, new: str) -> str:
    """Replace the one verbatim occurrence of `old`, or raise `EditRejected` saying why not."""
    if old == "":
        raise EditRejected("`old` is empty; quote the exact text to replace")
    count = text.count(old)
    if count == 0 and "\r\n" in text and "\n" in old and "\r\n" not in old:
        # The file uses CRLF and the model quoted LF: match the file's own line endings.
        old, new = old.replace("\n", "\r\n"), new.replace("\r\n", "\n").replace("\n", "\r\n")
        count = text.count(old)
    if count == 0:
        raise EditRejected("`old` does not occur in the file; read it again and quote it verbatim")
    if count > 1:
        raise EditRejected(f"`old` occurs {count} times; include more surrounding lines so it occurs once")
    return text.replace(old, new, 1)


def check_edit(before: str, after: str, what: str = "this replacement") -> None:
    fraction = changed_fraction(before, after)
    if fraction > MAX_EDIT_FRACTION:
        raise EditRejected(
            f"{what} would change {fraction:.0%} of the file (limit {MAX_EDIT_FRACTION:.0%} per edit); "
            "make smaller, targeted replacements"
        )


@dataclass
class EditRun:
    """One agent run (or one CLI call): remembers each file as the run first saw it.

    `created` files are the run's own and are not limited.
    """

    originals: dict[str, str] = field(default_factory=dict)
    created: set[str] = field(default_factory=set)

    def check(self, path: str, before: str, after: str) -> None:
        if path in self.created:
            return
        original = self.originals.get(path, before)
        fraction = changed_fraction(original, after)
        if fraction > MAX_RUN_FRACTION:
            raise EditRejected(
                f"together with this run's earlier edits this would change {fraction:.0%} of {path} "
                f"(limit {MAX_RUN_FRACTION:.0%} per file per run); leave the rest of the file as it is"
            )

    def record(self, path: str, before: str | None) -> None:
        """Note a file as the run first saw it (`None`: the run created it). A file the run deleted
        and creates again is still measured against its original, so delete-then-create is no way
        around the limit."""
        if before is not None:
            self.originals.setdefault(path, before)
        elif path not in self.originals:
            self.created.add(path)


def _common_prefix(a: str, b: str) -> int:
    """Length of the shared start, by bisection on slice comparisons (done in C, not per character)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _common_suffix(a: str, b: str) -> int:
    low, high = 0, min(len(a), len(b))
    while low < high:
        mid = (low + high + 1) // 2
        if a[len(a) - mid :] == b[len(b) - mid :]:
            low = mid
        else:
            high = mid - 1
    return low
