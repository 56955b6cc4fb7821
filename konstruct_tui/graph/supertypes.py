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


__all__ = ["supertype_methods"]
