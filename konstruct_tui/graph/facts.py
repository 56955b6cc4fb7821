"""The small records that pass between extraction, resolution and the index store.

Extraction is pure (bytes in, `FileFacts` out) so it can run in worker processes; resolution turns
facts into file-to-file `Edge`s with the project in view. Everything here is JSON-serializable via
`dataclasses.asdict` and rebuilt with `from_json`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Symbol:
    """A definition: `name` is qualified within its file (`Class.method`), `kind` e.g. function,
    class, method, interface, type, variable, constant; lines are 1-based and inclusive."""

    name: str
    kind: str
    start_line: int
    end_line: int

    # A cold build makes one per definition twice (worker and parent): the generated frozen
    # `__init__` (one `object.__setattr__` call per field) costs 1.45x this, which sets the slots
    # through their descriptors (bound below, once the dataclass has made its slotted class).
    def __init__(self, name: str, kind: str, start_line: int, end_line: int) -> None:
        _SYMBOL_SLOTS[0](self, name)
        _SYMBOL_SLOTS[1](self, kind)
        _SYMBOL_SLOTS[2](self, start_line)
        _SYMBOL_SLOTS[3](self, end_line)


@dataclass(frozen=True, slots=True)
class ImportRef:
    """One import as written. `target`: the module path or specifier (`pkg.mod`, `./util.js`,
    `java.util.List`, `example.com/m/pkg`); `names`: the names imported from it (empty for a plain
    module import, `*` for on-demand/wildcard); `level`: Python relative dots; `kind`: import, from,
    reexport, type, static, wildcard."""

    target: str
    names: tuple[str, ...] = ()
    line: int = 0
    kind: str = "import"
    level: int = 0
    alias: str | None = None

    def __init__(self, target: str, names: tuple[str, ...] = (), line: int = 0, kind: str = "import",
                 level: int = 0, alias: str | None = None) -> None:
        set_target, set_names, set_line, set_kind, set_level, set_alias = _IMPORT_SLOTS  # as Symbol's
        set_target(self, target)
        set_names(self, names)
        set_line(self, line)
        set_kind(self, kind)
        set_level(self, level)
        set_alias(self, alias)


_SYMBOL_SLOTS = tuple(Symbol.__dict__[f].__set__ for f in ("name", "kind", "start_line", "end_line"))
_IMPORT_SLOTS = tuple(ImportRef.__dict__[f].__set__ for f in ("target", "names", "line", "kind", "level", "alias"))


@dataclass(frozen=True, slots=True)
class FileFacts:
    """What one file defines, imports and uses. `package`: Java package or Go package name;
    `uses`: identifiers (and `qualifier.Name` pairs where the language has them) referred to."""

    path: str
    language: str
    symbols: tuple[Symbol, ...] = ()
    imports: tuple[ImportRef, ...] = ()
    uses: tuple[str, ...] = ()
    package: str | None = None
    # The language's member facts: a frozen record of its plugin's `SUPPORT.member_facts`
    # (a plain dict only for a language whose facts are not typed yet, see `MemberFacts`).
    extra: MemberFacts | dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["extra"] = members_json(self.extra)
        return out


class MemberFacts(Protocol):
    """What one file states about the members of its types (fields, returns, receivers...), as one
    language's frozen record (its fields typed records too, never strings with a syntax of their
    own). It meets JSON only at the index store's edge: `to_json` there, and the plugin's
    `SUPPORT.member_facts.from_json` back. Changing its fields changes the index format: bump the
    plugin's `version` (tests/graph/test_fact_format.py holds each record's shape with it)."""

    def to_json(self) -> Any: ...


class MemberFactsRecord(Protocol):
    """The class of a language's member facts: it rebuilds them from what `to_json` gave."""

    def from_json(self, data: Any) -> MemberFacts: ...


def members_json(extra: MemberFacts | dict[str, Any]) -> Any:
    """`extra` as the store writes it."""
    return extra if isinstance(extra, dict) else extra.to_json()


# A member-use name `Sub.m>Base.m` on a `members` edge: the source file declares `Sub.m`, which
# overrides `Base.m` (declared in the target file). `callers` follows these up to the family.
OVERRIDES = ">"


@dataclass(frozen=True, slots=True)
class Edge:
    """A file-to-file dependency. `kind`: imports or references; `names`: the symbols that justify it."""

    source: str
    target: str
    kind: str
    names: tuple[str, ...] = ()


