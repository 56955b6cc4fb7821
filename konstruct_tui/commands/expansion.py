"""Shell expansions the policy cannot read, and the few readings it tries before refusing.

A command line with `$VAR`, `${...}`, brace expansion or a glob in the program name means something
only a shell knows. Commands run without a shell, so the writer does not get what they wrote, and
the policy cannot judge what they meant: such a line is refused (rule `unreadable_expansion`)
rather than judged as the unexpanded word. Before that the hard deny list gets a look at the
readings an attacker relies on (`rm${IFS}-rf${IFS}/` split on blanks, `{rm,-rf,/}` brace-expanded),
so the refusal names `deny` when one of them is a catastrophe.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .shellwords import EXPANSION_NAMES, Word

_IFS = re.compile(r"\$IFS\b|\$\{IFS\}|\$\{IFS[:#%/][^}]*\}")
_SEQUENCE = re.compile(r"^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(\.\.-?\d+)?$")
_MAX_WORDS = 64  # brace expansion is exponential; the probe stops here (the line is refused anyway)
_MAX_WORD = 4096  # longer words are not brace-expanded for the probe: linear time comes first


def unreadable(words: Sequence[Word], command_index: int = 0) -> tuple[str, str] | None:
    """(the word, what it holds) for the first expansion the policy cannot know, or None.
    Globs count only in the program name (`/bin/r?`): as an argument `*.py` reaches the program
    literally, which is harmless; `~+` is readable (the project) and judged as such elsewhere."""
    for k, word in enumerate(words):
        kinds = set(word.expansions) - {"tilde_pwd"}
        if k != command_index:
            kinds.discard("glob")
        if kinds:
            kind = min(kinds)
            return word.text, EXPANSION_NAMES[kind]
    return None


def readings(words: Sequence[Word]) -> list[list[str]]:
    """Other argvs a shell might make of these words: split on `$IFS`, braces expanded, `~+` as
    `.`. Empty when nothing in the words is expanded that way."""
    if not any(w.expansions & {"brace", "parameter", "variable", "tilde_pwd"} for w in words):
        return []
    out: list[str] = []
    changed = False
    for word in words:
        pieces = [word.text]
        if "tilde_pwd" in word.expansions:
            pieces = ["." + word.text[2:]]
        if _IFS.search(word.text):
            pieces = [p for piece in pieces for p in _IFS.split(piece) if p]
        if "brace" in word.expansions and len(word.text) <= _MAX_WORD:
            pieces = [p for piece in pieces for p in brace_expand(piece)]
        changed = changed or pieces != [word.text]
        out.extend(pieces)
        if len(out) > _MAX_WORDS:
            break
    return [out] if changed else []


def brace_expand(text: str) -> list[str]:
    """Bash brace expansion of one word (`a{b,c}d` -> abd acd, `{1..3}`), at most _MAX_WORDS results."""
    results = [text]
    for _ in range(8):  # nesting depth
        expanded: list[str] = []
        grew = False
        for item in results:
            parts = _first_brace(item)
            if parts is None:
                expanded.append(item)
                continue
            grew = True
            head, options, tail = parts
            expanded.extend(head + option + tail for option in options)
            if len(expanded) > _MAX_WORDS:
                return expanded[:_MAX_WORDS]
        results = expanded
        if not grew:
            break
    return results


def _first_brace(text: str) -> tuple[str, list[str], str] | None:
    """The first expandable `{...}` of text: (before, alternatives, after)."""
    start = 0
    while True:
        open_at = text.find("{", start)
        if open_at < 0:
            return None
        depth, k, commas = 0, open_at, []
        while k < len(text):
            if text[k] == "{":
                depth += 1
            elif text[k] == "}":
                depth -= 1
                if depth == 0:
                    break
            elif text[k] == "," and depth == 1:
                commas.append(k)
            k += 1
        if k >= len(text):
            return None
        body = text[open_at + 1:k]
        if commas:
            bounds = [open_at, *commas, k]
            options = [text[bounds[j] + 1:bounds[j + 1]] for j in range(len(bounds) - 1)]
            return text[:open_at], options, text[k + 1:]
        sequence = _SEQUENCE.match(body)
        if sequence:
            return text[:open_at], _sequence(sequence), text[k + 1:]
        start = open_at + 1


def _sequence(match: re.Match[str]) -> list[str]:
    first, last = match.group(1), match.group(2)
    step = abs(int(match.group(3)[2:])) if match.group(3) else 1
    step = step or 1
    if first.lstrip("-").isdigit() and last.lstrip("-").isdigit():
        a, b = int(first), int(last)
        values = range(a, b + (1 if b >= a else -1), step if b >= a else -step)
        return [str(v) for v in values][:_MAX_WORDS]
    if first.isalpha() and last.isalpha():
        a, b = ord(first), ord(last)
        values = range(a, b + (1 if b >= a else -1), step if b >= a else -step)
        return [chr(v) for v in values][:_MAX_WORDS]
    return ["{" + match.group(0) + "}"]
