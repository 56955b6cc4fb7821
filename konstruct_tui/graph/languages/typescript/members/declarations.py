"""Where a TypeScript member is declared: on a class, interface or object-type alias, or on one of
the types it extends or implements (an alias of a generic object type through what its arguments
make of it); namespaces a module exports (`export * as util`); and members of an intersection's
`Record<'get' | 'post', V>` part. `Receivers` (`members/receivers.py`) owns one, and the per-file
views and the evaluation of written types these walk through (`TypeViews`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ....facts import FileFacts
from ..facts import TypeScriptMemberFacts, members_of
from .contexts import Contexts

_DEPTH = 4  # base-class levels followed


class TypeViews(Protocol):
    """What declarations are looked up through: the project's files, read as `Receivers` reads them."""

    facts_of: Callable[[str], FileFacts | None]
    target_of: Callable[[FileFacts, int], str | None]
    contexts: Contexts

    def members(self, path: str) -> TypeScriptMemberFacts: ...

    def kinds(self, path: str) -> dict[str, str]: ...

    def bound(self, path: str) -> dict[str, tuple[str, str]]: ...

    def written(self, path: str, written: str) -> Any: ...


class Declarations:
    def __init__(self, views: TypeViews) -> None:
        self._views = views
        self._declaring: dict[tuple[str, str, str, bool], list[tuple[str, str]]] = {}
        self._namespaces: dict[tuple[str, str], str | None] = {}

    def namespace(self, path: str, name: str, depth: int = 0) -> str | None:
        """The module `path` exports as namespace `name` (`export * as util from './util'`, or an
        `import * as util` exported by name), looked for through `export *` barrels."""
        key = (path, name)
        if key not in self._namespaces:
            self._namespaces[key] = None  # an `export *` cycle finds nothing, not a loop
            self._namespaces[key] = self._namespace(path, name, depth)
        return self._namespaces[key]

    def _namespace(self, path: str, name: str, depth: int) -> str | None:
        facts = self._views.facts_of(path)
        if facts is None or depth > 8:
            return None
        for export in members_of(facts).exports:
            if export.exported != name:
                continue
            index, local = export.source, export.name
            if index >= 0 and local == "*":
                return self._views.target_of(facts, index)
            if index >= 0:  # `export {util} from '../core'`: whatever `util` is there (zod's `z.util.x`)
                target = self._views.target_of(facts, index)
                return self.namespace(target, local, depth + 1) if target else None
            bound = self._views.bound(path).get(local)
            if bound is None or not bound[0]:
                return None
            # `import * as util from './util'; export {util}`, or `import {util} from '../core'; export {util}`
            return bound[0] if bound[1] == "*" else self.namespace(bound[0], bound[1], depth + 1)
        for index, ref in enumerate(facts.imports):
            if ref.kind == "reexport" and ref.names == ("*",) and ref.alias is None:
                target = self._views.target_of(facts, index)
                found = self.namespace(target, name, depth + 1) if target else None
                if found is not None:
                    return found
        return None

    def declaring(self, owner: tuple[str, str], member: str, props: bool = False) -> list[tuple[str, str]]:
        """Where `member` of class `owner` is declared: the class itself, else the nearest base that
        declares it; then the same member further up (a call of an override is a use of the
        overridden member too, as find-references counts it). With `props`, a property whose type
        only contextual typing reads (`onError?: (c: Context) => void`) counts too; a member use
        of one stays by-name evidence, as before (any object may provide it)."""
        key = (*owner, member, props)
        if key not in self._declaring:
            self._declaring[key] = self._find_declaring(owner, member, props)
        return self._declaring[key]

    def _find_declaring(self, owner: tuple[str, str], member: str, props: bool) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        frontier, seen = [owner], {owner}
        for _ in range(_DEPTH + 1):
            following = []
            for path, name in frontier:
                qualified = f"{name}.{member}"
                extra = self._views.members(path)
                kinds = self._views.kinds(path)
                if qualified in kinds or qualified in extra.returns or qualified in extra.fields \
                        or ((props or kinds.get(name) == "class") and qualified in extra.props):
                    # a method, a typed field (not a symbol), a class's field of any type (`timeout = 1`)
                    found.append((path, qualified))
                parents: list[tuple[str, str]] = []
                for written in extra.bases.get(name, ()):
                    base = self._views.written(path, written)
                    # `implements ElysiaCookie`, an alias of `Prettify<CookieOptions & {...}>`
                    parents += [(base[1], base[2])] if base is not None else self._owners(path, written, member)
                if name in extra.callsigs and self._views.kinds(path).get(name) == "type":
                    # `type OptionsInit = Except<Partial<Internals>, 'hooks'> & {...}`: what its parts make
                    parents += self._owners(path, name, member)
                for parent in parents:
                    if parent not in seen:
                        seen.add(parent)
                        following.append(parent)
            frontier = following
            if not frontier:
                break
        return found

    def _owners(self, path: str, written: str, member: str) -> list[tuple[str, str]]:
        """The classes and interfaces alias `written` stands for that keep `member`."""
        return [(p, n) for p, n, omit, only in self._views.contexts.alias_owners(path, written)
                if member not in omit and (only is None or member in only)]

    def recorded(self, owner: tuple[str, str], member: str) -> Any:
        """The instance a `Record<'get' | 'post', V>` part of object type alias `owner` gives for
        `.member` (a V when the keys name it), else None."""
        path, name = owner
        for part in self._views.members(path).records.get(name, ()):
            named = part.keys if part.keys_of is None else self._views.contexts.union_keys(path, part.keys_of)
            if named is not None and member in named:
                return self._views.written(path, part.value)
        return None