class ProjectView(Protocol):
    """What a resolver may see of the project: every indexed path, their facts, and small config
    files (go.mod, tsconfig.json, pyproject.toml) read through the workspace layer."""

    def paths(self) -> Iterable[str]: ...

    def facts_of(self, path: str) -> FileFacts | None: ...

    def read_text(self, path: str) -> str | None: ...


class Resolver(Protocol):
    def resolve(self, facts: FileFacts) -> list[Edge]: ...


class BuildVariants(Protocol):
    """A language whose files are compiled or not depending on the build (Go's `//go:build`)."""

    def other_build_callers(self, under: Callable[[str], Iterable[str]], found: Sequence[tuple[str, Symbol]],
                            callers: list[str], defines: Callable[[str, str], bool],
                            read: Callable[[str], str | None]) -> tuple[dict[str, tuple[str, str]], set[str]]:
        """`under(folder)`: the files beneath a folder; `found`: the declarations asked about;
        `callers`: their proven callers. ({caller: (constraint, the declaration the default build
        binds it to, or "")}: callers that call it only in another build, {caller}: callers whose
        own build compiles another declaration of the name)."""
        ...


class WrittenSupertypes(Protocol):
    """A language whose class header names its supertypes (Python's `class A(B)`, Java's
    `extends`/`implements`): `callers` of an override counts calls of the methods it overrides."""

    # True: defining a class may already register it where code finds it by no name (a metaclass,
    # an ancestor's subclass hook): `unreferenced` asks `made_by` and `subclass_hook`.
    registers_on_definition: bool
    # The method an ancestor declares that runs for every subclass defined (`__init_subclass__`), or "".
    subclass_hook: str

    def written(self, text: str, cls: str) -> list[str] | None:
        """The supertypes `cls`'s header in `text` names (last part of a dotted name), in order;
        None when `text` declares no class `cls`."""
        ...

    def made_by(self, text: str, cls: str) -> str:
        """The metaclass `cls`'s header names when it is not known to be inert, else ""."""
        ...


class RunsUnimported(Protocol):
    """How a language's code runs, or is named, without any file importing it: what keeps
    `unreferenced` from calling it dead and `callers` from a confident "nothing". Plugins start from
    `graph.unimported.OnlyImported` (every answer "none") and say what their language adds."""

    # True: every symbol of an entry file runs with it (Java: the class holding `main`).
    entry_runs_whole_file: bool
    # True: what a file packaging metadata names as an entry point declares is the package's API
    # (False for Python: a script's unused functions are dead).
    declared_entry_is_api: bool
    # Top-level functions the runtime calls when their package loads (Go's `init`): never dead, and
    # their file runs when any file of its folder does.
    load_hooks: frozenset[str]
    # The file a package runs before any module beneath it (Python's `__init__.py`), or "".
    package_init: str
    # True: a type may be found by a framework scanning for its annotation (`@Component`).
    annotation_scanned: bool
    # Words without which a file has no loader by a computed name with a written folder: () when
    # the language has none (`loaded_folders` is never asked).
    loader_words: tuple[str, ...]
    # True: a file named as a module (`pkg.mod`, beyond its path) may have its attributes read by
    # the name too (Django's settings): its symbols go with it.
    modules_read_by_name: bool
    # Its test files, which a test runner loads by name: a regular expression searched in a
    # project path ("" for none beyond `tests/` folders), for `is_test_file`.
    test_files: str
    # Files of it a tool runs or reads by their name, never imported (`setup.py`, `package-info.java`),
    # as (path pattern, why), in the order asked: the first that matches a path says why. Every
    # language's list holds `unimported.TEST_DATA` and `unimported.PROGRAMS` where they rank.
    conventions: tuple[tuple[re.Pattern[str], str], ...]

    def entry_reason(self, path: str, text: str) -> str:
        """Why the text of `path` makes it an entry point (a `__main__` guard, `package main`), or ""."""
        ...

    def names_entry_points(self, config: str) -> bool:
        """Whether `config` (a project path) is packaging metadata this language reads entry points from."""
        ...

    def entry_points(self, config: str, text: str, own_files: set[str],
                     all_files: set[str]) -> tuple[dict[str, str], set[tuple[str, str]]]:
        """({file: why}, {(file, symbol)}) that `config` names as entry points. `own_files`: the
        project's files of this language."""
        ...

    def routed(self, all_files: set[str]) -> dict[str, str]:
        """{file: why} for files a framework loads by their path (Next.js `app/**/page.tsx`)."""
        ...

    def loading_sites(self, path: str, text: str) -> list[tuple[str, str | None]]:
        """(`path:line (what)`, the literal module name or None when computed) of every place
        `text` loads code at run time by a name the graph does not resolve."""
        ...

    def loaded_folders(self, path: str, text: str) -> list[tuple[str, str]]:
        """(`path:line (what)`, folder) of every loader whose computed name starts with a written folder."""
        ...

    def file_spellings(self, path: str, text: str | None) -> list[str]:
        """Regular expressions matching a written name of `path` in another file's text (for a
        language with `modules_read_by_name`, the first is its path and the others its module's)."""
        ...

    def symbol_spellings(self, path: str, name: str) -> list[str]:
        """Regular expressions matching symbol `name` written with its module (`pkg.mod:func`)."""
        ...

    def app_package_spelling(self, path: str) -> tuple[str, list[str]] | None:
        """For a module a framework imports from every app package named to it (Django's
        `admin.py`): (anchor word, spellings) of its package's name; else None."""
        ...

    def api(self, path: str, symbols: Sequence[Symbol]) -> list[Symbol]:
        """The top-level symbols the language makes API of an importable package (Go's exported
        names), used in the project or not."""
        ...

    def api_reason(self, name: str) -> str:
        """Why `name` (one of `api`'s) is not provably dead."""
        ...

    def does_something(self, text: str | None) -> bool:
        """Whether a `package_init` file does anything beyond comments and documentation."""
        ...


