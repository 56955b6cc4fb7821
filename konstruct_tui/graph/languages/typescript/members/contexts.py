"""Contextual typing of callback parameters and object literal keys: resolution of the `ctx` chain
heads (`facts.Context`) that `members/signatures.py` records, against the declared signatures of the callee (its
`params`, the `callsigs` of the types it names, the `props` of object types).

A callback's parameter j is typed when every overload of the callee whose parameter i is a function
type gives parameter j the same type; an object literal's key names the property of the one type
(of the parameter's type, through `Partial`/`Omit`/`Pick` and intersections) that declares it.
Anything that cannot be told (a type that does not resolve, disagreeing overloads) gives nothing:
the member stays by-name evidence, never a guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from ..facts import Head, Segment, Step, TypeScriptMemberFacts, member_step, thawed_spec
from .generics import ARRAY, AT, ELEMENT, RETURNED, Inline, instantiate, keys_of
from .generics import MISSING, argument_at
from .keyed import has_keyed, resolved_spec
from .signatures import ITERATING
from .written import LIB_TYPES

_PUSHING = frozenset({member_step("push"), member_step("unshift")})
_THEN = member_step("then")
_DEPTH = 24  # alias chains of utility types (`Except<Partial<Internals>, K> & {...}`, `Merge<StrictOptions, {...}>`) run deep


class Contexts:
    """Resolves `ctx` heads with a `Receivers` (its names, definers and type views)."""

    def __init__(self, receivers: Any) -> None:
        self._r = receivers
        self._literals: dict[tuple[str, Head], list[tuple[str, Any]]] = {}
        self._owners: dict[tuple[str, str], list[Owner]] = {}
        self._keyed: set[tuple[str, Head]] = set()  # heads (without keys) whose callee takes an `M[K]`

    def parameter(self, path: str, head: Head, depth: int) -> Any:
        context = head.context
        assert context is not None
        j, keys, segments, new, i, given = (context.parameter, context.keys, context.callee, context.new,
                                            context.argument, context.given)
        if given:  # the keys a call gives matter only to an `M[K]` spec:
            plain = Head("ctx", context=replace(context, given=()))  # read once without them (`app.get('/a', (c) => ...)`)
            value = self._r.evaluate(path, [plain], depth)
            if (path, plain) not in self._keyed:
                if value is not None and value[0] == "keys":
                    self._literals[(path, head)] = self._literals[(path, plain)]
                    return ("keys", path, head)
                return value
        if segments is None:  # the expression's own written type
            found: list[tuple[str, Any]] = [(path, thawed_spec(context.typed))]
        else:
            if segments[-1] in ITERATING and i == 0 and j == 0 and not keys and len(segments) > 1:
                # `xs.forEach((x) => ...)`: an element of a typed array
                array = self._r.evaluate(path, segments[:-1], depth + 1)
                if array is not None and array[0] in ("array", "map"):  # `m.forEach((v, k) => ...)`: a value
                    return ("union" if array[1] == "union" else "instance", array[1], array[2])
            if segments[-1] == _THEN and i == 0 and j == 0 and not keys and len(segments) > 1:
                # `load().then((x) => ...)`: a `Promise<T>` is read as `T`, so `x` is that T
                # (unless T itself declares `then`: a thenable of the project)
                settled = self._r.evaluate(path, segments[:-1], depth + 1)
                if settled is not None and settled[0] == "instance" and not self._r.declarations.declaring(settled[1:3], "then"):
                    return settled
            callee = self._r.evaluate(path, segments, depth + 1)
            overloads = self._callee_signatures(callee, new) if callee is not None else None
            last = segments[-1]
            if overloads is None and not new and len(segments) > 1 and type(last) is Step and last.kind == "member":
                overloads = self._property_signatures(path, segments, depth)
            found = [(where, argument_at(sig, i)) for where, sig in overloads or ()]
            if not overloads and not new and segments[-1] in _PUSHING and len(segments) > 2:
                found = self._pushed(path, segments[:-1], depth) or []  # each argument is an element
            if any(has_keyed(argument) for _, argument in found):
                self._keyed.add((path, Head("ctx", context=replace(context, given=()))))
            found = [(where, resolved_spec(self._r, where, argument, path, list(given), depth) if given and has_keyed(argument)
                      else argument) for where, argument in found if argument is not MISSING]
        for key in keys:  # down the nested object literals
            declarations = self._declarations(found, key)
            if declarations is None:
                return None
            found = [declared for _, declared in declarations]
        if not found:
            return None
        if j < 0:  # an object literal: its keys are looked up one by one (`holder`)
            self._literals[(path, head)] = found
            return ("keys", path, head)
        typed: set[Any] = set()
        for where, argument in found:
            shapes = self._shapes(where, argument, 0)
            if shapes is None:
                return None
            for shape_path, shape in shapes:
                writtens = shape[1]
                written = writtens[j] if j < len(writtens) and j != shape[2] else None
                typed.add(self._r.written(shape_path, written) if written else None)
        return typed.pop() if len(typed) == 1 else None

    def property_specs(self, path: str, written: str, key: str) -> list[Any]:
        """The specs of property `key` of the type named `written` in `path`, each read where it is
        declared (`["at", file, spec]`); [] when one cannot be told."""
        declarations = self._declarations([(path, ["ref", written])], key)
        specs = [declared for _, declared in declarations or ()]
        return [["at", *declared] for declared in specs] if specs and all(
            declared[0] is not None and isinstance(declared[1], list) for declared in specs) else []

    def alias_owners(self, path: str, written: str) -> list[Owner]:
        """The classes and interfaces a type alias written in `path` stands for as an object
        (`type ElysiaCookie = Prettify<CookieOptions & {...}>`), each with its dropped or kept keys;
        [] when it is no alias of such types or cannot be read."""
        key = (path, written)
        if key not in self._owners:
            self._owners[key] = []
            where = self._locate(path, written) if "." not in written else None
            if where is not None and where[1] in self.members(where[0]).callsigs:
                found = self._objects(path, ["ref", written], 0) or []
                self._owners[key] = [owner for owner in found if owner[0] is not None]
        return self._owners[key]

    def holder(self, value: Any, key: str) -> Any:
        """The instance whose type declares `key` of the object literal `value` (a `keys` value)."""
        found = self._literals.get((value[1], value[2]))
        return self._holder(found, key) if found else None

    def _declarations(self, found: list[tuple[str, Any]], key: str) -> list[tuple[Any, Any]] | None:
        """(owner, declared property) of `key` on every object type `found` names; None when one
        of them cannot be read (the answer is then unknown, never a guess). The key `[]` is an
        item of an array literal: (None, element spec) of every array type `found` names."""
        if key == ELEMENT:
            items = [self._elements(where, argument, 0) for where, argument in found]
            return None if None in items else [(None, item) for part in items for item in part or ()]
        if key == RETURNED:  # what a function of that type returns: each signature's written return
            shapes = [self._shapes(where, argument, 0) for where, argument in found]
            if None in shapes or any(len(sig) < 4 for part in shapes for _, sig in part or ()):
                return None
            return [(None, (where, sig[3])) for part in shapes for where, sig in part or ()]
        out = []
        for where, argument in found:
            owners = self._objects(where, argument, 0)
            if owners is None:
                return None
            for owner in owners:
                declared = self._property(owner, key)
                if declared is None:
                    return None
                if declared is not MISSING:
                    out.append((owner, declared))
        return out

    def _holder(self, found: list[tuple[str, Any]], key: str) -> Any:
        declarations = self._declarations(found, key)
        if declarations is None:
            return None
        holders = {("instance", owner[0], owner[1]) if owner[0] is not None else ("inline",) for owner, _ in declarations}
        value = holders.pop() if len(holders) == 1 else None
        return value if value is not None and value[0] == "instance" else None

    def _objects(self, path: str, found: Any, depth: int) -> list[Owner] | None:
        """The classes, interfaces and object-type aliases a spec stands for, as an object, each
        with the keys a utility type drops (`Omit<T, 'a'>`) or keeps (`Pick<T, 'a'>`)."""
        if found == 0:
            return []
        if found is None or depth > _DEPTH:
            return None
        kind, value = found[:2]
        if kind == AT:  # a generic alias's argument, read where it was written
            return self._objects(value, found[2], depth + 1)
        if kind in ("sig", ARRAY):
            return []
        if kind == "via":
            return self._objects(path, found[2], depth + 1) if self._utility(path, value) else None
        if kind == "inline":  # its keys, with the types of its properties read where it is written
            return [(None, Inline(value, path, found[2] if len(found) > 2 else {}), (), None)]
        if kind in ("Omit", "Pick"):
            inner = self._objects(path, value, depth + 1)
            keys = self._keys(path, found[2])
            if inner is None or keys is None:
                return None
            if kind == "Omit":
                return [(p, n, (*omit, *keys), only) for p, n, omit, only in inner]
            return [(p, n, omit, keys if only is None else tuple(k for k in only if k in keys))
                    for p, n, omit, only in inner]
        if kind == "or":
            owners: list[Owner] = []
            for part in value:
                more = self._objects(path, part, depth + 1)
                if more is None:
                    return None
                owners += more
            return owners
        if kind != "ref":
            return None
        where = self._locate(path, value)
        if where is None:
            # `Record<K, V>` and the other standard types declare no property of the project
            return [] if value in LIB_TYPES and value not in self._r.bound(path) else None
        kind = self._r.kinds(where[0]).get(where[1])
        extra = self.members(where[0])
        body = extra.callsigs.get(where[1])
        if body is not None and body[0] == "inline":
            return [(*where, (), None)]  # `type A = {...}`: its properties are `A.key`
        if body is not None:  # `type A = B & {...}`, `type A = Partial<B>`
            return self._objects(where[0], self._body(body, found, path), depth + 1)
        if where[1] in extra.aliases:  # `type A = B`
            value = self._r.written(where[0], extra.aliases[where[1]])
            return [(value[1], value[2], (), None)] if value is not None else None
        return [(*where, (), None)] if kind in ("class", "interface", "type") else None

    def _elements(self, path: str, found: Any, depth: int) -> list[tuple[str, Any]] | None:
        """(path, element spec) of the array types a spec stands for (a union's arrays; an alias
        of one), [] for a type that is certainly no array, None when that cannot be told."""
        if found == 0:
            return []
        if not isinstance(found, list) or depth > _DEPTH:
            return None
        kind = found[0]
        if kind == ARRAY:
            return [(path, found[1])]
        if kind == AT:
            return self._elements(found[1], found[2], depth + 1)
        if kind in ("sig", "inline"):
            return []
        if kind == "or":
            parts = [self._elements(path, part, depth + 1) for part in found[1]]
            return None if None in parts else [item for part in parts for item in part or ()]
        if kind == "ref":
            if found[1] in ("Array", "ReadonlyArray") and len(found) > 2 and found[1] not in self._r.bound(path):
                return [(path, found[2][0])]  # `Array<InitHook>`
            where = self._locate(path, found[1])
            if where is None:
                return None
            body = self.members(where[0]).callsigs.get(where[1])
            return self._elements(where[0], self._body(body, found, path), depth + 1) if body is not None else None
        return None

    def _utility(self, path: str, name: str) -> bool:
        """Whether a utility type outside TypeScript's lib (`Except`) is the project's own, or a
        package's (type-fest, not installed: tsc reads the type as `any`, which names nothing)."""
        bound = self._r.bound(path).get(name)
        return bool(bound[0]) if bound is not None else name in self._r.kinds(path)

    def _keys(self, path: str, kept: Any) -> tuple[str, ...] | None:
        """The keys an `Omit`/`Pick` names: written out, a union alias's, or `keyof` an argument's."""
        if isinstance(kept, list):
            return tuple(kept)
        if "keyof" in kept:
            return keys_of(path, kept["keyof"])
        return self.union_keys(path, kept["ref"])

    @staticmethod
    def _body(body: Any, found: Any, path: str) -> Any:
        """An alias's spec, instantiated with the arguments `found` (`["ref", name, args]`) writes."""
        return instantiate(body, found[2], path) if len(found) > 2 else body

    def union_keys(self, path: str, name: str) -> tuple[str, ...] | None:
        """The keys a union of string literals names (`type Skip = 'a' | 'b'`), or None."""
        where = self._locate(path, name)
        keys = self.members(where[0]).literals.get(where[1]) if where is not None else None
        return tuple(keys) if keys is not None else None

    def _property(self, owner: Owner, key: str) -> Any:
        """(declaring file, spec) of property `key` of `owner`; MISSING when it has none, None
        when that cannot be told (a base that does not resolve, an inline object type's member)."""
        path, name, omit, only = owner
        if key in omit or (only is not None and key not in only):
            return MISSING
        if path is None:  # an inline object type: `name` holds its keys (and its properties' types)
            if key not in name:
                return MISSING
            member = name.members.get(key) if isinstance(name, Inline) else None
            return (name.path, member) if member is not None else (None, None)
        declared = self._r.declarations.declaring((path, name), key, props=True)
        if not declared:
            bases = self.members(path).bases.get(name, ())
            resolved = all(self._r.written(path, b) is not None for b in bases)
            return MISSING if resolved else None
        where, qualified = declared[0]
        return where, self.members(where).props.get(qualified)

    def _locate(self, path: str, name: str) -> tuple[str, str] | None:
        bound = self._r.bound(path).get(name)
        if bound is None:
            return (path, name) if name in self._r.kinds(path) else None
        target, imported = bound
        return self._r.definer(target, imported) if target and imported != "*" else None

    def _property_signatures(self, path: str, segments: Sequence[Segment], depth: int) -> list[tuple[str, Any]] | None:
        """The call signatures of a property whose declared type is a function type, or an
        intersection of them (`all: (<T>(url, o?: O<T>) => P) & (<T>(o?: O<T>) => P)`)."""
        owner = self._r.evaluate(path, segments[:-1], depth + 1)
        step = segments[-1]
        if owner is None or owner[0] not in ("instance", "static") or not isinstance(step, Step):
            return None
        declared = self._r.declarations.declaring(owner[1:3], step.name, props=True)
        if not declared:
            return None
        where, qualified = declared[0]
        found = self.members(where).props.get(qualified)
        return self._shapes(where, found, 0) or None if isinstance(found, list) and found[0] in ("sig", "or") else None

    def _pushed(self, path: str, segments: Sequence[Segment], depth: int) -> list[tuple[str, Any]] | None:
        """(path, element spec) of an array property (`callbacks_: ((s: Scope) => void)[]`), for
        what `state.callbacks_.push(...)` is given (`Array<T>.push(...items: T[])`)."""
        owner = self._r.evaluate(path, segments[:-1], depth + 1)
        step = segments[-1]
        if owner is None or owner[0] not in ("instance", "static") or not isinstance(step, Step) or step.kind != "member":
            return None
        declared = self._r.declarations.declaring(owner[1:3], step.name, props=True)
        where, qualified = declared[0] if declared else (path, "")
        found = self.members(where).props.get(qualified)
        return self._elements(where, found, 0) if isinstance(found, list) else None

    def _callee_signatures(self, callee: Any, new: bool) -> list[tuple[str, Any]] | None:
        kind, path, name = callee[:3]
        if new:
            if kind != "static":
                return None
            return [(path, s) for s in self.members(path).params.get(f"{name}.constructor", ())] or None
        if kind == "instance":  # a field typed by a callable interface (`get!: HandlerInterface`)
            return self._named(path, name, 0) or None
        if kind not in ("function", "member"):
            return None
        extra = self.members(path)
        if kind == "member" and self._r.kinds(path).get(name) == "method" and name not in extra.params:
            return None  # a method without callback parameters (`returns` holds its return type)
        if name in extra.params:
            return [(path, s) for s in extra.params[name]]
        written = extra.returns.get(name) if kind == "member" else None
        if not written or "." in written:  # a field typed by a callable interface or alias
            return None
        shapes = self._shapes(path, ["ref", written], 0)
        return shapes or None

    def _shapes(self, path: str, found: Any, depth: int) -> list[tuple[str, Any]] | None:
        """The call signatures a spec stands for ([] for none), or None when it cannot be told."""
        if found == 0:
            return []
        if found is None or depth > _DEPTH:
            return None
        kind, value = found[:2]  # `["Omit", spec, keys]` has three
        if kind == AT:
            return self._shapes(value, found[2], depth + 1)
        if kind == ARRAY:
            return []
        if kind == "sig":
            return [(path, s) for s in value]
        if kind == "via":
            return self._shapes(path, found[2], depth + 1) if self._utility(path, value) else None
        if kind == "or":
            shapes: list[tuple[str, Any]] = []
            for part in value:
                more = self._shapes(path, part, depth + 1)
                if more is None:
                    return None
                shapes += more
            return shapes
        if kind == "ref":
            return self._named(path, value, depth, found)
        if kind == "inline":
            return []
        return None

    def _named(self, path: str, name: str, depth: int, found: Any = ()) -> list[tuple[str, Any]] | None:
        where = self._locate(path, name)
        if where is None:
            # `Got = {...} & Record<HTTPAlias, F> & F`: an object or collection of TypeScript's lib
            # adds no call signature to the intersection's
            return [] if name in _NO_CALL_SIGNATURE and name not in self._r.bound(path) else None
        used_in = path
        path, name = where
        kinds = self._r.kinds(path)
        extra = self.members(path)
        if name in extra.callsigs:
            return self._shapes(path, self._body(extra.callsigs[name], found, used_in), depth + 1)
        kind = kinds.get(name)
        if kind == "class" or kind == "enum" or (kind == "interface" and name not in extra.bases):
            return []  # an instance type: no call signature (an interface's bases might add one)
        if kind == "type":
            return []  # an alias of something with no call signature (`callsigs` keeps the rest)
        return None

    def members(self, path: str) -> TypeScriptMemberFacts:
        return self._r.members(path)


# Types of TypeScript's lib that have no call signature, whatever their arguments (mapped types
# keep properties only); `ReturnType<F>` and the other conditional types may be anything.
_NO_CALL_SIGNATURE = frozenset({
    "Record", "Partial", "Required", "Readonly", "Pick", "Omit", "Promise", "PromiseLike", "Array", "ReadonlyArray",
    "Map", "Set", "WeakMap", "WeakSet", "ReadonlyMap", "ReadonlySet", "Error", "Date", "RegExp", "Iterable",
    "AsyncIterable", "Iterator", "AsyncIterator", "ArrayLike"})
Owner = tuple  # (path or None for an inline object type, name or its keys, omitted keys, kept keys or None)
