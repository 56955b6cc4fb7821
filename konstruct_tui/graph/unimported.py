"""What a language plugin starts from to say how its code runs without an import
(`LanguageSupport.unimported`, see `graph.facts.RunsUnimported`): every answer "none", and the
reading of loader sites every language shares."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .facts import Symbol


# The conventions of every language (see `RunsUnimported.conventions`).
TEST_DATA = (re.compile(r"(^|/)(fixtures?|__fixtures__|testdata|__mocks__)/"),
             "test data, read or mocked in by tests by its path")
PROGRAMS_WHY = "a program of its own, by its folder's convention"
PROGRAMS = (re.compile(r"(^|/)(examples?|benchmarks?|bench|__benchmarks__|bin)/"), PROGRAMS_WHY)


class OnlyImported:
    """A language whose code runs only when something imports it: no entry points, no loaders."""

    entry_runs_whole_file = False
    declared_entry_is_api = True
    load_hooks: frozenset[str] = frozenset()
    package_init = ""
    annotation_scanned = False
    loader_words: tuple[str, ...] = ()
    modules_read_by_name = False
    test_files = ""
    conventions: tuple[tuple[re.Pattern[str], str], ...] = (TEST_DATA, PROGRAMS)

    def entry_reason(self, path: str, text: str) -> str:
        return ""

    def names_entry_points(self, config: str) -> bool:
        return False

    def entry_points(self, config: str, text: str, own_files: set[str],
                     all_files: set[str]) -> tuple[dict[str, str], set[tuple[str, str]]]:
        return {}, set()

    def routed(self, all_files: set[str]) -> dict[str, str]:
        return {}

    def loading_sites(self, path: str, text: str) -> list[tuple[str, str | None]]:
        return []

    def loaded_folders(self, path: str, text: str) -> list[tuple[str, str]]:
        return []

    def file_spellings(self, path: str, text: str | None) -> list[str]:
        return []

    def symbol_spellings(self, path: str, name: str) -> list[str]:
        return []

    def app_package_spelling(self, path: str) -> tuple[str, list[str]] | None:
        return None

    def api(self, path: str, symbols: Sequence[Symbol]) -> list[Symbol]:
        return []

    def api_reason(self, name: str) -> str:
        return ""

    def does_something(self, text: str | None) -> bool:
        return True


# A loader whose argument is a plain string literal names one module (`__import__("pydoc")`): it
# is not a computed name, and only a file of that name is concerned (group `literal`).
LITERAL = r"""(?:['"](?P<literal>[\w./@-]*)['"]\s*[,)])?"""


def loader_sites(pattern: re.Pattern[str], triggers: Sequence[str], path: str, text: str,
                 literal: Callable[[re.Match[str]], str | None] = lambda match: match.groupdict().get("literal")
                 ) -> list[tuple[str, str | None]]:
    """(`path:line (what)`, `literal(match)`) for every match of `pattern` (group `site`: what
    loads) in `text`, read only on the lines holding one of `triggers` and the line after each."""
    found = []
    for start, end in _lines_holding(text, triggers):  # the expression is slow; these substrings are not
        for match in pattern.finditer(text, start, end):
            line = text.count("\n", 0, match.start()) + 1
            found.append((f"{path}:{line} ({match.group('site').strip().rstrip('(').strip()})", literal(match)))
    return found


def _lines_holding(text: str, words: Sequence[str]) -> list[tuple[int, int]]:
    """(start, end) of each line holding one of `words`, with the line after it (a call's argument
    may follow on the next line), merged and in order."""
    spans = []
    for word in words:
        at = text.find(word)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", text.find("\n", at) + 1)
            spans.append((start, len(text) if end < 0 or text.find("\n", at) < 0 else end))
            at = text.find(word, at + len(word))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


__all__ = ["LITERAL", "PROGRAMS", "PROGRAMS_WHY", "TEST_DATA", "OnlyImported", "loader_sites"]
