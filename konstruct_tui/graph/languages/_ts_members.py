"""TypeScript / JavaScript member uses: the facts extraction keeps, and their resolution.

Extraction keeps the types the source writes for names (`const c: Ky`, `const c = new Ky()`, a
typed parameter, a class field as `this.x`) and the members used on receivers that no name can
type (`a.b().m`, `xs[0].m`). Resolution (`member_edges`) then follows each `x.m` use: `x` an
imported binding (a namespace `ns.f`, a class `T.m`) followed through barrels to the defining file,
or a name typed as a class that is imported or declared; an untyped `x` (not a binding, not a
declaration of the file, not a well-known global) leaves `m` as by-name evidence.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from .. import treesitter as ts

_TYPE_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
# Globals of every JavaScript runtime: their members are never the project's.
GLOBALS = frozenset({
    "console", "JSON", "Math", "Object", "Array", "Promise", "Reflect", "Symbol", "Number", "String", "Boolean",
    "Date", "RegExp", "Error", "Map", "Set", "WeakMap", "WeakSet", "Intl", "process", "window", "document",
    "globalThis", "navigator", "Buffer", "module", "exports", "require", "this", "super", "import", "Atomics",
    "BigInt", "Proxy", "URL", "URLSearchParams", "crypto", "performance", "location", "history",
})


def member_facts(found: dict[str, list[Any]]) -> dict[str, Any]:
    types: dict[str, set[str]] = defaultdict(set)
    for node in found.get("typed", ()):
        name = node.child_by_field_name("name") or node.child_by_field_name("pattern")
        if name is None:
            continue
        key = ("this." if node.type == "public_field_definition" else "") + ts.text(name)
        annotation = node.child_by_field_name("type")
        value = node.child_by_field_name("value")
        written = None
        if annotation is not None and annotation.named_child_count:
            written = ts.text(annotation.named_children[0]).split("<", 1)[0].strip()
        elif value is not None and value.type == "new_expression":
            constructor = value.child_by_field_name("constructor")
            written = ts.text(constructor) if constructor is not None else None
        if written and _TYPE_NAME.fullmatch(written):
            types[key].add(written)
    untyped = {ts.text(n) for n in found.get("untyped", ())}
    # `this.field.member`: typed through the class field's declared type (`this.field` in types)
    fields = {f"this.{ts.text(n.parent.child_by_field_name('property'))}.{ts.text(n.parent.parent.child_by_field_name('property'))}"
              for n in found.get("field", ()) if n.parent is not None and n.parent.parent is not None}
    extra: dict[str, Any] = {}
    if fields:
        extra["fields"] = sorted(fields)
    if types:
        extra["types"] = {k: sorted(v) for k, v in sorted(types.items())}
    if untyped:
        extra["untyped"] = sorted(untyped)
    return extra


def member_edges(
    facts: Any,
    uses: set[str],
    targets: dict[int, str],
    definer: Callable[[str, str], tuple[str, str] | None],
    symbols_of: Callable[[str], frozenset[str]],
) -> tuple[dict[str, set[str]], set[str]]:
    """({defining file: {member names}}, {member names used on untyped receivers})."""
    used: dict[str, set[str]] = defaultdict(set)
    unknown: set[str] = set(facts.extra.get("untyped", ()))
    bound: dict[str, tuple[str, str]] = {}  # local -> (target file, imported name or "*")
    for local, index, imported in facts.extra.get("bindings", ()):
        if index in targets:
            bound[local] = (targets[index], imported)
        else:
            bound[local] = ("", imported)  # a package: external
    own = symbols_of(facts.path)
    types: dict[str, list[str]] = facts.extra.get("types", {})

    def class_of(written: str) -> tuple[str, str] | None:
        head, _, rest = written.partition(".")
        if head in bound:
            target, imported = bound[head]
            if not target:
                return None
            if imported == "*":
                return definer(target, rest) if rest else None
            return definer(target, imported) if not rest else None
        return (facts.path, written) if written in own else None

    def member_of(where: tuple[str, str] | None, member: str) -> None:
        if where is not None and f"{where[1]}.{member}" in symbols_of(where[0]):
            used[where[0]].add(f"{where[1]}.{member}")
        elif where is not None:
            unknown.add(member)  # inherited from a base class (`extends`), or a field: by name

    for local, (target, imported) in bound.items():
        if target and imported != "*" and local in uses:
            found = definer(target, imported)
            if found is not None:
                used[found[0]].add(found[1])
    for use in facts.extra.get("fields", ()):
        _, field, member = use.split(".", 2)
        classes = {class_of(w) for w in types.get(f"this.{field}", ())}
        if len(classes) == 1 and None not in classes:
            member_of(classes.pop(), member)
    for use in uses:
        head, dot, member = use.partition(".")
        if not dot:
            continue
        if head in bound:
            target, imported = bound[head]
            if not target:
                continue
            if imported == "*":
                found = definer(target, member)
                if found is not None:
                    used[found[0]].add(found[1])
            else:
                member_of(definer(target, imported), member)  # a static member: `T.m()`
        elif head in types:
            classes = {class_of(w) for w in types[head]}
            if len(classes) == 1 and None not in classes:
                member_of(classes.pop(), member)
            elif len(classes) > 1 and any(classes):
                unknown.add(member)  # typed as several project classes: whose member stays open
        elif head in own:
            member_of((facts.path, head), member)
        elif head not in GLOBALS:
            unknown.add(member)
    used.pop(facts.path, None)
    return used, unknown
