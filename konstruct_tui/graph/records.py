"""What the index keeps about one file, between the worker that read it and the store that holds it.

`FileRecord` is the full record as produced by extraction (facts included); `FileEntry` is the light
row a snapshot keeps in memory (no facts: resolution loads those from the store when it needs them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from sys import intern
from typing import Any

from .facts import FileFacts, ImportRef, MemberFacts, MemberFactsRecord, Symbol, members_json

TEXT = "text"  # the language of every file the graph does not understand structurally

# Why a file of a structural language was not parsed; "" means it was.
TOO_LARGE = "too_large"
BINARY = "binary"
UNREADABLE = "unreadable"
PARSE_FAILED = "parse_failed"


@dataclass(frozen=True, slots=True)
class FileEntry:
    """One indexed file as a snapshot sees it. `symbols_json` is decoded only when a symbol is asked
    for, so a warm start does not pay for thousands of symbol lists nobody reads."""

    path: str
    language: str
    hash: str
    size: int
    mtime_ns: int
    note: str = ""
    symbols_json: str = "[]"
    used_here: str = ""  # names this file defines and also uses itself (space separated)
    inode: int = 0  # 0: not known (a row written before inodes were kept never matches a real one)

    @property
    def structural(self) -> bool:
        return self.language != TEXT

    @property
    def parsed(self) -> bool:
        return self.structural and not self.note

    def symbols(self) -> tuple[Symbol, ...]:
        return tuple(Symbol(n, k, s, e) for n, k, s, e in json.loads(self.symbols_json))

    def same_stat(self, size: int, mtime_ns: int, inode: int) -> bool:
        return self.size == size and self.mtime_ns == mtime_ns and self.inode == inode


@dataclass(frozen=True, slots=True)
class FileRecord:
    """A freshly read file: its entry plus, when parsed, its facts (object and JSON)."""

    entry: FileEntry
    facts: FileFacts | None = None
    facts_json: str | None = None
    unchanged: bool = False  # bytes equal the stored hash: only the stat moved


def used_here(facts: FileFacts) -> str:
    uses = set(".".join(facts.uses).split("."))  # one join and split in C instead of a split per use
    defined = {s.name.rsplit(".", 1)[-1] for s in facts.symbols}
    return " ".join(sorted(defined & uses))


def encode_facts(facts: FileFacts) -> tuple[str, str]:
    """(facts JSON, symbols JSON) in a compact form (lists, not dicts): encoding is a third of
    `asdict` + dumps, and the parent decodes every file's facts once, so the size matters too."""
    symbols = _compact([[s.name, s.kind, s.start_line, s.end_line] for s in facts.symbols])
    rest = _compact([
        [[i.target, i.names, i.line, i.kind, i.level, i.alias] for i in facts.imports],
        facts.uses,
        facts.package,
        members_json(facts.extra),
    ])
    # The symbols are encoded once and spliced in: [path, language, symbols, imports, uses, package, extra].
    return f"[{_compact(facts.path)},{_compact(facts.language)},{symbols},{rest[1:]}", symbols


_compact = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def facts_from_json(text: str) -> FileFacts:
    # Names, kinds and import targets repeat across thousands of files: interned, each is one
    # string object (on a 100,000-file tree that is a tenth of the facts' memory).
    path, language, symbols, imports, uses, package, extra = json.loads(text)
    return FileFacts(
        path,
        intern(language),
        tuple(Symbol(intern(n), intern(k), s, e) for n, k, s, e in symbols),
        tuple(ImportRef(intern(t), tuple(map(intern, n)), line, intern(kind), level, alias and intern(alias))
              for t, n, line, kind, level, alias in imports),
        tuple(map(intern, uses)),
        package and intern(package),
        _members_from_json(intern(language), extra),
    )


def _members_from_json(language: str, data: Any) -> MemberFacts | dict[str, Any]:
    try:
        record = _RECORDS[language]
    except KeyError:
        from .languages import languages  # here, not at import: `graph export --help` loads no plugin

        support = languages().get(language)
        record = _RECORDS[language] = support.member_facts if support is not None else None
    return data if record is None else record.from_json(data)


_RECORDS: dict[str, MemberFactsRecord | None] = {}  # {language: the record its member facts are read into}
