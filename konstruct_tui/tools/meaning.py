"""`search` by meaning: BM25 over the index's symbols and files.

A symbol's document is its name (split on case and underscores, counted three times), its kind,
its file's path words and its docstring or leading comment; a file's document is its path words
(twice), every symbol name in it and its header comment or module docstring. Built once per graph
snapshot and kept while that snapshot is current, so only the first question after a change pays.
"""

from __future__ import annotations

import math
import re
import threading
import weakref
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath

from ..graph import GraphSnapshot
from ..workspace import Workspace

K1, B = 1.2, 0.75
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9]*|[0-9]+")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z]|[0-9]|$)|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_STOP = frozenset(
    "a an and are as at be by do does for from how i in is it its of on or that the this to was what "
    "when where which who why with where can should would will me my we our you your there here".split()
)
_COMMENT = re.compile(r"^\s*(#|//|/\*|\*|--)")
_QUOTES = ('"""', "'''", 'r"""', "r'''")
_DOC_BYTES = 256 * 1024  # a file larger than this gives no docstrings (generated code, bundles)


def words(text: str) -> list[str]:
    """Lower-case word stems of identifiers and prose: `parseHTTPHeader_v2` -> parse http header v 2."""
    found: list[str] = []
    for ident in _IDENT.findall(text):
        found.extend(_identifier_words(ident))
    return found


@lru_cache(maxsize=262_144)
def _identifier_words(ident: str) -> tuple[str, ...]:
    """Identifiers repeat across a project: split and stem each spelling once."""
    stems = (_stem(part.lower()) for part in (_PART.findall(ident) or [ident]))
    return tuple(w for w in stems if w and w not in _STOP)


def _stem(word: str) -> str:
    for suffix in ("ing", "ies", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word


@dataclass(frozen=True)
class Document:
    path: str
    symbol: str | None
    kind: str
    start_line: int
    end_line: int


class MeaningIndex:
    def __init__(self, documents: list[Document], bags: list[Counter[str]]) -> None:
        self.documents = documents
        self._lengths = [sum(b.values()) for b in bags]
        self._average = (sum(self._lengths) / len(bags)) if bags else 1.0
        self._postings: dict[str, list[tuple[int, int]]] = defaultdict(list)
        for i, bag in enumerate(bags):
            for word, count in bag.items():
                self._postings[word].append((i, count))

    def rank(self, query: str, limit: int) -> list[tuple[Document, float]]:
        total = len(self.documents)
        scores: dict[int, float] = defaultdict(float)
        for word in set(words(query)):
            postings = self._postings.get(word)
            if not postings:
                continue
            idf = math.log(1 + (total - len(postings) + 0.5) / (len(postings) + 0.5))
            for i, count in postings:
                norm = K1 * (1 - B + B * self._lengths[i] / self._average)
                scores[i] += idf * count * (K1 + 1) / (count + norm)
        best = sorted(scores.items(), key=lambda item: (-item[1], item[0]))[:limit]
        return [(self.documents[i], round(score, 4)) for i, score in best]


_CACHE: weakref.WeakKeyDictionary[GraphSnapshot, MeaningIndex] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def meaning_index(snapshot: GraphSnapshot, workspace: Workspace) -> MeaningIndex:
    with _LOCK:
        cached = _CACHE.get(snapshot)
    if cached is None:
        cached = build(snapshot, workspace)
        with _LOCK:
            _CACHE[snapshot] = cached
    return cached


def build(snapshot: GraphSnapshot, workspace: Workspace) -> MeaningIndex:
    documents: list[Document] = []
    bags: list[Counter[str]] = []
    for path in sorted(snapshot.files):
        entry = snapshot.files[path]
        path_words = words(PurePosixPath(path).with_suffix("").as_posix())
        symbols = entry.symbols() if entry.symbols_json != "[]" else ()
        lines = _lines(workspace, path) if entry.structural and entry.size <= _DOC_BYTES else []
        file_bag = Counter(path_words * 2)
        file_bag.update(words(_header(lines)))
        for symbol in symbols:
            name_words = words(symbol.name)
            file_bag.update(name_words)
            bag = Counter(name_words * 3)
            bag.update(path_words)
            bag.update(words(symbol.kind))
            bag.update(words(_docstring(lines, symbol.start_line)))
            documents.append(Document(path, symbol.name, symbol.kind, symbol.start_line, symbol.end_line))
            bags.append(bag)
        documents.append(Document(path, None, "file", 1, 1))
        bags.append(file_bag)
    return MeaningIndex(documents, bags)


def _lines(workspace: Workspace, path: str) -> list[str]:
    try:
        return workspace.read(path).data.decode("utf-8", "replace").splitlines()
    except Exception:  # unreadable now: the names and the path still describe it
        return []


def _header(lines: list[str]) -> str:
    """The module docstring or the comment block at the top of a file."""
    head = lines[:40]
    for i, line in enumerate(head):
        stripped = line.strip()
        if not stripped or stripped.startswith("#!"):
            continue
        if stripped.startswith(_QUOTES):
            return _quoted_block(head, i)
        if _COMMENT.match(line):
            block = []
            for later in head[i:]:
                if not _COMMENT.match(later):
                    break
                block.append(later)
            return "\n".join(block)
        return ""
    return ""


def _docstring(lines: list[str], start: int) -> str:
    """A Python docstring right after the definition line(s), else the comment block above it."""
    if not lines:
        return ""
    for i in range(start, min(start + 6, len(lines))):
        stripped = lines[i].strip()
        if stripped.startswith(_QUOTES):
            return _quoted_block(lines, i)
        if stripped and not stripped.endswith((":", ",", "(", ")", "->")) and not stripped.startswith(")"):
            break
    above: list[str] = []
    for i in range(start - 2, max(start - 12, -1), -1):
        if not _COMMENT.match(lines[i]):
            break
        above.append(lines[i])
    return "\n".join(reversed(above))


def _quoted_block(lines: list[str], at: int) -> str:
    text = []
    quote = lines[at].strip().lstrip("r")[:3]
    for i in range(at, min(at + 12, len(lines))):
        text.append(lines[i])
        if (i > at or lines[at].strip().count(quote) >= 2) and quote in lines[i]:
            break
    return "\n".join(text)
