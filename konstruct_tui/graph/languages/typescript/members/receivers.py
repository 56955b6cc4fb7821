"""Types of TypeScript receivers, from what the source writes (facts from `members/types.py`).

A receiver chain (`string().min(1)`, `this.options`, `new Ky().get`) is followed segment by segment
through the project's files: a name is an imported binding (followed through barrels and default
exports to the defining file), a local or parameter with a written type or assigned from a chain,
or a declaration of the file; `.name` is a namespace member, a static member, or an instance
member (declared on the class or inherited from the classes and interfaces it extends); `()` is the
return type of the function or method called, written (`: T`, `: this`) or, for an unannotated one,
what every `return` gives. Anything else (no written type, a union, an array) ends the chain: the
member used on it is then by-name evidence, never a guess.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from ....facts import FileFacts
from ..facts import CALL, Head, Segment, Step, TypeScriptMemberFacts, member_step, members_of
from .contexts import Contexts
from .declarations import Declarations
from .keyed import key_of, keyed_value
from .written import LIB_TYPES, MAP, SHAPE, TYPEOF

# A value during evaluation: ("instance", path, Class), ("static", path, Class), ("ns", path, ""),
# ("function", path, name), ("member", path, "Class.member") with the receiver class kept for `this`,
# ("returns", path, T) a local function whose written return type is T.
Value = tuple[Any, ...]
_CLASS_KINDS = frozenset({"class", "interface"})
_RANK = {"class": 3, "interface": 2, "type": 1}
_SAME_ARRAY = frozenset({"filter", "slice", "concat", "reverse", "sort", "toSorted", "toReversed", "values"})
_ELEMENT = frozenset({"find", "findLast", "at", "pop", "shift"})
_DEPTH = 4  # nested evaluations (a return chain evaluated inside another), and base-class levels


class Receivers:
    def __init__(
        self,
        facts_of: Callable[[str], FileFacts | None],
        target_of: Callable[[Any, int], str | None],
        definer: Callable[[str, str], tuple[str, str] | None],
    ) -> None:
        self.facts_of = facts_of
        self.target_of = target_of
        self.definer = definer
        self._kinds: dict[str, dict[str, str]] = {}
        self._values: dict[str, frozenset[str]] = {}
        self._intersections: dict[tuple[str, str], bool] = {}
        self._bound: dict[str, dict[str, tuple[str, str]]] = {}
        self._aliasing: set[tuple[str, str]] = set()  # aliases being followed (`type A = B; type B = A`)
        self.contexts = Contexts(self)
        self.declarations = Declarations(self)
        self._parameters: dict[tuple[str, Head], Value | None] = {}
        self.keyed_calls = 0  # calls of a callable returning `M[K]` met so far (`members/edges._evaluated`)

    # --- per-file views ------------------------------------------------------------------------

    def kinds(self, path: str) -> dict[str, str]:
        found = self._kinds.get(path)
        if found is None:
            facts = self.facts_of(path)
            found = {}
            for s in facts.symbols if facts is not None else ():
                # A class merged with an interface of the same name stays a class; a constant
                # and an interface of one name (`const T = make(); interface T`) are a type.
                if _RANK.get(s.kind, 0) >= _RANK.get(found.get(s.name, ""), 0):
                    found[s.name] = s.kind
            self._kinds[path] = found
        return found

    def values(self, path: str) -> frozenset[str]:
        """The module-level constants and variables of `path` (a name may be a type too)."""
        found = self._values.get(path)
        if found is None:
            facts = self.facts_of(path)
            found = frozenset(s.name for s in facts.symbols if s.kind in ("variable", "constant")) \
                if facts is not None else frozenset()
            self._values[path] = found
        return found

    def bound(self, path: str) -> dict[str, tuple[str, str]]:
        """local -> (target file or "" for a package, imported name or "*")."""
        found = self._bound.get(path)
        if found is None:
            facts = self.facts_of(path)
            found = {}
            for binding in members_of(facts).bindings:
                found[binding.local] = (self.target_of(facts, binding.source) or "", binding.imported)
            self._bound[path] = found
        return found

    def members(self, path: str) -> TypeScriptMemberFacts:
        """The facts `path` states beyond its symbols and imports (EMPTY for a file not indexed)."""
        return members_of(self.facts_of(path))

    # --- names ---------------------------------------------------------------------------------

    def named(self, path: str, name: str, depth: int = 0, value: bool = True) -> Value | None:
        """What a bare name of `path` denotes: an import, a declaration of the file, a typed local
        (`value`: the name is read as a value, not written as a type)."""
        bound = self.bound(path).get(name)
        if bound is not None:
            target, imported = bound
            if not target:
                return None
            if imported == "*":
                return ("ns", target, "")
            namespace = self.declarations.namespace(target, imported)  # `import {z} from 'zod'`, z an `import * as z` it exports
            if namespace is not None:
                return ("ns", namespace, "")
            found = self.definer(target, imported)
            return self._declared(*found, depth, value) if found is not None else None
        if name in self.kinds(path):
            return self._declared(path, name, depth, value)
        return self.local(path, name, depth)

    def _declared(self, path: str, name: str, depth: int, read: bool = False) -> Value | None:
        kind = self.kinds(path).get(name)
        if kind is None and name == "default" and depth < _DEPTH:  # `export default new Logger()`
            exported = self.members(path).default_value
            return self.evaluate(path, exported, depth + 1) if exported else None
        if read and kind in ("interface", "type") and name in self.values(path):
            # `const T: Maker<T> = make(); interface T {...}`: read as a value, `T` is the constant
            found = self.local(path, name, depth)
            if found is not None:
                return found
        if kind in _CLASS_KINDS:
            return ("static", path, name)
        if kind in ("function", "method"):
            return ("function", path, name)
        if kind in ("variable", "constant"):  # a module-level instance: `export const api = new Api()`
            found = self.local(path, name, depth)
            if found is not None and found[0] == "object" and found[1] == path:
                return (*found[:3], name)  # `export const o = {m() {...}}`: `o.m` is declared here
            return found
        if kind == "type" and name in self.members(path).objects:  # `type A = {...} & B`
            return ("static", path, name) if self._intersectable(path, name, 0) else None
        if kind == "type" and (path, name) not in self._aliasing:  # `type A = B`: what B is
            written = self.members(path).aliases.get(name)
            self._aliasing.add((path, name))
            try:
                value = self.written(path, written) if written else None
            finally:
                self._aliasing.discard((path, name))
            if value is None and self.contexts.alias_owners(path, name):
                return ("static", path, name)  # `type Strict = Except<Options, 'kind'>`: what the utility keeps
            if value is None or value[0] != "instance":
                return None
            body = self.members(path).callsigs.get(name)
            if body is not None and len(body) > 2 and self.kinds(value[1]).get(value[2]) == "type":
                return None  # `Prettify<CookieOptions>`: what the generic alias makes of its arguments (`alias_owners`)
            return ("static", value[1], value[2])
        return None

    def _intersectable(self, path: str, name: str, depth: int) -> bool:
        """Whether every part of object type alias `name` is a type tsc reads without an install:
        an intersection with a type it cannot resolve (`IncomingMessage & {...}`, `node:http`
        not installed) is `any` as a whole, and none of its members is then anyone's."""
        key = (path, name)
        if key not in self._intersections:
            self._intersections[key] = False  # a cycle of aliases resolves to nothing
            self._intersections[key] = depth < _DEPTH and all(
                self._readable(path, written, depth) for written in self.members(path).bases.get(name, ()))
        return self._intersections[key]

    def _readable(self, path: str, written: str, depth: int) -> bool:
        head = written.partition(".")[0]
        bound = self.bound(path).get(head)
        if bound is None and head not in self.kinds(path):
            return head in LIB_TYPES  # a global: only the standard library is there without an install
        if bound is not None and "." in written:
            return bool(bound[0])  # `ns.T` of a project module (not followed further)
        found = self.definer(*bound) if bound is not None and bound[0] and bound[1] != "*" else \
            ((path, head) if bound is None else None)
        if found is None:
            return False  # a package's type (`node:http`): unresolved without an install
        where, declared = found
        extra = self.members(where)
        if declared in extra.objects:
            return self._intersectable(where, declared, depth + 1)
        alias = extra.aliases.get(declared)
        # `type P = typeof plugins`: what the value is, read where it is used (as before such aliases were read)
        return self._readable(where, alias, depth + 1) if alias and not alias.startswith(TYPEOF) and depth < _DEPTH \
            else True

    def local(self, path: str, name: str, depth: int = 0) -> Value | None:
        extra = self.members(path)
        found = {self.written(path, w) for w in extra.types.get(name, ())}
        if depth < _DEPTH:
            found |= {self.evaluate(path, c, depth + 1) for c in extra.assigned.get(name, ())}
        return found.pop() if len(found) == 1 else None

    def written(self, path: str, written: str) -> Value | None:
        """An instance of the type written in `path` (`T`, `ns.T`; `T[]` an array of them), or what
        the value is for `typeof x` (a namespace, a class itself, an instance)."""
        if written.startswith(SHAPE):  # an inline object type of this file (an intersection: `any` if a part is)
            return ("instance", path, written) if self._intersectable(path, written, 0) else None
        if written.startswith(TYPEOF):
            first, *more = written[len(TYPEOF):].split(".")
            return self.evaluate(path, [first, *(member_step(m) for m in more)], _DEPTH - 1)
        if written.endswith("[]"):
            element = self.written(path, written[:-2])
            return ("array", element[1], element[2]) if element is not None else None
        if written.endswith(MAP):  # `Map<K, T>`: `.get(k)` is a T, `.values()` iterates Ts
            element = self.written(path, written[:-len(MAP)])
            return ("map", element[1], element[2]) if element is not None else None
        if written.endswith("{}"):  # `Record<string, T>`: `.key` is a T
            element = self.written(path, written[:-2])
            return ("record", element[1], element[2]) if element is not None else None
        head, _, rest = written.partition(".")
        value = self.named(path, head, _DEPTH, value=False)
        if value is not None and rest:
            for part in rest.split("."):
                value = self._member(value, part, called=False, depth=_DEPTH, read=False) if value[0] == "ns" else None
                if value is None:
                    return None
        if value is None or value[0] != "static":
            return None
        return ("instance", value[1], value[2])

    # --- chains --------------------------------------------------------------------------------

    def evaluate(self, path: str, segments: Sequence[Segment], depth: int = 0, this: Value | None = None) -> Value | None:
        head = segments[0]
        if isinstance(head, str):
            value = self.named(path, head, depth)
        else:  # (a chain starts with a name or a `Head`, never a `Step`)
            value = self._head(path, head, depth, this) if isinstance(head, Head) else None
        return self._walk(value, cast("Sequence[Step]", segments[1:]), depth, path)  # after the head: steps

    def _head(self, path: str, head: Head, depth: int, this: Value | None) -> Value | None:
        """What a chain's `Head` (no name) stands for in `path`."""
        kind = head.kind
        if kind == "this":
            return this or (("instance", path, head.name) if self.kinds(path).get(head.name) == "class" else None)
        if kind == "super":
            parents = [self.written(path, w) for w in self.members(path).bases.get(head.name, ())]
            return next((p for p in parents if p is not None and self.kinds(p[1]).get(p[2]) == "class"), None)
        if kind == "either":  # `a ?? b`: one type, or a union of both (each side's member)
            return union(self.evaluate(path, side, depth + 1, this) for side in head.parts)
        if kind == "array":  # `[a, b]`: an array of what the elements are (a union if they differ)
            element = union(self.evaluate(path, item, depth + 1, this) for item in head.parts)
            return ("array", *element[1:]) if element is not None and element[0] in ("instance", UNION) else None
        if kind == "ctx":  # a callback parameter typed by the callee's signature
            key = (path, head)
            if key not in self._parameters:
                self._parameters[key] = None  # a callback typed by itself resolves to nothing
                self._parameters[key] = self.contexts.parameter(path, head, depth) if depth < _DEPTH else None
            return self._parameters[key]
        if kind == "object":  # an object literal: `.key` is what the key was given
            return ("object", path, head)
        if kind in ("new", "cast"):
            return self.written(path, head.name)
        if kind == "returns":  # a local function with a written return type: called, a T
            return ("returns", path, head.name)
        return None

    def _walk(self, value: Value | None, rest: Sequence[Step], depth: int, path: str = "") -> Value | None:
        """`value` followed along the steps `rest` written in `path` (each part of a union on its own)."""
        for at, step in enumerate(rest):
            if value is None:
                return None
            if value[0] == UNION:
                return union(self._walk(part, rest[at:], depth, path) for part in value[2])
            kind = step.kind
            if kind == "member" and step.name == "prototype" and value[0] == "static":  # `Schema.prototype.clone`: an instance's member
                value = ("instance", value[1], value[2])
            elif kind == "new":
                value = ("instance", value[1], value[2]) if value[0] == "static" else None
            elif kind == "element":
                value = (_element(value[1]), value[1], value[2]) if value[0] == "array" else None
            elif value[0] == "record":
                value = ("instance", value[1], value[2]) if kind == "member" else None
            elif value[0] == "array":  # `xs.filter(...)` is the same array, `xs.find(...)` an element
                called = at + 1 < len(rest) and rest[at + 1].kind == "call"
                value = ("array-call", value[1], value[2], step.name) if called else None
            elif value[0] == "map":  # `m.get(k)` a value, `m.values()` values (`m.size`: the runtime's)
                called = at + 1 < len(rest) and rest[at + 1].kind == "call"
                value = ("map-call", value[1], value[2], step.name) if called else None
            elif value[0] == "array-call":
                member = value[3]
                value = (("array" if member in _SAME_ARRAY else _element(value[1]), value[1], value[2])
                         if kind == "call" and member in _SAME_ARRAY | _ELEMENT else None)
            elif value[0] == "map-call":
                member = value[3]
                value = (("array" if member == "values" else _element(value[1]), value[1], value[2])
                         if kind == "call" and member in ("get", "values") else None)
            elif kind == "call":  # the keys its arguments give type a call of `M[K]` (`members/keyed.py`)
                value = self._called(value, depth, (path, step))
            else:
                called = at + 1 < len(rest) and rest[at + 1].kind == "call"
                value = self._member(value, step.name, called, depth)
        return value

    def _called(self, value: Value, depth: int, call: tuple[str, Step] = ("", CALL)) -> Value | None:
        """What calling `value` gives; `call` is (the file, the call step) the keys are read from."""
        kind, path, name = value[:3]
        if kind == "returns":
            return self.written(path, name)
        if kind not in ("function", "member") or depth >= _DEPTH:
            return None
        receiver = value[3] if len(value) > 3 else None
        extra = self.members(path)
        keyed = extra.keyed.get(name)
        if keyed is not None:  # `getPlugin(PluginPatches)`: a `Plugins["Patches"]`
            self.keyed_calls += 1
            given = call[1].keys
            return keyed_value(self, path, keyed, [key_of(self, call[0], g) for g in given], depth + 1)
        written = extra.returns.get(name)
        if written == "this":
            return receiver or ("instance", path, name.rpartition(".")[0])
        if written:
            return self.written(path, written)
        returned = extra.returned.get(name)
        if returned is not None:
            first = returned[0]
            this = receiver if isinstance(first, Head) and first.kind == "this" else None
            return self.evaluate(path, returned, depth + 1, this)
        return None

    def member(self, value: Value, member: str, depth: int) -> Value | None:
        """What property `member` of an instance or class `value` is, read (`M["key"]`)."""
        return self._member(value, member, False, depth) if depth < _DEPTH else None

    def _member(self, value: Value, member: str, called: bool, depth: int, read: bool = True) -> Value | None:
        kind, path, name = value[:3]
        if kind == "object":
            given = next((chain for key, chain in name.keys if key == member), None)
            return self.evaluate(path, given, depth + 1) if given is not None and depth < _DEPTH else None
        if kind == "ns":
            namespace = self.declarations.namespace(path, member)
            if namespace is not None:
                return ("ns", namespace, "")
            found = self.definer(path, member)
            return self._declared(*found, depth, read) if found is not None else None
        if kind not in ("instance", "static"):
            return None
        declaring = self.declarations.declaring((path, name), member)
        if not declaring:  # `got.post`: a `Record<HTTPAlias, GotRequestFunction>` part's value
            return self.declarations.recorded((path, name), member) if kind == "instance" else None
        where, qualified = declaring[0]
        extra = self.members(where)
        if called or qualified in extra.callables or (
                self.kinds(where).get(qualified) == "method" and qualified not in extra.accessors):
            return ("member", where, qualified, value if kind == "instance" else None)
        written = extra.returns.get(qualified)  # a field's type, a getter's return
        if written == "this":
            return value if kind == "instance" else None
        if written:
            return self.written(where, written)
        if qualified in extra.accessors:  # `get x() { return this._x }`: what it returns
            return self._called(("member", where, qualified, value if kind == "instance" else None), depth)
        assigned = extra.fields.get(qualified)  # `this.x = new T()`, `x = make()`
        found = self.evaluate(where, assigned, depth + 1, value if kind == "instance" else None) \
            if assigned is not None and depth < _DEPTH else None
        if found is None and len(declaring) > 1 and qualified not in extra.returns:
            # `this.router = a ?? b` in a subclass declares nothing: the base's `router!: Router` types it
            base, above = declaring[1]
            written = self.members(base).returns.get(above)
            return self.written(base, written) if written and written != "this" else None
        return found


UNION = "union"  # ("union", "union", (value, ...)): what each side of `a ?? b` or element of `[a, b]` is


def union(values: Any) -> Value | None:
    """One value when all agree, a union of instances and classes when they differ (a member used
    on it is a use of each one's declaration, as tsc reads a union's property), else None."""
    found: set[Value] = set()
    for value in values:
        if value is None:
            return None
        found.update(value[2] if value[0] == UNION else (value,))
    if len(found) == 1:
        return found.pop()
    if not found or any(v[0] not in ("instance", "static") for v in found):
        return None
    return (UNION, UNION, tuple(sorted(found)))


def _element(where: str) -> str:
    """The kind of an element of an array of `where`'s type (a union's array: the union)."""
    return UNION if where == UNION else "instance"
