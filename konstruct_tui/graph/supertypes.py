"""The supertype methods an override stands in for: a call through the supertype may run it.

`def go(b: Base): b.save()` is a proven call of `Base.save`, and it runs `Child.save` whenever `b`
is a `Child`. Nobody writes `Child.save`, so without this `callers` of the override answers a
confident `no_references`. A language server lists such calls under the override's family; here
the callers of every supertype method it overrides (classes it extends, interfaces it implements,
within the project, up to `_DEPTH` levels) become `by_name` candidates of the override, marked
`calls_base`. TypeScript records its families while indexing (`callers._overridden`); Python and
Java read the class's written supertypes here. Go has no inheritance (interfaces are structural).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .facts import Symbol
from .snapshot import GraphSnapshot

Reader = Callable[[str], "str | None"]

_DEPTH = 4
_PYTHON_CLASS = re.compile(r"^\s*class\s+(?P<name>\w+)\s*\((?P<bases>[^)]*)\)\s*:", re.MULTILINE)
_JAVA_CLASS = re.compile(r"\b(?:class|interface|enum|record)\s+(?P<name>\w+)\b[^{;]*?"
                         r"(?:\bextends\s+(?P<extends>[\w.<>,\s?]+?))?"
                         r"(?:\bimplements\s+(?P<implements>[\w.<>,\s?]+?))?\s*\{")
_TYPE_KINDS = frozenset({"class", "interface", "enum", "record"})


def supertype_methods(snap: GraphSnapshot, found: list[tuple[str, Symbol]], read: Reader) -> list[tuple[str, Symbol]]:
    """(path, method) of every in-project supertype method that a found method overrides."""
    family: list[tuple[str, Symbol]] = []
    seen = {(p, s.name) for p, s in found}
    for path, symbol in found:
        language = snap.files[path].language
        if language not in ("python", "java") or symbol.name.count(".") != 1 or symbol.kind == "class":
            continue
        owner, method = symbol.name.split(".")
        frontier = [(path, owner)]
        for _ in range(_DEPTH):
            following = []
            for where, cls in frontier:
                for base_path, base in _bases(snap, where, cls, language, read):
                    declared = next((s for s in snap.files[base_path].symbols() if s.name == f"{base}.{method}"), None)
                    if declared is not None and (base_path, declared.name) not in seen:
                        seen.add((base_path, declared.name))
                        family.append((base_path, declared))
                    following.append((base_path, base))
            frontier = following
            if not frontier:
                break
    return family


# Metaclasses that make a class without keeping it anywhere: every other one may register the
# classes it makes (`registry[name] = cls` in `__new__`), as Django's models and plugin systems do.
_INERT_METACLASSES = frozenset({"type", "ABCMeta", "EnumMeta", "EnumType", "_ProtocolMeta"})
_METACLASS = re.compile(r"\bmetaclass\s*=\s*([\w.]+)")


def registered_on_definition(snap: GraphSnapshot, path: str, cls: str, read: Reader) -> str:
    """Why defining the Python class `cls` (in `path`) may already put it where code finds it
    without writing its name: an in-project ancestor's `__init_subclass__` runs for it, or its
    metaclass (its own or an ancestor's) is not known to be inert. "" when neither."""
    frontier, seen = [(path, cls)], set()
    for _ in range(_DEPTH + 1):
        following = []
        for where, name in frontier:
            if (where, name) in seen:
                continue
            seen.add((where, name))
            header = next((m.group("bases") for m in _PYTHON_CLASS.finditer(read(where) or "")
                           if m.group("name") == name), "")
            meta = _METACLASS.search(header)
            if meta and meta.group(1).rsplit(".", 1)[-1] not in _INERT_METACLASSES:
                return f"made by the metaclass {meta.group(1)}, which may register it when it is defined"
            hook = next((s for s in snap.files[where].symbols() if s.name == f"{name}.__init_subclass__"), None)
            if name != cls and hook is not None and _keeps_the_class(read(where) or "", hook):
                return f"{name}.__init_subclass__ runs when it is defined and may register it"
            made = _computed_base(snap, where, header)
            if made:
                return f"its base {made} is made at run time (a class factory such as declarative_base()), which may register it"
            following += _bases(snap, where, name, "python", read)
        frontier = following
    return ""


def _keeps_the_class(text: str, hook: Symbol) -> bool:
    """Whether an `__init_subclass__` hands the class itself on (`registry[n] = cls`,
    `register(cls)`), rather than only setting its attributes (`cls.identifier = ...`)."""
    lines = text.splitlines()[hook.start_line - 1:hook.end_line]
    head = re.search(r"\(\s*(\w+)", lines[0]) if lines else None
    if head is None:
        return True  # unreadable: assume the worst
    return re.search(rf"(?<![\w.]){head.group(1)}\b(?!\s*\.)", "\n".join(lines[1:])) is not None


def _computed_base(snap: GraphSnapshot, path: str, header: str) -> str:
    """A base the class header names that the project binds as a variable, not a class
    (`Base = declarative_base()`): what it makes, and registers, is decided at run time."""
    imported = {e.target for e in snap.out_edges.get(path, ())} | {path}
    for written in header.split(","):
        name = written.strip().rsplit(".", 1)[-1]
        if name and "=" not in written and any(
                p in imported and s.kind in ("variable", "constant") for p, s in snap.symbol_index.get(name, ())):
            return name
    return ""


def _bases(snap: GraphSnapshot, path: str, cls: str, language: str | None, read: Reader) -> list[tuple[str, str]]:
    """The in-project classes and interfaces that `cls` (declared in `path`) names as supertypes."""
    text = read(path) or ""
    names: list[str] = []
    if language == "python":
        for match in _PYTHON_CLASS.finditer(text):
            if match.group("name") == cls:
                names = [b.strip().rsplit(".", 1)[-1] for b in match.group("bases").split(",") if "=" not in b]
                break
    else:
        for match in _JAVA_CLASS.finditer(text):
            if match.group("name") == cls:
                written = f"{match.group('extends') or ''},{match.group('implements') or ''}"
                names = [re.sub(r"<.*", "", n).strip().rsplit(".", 1)[-1] for n in written.split(",")]
                break
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


__all__ = ["registered_on_definition", "supertype_methods"]
