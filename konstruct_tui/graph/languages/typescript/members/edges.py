"""TypeScript / JavaScript member uses: resolution of each `x.m` / `chain.m` to the declaring file.

Extraction (`members/types.py`) keeps the types the source writes and the receiver chains of member
uses. Resolution (`member_edges`) follows each use with `Receivers`: `x` an imported binding (a
namespace `ns.f`, a class `T.m`, a module-level instance) followed through barrels and default
exports to the defining file, a name typed by its declaration, or a chain (`this.x`, `f().g()`,
`new T()`) typed step by step. A member found on a class, or inherited from one of its bases,
is a resolved use of that declaration (and of the same member further up, which an override
overrides). An untyped receiver (not a binding, not a typed name, not a well-known global) leaves
the member name as by-name evidence.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ....facts import OVERRIDES, FileFacts
from ..facts import CALL, Chain, Segment, Step, member_step, members_of
from .receivers import UNION, Receivers
from .written import SHAPE

# Globals of every JavaScript runtime: their members are never the project's.
GLOBALS = frozenset({
    "console", "JSON", "Math", "Object", "Array", "Promise", "Reflect", "Symbol", "Number", "String", "Boolean",
    "Date", "RegExp", "Error", "Map", "Set", "WeakMap", "WeakSet", "Intl", "process", "window", "document",
    "globalThis", "navigator", "Buffer", "module", "exports", "require", "this", "super", "import", "Atomics",
    "BigInt", "Proxy", "URL", "URLSearchParams", "crypto", "performance", "location", "history",
})


def member_edges(facts: FileFacts, uses: set[str], receivers: Receivers
                 ) -> tuple[dict[str, set[str]], set[str]]:
    """({defining file: {member names}}, {member names used on untyped receivers})."""
    extra = members_of(facts)
    used: dict[str, set[str]] = defaultdict(set)
    unknown: set[str] = set(extra.untyped)
    path = facts.path
    bound = receivers.bound(path)
    # An import or re-export specifier names its declaration (`export {a as b} from './x'` too),
    # used or not: renaming the declaration changes that line, and find-references lists it.
    named = [(target, imported) for target, imported in bound.values()]
    named += [(receivers.target_of(facts, e.source) or "", e.name) for e in extra.exports
              if e.source >= 0 and e.name != "*"]
    for target, imported in named:
        if target and imported != "*":
            found = receivers.definer(target, imported)
            if found is not None:
                used[found[0]].add(found[1])
    evaluated: dict[tuple[Segment, ...], tuple[Any, bool]] = {}
    for use in extra.member_uses:
        segments = use.receiver
        if len(segments) == 1 and segments[0] in GLOBALS:
            continue
        value = _evaluated(receivers, path, segments, evaluated)
        for key in use.keys:  # an object literal's keys name the declared properties
            holder = receivers.contexts.holder(value, key) if value is not None else None
            declared = receivers.declarations.declaring(holder[1:3], key, props=True) if holder is not None else []
            for where_, qualified in declared:
                used[where_].add(qualified)
            if not declared:
                unknown.add(key)
        for member in use.members:
            if value is None:
                if len(segments) > 1 or not _external(bound, segments[0]):
                    unknown.add(member)
                continue
            kind, where, name = value[:3]
            if kind == "ns":
                found = receivers.definer(where, member) if receivers.declarations.namespace(where, member) is None else None
                if found is not None:
                    used[found[0]].add(found[1])
                elif receivers.declarations.namespace(where, member) is None:
                    unknown.add(member)  # not found where it should be: evidence by name, never a silent nothing
            elif kind in ("instance", "static", UNION):
                # a union's member (`[sio, nio]`, `a ?? b`) is a use of each part's, when each has one
                parts = value[2] if kind == UNION else (value,)
                answers = [_declared(receivers, part, member) for part in parts]
                if all(declared for declared, _ in answers):
                    for declared, _ in answers:
                        for where_, qualified in declared:
                            if not qualified.startswith(SHAPE):  # an inline object type's member: no declaration to name
                                used[where_].add(qualified)
                if any(open_ for _, open_ in answers) or not all(declared for declared, _ in answers):
                    unknown.add(member)  # an interface may be implemented by any class; a miss is no proof
            elif kind == "object":  # an object literal's key: declared there when the literal is a module's constant
                literal_member = f"{value[3]}.{member}" if len(value) > 3 else None
                if literal_member is not None and literal_member in receivers.kinds(where):
                    used[where].add(literal_member)
                else:
                    unknown.add(member)
            elif kind in ("array", "array-call", "record", "map", "map-call"):
                continue  # a member of a runtime array (`xs.length`, `xs.push`): never the project's
            elif len(segments) > 1:
                unknown.add(member)
    for link in extra.doclinks:  # `{@link Server.fetchSockets()}`
        linked = link.members
        value = receivers.evaluate(path, [link.head, *(member_step(m) for m in linked[:-1])])
        if value is not None and value[0] in ("instance", "static"):
            for where_, qualified in receivers.declarations.declaring(value[1:3], linked[-1])[:1]:
                used[where_].add(qualified)  # a link that names nothing is no evidence either way
    for local in extra.local_classes:  # a class in a function implementing a base's members
        names = local.members
        for written in local.bases:
            base = receivers.written(path, written)
            if base is None or base[0] != "instance":
                continue
            for member in names:
                for where_, overridden in receivers.declarations.declaring((base[1], base[2]), member, props=True):
                    if where_ != path:
                        used[where_].add(overridden)
    fields = {*extra.returns, *extra.props, *extra.fields}
    owners = {qualified.rpartition(".")[0] for qualified in fields}
    objects = set(extra.objects)
    own: set[str] = set()  # overrides of a member declared in this same file: a self edge of markers only
    bases = extra.bases
    members: dict[str, list[tuple[str, str]]] = defaultdict(list)  # owner -> (symbol, member): read once
    for symbol in facts.symbols if bases else ():
        declared_in, dot, member = symbol.name.rpartition(".")
        if dot and declared_in in bases:
            members[declared_in].append((symbol.name, member))
    for owner in bases:
        if owner in objects:
            continue  # the parts of an intersection (`type R = JSXNode & {type: T}`) override nothing
        for name, member in members.get(owner, ()):
            for where, overridden in receivers.declarations.declaring((path, owner), member, props=True)[1:]:
                if where != path:
                    used[where].update((overridden, f"{name}{OVERRIDES}{overridden}"))
                else:  # `class Cookie implements ElysiaCookie` beside `interface CookieOptions`: the family only
                    own.add(f"{name}{OVERRIDES}{overridden}")
        # a field implementing a base's member (`match: MatchFn = match`) is a reference of it too
        for qualified in fields if owner in owners else ():
            declared_in, _, member = qualified.rpartition(".")
            if declared_in == owner and qualified not in receivers.kinds(path):
                for where, overridden in receivers.declarations.declaring((path, owner), member, props=True)[1:]:
                    if where != path:
                        used[where].add(overridden)
    used.pop(path, None)
    if own:
        used[path] = own
    return used, unknown


def _evaluated(receivers: Receivers, path: str, segments: Chain, memo: dict[tuple[Segment, ...], Any]) -> Any:
    """What a chain of `path` stands for, read once per file without the keys its calls give
    (`get('a').x`, `get('b').y`): they matter only where a callable returning `M[K]` reads them."""
    plain = tuple(CALL if type(segment) is Step and segment.kind == "call" else segment for segment in segments)
    found = memo.get(plain)
    if found is None:
        before = receivers.keyed_calls
        found = memo[plain] = (receivers.evaluate(path, list(plain)), receivers.keyed_calls != before)
    return receivers.evaluate(path, segments) if found[1] else found[0]


def _declared(receivers: Receivers, value: Any, member: str) -> tuple[list[tuple[str, str]], bool]:
    """(declarations `member` of an instance or class `value` names, whether the use stays open
    to by-name evidence too)."""
    kind, where, name = value[:3]
    declared = receivers.declarations.declaring((where, name), member)
    interface = receivers.kinds(where).get(name) != "class"
    typed = bool(declared)
    if not declared and interface:
        # a property an interface declares (`readonly path: string`): a use of it, and of
        # the class members implementing it; still by-name, as any object may provide it
        declared = receivers.declarations.declaring((where, name), member, props=True)
    # an inline object type's member is implemented by whatever literal is given for it
    inline = bool(declared) and all(q.startswith(SHAPE) for _, q in declared)
    return declared, (kind == "instance" and interface and not typed) or inline


def _external(bound: dict[str, tuple[str, str]], head: Segment) -> bool:
    """A binding of a package (not a project file): its members are never the project's."""
    found = bound.get(head) if type(head) is str else None
    return found is not None and not found[0]