class LanguageSupport(Protocol):
    """One per language: the `SUPPORT` object of `graph/languages/<name>`, with its queries beside
    it. Everything the core needs to know about a language is declared here; the core never asks a
    language by name (see docs/code-graph.md, "How to add a language")."""

    name: str
    extensions: tuple[str, ...]
    # Part of the index's fingerprint: bump it whenever the facts a file gives change.
    version: str
    # True: `extract(path, source, members=False)` leaves out the member facts (`extra`), which
    # only member evidence reads, and the index builds them as its member tier
    # (`Indexer.complete_members`).
    defers_members: bool
    # True: the resolver's tables come from paths and config files alone, so an edit that changes
    # a file's imports or symbols does not outdate it.
    reusable_resolver: bool
    # True: the resolver types member uses itself, so a member symbol's file-level edges name only
    # the types its signatures mention, never its callers: `callers` counts member edges only.
    typed_members: bool
    # True: the resolver names the declaration behind every import, re-export and use (member
    # edges through barrels and default exports): `callers` counts member edges for every symbol.
    declaration_edges: bool
    # True: every file of a folder is one package (Go): a method may be declared in any of them,
    # while importers' edges point at the files that define the names.
    folder_packages: bool
    # How a build leaves files out, or None: `callers` sets apart callers another build compiles.
    builds: BuildVariants | None
    # The record of its member facts (`FileFacts.extra`), with a `from_json` classmethod; None
    # while the language still keeps them as a plain dict.
    member_facts: MemberFactsRecord | None
    # File-name globs of the config files its resolver reads (go.mod, tsconfig.*.json, Cargo.toml):
    # a change to one rebuilds the resolvers.
    config_files: tuple[str, ...]
    # The tree-sitter grammars its extractor parses with, ((grammar, "wheel_module:function"), ...):
    # `graph.treesitter` loads a grammar only from here.
    grammars: tuple[tuple[str, str], ...]
    # True: the resolver records an override as a member use `Sub.m>Base.m` (`OVERRIDES`):
    # `callers` of a member counts the callers of its whole family.
    override_families: bool
    # True: a file may reach another through its package's own name, which the file graph leaves
    # to an install (`import * as z from "zod/v4"` in zod's tests): `callers` counts files that use
    # the defining file's members as reaching it.
    self_package_imports: bool
    # True: an import binds the name in the importer, so a file that imports a name without using
    # it may pass it on (a Python `__init__.py`): `callers` names such files.
    imports_pass_on: bool
    # How its class headers name supertypes, or None (no inheritance, or recorded while indexing).
    supertypes: WrittenSupertypes | None
    # How its code runs, or is named, without an import (entry points, loaders by computed name).
    unimported: RunsUnimported

    def extract(self, path: str, source: bytes, members: bool = True) -> FileFacts: ...

    def runtime_caller(self, method: str, head: Callable[[], str]) -> str:
        """Why the language or its runtime may call `method` (a member's short name) without any file
        writing its name (`__add__`, an `@Override`, `String()` of `fmt.Stringer`), or "". `head()`:
        the text of its declaration's head (annotations, modifiers). Callers then say
        `undeterminable`, never `no_references`."""
        ...

    def resolver(self, project: ProjectView) -> Resolver: ...
