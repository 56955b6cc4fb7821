"""The supertype methods an override stands in for: a call through the supertype may run it.

`def go(b: Base): b.save()` is a proven call of `Base.save`, and it runs `Child.save` whenever `b`
is a `Child`. Nobody writes `Child.save`, so without this `callers` of the override answers a
confident `no_references`. A language server lists such calls under the override's family; here
the callers of every supertype method it overrides (classes it extends, interfaces it implements,
within the project, up to `_DEPTH` levels) become `by_name` candidates of the override, marked
`calls_base`. A language whose class headers name their supertypes says how
(`SUPPORT.supertypes`); one that records its families while indexing has `override_families`
(`callers`), and one without inheritance neither.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .facts import Symbol, WrittenSupertypes
from .languages import languages
from .snapshot import GraphSnapshot

Reader = Callable[[str], "str | None"]

_DEPTH = 4
_TYPE_KINDS = frozenset({"class", "interface", "enum", "record"})


def _written_supertypes(snap: GraphSnapshot, path: str) -> WrittenSupertypes | None:
    support = languages().get(snap.files[path].language)
    return support.supertypes if support is not None else None


def supertype_methods(snap: GraphSnapshot, found: list[tuple[str, Symbol]], read: Reader) -> list[tuple[str, Symbol]]:
    """(path, method) of every in-project supertype method that a found method overrides."""
    family: list[tuple[str, Symbol]] = []
    seen = {(p, s.name) for p, s in found}
    for path, symbol in found:
        supertypes = _written_supertypes(snap, path)
        if supertypes is None or symbol.name.count(".") != 1 or symbol.kind == "class":
            continue
        owner, method = symbol.name.split(".")
        frontier = [(path, owner)]
        for _ in range(_DEPTH):
            following = []
            for where, cls in frontier:
                for base_path, base in _bases(snap, where, cls, supertypes, read):
                    declared = next((s for s in snap.files[base_path].symbols() if s.name == f"{base}.{method}"), None)
                    if declared is not None and (base_path, declared.name) not in seen:
                        seen.add((base_path, declared.name))
                        family.append((base_path, declared))
                    following.append((base_path, base))
            frontier = following
            if not frontier:
                break
    return family


def registers_on_definition(snap: GraphSnapshot, path: str) -> bool:
    """Whether defining a class of `path`'s language may register it (see `registered_on_definition`)."""
    supertypes = _written_supertypes(snap, path)
    return supertypes is not None and supertypes.registers_on_definition


def registered_on_definition(snap: GraphSnapshot, path: str, cls: str, read: Reader) -> str:
    """Why defining the class `cls` (in `path`) may already put it where code finds it without
    writing its name: an in-project ancestor's subclass hook (`__init_subclass__`) runs for it, or
    its metaclass (its own or an ancestor's) is not known to be inert. "" when neither."""
    supertypes = _written_supertypes(snap, path)
    if supertypes is None:
        return ""
    frontier, seen = [(path, cls)], set()
    for _ in range(_DEPTH + 1):
        following = []
        for where, name in frontier:
            if (where, name) in seen:
                continue
            seen.add((where, name))
            text = read(where) or ""
            meta = supertypes.made_by(text, name)
            if meta:
                return f"made by the metaclass {meta}, which may register it when it is defined"
            hook = next((s for s in snap.files[where].symbols() if s.name == f"{name}.{supertypes.subclass_hook}"), None)
            if name != cls and hook is not None and _keeps_the_class(read(where) or "", hook):
                return f"{name}.{supertypes.subclass_hook} runs when it is defined and may register it"
            made = _computed_base(snap, where, supertypes.written(text, name) or [])
            if made:
                return f"its base {made} is made at run time (a class factory such as declarative_base()), which may register it"
            following += _bases(snap, where, name, supertypes, read)
        frontier = following
    return ""


def _keeps_the_class(text: str, hook: Symbol) -> bool:
    """Whether a subclass hook hands the class itself on (`registry[n] = cls`, `register(cls)`),
    rather than only setting its attributes (`cls.identifier = ...`)."""
    lines = text.splitlines()[hook.start_line - 1:hook.end_line]
    head = re.search(r"\(\s*(\w+)", lines[0]) if lines else None
    if head is None:
        return True  # unreadable: assume the worst
    return re.search(rf"(?<![\w.]){head.group(1)}\b(?!\s*\.)", "\n".join(lines[1:])) is not None


def _computed_base(snap: GraphSnapshot, path: str, bases: list[str]) -> str:
    """A base the class header names that the project binds as a variable, not a class
    (`Base = declarative_base()`): what it makes, and registers, is decided at run time."""
    imported = {e.target for e in snap.out_edges.get(path, ())} | {path}
    for name in bases:
        if name and any(p in imported and s.kind in ("variable", "constant") for p, s in snap.symbol_index.get(name, ())):
            return name
    return ""


def _bases(snap: GraphSnapshot, path: str, cls: str, supertypes: WrittenSupertypes, read: Reader
           ) -> list[tuple[str, str]]:
    """The in-project classes and interfaces that `cls` (declared in `path`) names as supertypes."""
    names = supertypes.written(read(path) or "", cls) or []
    found = []
    imported = {e.target for e in snap.out_edges.get(path, ())}
    for name in filter(None, names):
        places = [(p, s) for p, s in snap.symbol_index.get(name, ()) if s.kind in _TYPE_KINDS]
        # The supertype the file can see: its own, one it imports, its package's, else the only one.
        folder = path.rpartition("/")[0]
        chosen = ([p for p, _ in places if p == path] or [p for p, _ in places if p in imported]
                  or [p for p, _ in places if p.rpartition("/")[0] == folder]  # a Java package
                  or ([places[0][0]] if len(places) == 1 else []))
        found += [(p, name) for p in chosen[:1]]
    return found


__all__ = ["registered_on_definition", "registers_on_definition", "supertype_methods"]
